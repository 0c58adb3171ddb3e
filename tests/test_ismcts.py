"""The ismcts opponent (opponents/ismcts.py): OpenSpiel's ISMCTSBot over the adapter, its
worlds drawn by `solver.sample_state`."""

from __future__ import annotations

import random

import pytest

import engines
import opponents

pytest.importorskip("pyspiel", reason="the extra sleuth[openspiel] is not installed")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("blue-lion", {}),
        ("noir", {"grid": 4}),
        ("serial-killer", {"players": 3, "genres": 3, "traits_per_genre": 4, "start_points": 30}),
        ("city-killer", {"residents": 8}),
    ],
)
def test_plays_legal_moves_deterministically(name: str, options: dict) -> None:
    game = engines.make(name, **options)
    state, rng = game.new_game(5), random.Random(0)
    for _ in range(4):
        seat = state.to_move
        info = state.information_set(seat)
        first = opponents.make("ismcts", game, seat, seed=7, simulations=8).act(info)
        again = opponents.make("ismcts", game, seat, seed=7, simulations=8).act(info)
        assert first == again and first in state.legal_actions()
        state.apply(first if rng.random() < 0.5 else rng.choice(state.legal_actions()))


def test_refusals() -> None:
    game = engines.make("blue-lion")
    with pytest.raises(engines.ConfigError, match="no option"):
        opponents.make("ismcts", game, "lupin", depth=3)
    with pytest.raises(engines.ConfigError, match="simulations"):
        opponents.make("ismcts", game, "lupin", simulations=0)
