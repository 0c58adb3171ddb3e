"""City Killer in the terminal: the 4x4 city with its buildings, residents, pawn, token and
crime scenes; with a deduction, each resident's chance of being the killer as heat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group
from rich.table import Table
from rich.text import Text

from engines import Action, InformationSet
from engines.city_killer import CityKiller, CityKillerState, Verb
from engines.city_killer.actions import USAGE
from engines.city_killer.material import MOTIVES, SIDE, district_name
from sleuth.views import TERMINAL_STYLE, Heat, append_chance, heat
from solver import Deduction
from solver.games.city_killer import posterior

BUILDING_MARKS = {"police": "P", "diner": "D", "hospital": "H", "fire": "F"}


def _state(game: CityKiller, info: InformationSet) -> CityKillerState:
    return game.seat_view(info)


@dataclass(frozen=True)
class Resident:
    """A living resident in a district, as the board draws him."""

    name: str
    me: bool  # the killer's own identity, seen from the killer's seat
    intimidated: bool
    token: bool  # holds the surveillance token
    chance: float | None  # of being the killer, when chances are given


@dataclass(frozen=True)
class District:
    """One district of the city: its name, building, crime scene, pawn and residents."""

    name: str
    building: str | None  # police, diner, hospital, fire
    scene: int | None  # the crime scene's number, 1 for the first murder
    pawn: bool  # the detective's pawn stands here
    residents: tuple[Resident, ...]


def districts(
    game: CityKiller, info: InformationSet, chances: Mapping[str, float] | None = None
) -> list[list[District]]:
    """The city row by row, as plain data (the terminal's table and the web's board)."""
    state = _state(game, info)
    identity = state.secrets()[0]
    me = identity if info.seat == "killer" and identity else None
    scenes = {d: n + 1 for n, (d, _, _) in enumerate(state.scenes)}
    return [
        [
            District(
                name=district_name((row, col)),
                building=state.buildings.get((row, col)),
                scene=scenes.get((row, col)),
                pawn=(row, col) == state.pawn,
                residents=tuple(
                    Resident(
                        name=name,
                        me=name == me,
                        intimidated=name in state.intimidated,
                        token=name == state.token,
                        chance=None if chances is None else chances.get(name, 0.0),
                    )
                    for name in state.at((row, col))
                ),
            )
            for col in range(1, SIDE + 1)
        ]
        for row in range(1, SIDE + 1)
    ]


def caption(game: CityKiller, info: InformationSet) -> str:
    """The round, murders, refusals, the dead and the row of cards under the city."""
    state = _state(game, info)
    dead = ", ".join(state.dead) or "none"
    return (
        f"round {state.round}; murders {state.murders} of 5; refusals {state.refusals}; "
        f"dead: {dead}; row: {', '.join(c or '-' for c in state.row)}"
    )


def odds(info: InformationSet) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """Each resident's chance of being the killer, and the motives' chances, likeliest first."""
    post = posterior(info)
    chances = dict(zip(post.residents, map(float, post.killer), strict=True))
    motives = sorted(zip(MOTIVES, map(float, post.motive), strict=True), key=lambda x: -x[1])
    return chances, motives


CITY_STYLE: dict[Heat, str] = {**TERMINAL_STYLE, "cold": "dim"}
"""The terminal's colours of a chance of being the killer: a chance of none is dimmed."""


def render(
    game: CityKiller, info: InformationSet, chances: Mapping[str, float] | None = None
) -> Table:
    """The city: per district its name, building, crime scenes and residents (! intimidated,
    ◉ the surveillance token); the pawn's district is framed; with `chances`, each resident's
    probability of being the killer."""
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(SIDE):
        table.add_column(min_width=16, max_width=22)
    for row in districts(game, info, chances):
        cells = []
        for district in row:
            head = Text(district.name, "bold" if district.pawn else "dim")
            if district.building is not None:
                head.append(f" [{BUILDING_MARKS[district.building]}]", "cyan")
            if district.scene is not None:
                head.append(f" ✝{district.scene}", "red")
            if district.pawn:
                head.append(" ◆", "bold green")
            cell = Text()
            cell.append_text(head)
            for resident in district.residents:
                cell.append("\n" + resident.name, "bold reverse" if resident.me else "")
                if resident.intimidated:
                    cell.append("!", "magenta")
                if resident.token:
                    cell.append("◉", "green")
                if resident.chance is not None:
                    append_chance(cell, resident.chance, styles=CITY_STYLE)
            cells.append(cell)
        table.add_row(*cells)
    table.caption = caption(game, info)
    return table


def names_help() -> str:
    """How names may be typed in this game's notation, with examples of its own."""
    return (
        "Names and cards may be shortened to a unique beginning of each part, in any case "
        "(dm for Dmitri, de-ev for destroy-evidence); Tab completes them."
    )


def legend() -> Text:
    return Text.assemble(
        ("◆", "bold green"), " the detective's pawn   ", ("[P]", "cyan"),
        " police, diner, hospital, fire   ", ("✝1", "red"), " crime scene   ",
        ("!", "magenta"), " intimidated   ", ("◉", "green"), " surveillance token   ",
        ("50%", TERMINAL_STYLE["hot"]), " chance of being the killer",
    )  # fmt: skip


def heat_map(game: CityKiller, info: InformationSet, deduction: Deduction) -> Group:
    """The city with each resident's chance of being the killer, then the motives'."""
    chances, motive_odds = odds(info)
    motives = Text("motive: ")
    for motive, p in motive_odds:
        motives.append(f"{motive} {p:.0%}  ", CITY_STYLE[heat(p)])
    return Group(render(game, info, chances), motives)


def moves_help(game: CityKiller, legal: Sequence[Action]) -> Text:
    """The notation, for decisions with many moves (every Abduction, every Testimony pair)."""
    return Text(f"Moves are typed as: {USAGE}. Districts are row,column from 1,1 to 4,4.")


def routine(game: CityKiller, legal: Sequence[Action]) -> bool:
    """A decision with one move, or a window where passing is all there is."""
    return len(legal) == 1 or set(legal) <= {Verb("pass"), Verb("done")}
