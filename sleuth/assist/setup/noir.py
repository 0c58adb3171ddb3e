"""Noir's setup: the grid as laid out, cell by cell, then the seat's own secret (the killer's
identity, the inspector's four cards): "setup Ada Bruno ... / ...", "identity Ada",
"hand Ada Bruno Clara Dora"."""

from __future__ import annotations

from collections.abc import Mapping

from engines import Game, InvalidObservation, Seat
from engines.noir.game import Noir
from engines.noir.material import HAND, KILLER
from sleuth.assist.setup import Pick, answer, named


def _cells(game: Noir) -> list[list[str]]:
    size = game.options["grid"]
    return [[f"r{r}c{c}" for c in range(1, size + 1)] for r in range(1, size + 1)]


def picks(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]:
    assert isinstance(game, Noir)
    suspects = named(game.suspects)
    size = game.options["grid"]
    found = [
        Pick(
            cell,
            f"row {r}, column {c}",
            suspects,
            section="The grid as laid out, row by row",
            caption=False,
            columns=size,
        )
        for r, row in enumerate(_cells(game), start=1)
        for c, cell in enumerate(row, start=1)
    ]
    if seat == KILLER:
        found.append(Pick("identity", "Your identity", suspects))
    else:
        found.append(Pick("hand", f"Your {HAND} cards", suspects, count=HAND))
    return found


def entries(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]:
    assert isinstance(game, Noir)
    rows = [[" ".join(answer(chosen, cell)) for cell in row] for row in _cells(game)]
    blank = sum(not name for row in rows for name in row)
    if blank == len(rows) ** 2:
        return []
    if blank:
        raise InvalidObservation(
            f"{blank} cells of the grid are not picked: pick every cell, or none and type "
            "the grid on the session page"
        )
    lines = ["setup " + " / ".join(" ".join(row) for row in rows)]
    secret = answer(chosen, "identity" if seat == KILLER else "hand")
    if secret:
        lines.append(("identity " if seat == KILLER else "hand ") + " ".join(secret))
    return lines
