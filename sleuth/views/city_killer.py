"""City Killer in the terminal: the 4x4 city with its buildings, residents, pawn, token and
crime scenes; with a deduction, each resident's chance of being the killer as heat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from engines import Action, InformationSet
from engines.city_killer import CityKiller, CityKillerState, Verb
from engines.city_killer.actions import USAGE
from engines.city_killer.rules import MOTIVES, SIDE, district_name
from solver import Deduction
from solver.games.city_killer import posterior

BUILDING_MARKS = {"police": "P", "diner": "D", "hospital": "H", "fire": "F"}


def _heat(probability: float) -> str:
    if probability >= 0.5:
        return "bold white on red"
    if probability >= 0.2:
        return "bold red"
    return "yellow" if probability > 0 else "dim"


def _state(game: CityKiller, info: InformationSet) -> CityKillerState:
    return game._view(info)


def render(
    game: CityKiller, info: InformationSet, chances: Mapping[str, float] | None = None
) -> Table:
    """The city: per district its name, building, crime scenes and residents (! intimidated,
    ◉ the surveillance token); the pawn's district is framed; with `chances`, each resident's
    probability of being the killer."""
    state = _state(game, info)
    me = state._identity if info.seat == "killer" and state._identity else None
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(SIDE):
        table.add_column(min_width=16, max_width=22)
    scenes = {d: n + 1 for n, (d, _, _) in enumerate(state.scenes)}
    for row in range(1, SIDE + 1):
        cells = []
        for col in range(1, SIDE + 1):
            district = (row, col)
            head = Text(district_name(district), "bold" if district == state.pawn else "dim")
            if district in state.buildings:
                head.append(f" [{BUILDING_MARKS[state.buildings[district]]}]", "cyan")
            if district in scenes:
                head.append(f" ✝{scenes[district]}", "red")
            if district == state.pawn:
                head.append(" ◆", "bold green")
            cell = Text()
            cell.append_text(head)
            for name in state.at(district):
                cell.append("\n" + name, "bold reverse" if name == me else "")
                if name in state.intimidated:
                    cell.append("!", "magenta")
                if name == state.token:
                    cell.append("◉", "green")
                if chances is not None:
                    p = chances.get(name, 0.0)
                    cell.append(f" {p:.0%}" if p else " ·", _heat(p))
            cells.append(cell)
        table.add_row(*cells)
    dead = ", ".join(state.dead) or "none"
    table.caption = (
        f"round {state.round}; murders {state.murders} of 5; refusals {state.refusals}; "
        f"dead: {dead}; row: {', '.join(c or '-' for c in state.row)}"
    )
    return table


def legend() -> Text:
    return Text.assemble(
        ("◆", "bold green"), " the detective's pawn   ", ("[P]", "cyan"),
        " police, diner, hospital, fire   ", ("✝1", "red"), " crime scene   ",
        ("!", "magenta"), " intimidated   ", ("◉", "green"), " surveillance token   ",
        ("50%", _heat(0.5)), " chance of being the killer",
    )  # fmt: skip


def heat_map(game: CityKiller, info: InformationSet, deduction: Deduction) -> Group:
    """The city with each resident's chance of being the killer, then the motives'."""
    post = posterior(info)
    chances = dict(zip(post.residents, map(float, post.killer), strict=True))
    motives = Text("motive: ")
    for motive, p in sorted(zip(MOTIVES, map(float, post.motive), strict=True),
                            key=lambda x: -x[1]):  # fmt: skip
        motives.append(f"{motive} {p:.0%}  ", _heat(p))
    return Group(render(game, info, chances), motives)


def moves_help(game: CityKiller, legal: Sequence[Action]) -> Text:
    """The notation, for decisions with many moves (every Abduction, every Testimony pair)."""
    return Text(f"Moves are typed as: {USAGE}. Districts are row,column from 1,1 to 4,4.")


def routine(game: CityKiller, legal: Sequence[Action]) -> bool:
    """A decision with one move, or a window where passing is all there is."""
    return len(legal) == 1 or set(legal) <= {Verb("pass"), Verb("done")}
