"""Odds under an opponent model against the counting odds: calibration, Brier score, speed.

    python benchmarks/opponent_models.py [--games 20] [--bots random] [--model random]
                                         [--games-list noir,serial-killer,city-killer,blue-lion]
                                         [--seed 0]

For each game, plays `--games` games between `--bots` bots, reads one seat at two moments of
each (drawn before the game is seen, so the choice does not bias calibration) with
`solver.deduce(info)` and `solver.deduce(info, model=...)`, and scores every fact that is
possible and not certain against the truth: the expected calibration error (10 bins; overall,
per fact kind, and for the facts whose argument the record names against the rest), the Brier
score and the mean log-likelihood of what came true (higher is better), the effective sample
size of the weighted states, and the time of a deduction under each. When the players are the
model (`--bots random --model random`), the model's odds should be calibrated; against other
players the scores say which reading to trust.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
import opponents
import solver
from engines import IncompleteInformationSet, Seat, State

OPTIONS: dict[str, dict[str, object]] = {"serial-killer": {"players": 4}, "alibi": {"players": 4}}
SEATS: dict[str, Seat] = {"city-killer": "detective"}
"""The seat read in each game (City Killer's killer reads the detective's view, no model)."""
BINS = 10
FLOOR = 1e-3
"""The least probability a log-likelihood counts (an estimate may say 0 of what is possible)."""


@dataclass(frozen=True)
class Record:
    kind: str
    counted: float
    modelled: float
    true: bool
    named: bool  # the record names the fact's argument (past its setup)


def named_in(info: engines.InformationSet, fact: solver.Fact) -> bool:
    """Whether an observation past the setup (the first, which lists the whole cast) names one
    of the fact's arguments: odds the record speaks to, against those it is silent on."""
    said = " ".join(obs.json_text for obs in info.observations[1:])
    return any(f'"{arg}"' in said for arg in fact.args if isinstance(arg, str))


def play(game: engines.Game, bots: str, seed: int) -> list[State]:
    """The state after every move of one game."""
    state = game.new_game(seed)
    players = {
        seat: opponents.make(bots, game, seat, seed=seed + k) for k, seat in enumerate(game.seats)
    }
    states = [state.clone()]
    while (seat := state.to_move) is not None:
        state.apply(players[seat].act(state.information_set(seat)))
        states.append(state.clone())
    return states


def ece(pairs: Sequence[tuple[float, bool]]) -> float:
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for p, true in pairs:
        bins[min(int(p * BINS), BINS - 1)].append((p, true))
    return sum(
        len(group)
        / len(pairs)
        * abs(statistics.fmean(p for p, _ in group) - statistics.fmean(t for _, t in group))
        for group in bins.values()
    )


def scores(pairs: Sequence[tuple[float, bool]]) -> str:
    brier = statistics.fmean((p - t) ** 2 for p, t in pairs)
    loglik = statistics.fmean(math.log(max(p if t else 1 - p, FLOOR)) for p, t in pairs)
    return f"ECE {ece(pairs):.4f}, Brier {brier:.4f}, log-lik {loglik:.4f}"


def measure(name: str, games: int, bots: str, model: str, seed: int) -> None:
    game = engines.make(name, **OPTIONS.get(name, {}))
    rng = random.Random(seed)
    records: list[Record] = []
    sizes: list[float] = []
    times: dict[str, list[float]] = {"counting": [], model: []}
    refused = 0  # positions whose counting odds are an estimate (no model applies)
    for _ in range(games):
        states = play(game, bots, rng.randrange(2**31))
        seat = SEATS.get(name, game.seats[rng.randrange(len(game.seats))])
        for step in sorted({rng.randrange(len(states)) for _ in range(2)}):
            state = states[step]
            if state.is_over:
                continue
            info = state.information_set(seat)
            solver.forget()
            began = time.process_time()
            try:
                counted = solver.deduce(info)
            except IncompleteInformationSet:  # mid-exchange (a question not yet answered)
                continue
            times["counting"].append(time.process_time() - began)
            if not counted.exact:  # Alibi past exact counting refuses a model
                refused += 1
                continue
            began = time.process_time()
            modelled = solver.deduce(info, model=model)
            times[model].append(time.process_time() - began)
            sizes.append(getattr(modelled.worlds, "effective_size", float("nan")))
            for fact in counted.facts:
                if counted.possible(fact) and not counted.is_certain(fact):
                    records.append(
                        Record(
                            fact.kind,
                            counted.probability(fact),
                            modelled.probability(fact),
                            fact.holds(state),
                            named_in(info, fact),
                        )
                    )
    if refused:
        print(f"{name}: {refused} positions past exact counting read no model (left out)")
    if not records:
        print(f"| {name} | no open facts |")
        return
    print(f"\n{name}: {games} games of {bots} bots, read under '{model}' and 'counting'; "
          f"{len(records)} open facts")  # fmt: skip
    print(f"  counting: {scores([(r.counted, r.true) for r in records])}")
    print(f"  {model}: {scores([(r.modelled, r.true) for r in records])}")
    for kind in sorted({r.kind for r in records}):
        of = [r for r in records if r.kind == kind]
        print(f"    {kind} ({len(of)}): counting ECE {ece([(r.counted, r.true) for r in of]):.4f}, "
              f"{model} ECE {ece([(r.modelled, r.true) for r in of]):.4f}")  # fmt: skip
    for named, label in ((True, "named by the record"), (False, "not named")):
        of = [r for r in records if r.named == named]
        if of:
            counted, modelled = (
                ece([(r.counted, r.true) for r in of]),
                ece([(r.modelled, r.true) for r in of]),
            )
            print(
                f"    {label} ({len(of)}): counting ECE {counted:.4f}, {model} ECE {modelled:.4f}"
            )
    print(f"  effective sample size: median {statistics.median(sizes):.0f}, least {min(sizes):.0f}")
    counting, modelled = statistics.median(times["counting"]), statistics.median(times[model])
    print(f"  deduction CPU: counting median {counting * 1e3:.0f} ms; {model} median "
          f"{modelled:.2f} s, max {max(times[model]):.2f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--model", default="random")
    parser.add_argument("--games-list", default="noir,serial-killer,city-killer,blue-lion")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    for name in args.games_list.split(","):
        measure(name, args.games, args.bots, args.model, args.seed)


if __name__ == "__main__":
    main()
