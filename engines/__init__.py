"""Game engines: the referees. `engines.make(name, **options)` builds a configured game.

The engines know nothing of deduction, bots or screens.
"""

from __future__ import annotations

from importlib import import_module

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
    "make",
    "names",
]

# name -> "module:Class"; modules are imported on first use so `import engines` stays light.
_REGISTRY: dict[str, str] = {
    "alibi": "engines.alibi:Alibi",
    "blue-lion": "engines.blue_lion:BlueLion",
    "noir": "engines.noir:Noir",
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


def make(name: str, **options: object) -> Game:
    """A configured game. Raises ConfigError on an unknown game, option or option value."""
    return game_class(name)(**options)
