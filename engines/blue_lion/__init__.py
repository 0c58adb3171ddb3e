"""Blue Lion (rules/blue_lion.md): two players, six double-sided tiles, hidden backs."""

from engines.blue_lion.actions import Flip, Lay, MoveEnd, Pass, Return, Swap
from engines.blue_lion.game import BlueLion
from engines.blue_lion.material import ICONS, PAIRS, PATTERNS, SEATS, TILES, Combination
from engines.blue_lion.state import BlueLionState

__all__ = [
    "ICONS",
    "PAIRS",
    "PATTERNS",
    "SEATS",
    "TILES",
    "BlueLion",
    "BlueLionState",
    "Combination",
    "Flip",
    "Lay",
    "MoveEnd",
    "Pass",
    "Return",
    "Swap",
]
