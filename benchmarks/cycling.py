"""Aimless cycling (issue 43, item 9): how often a two-seat game is decided by its length cap,
and the longest run of moves in which nothing changed.

    python benchmarks/cycling.py --games 400 --workers 2 [--only blue-lion] [--lineup solver,solver]
    python benchmarks/cycling.py --out before.jsonl ...   # also keep each game; resumes
    python benchmarks/cycling.py --table before.jsonl after.jsonl   # before/after, same games

For each two-seat game (Blue Lion, Noir, City Killer) and each lineup (the solver on both
sides; the solver against `random`, seats alternated game by game), the games are played
exactly as `opponents.arena` plays them (the same bot seeds, `solver.forget()` before each
game), so game i of a lineup is the same game before and after a change to the bots that
does not change their moves.

Printed as a markdown table, per game and lineup:
- **at cap**: the share of games the engine ended at its length cap (the `end` observation's
  reason names the limit: Blue Lion's `turn_limit` of 200 turns, Noir's `turn_limit` of 500
  turns). City Killer has no cap: it always ends with the accusation after the 5th murder
  (5 rounds, 6 with a refusal), so its share is 0 by construction and printed as such.
- **longest still run**: the most consecutive moves (applied actions, the arena's `length`
  unit) with no change of score and no change of knowledge, the largest over the games (and
  its median per game). *Score* is `state.points(seat)` of both seats (Blue Lion's points;
  0 in Noir and City Killer, whose progress is kills and clues, counted as knowledge).
  *Knowledge* changes when either seat's information set gains an observation that it had not
  already received with the same content, other than the record of a move itself (`act`,
  Noir's `shift`): a revealed back, a score, a kill, a canvas answer, a failed arrest, a
  card drawn, an answer to a question. A flip of a tile whose back both seats have already
  seen shows a face already seen and changes nothing; in Blue Lion, where the consistent
  worlds are exactly those that agree with the faces seen, this is the same as "the number of
  hidden worlds either side allows did not change".
- lineup `hint`: a person who plays the move `hint` advises every turn (`solver.advise` with
  the game's seed, as `sleuth play --seed S` shows it), the issue's finding; e.g.
  `--lineup hint,solver`.
- **wins**: the first entry's win rate against the second (a shared win counts 1/2); for the
  solver against itself, the share won by the game's first seat (Lupin, the killer), and
  the share of shared wins (a tie at the cap).

Measured for issue 43 (seed 0, one worker per run, on two shared cores; before = main at
8fc87fe, after = main after stop 47; the same game indices before and after):

| game, lineup | games | at cap before -> after | longest still run | median | mean length |
| --- | ---: | ---: | ---: | ---: | ---: |
| blue-lion solver vs solver | 400 | 0% -> 0% | 103 -> 47 | 15 -> 8 | 75.9 -> 48.8 |
| blue-lion solver vs random | 400 | 0% -> 0% | 16 -> 14 | 4 -> 3 | 24.0 -> 22.8 |
| blue-lion hint vs solver | 12 | 8.3% -> 0% | 184 -> 13 | 23 -> 6 | 97.5 -> 41.4 |
| noir (both lineups) | 400 | 0% (unchanged code: the same games) | 28 / 42 | 1 / 6 | 30.6 / 47.1 |
| city-killer (both lineups) | 400 | no cap | 10 / 8 | 4 / 3 | 89.6 / 90.8 |

Solver vs solver, games with a still run of 30 moves or more: 46 -> 16 of 400; longest game
187 -> 101 moves; the first seat won 49.0% -> 48.2%. The solver won all 400 games against
random, before and after.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import engines
import solver
from engines import Observation
from opponents.base import Bot
from opponents.factory import make

GAMES = ("blue-lion", "noir", "city-killer")
LINEUPS: tuple[tuple[str, str], ...] = (("solver", "solver"), ("solver", "random"))
MOVE_RECORDS = {"blue-lion": {"act"}, "noir": {"shift"}, "city-killer": {"act"}}
"""Observation kinds that only record a move (no knowledge beyond the public position)."""


class HintFollower:
    """A person who plays the move `hint` shows every turn: `solver.advise(info, seed)` with
    the game's seed, as `sleuth play --seed S` advises (a fresh search each time, so the same
    position always gets the same advice unless the search remembers the record)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, info: engines.InformationSet) -> engines.Action:
        return solver.advise(info, seed=self.seed).move


