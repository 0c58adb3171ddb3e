"""Serial Killer benchmarks: exactness against the brute force, hint latency, bot move time,
calibration of the profile probabilities, the arena, the race lineups and the oracle table.

    python benchmarks/serial_killer.py [--exact 300] [--positions 60] [--advice 200]
                                       [--calibration 750] [--games 400] [--workers 2]
                                       [--seed 0] [--race-games 200]
                                       [--skip exact,latency,advice,calibration,arena,
                                               lineups,oracle,tables,declared]

Targets (issue 13): zero mismatches against the brute force; per-genre profile probabilities
calibrated within 0.02 (ECE) over at least 5,000 queries from full-size 4-player games;
hint refresh median <= 20 ms; solver move median <= 1 s; the advised move is the solver
bot's (same seed); one solver against three heuristics (4 players, seats rotated) wins at
least 40% of 400 games.

Issue 36: the lineups (solver or careful against heuristics or carefuls, and tables of four
of a kind) and the oracle table (the solver, the solver with the true profile swapped into
its declarations, a rush oracle that knows the profile and a rush on its own deduction, each
against three heuristics on the same seeds), and the tables of four (four solvers told the
truth at declaration, four rush oracles, four rushes on their own deduction), each under both
readings of the collective loss: the seed's literal one (nobody can reach ferocity: everyone
loses) and `unreachable_scope=undeclared`,
`unreachable_outcome=reveal` (only undeclared players count, and the declarations made are
judged).

The declared part values each bot's first recorded declaration against three heuristics by the
chance it was right (exact from its own candidates: a low-variance strength where wins are
rare), beside what the same declaration would win had the seat seen every drawn card (perfect
looks: a guess among the traits nobody drew) or been told the truth."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from math import prod
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
import opponents
import solver
from engines import Action, InformationSet
from engines.serial_killer import WEAPON_MAX, SerialKiller, SerialKillerState, replay
from engines.serial_killer import actions as act
from opponents.arena import wilson
from opponents.base import SeatedBot
from opponents.games.serial_killer import SolverBot
from solver.games.serial_killer.position import parse
from solver.games.serial_killer.race import own_candidates
from tests.serial_killer_brute_force import fact_counts, positions

GAME = engines.make("serial-killer", players=4)


def exact(count: int) -> None:
    """Every fact of `count` small positions against the model-free brute force."""
    began = time.perf_counter()
    mismatches = discards = views = 0
    for info in positions(count, seed=2026):
        total, counts = fact_counts(info)
        deduction = solver.deduce(info)
        others = [
            i
            for i, obs in enumerate(info.observations)
            if obs.kind == "lab_place" and obs["seat"] != info.seat
        ]
        discards += bool(others)
        views += (
            any(obs.kind in ("see_hand", "see_lab") for obs in info.observations[others[0] :])
            if others
            else 0
        )
        for fact in deduction.facts:
            k = counts.get((fact.kind, *fact.args), 0)
            if (
                deduction.possible(fact) != (k > 0)
                or deduction.is_certain(fact) != (k == total)
                or abs(deduction.probability(fact) - k / total) > 1e-12
            ):
                mismatches += 1
    print(
        f"exact: {count} positions ({discards} after others' overflow discards, {views} with "
        f"briefings or lab views after them): {mismatches} mismatches "
        f"[{time.perf_counter() - began:.0f} s]"
    )


def heuristic_positions(
    count: int, seed: int, to_move: bool = False
) -> list[tuple[InformationSet, SerialKillerState]]:
    """(information set of a random seat, the full state) at random steps of 4-player games
    of heuristic bots; `to_move`: of the seat to move, at picks only."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = GAME.new_game(rng.randrange(2**31))
        assert isinstance(state, SerialKillerState)
        bots = [opponents.make("heuristic", GAME, s, seed=rng.randrange(10**6)) for s in GAME.seats]
        stops = sorted(rng.sample(range(10, 160), 3))
        step = 0
        while not state.is_over and stops:
            mover = state.to_move
            assert isinstance(mover, int)
            state.apply(bots[mover].act(state.information_set(mover)))
            step += 1
            if step >= stops[0] and (not to_move or state.phase == "buy"):
                stops.pop(0)
                if not state.is_over:
                    seat = state.to_move if to_move else rng.randrange(4)
                    found.append((state.information_set(seat), state.clone()))
    return found[:count]


