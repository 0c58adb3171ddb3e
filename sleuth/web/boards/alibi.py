"""Alibi's board: the 78 cards by type and group with their notepad marks or box odds."""

from __future__ import annotations

from typing import Any

import solver
from engines import InformationSet
from engines.alibi import TYPES
from sleuth.views import alibi

AT_START = True
"""The cards are a picker for the deal."""


def draw(game: Any, info: InformationSet, deduction: solver.Deduction | None) -> dict[str, Any]:
    if deduction is None:
        cells, caption, odds = alibi.notepad_cells(game, info), alibi.KEY, False
    else:
        (cells, caption), odds = alibi.heat_cells(game, info, deduction), True
    deck = game.deck
    sections = []
    for kind in TYPES:
        groups = [group for group in deck.groups if deck.type_of_group(group) == kind]
        rows = [
            (
                group,
                [(card, deck.by_id[card].detail, *cells[card]) for card in deck.of_group(group)],
            )
            for group in groups
        ]
        cards = [card for group in groups for card in deck.of_group(group)]
        if not odds:
            heading = f"{sum(not cells[card][0] for card in cards)} unmarked"
        else:
            heading = f"{sum(alibi.possible(cells[card][0]) for card in cards)} possible"
        sections.append({"kind": kind, "heading": heading, "rows": rows})
    pad = alibi.notepad(info)
    return {
        "game": "alibi",
        "template": "boards/alibi.html",
        "odds": deduction is not None,
        "round": pad.round,
        "sizes": list(enumerate(pad.sizes)),
        "points": list(enumerate(pad.points)),
        "sections": sections,
        "caption": caption,
    }
