"""PettingZoo's own checks on every adaptable game (engines/adapters/pettingzoo.py):
`api_test` and `seed_test`."""

from __future__ import annotations

import pytest

import engines

pettingzoo_test = pytest.importorskip(
    "pettingzoo.test", reason="the extra sleuth[pettingzoo] is not installed"
)
from engines.adapters.pettingzoo import env  # noqa: E402

CONFIGS: dict[str, dict[str, object]] = {
    "alibi": {"players": 3, "deck": "small", "round_limit": 3},
    "blue-lion": {"target": 4, "turn_limit": 30},
    "city-killer": {"residents": 8},
    "noir": {"grid": 4, "turn_limit": 40},
    "serial-killer": {"players": 3, "genres": 3, "traits_per_genre": 4, "start_points": 30},
}


def options(name: str) -> dict[str, object]:
    return CONFIGS[name]


@pytest.mark.parametrize("name", engines.names())
def test_api_test(name: str) -> None:
    pettingzoo_test.api_test(env(name, **options(name)), num_cycles=200)


@pytest.mark.parametrize("name", engines.names())
def test_seed_test(name: str) -> None:
    config = options(name)
    pettingzoo_test.seed_test(lambda: env(name, **config), num_cycles=50)


def test_a_game_to_the_end() -> None:
    """Masked random play ends the game, and the rewards are the engine's returns."""
    e = env("blue-lion", **CONFIGS["blue-lion"])
    e.reset(seed=4)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][-1]))
    assert e.spelling is not None and e.spelling.state.is_over
    assert tuple(total.values()) == e.spelling.state.returns()