def latency(count: int) -> None:
    """Hint refresh (deduce + hints) at heuristic positions, and the solver bot's move in
    solver-against-heuristics games: wall and CPU time (the machine is shared)."""
    refresh: list[tuple[float, float]] = []
    own_pick: list[tuple[float, float]] = []  # the seat's own pick: the hints add its move
    for info, _ in heuristic_positions(count, seed=1):
        wall, cpu = time.perf_counter(), time.process_time()
        solver.hints(info)
        refresh.append((time.perf_counter() - wall, time.process_time() - cpu))
    for info, _ in heuristic_positions(count, seed=2, to_move=True):
        wall, cpu = time.perf_counter(), time.process_time()
        solver.hints(info)
        own_pick.append((time.perf_counter() - wall, time.process_time() - cpu))
    moves: list[tuple[float, float]] = []
    for seed in range(3):
        state = GAME.new_game(seed)
        lineup = ["heuristic"] * 4
        lineup[seed % 4] = "solver"
        bots = [opponents.make(name, GAME, s, seed=s) for s, name in enumerate(lineup)]
        while not state.is_over:
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            wall, cpu = time.perf_counter(), time.process_time()
            action = bots[mover].act(info)
            if lineup[mover] == "solver":
                moves.append((time.perf_counter() - wall, time.process_time() - cpu))
            state.apply(action)
    for name, times in (
        ("hint refresh (deduce + hints)", refresh),
        ("hint refresh at the seat's own pick (with the solver's choice)", own_pick),
        ("solver move", moves),
    ):
        walls = sorted(w for w, _ in times)
        cpus = sorted(c for _, c in times)
        print(
            f"{name}: median {statistics.median(walls) * 1000:.1f} ms wall, "
            f"{statistics.median(cpus) * 1000:.1f} ms CPU; p95 "
            f"{walls[int(0.95 * (len(walls) - 1))] * 1000:.1f} ms wall, "
            f"{cpus[int(0.95 * (len(cpus) - 1))] * 1000:.1f} ms CPU over {len(times)}"
        )


def advice(count: int) -> None:
    """At `count` positions of heuristic games, the advised move (`solver.advise` with seed
    s) against the move a fresh solver bot with seed s makes."""
    rng, same, checked = random.Random(11), 0, 0
    while checked < count:
        state = GAME.new_game(rng.randrange(2**31))
        bots = [opponents.make("heuristic", GAME, s, seed=rng.randrange(10**6)) for s in GAME.seats]
        while not state.is_over and checked < count:
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            if rng.random() < 0.3:
                seed = rng.randrange(10**6)
                bot = opponents.make("solver", GAME, mover, seed=seed)
                same += solver.advise(info, seed=seed).move == bot.act(info)
                checked += 1
            state.apply(bots[mover].act(info))
    print(f"advice: the advised move is the solver bot's at {same} of {checked} positions")


def calibration(count: int, bins: int = 10) -> None:
    """ECE of the profile probabilities: one query per genre and position, a trait drawn at
    random (all of a genre's traits together would balance by construction, since exactly
    one is the profile); the card-location facts apart, one random place per card."""
    from solver.games.serial_killer import world_of

    rng = random.Random(3)
    records: dict[str, list[tuple[float, bool]]] = {"Profile": [], "At": []}
    for info, state in heuristic_positions(count, seed=7):
        deduction = solver.deduce(info)
        truth = world_of(state)
        groups: dict[tuple[str, object], list] = {}
        for fact in deduction.facts:
            groups.setdefault((fact.kind, fact.args[0]), []).append(fact)
        for (kind, _), facts in groups.items():
            fact = rng.choice(facts)
            records[kind].append((deduction.probability(fact), fact.holds_in(truth)))
    for kind, pairs in records.items():
        edges: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
        for p, hit in pairs:
            edges[min(int(p * bins), bins - 1)].append((p, hit))
        ece = sum(
            len(b) / len(pairs) * abs(sum(p for p, _ in b) / len(b) - sum(h for _, h in b) / len(b))
            for b in edges
            if b
        )
        rows = ", ".join(
            f"{sum(p for p, _ in b) / len(b):.2f}->{sum(h for _, h in b) / len(b):.2f} ({len(b)})"
            for b in edges
            if b
        )
        print(f"calibration {kind}: ECE {ece:.4f} over {len(pairs)} queries; bins {rows}")


