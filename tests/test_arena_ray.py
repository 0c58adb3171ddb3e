"""The arena on Ray: a local instance started by the arena gives the same records as
processes for the same seed (decision times aside), and a bad backend is refused."""

from __future__ import annotations

import dataclasses

import pytest

import engines
import opponents
from engines import ConfigError


def _without_times(result: opponents.ArenaResult) -> list[opponents.GameRecord]:
    return [dataclasses.replace(record, times=()) for record in result.records]


def test_ray_and_processes_give_the_same_tournament() -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed")
    game = engines.make("noir")
    lineup = ["heuristic", "random"]
    on_ray = opponents.arena(game, lineup, games=12, workers=2, seed=5, backend="ray")
    on_processes = opponents.arena(game, lineup, games=12, workers=2, seed=5)
    assert [r.index for r in on_ray.records] == list(range(12))
    assert _without_times(on_ray) == _without_times(on_processes)


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ConfigError, match="backend must be one of process, ray"):
        opponents.arena(engines.make("noir"), ["random", "random"], games=1, backend="dask")
