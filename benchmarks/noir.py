"""Noir benchmarks: hint-refresh latency, solver-bot move time, and the arena between the bots.

    python benchmarks/noir.py [--games 400] [--workers 2] [--positions 300]

Targets (the Noir issue): hint refresh (deduce + hints) median <= 20 ms; solver move median
<= 1 s; the solver wins >= 65% of 400 games in either role against the heuristic.
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
from engines import Game, InformationSet

LINEUPS = [  # in seat order: killer, inspector
    ("heuristic", "solver"),
    ("solver", "heuristic"),
    ("solver", "solver"),
    ("heuristic", "heuristic"),
]


def positions(game: Game, count: int, seed: int) -> list[InformationSet]:
    """Information sets of the seat to move, at random steps of random games."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_game(rng.randrange(2**31))
        for _ in range(rng.randrange(2, 50)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            found.append(state.information_set(state.to_move))
    return found


def quantiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def latency_table(game: Game, count: int) -> Table:
    infos = positions(game, count, seed=1)
    hints, moves = [], []
    for info in infos:
        began = time.perf_counter()
        solver.hints(info)
        hints.append(time.perf_counter() - began)
    bots = {seat: opponents.make("solver", game, seat, seed=0) for seat in game.seats}
    for info in infos[: count // 3]:
        began = time.perf_counter()
        bots[info.seat].act(info)
        moves.append(time.perf_counter() - began)
    table = Table(title=f"noir latency ({len(infos)} positions)")
    for column in ("what", "median", "p95", "target"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for what, times, target in (
        ("hint refresh (deduce + hints)", hints, "median <= 20 ms"),
        ("solver move (no time budget)", moves, "median <= 1 s"),
    ):
        median, p95 = quantiles(times)
        table.add_row(what, f"{median * 1000:.1f} ms", f"{p95 * 1000:.1f} ms", target)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--grid", type=int, default=5)
    args = parser.parse_args()
    console = Console(width=120)
    game = engines.make("noir", grid=args.grid)
    console.print(latency_table(game, args.positions))
    from sleuth.views import arena_table

    for lineup in LINEUPS:
        began = time.perf_counter()
        result = opponents.arena(game, list(lineup), games=args.games, workers=args.workers,
                                 seed=0, rotate=False)  # fmt: skip
        console.print(arena_table(result))
        console.print(f"  {time.perf_counter() - began:.0f} s, mean length "
                      f"{statistics.fmean(result.lengths):.1f} actions")  # fmt: skip


if __name__ == "__main__":
    main()
