"""Every notation's parser refuses any text with a SleuthError that says what was expected
(issue 42: "Typed lines"), and `Game.parse_entry` refuses a `before` that is not a record of
the game the same way.

The regression tests are named after the findings of issue 42 (and of its audit: the ones
the fuzzing of tests/typed_lines.py found). The property tests type random and mutated lines
at random positions of random legal games; their seed changes with each run and is in every
failure's message (set SLEUTH_FUZZ_SEED to replay one).
"""

from __future__ import annotations

import os
import random
from functools import cache

import pytest

import engines
from engines import InformationSet, InvalidObservation, Observation
from tests.typed_lines import typed_lines

CONFIGS = {
    "alibi": {"players": 3},
    "blue-lion": {},
    "city-killer": {},
    "noir": {},
    "serial-killer": {"players": 4},
}
POSITIONS = 5  # random positions per game
LINES = 80  # lines per position and seat


@cache
def game_of(name: str) -> engines.Game:
    return engines.make(name, **CONFIGS[name])


def fuzz_seed() -> int:
    """A new seed each run, or SLEUTH_FUZZ_SEED's to replay a failure."""
    given = os.environ.get("SLEUTH_FUZZ_SEED")
    return int(given) if given else random.SystemRandom().randrange(2**32)


def random_position(game: engines.Game, rng: random.Random) -> engines.State:
    """A random legal game played some random number of moves (maybe to its end)."""
    state = game.new_game(seed=rng.randrange(2**32))
    for _ in range(rng.randrange(300)):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def parse_or_refuse(
    game: engines.Game, line: str, seat: engines.Seat, before: tuple[Observation, ...], why: str
) -> None:
    """Observations or a SleuthError; anything else fails the test, saying how to replay it."""
    try:
        found = game.parse_entry(line, seat, before)
    except engines.SleuthError:
        return
    except Exception as error:  # the failure under test: any other exception
        pytest.fail(f"{why}: {game.name} seat {seat!r} line {line!r} raised {error!r}")
    assert isinstance(found, tuple), why
    assert all(isinstance(obs, Observation) for obs in found), why


def refusal(game: engines.Game, line: str, seat: engines.Seat, before: object = ()) -> str:
    with pytest.raises(InvalidObservation) as refused:
        game.parse_entry(line, seat, before)  # type: ignore[arg-type]
    return str(refused.value)


# --- finding 1: Noir -------------------------------------------------------------------------
@pytest.mark.parametrize("line", [";", ",", ";, ;"])
def test_finding_1_noir_punctuation_is_refused(line: str) -> None:
    message = refusal(game_of("noir"), line, "killer")
    assert "has no words" in message and "setup" in message


# --- finding 2: City Killer ------------------------------------------------------------------
@pytest.mark.parametrize("line", ["detective", "killer", "killer:", "detective:", "kil", "detecti"])
def test_finding_2_city_killer_seat_without_move_is_refused(line: str) -> None:
    message = refusal(game_of("city-killer"), line, "killer")
    assert "MOVE" in message and "takes card" in message


def test_finding_2_city_killer_shortened_seat_reads_its_take() -> None:
    game = game_of("city-killer")
    assert game.parse_entry("kil takes card", "killer") == game.parse_entry(
        "killer takes card", "killer"
    )


# --- finding 3: Serial Killer ----------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    [
        "round-end 1",
        "round-end 1 hunted 5",
        "round-end 1 unused 2 hunted 5 ferocity 57 caught none",
        "round-end 1 unused 2 hunted 5 ferocity 57 first red",
        "round-end 1 unused 2 hunted 5 caught none first red",
        "round-end 1 caught none first red",
        "end cost",
        "end exhausted",
        "end exhausted profile AGE.1",
        "buy red 3 investigate",
        "buy red 3 investigate cost 3",
    ],
)
def test_finding_3_serial_killer_missing_keyword_is_refused(line: str) -> None:
    game = game_of("serial-killer")
    before = game.new_game(seed=1).information_set(0).observations
    message = refusal(game, line, 0, before)
    assert line in message and "the form is" in message


# --- finding 8: what comes before a line -----------------------------------------------------
@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("before", [None, [1, 2], "setup", 7], ids=["none", "ints", "str", "int"])
def test_finding_8_before_that_is_not_observations_is_refused(name: str, before: object) -> None:
    game = game_of(name)
    message = refusal(game, "x", game.seats[0], before)
    assert "engines.Observation" in message


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_finding_8_information_set_as_before_is_refused(name: str) -> None:
    game = game_of(name)
    info = game.new_game(seed=1).information_set(game.seats[0])
    assert isinstance(info, InformationSet)
    assert "info.observations" in refusal(game, "x", game.seats[0], info)


