"""Advice benchmark: is `solver.advise` honest, and is `hint` quick enough?

    nice python benchmarks/advice.py [--positions 200] [--games 40] [--blue-lion-games 20]
               [--seed 0] [--only agreement,recall,calibration,latency,determinism]

- agreement: over `--positions` random positions per game (from games between solver and
  random bots), the advised move equals the move of a fresh `solver` bot with the same seed
  (every other position after the hints, as `hint` computes them, whose deduction it reuses);
- recall: in games between solver bots, every time the opponent scores (Blue Lion), kills or
  arrests (Noir) on his next move, the advice before the mover's last decision named that
  threat (Blue Lion: the reply among the threats of the move played; Noir: a risk above zero
  for the move played);
- calibration: Noir's stated risk of the move played (the advised move, or a random candidate
  one time in three so every level of risk is played) against whether the opponent won on his
  next move, in 10 bins, over games against the `solver` bot, per role;
- latency: what `hint` computes (advice, hints, heat map), median and p95 per game;
- determinism: `sleuth demo GAME --seed 7` three times per game, the third with both cores
  busy, byte-identical; `sleuth arena` of 20 games with a seed twice, identical tables but for
  the column of move times (the wall clock is measured, not used).

Timings are on whatever machine runs this, loaded or not: say so when quoting them.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import random
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable

from rich.console import Console

import engines
import opponents
import solver
from engines import Game, State
from engines.blue_lion import Return
from sleuth import views
from sleuth.commands import safe_hints
from solver import SolverTimeout

GAMES: dict[str, Callable[[], Game]] = {
    "blue-lion": lambda: engines.make("blue-lion"),
    "noir": lambda: engines.make("noir"),
    "alibi": lambda: engines.make("alibi"),
    "city-killer": lambda: engines.make("city-killer"),
    "serial-killer": lambda: engines.make("serial-killer"),
}


def positions(game: Game, count: int, seed: int) -> list[State]:
    """`count` positions from games between solver and random bots (seats mixed)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.new_game(seed=rng.randrange(1 << 30))
        kinds = {s: rng.choice(["solver", "random"]) for s in game.seats}
        bots = {
            s: opponents.make(kinds[s], game, s, seed=rng.randrange(1 << 30)) for s in game.seats
        }
        while state.to_move is not None and len(found) < count:
            if rng.random() < 0.25:
                found.append(state.clone())
            state.apply(bots[state.to_move].act(state.information_set(state.to_move)))
    return found


def agreement(count: int, seed: int, names: list[str]) -> None:
    print(f"## agreement: advised move == solver bot's move ({count} positions per game)")
    for name in names:
        game = GAMES[name]()
        same = timeouts = done = 0
        began = time.perf_counter()
        for k, state in enumerate(positions(game, count, seed)):
            info = state.information_set(state.to_move)
            try:
                if k % 2:  # as `hint` does: the hints' full deduction first, reused by advise
                    safe_hints(info, 8)
                advised = solver.advise(info, seed=k).move
                bot = opponents.make("solver", game, state.to_move, seed=k)
                same += advised == bot.act(info)
                done += 1
            except SolverTimeout:  # a CP-SAT safety ceiling, reached on a loaded machine
                timeouts += 1
            if (k + 1) % 20 == 0:
                print(f"  {name}: {same}/{done} equal after {k + 1} positions", flush=True)
        took = time.perf_counter() - began
        print(f"{name:10} {same}/{done} equal ({same / max(done, 1):.1%}); {timeouts} positions "
              f"skipped at a solver time-out; {took:.0f} s", flush=True)  # fmt: skip


def recall(games: int, blue_lion_games: int, seed: int) -> None:
    print(f"## threat recall (solver vs solver; Blue Lion {blue_lion_games} games, Noir {games})")
    _blue_lion_recall(blue_lion_games, seed)
    _noir_recall(games, seed)


def _blue_lion_recall(games: int, seed: int) -> None:
    game = engines.make("blue-lion")
    events = named = 0
    for g in range(games):
        state = game.new_game(seed=seed + g)
        last: dict[str, solver.Advice] = {}  # each seat's advice at its latest decision
        while (mover := state.to_move) is not None:
            advice = solver.advise(state.information_set(mover), seed=g)
            last[str(mover)] = advice
            before = state.scores[str(mover)]
            state.apply(advice.move)  # the solver bot's move, as the agreement shows
            other = next(str(s) for s in game.seats if s != mover)
            if isinstance(advice.move, Return) or state.scores[str(mover)] <= before:
                continue  # no points for the mover (returns never score)
            if other in last:
                events += 1
                who = str(mover).capitalize()
                named += any(
                    t.startswith(f"{who} {advice.move} scores") for t in last[other].threats
                )
    print(f"blue-lion  the opponent scored next {events} times; the hint named it {named} "
          f"({named / max(events, 1):.1%})")  # fmt: skip


def _noir_recall(games: int, seed: int) -> None:
    game = engines.make("noir")
    events = named = 0
    for g in range(games):
        state = game.new_game(seed=seed + g)
        last: dict[str, solver.Candidate] = {}  # each seat's advised move, as last played
        while (mover := state.to_move) is not None:
            advice = solver.advise(state.information_set(mover), seed=g)
            last[str(mover)] = advice.chosen
            state.apply(advice.move)
            reason = str(getattr(state, "reason", ""))  # Noir's end reason
            won = state.is_over and state.winners == (mover,) and "reached" not in reason
            other = next(str(s) for s in game.seats if s != mover)
            if won and other in last:
                events += 1
                named += bool(last[other].threats)
    print(f"noir       the opponent killed or arrested next {events} times; the hint named it "
          f"{named} ({named / max(events, 1):.1%})")  # fmt: skip


