"""City Killer's board: the 4x4 city, its districts and residents, with (at the odds level)
each resident's chance of being the killer and the motives' chances."""

from __future__ import annotations

from typing import Any

import solver
from engines import InformationSet
from sleuth.views import city_killer, heat_class

AT_START = False
"""The city needs the setup's observation."""


def draw(game: Any, info: InformationSet, deduction: solver.Deduction | None) -> dict[str, Any]:
    chances, motives = city_killer.odds(info) if deduction is not None else (None, [])
    rows = [
        [
            {
                "district": district,
                "building": None
                if district.building is None
                else city_killer.BUILDING_MARKS[district.building],
                "residents": [
                    {
                        "resident": resident,
                        "heat": heat_class(resident.chance),
                        "percent": _percent(resident.chance),
                    }
                    for resident in district.residents
                ],
            }
            for district in row
        ]
        for row in city_killer.districts(game, info, chances)
    ]
    return {
        "game": "city-killer",
        "template": "boards/city_killer.html",
        "odds": chances is not None,
        "rows": rows,
        "motives": [(motive, heat_class(p), f"{p:.0%}") for motive, p in motives],
        "caption": city_killer.caption(game, info),
    }


def _percent(chance: float | None) -> str | None:
    if chance is None:
        return None
    return f"{chance:.0%}" if chance else "·"