NONSENSE_BEFORE: dict[str, list[tuple[Observation, ...]]] = {
    "alibi": [
        (Observation.of("hands", round=None, sizes=None),),
        (Observation.of("seating", players=3, dealer=0, start=1), Observation.of("deal")),
        (Observation.of("seating", players=3, dealer=0, start=1),
         Observation.of("lay", seat=9, group="a", cards=["x"], points=1)),
        (Observation.of("deal", seat=0, cards=[]),),
    ],
    "city-killer": [
        (Observation.of("setup", residents=5, placement=[], buildings=[]),),
        (Observation.of("setup"),),
    ],
}  # fmt: skip
"""Well-typed Observations that are no record of the game, each of which crashed its parser."""


@pytest.mark.parametrize(
    ("name", "before"),
    [(name, before) for name, befores in NONSENSE_BEFORE.items() for before in befores],
)
def test_finding_8_nonsense_before_is_refused(name: str, before: tuple[Observation, ...]) -> None:
    game = game_of(name)
    for line in ("0 asks 1 seen cyanide: 1", "hands 24 25 25", "round 2", "Vera answered yes"):
        assert "before" in refusal(game, line, game.seats[0], before)


# --- found by the fuzzing of tests/typed_lines.py -------------------------------------------
def test_audit_alibi_number_of_5000_digits_is_refused() -> None:
    game = game_of("alibi")
    before = game.new_game(seed=1).information_set(0).observations
    assert "a number from" in refusal(game, "9" * 5000 + " asks 1 seen cyanide: 1", 0, before)


@pytest.mark.parametrize("line", ["round ²", "pawn 2,3 cost ①", "reshuffled evidence " + "9" * 9])
def test_audit_city_killer_odd_number_is_refused(line: str) -> None:
    assert "a number from 0 to 999" in refusal(game_of("city-killer"), line, "detective")


@pytest.mark.parametrize("line", ["place ² 3", "place red ²", "roll ٣ 3 3 3 3 0", "pollution ①"])
def test_audit_serial_killer_odd_number_is_refused(line: str) -> None:
    game = game_of("serial-killer")
    before = game.new_game(seed=1).information_set(0).observations
    assert "the form is" in refusal(game, line, 0, before)


# --- properties ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_typed_line_is_read_or_refused(name: str) -> None:
    """Random and mutated lines at random positions, from every seat: each gives observations
    or a SleuthError."""
    seed = fuzz_seed()
    rng = random.Random(seed)
    game = game_of(name)
    for _ in range(POSITIONS):
        state = random_position(game, rng)
        for seat in game.seats:
            before = state.information_set(seat).observations
            for line in typed_lines(game, seat, before, rng, LINES):
                parse_or_refuse(game, line, seat, before, f"SLEUTH_FUZZ_SEED={seed}")


NONSENSE_VALUES = (None, 0, -1, 10**9, True, "", "x", (), (1,), ("a", "b"), ((1, 2),), 1.5)


def nonsense(obs: Observation, pool: list[Observation], rng: random.Random) -> Observation:
    """`obs` with a field changed or dropped, its kind swapped, or another observation."""
    fields = list(obs.fields)
    roll = rng.randrange(4)
    if roll == 0 and fields:
        at = rng.randrange(len(fields))
        fields[at] = (fields[at][0], rng.choice(NONSENSE_VALUES))
    elif roll == 1 and fields:
        del fields[rng.randrange(len(fields))]
    elif roll == 2:
        return Observation(rng.choice(pool).kind, obs.fields)
    else:
        return rng.choice(pool)
    return Observation(obs.kind, tuple(fields))


def observed(name: str, rng: random.Random) -> tuple[Observation, ...]:
    """What the first seat of a random position of game `name` observed."""
    game = game_of(name)
    return random_position(game, rng).information_set(game.seats[0]).observations


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_line_after_a_nonsense_before_is_read_or_refused(name: str) -> None:
    """Well-typed Observations that make no record of the game (fields of the wrong type or
    missing, kinds swapped, observations of other games) give observations or a SleuthError."""
    seed = fuzz_seed()
    rng = random.Random(seed)
    game = game_of(name)
    others = [obs for other in sorted(CONFIGS) if other != name for obs in observed(other, rng)]
    for _ in range(POSITIONS):
        state = random_position(game, rng)
        for seat in game.seats:
            real = state.information_set(seat).observations
            pool = [*real, *others]
            for _ in range(4):
                before = list(real)
                at = rng.randint(0, max(0, len(before) - 1))
                before[at : at + 1] = [nonsense(before[at], pool, rng)] if before else []
                for line in typed_lines(game, seat, real, rng, 10):
                    parse_or_refuse(game, line, seat, tuple(before), f"SLEUTH_FUZZ_SEED={seed}")