def calibration(games: int, seed: int) -> None:
    print(f"## noir risk calibration ({games} games per role against the solver bot)")
    game = engines.make("noir")
    for role in game.seats:
        pairs: list[tuple[float, bool]] = []
        rng = random.Random(seed)
        for g in range(games):
            state = game.new_game(seed=seed + 1000 * (role == "killer") + g)
            opponent = next(s for s in game.seats if s != role)
            bot = opponents.make("solver", game, opponent, seed=g)
            while state.to_move is not None:
                if state.to_move == opponent:
                    state.apply(bot.act(state.information_set(opponent)))
                    continue
                advice = solver.advise(state.information_set(role), seed=g)
                pick = advice.chosen
                if rng.random() < 1 / 3:
                    pick = rng.choice(advice.candidates)
                state.apply(pick.action)
                if state.is_over or state.to_move == role:
                    continue
                state.apply(bot.act(state.information_set(opponent)))
                lost = state.is_over and state.winners == (opponent,)
                pairs.append((pick.risk or 0.0, lost))
        _bins(role, pairs)


def _bins(role: str, pairs: list[tuple[float, bool]]) -> None:
    print(f"{role}: {len(pairs)} moves; bin: mean predicted risk / observed loss rate (moves)")
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for p, lost in pairs:
        bins[min(int(p * 10), 9)].append((p, lost))
    ece = 0.0
    for b in range(10):
        found = bins.get(b, [])
        if not found:
            print(f"  {b / 10:.1f}-{(b + 1) / 10:.1f}: -")
            continue
        predicted = statistics.fmean(p for p, _ in found)
        observed = sum(lost for _, lost in found) / len(found)
        ece += len(found) / len(pairs) * abs(predicted - observed)
        print(f"  {b / 10:.1f}-{(b + 1) / 10:.1f}: {predicted:.3f} / {observed:.3f} ({len(found)})")
    print(f"  expected calibration error {ece:.3f}")


def latency(count: int, seed: int, names: list[str]) -> None:
    print(f"## hint latency with advice ({count} positions per game; wall, then process time)")
    console = Console(file=io.StringIO(), width=100)
    for name in names:
        game = GAMES[name]()
        times, cpu = [], []
        for state in positions(game, count, seed + 1):
            info = state.information_set(state.to_move)
            began, used = time.perf_counter(), time.process_time()  # as `hint` does: hints
            # first (a full deduction)
            found = safe_hints(info, 8)
            console.print(views_advice(solver.advise(info, seed=0)))
            console.print(views.hints(found, 8))
            chances = views.heat_map(game, info)
            if chances is not None:
                console.print(chances)
            times.append(time.perf_counter() - began)
            cpu.append(time.process_time() - used)
        times.sort()
        cpu.sort()
        p95, cpu95 = times[int(0.95 * (len(times) - 1))], cpu[int(0.95 * (len(cpu) - 1))]
        print(f"{name:10} median {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} "
              f"ms; process median {statistics.median(cpu) * 1000:.0f} ms, p95 "
              f"{cpu95 * 1000:.0f} ms")  # fmt: skip


def views_advice(advice: solver.Advice) -> object:
    from sleuth.views.advice import advice_table

    return advice_table(advice, 3)


def _busy() -> None:
    while True:
        pass


def determinism() -> None:
    print("## determinism: sleuth demo GAME --seed 7, three runs (the third with both cores busy)")
    for name in GAMES:
        outputs = []
        for run in range(3):
            hogs = []
            if run == 2:
                hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(2)]
                for hog in hogs:
                    hog.start()
            try:
                command = [sys.executable, "-m", "sleuth.cli", "demo", name, "--seed", "7"]
                began = time.perf_counter()
                done = subprocess.run(command, capture_output=True, check=True)
                outputs.append((done.stdout, time.perf_counter() - began))
            finally:
                for hog in hogs:
                    hog.terminate()
                    hog.join()
        same = len({out for out, _ in outputs}) == 1
        took = ", ".join(f"{t:.0f} s" for _, t in outputs)
        print(f"{name:10} identical: {same} ({len(outputs[0][0])} bytes; runs took {took})")
    print("## determinism: sleuth arena GAME --bots solver heuristic... --games 20 --seed 3, twice")
    for name, make in GAMES.items():
        others = ["heuristic"] * (len(make().seats) - 1)
        tables = []
        for _ in range(2):
            command = [sys.executable, "-m", "sleuth.cli", "arena", name, "--bots", "solver",
                       *others, "--games", "20", "--seed", "3", "--workers", "1"]  # fmt: skip
            out = subprocess.run(command, capture_output=True, check=True, text=True).stdout
            tables.append(_without_times(out))
        print(f"{name:10} identical but for move times: {tables[0] == tables[1]}")


def _without_times(table: str) -> str:
    """The arena's tables with the last column (move ms, median/p95: wall clock) blanked."""
    return re.sub(r" *\d+/\d+ *│\n", " -│\n", table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--blue-lion-games", type=int, default=20, help="for recall (slow)")
    parser.add_argument("--latency-positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", help="agreement and latency for this game only")
    parser.add_argument("--only", default="agreement,recall,calibration,latency,determinism")
    args = parser.parse_args()
    parts = args.only.split(",")
    if "agreement" in parts:
        agreement(args.positions, args.seed, args.game or list(GAMES))
    if "recall" in parts:
        recall(args.games, args.blue_lion_games, args.seed)
    if "calibration" in parts:
        calibration(args.games, args.seed)
    if "latency" in parts:
        latency(args.latency_positions, args.seed, args.game or list(GAMES))
    if "determinism" in parts:
        determinism()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
