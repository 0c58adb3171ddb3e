"""Blue Lion's actions, each printed in the notation a person types at the prompt.

lay t3 left [flip]     phase 1: add a tile at an end (the first tile: `lay t3`)
pass                   once per game, by either player
move t3                phase 2: the end tile t3 goes to the other end
swap t2 t5             phase 2: exchange two adjacent interior tiles
flip t3                phase 2: turn a tile over in place, blind
return t3 right [flip] end of a turn: put a set-aside tile back at an end
"""

from __future__ import annotations

from engines.actions import Action, read_verb
from engines.blue_lion.material import TILES
from engines.values import quote

ENDS = ("left", "right")


class _Move(Action):
    """A Blue Lion action, which may turn a tile over (`flipped_tile`)."""

    @property
    def flipped_tile(self) -> str | None:
        """The tile the action turns over: none, unless its kind says otherwise."""
        return None


class _ToAnEnd(_Move):
    """A tile put at an end of the line (`Lay`, `Return`), turned over on the way if `flip`."""

    tile: str
    end: str | None  # None only for the first tile of the line
    flip: bool = False

    @property
    def flipped_tile(self) -> str | None:
        return self.tile if self.flip else None


class Lay(_ToAnEnd, verb="lay"):
    """Phase 1: a tile added at an end of the line."""


class Pass(_Move, verb="pass"):
    """Once per game, by either player."""


class MoveEnd(_Move, verb="move"):
    tile: str


class Swap(_Move, verb="swap"):
    """Two adjacent tiles exchanged; stored in id order, so `swap t5 t2` equals `swap t2 t5`."""

    first: str
    second: str

    def __post_init__(self) -> None:
        # Only two strings can be put in order; anything else is refused by `check_action`.
        if (
            isinstance(self.first, str)
            and isinstance(self.second, str)
            and self.second < self.first
        ):
            first, second = self.second, self.first
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "second", second)


class Flip(_Move, verb="flip"):
    tile: str

    @property
    def flipped_tile(self) -> str:
        return self.tile


class Return(_ToAnEnd, verb="return"):
    end: str


MainAction = Lay | Pass | MoveEnd | Swap | Flip
BlueLionAction = MainAction | Return

USAGE = (
    "lay TILE [left|right] [flip], pass, move TILE, swap TILE TILE, flip TILE, "
    "return TILE left|right [flip]; tiles are t1..t6"
)


def parse(text: str) -> BlueLionAction:
    """The action printed as `text` (case and spacing are forgiven)."""
    verb, args, bad = read_verb(text, USAGE, text.strip().lower().split())
    if verb == "pass" and not args:
        return Pass()
    if verb in ("lay", "return") and args and args[0] in TILES:
        rest = args[1:]
        flip = rest[-1:] == ["flip"]
        ends = rest[:-1] if flip else rest
        if len(ends) <= 1 and all(word in ENDS for word in ends):
            end = ends[0] if ends else None
            if verb == "lay":
                return Lay(args[0], end, flip)
            if end is not None:
                return Return(args[0], end, flip)
    if verb in ("move", "flip") and len(args) == 1 and args[0] in TILES:
        return MoveEnd(args[0]) if verb == "move" else Flip(args[0])
    if verb == "swap" and len(args) == 2 and set(args) <= set(TILES) and args[0] != args[1]:
        return Swap(args[0], args[1])
    if verb not in ("pass", "lay", "return", "move", "flip", "swap"):
        raise bad(f"unknown move {quote(verb)}")
    raise bad(f"wrong words after {quote(verb)}")
