"""Blue Lion's setup: the face each of the six tiles landed showing, then who lays first
("toss LFZFBL", "first lupin")."""

from __future__ import annotations

from collections.abc import Mapping

from engines import Game, Seat
from engines.blue_lion.material import ICONS, SEATS, TILES
from engines.blue_lion.notation import FACE_NAMES
from sleuth.assist.setup import Pick, answer

FACES = tuple(
    (icon, next(name for name, face in FACE_NAMES.items() if face == icon and name != icon))
    for icon in ICONS
)
"""Each icon as typed (its letter) and its name."""


def picks(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]:
    found = [
        Pick(tile, tile, FACES, section="The toss: the face each tile landed showing")
        for tile in TILES
    ]
    if game.options["first_player"] == "random":
        found.append(Pick("first", "Who lays the first tile",
                          tuple((s, s.capitalize()) for s in SEATS)))  # fmt: skip
    return found


def entries(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]:
    faces = [answer(chosen, tile) for tile in TILES]
    tossed = []
    for tile, face in zip(TILES, faces, strict=True):
        if not face:
            break
        tossed.append((tile, face[0]))
    if not tossed:
        return []
    if len(tossed) < len(TILES):  # the toss so far, tile by tile; the rest typed later
        return ["toss " + " ".join(f"{tile} {face}" for tile, face in tossed)]
    lines = ["toss " + "".join(face for _, face in tossed)]
    if game.options["first_player"] != "random":
        return [*lines, "first"]  # who starts is the option's
    first = answer(chosen, "first")
    return [*lines, f"first {first[0]}"] if first else lines
