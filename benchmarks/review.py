"""Reviews ranked against strength: per game, seats played by `random`, `heuristic` and
`solver` bots (the other seats `heuristic`), each game reviewed for that seat
(`solver.review`), with the figures issue 40 asks for: accuracy (best or good), average loss
per graded decision (in the game's unit, and in mistakes across units), the decisions left
unvalued, those made once the seat could no longer win (not graded: every move is then worth
the same nothing), and the seconds a whole game's review took.

    python benchmarks/review.py [--games 50] [--workers 2] [--only GAME,...] [--kinds KIND,...]
                                [--seed 0]

A stronger player should lose less and be graded best or good more often; the solver's own
seat, reviewed with the same work bounds, should be best or good on nearly every decision.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
import opponents
import solver
from solver.review import review

GAMES = ("blue-lion", "noir", "city-killer", "serial-killer", "alibi")
KINDS = ("random", "heuristic", "careful", "solver")
"""The bot kinds whose play is reviewed, weakest first (`careful`: where the game has it)."""


@dataclass(frozen=True)
class Reviewed:
    """One game's review of one seat, as the table counts it."""

    graded: int
    good: int
    loss: float
    counted: int
    """Graded decisions in the game's own unit (the average loss is over these)."""
    relative: float
    unvalued: int
    lost: int
    """Decisions made once the seat could no longer win (not graded)."""
    seconds: float
    unit: str


def play_and_review(job: tuple[str, str, int, int]) -> Reviewed:
    """Play game `index` (seed `seed`) with `kind` in the rotated seat and `heuristic` in the
    others, then review that seat."""
    name, kind, index, seed = job
    game = engines.make(name)
    seat = game.seats[index % len(game.seats)]
    bots = {
        s: opponents.make(kind if s == seat else "heuristic", game, s, seed=seed * 1000 + k)
        for k, s in enumerate(game.seats)
    }
    solver.forget()
    state = game.new_game(seed=seed)
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
    solver.forget()
    began = time.perf_counter()
    found = review(state, seat)
    seconds = time.perf_counter() - began
    graded = found.graded
    own = [d for d in graded if d.unit == found.grading.unit]
    return Reviewed(
        len(graded),
        sum(d.grade in ("best", "good") for d in graded),
        sum(d.loss or 0.0 for d in own),
        len(own),
        sum(d.relative_loss or 0.0 for d in graded),
        sum(d.unvalued for d in found.decisions),
        sum(d.lost for d in found.decisions),
        seconds,
        found.grading.unit,
    )


def row(name: str, kind: str, found: list[Reviewed]) -> str:
    graded = sum(r.graded for r in found)
    counted = sum(r.counted for r in found)
    seconds = [r.seconds for r in found]
    accuracy = sum(r.good for r in found) / graded if graded else float("nan")
    loss = sum(r.loss for r in found) / counted if counted else float("nan")
    relative = sum(r.relative for r in found) / graded if graded else float("nan")
    unvalued = sum(r.unvalued for r in found)
    lost = sum(r.lost for r in found)
    return (
        f"| {name} | {kind} | {len(found)} | {graded} | {accuracy:.1%} | {loss:.3f} "
        f"{found[0].unit} | {relative:.3f} | {unvalued} | {lost} | "
        f"{statistics.median(seconds):.2f} / {max(seconds):.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default=",".join(GAMES))
    parser.add_argument("--kinds", default=",".join(KINDS), help="the bot kinds reviewed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("timings on a shared, loaded machine; review seconds are per game, median / max")
    print(
        "| game | seat played by | games | graded decisions | best or good | average loss "
        "| loss in mistakes | unvalued | after the game was lost | review s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.only.split(","):
        for kind in args.kinds.split(","):
            if kind == "careful" and name != "serial-killer":
                continue  # only Serial Killer has a careful bot
            jobs = [(name, kind, i, args.seed + i) for i in range(args.games)]
            with ProcessPoolExecutor(max_workers=args.workers) as pool:
                found = list(pool.map(play_and_review, jobs))
            print(row(name, kind, found), flush=True)


if __name__ == "__main__":
    main()
