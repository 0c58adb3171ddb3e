"""A whole game of `sleuth play` typed by a player who asks for `hint` before every move and
then plays the move the hint calls best: the transcript a person would see.

    python benchmarks/transcript.py blue-lion --as lupin --seed 8 > blue-lion.txt
    python benchmarks/transcript.py noir --as killer --seed 3

The player's lines are chosen by reading the screen so far, as a person would: `hint`, then
the move after "best:".
"""

from __future__ import annotations

import argparse
import io
import re
import sys

from sleuth.cli import main

BEST = re.compile(r"best: (.+?)  ")


class Player(io.TextIOBase):
    """Standard input that answers each prompt from what `screen` shows."""

    def __init__(self, screen: io.StringIO, extra: list[str]) -> None:
        self.screen, self.asked, self.extra = screen, False, extra

    def readline(self, size: int = -1) -> str:
        shown = self.screen.getvalue()
        if shown.rstrip().endswith("`quit`>"):
            return "quit\n"
        if self.extra:
            return self.extra.pop(0) + "\n"
        if not self.asked:
            self.asked = True
            return "hint\n"
        self.asked = False
        found = BEST.findall(shown[shown.rfind("What the solver would play:") :])
        return (found[0] if found else "moves") + "\n"


def run(argv: list[str], extra: list[str]) -> str:
    screen = io.StringIO()
    stdout, stdin = sys.stdout, sys.stdin
    sys.stdout, sys.stdin = screen, Player(screen, extra)
    try:
        main(["play", *argv])
    finally:
        sys.stdout, sys.stdin = stdout, stdin
    return screen.getvalue()


def parse() -> tuple[list[str], list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--as", dest="seat", required=True)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--first", default="", help="lines typed first, ';'-separated")
    args, rest = parser.parse_known_args()
    extra = [line.strip() for line in args.first.split(";") if line.strip()]
    return [args.game, "--as", args.seat, "--seed", args.seed, *rest], extra


if __name__ == "__main__":
    argv, extra = parse()
    print(run(argv, extra), end="")
