"""Blue Lion in the terminal: the line of tiles with coloured icons, the scores, the phase."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from engines import Action, InformationSet
from engines.blue_lion import BlueLion
from engines.blue_lion.material import ICON_NAMES
from solver import Deduction

ICON_STYLES = {"L": "bold red", "F": "bold magenta", "Z": "bold yellow", "B": "bold blue"}


def _tile(tile: str, face: str) -> Text:
    return Text.assemble((f"{tile}:", "dim"), (face, ICON_STYLES[face]))


def render(game: BlueLion, info: InformationSet) -> Text:
    state = game.public_state(info)
    text = Text("line   ")
    line = Text("  ").join(_tile(tile, state.up[tile]) for tile in state.line)
    text.append_text(line if state.line else Text("(empty)", "dim"))
    if state.pool:
        text.append("\nto lay ")
        text.append_text(Text("  ").join(_tile(t, state.up[t]) for t in state.pool))
    waiting = state.returning + state.aside
    if waiting:
        text.append("\naside  ")
        text.append_text(Text("  ").join(_tile(t, state.up[t]) for t in waiting))
    scores = "   ".join(f"{seat.capitalize()} {points}" for seat, points in state.scores.items())
    target = game.options["target"]
    text.append(f"\nscore  {scores}   (first to {target})   phase {state.phase}")
    return text


def names_help() -> str:
    """How names may be typed in this game's notation, with examples of its own."""
    return (
        "Words may be shortened to a unique beginning, in any case (fu for fujiko, ri for "
        "right, ze for Zenigata); faces are L, F, Z and B; Tab completes them."
    )


def legend() -> Text:
    """What the letters mean."""
    return Text("  ").join(
        Text.assemble((icon, ICON_STYLES[icon]), f" {name}") for icon, name in ICON_NAMES.items()
    )


def heat_map(game: BlueLion, info: InformationSet, deduction: Deduction) -> None:
    """None: the backs' chances read better as hints than drawn on the line."""
    return None


def moves_help(game: BlueLion, legal: Sequence[Action]) -> None:
    """None: Blue Lion's moves are few enough to list and number."""
    return None


def routine(game: BlueLion, legal: Sequence[Action]) -> bool:
    """No Blue Lion decision is too small to narrate."""
    return False
