"""The damage table (issue 42, finding 6): what `sleuth assist` does with a damaged store.

For each kind of damage, builds a store of recorded blue-lion sessions in a temporary
directory, damages it, and runs the real command line as subprocesses: `--list`, `--resume
NAME` with stdin closed, and `--salvage`. Prints, per command, its exit status, the first line
it printed, whether the damaged bytes are still on disk (the file or a kept copy), and after
`--salvage` the sessions and changes recovered out of those stored.

    python benchmarks/store_damage.py                  # 8 sessions
    python benchmarks/store_damage.py --sessions 40

tests/test_store_damage.py damages stores the same way (DAMAGES).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import engines
from sleuth.assist.store import FILE_NAME, Event, Store
from sleuth.assist.transcribe import typed_lines

ROOT = Path(__file__).resolve().parent.parent
PAGE = 4096  # SQLite's default page size, which the store uses


def _truncate_half(data: bytes, rng: random.Random) -> bytes:
    return data[: len(data) // 2]


def _overwrite_header(data: bytes, rng: random.Random) -> bytes:
    return rng.randbytes(100) + data[100:]


def _zero_page(number: int) -> Callable[[bytes, random.Random], bytes]:
    def zero(data: bytes, rng: random.Random) -> bytes:
        start = (number - 1) * PAGE
        return data[:start] + bytes(PAGE) + data[start + PAGE :]

    return zero


def _randomise_a_page(data: bytes, rng: random.Random) -> bytes:
    start = rng.randrange(1, len(data) // PAGE) * PAGE
    return data[:start] + rng.randbytes(PAGE) + data[start + PAGE :]


def _garbage(data: bytes, rng: random.Random) -> bytes:
    return rng.randbytes(len(data))


def _empty(data: bytes, rng: random.Random) -> bytes:
    return b""


DAMAGES: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncated to half": _truncate_half,
    "header overwritten": _overwrite_header,
    "page 2 zeroed": _zero_page(2),
    "page 4 zeroed": _zero_page(4),
    "a page randomised": _randomise_a_page,
    "garbage file": _garbage,
    "emptied (0 bytes)": _empty,
}


def build_store(directory: Path, sessions: int) -> tuple[int, int]:
    """A store of `sessions` recorded blue-lion games (seat 0's typed lines, stored as they
    would be typed); how many sessions and changes it holds."""
    game = engines.make("blue-lion")
    store = Store(directory)
    changes = 0
    try:
        for seed in range(sessions):
            name = f"game-{seed}"
            store.create(name, game.name, game.option_items(), game.seats[0], "odds")
            info = game.random_game(seed).information_set(game.seats[0])
            for line in typed_lines(game, info):
                store.append(name, Event("add", None, line))
                changes += 1
    finally:
        store.close()
    return sessions, changes


def damage(path: Path, kind: str, seed: int = 0) -> bytes:
    """Damage the store file at `path` in the way `kind` names; the damaged bytes."""
    damaged = DAMAGES[kind](path.read_bytes(), random.Random(seed))
    path.write_bytes(damaged)
    return damaged


def still_on_disk(directory: Path, damaged: bytes) -> bool:
    """Whether the damaged bytes are on disk: the store file or a copy kept of it."""
    candidates = [directory / FILE_NAME, *directory.glob(f"{FILE_NAME}.damaged-*")]
    return any(path.is_file() and path.read_bytes() == damaged for path in candidates)


def sleuth_environment() -> dict[str, str]:
    """The environment a `python -m sleuth.cli` subprocess finds this checkout's sleuth in."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


def sleuth(directory: Path, *args: str) -> tuple[int, str]:
    """Run `sleuth assist ARGS --dir DIRECTORY` with stdin closed: exit status, all output."""
    done = subprocess.run(
        [sys.executable, "-m", "sleuth.cli", "assist", *args, "--dir", str(directory)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=sleuth_environment(),
        timeout=300,
        check=False,
    )
    return done.returncode, done.stderr + done.stdout


@dataclass
class Row:
    damage: str
    command: str
    status: int
    first_line: str
    kept: bool
    salvaged: str = ""


def measure(kind: str, sessions: int) -> list[Row]:
    """The three commands on one freshly damaged store."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        stored, changes = build_store(directory, sessions)
        damaged = damage(directory / FILE_NAME, kind)
        for command in (["--list"], ["--resume", "game-0"], ["--salvage"]):
            status, output = sleuth(directory, *command)
            output = output.replace(str(directory), "DIR")  # a table row, not a temp path
            first = output.strip().splitlines()[0] if output.strip() else ""
            row = Row(kind, " ".join(command), status, first, still_on_disk(directory, damaged))
            if "Traceback" in output:
                row.first_line = "TRACEBACK: " + first
            if command == ["--salvage"]:
                row.salvaged = _recovered(directory, stored, changes)
            rows.append(row)
    return rows


def _recovered(directory: Path, stored: int, changes: int) -> str:
    """'sessions/stored, changes/stored' in the salvaged store."""
    store = Store(directory)
    try:
        records = store.sessions()
    finally:
        store.close()
    recovered = sum(record.events for record in records)
    return f"{len(records)}/{stored} sessions, {recovered}/{changes} changes"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8, help="sessions in each store")
    args = parser.parse_args(argv)
    print("| damage | command | exit | first line | damaged bytes on disk | salvaged |")
    print("|---|---|---|---|---|---|")
    for kind in DAMAGES:
        for row in measure(kind, args.sessions):
            line = row.first_line if len(row.first_line) <= 130 else row.first_line[:127] + "..."
            print(
                f"| {row.damage} | {row.command} | {row.status} | {line} | "
                f"{'yes' if row.kept else 'NO'} | {row.salvaged} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
