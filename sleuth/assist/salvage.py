"""Recover the sessions SQLite can still read from a damaged store: `sleuth assist --salvage`.

SQLite's own `.recover` exists only in its shell, so this reads a copy of the damaged file
through SQLite, table by table, by rowid ranges: a range that raises is split in two, down to
single rows, and a single row that raises is lost. The store never deletes a row, so rowids run
from 1 without gaps and every unreadable one below the highest known is a row lost.

A session keeps its changes up to the first one missing: that is the session exactly as it was
then, while changes after a gap would be replayed against a log they were not made on. The
recovered sessions become a fresh store in place of the damaged file, which is moved aside
(`sessions.sqlite3.damaged-<time>`), never deleted.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleuth.assist.store import (
    FILE_NAME,
    MARKER_NAME,
    SCHEMA,
    SCHEMA_VERSION,
    SQLITE_HEADER_BYTES,
    SQLITE_MAGIC,
    SessionError,
    Store,
    check_name,
    default_dir,
    read_record,
    unused_copy_name,
)

Row = tuple[Any, ...]  # as SQLite returns it: checked before it is stored again
_SESSION_COLUMNS = "name, game, options, seat, level, created"
_EVENT_COLUMNS = "session, seq, op, position, text, at"
_MIN_ROW_BYTES = 32  # no stored row is smaller: bounds the rowids of a table whose end is lost


@dataclass
class Salvage:
    """What `salvage` recovered, and what it could not."""

    kept: Path | None  # where the damaged file was moved (None: there was no file)
    sessions: dict[str, int] = field(default_factory=dict)  # recovered: name -> changes
    dropped: dict[str, int] = field(default_factory=dict)  # name -> changes after a gap
    headless: dict[str, int] = field(default_factory=dict)  # changes whose session is lost
    # Rows SQLite could not read (None: it could not even say how many rows there were).
    unreadable_sessions: int | None = 0
    unreadable_changes: int | None = 0

    @property
    def changes(self) -> int:
        return sum(self.sessions.values())


def salvage(directory: Path | str | None = None) -> Salvage:
    """Move the damaged store in `directory` aside and put in its place a fresh store holding
    every session SQLite can still read from it.

    Raises:
        SessionError: there is no store here, or the new one cannot be written (the damaged
            file is then left where it was).
    """
    folder = Path(directory) if directory is not None else default_dir()
    path = folder / FILE_NAME
    if not path.exists() and not path.with_name(MARKER_NAME).exists():
        raise SessionError(f"there is no sessions store in {folder}; nothing to salvage")
    report = Salvage(kept=None)
    sessions, events = _read_damaged(path, report) if path.exists() else ([], [])
    kept_rows = _whole_sessions(sessions, events, report)
    staging = Path(tempfile.mkdtemp(prefix=".salvage-", dir=folder))
    try:
        _write_store(staging / FILE_NAME, kept_rows)
        report.kept = _move_aside(path)
        os.replace(staging / FILE_NAME, path)
    except (OSError, sqlite3.Error) as error:
        raise SessionError(f"cannot write the salvaged store in {folder}: {error}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    Store(folder).close()  # the new store passes the checks every open makes (and is marked)
    return report


def _read_damaged(path: Path, report: Salvage) -> tuple[list[Row], list[Row]]:
    """The session and change rows SQLite can read from a scratch copy of `path` (and its
    -wal), so that reading never changes the damaged file."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / FILE_NAME
        shutil.copyfile(path, copy)
        if Path(f"{path}-wal").exists():
            shutil.copyfile(f"{path}-wal", f"{copy}-wal")
        _restore_header(copy)
        db = sqlite3.connect(copy)
        try:
            # SQLite's recovery aid (as its .dump uses): a schema naming a page past the end
            # of a truncated file no longer hides the tables whose pages are there.
            db.execute("PRAGMA writable_schema=ON")
            sessions, report.unreadable_sessions = _readable_rows(db, "sessions", _SESSION_COLUMNS)
            events, report.unreadable_changes = _readable_rows(db, "events", _EVENT_COLUMNS)
        finally:
            db.close()
    return sessions, events


def _restore_header(copy: Path) -> None:
    """Give a copy whose SQLite header was overwritten the header of a fresh store, with the
    page count marked stale so that SQLite counts the file's pages: the pages behind a lost
    header are then read as they are."""
    with copy.open("r+b") as file:
        if file.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC or file.seek(0, os.SEEK_END) == 0:
            return
        file.seek(0)
        file.write(_fresh_header())


