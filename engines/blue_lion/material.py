"""Blue Lion's fixed material: icons, the six tiles' icon pairs, and the combination table.

Pure data and pure functions, shared by the engine, the solver's knowledge model and the bots.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations as _pairs_of

ICONS: tuple[str, ...] = ("L", "F", "Z", "B")
ICON_NAMES: dict[str, str] = {"L": "Lupin", "F": "Fujiko", "Z": "Zenigata", "B": "the Blue Lion"}
PAIRS: tuple[frozenset[str], ...] = tuple(frozenset(pair) for pair in _pairs_of(ICONS, 2))
"""The six tiles are exactly the six unordered pairs of icons: each icon is on three tiles."""

SEATS: tuple[str, str] = ("lupin", "fujiko")
TILES: tuple[str, ...] = ("t1", "t2", "t3", "t4", "t5", "t6")


@dataclass(frozen=True)
class Pattern:
    """A scoring combination: the up faces of three consecutive tiles (a palindrome)."""

    faces: str
    name: str
    points: int
    beneficiary: str  # "lupin", "fujiko", or "actor" (whoever made it)


PATTERNS: dict[str, Pattern] = {
    p.faces: p
    for p in (
        Pattern("LBL", "Lupin steals a diamond", 2, "lupin"),
        Pattern("FBF", "Fujiko steals a diamond", 2, "fujiko"),
        Pattern("ZLZ", "Lupin is interrogated", 1, "fujiko"),
        Pattern("ZFZ", "Fujiko is interrogated", 1, "lupin"),
        Pattern("BBB", "theft of the century", 3, "actor"),
    )
}


@dataclass(frozen=True)
class Combination:
    """Three particular tiles, consecutive, showing a pattern. Equal in either direction."""

    left: str
    centre: str
    right: str
    faces: str

    @property
    def pattern(self) -> Pattern:
        return PATTERNS[self.faces]

    def beneficiary(self, actor: str) -> str:
        who = self.pattern.beneficiary
        return actor if who == "actor" else who

    def __str__(self) -> str:
        return f"{'-'.join(self.faces)} ({self.left} {self.centre} {self.right})"


def combinations_in(line: Sequence[str], up: Mapping[str, str]) -> set[Combination]:
    """Every combination showing in `line`, keyed so that a reversed reading is the same."""
    return combinations_shown(line, "".join(map(up.__getitem__, line)))


def combinations_shown(line: Sequence[str], shown: str) -> set[Combination]:
    """`combinations_in` of a line whose tiles show the faces `shown`, in order."""
    found = set()
    for i in centres(shown):
        a, c = line[i - 1], line[i + 1]
        left, right = (a, c) if a < c else (c, a)
        found.add(Combination(left, line[i], right, shown[i - 1 : i + 2]))
    return found


@functools.cache
def centres(shown: str) -> tuple[int, ...]:
    """Where a line showing the faces `shown` has a combination centred (kept: the engine
    asks after every move, and most lines show none)."""
    return tuple(
        i
        for i in range(1, len(shown) - 1)
        if shown[i - 1] == shown[i + 1] and shown[i - 1 : i + 2] in PATTERNS  # palindromes
    )


def other_face(pair: frozenset[str], face: str) -> str:
    (back,) = pair - {face}
    return back


def swap_pairs(length: int, zone: str) -> list[int]:
    """Left indices i of the swappable adjacent pairs (i, i+1) on a line of `length` tiles.

    `zone` "interior": every pair of tiles neither of which is at an end. "centre": only the
    pair(s) touching the middle of the line (on an odd line, both pairs around the middle tile).
    """
    interior = list(range(1, length - 2))
    if zone == "interior" or not interior:
        return interior
    if length % 2 == 0:
        return [length // 2 - 1]
    middle = length // 2
    return [i for i in interior if i in (middle - 1, middle)]
