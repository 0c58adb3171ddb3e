"""Measurements of `sleuth assist` (issue 9): typed sessions against the engine, crash safety,
corrupted entries, and the latency of an edit.

    python benchmarks/assist.py                       # everything, with the issue's counts
    python benchmarks/assist.py --only typed --games 100
    python benchmarks/assist.py --only crash --kills 50
    python benchmarks/assist.py --only corrupt --games 40
    python benchmarks/assist.py --only latency

Each phase prints a table. tests/test_assist_session.py runs the same functions on small counts.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import engines
import solver
import solver.deduction
from engines import Game, InformationSet, Observation, SleuthError
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines

CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("blue-lion", {}),
    ("noir", {}),
    ("alibi", {"players": 4}),
]


def fresh_solver() -> None:
    """Forget remembered deductions, so that a timing or a comparison computes afresh."""
    with solver.deduction._RECENT_LOCK:
        solver.deduction._RECENT.clear()


# --- typed sessions equal the engine's information sets ------------------------------------
@dataclass
class Typed:
    game: str
    seat: object
    games: int = 0
    entries: int = 0
    mismatches: list[str] = field(default_factory=list)
    compared: int = 0  # deductions compared fact by fact


def same_deduction(a: solver.Deduction, b: solver.Deduction) -> str | None:
    """Where two deductions differ (certain, possible, exact probabilities), or None."""
    if [f.text for f in a.certain()] != [f.text for f in b.certain()]:
        return "certain facts differ"
    for fa, fb in zip(a.facts, b.facts, strict=True):
        if a.possible(fa) != b.possible(fb):
            return f"possible({fa.text}) differs"
        if a.exact and b.exact and a.probability(fa) != b.probability(fb):
            return f"probability({fa.text}) differs"
    return None


def type_game(
    name: str, options: dict[str, object], seed: int, seat: object, directory: str, deduce: bool
) -> tuple[int, str | None]:
    """Type seat's record of one random game into a new session; (entries, mismatch or None)."""
    game = engines.make(name, **options)
    info = game.random_game(seed).information_set(game.check_seat(seat))
    session = Session.new(name, seat, dir=directory, name=f"g{seed}-{seat}", **options)
    try:
        for number, line in enumerate(typed_lines(game, info), start=1):
            try:
                session.add(line)
            except SleuthError as error:
                return number, f"seed {seed}: entry {number} {line!r} refused: {error}"
        if session.information_set() != info:
            return len(info.observations), f"seed {seed}: information sets differ"
        if deduce:
            fresh_solver()
            mine = session.deduction()
            fresh_solver()
            if mine is None:
                return len(info.observations), f"seed {seed}: no deduction for a whole game"
            differs = same_deduction(mine, solver.deduce(info))
            if differs:
                return len(info.observations), f"seed {seed}: {differs}"
        return len(info.observations), None
    finally:
        session.close()


def typed(games: int, deduce_every: int = 1, configs=CONFIGS) -> list[Typed]:
    results = []
    with tempfile.TemporaryDirectory() as directory:
        for name, options in configs:
            for seat in engines.make(name, **options).seats:
                row = Typed(name, seat)
                for seed in range(games):
                    deduce = seed % deduce_every == 0
                    count, mismatch = type_game(name, options, seed, seat, directory, deduce)
                    row.games += 1
                    row.entries += count
                    row.compared += deduce and mismatch is None
                    if mismatch:
                        row.mismatches.append(mismatch)
                results.append(row)
    return results


# --- crash safety: SIGKILL at a random moment, then resume ---------------------------------
@dataclass
class Crash:
    kills: int = 0
    shown: int = 0  # entries whose hints appeared before the kill, summed
    kept: int = 0  # entries found on resume, summed
    lost: list[str] = field(default_factory=list)


def crash(kills: int, seed: int = 0, name: str = "blue-lion", game_seed: int = 3) -> Crash:
    """Feed a recorded game's lines to `sleuth assist` and SIGKILL it at random moments.

    An entry's hints have been shown once the prompt for the next entry appeared (the prompt
    is written after them and flushed); every such entry must be there on resume, in order.
    """
    game = engines.make(name)
    lines = typed_lines(game, game.random_game(game_seed).information_set(game.seats[0]))
    rng = random.Random(seed)
    result = Crash()
    with tempfile.TemporaryDirectory() as directory:
        for kill in range(kills):
            session = f"crash{kill}"
            Session.new(name, dir=directory, name=session).close()
            out = _kill_while_typing(session, directory, lines, rng.uniform(0.3, 6.0))
            shown = max((int(p) for p in _prompts(out)), default=1) - 1
            again = Session.open(session, directory)
            kept = [entry.text for entry in again.entries]
            again.close()
            result.kills += 1
            result.shown += shown
            result.kept += len(kept)
            if len(kept) < shown or kept != lines[: len(kept)]:
                result.lost.append(f"kill {kill}: shown {shown}, kept {len(kept)}")
    return result