def arena(games: int, workers: int, seed: int) -> None:
    began = time.perf_counter()
    result = opponents.arena(
        GAME,
        ["solver", "heuristic", "heuristic", "heuristic"],
        games=games,
        workers=workers,
        seed=seed,
    )
    low, high = result.entry_interval(0)
    summaries = [s for entry in range(4) for s in result.summaries_of(entry, None)]
    per_game = len(summaries) // 4 or 1
    unwon = sum(bool(s.get("killer_won")) for s in summaries) / 4
    unreached = sum(bool(s.get("nobody_reached")) for s in summaries) / 4
    print(
        f"arena: solver wins {result.entry_wins[0]:g}/{result.games} "
        f"({result.entry_wins[0] / result.games:.1%}, 95% {low:.1%}-{high:.1%}); heuristics "
        f"{sum(result.entry_wins[1:]):g}; nobody wins {unwon:g}/{per_game}: the killer (no "
        f"right declaration) {unwon - unreached:g}, all lose as nobody can reach the ferocity "
        f"{unreached:g} [{time.perf_counter() - began:.0f} s]"
    )
    ends = [s for s in result.summaries_of(0, None)]
    declared = sum(bool(s.get("declared")) for s in ends)
    right = sum(bool(s.get("correct")) for s in ends)
    print(f"arena: the solver declared in {declared} games, rightly in {right}")
    print("arena: the solver's losses: " + losses(result))
    first = [first_player(seed + record.index) for record in result.records]
    print("arena: the solver's wins by its place in the turn order: " + by_turn(result, first))
    moves = sorted(t for record in result.records for t in record.times[0])
    if moves:
        p95 = moves[min(len(moves) - 1, int(0.95 * len(moves)))]
        print(
            f"arena: solver move median {statistics.median(moves) * 1000:.1f} ms wall, "
            f"p95 {p95 * 1000:.1f} ms, over {len(moves)} moves"
        )


def losses(result: opponents.ArenaResult) -> str:
    """Why the solver (entry 0) lost each game it lost, from its own end-of-game summary."""
    kinds: dict[str, int] = {}
    for record in result.records:
        if record.wins[0]:
            continue
        end = record.summaries[0]
        if end.get("nobody_reached"):
            kind = "all lose, the solver declared" if end.get("declared") else "all lose"
        elif not end.get("killer_won"):
            kind = "a rival won"
        elif end.get("declared"):
            kind = "the killer won, the solver's declaration wrong"
        else:
            kind = "the killer won, no roll of the solver's made it"
        kinds[kind] = kinds.get(kind, 0) + 1
    return "; ".join(f"{kind} {n}" for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]))


def first_player(seed: int) -> int:
    """The first player of the game the arena plays with `seed` (its deal decides it)."""
    state = GAME.new_game(seed)
    assert isinstance(state, SerialKillerState)
    return state.first_player


def by_turn(result: opponents.ArenaResult, first_players: list[int]) -> str:
    """The solver's (entry 0's) wins by its place in the turn order (0: the first player,
    who buys, passes and declares before the others each round), `first_players[k]` being
    game k's first player; neither bot claims the first-player die, so the place holds
    for the whole game."""
    players = len(result.seats)
    games, wins = [0] * players, [0.0] * players
    for record, first in zip(result.records, first_players, strict=True):
        place = (int(record.seats[0]) - first) % players
        games[place] += 1
        wins[place] += record.wins[0]
    return "; ".join(
        f"{place}: {wins[place]:g}/{games[place]}"
        + (f" ({wins[place] / games[place]:.1%})" if games[place] else "")
        for place in range(players)
    )


READINGS: dict[str, dict[str, object]] = {
    "literal": {},
    "undeclared/reveal": {"unreachable_scope": "undeclared", "unreachable_outcome": "reveal"},
}
"""The two readings of the collective loss: the seed's (nobody, declared or not, can reach
ferocity: everyone loses, the default) and the other (only the undeclared count, and the
declarations already made are judged)."""
LINEUPS = (
    ("solver", "heuristic", "heuristic", "heuristic"),
    ("solver", "careful", "careful", "careful"),
    ("careful", "heuristic", "heuristic", "heuristic"),
    ("solver", "solver", "solver", "solver"),
    ("careful", "careful", "careful", "careful"),
    ("heuristic", "heuristic", "heuristic", "heuristic"),
)


