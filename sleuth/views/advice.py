"""The solver's advice and numbered hints, as a person reads them at the table."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from solver import Advice, Hint

THREATS = 3
"""Threats shown under a move; `best` shows them all."""
REASONS = 3
REASON_WIDTH = 150
_CHANCE = r"([<>]?\d+%)"
PLAIN: tuple[tuple[re.Pattern[str], str], ...] = (
    # Noir, the inspector: whose move, who does what to whom, whose chance
    (re.compile(rf"\barrests the killer now {_CHANCE}"), r"this arrest catches the killer: \1"),
    (re.compile(rf"\bkilled next turn {_CHANCE}"), r"the killer kills you on his next move: \1"),
    (re.compile(rf"\barrest next turn {_CHANCE}"), r"you arrest the killer on your next move: \1"),
    (
        re.compile(rf"^the killer is placed to kill you in {_CHANCE} of worlds$"),
        r"the killer is beside you in \1 of worlds: he could kill you on his next move, if he "
        "picks you out as the inspector",
    ),
    # Noir, the killer
    (
        re.compile(rf"\barrest risk next turn {_CHANCE}"),
        r"the inspector arrests you on his next move: \1",
    ),
    (
        re.compile(rf"^the inspector is placed to arrest you in {_CHANCE} of worlds$"),
        r"the inspector is beside you in \1 of worlds: he could arrest you on his next move, "
        "if he picks you out as the killer",
    ),
)
"""The search's shorthand for chances, said in full: who acts on whom, and when."""


def plain(text: str) -> str:
    """`text` with the search's shorthand chances ("killed next turn 0%") said in full."""
    for pattern, said in PLAIN:
        text = pattern.sub(said, text)
    return text


def advice_table(advice: Advice, runners_up: int, every: bool = False) -> RenderableType:
    """The move the solver bot would make, its value in words and what the opponent threatens
    after it, then the runners-up and the notes (odds, the best question); with `every`, each
    move scored with all its threats, and the numbers behind them."""
    parts: list[RenderableType] = [Text("What the solver would play:", style="bold")]
    table = Table(show_header=False, box=None, padding=(0, 1))
    shown = advice.candidates[: 1 + runners_up]
    for k, candidate in enumerate(shown):
        label = "best" if k == 0 else "or"
        row = Text()
        row.append(f"{label}: ", style="bold green" if k == 0 else "")
        row.append(str(candidate.action), style="bold" if k == 0 else "")
        row.append(f"  {plain(candidate.text)}")
        limit = len(candidate.threats) if every else THREATS
        for threat in candidate.threats[:limit]:
            row.append(f"\n    then: {plain(threat)}", style="yellow")
        if len(candidate.threats) > limit:
            row.append(f"\n    and {len(candidate.threats) - limit} more (`best` shows all)", "dim")
        table.add_row(row)
    parts.append(table)
    if len(advice.candidates) > len(shown):
        more = len(advice.candidates) - len(shown)
        moves = "move" if more == 1 else "moves"
        parts.append(Text(f"  {more} more {moves}: `best` lists them", "dim"))
    for note in advice.notes:
        parts.append(Text(f"  {plain(note)}"))
    if every:
        for detail in advice.details:
            parts.append(Text(f"  ({detail})", style="dim"))
    return Group(*parts)


def numbered_hints(found: Sequence[Hint]) -> Table:
    """Hints numbered for `why N`, each with its first reasons."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    for k, hint in enumerate(found, 1):
        row = Text(f"{k}. {hint.text}")
        if hint.because:
            row.append(f"\n   because: {_reasons(hint.because, k)}", style="dim")
        table.add_row(row)
    return table


def _reasons(because: Sequence[str], number: int) -> str:
    shown = [
        reason if len(reason) <= REASON_WIDTH else reason[: REASON_WIDTH - 1] + "…"
        for reason in because[:REASONS]
    ]
    more = len(because) - REASONS
    return "; ".join(shown) + (f"; and {more} more (`why {number}`)" if more > 0 else "")
