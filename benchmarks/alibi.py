"""Alibi benchmarks: hint latency by round, calibration of InBox probabilities, the arena.

    python benchmarks/alibi.py [--games N] [--arena N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engines
import opponents
import solver
from engines.alibi import Accuse


def random_game(players: int, seed: int, rounds: int) -> list:
    """Information sets of the seat to move along a random game without accusations."""
    game = engines.make("alibi", players=players)
    state, rng = game.new_game(seed), random.Random(seed)
    found = []
    while not state.is_over and state.round <= rounds:
        found.append((state.round, state.information_set(state.to_move), state))
        actions = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
        state.apply(rng.choice(actions))
    return found


def latency(players: int, games: int) -> dict[int, float]:
    """Median seconds of solver.hints by round."""
    times: dict[int, list[float]] = {}
    for seed in range(games):
        for round_number, info, _ in random_game(players, seed, 6)[::players]:
            began = time.perf_counter()
            solver.hints(info)
            times.setdefault(round_number, []).append(time.perf_counter() - began)
    return {r: statistics.median(t) for r, t in sorted(times.items())}


def calibration(games: int, bins: int = 10) -> tuple[float, list[tuple[float, float, int]]]:
    """Expected calibration error of InBox probabilities, and the reliability table."""
    table = [[0.0, 0.0, 0] for _ in range(bins)]
    for seed in range(games):
        for _, info, state in random_game(4, 10_000 + seed, 8)[::6]:
            d = solver.deduce(info)
            for fact in d.facts:
                if fact.kind != "InBox":
                    continue
                p = d.probability(fact)
                row = table[min(bins - 1, int(p * bins))]
                row[0] += p
                row[1] += fact.holds(state)
                row[2] += 1
    total = sum(row[2] for row in table)
    ece = sum(abs(row[0] - row[1]) for row in table) / total
    return ece, [(row[0] / row[2], row[1] / row[2], row[2]) for row in table if row[2]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--arena", type=int, default=40)
    args = parser.parse_args()
    for players in (4, 6):
        print(f"hint latency, {players} players (median s by round):", latency(players, 3))
    ece, table = calibration(args.games)
    print(f"calibration error {ece:.4f} over {sum(n for *_, n in table)} InBox queries")
    for predicted, observed, n in table:
        print(f"  predicted {predicted:.3f}  observed {observed:.3f}  n={n}")
    game = engines.make("alibi", players=4)
    result = opponents.arena(game, ["solver", "heuristic", "heuristic", "heuristic"],
                             games=args.arena, workers=2)
    low, high = result.interval(0)
    print(f"arena: solver wins {result.win_rate(0):.2f} [{low:.2f}, {high:.2f}] of "
          f"{result.games}; median decision {result.decision_time(0):.3f}s")


if __name__ == "__main__":
    main()
