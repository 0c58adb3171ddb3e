"""City Killer's motive predicates are data: the shipped fan-code table (rules section 2.4)
and a user's file (option `predicates_file`), read and checked."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engines
from engines import ConfigError
from engines.city_killer import CityKiller
from engines.city_killer.frames import DetectiveTurn
from engines.city_killer.material import MOTIVES, POOL, Resident, Scene
from engines.city_killer.motives import DEFAULT, FAN_CODE

SPARED = {"power", "press", "bohemia"}


def spec_fits(motive: str, scene: Scene) -> bool:
    """Section 2.4's table, written out here as the reference the data file must match."""
    v, h = scene.victim, scene.history
    return {
        "psychopath": len({x.age for x in h} | {v.age}) <= 2,
        "maniac": not h or v.sex == h[0].sex,
        "sadist": not scene.intimidated,
        "thug": not scene.central,
        "hitman": scene.alone,
        "terrorist": all(x.group != v.group for x in h),
        "radical": sum(x.group == v.group for x in h) <= 1,
        "robber": v.group not in SPARED,
    }[motive]


def random_scene(rng: random.Random) -> Scene:
    people: list[Resident] = rng.sample(POOL, 6)
    flags = [rng.random() < 0.5 for _ in range(3)]
    return Scene(people[0], *flags, tuple(people[1 : rng.randint(1, 6)]))


def test_the_shipped_file_is_the_table_of_section_2_4() -> None:
    rng = random.Random(4)
    for _ in range(3000):
        scene = random_scene(rng)
        assert FAN_CODE.fitting(scene) == {m for m in MOTIVES if spec_fits(m, scene)}
    assert engines.make("city-killer").predicates is FAN_CODE  # type: ignore[attr-defined]


def test_a_predicates_file_changes_who_may_be_killed(tmp_path: Path) -> None:
    table = json.loads(DEFAULT.read_text())
    table["motives"]["robber"] = [
        {"test": "attribute", "attribute": "group", "in": ["law"]},
        {"test": "victim", "is": "alone", "value": False},
    ]
    path = tmp_path / "motives.json"
    path.write_text(json.dumps(table))
    game = engines.make("city-killer", predicates_file=str(path))
    assert isinstance(game, CityKiller)
    law, crime = POOL[0], POOL[2]
    assert (law.group, crime.group) == ("law", "crime")
    assert game.predicates.fits("robber", Scene(law, False, False, False, ()))
    assert not game.predicates.fits("robber", Scene(law, True, False, False, ()))
    assert not game.predicates.fits("robber", Scene(crime, False, False, False, ()))
    state = game.new_game(5)  # the engine's murders follow the file
    while state.to_move == "killer" or not isinstance(state.frames[-1], DetectiveTurn):
        action = state.legal_actions()[0]
        if str(action).startswith("murder"):
            name = str(action).split()[1]
            assert game.predicates.fits(state._motive, state.scene_of(name))
        state.apply(action)


@pytest.mark.parametrize(
    ("motives", "message"),
    [
        ({"robber": []}, "must give exactly psychopath"),
        ({"robber": [{"test": "lucky"}]}, "'test' is one of victim, attribute"),
        ({"robber": [{"test": "victim", "is": "tall", "value": True}]}, "'is' is one of alone"),
        ({"robber": [{"test": "attribute", "attribute": "age", "in": ["ancient"]}]},
         "age is one of young"),
        ({"robber": [{"test": "distinct", "attribute": "age", "at_most": -1}]}, "'at_most'"),
        ({"robber": [{"test": "shared", "attribute": "eyes", "at_most": 1}]}, "'attribute' is"),
        ({"robber": [{"test": "same_as_first", "attribute": "sex", "at_most": 1}]},
         "exactly the keys test, attribute"),
    ],
)  # fmt: skip
def test_a_wrong_predicates_file_is_refused(tmp_path: Path, motives: dict, message: str) -> None:
    table = json.loads(DEFAULT.read_text())
    if motives == {"robber": []}:
        del table["motives"]["robber"]
    else:
        table["motives"].update(motives)
    path = tmp_path / "motives.json"
    path.write_text(json.dumps(table))
    with pytest.raises(ConfigError, match="predicates_file") as error:
        engines.make("city-killer", predicates_file=str(path))
    assert message in str(error.value)
    path.write_text("{")
    with pytest.raises(ConfigError, match="is not JSON"):
        engines.make("city-killer", predicates_file=str(path))
    with pytest.raises(ConfigError, match="cannot be read"):
        engines.make("city-killer", predicates_file=str(tmp_path / "missing.json"))
