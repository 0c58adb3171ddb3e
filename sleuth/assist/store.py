"""Where sessions live: one SQLite database (standard library, WAL mode) per directory.

Each change to a session is one row of `events`, committed in its own transaction before the
caller shows anything, so a crash (even SIGKILL) loses at most a change nobody saw the effect
of. The database is opened in WAL mode with `synchronous=FULL`, so a committed entry survives a
power cut as well as a killed process.

A damaged file is never answered from, written over or replaced: opening runs SQLite's
`quick_check` (a few milliseconds for 200 sessions of 100 changes), and any damage found then or
later raises `DamagedStore`, after a copy of the file as it was is kept beside it
(`sessions.sqlite3.damaged-<time>`, with its -wal and -shm). `sleuth.assist.salvage` recovers
what SQLite can still read. Beside the database, `sessions.sqlite3.marker` records that a store
was made here, so that a database later found missing, empty or not SQLite at all is refused
rather than silently started afresh.
"""

from __future__ import annotations

import filecmp
import json
import re
import shlex
import shutil
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from platformdirs import user_data_path

from engines.errors import SleuthError
from engines.values import JsonValue, Seat, freeze, quote

FILE_NAME = "sessions.sqlite3"
OPEN: Counter[Path] = Counter()
"""How many stores this process has open on each sessions file. The file's header is read
(`check_file`) only while none is: closing any descriptor of a file drops every POSIX lock
the process holds on it, SQLite's included, and another process would then take this one's
connections for gone and delete the write-ahead log they still use."""
MARKER_NAME = FILE_NAME + ".marker"
SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database
SQLITE_HEADER_BYTES = 100
# SQLite's primary result codes for a file that is damaged or is not a database at all.
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
SCHEMA_VERSION = 1
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    name TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seat TEXT NOT NULL,
    level TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    session TEXT NOT NULL REFERENCES sessions(name),
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (session, key)
);
CREATE TABLE IF NOT EXISTS events (
    session TEXT NOT NULL REFERENCES sessions(name),
    seq INTEGER NOT NULL,
    op TEXT NOT NULL,
    position INTEGER,
    text TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
"""


class SessionError(SleuthError, ValueError):
    """A session that does not exist, a name already taken or not allowed, an entry number out
    of range, nothing to undo: the message says what is allowed."""


class DamagedStore(SessionError):
    """The sessions file is damaged, or missing, empty or not SQLite where a store was made.

    Nothing is read from it or written to it after that; `kept` is the copy of it kept beside
    it (None when there was no file to copy).
    """

    def __init__(self, message: str, kept: Path | None) -> None:
        super().__init__(message)
        self.kept = kept


class StaleSession(SessionError):
    """A change made against an older version of the session than the stored one (another
    window or front end changed it since): refused, so that neither change is lost unseen."""


@dataclass(frozen=True)
class Event:
    """One change to a session's log: add, insert (before `position`), edit, delete, undo.

    Positions count entries from 1, as a person reads the numbered log.
    """

    op: str
    position: int | None = None
    text: str | None = None


@dataclass(frozen=True)
class SessionRecord:
    """A stored session's header: what `sleuth assist --list` shows."""

    name: str
    game: str
    options: tuple[tuple[str, JsonValue], ...]
    seat: Seat
    level: str
    created: str
    events: int


def default_dir() -> Path:
    """The user's data directory for sleuth (platformdirs: ~/.local/share/sleuth on Linux)."""
    return user_data_path("sleuth", appauthor=False)


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise SessionError(
            f"{quote(name)} is not a session name; use 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


class Store:
    """The sessions database in one directory."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_dir()
        self.path = self.directory / FILE_NAME
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SessionError(f"cannot open the sessions in {self.directory}: {error}") from None
        self._key = self.path.resolve()
        if not OPEN[self._key]:
            check_file(self.path)
        self._db = self._connect()
        try:
            with self._guard():
                self._check_integrity()
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(SCHEMA)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            write_marker(self.path)
        except SessionError:
            self._db.close()
            raise
        OPEN[self._key] += 1
        self._open = True

    def close(self) -> None:
        self._db.close()
        if self._open:
            OPEN[self._key] -= 1
            self._open = False

    def create(
        self,
        name: str,
        game: str,
        options: tuple[tuple[str, JsonValue], ...],
        seat: Seat,
        level: str,
    ) -> None:
        check_name(name)
        with self._transaction():
            if self._header(name) is not None:
                raise SessionError(f"there is already a session named {name!r}; pick another")
            self._db.execute(
                "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)",
                (name, game, json.dumps(options), json.dumps(seat), level, _now()),
            )

    def append(self, name: str, event: Event, version: int | None = None) -> None:
        """Record `event` durably (committed when this returns).

        Raises:
            StaleSession: `version` (the changes the caller has seen) is not the number of
                changes stored: someone else changed the session since.
        """
        with self._transaction():
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE session = ?", (name,)
            ).fetchone()
            if version is not None and version != seq - 1:
                raise StaleSession(
                    f"session {name!r} was changed elsewhere since (version {seq - 1} now, "
                    f"this change was made on version {version}); look again and redo it"
                )
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (name, seq, event.op, event.position, event.text, _now()),
            )

    def version(self, name: str) -> int:
        """How many changes session `name` has stored (its version)."""
        with self._guard():
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM events WHERE session = ?", (name,)
            ).fetchone()
        return int(count)

    def set_level(self, name: str, level: str) -> None:
        with self._transaction():
            self._db.execute("UPDATE sessions SET level = ? WHERE name = ?", (level, name))

    def setting(self, name: str, key: str) -> str | None:
        """A session's setting beside its header (the opponent model), or None when unset.
        Settings live in their own table, so a store an older sleuth wrote gains it on
        opening, and a salvaged store keeps the defaults."""
        with self._guard():
            row = self._db.execute(
                "SELECT value FROM settings WHERE session = ? AND key = ?", (name, key)
            ).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, name: str, key: str, value: str) -> None:
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?, ?)", (name, key, value))

    def load(self, name: str) -> tuple[SessionRecord, list[Event]]:
        """The session's header and its events in order.

        Raises:
            SessionError: no session has that name (the message lists the ones there are).
        """
        header = self._header(name)
        if header is None:
            known = ", ".join(record.name for record in self.sessions()) or "none yet"
            raise SessionError(
                f"no session named {quote(name)} in {self.directory}; known: {known}"
            )
        with self._guard():
            rows = self._db.execute(
                "SELECT op, position, text FROM events WHERE session = ? ORDER BY seq", (name,)
            ).fetchall()
        return header, [Event(op, position, text) for op, position, text in rows]

    def sessions(self) -> list[SessionRecord]:
        """Every stored session, oldest first."""
        with self._guard():
            rows = self._db.execute("SELECT name FROM sessions ORDER BY created").fetchall()
        return [header for (name,) in rows if (header := self._header(name)) is not None]

    def names(self) -> set[str]:
        with self._guard():
            return {row[0] for row in self._db.execute("SELECT name FROM sessions")}

    def _header(self, name: str) -> SessionRecord | None:
        with self._guard():
            row = self._db.execute(
                "SELECT name, game, options, seat, level, created, "
                "(SELECT COUNT(*) FROM events WHERE session = sessions.name) "
                "FROM sessions WHERE name = ?",
                (name,),
            ).fetchone()
        if row is None:
            return None
        try:
            return read_record(*row)
        except (ValueError, TypeError) as error:  # a JSON field that no longer parses
            raise damaged(self.path, f"session {name!r} cannot be read: {error}") from None

    def _connect(self) -> sqlite3.Connection:
        try:
            return sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as error:
            raise SessionError(f"cannot open the sessions in {self.path}: {error}") from None

    def _check_integrity(self) -> None:
        """SQLite's quick_check: damage is found before anything is answered from the file."""
        problems = [row[0] for row in self._db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise damaged(self.path, f"SQLite's quick_check found: {problems[0]}")

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn an error of SQLite's into a SessionError naming the file: DamagedStore (with a
        copy kept) when SQLite reports damage."""
        try:
            yield
        except sqlite3.Error as error:
            code = getattr(error, "sqlite_errorcode", None)
            if code is not None and code & 0xFF in _DAMAGE_CODES:
                raise damaged(self.path, f"SQLite reports: {error}") from None
            raise SessionError(
                f"cannot use the sessions in {self.path}: {error}; try again, and check the "
                "disk and that no other program holds the file"
            ) from None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (so a refused change leaves no
        row)."""
        with self._guard():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


def read_record(
    name: str, game: str, options: str, seat: str, level: str, created: str, events: int
) -> SessionRecord:
    """A session's header from its stored row (options and seat are JSON).

    Raises:
        ValueError, TypeError: a field is not what the store writes (a damaged row).
    """
    pairs = tuple((key, freeze(value)) for key, value in json.loads(options))
    return SessionRecord(name, game, pairs, json.loads(seat), level, created, events)


def check_file(path: Path) -> None:
    """Refuse, before SQLite touches it, a database file that is not SQLite at all, or one
    missing or empty where the marker says a store was made. No file and no marker is a first
    run; an empty file without a marker holds nothing to lose (a first run cut short).

    Raises:
        DamagedStore: the file cannot be this directory's store as it was.
    """
    marked = path.with_name(MARKER_NAME).exists()
    try:
        with path.open("rb") as file:
            header = file.read(SQLITE_HEADER_BYTES)
    except FileNotFoundError:
        if marked:
            raise damaged(path, "it is missing, though a store was made here") from None
        return
    except OSError as error:
        raise SessionError(f"cannot read the sessions in {path}: {error}") from None
    if not header and marked:
        raise damaged(path, "it is empty (0 bytes), though a store was made here")
    if header and (len(header) < SQLITE_HEADER_BYTES or not header.startswith(SQLITE_MAGIC)):
        raise damaged(path, "it does not start with SQLite's header")


def damaged(path: Path, detail: str) -> DamagedStore:
    """The error for a damaged store, after a copy of the file is kept beside it (if there is
    one); the message says where the copy is and how to salvage the sessions."""
    kept = keep_copy(path) if path.exists() else None
    where = f"a copy of it as found is kept at {kept}" if kept else "there is no file to copy"
    salvage = f"sleuth assist --salvage --dir {shlex.quote(str(path.parent))}"
    return DamagedStore(
        f"the sessions file {path} is damaged ({detail}); {where}. Run `{salvage}` to recover "
        "the sessions SQLite can still read into a fresh store (the damaged file is kept)",
        kept,
    )


def keep_copy(path: Path) -> Path:
    """Copy `path` and its -wal and -shm beside it as `<name>.damaged-<time>` (the -wal and -shm
    keep their suffixes, so SQLite reads the copy as the original). A copy kept earlier with the
    same bytes is reused, so that looking again does not pile up copies.

    Raises:
        SessionError: the copy cannot be made (a full disk): the message says to make one.
    """
    for earlier in sorted(path.parent.glob(f"{path.name}.damaged-*")):
        if not earlier.name.endswith(("-wal", "-shm")) and _same_files(earlier, path):
            return earlier
    kept = unused_copy_name(path)
    try:
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{path}{suffix}")
            if source.exists():
                shutil.copy2(source, f"{kept}{suffix}")
    except OSError as error:
        raise SessionError(
            f"the sessions file {path} is damaged, and a copy of it cannot be kept ({error}); "
            "copy it (with any -wal file beside it) somewhere safe before anything else"
        ) from None
    return kept


def _same_files(copy: Path, original: Path) -> bool:
    """Whether `copy` and its -wal hold the bytes `original` and its -wal do."""
    for suffix in ("", "-wal"):
        a, b = Path(f"{copy}{suffix}"), Path(f"{original}{suffix}")
        if a.exists() != b.exists() or (a.exists() and not filecmp.cmp(a, b, shallow=False)):
            return False
    return True


def unused_copy_name(path: Path) -> Path:
    """`<name>.damaged-<time>` beside `path`, with `-2`, `-3`... added if that names a file."""
    first = path.with_name(f"{path.name}.damaged-{_stamp()}")
    candidate, number = first, 1
    while candidate.exists():
        number += 1
        candidate = first.with_name(f"{first.name}-{number}")
    return candidate


def write_marker(path: Path) -> None:
    """Record beside the database that a store was made here (once; cheap to look for)."""
    marker = path.with_name(MARKER_NAME)
    if marker.exists():
        return
    try:
        marker.write_text(
            f"sleuth made a sessions store here ({path.name}). While this file exists, sleuth "
            f"refuses to start an empty store in place of a {path.name} found missing, empty "
            "or not SQLite. To start afresh on purpose, move both files away.\n"
        )
    except OSError as error:
        raise SessionError(f"cannot write {marker}: {error}") from None


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
