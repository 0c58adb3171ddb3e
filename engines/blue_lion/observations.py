"""Blue Lion's observations, one typed kind each: its fields (in their stored order), how a
person reads it (`describe`) and the line they type for it (`text`, which
`engines.blue_lion.notation` reads back). Both players see every one: Blue Lion hides only
the tiles' backs, and a face is seen by both once it shows.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import ClassVar

from engines.blue_lion.actions import parse
from engines.blue_lion.material import ICON_NAMES, ICONS, PATTERNS, SEATS, TILES
from engines.observations import (
    GameOver,
    MoveRecord,
    Observation,
    ObservationKind,
    kinds_by_name,
)
from engines.values import quote


class FaceShown(ObservationKind):
    """A face seen on a tile: where it landed at the toss, or what turning it over showed.
    Its line is its kind, the tile and the face; its words say how the face showed
    (`_SHOWED`)."""

    _SHOWED: ClassVar[str]
    tile: str
    face: str

    def describe(self) -> str:
        return f"{self.tile} {self._SHOWED} {ICON_NAMES[self.face]}"

    def text(self) -> str:
        return f"{self.kind} {_member(self.tile, TILES)} {_member(self.face, ICONS)}"


class Toss(FaceShown, kind="toss"):
    _SHOWED = "landed showing"


class Reveal(FaceShown, kind="reveal"):
    _SHOWED = "was turned over and showed"


class First(ObservationKind, kind="first"):
    """Who lays the first tile (the last entry of the setup)."""

    seat: str

    def describe(self) -> str:
        return f"{self.seat.capitalize()} starts"

    def text(self) -> str:
        return f"first {_member(self.seat, SEATS)}"


class Act(MoveRecord, kind="act"):
    """A move, in the game's action notation."""

    seat: str
    action: str

    def describe(self) -> str:
        return f"{self.seat.capitalize()}: {self.action}"

    def text(self) -> str:
        return str(parse(str(self.action)))


class Score(ObservationKind, kind="score"):
    """A combination the last move made: its faces, its tiles left to right, who scored and
    how much (its centre tile is set aside)."""

    faces: str
    tiles: tuple[str, str, str]
    seat: str
    points: int

    def describe(self) -> str:
        return (
            f"{'-'.join(self.faces)} ({' '.join(self.tiles)}) scored {self.points} for "
            f"{self.seat.capitalize()}; {self.tiles[1]} was set aside"
        )

    def text(self) -> str:
        tiles = [_member(tile, TILES) for tile in self.tiles]
        return f"score {_member(self.faces, PATTERNS)} {' '.join(tiles)}"


class End(GameOver, kind="end"):
    """The game is over: who won, and why ("target" or "turn limit")."""

    winners: tuple[str, ...]
    reason: str

    def describe(self) -> str:
        winners = " and ".join(seat.capitalize() for seat in self.winners)
        return f"the game ended ({self.reason}): {winners} won"

    def text(self) -> str:
        return "end " + " ".join(_member(seat, SEATS) for seat in self.winners)


KINDS = kinds_by_name(Toss, First, Act, Reveal, Score, End)


def faces_shown(observations: Iterable[Observation]) -> dict[str, set[str]]:
    """Each tile's faces shown so far, at the toss or by a reveal."""
    shown: dict[str, set[str]] = {tile: set() for tile in TILES}
    for obs in observations:
        if isinstance(obs, FaceShown):
            shown[obs.tile].add(obs.face)
    return shown


def _member(value: object, allowed: Collection[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise TypeError(f"{quote(value)} is not one of {', '.join(allowed)}")
    return value
