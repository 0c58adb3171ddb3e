"""What each page shows, as plain data for its template, read off a `Session`.

Every rule, parse and deduction comes from the session core (`sleuth.assist`); this module
picks what the page lists and in which order, as the terminal front end does.
"""

from __future__ import annotations

import json
from typing import Any

import engines
from engines import ConfigError, Game
from engines.values import JsonValue
from sleuth.assist import DEFAULT_LEVEL, LEVELS, Session, SessionRecord, setup
from sleuth.web import taps
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
        "model": session.model,
        "models": session.models,
        "estimated": reading.deduction is not None and not reading.deduction.exact,
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
        "offer": _offer(session),
    }


def _offer(session: Session) -> dict[str, str]:
    """The chips that build the next entry, as JSON for the page's script."""
    made = session_offer(session)
    return {"prompt": made.prompt, "quick": json.dumps(made.quick), "taps": made.taps.to_json()}


def session_offer(session: Session) -> taps.Offer:
    """What the page offers to build the session's next entry (`sleuth.web.taps.offer`), with
    the deduction the session already made of its usable record."""
    reading = session.reading()
    deduced = None
    if reading.usable is not None and reading.deduction is not None:
        deduced = (len(reading.usable.observations), reading.deduction)
    observations = session.information_set().observations
    return taps.offer(session.game, session.seat, observations, deduced)


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
    set to `chosen` (text as submitted) or their defaults, and the seats those options give;
    the name and hint level as `chosen` has them (a refused form shows them again)."""
    names = engines.names()
    name = game_name if game_name in names else names[0]
    options = _option_pickers(name, chosen)
    seats, seat, picks, problem = _seats_and_picks(name, chosen)
    return {"games": [(n, engines.game_class(n).metadata.title) for n in names], "game": name,
            "options": options, "seats": seats, "seat": seat, "problem": problem,
            "asked": _blocks([p for p in picks if p["reload"]]),
            "next_button": any(p["reload"] and p["several"] for p in picks),
            "picks": _blocks([p for p in picks if not p["reload"]]),
            "carried": _carried(picks),
            "levels": LEVELS, "name": chosen.get("name", ""),
            "level": chosen.get("level") if chosen.get("level") in LEVELS
                     else DEFAULT_LEVEL}  # fmt: skip


def _option_pickers(name: str, chosen: dict[str, str]) -> list[dict[str, Any]]:
    """The form's picker of each option of game `name` (but those a setup pick asks): its
    value as `chosen` has it or the default, and its choices (none when open-ended)."""
    options = []
    for spec in engines.game_class(name).options_spec:
        if spec.name in ASKED_BY_PICKS.get(name, ()):
            continue
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
    return options


def _seats_and_picks(
    name: str, chosen: dict[str, str]
) -> tuple[list[str], str, list[dict[str, Any]], str | None]:
    """The seats the chosen options give, the seat chosen (else the first), the setup picks
    of that seat, and the options' problem (then no seats and no picks)."""
    seats: list[str] = []
    seat = ""
    picks: list[dict[str, Any]] = []
    problem = None
    try:
        game = make_game(name, chosen)
        seats = [str(s) for s in game.seats]
        seat = chosen.get("seat", "") if chosen.get("seat", "") in seats else seats[0]
        picks = _picks(game, game.seat_from_text(seat), answers(chosen))
    except ConfigError as error:
        problem = str(error)
    return seats, seat, picks, problem


def _carried(picks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The answers of the picks that reload the form, as hidden fields: one per pick of one
    value, one per value picked of a pick of several."""
    single = [
        (p["field"], " ".join(p["picked"])) for p in picks if p["reload"] and not p["several"]
    ]
    several = [
        (f"{p['field']}:{v}", "on")
        for p in picks
        if p["reload"] and p["several"]
        for v in p["picked"]
    ]
    return single + several


def _blocks(picks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The picks as the page shows them: those of one section together."""
    blocks: list[dict[str, Any]] = []
    for pick in picks:
        if pick["section"] and blocks and blocks[-1]["section"] == pick["section"]:
            blocks[-1]["picks"].append(pick)
        else:
            blocks.append({"section": pick["section"], "columns": pick["columns"],
                           "picks": [pick]})  # fmt: skip
    return blocks


ASKED_BY_PICKS = {"alibi": ("dealer",), "blue-lion": ("first_player",)}
"""Options the form does not ask, left at their defaults ('random'), because a setup pick asks
the same question of the table ("Who dealt", "Who lays the first tile")."""

PICK = "pick-"
"""The form fields of the setup picks: `pick-NAME` for one value, `pick-NAME:VALUE` for each
value of a pick of several (a form sends each field once)."""


def answers(fields: dict[str, str]) -> dict[str, str]:
    """The setup picks' answers in a submitted form, as `sleuth.assist.setup` reads them."""
    found: dict[str, list[str]] = {}
    for key, value in fields.items():
        if not key.startswith(PICK):
            continue
        name, several, item = key[len(PICK) :].partition(":")
        if several:
            found.setdefault(name, []).append(item)
        elif value:
            found.setdefault(name, []).append(value)
    return {name: " ".join(values) for name, values in found.items()}


def setup_entries(game: Game, seat: str, fields: dict[str, str]) -> list[str]:
    """The entries the submitted picks make (`sleuth.assist.setup.entries`)."""
    return setup.entries(game, game.seat_from_text(seat), answers(fields))


def _picks(game: Game, seat: object, chosen: dict[str, str]) -> list[dict[str, Any]]:
    """The setup picks for the template: each with its field names and what is picked."""
    shown = []
    for pick in setup.picks(game, game.check_seat(seat), chosen):
        picked = chosen.get(pick.name, pick.default).split()
        labels = dict(pick.choices)
        groups = pick.groups or (("", tuple(value for value, _ in pick.choices)),)
        shown.append(
            {
                "name": pick.name,
                "field": PICK + pick.name,
                "label": pick.label,
                "count": pick.count,
                "several": pick.count > 1,
                "choices": [(value, text, value in picked) for value, text in pick.choices],
                "groups": [
                    (heading, [(v, labels[v], v in picked) for v in values])
                    for heading, values in groups
                ],
                "section": pick.section,
                "columns": pick.columns,
                "caption": pick.caption,
                "reload": pick.reload,
                "menu": pick.count == 1 and (len(pick.choices) > 8 or pick.columns > 0),
                "picked": picked,
            }
        )
    return shown


def make_game(name: str, chosen: dict[str, str]) -> Game:
    """The game `name` with the submitted option texts (read as JSON where they are: 4,
    true, null; else as text), as `sleuth assist -o KEY=VALUE` reads them."""
    return engines.make(name, **options_of(name, chosen))


def options_of(name: str, chosen: dict[str, str]) -> dict[str, JsonValue]:
    known = {spec.name for spec in engines.game_class(name).options_spec}
    return {key: _value(text) for key, text in chosen.items() if key in known}


def _value(text: str) -> JsonValue:
    """`text` read as JSON, else as itself: the option's check then says what it allows."""
    try:
        value: JsonValue = json.loads(text)
    except ValueError:  # not JSON, or a number of more digits than int() reads (4300)
        return text
    return value


def _text(value: JsonValue) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def seat_name(seat: object) -> str:
    return seat.capitalize() if isinstance(seat, str) else f"player {seat}"
