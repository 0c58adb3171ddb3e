"""City Killer bots: legal moves for both roles from information sets alone, determinism, and
the solver ahead of the heuristic on a fixed sample (the arena measures it properly)."""

from __future__ import annotations

import random

import pytest

import engines
import opponents
from engines import ConfigError

GAMES = [
    engines.make("city-killer"),
    engines.make(
        "city-killer", residents=10, pool=27, liar_model="random", question_limit="per_phase"
    ),
]


def play(game: engines.Game, lineup: dict[str, str], seed: int) -> engines.State:
    bots = {seat: opponents.make(name, game, seat, seed=seed) for seat, name in lineup.items()}
    state = game.new_game(seed)
    while not state.is_over:
        seat = state.to_move
        action = bots[seat].act(state.information_set(seat))
        assert action in state.legal_actions(), f"{lineup[seat]} played illegal {action}"
        state.apply(action)
    return state


@pytest.mark.parametrize("game", GAMES, ids=["full", "small"])
@pytest.mark.parametrize("name", ["random", "heuristic", "solver"])
def test_bots_play_whole_games_legally(game: engines.Game, name: str) -> None:
    for seed in range(2):
        state = play(game, {"killer": name, "detective": name}, seed)
        assert state.winners


def test_bots_are_deterministic_for_a_seed() -> None:
    game = GAMES[0]
    lineup = {"killer": "solver", "detective": "solver"}
    assert play(game, lineup, 4).to_json() == play(game, lineup, 4).to_json()


def test_the_solver_detective_wins_more_than_the_heuristic() -> None:
    game = GAMES[0]
    wins = {"heuristic": 0, "solver": 0}
    for name in wins:
        for seed in range(6):
            state = play(game, {"killer": "heuristic", "detective": name}, seed)
            wins[name] += state.winners == ("detective",)
    assert wins["solver"] > wins["heuristic"]


def test_bot_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="time_budget"):
        opponents.make("solver", GAMES[0], "detective", time_budget=-1)
    with pytest.raises(ConfigError, match="no option"):
        opponents.make("solver", GAMES[0], "killer", depth=3)


def test_notepad_lists_open_motives() -> None:
    state = GAMES[0].new_game(1)
    rng = random.Random(1)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    pad = opponents.notepad(state.information_set("detective"))
    assert any(hint.text.startswith("Motives still open") for hint in pad)
