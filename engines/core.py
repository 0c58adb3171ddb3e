"""The shared core every game engine builds on.

A game is a `Game` (the configuration, validated once) that makes `State`s (the whole truth,
mutable, cheap to clone). Each applied `Action` emits `Observation`s, each addressed to the seats
that see it; a seat's `InformationSet` is the game's configuration, the seat, and the
observations addressed to it, in order. Nothing else reaches the solver or the bots.

The public methods of `State` do the checking once (game over, whose turn, legality) and leave
each game a few private hooks, as OpenSpiel and pgx do.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, TypeVar

Seat: TypeAlias = int | str
"""A seat: a small integer in multi-player games, a role name ("lupin", "killer") otherwise."""

JsonValue: TypeAlias = Any


class SleuthError(Exception):
    """The root of every error sleuth raises on purpose."""


class ConfigError(SleuthError, ValueError):
    """A game or bot was configured with an unknown option or a value it does not allow."""


class InvalidAction(SleuthError, ValueError):
    """Text that is not an action of this game (a syntax error), quoted in the message."""


class IllegalAction(SleuthError, ValueError):
    """A well-formed action the rules forbid now; the state is left unchanged."""


class InvalidState(SleuthError, ValueError):
    """JSON (or data) that is not a state the rules of this game can reach; the message names
    the field that is wrong and what it may be."""


class InvalidInformationSet(SleuthError, ValueError):
    """An information set that this game could not have produced: an unknown game, option,
    seat, observation kind, field or value; the message names it and what is allowed."""


def freeze(value: JsonValue) -> JsonValue:
    """Turn JSON-like data into hashable data: lists become tuples, dicts sorted item tuples."""
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    if isinstance(value, dict):
        raise TypeError("observation fields may not be dicts; use tuples of pairs")
    return value


def thaw(value: JsonValue) -> JsonValue:
    """The inverse of `freeze` for JSON output: tuples become lists."""
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


@dataclass(frozen=True)
class Observation:
    """One thing a seat saw happen: a kind and named fields of plain, hashable data.

    Observations are the only input of the solver, so each one is a small, self-describing
    record ("t3 showed Z at the toss") that an explanation can quote back to a person.
    """

    kind: str
    fields: tuple[tuple[str, JsonValue], ...] = ()

    @classmethod
    def of(cls, kind: str, **fields: JsonValue) -> Observation:
        """Build an observation from keyword fields (lists are frozen into tuples)."""
        return cls(kind, tuple((key, freeze(value)) for key, value in fields.items()))

    def __getitem__(self, key: str) -> JsonValue:
        for name, value in self.fields:
            if name == key:
                return value
        raise KeyError(f"observation {self.kind!r} has no field {key!r}")

    def get(self, key: str, default: JsonValue = None) -> JsonValue:
        for name, value in self.fields:
            if name == key:
                return value
        return default

    def to_dict(self) -> dict[str, JsonValue]:
        return {"kind": self.kind, "fields": [[key, thaw(value)] for key, value in self.fields]}

    @classmethod
    def from_dict(cls, data: Mapping[str, JsonValue]) -> Observation:
        return cls(data["kind"], tuple((key, freeze(value)) for key, value in data["fields"]))


@dataclass(frozen=True)
class InformationSet:
    """Everything one seat knows: the game's name and options, the seat, its observations.

    Two states that differ only in what this seat cannot know give equal information sets;
    the conformance tests check exactly that.
    """

    game: str
    options: tuple[tuple[str, JsonValue], ...]
    seat: Seat
    observations: tuple[Observation, ...]

    def make_game(self) -> Game:
        """The `Game` this information set belongs to, rebuilt from its name and options."""
        from engines import make

        return make(self.game, **dict(self.options))

    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.game,
                "options": [[key, thaw(value)] for key, value in self.options],
                "seat": self.seat,
                "observations": [obs.to_dict() for obs in self.observations],
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> InformationSet:
        data = json.loads(text)
        return cls(
            data["game"],
            tuple((key, freeze(value)) for key, value in data["options"]),
            data["seat"],
            tuple(Observation.from_dict(obs) for obs in data["observations"]),
        )

    def extended(self, *observations: Observation) -> InformationSet:
        """A new information set with `observations` appended (used by the assistant)."""
        return InformationSet(self.game, self.options, self.seat, self.observations + observations)


class Action:
    """Base of every game's actions: frozen dataclasses whose `str` is their typed notation.

    `game.parse_action(str(action)) == action` for every legal action; JSON stores the notation.
    """

    def to_json(self) -> str:
        return json.dumps(str(self))


def positive_int(value: JsonValue) -> bool:
    """An option check: a whole number above zero (True is not 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class Option:
    """A declared configuration switch of a game: its default and the values it allows."""

    name: str
    default: JsonValue
    allowed: tuple[JsonValue, ...] | None = None
    check: Callable[[JsonValue], bool] | None = None
    describe_allowed: str = ""
    doc: str = ""

    def validate(self, game: str, value: JsonValue) -> JsonValue:
        # Typed membership: `1 in (False, True)` is true in Python, but 1 is not a switch.
        allowed = self.allowed or ()
        if any(value == ok and type(value) is type(ok) for ok in allowed):
            return value
        if self.check is not None and self.check(value):
            return value
        raise ConfigError(
            f"{game}: option {self.name!r} cannot be {value!r}; allowed: {self.allowed_text()}"
        )

    def allowed_text(self) -> str:
        if self.describe_allowed:
            return self.describe_allowed
        return ", ".join(repr(value) for value in self.allowed or ())


@dataclass(frozen=True)
class Metadata:
    """What a game declares about itself, once (OpenSpiel's GameType, pgx's version)."""

    name: str
    title: str
    seats: str
    hidden: str
    version: int
    max_length: str = ""


StateT = TypeVar("StateT", bound="State")


class Game(ABC):
    """A configured game: the factory of states and the parser of actions.

    Subclasses declare `metadata` and `options` and implement `new_game`, `_state_from_dict`,
    `parse_action` and `describe`.
    """

    metadata: ClassVar[Metadata]
    options_spec: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: JsonValue) -> None:
        specs = {spec.name: spec for spec in self.options_spec}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            allowed = ", ".join(specs) or "none"
            raise ConfigError(
                f"{self.name}: unknown option {unknown[0]!r}; the options are: {allowed}"
            )
        self.options: dict[str, JsonValue] = {
            name: spec.validate(self.name, options.get(name, spec.default))
            for name, spec in specs.items()
        }
        self._check_options()

    def _check_options(self) -> None:  # noqa: B027 - an optional hook, not abstract
        """Hook: reject combinations of options that are each valid alone."""

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """The seats in order."""

    def option_items(self) -> tuple[tuple[str, JsonValue], ...]:
        return tuple(sorted((key, freeze(value)) for key, value in self.options.items()))

    @abstractmethod
    def new_game(self, seed: int | None = None) -> State:
        """A new game; all chance comes from `random.Random(seed)`."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action printed as `text`; raises `InvalidAction` quoting the text if none."""

    @abstractmethod
    def describe(self, observation: Observation) -> str:
        """One plain English sentence saying what `observation` records."""

    @abstractmethod
    def _state_from_dict(self, data: Mapping[str, JsonValue]) -> State:
        """Hook: rebuild a state from the game-specific part of its JSON."""

    def state_from_json(self, text: str) -> State:
        data = json.loads(text)
        if data.get("game") != self.name:
            raise ConfigError(f"JSON is a {data.get('game')!r} state, not {self.name!r}")
        if dict(freeze(data["options"])) != dict(self.option_items()):
            raise ConfigError(f"JSON state was made with other options: {data['options']!r}")
        state = self._state_from_dict(data["state"])
        version, words, gauss = data["rng"]
        state._rng.setstate((version, tuple(words), gauss))
        state._log = [
            (Observation.from_dict(obs), None if to is None else tuple(to))
            for obs, to in data["log"]
        ]
        return state

    def legal_actions_for(self, info: InformationSet) -> list[Action]:
        """The legal actions of the seat to move, from what that seat knows alone.

        Legality never depends on what the mover cannot see, so bots can list their moves
        from an information set. Raises ValueError if `info` is not the mover's.
        """
        raise NotImplementedError(f"{self.name} cannot list legal actions from an information set")

    def action_from_json(self, text: str) -> Action:
        return self.parse_action(json.loads(text))

    def seat_from_text(self, text: str) -> Seat:
        """The seat a person named (`"lupin"`, `"2"`); raises `ConfigError` listing the seats."""
        for seat in self.seats:
            if str(seat) == text.strip().lower():
                return seat
        raise ConfigError(
            f"{self.name}: no seat {text!r}; the seats are {', '.join(map(str, self.seats))}"
        )

    def __repr__(self) -> str:
        args = "".join(f", {key}={value!r}" for key, value in self.options.items())
        return f"engines.make({self.name!r}{args})"


