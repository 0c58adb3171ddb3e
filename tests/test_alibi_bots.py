"""Alibi bots: legal play from information sets only, accusations when the box is known."""

from __future__ import annotations

import engines
import opponents
from engines.alibi import Accuse, Ask

GAME = engines.make("alibi", players=3, deck="small")


def test_heuristic_and_solver_play_legal_games() -> None:
    result = opponents.arena(GAME, ["solver", "heuristic", "heuristic"], games=2, seed=4)
    assert result.games == 2 and sum(result.wins) > 0


def test_solver_bot_accuses_when_the_box_is_certain() -> None:
    state = GAME.new_game(1)
    box = state.box()
    info = state.information_set(state.to_move)
    bot = opponents.make("solver", GAME, state.to_move, seed=0)
    action = bot.act(info)
    assert isinstance(action, Ask | Accuse)
    if isinstance(action, Accuse):
        assert action.cards == box


def test_solver_bot_rejects_bad_options() -> None:
    import pytest

    with pytest.raises(engines.ConfigError):
        opponents.make("solver", GAME, 0, time_budget=0)