@dataclass(frozen=True)
class Played:
    """One game: its length, whether the cap ended it, its longest still run, who won."""

    index: int
    length: int
    at_cap: bool
    still: int
    wins: tuple[float, ...]
    """Per lineup entry: 1/k to each of the k winners."""
    seat_wins: tuple[float, ...]
    """The same in seat order."""
    seconds: float


def play(game_name: str, lineup: Sequence[str], index: int, seed: int) -> Played:
    """Game `index` of a lineup, as `opponents.arena.play_one` plays it (rotating seats)."""
    began = time.perf_counter()
    game = engines.make(game_name)
    seats = game.seats
    shift = index % len(seats)
    seat_of = [seats[(k + shift) % len(seats)] for k in range(len(lineup))]
    bots: dict[object, HintFollower | Bot] = {
        seat_of[k]: HintFollower(seed)
        if name == "hint"
        else make(name, game, seat_of[k], seed=seed * 1000 + k)
        for k, name in enumerate(lineup)
    }
    solver.forget()
    state = game.new_game(seed=seed)
    records = MOVE_RECORDS[game_name]
    seen: set[Observation] = set()
    read = {seat: 0 for seat in seats}

    def progressed() -> bool:
        """Whether either seat received an observation it had not seen before."""
        new = False
        for seat in seats:
            observations = state.information_set(seat).observations
            for obs in observations[read[seat] :]:
                if obs.kind not in records and (seat, obs) not in seen:
                    seen.add((seat, obs))  # type: ignore[arg-type]
                    new = True
            read[seat] = len(observations)
        return new

    progressed()
    points = tuple(state.points(seat) for seat in seats)
    run = still = length = 0
    while (seat := state.to_move) is not None:
        state.apply(bots[seat].act(state.information_set(seat)))
        length += 1
        now = tuple(state.points(s) for s in seats)
        if progressed() or now != points:
            run = 0
        else:
            run += 1
            still = max(still, run)
        points = now
    end = [obs for obs in state.information_set(seats[0]).observations if obs.kind == "end"]
    at_cap = bool(end) and "limit" in str(end[-1].get("reason", ""))
    share = 1 / len(state.winners) if state.winners else 0.0
    wins = tuple(share if seat in state.winners else 0.0 for seat in seat_of)
    by_seat = tuple(share if seat in state.winners else 0.0 for seat in seats)
    return Played(index, length, at_cap, still, wins, by_seat, time.perf_counter() - began)


def measure(
    game: str,
    lineup: Sequence[str],
    games: int,
    workers: int,
    seed: int,
    out: Path | None = None,
) -> list[Played]:
    """Games 0 to `games` - 1 of a lineup in order; with `out`, each is appended to it as it
    ends, and games already there are read instead of played (a long run resumes)."""
    done = {p.index: p for p in read(out, game, lineup)} if out else {}
    args = [(game, list(lineup), i, seed + i) for i in range(games) if i not in done]
    found = list(done.values())

    def keep(played: Played) -> None:
        found.append(played)
        if out is not None:
            with out.open("a") as file:
                record = {"game": game, "lineup": list(lineup), **asdict(played)}
                file.write(json.dumps(record) + "\n")

    if workers == 1:
        for arg in args:
            keep(play(*arg))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for played in pool.map(play, *zip(*args, strict=True)) if args else ():
                keep(played)
    return sorted((p for p in found if p.index < games), key=lambda p: p.index)