def _kill_while_typing(session: str, directory: str, lines: Sequence[str], after: float) -> str:
    command = [sys.executable, "-m", "sleuth.cli", "assist", "--resume", session, "--dir"]
    process = subprocess.Popen(
        [*command, directory],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "COLUMNS": "120"},
    )
    assert process.stdin is not None and process.stdout is not None
    os.set_blocking(process.stdout.fileno(), False)
    process.stdin.write(("\n".join(lines) + "\n").encode())
    process.stdin.flush()
    output = bytearray()
    deadline = time.monotonic() + after
    while time.monotonic() < deadline and process.poll() is None:
        output += _drain(process.stdout)
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    output += _drain(process.stdout)
    process.stdin.close()
    process.stdout.close()
    return output.decode(errors="replace")


def _drain(stream) -> bytes:
    try:
        return stream.read() or b""
    except BlockingIOError:
        return b""


def _prompts(output: str) -> list[str]:
    import re

    return re.findall(r"(?:^|\n)(\d+)> ", output)


# --- corruption: one value changed, is the changed entry blamed? ---------------------------
@dataclass
class Corrupt:
    game: str
    tries: int = 0
    outcomes: Counter = field(default_factory=Counter)
    blamed: int = 0  # inconsistent corruptions whose conflict holds the changed entry
    only_repair: int = 0  # ... where it is the only single-entry repair named
    read_with: int = 0  # ... named as an entry the conflicting ones were read with (Noir shifts)
    misses: list[str] = field(default_factory=list)


def mutated(obs: Observation, record: Sequence[Observation], rng: random.Random) -> Observation:
    """`obs` with one field's value changed to another value seen in that field or kind."""
    name, value = rng.choice(obs.fields)
    seen = {v for o in record if o.kind == obs.kind for k, v in o.fields if k == name} - {value}
    if isinstance(value, bool):
        new = not value
    elif isinstance(value, int):
        new = value + rng.choice((-1, 1))
    elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
        pool = sorted({v for o in record for _, vs in o.fields if isinstance(vs, tuple)
                       for v in vs if isinstance(v, str)} - set(value))  # fmt: skip
        if not pool:
            return obs
        changed = list(value)
        changed[rng.randrange(len(changed))] = rng.choice(pool)
        new = tuple(changed)
    elif seen:
        new = rng.choice(sorted(seen, key=repr))
    else:
        return obs
    return Observation(obs.kind, tuple((k, new if k == name else v) for k, v in obs.fields))


def corrupt(games: int, per_game: int = 5, configs=CONFIGS, seed: int = 0) -> list[Corrupt]:
    rng = random.Random(seed)
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for name, options in configs:
            row = Corrupt(name)
            game = engines.make(name, **options)
            for g in range(games):
                seat = game.seats[g % len(game.seats)]
                info = game.random_game(1000 + g).information_set(seat)
                lines = typed_lines(game, info)
                for k in range(per_game):
                    _corrupt_once(game, info, lines, rng, row, directory, f"{name}-{g}-{k}")
            rows.append(row)
    return rows


def _corrupt_once(
    game: Game,
    info: InformationSet,
    lines: list[str],
    rng: random.Random,
    row: Corrupt,
    directory: str,
    name: str,
) -> None:
    for _ in range(20):  # find a change that alters what is typed
        index = rng.randrange(len(lines))
        changed = mutated(info.observations[index], info.observations, rng)
        try:
            text = game.observation_text(changed)
        except SleuthError:
            continue
        if text != lines[index]:
            break
    else:
        row.outcomes["no typed change found"] += 1
        return
    row.tries += 1
    session = Session.new(game.name, info.seat, dir=directory, name=name, **dict(game.options))
    try:
        for line in lines:
            session.add(line)
        try:
            session.edit(index + 1, text)
        except SleuthError as error:
            row.outcomes[f"refused ({type(error).__name__})"] += 1
            return
        conflict = session.conflict
        if conflict is None:
            row.outcomes[session.reading().status] += 1
            return
        row.outcomes["inconsistent"] += 1
        if index + 1 in conflict.entries:
            row.blamed += 1
            row.only_repair += conflict.repairs == (index + 1,)
        elif index + 1 in conflict.read_with:
            row.blamed += 1
            row.read_with += 1
        else:
            row.misses.append(f"{game.name} {name}: entry {index + 1} -> {text!r}: {conflict}")
    finally:
        session.close()


