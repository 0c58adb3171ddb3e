"""Each game's knowledge model: how its information sets become solver models.

A knowledge module provides `validate(info) -> None` (raises `engines.InvalidInformationSet`
naming the observation, field and what is allowed, for anything the game could not show that
seat), `build(info) -> Model`, `world_of(state) -> World` (the true world of a full State, for
`Fact.holds`), and `hints(info, deduction) -> list[Hint]`; optionally
`world_set(model, compiled)` when its worlds are too many to list. The solver calls `validate`
before anything else (solver.validation), so the other functions may trust their input.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from engines import ConfigError

_MODULES = {
    "alibi": "solver.games.alibi",
    "blue-lion": "solver.games.blue_lion",
    "noir": "solver.games.noir",
}


def knowledge_for(game: str) -> ModuleType:
    try:
        return import_module(_MODULES[game])
    except KeyError:
        known = ", ".join(sorted(_MODULES))
        raise ConfigError(f"no knowledge model for {game!r} yet; known: {known}") from None
