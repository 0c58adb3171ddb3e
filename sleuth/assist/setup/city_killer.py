"""City Killer's setup: the residents in play and where each stands, the buildings (fixed by
the option, or placed at random), the three detective cards dealt to the row, and, for the
killer, his secrets; written in the game's typed notation, as the terminal types it."""

from __future__ import annotations

from collections.abc import Mapping

from engines import Game, InvalidObservation, Seat
from engines.city_killer.game import CityKiller
from engines.city_killer.material import (
    BUILDINGS,
    DISTRICTS,
    GROUPS,
    KILLER,
    MOTIVES,
    ROW,
    district_name,
)
from sleuth.assist.setup import Pick, answer, named

PLACES = tuple((f"{r},{c}", f"{r},{c} {district_name((r, c))}") for r, c in DISTRICTS)


def _district(text: str) -> tuple[int, int]:
    if text not in dict(PLACES):
        raise InvalidObservation(f"{text[:20]!r} is not a district: they are 1,1 to 4,4")
    row, col = text.split(",")
    return int(row), int(col)


def _residents(game: CityKiller, chosen: Mapping[str, str]) -> list[str]:
    """The residents picked, in the order given (all of the pool when it is that size)."""
    if len(game.names) == game.options["residents"]:
        return list(game.names)
    return [name for name in dict.fromkeys(answer(chosen, "residents")) if name in game.names]


def picks(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]:
    assert isinstance(game, CityKiller)
    opt = game.options
    found = []
    if len(game.names) != opt["residents"]:
        found.append(Pick("residents", f"The {opt['residents']} residents in play",
                          named(game.names), count=opt["residents"], reload=True))  # fmt: skip
    residents = _residents(game, chosen)
    if len(residents) == opt["residents"] and opt["initial_placement"] != "detective":
        found += [
            Pick(
                f"at-{name}",
                name,
                PLACES,
                section="Where each resident stands (row,column)",
                columns=2,
            )
            for name in residents
        ]
    if opt["building_layout"] == "random":
        found += [
            Pick(
                f"building-{kind}",
                f"the two {kind} buildings",
                PLACES,
                count=2,
                section="The buildings",
            )
            for kind in BUILDINGS
        ]
    cards = named(sorted(set(game.detective_deck())))
    found += [
        Pick(
            f"row-{i}",
            f"card {i}",
            cards,
            section="The row of detective cards, left to right",
            columns=ROW,
        )
        for i in range(1, ROW + 1)
    ]
    if seat == KILLER and opt["identity_choice"] == "random":
        people = named(residents or game.names)
        found.append(Pick("identity", "Your identity", people))
        if opt["use_figurant"]:
            found.append(Pick("figurant", "Your figurant", people))
        found.append(Pick("motive", "Your motive", named(MOTIVES)))
        found.append(Pick("drawn", "The three group tokens you drew", named(GROUPS), count=3))
    return found


def entries(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]:
    assert isinstance(game, CityKiller)
    residents = _residents(game, chosen)
    if not residents:
        return []
    lines = [_setup_line(game, residents, chosen)]
    row = [" ".join(answer(chosen, f"row-{i}")) for i in range(1, ROW + 1)]
    if not all(row):
        if any(row):
            raise InvalidObservation("pick all three cards of the row, or none of them")
        return lines
    lines += [f"dealt {card}" for card in reversed(row)]  # the first card dealt lies rightmost
    lines.append("row " + " ".join(row))
    if seat == KILLER and game.options["identity_choice"] == "random":
        lines += _secrets(game, chosen)
    return lines


def _setup_line(game: CityKiller, residents: list[str], chosen: Mapping[str, str]) -> str:
    """The setup line: the residents (each with its district, unless the detective places
    them), then the buildings unless the layout is fixed."""
    people = residents
    if game.options["initial_placement"] != "detective":
        people = []
        for name in residents:
            place = answer(chosen, f"at-{name}")
            if len(place) != 1:
                raise InvalidObservation(f"pick the district {name} stands in")
            r, c = _district(place[0])
            people.append(f"{name}@{r},{c}")
    line = " ".join(["setup", *people])
    if game.options["building_layout"] != "fixed":
        layout = sorted(
            (_district(place), kind)
            for kind in BUILDINGS
            for place in answer(chosen, f"building-{kind}")
        )
        line += " buildings " + " ".join(f"{kind}@{r},{c}" for (r, c), kind in layout)
    return line


def _secrets(game: CityKiller, chosen: Mapping[str, str]) -> list[str]:
    """The killer's secrets line, when any of them is picked (none: no line); all of
    identity, motive and (with the option) figurant, or none."""
    identity, figurant = answer(chosen, "identity"), answer(chosen, "figurant")
    motive, drawn = answer(chosen, "motive"), answer(chosen, "drawn")
    if not (identity or figurant or motive or drawn):
        return []
    if not identity or not motive or (game.options["use_figurant"] and not figurant):
        raise InvalidObservation("pick your identity, figurant and motive, or none of them")
    drawn = sorted(drawn, key=lambda g: GROUPS.index(g) if g in GROUPS else len(GROUPS))
    return [
        f"secrets {identity[0]} figurant {figurant[0] if figurant else 'none'} "
        f"motive {motive[0]} tokens {' '.join(drawn)}"
    ]
