"""How positions, hints and results look in the terminal (the only place rich is used).

Each game has a module here named as its engine's package (engines.game_module) that provides
what `GameView` declares. A chance is named by its `heat`, a word each front end colours its
own way: the terminal by `TERMINAL_STYLE`, the web page by a CSS class of that name.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

import engines
import solver
from engines import Action, Game, InformationSet, Seat
from opponents import ArenaResult
from solver import Hint


class GameView(Protocol):
    """What a game's view module provides (`game` is that game's own `Game` subclass)."""

    def render(self, game: Any, info: InformationSet) -> RenderableType:
        """The public position `info`'s seat sees, drawn for people."""

    def heat_map(self, game: Any, info: InformationSet, deduction: Any) -> RenderableType | None:
        """The position with the chance of each hidden possibility on it; None if the game
        draws none."""

    def legend(self) -> RenderableType | None:
        """What the marks in `render` and `heat_map` mean."""

    def names_help(self) -> str:
        """How names may be typed in the game's notation, with examples of its own."""

    def moves_help(self, game: Any, legal: Sequence[Action]) -> RenderableType | None:
        """How to type moves, for games whose moves are too many to list; else None."""

    def routine(self, game: Any, legal: Sequence[Action]) -> bool:
        """Whether the decision among `legal` is too small to narrate with hints."""


if TYPE_CHECKING:  # mypy checks that every view module provides what `GameView` declares
    from sleuth.views import alibi, blue_lion, city_killer, noir, serial_killer

    _VIEWS: tuple[GameView, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)

Heat = Literal["hot", "warm", "mild", "cold"]
"""How hot a chance is, in words: each front end colours them its own way."""

TERMINAL_STYLE: dict[Heat, str] = {
    "hot": "bold white on red",
    "warm": "bold red",
    "mild": "yellow",
    "cold": "",
}
"""The terminal's colour of each heat (a game may colour its chances its own way)."""


def heat(probability: float, hot: float = 0.5, warm: float = 0.2, mild: float = 0.0) -> Heat:
    """How hot a chance is: hot from `hot`, warm from `warm`, mild from `mild` if above
    nothing, else cold (a game may pass its own thresholds)."""
    if probability >= hot:
        return "hot"
    if probability >= warm:
        return "warm"
    return "mild" if probability > 0 and probability >= mild else "cold"


def heat_class(chance: float | None) -> str:
    """The heat of a chance as the web page's CSS class: "" where there is no chance."""
    return "" if chance is None else heat(chance)


def append_chance(
    text: Text, probability: float, before: str = " ", styles: Mapping[Heat, str] = TERMINAL_STYLE
) -> None:
    """`probability` after `before` at the end of `text`, as a percentage coloured by its heat
    in `styles` (a dot for nothing)."""
    shown = f"{probability:.0%}" if probability else "·"
    text.append(before + shown, styles[heat(probability)])


REASONS = 3
"""Reasons shown per hint: an explanation can cite a dozen observations (a whole deal, every
pass), and the first few say why well enough on a screen."""
REASON_WIDTH = 150


def _module(game: Game) -> GameView | None:
    return cast(GameView | None, engines.game_module(game.name, "sleuth.views"))


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
    return None if module is None else module.heat_map(game, info, solver.deduce(info))


def legend(game: Game) -> RenderableType | None:
    module = _module(game)
    return None if module is None else module.legend()


def names_help(game: Game) -> str:
    """How names may be typed in `game`'s notation (shortened, as printed), with its own
    examples."""
    module = _module(game)
    if module is None:
        return "Names may be shortened to a unique beginning of each part; Tab completes them."
    return module.names_help()


def moves_help(game: Game, legal: Sequence[Action]) -> RenderableType | None:
    """How to type moves in `game`, beyond the examples taken from the legal list, if its view
    says."""
    module = _module(game)
    return None if module is None else module.moves_help(game, legal)


