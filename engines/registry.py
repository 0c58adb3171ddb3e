"""The games this version of sleuth implements, by name, and where each layer finds its part
of a game: `_REGISTRY` is the one place a game is registered."""

from __future__ import annotations

import functools
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, overload

from engines.errors import ConfigError

if TYPE_CHECKING:
    from engines.game import Game
    from engines.observations import Kinds

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


@overload
def game_module(name: str, layer: str) -> ModuleType | None: ...
@overload
def game_module(name: str, layer: str, required: str) -> ModuleType: ...
def game_module(name: str, layer: str, required: str = "") -> ModuleType | None:
    """Game `name`'s module in package `layer` (say "solver.games"), found by the engine's
    package name, or None when that layer has none for it (unless `required` names what it
    holds: then that is an error).

    Raises:
        ConfigError: `name` is no registered game, or a `required` module is missing.
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
    if required:
        raise ConfigError(f"no {required} for {name!r} yet")
    return None


def make(name: str, **options: object) -> Game:
    """A configured game. Raises ConfigError on an unknown game, option or option value."""
    return game_class(name)(**options)


@functools.lru_cache(maxsize=64)
def cached_game(name: str, options: tuple[tuple[str, object], ...]) -> Game:
    """The game `name` with `options`, made once per name and options (what an information
    set or a pickled state belongs to)."""
    return make(name, **dict(options))


@functools.cache
def observation_kinds(name: str) -> Kinds:
    """Game `name`'s typed observation kinds by name ({} for a name no game has: such an
    information set is refused by name where it is read)."""
    if name not in _REGISTRY:
        return {}
    return game_class(name).observation_kinds
