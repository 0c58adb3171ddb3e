"""Noir calibration: do identities given probability p come true about p of the time?

    nice python benchmarks/noir_calibration.py [--games 2000] [--seed 0] [--grid 5] [--bots random]
                                               [--model counting] [--decks shared,separate]
                                               [--revealed]

For each deck option, plays `--games` games between bots of one kind (both seats), stops at
random moments (the end of an action), and records, for each seat, the solver's probability of
each possible identity of the opponent and whether it was the true one. Prints a reliability
table (bins of predicted probability: mean predicted, observed frequency, count) and the
expected calibration error (ECE), per deck option and seat, and a table for the cards a failed
disguise revealed (separate decks, the killer's view: a card the inspector was proved to hold).
Where a posterior is uniform, a bin holds all of a moment's candidates and matches trivially;
the revealed cards are where a prior without multiplicity went wrong.

`--model` reads the odds under an opponent model (`solver.deduce(info, model=...)`): the
bots' own name weighs each world by their chance of the moves they made there. `--revealed`
reads only the moments after a revealing failed disguise (separate decks, the killer's view),
the check the counting gets wrong, so that a slow model can be measured on many games.

Moments are chosen from the past only (`moments`), so the selection does not bias calibration.
The prior counts deals and does not weight the bots' choices (rules/noir.md), so bots whose
choices depend on hidden cards (the random inspector picks among his alive cards) can leave
small deviations that are not the solver's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import engines
import opponents
import solver
from engines import InformationSet
from engines.noir import NoirState
from solver.games import noir as knowledge

BINS = 10
HORIZON = 120
"""Steps are drawn from range(HORIZON), whatever the game's length."""


@dataclass(frozen=True)
class Record:
    """One predicted identity at one moment: its probability and whether it was true."""

    group: str
    predicted: float
    true: bool
    revealed: bool


def play(game: engines.Game, bots: str, seed: int) -> list[NoirState]:
    """The states at the end of each action of one game, start to end."""
    state = game.new_game(seed)
    assert isinstance(state, NoirState)
    players = {seat: opponents.make(bots, game, seat, seed=seed) for seat in game.seats}
    states = [state.clone()]
    while not state.is_over:
        seat = str(state.to_move)
        state.apply(players[seat].act(state.information_set(seat)))
        states.append(state.clone())
    return states


def revealing(info: InformationSet) -> list[int]:
    """Indices of failed disguises that proved the inspector held the drawn card."""
    dead: set[str] = set()
    innocent: set[str] = set()
    spent: set[str] = set()
    found = []
    for i, obs in enumerate(info.observations):
        if obs.kind == "kill":
            dead.add(obs["suspect"])
        elif obs.kind == "exonerate":
            innocent.add(obs["suspect"])
        elif obs.kind == "citizen-arrest":
            spent.add(obs["agent"])
        elif obs.kind == "disguise" and obs["success"]:
            innocent.add(obs["former"])
        elif obs.kind == "disguise" and obs["drawn"] not in dead | innocent | spent:
            found.append(i)
    return found


def held_cards(info: InformationSet) -> set[str]:
    return {info.observations[i]["drawn"] for i in revealing(info)}


def records_at(state: NoirState, seat: str, group: str, model: str = "counting") -> list[Record]:
    info = state.information_set(seat)
    truth = knowledge.world_of(state)["inspector" if seat == "killer" else "killer"]
    if truth == knowledge.UNCHOSEN:
        return []
    chances = knowledge.posterior(solver.deduce(info, model=model))
    separate = dict(info.options)["deck"] == "separate"
    held = held_cards(info) if separate and seat == "killer" else set()
    return [Record(group, p, name == truth, name in held) for name, p in chances.items()]


def moments(states: Sequence[NoirState], seat: str, rng: random.Random) -> list[int]:
    """A step drawn before seeing the game, and one drawn after its first revealing failed
    disguise (if any); each kept when the game lasted that long. Whether a step is kept
    depends only on what happened before it, so keeping does not bias calibration."""
    chosen = [rng.randrange(HORIZON)]
    final = states[-1].information_set(seat)
    reveals = revealing(final) if seat == "killer" else []
    if reveals and dict(final.options)["deck"] == "separate":
        step = next(
            k
            for k, s in enumerate(states)
            if len(s.information_set(seat).observations) > reveals[0]
        )
        chosen.append(step + rng.randrange(HORIZON))
    return [k for k in chosen if k < len(states)]


def reliability(records: Sequence[Record]) -> tuple[list[tuple[int, float, float, int]], float]:
    """Per bin: (bin, mean predicted, observed frequency, count); and the ECE."""
    bins: dict[int, list[Record]] = defaultdict(list)
    for record in records:
        bins[min(int(record.predicted * BINS), BINS - 1)].append(record)
    rows, ece = [], 0.0
    for b in sorted(bins):
        group = bins[b]
        mean = sum(r.predicted for r in group) / len(group)
        observed = sum(r.true for r in group) / len(group)
        rows.append((b, mean, observed, len(group)))
        ece += len(group) / len(records) * abs(mean - observed)
    return rows, ece


def print_table(title: str, records: Sequence[Record]) -> None:
    if not records:
        print(f"\n{title}: no records")
        return
    rows, ece = reliability(records)
    print(f"\n{title}: {len(records)} predictions, ECE {ece:.4f}")
    print(f"{'bin':>11} {'predicted':>10} {'observed':>9} {'count':>7}")
    for b, mean, observed, count in rows:
        print(f"{b / BINS:5.1f}-{(b + 1) / BINS:<5.1f} {mean:10.3f} {observed:9.3f} {count:7d}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per deck option")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--grid", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--bots", default="random", choices=("random", "heuristic"))
    parser.add_argument("--model", default="counting", choices=("counting", "random", "heuristic"))
    parser.add_argument("--decks", default="shared,separate", help="deck options to play")
    parser.add_argument("--revealed", action="store_true", help="only the revealed cards' moments")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    rng = random.Random(args.seed)
    records: list[Record] = []
    began = time.perf_counter()
    for deck in args.decks.split(","):
        game = engines.make("noir", grid=args.grid, deck=deck)
        for _ in range(args.games):
            states = play(game, args.bots, rng.randrange(2**31))
            for seat in map(str, game.seats):
                for k in moments(states, seat, rng):
                    group = f"{deck} deck, {seat}'s view"
                    if args.revealed and not held_cards(states[k].information_set(seat)):
                        continue
                    records += records_at(states[k], seat, group, args.model)
    elapsed = time.perf_counter() - began
    print(f"{args.games} games per deck option, {args.grid}x{args.grid}, {args.bots} bots, "
          f"model {args.model}, seed {args.seed}: {elapsed:.0f} s")  # fmt: skip
    print_table("All predictions", records)
    for group in sorted({r.group for r in records}):
        print_table(group, [r for r in records if r.group == group])
    revealed = [r for r in records if r.revealed]
    print_table("Cards a failed disguise revealed (separate deck, killer's view)", revealed)


if __name__ == "__main__":
    main()
