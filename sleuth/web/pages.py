"""What each page shows, as plain data for its template, read off a `Session`.

Every rule, parse and deduction comes from the session core (`sleuth.assist`); this module
picks what the page lists and in which order, as the terminal front end does.
"""

from __future__ import annotations

import json
from typing import Any

import engines
from engines import ConfigError, Game
from engines.core import JsonValue
from sleuth.assist import LEVELS, Session, SessionRecord
from sleuth.web.boards import board, start_board

SHOWN_HINTS = 12
"""Hints listed at first; a link lists them all."""


def session_page(session: Session, all_hints: bool = False, why: int | None = None) -> dict:
    """The session page: the record's status, the entries, the hints and the board.

    `why` is the number of a listed hint whose reasons to show (the entries that force it).
    """
    reading = session.reading()
    hints = session.hints()
    shown = hints if all_hints else hints[:SHOWN_HINTS]
    blamed = set(reading.conflict.entries) if reading.conflict else set()
    repairs = set(reading.conflict.repairs) if reading.conflict else set()
    game = session.game
    rows = []
    for number, hint in enumerate(shown, start=1):
        row: dict[str, Any] = {"number": number, "text": hint.text, "kind": hint.kind}
        row["certain"] = hint.fact is not None and hint.probability in (0.0, 1.0)
        if why == number and row["certain"]:
            entries = session.why(hint)
            row["why"] = [(n, session.entries[n - 1].text) for n in entries]
        rows.append(row)
    return {
        "name": session.name,
        "title": game.metadata.title,
        "seat": seat_name(session.seat),
        "version": session.version,
        "level": session.level,
        "levels": LEVELS,
        "status": reading.status,
        "waiting_for": reading.waiting_for,
        "usable_entries": reading.entries,
        "conflict": None if reading.conflict is None else str(reading.conflict),
        "conflict_entries": [
            (n, session.entries[n - 1].text, n in repairs) for n in sorted(blamed)
        ],
        "entries": [
            {
                "number": entry.number,
                "text": entry.text,
                "says": [game.describe(obs) for obs in entry.observations],
                "blamed": entry.number in blamed,
            }
            for entry in session.entries
        ],
        "hints": rows,
        "more_hints": len(hints) - len(shown),
        "why": why,
        "board": _board(session),
        "deduced": reading.usable is not None,
        "notation": game.notation_help(),
        "words": json.dumps(sorted(set(game.notation_words()))),
        "word_list": list(dict.fromkeys(game.notation_words())),
    }


def _board(session: Session) -> dict[str, Any] | None:
    reading = session.reading()
    if reading.usable is not None:
        odds = session.level in ("odds", "advice")
        return board(session.game, reading.usable, reading.deduction, odds)
    if reading.status in ("empty", "waiting"):
        return start_board(session.game, session.information_set())
    return None


def list_page(records: list[SessionRecord]) -> dict:
    return {
        "sessions": [
            {
                "name": r.name,
                "game": r.game,
                "seat": seat_name(r.seat),
                "changes": r.events,
                "started": r.created.replace("T", " "),
            }
            for r in reversed(records)
        ]
    }


def new_page(game_name: str | None, chosen: dict[str, str]) -> dict:
    """The new-session form for `game_name` (default the first game), its option pickers
    set to `chosen` (text as submitted) or their defaults, and the seats those options give."""
    names = engines.names()
    name = game_name if game_name in names else names[0]
    cls = engines.game_class(name)
    options = []
    for spec in cls.options_spec:
        value = chosen.get(spec.name, _text(spec.default))
        choices = [_text(v) for v in spec.allowed or ()]
        if isinstance(spec.default, bool):
            choices = ["true", "false"]
        elif spec.check is not None or not choices:
            choices = []  # open-ended: typed, with the allowed values described
        options.append(
            {
                "name": spec.name,
                "value": value,
                "choices": choices,
                "allowed": spec.allowed_text(),
                "doc": spec.doc,
            }
        )
    seats: list[str] = []
    problem = None
    try:
        seats = [str(seat) for seat in make_game(name, chosen).seats]
    except ConfigError as error:
        problem = str(error)
    return {"games": [(n, engines.game_class(n).metadata.title) for n in names], "game": name,
            "options": options, "seats": seats, "problem": problem,
            "levels": LEVELS}  # fmt: skip


def make_game(name: str, chosen: dict[str, str]) -> Game:
    """The game `name` with the submitted option texts (read as JSON where they are: 4,
    true, null; else as text), as `sleuth assist -o KEY=VALUE` reads them."""
    return engines.make(name, **options_of(name, chosen))


def options_of(name: str, chosen: dict[str, str]) -> dict[str, JsonValue]:
    known = {spec.name for spec in engines.game_class(name).options_spec}
    return {key: _value(text) for key, text in chosen.items() if key in known}


def _value(text: str) -> JsonValue:
    try:
        value: JsonValue = json.loads(text)
    except json.JSONDecodeError:
        return text
    return value


def _text(value: JsonValue) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def seat_name(seat: object) -> str:
    return seat.capitalize() if isinstance(seat, str) else f"player {seat}"
