"""City Killer (Intuition mode): a hidden killer who lies among the residents of a 4x4 city,
and the detective who must name him and his motive (rules/city_killer.md)."""

from engines.city_killer.actions import (
    Accuse,
    Answer,
    Ask,
    Discard,
    Evidence,
    Grouped,
    Keep,
    Named,
    Place,
    Placed,
    Play,
    Reveal,
    Shift,
    Verb,
)
from engines.city_killer.game import CityKiller
from engines.city_killer.material import DETECTIVE, KILLER, MOTIVES, SEATS
from engines.city_killer.state import CityKillerState

__all__ = [
    "DETECTIVE",
    "KILLER",
    "MOTIVES",
    "SEATS",
    "Accuse",
    "Answer",
    "Ask",
    "CityKiller",
    "CityKillerState",
    "Discard",
    "Evidence",
    "Grouped",
    "Keep",
    "Named",
    "Place",
    "Placed",
    "Play",
    "Reveal",
    "Shift",
    "Verb",
]
