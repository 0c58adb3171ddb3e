"""How positions, hints and results look in the terminal (the only place rich is used).

Each game may have a module here with `render(game, info)` (the public position a seat sees)
and optionally `heat_map(game, info, deduction)`, `legend()`, `moves_help(game, legal)` (the
notation to type, for games whose moves are too many to list) and `routine(game, legal)`
(whether a decision is too small to narrate with hints); `_MODULES` lists them.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

import solver
from engines import Action, Game, InformationSet
from opponents import ArenaResult
from solver import Hint

_MODULES = {
    "alibi": "sleuth.views.alibi",
    "blue-lion": "sleuth.views.blue_lion",
    "noir": "sleuth.views.noir",
}

REASONS = 3
"""Reasons shown per hint: an explanation can cite a dozen observations (a whole deal, every
pass), and the first few say why well enough on a screen."""
REASON_WIDTH = 150


def _module(game: Game) -> ModuleType | None:
    name = _MODULES.get(game.name)
    return None if name is None else import_module(name)


def position(game: Game, info: InformationSet) -> RenderableType | None:
    """The position `info` describes, drawn for people; None if the game has no view yet."""
    module = _module(game)
    return None if module is None else module.render(game, info)


def heat_map(game: Game, info: InformationSet) -> RenderableType | None:
    """The position with the chance of each hidden possibility drawn on it, if the game has one.

    Raises:
        solver.Inconsistent: the observations contradict each other.
    """
    module = _module(game)
    if module is None or not hasattr(module, "heat_map"):
        return None
    return module.heat_map(game, info, solver.deduce(info))


def legend(game: Game) -> RenderableType | None:
    module = _module(game)
    return getattr(module, "legend", lambda: None)() if module else None


def moves_help(game: Game, legal: Sequence[Action]) -> RenderableType | None:
    """How to type moves in `game`, beyond the examples taken from the legal list, if its view
    says."""
    module = _module(game)
    helper = getattr(module, "moves_help", None) if module else None
    return None if helper is None else helper(game, legal)


def routine(game: Game, legal: Sequence[Action]) -> bool:
    """Whether the decision among `legal` is routine (Alibi's passes): the demo shows the move
    alone, since hints before it would repeat the mover's previous turn and cost time."""
    module = _module(game)
    check = getattr(module, "routine", None) if module else None
    return False if check is None else check(game, legal)


def hints(found: list[Hint], limit: int) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    for hint in found[:limit]:
        row = Text(f"• {hint.text}")
        if hint.because:
            row.append(f"\n  because: {_reasons(hint.because)}", style="dim")
        table.add_row(row)
    return table


def _reasons(because: Sequence[str]) -> str:
    shown = [
        reason if len(reason) <= REASON_WIDTH else reason[: REASON_WIDTH - 1] + "…"
        for reason in because[:REASONS]
    ]
    more = len(because) - REASONS
    return "; ".join(shown) + (f"; and {more} more observations" if more > 0 else "")


def arena_table(result: ArenaResult) -> Table:
    table = Table(title=f"{result.game}: {result.games} games")
    for column in (
        "bot",
        "wins",
        "win rate",
        "95% interval",
        "mean points",
        "move median",
        "move p95",
    ):
        table.add_column(
            column, justify="left" if column == "bot" else "right", no_wrap=column == "bot"
        )
    for k, name in enumerate(result.lineup):
        low, high = result.interval(k)
        table.add_row(
            f"{k + 1}. {name}",
            f"{result.wins[k]:g}",
            f"{result.win_rate(k):.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{result.mean_points(k):.2f}",
            f"{result.decision_time(k) * 1000:.0f} ms",
            f"{result.decision_time(k, 0.95) * 1000:.0f} ms",
        )
    return table


def summary_lines(result: ArenaResult) -> list[str]:
    """What the games' summaries say per bot (for Alibi: accusations, how many were right, and
    in which round they came); nothing for games without summaries."""
    lines = []
    for k, name in enumerate(result.lineup):
        said = [summary for summary in result.summaries[k] if summary]
        if not said:
            continue
        parts = []
        for key in said[0]:
            values = [summary[key] for summary in said if key in summary]
            if all(isinstance(v, bool) for v in values):
                parts.append(f"{key.replace('_', ' ')}: {sum(values)} of {len(values)}")
            else:
                parts.append(f"{key.replace('_', ' ')}: median {statistics.median(values):g}")
        lines.append(
            f"{k + 1}. {name}: {len(said)} games with something to say; " + ", ".join(parts)
        )
    return lines
