"""Serial Killer ("Profiler", rules/serial_killer.md): 3-5 rival profilers race to declare
the killer's profile, the undrawable bottom card of each of seven genre decks."""

from engines.serial_killer.actions import (
    BUYS,
    Briefing,
    Declare,
    Discard,
    End,
    First,
    Investigate,
    Lab,
    Move,
    Pass,
    Place,
    SerialKillerAction,
    Skip,
    Weapon,
    parse,
)
from engines.serial_killer.game import SerialKiller, replay
from engines.serial_killer.material import CENTRAL_PARK, COLOURS, Components, Genre, load_components
from engines.serial_killer.state import DICE, HAND_LIMIT, WEAPON_MAX, SerialKillerState

__all__ = [
    "BUYS",
    "CENTRAL_PARK",
    "COLOURS",
    "DICE",
    "HAND_LIMIT",
    "WEAPON_MAX",
    "Briefing",
    "Components",
    "Declare",
    "Discard",
    "End",
    "First",
    "Genre",
    "Investigate",
    "Lab",
    "Move",
    "Pass",
    "Place",
    "SerialKiller",
    "SerialKillerAction",
    "SerialKillerState",
    "Skip",
    "Weapon",
    "load_components",
    "parse",
    "replay",
]
