"""Game engines: the referees. `engines.make(name, **options)` builds a configured game.

The engines know nothing of deduction, bots or screens.

Adding a game: `_REGISTRY` below is the one place a game is registered. Its entry names the
engine's package and `Game` class (`"city-killer": "engines.city_killer:CityKiller"`); every
other layer finds its part of the game under the same package name (`game_module`):
`solver.games.<package>` (the knowledge model, a `solver.games.Knowledge`),
`opponents.games.<package>` (its bots, an `opponents.factory.GameBots`),
`sleuth.views.<package>` (how it looks in the terminal, a `sleuth.views.GameView`) and,
optionally, `sleuth.web.boards.<package>` (its board on the web page). A layer
whose module is missing says so with a `ConfigError`; the shared conformance suite
(tests/conformance.py) runs on the new engine unchanged.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from engines.core import (
    Action,
    ConfigError,
    Game,
    IllegalAction,
    IncompleteInformationSet,
    InformationSet,
    InvalidAction,
    InvalidInformationSet,
    InvalidObservation,
    InvalidState,
    Metadata,
    NotToMove,
    Observation,
    Option,
    Seat,
    SleuthError,
    State,
)

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

# name -> "module:Class"; modules are imported on first use so `import engines` stays light.
_REGISTRY: dict[str, str] = {
    "alibi": "engines.alibi:Alibi",
    "blue-lion": "engines.blue_lion:BlueLion",
    "city-killer": "engines.city_killer:CityKiller",
    "noir": "engines.noir:Noir",
    "serial-killer": "engines.serial_killer:SerialKiller",
}


def names() -> list[str]:
    """The names of the games this version of sleuth implements, sorted."""
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    """The `Game` subclass registered as `name`; raises ConfigError listing the known names."""
    try:
        module_name, class_name = _REGISTRY[name].split(":")
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; the games are: {', '.join(names())}") from None
    return getattr(import_module(module_name), class_name)


def game_module(name: str, layer: str) -> ModuleType | None:
    """Game `name`'s module in package `layer` (say "solver.games"), found by the engine's
    package name, or None when that layer has none for it.

    Raises:
        ConfigError: `name` is no registered game.
    """
    if name not in _REGISTRY:
        raise ConfigError(f"unknown game {name!r}; the games are: {', '.join(names())}")
    package = _REGISTRY[name].split(":")[0].rpartition(".")[2]
    module = f"{layer}.{package}"
    try:
        return import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name != module:  # the module exists but something it imports does not
            raise
        return None


def make(name: str, **options: object) -> Game:
    """A configured game. Raises ConfigError on an unknown game, option or option value."""
    return game_class(name)(**options)
