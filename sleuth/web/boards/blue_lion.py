"""Blue Lion's board: the line, the tiles still to lay or set aside, the scores (no chances
drawn: the backs' chances read better as hints)."""

from __future__ import annotations

from typing import Any

from engines import InformationSet
from engines.blue_lion.material import ICON_NAMES

AT_START = False
"""The line needs the whole toss."""


def draw(game: Any, info: InformationSet, deduction: object) -> dict[str, Any]:
    state = game.public_state(info)
    return {
        "game": "blue-lion",
        "template": "boards/blue_lion.html",
        "line": [(tile, state.up[tile]) for tile in state.line],
        "pool": [(tile, state.up[tile]) for tile in state.pool],
        "aside": [(tile, state.up[tile]) for tile in state.returning + state.aside],
        "scores": list(state.scores.items()),
        "target": game.options["target"],
        "phase": state.phase,
        "icons": ICON_NAMES,
    }
