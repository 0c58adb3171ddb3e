"""Where sessions live: one SQLite database (standard library, WAL mode) per directory.

Each change to a session is one row of `events`, committed in its own transaction before the
caller shows anything, so a crash (even SIGKILL) loses at most a change nobody saw the effect
of. The database is opened in WAL mode with `synchronous=FULL`, so a committed entry survives a
power cut as well as a killed process.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engines.core import JsonValue, Seat, SleuthError, freeze, quote

FILE_NAME = "sessions.sqlite3"
SCHEMA_VERSION = 1
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    name TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seat TEXT NOT NULL,
    level TEXT NOT NULL,
    created TEXT NOT NULL
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
    from platformdirs import user_data_path

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
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.directory / FILE_NAME, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except (OSError, sqlite3.Error) as error:
            raise SessionError(f"cannot open the sessions in {self.directory}: {error}") from None

    def close(self) -> None:
        self._db.close()

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
        (count,) = self._db.execute(
            "SELECT COUNT(*) FROM events WHERE session = ?", (name,)
        ).fetchone()
        return int(count)

    def set_level(self, name: str, level: str) -> None:
        with self._transaction():
            self._db.execute("UPDATE sessions SET level = ? WHERE name = ?", (level, name))

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
        rows = self._db.execute(
            "SELECT op, position, text FROM events WHERE session = ? ORDER BY seq", (name,)
        ).fetchall()
        return header, [Event(op, position, text) for op, position, text in rows]

    def sessions(self) -> list[SessionRecord]:
        """Every stored session, oldest first."""
        names = [row[0] for row in self._db.execute("SELECT name FROM sessions ORDER BY created")]
        return [header for name in names if (header := self._header(name)) is not None]

    def names(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT name FROM sessions")}

    def _header(self, name: str) -> SessionRecord | None:
        row = self._db.execute(
            "SELECT name, game, options, seat, level, created, "
            "(SELECT COUNT(*) FROM events WHERE session = sessions.name) "
            "FROM sessions WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            return None
        name, game, options, seat, level, created, events = row
        pairs = tuple((key, freeze(value)) for key, value in json.loads(options))
        return SessionRecord(name, game, pairs, json.loads(seat), level, created, events)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error (so a refused change leaves no row)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
