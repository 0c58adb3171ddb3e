"""City Killer measurements: the solver against brute force, hint latency, bot move time,
calibration of P(K) and P(M), and the 2x2 arena of detective and killer bots.

    nice python benchmarks/city_killer.py --brute-force 80 --latency 6 --bots 6 \\
        --calibration 5000 --arena 400 --workers 2

Each part runs only when its count is given (0 skips it):

- `--brute-force N`: N random positions for each of small (6 residents) and full configuration
  and each liar model (4N in all), every fact's possibility and probability compared with the
  model-free brute force of tests/city_killer_brute_force.py; prints the mismatches (0 wanted).
- `--latency G`: the hint refresh (`solver.hints`) of the detective's record before every move
  of G games between heuristic bots, as the notebook refreshes it: median and p90 (a record
  waiting for an answer is not refreshed: the notebook shows that it waits).
- `--bots G`: per-decision time of the solver bots over G games between them.
- `--calibration Q`: at least Q queries P(K = r) and P(M = m) from random moments of games
  between heuristic bots under the liar model "random" (the heuristic killer lies at random),
  with their truth; reliability table and expected calibration error for each.
- `--arena N`: N games for each pairing of detective {heuristic, solver} against killer
  {heuristic, solver}: the detective's win rate and its 95% interval.

Timings are wall-clock and CPU time (`time.process_time`) on whatever machine runs it (state
its load when you quote them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
import opponents
import solver
from engines.city_killer import CityKillerState
from engines.city_killer.material import MOTIVES
from solver.games.city_killer import posterior

BINS = 10


def brute_force(count: int) -> None:
    from tests.test_city_killer_solver import mismatches, position

    began, total, bad = time.perf_counter(), 0, 0
    for small in (True, False):
        for liar_model in ("free", "random"):
            for seed in range(count):
                state = position(1000 + seed, small=small, liar_model=liar_model)
                seat = random.Random(seed).choice(["detective", "killer"])
                found = mismatches(state, seat)
                total += 1
                bad += bool(found)
                if found:
                    print(f"  MISMATCH small={small} {liar_model} seed {1000 + seed}: {found[0]}")
    took = time.perf_counter() - began
    print(f"brute force: {total} positions, {bad} with a mismatch ({took:.0f} s)")


def heuristic_game(game: engines.Game, seed: int, each: object = None) -> CityKillerState:
    bots = {seat: opponents.make("heuristic", game, seat, seed=seed + k)
            for k, seat in enumerate(game.seats)}  # fmt: skip
    state = game.new_game(seed)
    assert isinstance(state, CityKillerState)
    while not state.is_over:
        if callable(each):
            each(state)
        seat = state.to_move
        state.apply(bots[seat].act(state.information_set(seat)))
    return state


def latency(games: int) -> None:
    game = engines.make("city-killer")
    times: list[float] = []
    cpu: list[float] = []

    waiting = [0]

    def refresh(state: CityKillerState) -> None:
        info = state.information_set("detective")
        began, began_cpu = time.perf_counter(), time.process_time()
        try:
            solver.hints(info)
        except engines.IncompleteInformationSet:  # the notebook shows "waiting" instead
            waiting[0] += 1
            return
        times.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)

    for seed in range(games):
        heuristic_game(game, seed, refresh)
    times.sort()
    print(f"hint refresh: {len(times)} refreshes, median {statistics.median(times) * 1000:.1f} ms,"
          f" p90 {times[int(0.9 * len(times))] * 1000:.1f} ms; CPU median "
          f"{statistics.median(cpu) * 1000:.1f} ms; {waiting[0]} records waiting for an "
          "answer, not refreshed")  # fmt: skip


def bot_times(games: int) -> None:
    game = engines.make("city-killer")
    times: dict[str, list[float]] = {seat: [] for seat in game.seats}
    cpu: dict[str, list[float]] = {seat: [] for seat in game.seats}
    for seed in range(games):
        bots = {seat: opponents.make("solver", game, seat, seed=seed) for seat in game.seats}
        state = game.new_game(seed)
        while not state.is_over:
            seat = state.to_move
            info = state.information_set(seat)
            began, began_cpu = time.perf_counter(), time.process_time()
            action = bots[seat].act(info)
            times[str(seat)].append(time.perf_counter() - began)
            cpu[str(seat)].append(time.process_time() - began_cpu)
            state.apply(action)
    for seat, found in times.items():
        found.sort()
        median, p95 = statistics.median(found), found[int(0.95 * len(found))]
        print(f"solver {seat}: {len(found)} moves, median {median * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms, max {found[-1] * 1000:.0f} ms; CPU median "
              f"{statistics.median(cpu[seat]) * 1000:.1f} ms")  # fmt: skip


class Moments:
    """Called before each move of a game: at the chosen steps, records every P(K = r) and
    P(M = m) of the detective's posterior with its truth (steps are chosen before the game,
    so the selection says nothing of the outcome)."""

    def __init__(self, records: dict[str, list[tuple[float, bool]]], steps: list[int]) -> None:
        self.records, self.steps, self.step = records, set(steps), 0

    def __call__(self, state: CityKillerState) -> None:
        if self.step in self.steps:
            post = posterior(state.information_set("detective"))
            for name, p in zip(post.residents, post.killer, strict=True):
                self.records["K"].append((float(p), name == state._identity))
            for motive, p in zip(MOTIVES, post.motive, strict=True):
                self.records["M"].append((float(p), motive == state._motive))
        self.step += 1


def calibration(queries: int) -> None:
    game = engines.make("city-killer", liar_model="random")
    records: dict[str, list[tuple[float, bool]]] = {"K": [], "M": []}
    seed = 0
    while min(len(r) for r in records.values()) < queries:
        heuristic_game(game, seed, Moments(records, random.Random(seed).sample(range(150), 3)))
        seed += 1
    for what, found in records.items():
        predicted = np.array([p for p, _ in found])
        truth = np.array([t for _, t in found], float)
        bins = np.minimum((predicted * BINS).astype(int), BINS - 1)
        ece, rows = 0.0, []
        for b in range(BINS):
            where = bins == b
            if where.any():
                gap = abs(predicted[where].mean() - truth[where].mean())
                ece += where.sum() / len(found) * gap
                rows.append(f"    [{b / BINS:.1f},{(b + 1) / BINS:.1f}) predicted "
                            f"{predicted[where].mean():.3f} observed {truth[where].mean():.3f} "
                            f"n={int(where.sum())}")  # fmt: skip
        print(f"calibration of P({what}): {len(found)} queries from {seed} games, ECE {ece:.4f}")
        print("\n".join(rows))


def arena(games: int, workers: int) -> None:
    game = engines.make("city-killer")
    print(f"arena: {games} games per pairing (detective's win rate, 95% interval)")
    for detective in ("heuristic", "solver"):
        for killer in ("heuristic", "solver"):
            began = time.perf_counter()
            result = opponents.arena(game, [killer, detective], games=games, workers=workers,
                                     seed=0, rotate=False)  # fmt: skip
            low, high = result.interval("detective")
            rate = result.win_rate("detective")
            took = time.perf_counter() - began
            print(f"  detective {detective:9} vs killer {killer:9}: {rate:.1%} "
                  f"[{low:.1%}, {high:.1%}]  ({took:.0f} s)", flush=True)  # fmt: skip


PARTS: dict[str, Callable[[int], None]] = {
    "brute-force": brute_force,
    "latency": latency,
    "bots": bot_times,
    "calibration": calibration,
}
"""The parts a count runs (the arena also takes --workers)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for part in (*PARTS, "arena"):
        parser.add_argument(f"--{part}", type=int, default=0, help="how many (0: skip it)")
    parser.add_argument("--workers", type=int, default=2)
    args = vars(parser.parse_args())
    for part, run in PARTS.items():
        if count := args[part.replace("-", "_")]:
            run(count)
    if args["arena"]:
        arena(args["arena"], args["workers"])


if __name__ == "__main__":
    main()
