"""The session log and its SQLite store, without any game: folding events, refusing bad ones,
and keeping every committed event across connections."""

from __future__ import annotations

import sqlite3

import pytest

from sleuth.assist.log import apply_event, fold
from sleuth.assist.store import Event, SessionError, Store, check_name


def test_fold_applies_every_kind_of_change_in_order() -> None:
    history = fold(
        [
            Event("add", None, "a"),
            Event("add", None, "c"),
            Event("insert", 2, "b"),
            Event("edit", 3, "C"),
            Event("add", None, "d"),
            Event("delete", 1),
        ]
    )
    assert history[-1] == ["b", "C", "d"]


def test_undo_takes_back_the_latest_change_each_time() -> None:
    history = fold([Event("add", None, "a"), Event("add", None, "b"), Event("edit", 1, "A")])
    history = apply_event(history, Event("undo"))
    assert history[-1] == ["a", "b"]
    history = apply_event(history, Event("undo"))
    assert history[-1] == ["a"]


@pytest.mark.parametrize(
    "event, message",
    [
        (Event("undo"), "nothing to undo"),
        (Event("edit", 2, "x"), "no entry 2 to edit; entries: 1 to 1"),
        (Event("delete", 0), "no entry 0"),
        (Event("insert", 3, "x"), "entries: 1 to 2"),
        (Event("add", None, "  "), "add needs the text"),
        (Event("edit", True, "x"), "no entry True"),
        (Event("rename", 1, "x"), "unknown change 'rename'"),
    ],
)
def test_bad_changes_are_refused_and_leave_the_history_alone(event: Event, message: str) -> None:
    history = fold([Event("add", None, "a")]) if event.op != "undo" else fold([])
    before = [list(entries) for entries in history]
    with pytest.raises(SessionError, match=message):
        apply_event(history, event)
    assert history == before


def test_the_store_keeps_sessions_and_events_across_connections(tmp_path) -> None:
    store = Store(tmp_path)
    store.create("game-1", "noir", (("grid", 5),), "killer", "odds")
    store.append("game-1", Event("add", None, "setup ..."))
    store.append("game-1", Event("edit", 1, "setup again"))
    store.set_level("game-1", "advice")
    store.close()
    again = Store(tmp_path)
    header, events = again.load("game-1")
    assert (header.game, header.options, header.seat, header.level) == (
        "noir",
        (("grid", 5),),
        "killer",
        "advice",
    )
    assert events == [Event("add", None, "setup ..."), Event("edit", 1, "setup again")]
    assert header.events == 2
    mode = sqlite3.connect(tmp_path / "sessions.sqlite3").execute("PRAGMA journal_mode")
    assert mode.fetchone()[0] == "wal"


def test_names_are_checked_and_unique(tmp_path) -> None:
    store = Store(tmp_path)
    store.create("one", "noir", (), "killer", "odds")
    with pytest.raises(SessionError, match="already a session named 'one'"):
        store.create("one", "noir", (), "killer", "odds")
    with pytest.raises(SessionError, match=r"no session named 'two'.*known: one"):
        store.load("two")
    for bad in ("", "../x", "a b", "-x", "x" * 65, 7):
        with pytest.raises(SessionError, match="not a session name"):
            check_name(bad)


def test_an_unusable_directory_is_a_session_error(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(SessionError, match="cannot open the sessions"):
        Store(blocker / "sub")
