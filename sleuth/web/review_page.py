"""The review page of a session (GET /s/{name}/review), as plain data for review.html.

The library does the work (`solver.review`): this module picks what a phone shows of it, the
summary, the chart of what remained unknown, the decisions with their grades and the facts
that became certain, and lays out the chart's SVG (the page has no chart library).

The record reviewed is the session's usable record (`Session.reading().usable`): the whole of
it when it reads, else its longest complete and consistent beginning, so a session waiting for
an entry, or with a typo, is still reviewed up to there rather than refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engines import InformationSet, Seat, SleuthError
from sleuth.assist import Session
from sleuth.web.pages import seat_name
from solver.review import Decision, Review, review

SHOWN_KNOWN = 8
"""Moves listed at first with the facts that became certain there; the rest behind a tap."""


def review_page(session: Session) -> dict[str, Any]:
    """The review page of `session`: the review of its usable record for its seat, or why
    there is none (nothing to review yet, or the review's refusal)."""
    reading = session.reading()
    context: dict[str, Any] = {
        "name": session.name,
        "title": session.game.metadata.title,
        "seat": seat_name(session.seat),
        "status": reading.status,
        "reviewed_entries": reading.entries,
        "all_entries": len(session.entries),
        "review": None,
        "problem": None,
    }
    usable = reading.usable
    if usable is None:
        return context
    try:
        found = reviewed(usable.to_json(), usable.seat)
    except SleuthError as error:
        if not _has_moves(usable):
            return context  # nothing of the seat's yet: "nothing to review yet"
        return {**context, "problem": str(error)}
    return {**context, "review": _shown(found, session)}


@lru_cache(maxsize=8)
def reviewed(record: str, seat: Seat) -> Review:
    """The review of a record (as JSON), kept: a long one takes seconds (Alibi's tens), and
    going back and forth between the session and its review asks for the same one again."""
    return review(InformationSet.from_json(record), seat)


def _has_moves(info: InformationSet) -> bool:
    """Whether the record holds a move of its seat (a review refused without one is
    "nothing to review yet", not an error)."""
    try:
        return bool(info.make_game().moves_in(info))
    except SleuthError:
        return True  # the record does not read back: the review's refusal says why


def _shown(found: Review, session: Session) -> dict[str, Any]:
    """What the page shows of a review."""
    shown = [d for d in found.decisions if not d.quiet]
    quiet = [d for d in found.decisions if d.quiet]
    known = _known(found)
    return {
        "summary": _summary(found),
        "chart": chart(found.decisions),
        "decisions": [_decision(d, _entry_number(session, d.entry)) for d in shown],
        "quiet": [(d.number, str(d.move), _why_quiet(d)) for d in quiet],
        "known": known[:SHOWN_KNOWN],
        "more_known": known[SHOWN_KNOWN:],
    }


def _why_quiet(d: Decision) -> str:
    if d.forced:
        return "forced"
    return "routine" if d.routine else "the game was lost"


def _summary(found: Review) -> dict[str, Any]:
    """Accuracy, the grades' counts, the average and the largest losses."""
    accuracy = found.accuracy
    average = found.average_loss
    return {
        "accuracy": None if accuracy is None else f"{accuracy:.0%}",
        "graded": len(found.graded),
        "unit": found.grading.unit,
        "meaning": found.grading.meaning,
        "average": None if average is None else f"{_loss(average)} {found.grading.unit}",
        "counts": [(grade, count) for grade, count in found.counts().items() if count],
        "unvalued": sum(d.unvalued for d in found.decisions),
        "largest": [
            {
                "number": d.number,
                "move": str(d.move),
                "best": str(d.best),
                "loss": f"{_loss(d.loss or 0.0)} {d.unit}",
                "best_text": d.best_text,
            }
            for d in found.largest(3)
        ],
    }


def _decision(d: Decision, entry: int | None) -> dict[str, Any]:
    """One decision for its row: the move and grade, and (behind a tap) the solver's move,
    the loss and the moves the solver scored."""
    solvers = d.move if d.grade == "best" else d.best  # a tie: the move made is as good
    return {
        "number": d.number,
        "entry": entry,
        "move": str(d.move),
        "grade": d.grade,
        "value": None if d.value is None else _value(d.value),
        "text": d.text,
        "best": str(d.best),
        "best_value": _value(d.best_value),
        "best_text": d.best_text,
        "loss": None if d.loss is None else _loss(d.loss),
        "unit": d.unit,
        "open_facts": d.open_facts,
        "alternatives": [
            {
                "move": str(c.action),
                "value": _value(c.value),
                "text": c.text,
                "played": c.action == d.move,
                "best": c.action == solvers,
            }
            for c in d.alternatives
        ],
    }


def _entry_number(session: Session, observation: int) -> int | None:
    """The session's entry holding observation `observation` (where the move was typed)."""
    for entry in session.entries:
        if observation in entry.sources:
            return entry.number
    return None


def _known(found: Review) -> list[dict[str, Any]]:
    """The facts that became certain, grouped by the move from which they were."""
    groups: list[dict[str, Any]] = []
    for learned in found.known:
        if groups and groups[-1]["number"] == learned.number:
            groups[-1]["facts"].append(str(learned.fact))
        else:
            groups.append({"number": learned.number, "acted": learned.acted,
                           "facts": [str(learned.fact)]})  # fmt: skip
    return groups


def _value(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:+.3f}" if abs(value) < 10 else f"{value:+.1f}"


def _loss(loss: float) -> str:
    """A loss as people read it: 0.25, 12.5, 98; below a thousandth, <0.001."""
    if 0 < loss < 0.001:
        return "<0.001"
    return f"{loss:.3g}"


# --- the chart of what remained unknown ----------------------------------------------------
WIDTH, HEIGHT = 360, 200
"""The chart's viewBox: about a phone's width, so its words are read at their own size."""
LEFT, RIGHT, TOP, BOTTOM = 46, 12, 12, 38
"""Margins for the ticks' numbers and the axes' labels."""


def chart(decisions: Sequence[Decision]) -> dict[str, Any] | None:
    """The open facts before each decision against its move number, laid out in the
    viewBox: the line, a dot per decision (coloured by its grade), the ticks. None without
    decisions."""
    if not decisions:
        return None
    numbers = [d.number for d in decisions]
    first, last = min(numbers), max(numbers)
    top = max(max(d.open_facts for d in decisions), 1)
    x_ticks = [t for t in ticks(first, last) if t <= last] or [first]
    y_ticks = ticks(0, top)
    high = max(top, y_ticks[-1])
    span = max(last - first, 1)

    def x(number: float) -> float:
        if first == last:
            return LEFT + (WIDTH - LEFT - RIGHT) / 2
        return round(LEFT + (number - first) / span * (WIDTH - LEFT - RIGHT), 1)

    def y(count: float) -> float:
        return round(HEIGHT - BOTTOM - count / high * (HEIGHT - TOP - BOTTOM), 1)

    points = [(x(d.number), y(d.open_facts)) for d in decisions]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "line": " ".join(f"{px},{py}" for px, py in points),
        "dots": [
            {
                "x": px,
                "y": py,
                "grade": d.grade or "none",
                "number": d.number,
                "open": d.open_facts,
                "move": str(d.move),
            }
            for (px, py), d in zip(points, decisions, strict=True)
        ],
        "x_ticks": [(x(t), t) for t in x_ticks],
        "y_ticks": [(y(t), t) for t in y_ticks],
        "first": (numbers[0], decisions[0].open_facts),
        "last": (numbers[-1], decisions[-1].open_facts),
    }


def ticks(low: int, high: int, most: int = 5) -> list[int]:
    """Round whole numbers from `low` up to `high` or just above it, about `most` steps of
    1, 2 or 5 times a power of ten: numbers a person reads off an axis at a glance."""
    if high <= low:
        return [low]
    raw = (high - low) / most
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(s * power for s in (1, 2, 5, 10) if s * power >= raw)
    start = -(-low // step) * step  # the first multiple of the step from `low`
    return list(range(start, high + step, step))
