"""Serial Killer's board: per genre its traits, each (at the odds level) with its chance of
being the profile's."""

from __future__ import annotations

from typing import Any

import solver
from engines import InformationSet
from sleuth.views import serial_killer
from solver.hints import percent

AT_START = False
"""Nothing to pick from before the deal."""


def draw(game: Any, info: InformationSet, deduction: solver.Deduction | None) -> dict[str, Any]:
    traits = game.options["traits_per_genre"]
    if deduction is None:
        genres = [
            (genre, [(str(k), "", "·") for k in range(traits)]) for genre in game.parts.genre_ids
        ]
    else:
        genres = [
            (
                genre,
                [
                    (str(k), serial_killer.trait_heat(p), "-" if p == 0 else percent(p))
                    for k, p in enumerate(ps)
                ],
            )
            for genre, ps in serial_killer.profile(game, deduction)
        ]
    return {
        "game": "serial-killer",
        "template": "boards/serial_killer.html",
        "odds": deduction is not None,
        "traits": list(range(traits)),
        "genres": genres,
    }
