"""The solver's advice and numbered hints, as a person reads them at the table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from solver import Advice, Hint

THREATS = 3
"""Threats shown under a move; `best` shows them all."""
REASONS = 3
REASON_WIDTH = 150


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
        row.append(f"  {candidate.text}")
        limit = len(candidate.threats) if every else THREATS
        for threat in candidate.threats[:limit]:
            row.append(f"\n    then: {threat}", style="yellow")
        if len(candidate.threats) > limit:
            row.append(f"\n    and {len(candidate.threats) - limit} more (`best` shows all)", "dim")
        table.add_row(row)
    parts.append(table)
    if len(advice.candidates) > len(shown):
        more = len(advice.candidates) - len(shown)
        moves = "move" if more == 1 else "moves"
        parts.append(Text(f"  {more} more {moves}: `best` lists them", "dim"))
    for note in advice.notes:
        parts.append(Text(f"  {note}"))
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
