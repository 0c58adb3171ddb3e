"""`sleuth review SESSION|FILE`: a game looked back at for one seat, in the terminal.

The record is a saved game (`sleuth play --save FILE`, `sleuth arena --save DIR`: a state's
JSON), an exported information set (`sleuth assist --export`), or the name of a notebook
session. The library does the work (`solver.review`); this module reads the record and prints.
"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.text import Text

import engines
from engines import ConfigError, InformationSet, Seat, SleuthError, State
from engines.values import quote
from sleuth import recap
from sleuth.assist.session import Session
from solver.review import Decision, Review, review, summary

GRADE_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}


def load_record(where: str, dir: str | None = None) -> State | InformationSet:
    """The record `where` names: a file holding a game's state or an information set as
    JSON, else the name of a notebook session (kept in `dir`).

    Raises:
        ConfigError: neither a readable record file nor a session of that name.
        InvalidState, InvalidInformationSet: a file that does not hold a valid record.
    """
    path = Path(where)
    if not path.is_file():
        try:
            return Session.open(where, dir).information_set()
        except SleuthError as error:
            raise ConfigError(
                f"{quote(where)} is neither a saved game's file nor a session: {error}"
            ) from None
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{where}: not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise ConfigError(f"{where}: not a saved game or an information set (no 'game' field)")
    if "observations" in data:
        return InformationSet.from_json(text)
    options = data.get("options")
    if not isinstance(options, list):
        raise ConfigError(f"{where}: a saved game lists its options ('options' is missing)")
    game = engines.make(data["game"], **{str(key): value for key, value in options})
    return game.state_from_json(text)


def default_seat(record: State | InformationSet) -> Seat:
    """The seat a record is reviewed for when none is named: an information set's own, or a
    saved game's first seat."""
    if isinstance(record, InformationSet):
        return record.seat
    return record.game.seats[0]


def show(console: Console, found: Review) -> None:
    """The review, a line per decision with its grade, then the summary."""
    unit = found.grading
    console.print(Text(f"Review of {recap.name(found.seat)} in {found.game}", style="bold"))
    meaning = f": {unit.meaning}" if unit.meaning else ""
    console.print(Text(f"values in {unit.unit}{meaning}", style="dim"), soft_wrap=True)
    for decision in found.decisions:
        line = _line(decision)
        if line is not None:
            console.print(line)
    for learned in found.known[:12]:
        acted = "and played on it" if learned.acted else "but did not play on it at once"
        console.print(
            Text(f"  certain from move {learned.number}: {learned.fact} ({acted})", style="dim")
        )
    if len(found.known) > 12:
        console.print(Text(f"  and {len(found.known) - 12} more facts became certain", "dim"))
    for sentence in summary(found):
        console.print(sentence, soft_wrap=True)


def _line(d: Decision) -> Text | None:
    if d.forced or d.routine:
        return None
    head = Text(f"{d.number:>4}  {d.move}")
    if d.lost:
        head.append("  the game was lost: not graded", style="dim")
        return head
    if d.grade is None:
        head.append(f"  not valued; the solver plays {d.best}", style="dim")
        return head
    head.append(f"  {d.grade}", style=GRADE_STYLES[d.grade])
    if d.grade != "best":
        why = f"  -{d.loss:.3g} {d.unit}; the solver plays {d.best}: {d.best_text}"
        head.append(why, style="dim")
    return head


def review_command(console: Console, where: str, seat: str | None, dir: str | None) -> int:
    """`sleuth review`: read the record, review the seat, print it."""
    record = load_record(where, dir)
    game = record.game if isinstance(record, State) else record.make_game()
    chosen = game.seat_from_text(seat) if seat is not None else default_seat(record)
    with console.status("reviewing: the solver weighs every decision again"):
        found = review(record, chosen)
    show(console, found)
    return 0
