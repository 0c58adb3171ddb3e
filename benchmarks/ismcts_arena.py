"""The solver bot against OpenSpiel's ISMCTS given about 10x the solver's CPU time per move.

    nice -n 10 python benchmarks/ismcts_arena.py blue-lion --games 200
    nice -n 10 python benchmarks/ismcts_arena.py noir --games 200 --simulations 40

First a calibration (unless `--simulations` is given): a few games of solver against ismcts
at `--probe` simulations, timing every move in CPU seconds (`time.process_time`), then as
many at the count that would scale ismcts's median move to `--ratio` times the solver's, and
the simulations a straight line through the two medians puts at that ratio (at least 2, the
fewest with which OpenSpiel's ISMCTS chooses: its first simulation only expands the root).

Then the arena: `--games` games, seats alternated game by game (entry k sits in seat
(k + i) mod n in game i, as `opponents.arena` rotates), the solver in the even seats of the
lineup and ismcts in the odd ones. Search is bounded by work on both sides (the solver's
defaults, ismcts's simulations), so with `--simulations` given a seed replays exactly; only
the calibration depends on the machine. Each bot's seed is `seed * 1000 + k` for game seed
`seed`, as in `opponents.arena`, so `opponents.arena` with the same lineup and seed plays the
same games. Win rates carry 95% Wilson intervals; a shared win counts 1/k to each of k
winners. Move times are medians over every move of the entry, CPU and wall (the machine is
shared: compare the CPU figures). `--workers N` shares the arena's games among N processes;
every game depends only on its index and seed, so the table does not depend on N.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import engines
import opponents
from engines import Game, Seat
from opponents.arena import wilson

GAMES = engines.names()


@dataclass
class Tally:
    """One lineup entry's results in one seat (or every seat: seat None)."""

    games: int = 0
    wins: float = 0.0
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    summaries: list[dict[str, object]] = field(default_factory=list)


def lineup(game: Game, simulations: int) -> list[tuple[str, dict[str, object]]]:
    """solver, ismcts, solver, ... one entry per seat."""
    ismcts: tuple[str, dict[str, object]] = ("ismcts", {"simulations": simulations})
    return [("solver", {}) if k % 2 == 0 else ismcts for k in range(len(game.seats))]


Played = tuple[list[Seat], list[float], list[list[tuple[float, float]]], list[dict[str, object]]]


def play(game: Game, entries: list[tuple[str, dict[str, object]]], index: int, seed: int) -> Played:
    """One game (entry k in seat (k + index) mod n): each entry's seat, its share of the
    win, the (CPU, wall) seconds of each of its moves, and what `State.summary` says of
    its seat."""
    seats = game.seats
    seat_of = [seats[(k + index) % len(seats)] for k in range(len(entries))]
    bots = {
        seat_of[k]: opponents.make(name, game, seat_of[k], seed=seed * 1000 + k, **options)
        for k, (name, options) in enumerate(entries)
    }
    times: dict[Seat, list[tuple[float, float]]] = {seat: [] for seat in seats}
    state = game.new_game(seed=seed)
    while (seat := state.to_move) is not None:
        cpu, wall = time.process_time(), time.perf_counter()
        action = bots[seat].act(state.information_set(seat))
        times[seat].append((time.process_time() - cpu, time.perf_counter() - wall))
        state.apply(action)
    share = 1 / len(state.winners) if state.winners else 0.0
    wins = [share if seat in state.winners else 0.0 for seat in seat_of]
    summaries = [dict(state.summary(seat)) for seat in seat_of]
    return seat_of, wins, [times[seat] for seat in seat_of], summaries


def play_by_name(
    name: str, options: dict[str, object], simulations: int, index: int, seed: int
) -> Played:
    """`play` for a worker process, which rebuilds the game from its name and options."""
    game = engines.make(name, **options)
    return play(game, lineup(game, simulations), index, seed)


def run(
    game: Game,
    simulations: int,
    games: int,
    seed: int,
    report_every: int = 0,
    workers: int = 1,
) -> dict[tuple[str, Seat | None], Tally]:
    """`games` games; tallies by (bot name, seat) and (bot name, None) for every seat.
    With `workers` > 1 the games are shared among that many processes; each game depends
    only on its index and seed, so the table is the same for any number of workers."""
    entries = lineup(game, simulations)
    tallies: dict[tuple[str, Seat | None], Tally] = {}
    began = time.perf_counter()
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    if pool is None:
        outcomes = (play(game, entries, i, seed + i) for i in range(games))
    else:
        name, options = game.name, game.options
        outcomes = pool.map(
            play_by_name,
            *zip(*((name, options, simulations, i, seed + i) for i in range(games)), strict=True),
        )
    for i, (seat_of, wins, times, summaries) in enumerate(outcomes):
        for k, (name, _) in enumerate(entries):
            for key in ((name, seat_of[k]), (name, None)):
                tally = tallies.setdefault(key, Tally())
                tally.games += 1
                tally.wins += wins[k]
                tally.cpu += [cpu for cpu, _ in times[k]]
                tally.wall += [wall for _, wall in times[k]]
                tally.summaries.append(summaries[k])
        if report_every and (i + 1) % report_every == 0:
            print(f"  {i + 1}/{games} games, {time.perf_counter() - began:.0f} s", flush=True)
            if i + 1 < games:  # the table so far, in case the run is cut short
                print("\n".join(f"    {row}" for row in table(game, tallies)), flush=True)
    if pool is not None:
        pool.shutdown()
    return tallies