def _rng_to_json(rng: random.Random) -> list[JsonValue]:
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


class State(ABC):
    """The whole truth of one game in progress. Mutable; `clone()` is cheap for search.

    Hidden data lives in underscore attributes; every seat's view is derived from the
    observation log, never stored apart from it.
    """

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self._rng = rng
        self._rng_shared = False
        self._log: list[tuple[Observation, tuple[Seat, ...] | None]] = []

    # --- what each game provides -------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> Seat | None:
        """The seat to act, or None when the game is over."""

    @property
    @abstractmethod
    def winners(self) -> tuple[Seat, ...]:
        """The winning seats once the game is over (several on a shared win), else ()."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Hook: the legal actions of `to_move`; called only while the game is running."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Hook: apply a legal action, emitting its observations."""

    @abstractmethod
    def _to_dict(self) -> dict[str, JsonValue]:
        """Hook: the game-specific part of the JSON, hidden fields included."""

    @abstractmethod
    def clone(self: StateT) -> StateT:
        """An independent copy."""

    def points(self, seat: Seat) -> float:
        """Hook: the seat's score as the game counts it (0 for games without points)."""
        return 0.0

    def summary(self, seat: Seat) -> dict[str, object]:
        """Hook: how the game went for `seat`, for arena reports (nothing by default)."""
        return {}

    def _why_illegal(self, action: Action) -> str:
        """Hook: why a well-formed action is not legal now (a game can be more specific)."""
        return f"{action} is not legal now"

    # --- the shared checking ------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self._legal_actions()

    def apply(self, action: Action) -> None:
        """Apply `action` for the seat to move.

        Raises:
            IllegalAction: the game is over, the action belongs to another game, or the rules
                forbid it now. The state is unchanged.
        """
        if self.is_over:
            raise IllegalAction(f"{action} is not possible: the game is over")
        if not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not an action; parse text with game.parse_action")
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        self._apply(action)

    def _illegal_reason(self, action: Action) -> str | None:
        """Hook: why `action` breaks the rules now, or None when it is legal.

        By default an action is legal when it is listed; a game whose legal actions are too
        many to list (Alibi's passes and card-list questions) checks them by structure here.
        """
        return None if action in self._legal_actions() else self._why_illegal(action)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action taken from `legal_actions()` without checking it again (for search)."""
        self._apply(action)

    def apply_text(self, text: str) -> Action:
        """Parse `text` and apply it; returns the action. Raises InvalidAction/IllegalAction."""
        action = self.game.parse_action(text)
        self.apply(action)
        return action

    # --- observations and information sets ---------------------------------------------
    def _emit(self, observation: Observation, to: Iterable[Seat] | None = None) -> None:
        """Record an observation for the seats `to` (everyone when None)."""
        self._log.append((observation, None if to is None else tuple(to)))

    def public_observations(self) -> tuple[Observation, ...]:
        """The observations every seat sees (what a spectator may be told)."""
        return tuple(obs for obs, to in self._log if to is None)

    def information_set(self, seat: Seat) -> InformationSet:
        if seat not in self.game.seats:
            raise ConfigError(
                f"{self.game.name}: no seat {seat!r}; the seats are {self.game.seats!r}"
            )
        seen = tuple(obs for obs, to in self._log if to is None or seat in to)
        return InformationSet(self.game.name, self.game.option_items(), seat, seen)

    # --- serialisation -------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(
            {
                "game": self.game.name,
                "version": self.game.metadata.version,
                "options": [[key, thaw(value)] for key, value in self.game.option_items()],
                "state": self._to_dict(),
                "rng": _rng_to_json(self._rng),
                "log": [[obs.to_dict(), None if to is None else list(to)] for obs, to in self._log],
            },
            sort_keys=True,
        )

    @property
    def rng(self) -> random.Random:
        """The chance source for draws during play (setup draws come from `new_game`'s RNG).

        Clones share one generator until either draws from it (copy-on-write), which keeps
        `clone()` cheap for search without letting one copy's draws change another's.
        """
        if self._rng_shared:
            own = random.Random()
            own.setstate(self._rng.getstate())
            self._rng, self._rng_shared = own, False
        return self._rng

    def _copy_core_into(self, other: State) -> None:
        """Give a clone its own log and a copy-on-write share of the RNG (for `clone`)."""
        other._rng = self._rng
        other._rng_shared = self._rng_shared = True
        other._log = list(self._log)
