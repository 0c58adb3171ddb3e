"""The bot protocol and the factory `opponents.make`.

A bot gets its game, its seat, a seeded RNG and a time budget when it is made, and then only
information sets: it never sees a State, so it cannot cheat.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Protocol

from engines import Action, ConfigError, Game, InformationSet, Seat


class Bot(Protocol):
    """Anything that picks an action from what its seat knows."""

    seat: Seat

    def act(self, info: InformationSet) -> Action:
        """The action to play; `info` is this bot's seat's information set, its turn to move."""
        ...


class RandomBot:
    """Plays a uniformly random legal action: the floor every other bot must beat."""

    def __init__(self, game: Game, seat: Seat, rng: random.Random) -> None:
        self.game, self.seat, self.rng = game, seat, rng

    def act(self, info: InformationSet) -> Action:
        return self.rng.choice(self.game.legal_actions_for(info))


_GAME_MODULES = {
    "alibi": "opponents.games.alibi",
    "blue-lion": "opponents.games.blue_lion",
    "noir": "opponents.games.noir",
}
BOT_NAMES = ("random", "heuristic", "solver")


def make(name: str, game: Game, seat: Seat, seed: int | None = None, **options: object) -> Bot:
    """A bot for `seat` of `game`: "random", "heuristic" or "solver".

    Args:
        name: the bot's kind.
        game: the configured game.
        seat: the seat it plays.
        seed: seeds its RNG (ties and random choices), for reproducible games.
        **options: strength knobs of that bot, e.g. `time_budget=0.5` for "solver".

    Raises:
        ConfigError: unknown bot, seat or option.
    """
    if seat not in game.seats:
        raise ConfigError(f"{game.name} has no seat {seat!r}; seats: {game.seats}")
    rng = random.Random(seed)
    if name == "random":
        if options:
            raise ConfigError(f"the random bot takes no options, got {sorted(options)}")
        return RandomBot(game, seat, rng)
    if name not in BOT_NAMES:
        raise ConfigError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")
    try:
        module = import_module(_GAME_MODULES[game.name])
    except KeyError:
        raise ConfigError(f"no {name} bot for {game.name} yet; try 'random'") from None
    return module.make(name, game, seat, rng, **options)


def check_options(bot: str, options: dict[str, object], allowed: dict[str, type]) -> None:
    """Raise ConfigError on an unknown option or a value of the wrong type."""
    for key, value in options.items():
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise ConfigError(f"the {bot} bot has no option {key!r}; options: {names}")
        kind = allowed[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            name = getattr(kind, "__name__", str(kind))
            raise ConfigError(f"{bot} bot option {key!r} must be {name}, got {value!r}")