# --- latency of an edit --------------------------------------------------------------------
def latency(
    name: str, options: dict[str, object], entries: int, position: int | None, repeats: int
) -> list[tuple[float, float]]:
    """Seconds from an edit to the new hints (solver memory cleared first), over `repeats`
    sessions of `entries` entries of different random games; `position` None: a random entry.
    Each time is (wall, CPU of this process): on a busy machine the CPU time is close to what
    the wall time would be on an idle one (the database's waits for the disk aside).

    The edit re-types the entry's own text: the session reads every entry from the edited one
    on and recomputes everything, exactly as for a typo fixed, and the record stays readable.
    The hints of the last entry were shown first, as at the table.
    """
    game = engines.make(name, **options)
    times = []
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as directory:
        for seed in range(repeats):
            seat = game.seats[0]
            lines = typed_lines(game, game.random_game(seed).information_set(seat))[:entries]
            session = Session.new(name, seat, dir=directory, name=f"l{seed}", **options)
            for line in lines:
                session.add(line)
            session.hints()  # as at the table: the last entry's hints were on the screen
            at = position if position is not None else rng.randrange(1, len(lines) + 1)
            fresh_solver()
            start, cpu = time.perf_counter(), time.process_time()
            session.edit(at, lines[at - 1])
            session.hints()
            times.append((time.perf_counter() - start, time.process_time() - cpu))
            session.close()
    return times


# --- the report ----------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("typed", "crash", "corrupt", "latency"))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args(argv)
    if args.only in (None, "typed"):
        print("| game | seat | games | entries typed | deductions compared | mismatches |")
        print("| --- | --- | --- | --- | --- | --- |")
        for row in typed(args.games, deduce_every=5):
            print(f"| {row.game} | {row.seat} | {row.games} | {row.entries} | {row.compared} "
                  f"| {len(row.mismatches)} |")  # fmt: skip
            for line in row.mismatches[:5]:
                print(f"  {line}")
    if args.only in (None, "crash"):
        result = crash(args.kills)
        print(f"\nSIGKILLs: {result.kills}; entries shown before the kill: {result.shown}; "
              f"found on resume: {result.kept}; lost: {len(result.lost)}")  # fmt: skip
        for line in result.lost:
            print(f"  {line}")
    if args.only in (None, "corrupt"):
        print("\n| game | corruptions | inconsistent | changed entry named | of which read-with "
              "| it alone is the repair | other outcomes |")  # fmt: skip
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for row in corrupt(max(1, args.games // 2)):
            bad = row.outcomes["inconsistent"]
            others = ", ".join(f"{k} {v}" for k, v in sorted(row.outcomes.items())
                               if k != "inconsistent")  # fmt: skip
            print(f"| {row.game} | {row.tries} | {bad} | {row.blamed} ({_pct(row.blamed, bad)}) "
                  f"| {row.read_with} | {row.only_repair} ({_pct(row.only_repair, bad)}) "
                  f"| {others} |")  # fmt: skip
            for line in row.misses[:5]:
                print(f"  {line}")
    if args.only in (None, "latency"):
        print("\n| session | edited entry | median | p90 | max | median CPU |")
        print("| --- | --- | --- | --- | --- | --- |")
        cases = [
            ("alibi", {"players": 4}, 60, 1, "4-player Alibi, 60 entries"),
            ("blue-lion", {}, 200, None, "Blue Lion, whole game"),
            ("noir", {}, 200, None, "Noir, whole game"),
        ]
        for name, options, entries, position, label in cases:
            measured = latency(name, options, entries, position, args.repeats)
            where = "1" if position == 1 else "random"
            wall = sorted(t for t, _ in measured)
            cpu = sorted(c for _, c in measured)
            print(f"| {label} | {where} | {statistics.median(wall) * 1000:.0f} ms "
                  f"| {wall[int(0.9 * (len(wall) - 1))] * 1000:.0f} ms "
                  f"| {wall[-1] * 1000:.0f} ms "
                  f"| {statistics.median(cpu) * 1000:.0f} ms |")  # fmt: skip


def _pct(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "n/a"


if __name__ == "__main__":
    main()
