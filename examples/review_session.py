"""Type a Noir game into a notebook session as the inspector would, then look back at it.

Two `heuristic` bots play a 3x3 game of Noir; the inspector's side of it is typed line by line
into `sleuth assist`'s notebook (a session in a temporary directory), as a person at the table
types it; then `sleuth review` reads the session and prints each of the inspector's decisions
beside the solver's, graded, and the summary.

    python examples/review_session.py [--seed 11]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import engines
import opponents
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=11)
    seed = parser.parse_args().seed
    game = engines.make("noir", grid=3)
    bots = {seat: opponents.make("heuristic", game, seat, seed=seed + k)
            for k, seat in enumerate(game.seats)}  # fmt: skip
    state = game.new_game(seed=seed)
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
    lines = typed_lines(game, state.information_set("inspector"))
    with tempfile.TemporaryDirectory() as folder:
        session = Session.new("noir", "inspector", dir=folder, name="noir-table", grid=3)
        for line in lines:
            session.add(line)
        session.close()
        print(f"typed {len(lines)} lines into the session noir-table, for example:")
        for line in lines[:4]:
            print(f"  > {line}")
        print()
        command = [sys.executable, "-m", "sleuth.cli", "review", "noir-table", "--dir", folder]
        env = {**os.environ, "COLUMNS": "100"}
        subprocess.run(command, check=True, env=env)


if __name__ == "__main__":
    main()
