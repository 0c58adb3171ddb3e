"""`opponents.make`: a bot by its name. "random" and "ismcts" play every game; the others
come from the game's bots module (`opponents.games.<its engine's package>`, an `GameBots`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, cast

import engines
from engines import ConfigError, Game, InformationSet, Seat
from engines.values import quote
from opponents import ismcts
from opponents.base import Bot, BotKind, RandomBot, SeatedBot, check_options, same_seat
from solver import Hint

GENERIC: dict[str, type[SeatedBot]] = {"random": RandomBot, "ismcts": ismcts.IsmctsBot}
"""The bots that play every game: uniform random, and OpenSpiel's ISMCTS over the solver's
sampled states."""


class GameBots(Protocol):
    """What a game's bots module (`opponents.games.<its engine's package>`) provides."""

    @property
    def BOTS(self) -> Mapping[str, BotKind]:
        """Its bots by name ("heuristic" and "solver" everywhere; some games have more)."""

    def notepad(self, info: InformationSet) -> list[Hint]:
        """What a careful person with pen and paper has crossed off at `info`, as hints of kind
        "notepad" (the direct eliminations its heuristic bot keeps)."""


def game_bots(game: str) -> GameBots | None:
    """The bots module of `game`, or None while it has none."""
    return cast(GameBots | None, engines.game_module(game, "opponents.games"))


if TYPE_CHECKING:  # mypy checks that every bots module provides what `GameBots` declares
    from opponents.games import alibi, blue_lion, city_killer, noir, serial_killer

    _BOTS: tuple[GameBots, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)

BOT_NAMES = ("random", "heuristic", "careful", "solver", "ismcts")
"""Every bot kind of any game: "random" and "ismcts" play every game, the others those whose
bots module lists them (Serial Killer alone has "careful")."""


def make(name: str, game: Game, seat: Seat, seed: int | None = None, **options: object) -> Bot:
    """A bot for `seat` of `game`: "random", "heuristic", "solver", "careful" (Serial Killer
    only: a sensible person's play) or "ismcts" (OpenSpiel's information-set MCTS over states
    `solver.sample_state` draws; needs sleuth[openspiel]).

    Args:
        name: the bot's kind.
        game: the configured game.
        seat: the seat it plays.
        seed: seeds its RNG (ties and random choices), for reproducible games; an int or None.
        **options: strength knobs of that bot, e.g. `max_nodes=5000` for the Blue Lion
            "solver"; `time_budget=0.5` (seconds) adds a safety ceiling that makes the bot's
            moves depend on the machine's speed (off by default).

    Raises:
        ConfigError: unknown bot, game, seat or option, a bad option value or seed.
    """
    if not isinstance(game, Game):
        raise ConfigError(f"bots play an engines.Game (engines.make(...)), got {quote(game)}")
    if not any(same_seat(seat, known) for known in game.seats):
        raise ConfigError(f"{game.name} has no seat {quote(seat)}; seats: {game.seats}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ConfigError(f"a bot's seed is an int or None, got {quote(seed)}")
    rng = random.Random(seed)
    generic = isinstance(name, str) and name in GENERIC
    made = GENERIC[name] if generic else _game_bot(name, game, seat)
    check_options(name, options, made.OPTIONS)
    return made(game, seat, rng, **options)


def _game_bot(name: str, game: Game, seat: Seat) -> type[SeatedBot]:
    """The class of the `name` bot of `game`'s bots module for `seat` (ConfigError if the
    game has none)."""
    if not isinstance(name, str) or name not in BOT_NAMES:
        raise ConfigError(f"unknown bot {quote(name)}; bots: {', '.join(BOT_NAMES)}")
    module = game_bots(game.name)
    if module is None or name not in module.BOTS:
        kinds = ", ".join(
            kind for kind in BOT_NAMES if kind in GENERIC or (module and kind in module.BOTS)
        )
        yet = " yet" if module is None else ""
        raise ConfigError(f"no {name} bot for {game.name}{yet}; its bots: {kinds}")
    kind = module.BOTS[name]
    return kind[seat] if isinstance(kind, Mapping) else kind


def notepad(info: InformationSet) -> list[Hint]:
    """What a careful person with pen and paper has crossed off at `info` (the direct
    eliminations the heuristic bot keeps), as hints of kind "notepad"; [] for a game whose
    bots keep no notepad."""
    module = game_bots(info.game)
    return [] if module is None else module.notepad(info)
