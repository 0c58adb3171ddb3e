"""Why the Serial Killer solver wins or loses against three heuristics: the cards still in the
decks when it begins its sweep, whether it is caught then, and where the rivals' points go.

    python benchmarks/serial_killer_sweep.py [--games 400] [--seed 0] [--workers 2]

The solver waits while the rivals draw, then sees what it has not seen (the lab, their hands)
and empties the decks in a round or two: its sweep, here the first round in which it spends
at least SWEEP points. Its games follow the cards left then: in the arena's 400 games from
seed 0, 75 of 107 won with six or fewer left, 13 of 136 with ten or more. The games are the
arena's (`benchmarks/serial_killer.py --games N --seed S` plays the same ones), each played
again here with a look at the table at the start of every round.

The rivals' pace sets most of it before the solver spends at all: by the start of round 5
(the solver still holds about 75 points there) the heuristics have drawn all but a few cards
in some games and slowed with a dozen left in others. Seed 0: won 69 of 96 with five or
fewer left then, 1 of 47 with twelve or more.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
import opponents
import solver
from engines.serial_killer import SerialKillerState

LINEUP = ("solver", "heuristic", "heuristic", "heuristic")
SWEEP = 8
"""Points spent in one round that mark the start of the solver's sweep."""


@dataclass(frozen=True)
class Round:
    """The table at the start of a round, as the solver's seat sees it (all public)."""

    number: int
    cards_left: int
    points: int  # the solver's
    ferocity: int


@dataclass(frozen=True)
class Game:
    won: bool
    rounds: tuple[Round, ...]
    rival_spending: dict[str, int]  # action kind -> points the three rivals paid for it


def play(index: int, seed: int) -> Game:
    """Arena game `index` (seed `seed`): entry k sits in seat (k + index) mod 4, as the
    arena rotates them, with the arena's bot seeds."""
    game = engines.make("serial-killer", players=4)
    seat_of = [(k + index) % 4 for k in range(4)]
    bots = {
        seat_of[k]: opponents.make(name, game, seat_of[k], seed=seed * 1000 + k)
        for k, name in enumerate(LINEUP)
    }
    solver.forget()
    state = game.new_game(seed=seed)
    assert isinstance(state, SerialKillerState)
    me = seat_of[0]
    rounds: list[Round] = []
    spending: Counter[str] = Counter()
    while (seat := state.to_move) is not None:
        if state.round >= 1 and (not rounds or rounds[-1].number != state.round):
            rounds.append(
                Round(state.round, state.cards_left(), state.points_left[me], state.ferocity)
            )
        assert isinstance(seat, int)
        action = bots[seat].act(state.information_set(seat))
        before = state.points_left[seat]
        state.apply(action)
        if seat != me:
            spending[type(action).__name__] += before - state.points_left[seat]
    return Game(me in state.winners, tuple(rounds), dict(spending))


def sweep_start(game: Game) -> Round | None:
    """The round in which the solver first spent at least SWEEP points (None: never)."""
    for now, then in pairwise(game.rounds):
        if now.points - then.points >= SWEEP:
            return now
    return None


BANDS = ((0, 4), (5, 6), (7, 7), (8, 9), (10, 35))
PACE_ROUND = 5
"""The round whose start shows the rivals' pace (before the solver's sweep, in most games)."""
PACE_BANDS = ((0, 5), (6, 8), (9, 11), (12, 35))


def band_name(low: int, high: int) -> str:
    """A band of card counts by its ends (one count by itself)."""
    return f"{low}" if low == high else f"{low}-{high}"


def won_of(games: list[Game]) -> str:
    """How many of `games` the solver won, as a count and a share."""
    wins = sum(g.won for g in games)
    return f"won {wins} of {len(games)} ({wins / len(games):.0%})"


def sweep_table(games: list[Game]) -> list[str]:
    """Rows of the win rate by cards left when the sweep began, and by whether the solver
    was caught then (ferocity at or above its points: every buy of that round costs more)."""
    rows = []
    started = [(g, s) for g in games if (s := sweep_start(g)) is not None]
    for low, high in BANDS:
        band = [g for g, s in started if low <= s.cards_left <= high]
        if band:
            rows.append(f"{band_name(low, high)} cards left: {won_of(band)}")
    for caught in (False, True):
        group = [g for g, s in started if (s.ferocity >= s.points) == caught]
        if group:
            rows.append(f"{'caught' if caught else 'not caught'} when it began: {won_of(group)}")
    swept = {id(g) for g, _ in started}
    never = [g for g in games if id(g) not in swept]
    rows.append(f"no sweep: won {sum(g.won for g in never)} of {len(never)}")
    return rows


def pace_table(games: list[Game]) -> list[str]:
    """Rows of the win rate by cards left at the start of round PACE_ROUND, and the solver's
    points then."""
    rows = []
    reached = [(g, r) for g in games for r in g.rounds if r.number == PACE_ROUND]
    for low, high in PACE_BANDS:
        band = [(g, r) for g, r in reached if low <= r.cards_left <= high]
        if band:
            points = sum(r.points for _, r in band) / len(band)
            rows.append(
                f"{band_name(low, high)} cards left: {won_of([g for g, _ in band])}; "
                f"the solver held {points:.0f} points"
            )
    early = [g for g in games if all(r.number != PACE_ROUND for r in g.rounds)]
    rows.append(f"over before round {PACE_ROUND}: won {sum(g.won for g in early)} of {len(early)}")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    indices = range(args.games)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        games = list(pool.map(play, indices, [args.seed + i for i in indices]))
    wins = sum(g.won for g in games)
    print(f"solver wins {wins}/{len(games)} ({wins / len(games):.1%})")
    print("by the cards left in the decks when the solver's sweep began:")
    for row in sweep_table(games):
        print("  " + row)
    print(f"by the cards left at the start of round {PACE_ROUND} (the rivals' pace):")
    for row in pace_table(games):
        print("  " + row)
    spent: Counter[str] = Counter()
    for g in games:
        spent.update(g.rival_spending)
    per_rival = {kind: points / len(games) / 3 for kind, points in spent.most_common() if points}
    print(
        "a rival's points per game: "
        + ", ".join(f"{kind} {points:.1f}" for kind, points in per_rival.items())
    )


if __name__ == "__main__":
    main()
