"""The core API that adapters build on, for every game (tests/conformance.py,
`check_core_api`): explicit chance, action ids, undo, tensors, returns, history, copies."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

import engines
from tests import test_alibi_engine, test_blue_lion_engine, test_noir_engine
from tests.conformance import EngineSpec, check_core_api

NOT_YET = "not yet implemented for this engine (no explicit deal, action ids or tensors)"

CASES = [
    ("blue-lion", {}, test_blue_lion_engine),
    (
        "blue-lion",
        {"first_player": "fujiko", "passing": "any-time", "target": 4},
        test_blue_lion_engine,
    ),
    ("noir", {}, test_noir_engine),
    ("noir", {"grid": 4, "deck": "separate", "citizen_arrest": True}, test_noir_engine),
    ("alibi", {"players": 3, "deck": "small", "round_limit": 4}, test_alibi_engine),
    ("alibi", {"players": 5, "round_limit": 2, "end_variant": "solutions"}, test_alibi_engine),
]


@pytest.mark.parametrize(("name", "options", "module"), CASES, ids=lambda c: str(c)[:30])
@pytest.mark.parametrize("seed", [0, 1])
def test_core_api(name: str, options: dict, module: ModuleType, seed: int) -> None:
    game = engines.make(name, **options)
    spec = EngineSpec(game, module.transitions, module.twin, module.illegal_candidates)
    rng = random.Random(seed)
    check_core_api(spec, seed, lambda n: rng.randrange(n))


@pytest.mark.parametrize("name", ["city-killer", "serial-killer"])
def test_core_api_not_yet(name: str) -> None:
    game = engines.make(name)
    assert not game.explicit_chance
    with pytest.raises(engines.ConfigError):
        game.initial_state()
    pytest.skip(f"{name}: {NOT_YET}")
