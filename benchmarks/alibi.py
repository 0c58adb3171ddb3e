"""Alibi benchmarks: hint-refresh latency by round over whole games (4 and 6 players), the share
of positions with exact probabilities, calibration of InBox and Holds probabilities, the arena
of one solver bot against three heuristic bots, and the solver bot's decision time with a
time budget (wall and process time, how often it ran out of time, garbage collection).

    python benchmarks/alibi.py [--latency-games N] [--players 4,6] [--rounds N]
                               [--calibration-games N]
                               [--arena N] [--workers N] [--budget S] [--decision-games N]
                               [--skip latency,calibration,decisions,arena]

Latency and calibration are measured the way the assistant is used: a refresh after every
observation of one seat along a game ("warm": explanations and histories found at earlier
refreshes are remembered); latency also, every few refreshes, with nothing remembered
("cold"). Wall time depends on the machine's load; process time (CPU seconds of this process)
much less. Calibration is reported over every fact and over the estimated ones alone: certain
facts and exact positions are right by construction, so the first figure flatters the chain.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections import Counter

import engines
import opponents
import solver
from engines.alibi import Accuse, AlibiState
from opponents.games.alibi import SolverBot
from solver.games.alibi.hinting import _EXPLAINED


def random_game(players: int, seed: int, rounds: int, seat: int | None = None) -> list:
    """(round, information set, state copy) before each move of a random game without
    accusations, up to the end of `rounds`: of the seat to move, or of `seat` when given."""
    game = engines.make("alibi", players=players)
    state, rng = game.new_game(seed), random.Random(seed)
    assert isinstance(state, AlibiState)
    found = []
    while (mover := state.to_move) is not None and state.round <= rounds:
        viewer = mover if seat is None else seat
        found.append((state.round, state.information_set(viewer), state.clone()))
        actions = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
        state.apply(rng.choice(actions))
    return found


def one_seat(players: int, seed: int, rounds: int, seat: int = 0) -> list:
    """(round, information set, state copy) of one seat, each time it has something new to
    see."""
    found, seen = [], 0
    for round_number, info, state in random_game(players, seed, rounds, seat):
        if len(info.observations) > seen:
            seen = len(info.observations)
            found.append((round_number, info, state))
    return found


def latency(players: int, games: int, rounds: int, every: int) -> dict[int, tuple]:
    """By round: median and p95 wall seconds of a warm refresh (deduce + hints), median and
    p95 process seconds, median cold wall seconds, the share of exact positions, refreshes."""
    warm: dict[int, list[float]] = {}
    cpu: dict[int, list[float]] = {}
    cold: dict[int, list[float]] = {}
    exact: dict[int, list[bool]] = {}
    for seed in range(games):
        solver.forget()
        for k, (round_number, info, _) in enumerate(one_seat(players, seed, rounds)):
            began, used = time.perf_counter(), time.process_time()
            solver.hints(info)
            warm.setdefault(round_number, []).append(time.perf_counter() - began)
            cpu.setdefault(round_number, []).append(time.process_time() - used)
            exact.setdefault(round_number, []).append(solver.deduce(info).exact)
            if k % every == 0:
                remembered = dict(_EXPLAINED)
                solver.forget()
                began = time.perf_counter()
                solver.hints(info)
                cold.setdefault(round_number, []).append(time.perf_counter() - began)
                _EXPLAINED.update(remembered)
    return {
        r: (
            statistics.median(t),
            sorted(t)[int(0.95 * (len(t) - 1))],
            statistics.median(cpu[r]),
            sorted(cpu[r])[int(0.95 * (len(cpu[r]) - 1))],
            statistics.median(cold[r]) if r in cold else float("nan"),
            sum(exact[r]) / len(exact[r]),
            len(t),
        )
        for r, t in sorted(warm.items())
    }


def calibration(games: int, rounds: int, bins: int = 10) -> dict[str, dict[str, tuple]]:
    """Expected calibration error of InBox and of Holds probabilities, the way the notebook
    meets them: one seat's positions of random 4-player games refreshed in order (the chain
    carried from each to the next), every third position scored against the truth. Two
    populations: every fact (certain and impossible ones, and exact positions, are right by
    construction and dilute the error) and the estimated ones only (a chain's odds strictly
    between 0 and 1), which is what the estimate is judged by. Also the positions, with the
    share of them that got exact probabilities, by round."""
    kinds = ("InBox", "Holds")
    tables = {
        (kind, part): [[0.0, 0.0, 0] for _ in range(bins)]
        for kind in kinds
        for part in ("all", "estimated")
    }
    positions = timeouts = 0
    exact: dict[int, list[bool]] = {}
    for seed in range(games):
        solver.forget()
        for round_number, info, state in one_seat(4, 10_000 + seed, rounds, seed % 4):
            try:
                d = solver.deduce(info)
            except solver.SolverTimeout:  # a safety ceiling, reachable on a loaded machine
                timeouts += 1
                continue
            if len(info.observations) % 3:  # every third position is scored
                continue
            positions += 1
            exact.setdefault(round_number, []).append(d.exact)
            for fact in d.facts:
                if fact.kind not in kinds:
                    continue
                p = d.probability(fact)
                parts = ["all"] + (["estimated"] if not d.exact and 0.0 < p < 1.0 else [])
                for part in parts:
                    row = tables[(fact.kind, part)][min(bins - 1, int(p * bins))]
                    row[0] += p
                    row[1] += fact.holds(state)
                    row[2] += 1
    result: dict[str, dict[str, tuple]] = {}
    for (kind, part), table in tables.items():
        total = sum(row[2] for row in table)
        ece = sum(abs(row[0] - row[1]) for row in table) / max(total, 1)
        result.setdefault(kind, {})[part] = (
            ece,
            [(row[0] / row[2], row[1] / row[2], int(row[2])) for row in table if row[2]],
        )
    print(
        f"({positions} positions scored of {games} random 4-player games, one seat each, "
        f"rounds 1-{rounds}; {timeouts} left out: CP-SAT reached its safety ceiling)"
    )
    print("| round | positions | exact |\n| --- | --- | --- |")
    for r, shown in sorted(exact.items()):
        print(f"| {r} | {len(shown)} | {sum(shown) / len(shown):.0%} |")
    return result


def arena(games: int, workers: int) -> None:
    game = engines.make("alibi", players=4)
    began = time.perf_counter()
    result = opponents.arena(
        game,
        ["solver", "heuristic", "heuristic", "heuristic"],
        games=games,
        workers=workers,
        seed=0,
    )
    elapsed = time.perf_counter() - began
    print(f"\narena, 4 players, seats rotated, {result.games} games in {elapsed:.0f} s")
    print("| bot | wins | win rate | 95% interval | accusations | right | rounds of right ones |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for k, name in enumerate(result.lineup):
        low, high = result.entry_interval(k)
        made = [s for s in result.summaries_of(k) if s]
        right = [
            r for s in made if s["accused_right"] and isinstance(r := s["accused_in_round"], int)
        ]
        rounds = (
            f"median {statistics.median(right):g}, range {min(right)}-{max(right)}"
            if right
            else "-"
        )
        print(
            f"| {k + 1}. {name} | {result.entry_wins[k]:g} | {result.entry_win_rate(k):.1%} | "
            f"{low:.1%}-{high:.1%} | {len(made)} | {len(right)} | {rounds} |"
        )
    unaccused = sum(not any(record.summaries) for record in result.records)
    print(f"games without an accusation (round limit): {unaccused}")
    times = sorted(result.decision_times[0])
    print(
        f"solver decision time: median {statistics.median(times):.3f} s, "
        f"p95 {times[int(0.95 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s "
        f"over {len(times)} decisions"
    )


def decisions(budget: float | None, games: int) -> None:
    """The solver bot's decision time (wall and process seconds) with `time_budget=budget`,
    seat 0 against three heuristic bots, in this process (so process time is its own); how
    often a deadline passed and the out-of-time move was played; and the time Python's cyclic
    garbage collector took inside the decisions and in the rest of the games (the bot pauses
    it while it decides with a budget, so its collections fall between moves)."""
    game = engines.make("alibi", players=4)
    walls, cpus, whys, hurried = [], [], Counter[str](), 0
    collecting = [0.0, 0.0]  # seconds collecting: in the solver's decisions, elsewhere
    deciding, began_collecting = [False], [0.0]

    def timed(phase: str, _: dict) -> None:
        if phase == "start":
            began_collecting[0] = time.perf_counter()
        else:
            collecting[0 if deciding[0] else 1] += time.perf_counter() - began_collecting[0]

    gc.callbacks.append(timed)
    try:
        for g in range(games):
            state = game.new_game(seed=100 + g)
            knobs = {} if budget is None else {"time_budget": budget}
            bots = {s: opponents.make("heuristic", game, s, seed=g) for s in game.seats}
            bots[0] = bot = opponents.make("solver", game, 0, seed=g, **knobs)
            assert isinstance(bot, SolverBot)
            while (seat := state.to_move) is not None:
                info = state.information_set(seat)
                deciding[0] = seat == 0
                began, used = time.perf_counter(), time.process_time()
                action = bots[seat].act(info)
                if seat == 0:
                    walls.append(time.perf_counter() - began)
                    cpus.append(time.process_time() - used)
                    whys[bot.why] += 1
                    hurried += bot.hurried
                deciding[0] = False
                state.apply(action)
    finally:
        gc.callbacks.remove(timed)

    def quantiles(times: list[float]) -> str:
        ranked = sorted(times)
        at = [ranked[min(len(ranked) - 1, int(q * len(ranked)))] for q in (0.5, 0.95, 0.99)]
        return f"median {at[0]:.3f} s, p95 {at[1]:.3f} s, p99 {at[2]:.3f} s, max {ranked[-1]:.3f} s"

    print(f"\nsolver decisions at time_budget={budget}, {games} games, {len(walls)} decisions")
    print(f"wall: {quantiles(walls)}\nprocess: {quantiles(cpus)}")
    print(
        f"a deadline passed in {hurried}; moves by reason: "
        + ", ".join(f"{why} {n}" for why, n in whys.most_common())
    )
    print(
        f"garbage collection: {collecting[0]:.2f} s inside the decisions (of "
        f"{sum(walls):.2f} s), {collecting[1]:.2f} s in the rest of the games"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency-games", type=int, default=3)
    parser.add_argument("--players", default="4,6", help="player counts of the latency games")
    parser.add_argument("--rounds", type=int, default=16, help="rounds of each game")
    parser.add_argument("--calibration-games", type=int, default=8)
    parser.add_argument("--arena", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=0.1, help="solver time_budget (s)")
    parser.add_argument("--decision-games", type=int, default=4)
    parser.add_argument("--skip", default="", help="comma-separated parts to skip")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    if "latency" not in skip:
        for players in (int(n) for n in args.players.split(",")):
            print(f"\nhint refresh, {players} players, {args.latency_games} games")
            print(
                "| round | warm median | warm p95 | process median | process p95 | cold median "
                "| exact | refreshes |"
            )
            print("| --- | --- | --- | --- | --- | --- | --- | --- |")
            table = latency(players, args.latency_games, args.rounds, 4)
            for r, (median, p95, cpu, cpu95, cold, exact, n) in table.items():
                print(
                    f"| {r} | {median * 1000:.0f} ms | {p95 * 1000:.0f} ms | "
                    f"{cpu * 1000:.0f} ms | {cpu95 * 1000:.0f} ms | {cold * 1000:.0f} ms | "
                    f"{exact:.0%} | {n} |",
                    flush=True,
                )
    if "calibration" not in skip:
        print("\ncalibration")
        for kind, parts in calibration(args.calibration_games, args.rounds).items():
            for part, (ece, table) in parts.items():
                queries = sum(n for *_, n in table)
                print(f"\n{kind}, {part} facts: ECE {ece:.4f} over {queries} queries")
                print("| mean predicted | observed | queries |\n| --- | --- | --- |")
                for predicted, observed, n in table:
                    print(f"| {predicted:.3f} | {observed:.3f} | {n} |")
    if "decisions" not in skip:
        decisions(args.budget, args.decision_games)
    if "arena" not in skip:
        arena(args.arena, args.workers)


if __name__ == "__main__":
    main()
