"""Blue Lion measurements: hint-refresh latency, solver-bot decision time, arena strength.

    python benchmarks/blue_lion.py --games 400 --workers 2

Not part of the tests: the arena takes minutes. Seats are alternated game by game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

import engines
import opponents
import solver
from sleuth.views import arena_table, seat_table


def hint_latencies(positions: int, seed: int) -> list[float]:
    """Seconds for deduce + hints at positions sampled from random games."""
    game = engines.make("blue-lion")
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < positions:
        state = game.new_game(rng.randrange(10**9))
        while not state.is_over and len(times) < positions:
            if rng.random() < 0.25:
                info = state.information_set(state.to_move)
                began = time.perf_counter()
                solver.hints(info, solver.deduce(info))
                times.append(time.perf_counter() - began)
            state.apply(rng.choice(state.legal_actions()))
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--positions", type=int, default=1000, help="positions for latency")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    console = Console()

    latencies = hint_latencies(args.positions, args.seed)
    table = Table(title="hint refresh (deduce + hints)")
    for column in ("positions", "median", "p95", "max"):
        table.add_column(column, justify="right")
    table.add_row(
        str(len(latencies)),
        f"{statistics.median(latencies) * 1000:.1f} ms",
        f"{quantile(latencies, 0.95) * 1000:.1f} ms",
        f"{max(latencies) * 1000:.1f} ms",
    )
    console.print(table)

    game = engines.make("blue-lion")
    for lineup in (["solver", "random"], ["solver", "heuristic"], ["heuristic", "random"]):
        began = time.perf_counter()
        result = opponents.arena(
            game, lineup, games=args.games, workers=args.workers, seed=args.seed, rotate=True
        )
        console.print(arena_table(result))
        console.print(seat_table(result))
        console.print(
            f"mean game length {statistics.fmean(result.lengths):.1f} actions; "
            f"{result.games / (time.perf_counter() - began):.2f} games/s with "
            f"{args.workers} workers"
        )


if __name__ == "__main__":
    main()