def read(path: Path | None, game: str, lineup: Sequence[str]) -> list[Played]:
    """The games of `game` and `lineup` kept in `path` (JSON lines), in index order."""
    if path is None or not path.exists():
        return []
    found = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record.pop("game") == game and tuple(record.pop("lineup")) == tuple(lineup):
            record["wins"] = tuple(record["wins"])
            record["seat_wins"] = tuple(record["seat_wins"])
            found[record["index"]] = Played(**record)
    return sorted(found.values(), key=lambda p: p.index)


def row(
    game: str, lineup: Sequence[str], played: list[Played], seconds: float, label: str = ""
) -> str:
    """One line of the markdown table."""
    n = len(played)
    cap = sum(p.at_cap for p in played)
    stills = [p.still for p in played]
    if lineup[0] != lineup[1]:
        wins = f"{lineup[0]} {100 * sum(p.wins[0] for p in played) / n:.1f}%"
    else:
        first = 100 * sum(p.seat_wins[0] for p in played) / n
        shared = 100 * sum(0 < p.seat_wins[0] < 1 for p in played) / n
        wins = f"first seat {first:.1f}%, shared {shared:.1f}%"
    cap_text = f"{cap}/{n} = {100 * cap / n:.1f}%" if game != "city-killer" else "0 (no cap)"
    return (
        f"| {game} | {' vs '.join(lineup)}{label} | {n} | {cap_text} | {max(stills)} | "
        f"{statistics.median(stills):.0f} | {statistics.fmean(p.length for p in played):.1f} | "
        f"{wins} | {seconds:.0f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per lineup")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=GAMES, action="append", help="these games only")
    parser.add_argument("--lineup", action="append", help="e.g. solver,random (repeatable)")
    parser.add_argument(
        "--cap-games",
        action="append",
        default=[],
        metavar="GAME:LINEUP:N",
        help="fewer games for one slow lineup, e.g. blue-lion:solver,solver:100",
    )
    parser.add_argument("--out", type=Path, help="append each game to this JSON-lines file")
    parser.add_argument(
        "--table",
        type=Path,
        nargs="+",
        metavar="JSONL",
        help="print the table of games kept (two files: before and after, on the games both hold)",
    )
    args = parser.parse_args()
    if args.table:
        tables(args.table)
        return
    lineups = [tuple(text.split(",")) for text in args.lineup] if args.lineup else LINEUPS
    fewer = {}
    for text in args.cap_games:
        name, lineup, count = text.split(":")
        fewer[(name, tuple(lineup.split(",")))] = int(count)
    print(HEADER)
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game in args.only or GAMES:
        for lineup in lineups:
            games = fewer.get((game, tuple(lineup)), args.games)
            began = time.perf_counter()
            played = measure(game, lineup, games, args.workers, args.seed, args.out)
            print(row(game, lineup, played, time.perf_counter() - began), flush=True)


HEADER = (
    "| game | lineup | games | decided at cap | longest still run (moves) | median still run "
    "| mean length | wins | time |"
)


def tables(paths: Sequence[Path]) -> None:
    """The table of the games kept in `paths`; with two (before, after), each game and lineup
    twice, on the games both files hold (the same seeds)."""
    print(HEADER.replace("| time |", "| summed game time |"))
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    held = {
        (record["game"], tuple(record["lineup"]))
        for path in paths
        for record in map(json.loads, path.read_text().splitlines())
    }
    extra = sorted({lineup for _, lineup in held} - set(LINEUPS))
    for game in GAMES:
        for lineup in (*LINEUPS, *extra):
            kept = [read(path, game, lineup) for path in paths]
            common = set.intersection(*({p.index for p in k} for k in kept))
            if not common:
                continue
            labels = ("", "") if len(paths) == 1 else (" (before)", " (after)")
            for label, k in zip(labels, kept, strict=False):
                played = [p for p in k if p.index in common]
                seconds = sum(p.seconds for p in played)
                print(row(game, lineup, played, seconds, label))


if __name__ == "__main__":
    main()