@dataclass(frozen=True)
class Outcome:
    """One game as the race tables count it: entry 0's share of the win, whether any seat
    won, and how a game nobody won ended."""

    first: float
    anyone: bool
    all_lose: bool


def race_row(label: str, reading: str, outcomes: list[Outcome]) -> str:
    """One table row: entry 0's wins with the 95% interval, games some seat won, the
    killer's share and the all-lose share."""
    n = len(outcomes)
    first = sum(o.first for o in outcomes)
    low, high = wilson(first, n)
    anyone = sum(o.anyone for o in outcomes)
    all_lose = sum(not o.anyone and o.all_lose for o in outcomes)
    killer = n - anyone - all_lose
    return (
        f"| {label} | {reading} | {n} | {first:g} ({first / n:.1%}, 95% {low:.1%}-{high:.1%}) "
        f"| {anyone / n:.1%} | {killer / n:.1%} | {all_lose / n:.1%} |"
    )


RACE_HEADER = (
    "| lineup | collective loss | games | entry 0 wins | some seat wins | killer | all lose |\n"
    "| --- | --- | --- | --- | --- | --- | --- |"
)


def lineups(games: int, workers: int, seed: int) -> None:
    """Every lineup of LINEUPS (seats rotated) under both readings, the arena's seeds."""
    print(RACE_HEADER)
    for lineup in LINEUPS:
        for reading, options in READINGS.items():
            game = engines.make("serial-killer", players=4, **options)
            result = opponents.arena(game, list(lineup), games=games, workers=workers, seed=seed)
            outcomes = [
                Outcome(
                    record.wins[0],
                    any(record.wins),
                    bool(record.summaries[0].get("nobody_reached")),
                )
                for record in result.records
            ]
            print(race_row(" + ".join(lineup), reading, outcomes), flush=True)


class TruthAtDeclaration(SolverBot):
    """The solver, its declarations' profile swapped for the true one: what its timing and
    spending win when its deduction is perfect (an oracle: it is told the truth)."""

    truth: tuple[str, ...] = ()

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        action = super()._choose(info, legal)
        return act.Declare(self.truth) if isinstance(action, act.Declare) else action


class RushOracle(SeatedBot):
    """Knows the profile and races: keeps RUSH_KEEP points for the roll, moves the weapon
    track first, draws (the cheapest die) to empty the decks, moving to an open deck when
    its own is out, and declares the truth when forced or once every rival has declared."""

    game: SerialKiller
    truth: tuple[str, ...] = ()

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        assert isinstance(self.seat, int)
        view, me = replay(self.game, info.observations, self.seat), self.seat
        if isinstance(legal[0], act.Place):
            return self.rng.choice(legal)
        if isinstance(legal[0], act.Discard):
            return self.rng.choice(legal)
        alone = all(seq is not None for j, seq in enumerate(view.seq) if j != me)
        if view.phase == "declare":
            forced = not any(isinstance(a, act.Skip) for a in legal)
            return act.Declare(self.truth) if forced or alone else act.Skip()
        if alone and view.weapon >= WEAPON_MAX and not view.bought[me]:
            return act.Pass()  # stay eligible: declaring ends the game
        spare = view.points_left[me] - RUSH_KEEP

        def fits(action: Action, more: int = 0) -> bool:
            return view.cost(me, action) + more <= spare

        buys = [a for a in legal if act.face_of(a) is not None and fits(a)]
        weapon = [a for a in buys if isinstance(a, act.Weapon)]
        if weapon and view.weapon < WEAPON_MAX:
            return weapon[0]
        draws = sorted((a for a in buys if isinstance(a, act.Investigate)), key=lambda a: a.face)
        if draws:
            return draws[0]
        here = view.deck_at.get(view.pawn[me] or 0)
        if here is None or view.deck_size(here) < 2:
            moves = [
                a
                for a in buys
                if isinstance(a, act.Move)
                and fits(a, 3)
                and (genre := view.deck_at.get(a.district)) is not None
                and view.deck_size(genre) > 1
            ]
            if moves:
                return max(moves, key=lambda a: view.deck_size(view.deck_at[a.district]))
        return legal[0]


