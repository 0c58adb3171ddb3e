"""Noir in the terminal: the grid as one seat sees it, and candidate probabilities as a heat map."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.table import Table
from rich.text import Text

from engines import Action, InformationSet
from engines.noir import Noir
from engines.noir.material import INSPECTOR
from sleuth.views import TERMINAL_STYLE, append_chance
from solver import Deduction
from solver.games.noir import current_grid, dead_cards, inspector_hand, own_identity
from solver.search.noir import innocent_cards


@dataclass(frozen=True)
class Suspect:
    """One card of the grid as a seat sees it: what any front end draws."""

    name: str
    dead: bool
    innocent: bool
    me: bool  # the seat's own identity
    in_hand: bool  # in the inspector's hand
    chance: float | None  # of being the opponent's identity (living cards, with chances)


def cells(
    game: Noir, info: InformationSet, chances: Mapping[str, float] | None = None
) -> list[list[Suspect]]:
    """The current grid, row by row."""
    dead, innocent, me = dead_cards(info), innocent_cards(info), own_identity(info)
    hand = set(inspector_hand(info)) if info.seat == INSPECTOR else set()
    return [
        [
            Suspect(
                name,
                name in dead,
                name in innocent,
                name == me,
                name in hand,
                None if chances is None or name in dead else chances.get(name, 0.0),
            )
            for name in row
        ]
        for row in current_grid(info.observations)
    ]


def render(game: Noir, info: InformationSet, chances: Mapping[str, float] | None = None) -> Table:
    """The current grid: dead cards struck through, innocent ones marked +, the seat's own
    identity (and the inspector's hand) marked; with `chances`, each suspect's probability of
    being the opponent, coloured by it."""
    grid = cells(game, info, chances)
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in grid[0] if grid else ():
        table.add_column(justify="center", min_width=7)
    for row in grid:
        texts = []
        for card in row:
            text = Text(
                card.name + ("+" if card.innocent else ""), "dim strike" if card.dead else ""
            )
            if card.me:
                text.stylize("bold reverse")
                text.append(" (you)", "bold")
            elif card.in_hand:
                text.append(" (hand)", "cyan")
            if card.chance is not None:
                append_chance(text, card.chance, "\n")
            texts.append(text)
        table.add_row(*texts)
    table.caption = caption(game, info)
    return table


def caption(game: Noir, info: InformationSet) -> str:
    return f"kills {len(dead_cards(info))} of {game.kills_to_win}; + innocent; struck through: dead"


def chances(deduction: Deduction) -> dict[str, float]:
    """Each suspect's chance of being the opponent's identity."""
    return {str(fact.args[0]): deduction.probability(fact) for fact in deduction.facts}


def names_help() -> str:
    """How names may be typed in this game's notation, with examples of its own."""
    return (
        "Suspects may be shortened to a unique beginning, in any case (ros for Rosa); Tab "
        "completes them."
    )


def legend() -> Text:
    return Text.assemble(
        ("you", "bold reverse"),
        "  your identity   ",
        ("Ada+", ""),
        " innocent   ",
        ("Ada", "dim strike"),
        " dead   ",
        ("50%", TERMINAL_STYLE["hot"]),
        " likely opponent",
    )


def heat_map(game: Noir, info: InformationSet, deduction: Deduction) -> Table:
    """The grid with each suspect's chance of being the opponent's identity."""
    return render(game, info, chances(deduction))


def moves_help(game: Noir, legal: Sequence[Action]) -> None:
    """None: Noir's moves are few enough to list and number."""
    return None


def routine(game: Noir, legal: Sequence[Action]) -> bool:
    """No Noir decision is too small to narrate."""
    return False
