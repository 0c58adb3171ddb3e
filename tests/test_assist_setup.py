"""The setup pickers (sleuth.assist.setup): the answers a person picks make the very lines
the notation reads, so a session started from picks records what the engine itself shows the
seat at the start of a recorded game; a part left blank is typed later, a part picked in part
is refused with what is missing."""

from __future__ import annotations

import pytest

import engines
from engines import InvalidObservation
from sleuth.assist import Session, setup
from sleuth.assist.transcribe import typed_lines


def _alibi(lines: list[str]) -> dict[str, str]:
    return {"dealer": lines[0].split()[1], "deal": " ".join(lines[1].split()[1:])}


def _blue_lion(lines: list[str]) -> dict[str, str]:
    faces = {line.split()[1]: line.split()[2] for line in lines if line.startswith("toss")}
    first = next(line.split()[1] for line in lines if line.startswith("first"))
    return {**faces, "first": first}


def _noir(lines: list[str]) -> dict[str, str]:
    rows = [row.split() for row in lines[0].removeprefix("setup ").split(" / ")]
    chosen = {f"r{r}c{c}": name for r, row in enumerate(rows, 1) for c, name in enumerate(row, 1)}
    kind, _, rest = lines[1].partition(" ")
    return {**chosen, kind: rest}


def _serial_killer(lines: list[str]) -> dict[str, str]:
    words = lines[0].split()
    return {"first": words[2], **dict(word.split("@") for word in words[3:])}


def _city_killer(lines: list[str]) -> dict[str, str]:
    people = lines[0].removeprefix("setup ").split(" buildings ")[0].split()
    placed = dict(person.split("@") for person in people)
    chosen = {"residents": " ".join(placed)} | {f"at-{n}": at for n, at in placed.items()}
    row = next(line for line in lines if line.startswith("row ")).split()[1:]
    chosen |= {f"row-{i}": card for i, card in enumerate(row, 1)}
    for line in lines:
        if line.startswith("secrets"):
            words = line.split()
            chosen |= {"identity": words[1], "figurant": words[3], "motive": words[5],
                       "drawn": " ".join(words[7:])}  # fmt: skip
    return chosen


@pytest.mark.parametrize(
    "name, seat, answers, made, options",
    [
        ("alibi", 2, _alibi, 3, {"players": 4}),
        ("alibi", 0, _alibi, 3, {"players": 3}),
        ("blue-lion", "fujiko", _blue_lion, 2, {}),
        ("noir", "killer", _noir, 2, {}),
        ("noir", "inspector", _noir, 2, {"grid": 4}),
        ("serial-killer", 1, _serial_killer, 1, {}),
        ("city-killer", "killer", _city_killer, 6, {}),
        ("city-killer", "detective", _city_killer, 5, {}),
    ],
)
def test_picks_make_what_the_engine_shows_the_seat(
    tmp_path, name, seat, answers, made, options
) -> None:
    game = engines.make(name, **options)
    for seed in (5, 6):
        info = game.random_game(seed).information_set(seat)
        chosen = answers(typed_lines(game, info))
        offered = {pick.name: pick for pick in setup.picks(game, seat, chosen)}
        for key, value in chosen.items():  # every answer is one of the choices offered
            values = dict(offered[key].choices)
            assert all(v in values for v in value.split()), (key, value)
            assert len(value.split()) == offered[key].count, key
        lines = setup.entries(game, seat, chosen)
        assert len(lines) == made, lines
        session = Session.new(name, seat, dir=tmp_path, name=f"s{seed}", entries=lines, **options)
        recorded = session.information_set().observations
        assert recorded == info.observations[: len(recorded)]
        assert session.reading().status in ("ok", "waiting")
        session.close()


def test_blank_parts_are_typed_later_and_half_picked_parts_refused(tmp_path) -> None:
    alibi = engines.make("alibi", players=4)
    assert [p.name for p in setup.picks(alibi, 0, {})] == ["dealer"]  # the deal waits for it
    deal = setup.picks(alibi, 0, {"dealer": "2"})[1]
    assert deal.count == 19 and len(deal.choices) == 78 and len(deal.groups) == 26
    assert setup.picks(alibi, 3, {"dealer": "0"})[1].count == 18
    assert setup.entries(alibi, 0, {"dealer": "2"}) == ["dealer 2"]
    with pytest.raises(InvalidObservation, match="entry 2"):  # the notation's own check
        Session.new("alibi", 0, dir=tmp_path, entries=["dealer 2", "deal poison-arsenic"])
    assert Session.stored(tmp_path) == []  # nothing stored
    noir = engines.make("noir")
    assert setup.entries(noir, "killer", {"identity": "Ada"}) == []
    with pytest.raises(InvalidObservation, match="24 cells of the grid are not picked"):
        setup.entries(noir, "killer", {"r1c1": "Ada"})
    with pytest.raises(InvalidObservation, match="missing: SEX"):
        setup.entries(engines.make("serial-killer", genres=2), 0, {"first": "red", "AGE": "1"})
    blue = engines.make("blue-lion", first_player="fujiko")
    assert setup.entries(blue, "lupin", {"t1": "L", "t2": "F"}) == ["toss t1 L t2 F"]
    assert [p.name for p in setup.picks(blue, "lupin", {})][-1] == "t6"  # no "first" to pick


def test_every_game_offers_setup_picks() -> None:
    for name in engines.names():
        game = engines.make(name)
        assert engines.game_module(name, "sleuth.assist.setup") is not None, name
        assert setup.picks(game, game.seats[0], {}), name
