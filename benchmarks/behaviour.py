"""Behaviour fingerprints: a hash of the moves and the final state of seeded games, per game
and bot lineup, so that a change meant to leave behaviour alone (issue 37's refactoring) can
be shown to: the same hashes before and after.

    python benchmarks/behaviour.py [--games 200] [--workers 2] [--only GAME,...]
                                   [--lineups random,heuristic,solver] [--save FILE]
                                   [--check FILE]

Each (game, lineup) row plays `--games` arena games (seats rotated, the arena's seeds) and
hashes, in order, every action's text, every information set's JSON at each decision, and
the final state's JSON. `--save` writes the rows as JSON; `--check` compares with a saved
file and exits 1 naming every row that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
import opponents
import solver

GAMES = ("blue-lion", "noir", "city-killer", "serial-killer", "alibi")
LINEUPS = ("random", "heuristic", "solver")
"""Every seat played by the same bot kind."""


def fingerprint(job: tuple[str, str, int, int]) -> str:
    """The hash of one seeded game: its decisions (information set and action) and its end."""
    game_name, bot, index, seed = job
    game = engines.make(game_name)
    seats = game.seats
    shift = index % len(seats)
    bots = {
        seats[(k + shift) % len(seats)]: opponents.make(
            bot, game, seats[(k + shift) % len(seats)], seed=seed * 1000 + k
        )
        for k in range(len(seats))
    }
    solver.forget()
    state = game.new_game(seed=seed)
    digest = hashlib.sha256()
    while (seat := state.to_move) is not None:
        info = state.information_set(seat)
        action = bots[seat].act(info)
        digest.update(info.to_json().encode())
        digest.update(str(action).encode())
        state.apply(action)
    digest.update(state.to_json().encode())
    return digest.hexdigest()


def row(game_name: str, bot: str, games: int, workers: int) -> tuple[str, float]:
    """The hash of `games` seeded games of `bot` in every seat, and the seconds it took."""
    began = time.perf_counter()
    jobs = [(game_name, bot, i, i) for i in range(games)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        hashes = list(pool.map(fingerprint, jobs))
    combined = hashlib.sha256("".join(hashes).encode()).hexdigest()
    return combined, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default=",".join(GAMES))
    parser.add_argument("--lineups", default=",".join(LINEUPS))
    parser.add_argument("--save", type=Path)
    parser.add_argument("--check", type=Path)
    args = parser.parse_args()
    saved = json.loads(args.check.read_text()) if args.check else {}
    found: dict[str, str] = {}
    differ = []
    print("| game | lineup | games | hash | seconds | same as saved |")
    print("| --- | --- | --- | --- | --- | --- |")
    for game_name in args.only.split(","):
        for bot in args.lineups.split(","):
            key = f"{game_name} {bot} x{args.games}"
            digest, seconds = row(game_name, bot, args.games, args.workers)
            found[key] = digest
            same = "-" if key not in saved else ("yes" if saved[key] == digest else "**NO**")
            if same == "**NO**":
                differ.append(key)
            print(
                f"| {game_name} | {bot} | {args.games} | {digest[:16]} | {seconds:.0f} | {same} |"
            )
            sys.stdout.flush()
            if args.save:
                args.save.write_text(json.dumps(found, indent=1) + "\n")
    if differ:
        print("differ:", ", ".join(differ))
        sys.exit(1)


if __name__ == "__main__":
    main()
