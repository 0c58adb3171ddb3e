"""The bot protocol and the checks every bot shares (`opponents.factory` makes bots by name).

A bot gets its game, its seat, a seeded RNG and optionally a time budget when it is made, and
then only information sets: it never sees a State, so it cannot cheat.

Bots are deterministic for a seed: their search is bounded by work (nodes, samples, actions
scored). A `time_budget` is off (None) by default; when set it is a safety ceiling on a move's
seconds, and the one source of non-determinism, since where it cuts depends on the machine's
load.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from typing import ClassVar, Protocol

from engines import Action, ConfigError, Game, InformationSet, NotToMove, Seat, SleuthError
from engines.values import quote
from opponents.policy import Guess, Policy, enumerate_policy
from opponents.solver_policy import solver_policy
from solver.search import check_time_budget


class WrongInformationSet(SleuthError, ValueError):
    """A bot was handed what it cannot act on: not an information set, another game's or
    another seat's, or one in which its seat is not the one to move."""


class Bot(Protocol):
    """Anything that picks an action from what its seat knows."""

    seat: Seat

    def act(self, info: InformationSet) -> Action:
        """The action to play; `info` is this bot's seat's information set, its turn to move."""
        ...


class SeatedBot(ABC):
    """A bot for one seat of one game. `act` checks, once for every bot, that the information
    set is this seat's, of this game, and that the seat is to move; subclasses implement
    `_choose` and may trust their input. `OPTIONS` names the keyword options its constructor
    takes (`opponents.make` refuses any other)."""

    OPTIONS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game, seat: Seat, rng: random.Random) -> None:
        self.game, self.seat, self.rng = game, seat, rng

    def act(self, info: InformationSet) -> Action:
        """The action to play now.

        Raises:
            WrongInformationSet: `info` is not an information set of this bot's seat and game,
                or its seat is not the one to move.
        """
        return self._choose(info, self.legal_actions(info))

    def policy(self, info: InformationSet) -> Policy:
        """The probability of each legal action this bot plays at `info` (actions left out:
        probability 0), the same on every call.

        Raises:
            WrongInformationSet: as `act`.
            UnenumerableBot: a bot without a policy of its own whose choices cannot be
                enumerated (see `opponents.policy`).
        """
        return self._policy(info, self.legal_actions(info))

    def _policy(self, info: InformationSet, legal: list[Action]) -> Policy:
        """Hook: the distribution of `_choose`'s action over its random choices, enumerated
        on a copy of the bot (`opponents.policy.enumerate_policy`): exact for a bot that
        draws only with `rng.choice` and `coin`. A bot that searches overrides it."""
        bot = copy.copy(self)

        def move(rng: random.Random) -> Action | Guess:
            bot.rng = rng
            return bot._decide(info, legal)

        return enumerate_policy(move)

    def _decide(self, info: InformationSet, legal: list[Action]) -> Action | Guess:
        """Hook for `_policy`: the move `_choose` makes (a `GuessingBot`'s may be a `Guess`)."""
        return self._choose(info, legal)

    def legal_actions(self, info: InformationSet) -> list[Action]:
        """The seat's legal actions, after checking that `info` is the seat's, its turn."""
        self._check_owner(info)
        try:
            return self.game.legal_actions_for(info)
        except NotToMove as error:
            raise WrongInformationSet(f"{self._who()} cannot act now: {error}") from None

    def _check_owner(self, info: object) -> None:
        if not isinstance(info, InformationSet):
            raise WrongInformationSet(
                f"{self._who()} acts on an engines.InformationSet, got {quote(info)}"
            )
        if info.game != self.game.name or dict(info.options) != dict(self.game.option_items()):
            raise WrongInformationSet(
                f"{self._who()} was given an information set of {info.game!r} with options "
                f"{quote(dict(info.options))}; it plays {self.game!r}"
            )
        if not same_seat(info.seat, self.seat):
            raise WrongInformationSet(
                f"{self._who()} was given the information set of seat {quote(info.seat)}; "
                f"it acts only for seat {self.seat!r}"
            )

    def _who(self) -> str:
        return f"the {self.game.name} {type(self).__name__} of seat {self.seat!r}"

    @abstractmethod
    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        """Hook: the action to play among `legal`, from `info` (checked: this seat's turn)."""


def same_seat(given: object, seat: Seat) -> bool:
    """Equal seats of the same type: `True == 1` in Python, but True is no seat."""
    return type(given) is type(seat) and given == seat


class GuessingBot(SeatedBot):
    """A bot whose move may be a `Guess` it draws last (`_decide`), so that its policy counts
    the guess's outcomes at once."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        made = self._decide(info, legal)
        return made.draw(self.rng) if isinstance(made, Guess) else made

    @abstractmethod
    def _decide(self, info: InformationSet, legal: list[Action]) -> Action | Guess:
        """Hook: the move, or the `Guess` to draw it from."""


class SearchingBot(SeatedBot):
    """A bot whose move is a search bounded by work, with `time_budget` (seconds, None: off)
    as its safety ceiling, checked when it is made (ConfigError if not a positive number)."""

    OPTIONS: ClassVar[tuple[str, ...]] = ("time_budget",)

    def __init__(
        self, game: Game, seat: Seat, rng: random.Random, time_budget: float | None = None
    ) -> None:
        super().__init__(game, seat, rng)
        self.time_budget = check_time_budget(time_budget)
        self.knobs: dict[str, object] = {"time_budget": self.time_budget}
        """The search's knobs, as `solver.advise` takes them."""
        self._policy_state = rng.getstate()  # the policy's seed: the bot's, not drawn from it

    def _policy(self, info: InformationSet, legal: list[Action]) -> Policy:
        """A softmax over the solver's valuation of every legal move (`solver_policy`), its
        search seeded by the bot's seed, the same on every call."""
        rng = random.Random()
        rng.setstate(self._policy_state)
        return solver_policy(info, legal, rng, self.knobs)


BotKind = type[SeatedBot] | Mapping[Seat, type[SeatedBot]]
"""One named bot of a game, as its module's `BOTS` lists it: its class, or its class for each
seat (Noir's and City Killer's heuristics play each seat differently)."""


class RandomBot(SeatedBot):
    """Plays a uniformly random legal action: the floor every other bot must beat."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        return self.rng.choice(legal)

    def _policy(self, info: InformationSet, legal: list[Action]) -> Policy:
        """Every legal action alike (what enumerating `rng.choice` gives, without running it
        once per action: odds under the random model ask this at every move of a game)."""
        return {action: 1.0 / len(legal) for action in legal}


def check_options(bot: str, options: Collection[str], allowed: Collection[str]) -> None:
    """Raise ConfigError on an option `bot` does not have (values are checked by the bot)."""
    for key in options:
        if key not in allowed:
            if not allowed:
                raise ConfigError(f"the {bot} bot takes no options, got {quote(key)}")
            raise ConfigError(
                f"the {bot} bot has no option {quote(key)}; options: {', '.join(allowed)}"
            )