RUSH_KEEP = 20
"""The points the rush oracle keeps for its roll (about 25 dice)."""


class RushOwnDeduction(RushOracle):
    """The rush, the truth hidden: it declares one of its own candidates per genre (each as
    likely as any other: the profile's chances are uniform over the candidates). A table of
    four shows what racing alone leaves to declare."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        action = super()._choose(info, legal)
        if not isinstance(action, act.Declare):
            return action
        candidates = own_candidates(parse(info))
        return act.Declare(tuple(self.rng.choice(cards) for cards in candidates.values()))


ORACLES = {
    "solver": SolverBot,
    "solver + truth": TruthAtDeclaration,
    "rush oracle": RushOracle,
    "rush, own deduction": RushOwnDeduction,
}


def play_oracle(args: tuple[dict[str, object], str, str, int, int]) -> Outcome:
    """One game of `kind` (an ORACLES key) against three `rival` bots (a bot name, or an
    ORACLES key: then each is told the truth too), seated and seeded as the arena seats and
    seeds game `index` (the solver row equals the arena's)."""
    options, kind, rival, index, seed = args
    game = engines.make("serial-killer", players=4, **options)
    assert isinstance(game, SerialKiller)
    state = game.new_game(seed=seed)
    assert isinstance(state, SerialKillerState)
    first, bots = seated(state, kind, rival, index, seed)
    solver.forget()
    while (mover := state.to_move) is not None:
        assert isinstance(mover, int)
        state.apply(bots[mover].act(state.information_set(mover)))
    won = state.winners
    share = 1 / len(won) if first in won else 0.0
    return Outcome(share, bool(won), state.end_reason == "nobody can reach the ferocity")


def seated(
    state: SerialKillerState, kind: str, rival: str, index: int, seed: int
) -> tuple[int, dict[int, opponents.Bot]]:
    """Entry 0's seat and every seat's bot: `kind` in entry 0 and `rival` in the others (a
    bot name, or an ORACLES key: told the truth), seated and seeded as the arena seats and
    seeds game `index`."""
    game = state.game
    n = game.players
    seat_of = [(k + index % n) % n for k in range(n)]
    bots: dict[int, opponents.Bot] = {}
    for k, seat in enumerate(seat_of):
        name = kind if k == 0 else rival
        if name in ORACLES:
            oracle = ORACLES[name](game, seat, random.Random(seed * 1000 + k))
            oracle.truth = state.profile()
            bots[seat] = oracle
        else:
            bots[seat] = opponents.make(name, game, seat, seed=seed * 1000 + k)
    return seat_of[0], bots


def tables(games: int, workers: int, seed: int) -> None:
    """Four of a kind for each ORACLES bot, under both readings: what a table of four
    solvers would win if each were told the truth at its declaration, what four rush
    oracles win, and what four rushes win on their own deduction (the truth hidden)."""
    print(RACE_HEADER)
    for kind in ORACLES:
        if kind == "solver":
            continue  # four solvers are a row of the lineups
        for reading, options in READINGS.items():
            jobs = [(options, kind, kind, i, seed + i) for i in range(games)]
            with ProcessPoolExecutor(max_workers=workers) as pool:
                outcomes = list(pool.map(play_oracle, jobs))
            print(race_row(f"4 x {kind}", reading, outcomes), flush=True)


def oracle(games: int, workers: int, seed: int, rivals: tuple[str, ...] = ("heuristic",)) -> None:
    """The solver, the solver told the truth at declaration, and the rush oracle, each
    against three `rival` bots on the same seeds, under both readings."""
    print(RACE_HEADER)
    for rival in rivals:
        for reading, options in READINGS.items():
            for kind in ORACLES:
                jobs = [(options, kind, rival, i, seed + i) for i in range(games)]
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    outcomes = list(pool.map(play_oracle, jobs))
                print(race_row(f"{kind} + 3 {rival}", reading, outcomes), flush=True)


@dataclass(frozen=True)
class Declared:
    """What entry 0's first declaration that was recorded was worth (0 without one, or when
    the game was not judged: everyone lost, the seed's reading of the collective loss and this
    part's only one, or a rival's right declaration came first): the
    chance it was right by the seat's own candidates, by the traits nobody had drawn yet (what
    seeing every drawn card for free would leave), and with the truth told."""

    own: float
    looks: float
    truth: float
    won: bool


def play_declared(args: tuple[str, int, int]) -> Declared:
    """One game of `kind` in entry 0 against three heuristics (seated and seeded as the
    arena), its declaration valued as `Declared` says."""
    kind, index, seed = args
    game = engines.make("serial-killer", players=4)
    assert isinstance(game, SerialKiller)
    state = game.new_game(seed=seed)
    assert isinstance(state, SerialKillerState)
    me, bots = seated(state, kind, "heuristic", index, seed)
    solver.forget()
    worth: tuple[float, float] | None = None
    while (mover := state.to_move) is not None:
        info = state.information_set(mover)
        action = bots[mover].act(info)
        made = None
        if mover == me and isinstance(action, act.Declare) and worth is None:
            candidates = own_candidates(parse(info)).values()
            guessed = zip(action.profile, candidates, strict=True)
            own = prod(1 / len(c) if trait in c else 0.0 for trait, c in guessed)
            undrawn = prod(1 / state.deck_size(g) for g in game.parts.genre_ids)
            made = own, undrawn
        state.apply(action)
        if made is not None and state.seq[me] is not None:
            worth = made
    truth = state.profile()
    beaten = any(
        state.declaration(j) == truth and (state.seq[j] or 0) < (state.seq[me] or 0)
        for j in range(game.players)
        if j != me and state.seq[j] is not None
    )
    judged = state.end_reason != "nobody can reach the ferocity" and not beaten
    if worth is None or not judged:
        return Declared(0.0, 0.0, 0.0, me in state.winners)
    return Declared(worth[0], worth[1], 1.0, me in state.winners)


def declared(games: int, workers: int, seed: int) -> None:
    """Each bot's expected wins against three heuristics, by the chance its declaration was
    right (low variance where wins are rare: `random` and `heuristic` win almost never), and
    what the same declarations would win with perfect looks or with the truth told: the gap
    between the first two is what looking at hands and the lab could still buy, between the
    last two what the cards nobody drew cost."""
    print(
        "| entry 0 (3 heuristics) | games | expected wins a game, own candidates "
        "| with perfect looks | told the truth | wins |\n| --- | --- | --- | --- | --- | --- |"
    )
    for kind in ("random", "heuristic", "careful", "solver"):
        jobs = [(kind, i, seed + i) for i in range(games)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            found = list(pool.map(play_declared, jobs))
        own = [d.own for d in found]
        mean = statistics.fmean(own)
        margin = 1.96 * statistics.stdev(own) / len(own) ** 0.5
        looks = statistics.fmean(d.looks for d in found)
        truth = statistics.fmean(d.truth for d in found)
        print(
            f"| {kind} | {games} | {mean:.3g} (95% {max(mean - margin, 0):.3g}-"
            f"{mean + margin:.3g}) | {looks:.3g} | {truth:.3g} | {sum(d.won for d in found)} |",
            flush=True,
        )


COUNTS = {"exact": 300, "positions": 60, "advice": 200, "calibration": 750, "games": 400}
"""The work of each part by default: positions checked against brute force, positions timed,
advice positions, calibration positions and arena games."""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    for name, default in COUNTS.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the arena's first game seed")
    parser.add_argument("--race-games", type=int, default=200, help="per lineup and reading")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    races = args.race_games, args.workers, args.seed
    parts: dict[str, Callable[[], object]] = {
        "exact": lambda: exact(args.exact),
        "latency": lambda: latency(args.positions),
        "advice": lambda: advice(args.advice),
        "calibration": lambda: calibration(args.calibration),
        "arena": lambda: arena(args.games, args.workers, args.seed),
        "lineups": lambda: lineups(*races),
        "oracle": lambda: oracle(*races, ("heuristic", "careful")),
        "tables": lambda: tables(*races),
        "declared": lambda: declared(*races),
    }
    print("timings on a shared, loaded machine")
    for name, run in parts.items():
        if name not in skip:
            run()


if __name__ == "__main__":
    main()
