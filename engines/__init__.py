"""Game engines: the referees. `engines.make(name, **options)` builds a configured game.

The engines know nothing of deduction, bots or screens.

Adding a game: `_REGISTRY` (engines/registry.py) is the one place a game is registered. Its
entry names the engine's package and `Game` class
(`"city-killer": "engines.city_killer:CityKiller"`); every other layer finds its part of the
game under the same package name (`game_module`):
`solver.games.<package>` (the knowledge model, a `solver.games.Knowledge`),
`opponents.games.<package>` (its bots, an `opponents.factory.GameBots`),
`sleuth.views.<package>` (how it looks in the terminal, a `sleuth.views.GameView`) and,
optionally, `sleuth.web.boards.<package>` (its board on the web page). A layer
whose module is missing says so with a `ConfigError`; the shared conformance suite
(tests/conformance.py) runs on the new engine unchanged.
"""

from __future__ import annotations

from engines.actions import Action
from engines.errors import (
    ConfigError,
    IllegalAction,
    IncompleteInformationSet,
    InvalidAction,
    InvalidInformationSet,
    InvalidObservation,
    InvalidState,
    NotToMove,
    SleuthError,
)
from engines.game import Game, Metadata, Option
from engines.observations import InformationSet, Observation
from engines.registry import game_class, game_module, make, names
from engines.state import State
from engines.values import Seat

__all__ = [
    "Action",
    "ConfigError",
    "Game",
    "IllegalAction",
    "IncompleteInformationSet",
    "InformationSet",
    "InvalidAction",
    "InvalidInformationSet",
    "InvalidObservation",
    "InvalidState",
    "Metadata",
    "NotToMove",
    "Observation",
    "Option",
    "Seat",
    "SleuthError",
    "State",
    "game_class",
    "game_module",
    "make",
    "names",
]
