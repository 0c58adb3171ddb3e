"""The board of a session as plain data for the templates, read from the game's views.

Nothing is worked out here: the marks, chances and grids come from `sleuth.views` and the
engines; this module only groups them the way the page lays them out and names the colour
of each style.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import solver
from engines import Game, InformationSet
from engines.alibi import TYPES
from engines.blue_lion.rules import ICON_NAMES
from sleuth.views import alibi, noir

STYLE_CLASSES = {
    "bold white on red": "hot",
    "bold red": "warm",
    "yellow": "mild",
    "bold green": "hand",
    "green": "held",
    "cyan": "laid",
    "dim": "dim",
    "": "",
}
"""The terminal styles of the views, as the page's CSS classes."""


def board(
    game: Game, info: InformationSet, deduction: solver.Deduction | None, odds: bool
) -> dict[str, Any] | None:
    """What the board template draws for `info`: with `odds` (and a deduction) the heat map,
    else the plain position; None for a game without a board."""
    draw = _BOARDS.get(game.name)
    return None if draw is None else draw(game, info, deduction if odds else None)


def start_board(game: Game, info: InformationSet) -> dict[str, Any] | None:
    """The plain board of a record still being started (nothing deduced yet), as a picker
    to tap names from: Alibi's 78 cards for the deal, Noir's grid once laid out; None for a
    game whose board needs a whole beginning (Blue Lion's line needs the whole toss)."""
    return board(game, info, None, False) if game.name in ("alibi", "noir") else None


def _alibi(game: Any, info: InformationSet, deduction: solver.Deduction | None) -> dict[str, Any]:
    if deduction is None:
        cells, caption, open_mark = alibi.notepad_cells(game, info), alibi.KEY, None
    else:
        (cells, caption), open_mark = alibi.heat_cells(game, info, deduction), "-"
    deck = game.deck
    sections = []
    for kind in TYPES:
        groups = [group for group in deck.groups if deck.type_of_group(group) == kind]
        rows = [
            (
                group,
                [
                    (card, deck.by_id[card].detail, *_cell(cells[card]))
                    for card in deck.of_group(group)
                ],
            )
            for group in groups
        ]
        cards = [card for group in groups for card in deck.of_group(group)]
        if open_mark is None:
            heading = f"{sum(not cells[card][0] for card in cards)} unmarked"
        else:
            heading = f"{sum(cells[card][0] != open_mark for card in cards)} possible"
        sections.append({"kind": kind, "heading": heading, "rows": rows})
    pad = alibi.notepad(info)
    return {
        "game": "alibi",
        "odds": deduction is not None,
        "round": pad.round,
        "sizes": list(enumerate(pad.sizes)),
        "points": list(enumerate(pad.points)),
        "sections": sections,
        "caption": caption,
    }


def _cell(cell: tuple[str, str]) -> tuple[str, str]:
    mark, style = cell
    return mark, STYLE_CLASSES.get(style, "")


def _noir(game: Any, info: InformationSet, deduction: solver.Deduction | None) -> dict[str, Any]:
    chances = None if deduction is None else noir.chances(deduction)
    rows = [
        [
            {
                "card": card,
                "heat": "" if card.chance is None else STYLE_CLASSES.get(noir.heat(card.chance)),
                "percent": None if card.chance is None else f"{card.chance:.0%}",
            }
            for card in row
        ]
        for row in noir.cells(game, info, chances)
    ]
    return {"game": "noir", "odds": chances is not None, "rows": rows,
            "caption": noir.caption(game, info)}  # fmt: skip


def _blue_lion(game: Any, info: InformationSet, deduction: object) -> dict[str, Any]:
    """The line, the tiles still to lay or set aside, the scores (no chances drawn: the
    backs' chances read better as hints)."""
    state = game.public_state(info)
    return {
        "game": "blue-lion",
        "line": [(tile, state.up[tile]) for tile in state.line],
        "pool": [(tile, state.up[tile]) for tile in state.pool],
        "aside": [(tile, state.up[tile]) for tile in state.returning + state.aside],
        "scores": list(state.scores.items()),
        "target": game.options["target"],
        "phase": state.phase,
        "icons": ICON_NAMES,
    }


_BOARDS: dict[str, Callable[[Any, InformationSet, Any], dict[str, Any]]] = {
    "alibi": _alibi,
    "noir": _noir,
    "blue-lion": _blue_lion,
}
"""Each game's board, by game name (a game without one shows hints and entries only)."""