def _fresh_header() -> bytes:
    with tempfile.TemporaryDirectory() as scratch:
        Store(scratch).close()
        header = bytearray((Path(scratch) / FILE_NAME).read_bytes()[:SQLITE_HEADER_BYTES])
    change_counter = int.from_bytes(header[24:28], "big")
    header[92:96] = (change_counter + 1).to_bytes(4, "big")  # page count no longer valid
    return bytes(header)


def _readable_rows(
    db: sqlite3.Connection, table: str, columns: str
) -> tuple[list[Row], int | None]:
    """The rows of `table` SQLite can read, in rowid order, and how many it could not read
    (None when the table's highest rowid cannot be read either)."""
    top, exact = _top_rowid(db, table)
    found: dict[int, Row] = {}
    unreadable: list[int] = []
    ranges = [(1, top)] if top >= 1 else []
    while ranges:
        low, high = ranges.pop()
        try:
            query = f"SELECT rowid, {columns} FROM {table} WHERE rowid BETWEEN ? AND ?"
            for rowid, *values in db.execute(query, (low, high)).fetchall():
                found[rowid] = tuple(values)
        except sqlite3.Error:
            if low == high:
                unreadable.append(low)
            else:
                middle = (low + high) // 2
                ranges += [(low, middle), (middle + 1, high)]
    return [found[rowid] for rowid in sorted(found)], len(unreadable) if exact else None


def _top_rowid(db: sqlite3.Connection, table: str) -> tuple[int, bool]:
    """The highest rowid of `table` and True; or, when SQLite cannot read it, a bound no
    rowid in a file this size can pass, and False."""
    try:
        (top,) = db.execute(f"SELECT COALESCE(MAX(rowid), 0) FROM {table}").fetchone()
        return int(top), True
    except sqlite3.Error:
        try:
            (pages,) = db.execute("PRAGMA page_count").fetchone()
            (size,) = db.execute("PRAGMA page_size").fetchone()
        except sqlite3.Error:
            return 0, False
        return int(pages) * int(size) // _MIN_ROW_BYTES, False


def _whole_sessions(
    sessions: Sequence[Row], events: Sequence[Row], report: Salvage
) -> list[tuple[Row, list[Row]]]:
    """Each readable session header with its changes up to the first missing one; changes
    whose header is lost are counted in `report`, as are those dropped after a gap."""
    by_session: dict[str, list[Row]] = {}
    for event in events:
        by_session.setdefault(event[0], []).append(event)
    whole: list[tuple[Row, list[Row]]] = []
    for header in sessions:
        if not _usable_header(header):
            if report.unreadable_sessions is not None:
                report.unreadable_sessions += 1
            continue
        changes = by_session.pop(header[0], [])  # in rowid order, which is the order stored
        unbroken = _unbroken(changes)
        whole.append((header, changes[:unbroken]))
        report.sessions[header[0]] = unbroken
        if unbroken < len(changes):
            report.dropped[header[0]] = len(changes) - unbroken
    for name, changes in by_session.items():
        report.headless[str(name)] = len(changes)
    return whole


def _usable_header(header: Row) -> bool:
    """Whether a recovered session row reads as the store wrote it."""
    if not all(isinstance(value, str) for value in header):
        return False
    try:
        name, game, options, seat, level, created = header
        read_record(check_name(name), game, options, seat, level, created, 0)
    except (SessionError, ValueError, TypeError):
        return False
    return True


def _unbroken(changes: Sequence[Row]) -> int:
    """How many changes run 1, 2, 3... from the first with no number missing."""
    count = 0
    for event in changes:
        if event[1] != count + 1:
            break
        count += 1
    return count


def _write_store(path: Path, sessions: Sequence[tuple[Row, list[Row]]]) -> None:
    """A fresh store file at `path` holding `sessions`, written whole and closed."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(SCHEMA)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("BEGIN")
        for header, changes in sessions:
            db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)", header)
            db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)", changes)
        db.execute("COMMIT")
    finally:
        db.close()


def _move_aside(path: Path) -> Path | None:
    """Rename the damaged file and its -wal and -shm to `<name>.damaged-<time>`: kept whole,
    and out of the way of the new store (an old -wal beside it would be replayed into it)."""
    if not path.exists():
        return None
    kept = unused_copy_name(path)
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{path}{suffix}").exists():
            os.replace(f"{path}{suffix}", f"{kept}{suffix}")
    return kept
