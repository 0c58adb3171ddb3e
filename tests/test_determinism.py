"""A seed fixes a game: the demo and the arena reproduce exactly, whatever the machine's load.

The bots' search is bounded by work; a time budget is off unless asked for. These tests play
small configurations twice (the full games, three runs with one under load, are measured in
benchmarks/advice.py).
"""

from __future__ import annotations

import pytest

import engines
import opponents
from sleuth.cli import main

SMALL = {
    "blue-lion": ["-o", "turn_limit=6"],
    "noir": ["-o", "grid=3"],
    "alibi": ["-o", "deck=small", "--players", "3"],
}


@pytest.mark.parametrize("game", SMALL)
def test_demo_with_a_seed_prints_the_same_game_twice(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for _ in range(2):
        assert main(["demo", game, "--seed", "7", *SMALL[game]]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert "won" in outputs[0].splitlines()[-1]


@pytest.mark.parametrize("name", ["noir", "alibi"])
def test_arena_with_a_seed_gives_the_same_games_twice(name: str) -> None:
    game = {
        "noir": engines.make("noir", grid=3),
        "alibi": engines.make("alibi", deck="small", players=3),
    }[name]
    lineup = ["solver"] + ["heuristic"] * (len(game.seats) - 1)
    runs = [opponents.arena(game, lineup, games=2, workers=1, seed=11) for _ in range(2)]
    first, second = (
        [(r.seats, r.wins, r.points, r.length, r.summaries) for r in run.records] for run in runs
    )
    assert first == second


@pytest.mark.parametrize("name", ["blue-lion", "noir", "alibi"])
def test_solver_bots_have_no_time_budget_unless_asked(name: str) -> None:
    game = engines.make(name)
    assert opponents.make("solver", game, game.seats[0]).time_budget is None  # type: ignore[attr-defined]
