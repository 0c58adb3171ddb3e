"""No aimless cycling (issue 43, item 9): the Blue Lion solver prefers progress to repetition
among moves worth as much, its advice says what the search expects, and it stays
deterministic for a seed."""

from __future__ import annotations

import io
import random

import pytest

import engines
import opponents
import solver
from engines.blue_lion import BlueLionState
from sleuth.cli import main
from solver.search import blue_lion as search

GAME = engines.make("blue-lion")

CYCLE = (
    "pass",
    "lay t1 flip",
    "lay t6 left",
    "lay t4 right flip",
    "lay t5 right",
    "lay t3 right flip",
    "lay t2 left",
    "flip t6",
    "flip t3",
    "flip t4",
    "move t2",
    "flip t1",
    "swap t1 t4",
    "flip t3",
    "flip t1",
    "flip t4",
    "move t2",
    "move t3",
    "flip t3",
    "swap t4 t6",
    "flip t3",
    "swap t4 t6",
    "flip t6",
    "swap t4 t6",
    "flip t6",
    "swap t4 t6",
    "move t3",
    "swap t4 t6",
    "move t3",
    "swap t4 t6",
)
"""Game 1 of benchmarks/cycling.py (seed 1, Fujiko's solver first), as two solvers played it
before this fix: from move 20 on, Fujiko swapped t4 and t6 back and forth and Lupin answered
`move t3` or a flip of a known tile, 16 moves without a score or a back not seen; the game went
on to 152 moves."""


def cycled(moves: int = 28) -> BlueLionState:
    """The position after the first `moves` moves of the cycle (by default Lupin to move,
    where he played `move t3` back to a position he had been in twice)."""
    state = GAME.new_game(seed=1)
    for text in CYCLE[:moves]:
        state.apply(GAME.parse_action(text))
    assert isinstance(state, BlueLionState)
    return state


def self_play(seed: int, **options: object) -> BlueLionState:
    """Solver against solver, as `opponents.arena` seats them for game `seed`."""
    game = engines.make("blue-lion", **options)
    seats = [game.seats[(k + seed) % 2] for k in range(2)]
    bots = {
        seat: opponents.make("solver", game, seat, seed=seed * 1000 + k)
        for k, seat in enumerate(seats)
    }
    solver.forget()
    state = game.new_game(seed=seed)
    while (seat := state.to_move) is not None:
        state.apply(bots[seat].act(state.information_set(seat)))
    assert isinstance(state, BlueLionState)
    return state


def test_the_cycle_is_a_repetition() -> None:
    state = cycled()
    info = state.information_set("lupin")
    seen, _ = search.history(info, state._pairs)
    assert max(seen.values()) >= 3  # the cycle's positions recur
    assert state.to_move == "lupin" and state.scores == {"lupin": 0, "fujiko": 0}


def test_from_the_cycle_the_solver_makes_progress() -> None:
    state = cycled()
    info = state.information_set("lupin")
    move, found, _, _ = search.choose(info, random.Random(1001), **search.KNOBS)
    values = dict((a, v) for v, a in found.values)
    best = max(values.values())
    assert values[move] >= best - search.MARGIN  # no loss beyond the documented margin
    change, _ = found.progress[move]
    assert change != search.REPEAT  # a move worth as much reaches a new position
    assert found.progress[GAME.parse_action("move t3")] == (search.REPEAT, 2)  # the old choice


def test_when_every_good_move_repeats_the_least_repeated_is_chosen() -> None:
    """Two moves later Lupin's three moves that keep the score all go back (Fujiko's swap
    threatens): the one seen least wins, never one that gives away points."""
    state = cycled(30)
    move, found, _, _ = search.choose(
        state.information_set("lupin"), random.Random(7), **search.KNOBS
    )
    values = {a: v for v, a in found.values}
    near = [a for a, v in values.items() if v >= max(values.values()) - search.MARGIN]
    assert all(found.progress[a][0] == search.REPEAT for a in near)
    assert found.progress[move] == min(found.progress[a] for a in near)
    assert str(move) != "move t3"


def test_seeded_self_play_ends_before_the_turn_limit() -> None:
    """Game 1 went 152 moves (about 140 turns) before; with a turn limit of 60 it would have
    been decided by the limit. Now it is won outright, well inside it."""
    state = self_play(1, turn_limit=60)
    assert state.is_over and len(state.winners) == 1
    assert max(state.scores.values()) >= 7
    assert state.turns < 60


def test_self_play_is_deterministic_for_a_seed() -> None:
    first, second = self_play(1, turn_limit=12), self_play(1, turn_limit=12)
    assert first.to_json() == second.to_json()


def test_the_advice_values_are_what_the_search_computed() -> None:
    """Each value shown is the search's own for that move, with its horizon, beside the lead
    now (the finding: a constant "lead +2.0 expected after 3 moves" read as a promise)."""
    state = cycled()
    info = state.information_set("lupin")
    advice = solver.advise(info, seed=1001)
    move, found, _, _ = search.choose(info, random.Random(1001), **search.KNOBS)
    computed = {a: v for v, a in found.values}
    assert advice.move == move and found.depth == 3  # Lupin, Fujiko, Lupin
    for candidate in advice.candidates:
        assert candidate.value == computed[candidate.action]
        if abs(candidate.value) < search.WIN / 4:
            expected = f"lead {candidate.value:+.2f} expected after {found.depth} moves"
            assert expected in candidate.text
            assert "after 3 moves (yours, Fujiko's, yours)" in candidate.because[0]
    assert advice.text.startswith(("keeps the score", "gains", "loses ground"))


def test_why_says_why_the_move_is_best() -> None:
    """`why best` in play reads `Advice.reasons`: the value against the runner-up's, what
    the move changes, and the work behind it."""
    state = cycled()
    advice = solver.advise(state.information_set("lupin"), seed=1001)
    reasons = advice.reasons()
    runner = advice.runners_up[0]
    assert reasons[0].startswith(f"{advice.move}: ")
    assert f"next best {runner.action}" in reasons[1]
    assert f"{advice.value - runner.value:+.2f} against it" in reasons[1]
    assert "what it changes: a position you have not been in" in reasons  # the tie-break's
    assert any(r.startswith("the value is the lead expected after 3 moves") for r in reasons)
    assert any("within 0.05 points of the best" in r for r in reasons)  # the tie-break
    assert any(r.startswith("searched ") for r in reasons)
    other = advice.reasons(GAME.parse_action("move t3"))
    assert "what it changes: back to a position you have been in twice" in other
    assert f"the solver plays {advice.move} instead" in other[1]


def test_play_why_best_and_why_a_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In `sleuth play`, `why best` prints the advised move's reasons and `why MOVE` why
    the solver ranks MOVE below it."""
    argv = ["play", "blue-lion", "--as", "lupin", "--seed", "8", "-o", "first_player=lupin"]
    lines = ["why best", "why lay t2 left", "why lay t9", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())  # as read, however the terminal wrapped it
    state = engines.make("blue-lion", first_player="lupin").new_game(seed=8)
    advice = solver.advise(state.information_set("lupin"), seed=8)
    assert f"1. {advice.move}: {advice.text}" in out
    assert "2. next best " in out and "searched " in out
    assert "the solver did not score lay t2 left" in out  # not legal on an empty line
    assert "lay t9" in out.split("why lay t9")[-1]  # refused with the parser's reason
