"""The session log: events (add, insert, edit, delete, undo) folded into the list of entries.

The log is append-only, so every state the notebook ever showed can be rebuilt, and an undo
is itself an event (it takes back the latest change not yet taken back).
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.assist.store import Event, SessionError

OPS = ("add", "insert", "edit", "delete", "undo")


def apply_event(history: list[list[str]], event: Event) -> list[list[str]]:
    """`history` (the entry lists after each change, oldest first, the current one last)
    after `event`; the input is not changed.

    Raises:
        SessionError: a position out of range or nothing to undo (the message says what is
            allowed).
    """
    entries = history[-1] if history else []
    if event.op == "undo":
        if len(history) <= 1:
            raise SessionError("nothing to undo")
        return history[:-1]
    changed = list(entries)
    if event.op == "add":
        changed.append(_text(event))
    elif event.op == "insert":
        changed.insert(_position(event, len(entries) + 1) - 1, _text(event))
    elif event.op == "edit":
        changed[_position(event, len(entries)) - 1] = _text(event)
    elif event.op == "delete":
        del changed[_position(event, len(entries)) - 1]
    else:
        raise SessionError(f"unknown change {event.op!r}; the changes are {', '.join(OPS)}")
    return [*history, changed]


def fold(events: Iterable[Event]) -> list[list[str]]:
    """The history after `events`, starting from an empty log."""
    history: list[list[str]] = [[]]
    for event in events:
        history = apply_event(history, event)
    return history


def _text(event: Event) -> str:
    if not isinstance(event.text, str) or not event.text.strip():
        raise SessionError(f"{event.op} needs the text of an entry")
    return event.text


def _position(event: Event, last: int) -> int:
    position = event.position
    if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= last:
        allowed = f"1 to {last}" if last else "none: the log is empty"
        raise SessionError(f"there is no entry {position!r} to {event.op}; entries: {allowed}")
    return position