def calibrate(game: Game, probe: int, games: int, ratio: float, seed: int) -> int:
    """The simulations that give ismcts `ratio` times the solver's median CPU per move:
    `games` games at `probe` simulations, the count that scaling predicts, then as many
    games at that count and the count a straight line through both medians gives (a move
    has a fixed cost too, so scaling alone overshoots)."""
    target = None
    points: list[tuple[int, float]] = []
    simulations = probe
    for _ in range(2):
        tallies = run(game, simulations, games, seed)
        if target is None:
            target = ratio * statistics.median(tallies["solver", None].cpu)
        points.append((simulations, statistics.median(tallies["ismcts", None].cpu)))
        print(
            f"calibration ({games} games): solver median {1000 * target / ratio:.1f} ms CPU "
            f"a move; ismcts at {simulations} simulations {1000 * points[-1][1]:.1f} ms",
            flush=True,
        )
        if len(points) == 1:
            simulations = max(2, round(probe * target / points[0][1]))
        elif points[1][0] != points[0][0]:
            (s0, t0), (s1, t1) = points
            slope = (t1 - t0) / (s1 - s0)
            if slope > 0:  # more simulations took longer, as they should (else keep s1)
                simulations = max(2, round(s1 + (target - t1) / slope))
    print(f"-> {simulations} simulations for {ratio:g}x the solver's median", flush=True)
    return simulations


def table(game: Game, tallies: dict[tuple[str, Seat | None], Tally]) -> list[str]:
    rows = [
        "| bot | seat | games | wins | win rate | 95% interval | median CPU ms/move "
        "| median wall ms/move |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for name in ("solver", "ismcts"):
        for seat in (*game.seats, None):
            tally = tallies.get((name, seat))
            if tally is None:
                continue
            low, high = wilson(tally.wins, tally.games)
            rows.append(
                f"| {name} | {'all' if seat is None else seat} | {tally.games} | "
                f"{tally.wins:g} | {tally.wins / tally.games:.1%} | {low:.1%}-{high:.1%} | "
                f"{1000 * statistics.median(tally.cpu):.1f} | "
                f"{1000 * statistics.median(tally.wall):.1f} |"
            )
    return rows


def how_games_went(tallies: dict[tuple[str, Seat | None], Tally]) -> list[str]:
    """Per bot, over all its seat-games, how often each yes/no fact of the game's
    `State.summary` held (for example Serial Killer's `killer_won`): what a table of wins
    alone leaves out when games can end with no winner."""
    lines = []
    for name in ("solver", "ismcts"):
        tally = tallies.get((name, None))
        if tally is None:
            continue
        counts: dict[str, int] = {}
        for summary in tally.summaries:
            for key, value in summary.items():
                if isinstance(value, bool):
                    counts[key] = counts.get(key, 0) + value
        if counts:
            facts = ", ".join(f"{key} {k}/{tally.games}" for key, k in counts.items())
            lines.append(f"{name}: {facts}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulations", type=int, help="skip calibration: ismcts's count")
    parser.add_argument("--ratio", type=float, default=10.0, help="ismcts time / solver time")
    parser.add_argument("--probe", type=int, default=50, help="calibration simulations")
    parser.add_argument("--calibration-games", type=int, default=4)
    parser.add_argument(
        "--workers", type=int, default=1, help="processes for the arena (not the calibration)"
    )
    args = parser.parse_args()
    options = json.loads(args.options)
    game = engines.make(args.game, **options)
    simulations = args.simulations
    if simulations is None:
        simulations = calibrate(
            game, args.probe, args.calibration_games, args.ratio, seed=10**6 + args.seed
        )
    wall = time.perf_counter()
    tallies = run(
        game,
        simulations,
        args.games,
        args.seed,
        report_every=max(1, args.games // 10),
        workers=args.workers,
    )
    wall = time.perf_counter() - wall
    cpu = sum(sum(tallies[name, None].cpu) for name in ("solver", "ismcts"))
    solver_ms = statistics.median(tallies["solver", None].cpu)
    ismcts_ms = statistics.median(tallies["ismcts", None].cpu)
    print(
        f"\n{args.game} {json.dumps(options)}: solver against ismcts at {simulations} "
        f"simulations, {args.games} games from seed {args.seed}, seats alternated; "
        f"ismcts/solver median CPU a move: {ismcts_ms / solver_ms:.1f}x; "
        f"{cpu:.0f} s CPU in moves, {wall:.0f} s wall on {args.workers} worker(s)"
    )
    print("\n".join(table(game, tallies)))
    if went := how_games_went(tallies):
        print("\nhow the games went (State.summary), per seat-game:\n" + "\n".join(went))


if __name__ == "__main__":
    main()
