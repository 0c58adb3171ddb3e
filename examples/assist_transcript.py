"""Type a recorded 4-player Alibi game into `sleuth assist` from seat 0, as a person would.

The lines are what someone at the table types: the deal with short names, one line per
passing step (`pass what-I-gave got what-I-got`), one per question heard. One answer is typed
wrong on purpose (a typo that contradicts what came before), and the script then fixes it
with `edit`, as the notebook suggests; a misspelt name shows "did you mean".

    python examples/assist_transcript.py [--seed 3] > transcript.txt
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import engines
from engines import InvalidObservation, Observation
from engines.notation import Vocabulary
from sleuth.assist import Session

PASSING = ("choose_pass", "pass", "hands")


def short(name: str, names: Vocabulary) -> str:
    """The shortest abbreviation (each part cut to the same length) that reads back as `name`."""
    parts = name.split("-")
    for length in range(1, max(map(len, parts)) + 1):
        typed = "-".join(part[:length] for part in parts)
        try:
            if names.read(typed) == name:
                return typed
        except InvalidObservation:
            continue
    return name


def table_lines(game: engines.Game, observations: tuple[Observation, ...]) -> list[str]:
    """Seat 0's record as typed at the table: passing steps folded into one line each."""
    cards = Vocabulary("word", game.notation_words())  # abbreviations unique among all words
    lines: list[str] = []
    index = 0
    while index < len(observations):
        obs = observations[index]
        if obs.kind == "deal":
            lines.append("deal " + " ".join(short(card, cards) for card in obs["cards"]))
        elif obs.kind in PASSING and index > 2:
            gave: tuple[str, ...] = ()
            got: tuple[str, ...] = ()
            while index < len(observations) and observations[index].kind in PASSING:
                step = observations[index]
                if step.kind == "pass" and step["giver"] == 0:
                    gave = step["cards"]
                elif step.kind == "pass" and step["receiver"] == 0:
                    got = step["cards"]
                index += 1
            given = " ".join(short(card, cards) for card in gave)
            lines.append(f"pass {given}" + (f" got {' '.join(short(c, cards) for c in got)}"))
            continue
        else:
            lines.append(game.observation_text(obs))
        index += 1
    return lines


def with_typo(game: engines.Game, lines: list[str]) -> tuple[int, str]:
    """The first answer line whose number, typed one higher, contradicts the lines before it."""
    with tempfile.TemporaryDirectory() as directory:
        session = Session.new(game.name, 0, dir=directory, players=4)
        for number, line in enumerate(lines, start=1):
            if " asks " in line and number > 10:
                head, _, answer = line.rpartition(": ")
                wrong = f"{head}: {int(answer) + 1}"
                try:
                    session.add(wrong)
                    if session.conflict is not None:
                        return number, wrong
                    session.undo()
                except InvalidObservation:
                    pass
            session.add(line)
    raise SystemExit("no answer in this game makes a contradiction when mistyped; try a seed")


def script(game: engines.Game, seed: int) -> str:
    info = game.random_game(seed).information_set(0)
    lines = table_lines(game, info.observations)
    number, wrong = with_typo(game, lines)
    card = info.observations[1]["cards"][3]
    misspelt = card[:-2] + card[-1] + card[-2]  # two letters swapped
    deal = lines[1].split()
    typed = [lines[0], " ".join([*deal[:4], misspelt, *deal[5:]]), *lines[1:]]
    fix = [wrong, "log", f"edit {number} {lines[number - 1]}"]
    typed = typed[:number] + fix + typed[number + 1 :]
    return "\n".join([*typed, "quit"]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3, help="the recorded game's seed")
    parser.add_argument("--hints", type=int, default=3, help="hints shown after each entry")
    args = parser.parse_args()
    game = engines.make("alibi", players=4)
    feed = script(game, args.seed)
    with tempfile.TemporaryDirectory() as directory:
        command = [sys.executable, "-m", "sleuth.cli", "assist", "alibi", "--players", "4",
                   "--dir", directory, "--no-board", "--hints", str(args.hints),
                   "--name", "table"]  # fmt: skip
        result = subprocess.run(
            command,
            input=feed,
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": "100"},
            check=False,
        )
    print(result.stdout.rstrip())
    if result.returncode:
        print(result.stderr, file=sys.stderr)
        raise SystemExit(result.returncode)


if __name__ == "__main__":
    main()
