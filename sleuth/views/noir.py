"""Noir in the terminal: the grid as one seat sees it, and candidate probabilities as a heat map."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.table import Table
from rich.text import Text

from engines import Action, InformationSet
from engines.noir import Noir
from engines.noir.rules import INSPECTOR
from solver import Deduction
from solver.games.noir import current_grid, dead_cards, inspector_hand, own_identity

INNOCENT = {"exonerate": "suspect", "disguise": "former"}


def _innocent(info: InformationSet) -> set[str]:
    return {
        obs[field]
        for obs in info.observations
        for kind, field in INNOCENT.items()
        if obs.kind == kind and (kind != "disguise" or obs["success"])
    }


def _heat(probability: float) -> str:
    if probability >= 0.5:
        return "bold white on red"
    if probability >= 0.2:
        return "bold red"
    return "yellow" if probability > 0 else ""


def render(game: Noir, info: InformationSet, chances: Mapping[str, float] | None = None) -> Table:
    """The current grid: dead cards struck through, innocent ones marked +, the seat's own
    identity (and the inspector's hand) marked; with `chances`, each suspect's probability of
    being the opponent, coloured by it."""
    grid = current_grid(info.observations)
    dead, innocent, me = dead_cards(info), _innocent(info), own_identity(info)
    hand = set(inspector_hand(info)) if info.seat == INSPECTOR else set()
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in grid[0] if grid else ():
        table.add_column(justify="center", min_width=7)
    for row in grid:
        cells = []
        for name in row:
            style = "dim strike" if name in dead else ""
            text = Text(name + ("+" if name in innocent else ""), style)
            if name == me:
                text.stylize("bold reverse")
                text.append(" (you)", "bold")
            elif name in hand:
                text.append(" (hand)", "cyan")
            if chances is not None and name not in dead:
                p = chances.get(name, 0.0)
                text.append(f"\n{p:.0%}" if p else "\n·", _heat(p))
            cells.append(text)
        table.add_row(*cells)
    kills = len(dead)
    table.caption = f"kills {kills} of {game.kills_to_win}; + innocent; struck through: dead"
    return table


def legend() -> Text:
    return Text.assemble(
        ("you", "bold reverse"),
        "  your identity   ",
        ("Ada+", ""),
        " innocent   ",
        ("Ada", "dim strike"),
        " dead   ",
        ("50%", _heat(0.5)),
        " likely opponent",
    )


def heat_map(game: Noir, info: InformationSet, deduction: Deduction) -> Table:
    """The grid with each suspect's chance of being the opponent's identity."""
    chances = {str(fact.args[0]): deduction.probability(fact) for fact in deduction.facts}
    return render(game, info, chances)


def moves_help(game: Noir, legal: Sequence[Action]) -> None:
    """None: Noir's moves are few enough to list and number."""
    return None


def routine(game: Noir, legal: Sequence[Action]) -> bool:
    """No Noir decision is too small to narrate."""
    return False
