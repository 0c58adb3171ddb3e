"""The notebook's first hint when the hidden answer becomes known (issue 43), and the margins
of the estimates it shows.

    python benchmarks/notebook_hints.py                     # 100 random games per game and seat
    python benchmarks/notebook_hints.py --games 20 --only alibi noir
    python benchmarks/notebook_hints.py --only alibi --seats 1 2   # some seats only

For each game (Alibi at 4 players, the others at their defaults) and each seat whose game hides
an answer from it (the box, the opponent's identity, the backs, the killer, the profile), random
games are played by the `random` bots. At the first position after which the seat's answer is
certain (`solver.answer`), the hints at each level are read as the notebook shows them
(`sleuth.assist.levels.hints_at`): the first hint must say the answer, and at `advice` also the
plan (the move that wins or the way to it) unless the game is over or the seat can no longer act
on it. Every hint shown there, and at a few positions before it, is searched for an estimate
with a margin above five points (there must be none) and for "not yet estimated" (counted).

The answer is monotone (once certain, certain for good) in Alibi, Blue Lion and Serial Killer,
so the first certain position is found by bisection there; Noir and City Killer (identities
change) are scanned position by position.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import engines
import solver
from engines import InformationSet, NotToMove, Seat
from sleuth.assist.levels import LEVELS, hints_at
from sleuth.assist.transcribe import seat_positions
from solver.sampling import NOT_YET

GAMES: dict[str, dict[str, object]] = {
    "blue-lion": {},
    "noir": {},
    "city-killer": {},
    "serial-killer": {"players": 4},
    "alibi": {"players": 4},
}
MONOTONE = {"alibi", "blue-lion", "serial-killer"}
"""Games whose answer, once certain, stays certain: the first certain position is bisected."""
MOMENTS = ("your turn", "their turn", "over")
WIDE = re.compile(r"\d+% ± (\d+)%")
"""A number shown with its margin ("23% ± 4%")."""
LOOKS_BEFORE = 3
"""Positions before the first certain one whose hints are also searched for wide margins."""


@dataclass(frozen=True)
class Found:
    """One game of one seat: whether and where its answer became certain, what was shown."""

    game: str
    seat: Seat
    seed: int
    certain_at: int | None  # the observation count of the first certain position
    first_says: dict[str, bool]  # level -> the first hint is the answer
    plan: bool | None  # at advice: the answer's hint goes on with a plan
    moment: str  # at the first certain position: "your turn", "their turn" or "over"
    wide: int  # estimates shown with a margin above five points
    not_yet: int  # "not yet estimated" shown
    seconds: float


def positions(name: str, seat: Seat, seed: int) -> list[InformationSet]:
    """The seat's information set after every move of a random game."""
    return seat_positions(engines.make(name, **GAMES[name]), seat, seed, bot_seed=seed * 10)


def certain(info: InformationSet) -> bool:
    return solver.answer(info, solver.deduce(info)) is not None


def first_certain(name: str, infos: Sequence[InformationSet]) -> int | None:
    """The index of the first position whose answer is certain (None if none is)."""
    if name not in MONOTONE:
        return next((k for k, info in enumerate(infos) if certain(info)), None)
    if not infos or not certain(infos[-1]):
        return None
    low, high = 0, len(infos) - 1  # infos[high] is certain
    while low < high:
        middle = (low + high) // 2
        if certain(infos[middle]):
            high = middle
        else:
            low = middle + 1
    return high


def margins(hints: Sequence[solver.Hint]) -> tuple[int, int]:
    wide = sum(int(m) > 5 for h in hints for m in WIDE.findall(h.text))
    return wide, sum(h.text.count(NOT_YET) for h in hints)


def measure(job: tuple[str, Seat, int]) -> Found:
    name, seat, seed = job
    started = time.perf_counter()
    solver.forget()
    infos = positions(name, seat, seed)
    k = first_certain(name, infos)
    wide = not_yet = 0
    looked = range(max(0, (k if k is not None else len(infos)) - LOOKS_BEFORE), k or len(infos))
    for index in looked:
        info = infos[index]
        w, n = margins(hints_at("odds", info, solver.deduce(info)))
        wide, not_yet = wide + w, not_yet + n
    if k is None:
        return Found(
            name, seat, seed, None, {}, None, "", wide, not_yet, time.perf_counter() - started
        )
    info = infos[k]
    deduction = solver.deduce(info)
    changes = solver.changes(deduction, solver.deduce(infos[k - 1])) if k else []
    told = solver.answer(info, deduction)
    assert told is not None
    says = {}
    for level in LEVELS[1:]:
        shown = hints_at(level, info, deduction, changes)
        says[level] = bool(shown) and shown[0].kind == "answer"
        w, n = margins(shown)
        wide, not_yet = wide + w, not_yet + n
    advice = hints_at("advice", info, deduction, changes)
    plan = advice[0].kind == "answer" and advice[0].text.startswith(told.hint.text + ". ")
    return Found(name, seat, seed, len(info.observations), says, plan, moment(info), wide,
                 not_yet, time.perf_counter() - started)  # fmt: skip


def moment(info: InformationSet) -> str:
    """Whose turn it is at `info`: the seat's, another's, or nobody's (the game is over)."""
    try:
        info.make_game().legal_actions_for(info)
    except NotToMove as error:
        return "over" if "over" in str(error) else "their turn"
    return "your turn"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", nargs="*", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--seats", nargs="*", help="only these seats (as printed); default all")
    args = parser.parse_args()
    print(
        "| game | seat | games | answer certain | first hint says it (certain / odds / advice) "
        "| advice says the plan: your turn / their turn / over | no plan: your turn / their "
        "turn / over | margins > ±5 | not yet estimated | s/game |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.only:
        game = engines.make(name, **GAMES[name])
        for seat in game.seats:
            if args.seats and str(seat) not in args.seats:
                continue
            jobs = [(name, seat, args.seed + i) for i in range(args.games)]
            with ProcessPoolExecutor(max_workers=args.workers) as pool:
                found = list(pool.map(measure, jobs))
            known = [f for f in found if f.certain_at is not None]
            says = " / ".join(f"{sum(f.first_says[level] for f in known)}" for level in LEVELS[1:])
            planned = " / ".join(
                str(sum(f.plan is True and f.moment == m for f in known)) for m in MOMENTS
            )
            no_plan = " / ".join(
                str(sum(f.plan is not True and f.moment == m for f in known)) for m in MOMENTS
            )
            print(
                f"| {name} | {seat} | {len(found)} | {len(known)} | {says} | {planned} "
                f"| {no_plan} | {sum(f.wide for f in found)} | {sum(f.not_yet for f in found)} "
                f"| {statistics.mean(f.seconds for f in found):.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
