"""Noir bots: legal moves for both roles from information sets only, the time budget, the arena."""

from __future__ import annotations

import random

import pytest

import engines
import opponents
from engines import ConfigError

GAMES = [engines.make("noir"), engines.make("noir", grid=4, deck="separate", citizen_arrest=True)]


def random_positions(game: engines.Game, count: int, seed: int) -> list[engines.State]:
    """States of random games, each stopped at a random step before its end."""
    rng = random.Random(seed)
    states = (game.random_game(seed + k, moves=rng.randrange(40)) for k in range(count))
    return [state for state in states if not state.is_over]


@pytest.mark.parametrize("game", GAMES, ids=["5x5", "4x4-separate-citizen"])
def test_legal_actions_from_the_information_set_equal_the_engines(game: engines.Game) -> None:
    for state in random_positions(game, 60, seed=1):
        info = state.information_set(state.to_move)
        assert game.legal_actions_for(info) == state.legal_actions()
        other = "killer" if state.to_move == "inspector" else "inspector"
        with pytest.raises(engines.NotToMove, match="turn, not"):
            game.legal_actions_for(state.information_set(other))


@pytest.mark.parametrize("game", GAMES, ids=["5x5", "4x4-separate-citizen"])
@pytest.mark.parametrize("name", ["random", "heuristic", "solver"])
def test_bots_play_legal_actions_for_both_roles(game: engines.Game, name: str) -> None:
    options: dict[str, object] = {}
    bots = {seat: opponents.make(name, game, seat, seed=3, **options) for seat in game.seats}
    for state in random_positions(game, 25, seed=7):
        seat = state.to_move
        info = state.information_set(seat)
        action = bots[seat].act(info)  # the bot gets the information set, never the state
        assert action in state.legal_actions(), f"{name} played illegal {action}"


@pytest.mark.parametrize("game", GAMES, ids=["5x5", "4x4-separate-citizen"])
def test_solver_scores_every_action_and_is_deterministic_for_a_seed(game: engines.Game) -> None:
    """Its work is one scoring per legal action, whatever the clock; a seed fixes its move."""
    for k, state in enumerate(random_positions(game, 20, seed=11)):
        seat = state.to_move
        info = state.information_set(seat)
        runs = [opponents.make("solver", game, seat, seed=k) for _ in range(2)]
        moves = [bot.act(info) for bot in runs]
        assert moves[0] == moves[1]
        legal = len(state.legal_actions())
        assert all(bot.scored == (legal if legal > 1 else 0) for bot in runs)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ConfigError, match="no option"):
        opponents.make("solver", GAMES[0], "killer", depth=3)
    with pytest.raises(ConfigError, match="time_budget"):
        opponents.make("solver", GAMES[0], "killer", time_budget=0)
    with pytest.raises(ConfigError, match="no option"):
        opponents.make("heuristic", GAMES[0], "inspector", time_budget=1.0)


def test_a_small_arena_between_every_kind_of_bot() -> None:
    game = GAMES[0]
    lineups = [("solver", "heuristic"), ("heuristic", "solver"), ("random", "heuristic")]
    for lineup in lineups:
        entries = list(lineup)
        result = opponents.arena(game, entries, games=4, workers=1, seed=5, rotate=False)
        assert result.games == 4 and sum(result.wins) == pytest.approx(4)
        assert all(times for times in result.decision_times)
        for k, seat in enumerate(game.seats):  # not rotated: entry k always in seat k
            assert result.seats_of(k) == [seat]
            assert result.win_rate(seat) == result.entry_win_rate(k)
