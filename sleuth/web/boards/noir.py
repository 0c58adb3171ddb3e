"""Noir's board: the grid of suspects, with each one's chance of being the opponent's."""

from __future__ import annotations

from typing import Any

import solver
from engines import InformationSet
from sleuth.views import heat_class, noir

AT_START = True
"""The grid, once laid out, is a picker."""


def draw(game: Any, info: InformationSet, deduction: solver.Deduction | None) -> dict[str, Any]:
    chances = None if deduction is None else noir.chances(deduction)
    rows = [
        [
            {
                "card": card,
                "heat": heat_class(card.chance),
                "percent": None if card.chance is None else f"{card.chance:.0%}",
            }
            for card in row
        ]
        for row in noir.cells(game, info, chances)
    ]
    return {"game": "noir", "template": "boards/noir.html", "odds": chances is not None,
            "rows": rows, "caption": noir.caption(game, info)}  # fmt: skip