def routine(game: Game, legal: Sequence[Action]) -> bool:
    """Whether the decision among `legal` is routine (Alibi's passes): the demo shows the move
    alone, since hints before it would repeat the mover's previous turn and cost time."""
    module = _module(game)
    return False if module is None else module.routine(game, legal)


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


def arena_rows(result: ArenaResult) -> list[tuple[int, Seat | None]]:
    """The rows of the results, as (entry, seat): per seat too for an entry that played
    several roles (a killer's figures and an inspector's do not mix); seat None stands for
    every seat it played, in games whose seats are interchangeable numbers."""
    rows: list[tuple[int, Seat | None]] = []
    for entry in range(len(result.lineup)):
        seats = result.seats_of(entry)
        if len(seats) == 1 or (result.roles and seats):
            rows.extend((entry, seat) for seat in seats)
        else:
            rows.append((entry, None))
    return rows


def _wins(wins: float) -> str:
    """Wins, shared victories counting a fraction each, to two decimals at most."""
    return f"{round(wins, 2):g}"


def arena_table(result: ArenaResult) -> Table:
    """One row per bot, or per bot and role when bots changed roles (fits 80 columns)."""
    table = Table(title=f"{result.game}: {result.games} games")
    for column in ("bot", "seat"):
        table.add_column(column, no_wrap=True)
    for column in ("wins", "win rate", "95% interval", "points", "move ms"):
        table.add_column(column, justify="right")
    for entry, seat in arena_rows(result):
        if seat is None:
            games, wins = result.games, result.entry_wins[entry]
            (low, high), where = result.entry_interval(entry), "all"
        else:
            games, wins = result.games_in(seat, entry), result.wins_in(seat, entry)
            (low, high), where = result.interval(seat, entry), str(seat)
        median = result.decision_time(entry, seat=seat) * 1000
        p95 = result.decision_time(entry, 0.95, seat) * 1000
        table.add_row(
            f"{entry + 1}. {result.lineup[entry]}",
            where,
            f"{_wins(wins)}/{games}",
            f"{wins / games:.1%}" if games else "-",
            f"{low:.0%}-{high:.0%}",
            f"{result.mean_points(entry, seat):.2f}",
            f"{median:.0f}/{p95:.0f}",
        )
    table.caption = "wins/games; points: mean per game; move ms: median/p95 per decision"
    return table


def seat_table(result: ArenaResult) -> Table:
    """Wins per seat, whoever sat there: how much the seat itself is worth."""
    table = Table(title="by seat")
    for column in ("seat", "wins", "win rate", "95% interval"):
        table.add_column(column, justify="left" if column == "seat" else "right")
    for seat in result.seats:
        low, high = result.interval(seat)
        table.add_row(
            str(seat),
            f"{_wins(result.wins_in(seat))}/{result.games_in(seat)}",
            f"{result.win_rate(seat):.1%}",
            f"{low:.0%}-{high:.0%}",
        )
    return table


def summary_lines(result: ArenaResult) -> list[str]:
    """What the games' summaries say per row of `arena_table` (for Alibi: accusations, how
    many were right, and in which round they came); nothing for games without summaries."""
    lines = []
    for entry, seat in arena_rows(result):
        said = [summary for summary in result.summaries_of(entry, seat) if summary]
        if not said:
            continue
        parts = []
        for key in said[0]:
            values = [summary[key] for summary in said if key in summary]
            if all(isinstance(v, bool) for v in values):
                parts.append(f"{key.replace('_', ' ')}: {sum(map(bool, values))} of {len(values)}")
            else:
                numbers = [float(v) for v in values if isinstance(v, int | float)]
                median = f"median {statistics.median(numbers):g}" if numbers else "-"
                parts.append(f"{key.replace('_', ' ')}: {median}")
        who = f"{entry + 1}. {result.lineup[entry]}" + ("" if seat is None else f" as {seat}")
        lines.append(f"{who}: {len(said)} games with something to say; " + ", ".join(parts))
    return lines
