"""The shared core every game engine builds on.

A game is a `Game` (the configuration, validated once) that makes `State`s (the whole truth,
mutable, cheap to clone). Each applied `Action` emits `Observation`s, each addressed to the seats
that see it; a seat's `InformationSet` is the game's configuration, the seat, and the
observations addressed to it, in order. Nothing else reaches the solver or the bots.

The public methods of `State` do the checking once (game over, whose turn, legality) and leave
each game a few private hooks, as OpenSpiel and pgx do.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import reprlib
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, Self, TypeAlias, TypeVar

import numpy as np

from engines import registry
from engines.errors import (
    ConfigError,
    IllegalAction,
    InvalidAction,
    InvalidInformationSet,
    InvalidObservation,
    InvalidState,
    NotToMove,
    SleuthError,
)

if TYPE_CHECKING:
    from engines.deal import Dealer

Seat: TypeAlias = int | str
"""A seat: a small integer in multi-player games, a role name ("lupin", "killer") otherwise."""

JsonValue: TypeAlias = Any


QUOTE_LIMIT = 80


def _short_repr() -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxstring = short.maxother = QUOTE_LIMIT
    short.maxlist = short.maxtuple = 8
    return short


_SHORT = _short_repr()


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)` for an error message, at most `limit` characters (an ellipsis marks a cut),
    so that a megabyte of bad input does not become a megabyte of message."""
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def same_json(a: JsonValue, b: JsonValue) -> bool:
    """Equality that also compares types, so that True is not 1 and 1.0 is not 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    return bool(a == b)


def is_int(value: object) -> bool:
    """A whole number that is not a bool (True == 1 in Python, but True is not a number here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def one_of(value: object, allowed: Collection[Any]) -> bool:
    """Typed membership: `value` equals an allowed value of the same type (True is not 1)."""
    return any(type(value) is type(ok) and value == ok for ok in allowed)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def freeze(value: JsonValue) -> JsonValue:
    """Turn JSON-like data into hashable data: lists become tuples, dicts sorted item tuples."""
    if isinstance(value, (list, tuple)):
        if type(value) is tuple and _PLAIN.issuperset(map(type, value)):
            return value  # frozen already (Noir's grid rows, every step)
        return tuple([freeze(item) for item in value])
    if isinstance(value, dict):
        raise TypeError("observation fields may not be dicts; use tuples of pairs")
    return value


# --- reading JSON at the boundary ---------------------------------------------------------------
def load_json(text: object, error: type[SleuthError], what: str) -> JsonValue:
    """Parse `text`, raising `error` (a SleuthError) that quotes it when it is not JSON."""
    if not isinstance(text, str | bytes | bytearray):
        raise error(f"{what} must be JSON text, not {type(text).__name__} {quote(text)}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as problem:
        why = problem.msg if isinstance(problem, json.JSONDecodeError) else str(problem)
        raise error(f"{what} is not JSON ({why}): {quote(text)}") from None


class JsonReader:
    """Typed access to decoded JSON that raises one error class naming the path of a bad field.

    `reader.mapping(data, "state", keys)` checks an object has exactly `keys`; the other methods
    check one value and return it, so a loader reads as a list of what each field may be.
    """

    def __init__(self, error: type[SleuthError], what: str) -> None:
        self.error, self.what = error, what

    def fail(self, path: str, value: object, allowed: str) -> NoReturn:
        raise self.error(f"{self.what}: {path} cannot be {quote(value)}; allowed: {allowed}")

    def mapping(self, value: JsonValue, path: str, keys: Collection[str]) -> dict[str, JsonValue]:
        if not isinstance(value, dict):
            self.fail(path, value, f"an object with the keys {', '.join(sorted(keys))}")
        missing, extra = sorted(set(keys) - set(value)), sorted(set(value) - set(keys))
        if missing:
            raise self.error(f"{self.what}: {path} has no key {missing[0]!r}")
        if extra:
            raise self.error(f"{self.what}: {path} has an unknown key {quote(extra[0])}")
        return value

    def array(self, value: JsonValue, path: str, length: int | None = None) -> list[JsonValue]:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            self.fail(path, value, "a list" if length is None else f"a list of {length} items")
        return value

    def number(self, value: JsonValue, path: str, low: int = 0, high: int | None = None) -> int:
        if not is_int(value) or value < low or (high is not None and value > high):
            self.fail(path, value, f"a whole number from {low}" + (f" to {high}" if high else ""))
        return int(value)

    def flag(self, value: JsonValue, path: str) -> bool:
        if not isinstance(value, bool):
            self.fail(path, value, "true or false")
        return value

    def text(self, value: JsonValue, path: str) -> str:
        if not isinstance(value, str):
            self.fail(path, value, "a string")
        return value

    def choice(self, value: JsonValue, path: str, allowed: Collection[Any]) -> Any:
        if not one_of(value, allowed):
            self.fail(path, value, ", ".join(map(repr, allowed)))
        return value

    def choices(
        self, value: JsonValue, path: str, allowed: Collection[Any], distinct: bool = True
    ) -> list[Any]:
        """A list of allowed values (each once when `distinct`)."""
        items = self.array(value, path)
        for i, item in enumerate(items):
            self.choice(item, f"{path}[{i}]", allowed)
        if distinct and len(set(items)) != len(items):
            self.fail(path, value, "a list naming each value at most once")
        return items

    def pairs(self, value: JsonValue, path: str) -> list[tuple[str, JsonValue]]:
        """A list of [name, value] pairs with distinct string names (how fields are stored)."""
        pairs = []
        for i, pair in enumerate(self.array(value, path)):
            name, item = self.array(pair, f"{path}[{i}]", 2)
            pairs.append((self.text(name, f"{path}[{i}][0]"), self.plain(item, f"{path}[{i}][1]")))
        if len({name for name, _ in pairs}) != len(pairs):
            self.fail(path, value, "[name, value] pairs, each name once")
        return pairs

    def plain(self, value: JsonValue, path: str) -> JsonValue:
        """A JSON value without objects (observation fields are strings, numbers, lists)."""
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.plain(item, f"{path}[{i}]")
        elif value is not None and not isinstance(value, str | int | float | bool):
            self.fail(path, value, "a string, number, true, false, null or a list of them")
        return value


_INFO = JsonReader(InvalidInformationSet, "information set")


def thaw(value: JsonValue) -> JsonValue:
    """The inverse of `freeze` for JSON output: tuples become lists."""
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


class Observation:
    """One thing a seat saw happen: a kind and named fields of plain, hashable data.

    Observations are the only input of the solver, so each one is a small, self-describing
    record ("t3 showed Z at the toss") that an explanation can quote back to a person.

    Each game declares its kinds as typed subclasses (`ObservationKind`), which the engines
    emit and the other layers `match` on; a plain Observation is what JSON or a hand-built
    record holds until an information set reads it as its game's kind. Equality and hashing
    are by kind and fields, whichever class holds them, and immutable.
    """

    _kind: str
    _fields: tuple[tuple[str, JsonValue], ...]

    def __init__(self, kind: str, fields: tuple[tuple[str, JsonValue], ...] = ()) -> None:
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_fields", fields)

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def fields(self) -> tuple[tuple[str, JsonValue], ...]:
        return self._fields

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"an observation is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"an observation is immutable: cannot del {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self.kind == other.kind and self.fields == other.fields

    def __hash__(self) -> int:
        return hash((self.kind, self.fields))

    def __repr__(self) -> str:
        return f"Observation(kind={self.kind!r}, fields={self.fields!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Observation, (self.kind, self.fields))

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

    @cached_property
    def json_text(self) -> str:
        """`to_dict` as JSON, kept: an observation is immutable and shared by every clone of
        its state, so search writing information sets (OpenSpiel's keys) encodes it once."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: JsonValue, path: str = "observation") -> Observation:
        """The observation `to_dict` wrote; raises InvalidInformationSet naming a bad field.

        Only the structure is checked here (a kind, [name, value] pairs of plain JSON); what
        the fields must hold is each game's business (the solver checks it).
        """
        data = _INFO.mapping(data, path, ("kind", "fields"))
        kind = _INFO.text(data["kind"], f"{path}.kind")
        if not kind:
            _INFO.fail(f"{path}.kind", kind, "the name of a kind of observation")
        fields = _INFO.pairs(data["fields"], f"{path}.fields")
        return cls(kind, tuple((key, freeze(value)) for key, value in fields))


class ObservationKind(Observation):
    """Base of a game's typed observation kinds: frozen dataclasses
    (`@dataclass(frozen=True, eq=False)`), their fields those of the stored form, in its
    order, and the kind's name given in the class statement
    (`class Toss(ObservationKind, kind="toss")`). Field values are frozen (lists become
    tuples), so an instance equals, hashes and stores as the plain `Observation` of its kind
    and fields; `Game.observation_kinds` lists a game's kinds by name."""

    KIND: ClassVar[str] = ""
    _field_names: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            cls.KIND = kind

    @property
    def kind(self) -> str:
        return self.KIND

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The kind's fields, in their stored order (read once per class)."""
        names: tuple[str, ...] | None = cls.__dict__.get("_field_names")
        if names is None:
            names = tuple(field.name for field in dataclasses.fields(cls))  # type: ignore[arg-type]
            cls._field_names = names
        return names

    @cached_property
    def fields(self) -> tuple[tuple[str, JsonValue], ...]:
        return tuple((name, getattr(self, name)) for name in self.field_names())

    def __post_init__(self) -> None:
        for name in self.field_names():
            value = getattr(self, name)
            if type(value) not in _PLAIN:
                object.__setattr__(self, name, freeze(value))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, name) for name in self.field_names()))


class GameOver(ObservationKind):
    """Marks the kind of observation that says a game is over (how it ended, who won): what
    a recap tells, whatever the game."""


class MoveRecord(ObservationKind):
    """Marks the kind of observation that only records a move in its notation (Blue Lion's
    and City Killer's "act"): a narrator that has said the move leaves it out."""


Kinds: TypeAlias = "Mapping[str, tuple[type[ObservationKind], ...]]"
"""A game's typed kinds by name; a name may have several shapes (Noir's disguise that
failed has the card drawn, one that succeeded the identity given up), told apart by their
fields."""


def kinds_by_name(*kinds: type[ObservationKind]) -> dict[str, tuple[type[ObservationKind], ...]]:
    """A game's typed kinds by name (`Game.observation_kinds`)."""
    found: dict[str, tuple[type[ObservationKind], ...]] = {}
    for kind in kinds:
        found[kind.KIND] = (*found.get(kind.KIND, ()), kind)
    return found


def typed(observation: Observation, kinds: Kinds) -> Observation:
    """`observation` as its typed kind among `kinds`; unchanged when it already is one, when
    its kind is not among them, or when its fields are not that kind's, each once and in
    order (the game's validation then refuses it by name)."""
    if isinstance(observation, ObservationKind):
        return observation
    for kind in kinds.get(observation.kind, ()):
        try:
            read = kind(**dict(observation.fields))
        except TypeError:
            continue
        if read.fields == observation.fields:
            return read
    return observation


def _read_addressees(value: JsonValue) -> tuple[tuple[Seat, ...] | None, ...]:
    """The `addressees` of an information set's JSON: null or a list of seats, each."""
    found: list[tuple[Seat, ...] | None] = []
    for i, to in enumerate(_INFO.array(value, "addressees")):
        if to is not None:
            seats = _INFO.array(to, f"addressees[{i}]")
            if not all(is_int(seat) or isinstance(seat, str) for seat in seats):
                _INFO.fail(f"addressees[{i}]", to, "null or a list of seats")
            to = tuple(seats)
        found.append(to)
    return tuple(found)


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
    addressees: tuple[tuple[Seat, ...] | None, ...] | None = dataclasses.field(
        default=None, compare=False
    )
    """To whom the game addressed each observation, in order: None for every seat (public),
    else the seats it was shown to. None when unknown (observations typed in, or an
    information set made or extended by hand). Not compared: the rules fix them."""

    def __post_init__(self) -> None:
        if self.addressees is not None and len(self.addressees) != len(self.observations):
            object.__setattr__(self, "addressees", None)  # they no longer describe these
        if any(type(obs) is Observation for obs in self.observations):
            kinds = registry.observation_kinds(self.game)
            if kinds:
                read = tuple(typed(obs, kinds) for obs in self.observations)
                object.__setattr__(self, "observations", read)

    def private(self) -> tuple[bool, ...] | None:
        """Whether each observation was addressed to some seats only (None: unknown)."""
        if self.addressees is None:
            return None
        return tuple(to is not None for to in self.addressees)

    def make_game(self) -> Game:
        """The `Game` this information set belongs to, rebuilt from its name and options."""
        return registry.make(self.game, **dict(self.options))

    def to_json(self) -> str:
        """`json.dumps` of the addressees, game, observations, options and seat, keys sorted
        (the observations' text is each one's kept `_json`)."""
        addressees = ""
        if self.addressees is not None:
            addressees = f'"addressees": {json.dumps([thaw(to) for to in self.addressees])}, '
        options = json.dumps([[key, thaw(value)] for key, value in self.options], sort_keys=True)
        return (
            f'{{{addressees}"game": {json.dumps(self.game)}, '
            f'"observations": [{", ".join([obs.json_text for obs in self.observations])}], '
            f'"options": {options}, "seat": {json.dumps(self.seat)}}}'
        )

    @classmethod
    def from_json(cls, text: str) -> InformationSet:
        """The information set `to_json` wrote.

        Raises:
            InvalidInformationSet: not JSON, or not its structure (the message names the
                field); whether the game could have produced it is checked by the solver.
        """
        data = load_json(text, InvalidInformationSet, "information set")
        addressees = None
        if isinstance(data, dict) and "addressees" in data:
            data = dict(data)
            addressees = _read_addressees(data.pop("addressees"))
        data = _INFO.mapping(data, "information set", ("game", "options", "seat", "observations"))
        seat = data["seat"]
        if not (is_int(seat) or isinstance(seat, str)):
            _INFO.fail("seat", seat, "a seat number or a role name")
        observations = _INFO.array(data["observations"], "observations")
        return cls(
            _INFO.text(data["game"], "game"),
            tuple((key, freeze(value)) for key, value in _INFO.pairs(data["options"], "options")),
            seat,
            tuple(
                Observation.from_dict(obs, f"observations[{i}]")
                for i, obs in enumerate(observations)
            ),
            addressees,
        )

    def to_array(self) -> Any:
        """These observations as a float32 numpy array of the game's `observation_shape`,
        equal for every two states this seat cannot tell apart."""
        return _game_of(self.game, self.options).observation_tensor(self)

    def extended(self, *observations: Observation) -> InformationSet:
        """A new information set with `observations` appended (used by the assistant)."""
        return InformationSet(self.game, self.options, self.seat, self.observations + observations)


class Action:
    """Base of every game's actions: frozen dataclasses whose `str` is their typed notation.

    `game.parse_action(str(action)) == action` for every legal action; JSON stores the notation.
    """

    def to_json(self) -> str:
        return json.dumps(str(self))


@dataclass(frozen=True)
class Domain:
    """The values one field of an action may take, and how to say so to a person."""

    accepts: Callable[[Any], bool]
    allowed: str


def choice_domain(values: Collection[Any], allowed: str = "") -> Domain:
    """One of `values`, compared with its type (so True is not the seat 1)."""
    members, kinds = frozenset(values), frozenset(type(value) for value in values)
    return Domain(
        lambda value: type(value) in kinds and value in members,
        allowed or ", ".join(map(repr, values)),
    )


def cards_domain(item: Domain, sizes: Collection[int] | None = None, what: str = "") -> Domain:
    """A tuple of distinct values that `item` accepts, of one of the `sizes` when given."""

    def accepts(value: Any) -> bool:
        return (
            type(value) is tuple
            and (sizes is None or len(value) in sizes)
            and all(item.accepts(part) for part in value)
            and len(set(value)) == len(value)
        )

    count = "" if sizes is None else f"{' or '.join(map(str, sorted(sizes)))} "
    return Domain(accepts, what or f"a tuple of {count}distinct values, each {item.allowed}")


BOOL = Domain(lambda value: isinstance(value, bool), "True or False")
POSITIVE = Domain(lambda value: is_int(value) and value > 0, "a whole number from 1")


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


@dataclass(frozen=True)
class Setup:
    """How a state began: the arguments `arrange` was given (as JSON text, so nothing can
    change them) and the state of the RNG it was given. Clones share it.

    A state is its setup plus the actions applied since, so JSON stores both and loading
    replays them: a loaded state is always one the rules reach.
    """

    arguments: str
    rng: tuple[Any, ...]
    deal: tuple[JsonValue, ...] | None = None
    """The chance outcomes the game's deal drew to make these arguments (None when the
    arguments were given to `arrange` directly or replaced by a determinization)."""

    @classmethod
    def record(cls, rng: random.Random, **arguments: JsonValue) -> Setup:
        """The setup of a game `arrange` starts with `arguments` (JSON-able) and `rng`."""
        return cls(json.dumps(arguments, sort_keys=True), rng.getstate())

    def replaced(self, **arguments: JsonValue) -> Setup:
        """The same setup with some arguments changed (a determinization's hidden cards)."""
        return Setup(json.dumps({**self._arguments, **arguments}, sort_keys=True), self.rng)

    @cached_property
    def _arguments(self) -> dict[str, JsonValue]:
        """The arguments parsed once, only read (search replaces them once a sample)."""
        return self.to_dict()

    def dealt(self, outcomes: Sequence[JsonValue]) -> Setup:
        """The same setup, recorded as made by the deal that drew `outcomes`."""
        return dataclasses.replace(self, deal=tuple(outcomes))

    def to_dict(self) -> dict[str, JsonValue]:
        """The arguments, without the RNG."""
        arguments: dict[str, JsonValue] = json.loads(self.arguments)
        return arguments

    def to_json_value(self) -> dict[str, JsonValue]:
        """The arguments and, under "rng", the generator's state."""
        version, words, gauss = self.rng
        deal = {} if self.deal is None else {"deal": [thaw(o) for o in self.deal]}
        return {**self.to_dict(), "rng": [version, list(words), gauss], **deal}


StateT = TypeVar("StateT", bound="State")
T = TypeVar("T")
LogEntry: TypeAlias = "tuple[Observation, tuple[Seat, ...] | None]"


class Game(ABC, Generic[StateT]):
    """A configured game: the factory of its states (`StateT`) and the parser of actions.

    Subclasses (`class Noir(Game[NoirState])`) declare `metadata` and `options` and implement
    `_deal`, `arrange`, `_arrange_from_dict`, `parse_action` and `describe`.
    """

    metadata: ClassVar[Metadata]
    options_spec: ClassVar[tuple[Option, ...]] = ()
    observation_kinds: ClassVar[Kinds] = {}
    """The game's typed observation kinds by name (`kinds_by_name`): what an information set
    reads its plain observations as."""

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

    def _check_options(self) -> None:
        """Hook: reject combinations of options that are each valid alone."""

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """The seats in order."""

    def option_items(self) -> tuple[tuple[str, JsonValue], ...]:
        return self._option_items

    @cached_property
    def _option_items(self) -> tuple[tuple[str, JsonValue], ...]:
        """Made once (every information set carries them); options never change after
        `__init__` checks them."""
        return tuple(sorted((key, freeze(value)) for key, value in self.options.items()))

    def new_game(self, seed: int | None = None) -> StateT:
        """A new game; all chance comes from `random.Random(seed)` (the `_deal`'s draws
        sampled from it)."""
        return self._new_dealt(seed)

    @classmethod
    def of(cls, info: InformationSet) -> Self:
        """The game `info` belongs to (made once per name and options), as this class.

        Raises:
            InvalidInformationSet: `info` is another game's.
        """
        game = _game_of(info.game, info.options)
        if not isinstance(game, cls):
            raise InvalidInformationSet(
                f"an information set of {info.game!r}, not of {cls.metadata.name!r}"
            )
        return game

    def parse_action(self, text: str) -> Action:
        """The action printed as `text`.

        Raises:
            InvalidAction: `text` is not a string, or no action of this game is written so;
                the message quotes it (cut to about 80 characters) and says what is allowed.
        """
        if not isinstance(text, str):
            raise InvalidAction(
                f"{self.name}: an action is text, not {type(text).__name__} {quote(text)}"
            )
        return self._parse_action(text)

    @abstractmethod
    def _parse_action(self, text: str) -> Action:
        """Hook: the action printed as the string `text`, or InvalidAction quoting it."""

    @abstractmethod
    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        """Hook: every action class of this game, with the values each field may take."""

    def _action_problem(self, action: Action) -> str | None:
        """Hook: what is wrong with valid fields together (a row shifted up), or None."""
        return None

    @cached_property
    def _domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        domains = self._action_domains()
        for kind, fields in domains.items():
            assert dataclasses.is_dataclass(kind), kind
            assert set(fields) == {field.name for field in dataclasses.fields(kind)}, kind
        return domains

    def check_action(self, action: object) -> None:
        """Check an action built in code field by field, as the parser would have.

        `State.apply` calls it first, so a hand-built action never reaches the rules with a
        wrong type, an unknown card or a repeated one.

        Raises:
            InvalidAction: `action` is not an action of this game, or a field holds a value
                it may not; the message names the field and what is allowed.
        """
        domains = self._domains.get(type(action)) if isinstance(action, Action) else None
        if domains is None:
            kinds = ", ".join(kind.__name__ for kind in self._domains)
            what = "an action of another game" if isinstance(action, Action) else "not an action"
            raise InvalidAction(
                f"{self.name}: {quote(action)} is {what}; the actions of {self.name} are "
                f"{kinds} (or write one as text for game.parse_action)"
            )
        for name, domain in domains.items():
            value = getattr(action, name)
            if not domain.accepts(value):
                raise InvalidAction(
                    f"{self.name}: {type(action).__name__}.{name} cannot be {quote(value)}; "
                    f"allowed: {domain.allowed}"
                )
        assert isinstance(action, Action)
        problem = self._action_problem(action)
        if problem is not None:
            raise InvalidAction(f"{self.name}: {quote(action)}: {problem}")

    def check_seat(self, seat: object) -> Seat:
        """`seat` itself when it is a seat of this game (by type too: True is not seat 1).

        Raises:
            ConfigError: it is not; the message lists the seats.
        """
        if not one_of(seat, self.seats):
            raise ConfigError(
                f"{self.name}: no seat {quote(seat)}; the seats are "
                f"{', '.join(map(repr, self.seats))}"
            )
        assert isinstance(seat, int | str)
        return seat

    @abstractmethod
    def describe(self, observation: Observation) -> str:
        """One plain English sentence saying what `observation` records."""

    # --- typed observations (the assistant's notation) -----------------------------------
    def parse_entry(
        self, text: object, seat: object, before: Sequence[Observation] = ()
    ) -> tuple[Observation, ...]:
        """The observations one typed line records, as `seat` saw them.

        `before` is what the seat observed earlier; a line may leave out what follows from
        it (the grid after a shift, the round of an answer). One line may record several
        observations (a whole toss), so this returns a tuple.

        Raises:
            InvalidObservation: not text, empty, not this game's notation, a name that is not
                one (with "did you mean"), or something `seat` cannot have seen; or `before`
                is not a sequence of Observations this game could have made.
            ConfigError: `seat` is not a seat of this game.
        """
        seat = self.check_seat(seat)
        before = self._observations_before(before)
        if not isinstance(text, str):
            raise InvalidObservation(
                f"{self.name}: an entry is text, not {type(text).__name__} {quote(text)}"
            )
        if not text.strip():
            raise InvalidObservation(f"{self.name}: the entry is empty; type what you saw")
        return self._parse_entry(text.strip(), seat, before)

    def _observations_before(self, before: object) -> tuple[Observation, ...]:
        """`before` as a tuple, checked here so that no game's reader meets a wrong type."""
        if isinstance(before, InformationSet):
            raise InvalidObservation(
                f"{self.name}: `before` is the observations of an information set, not the "
                "set itself: pass info.observations"
            )
        if not isinstance(before, list | tuple):
            raise InvalidObservation(
                f"{self.name}: `before` is a list or tuple of engines.Observation, not "
                f"{type(before).__name__} {quote(before)}"
            )
        for i, item in enumerate(before):
            if not isinstance(item, Observation):
                raise InvalidObservation(
                    f"{self.name}: before[{i}] is {type(item).__name__} {quote(item)}, not an "
                    "engines.Observation"
                )
        return tuple(typed(item, self.observation_kinds) for item in before)

    def parse_observation(
        self, text: object, seat: object, before: Sequence[Observation] = ()
    ) -> Observation:
        """`parse_entry` for a line that records exactly one observation."""
        found = self.parse_entry(text, seat, before)
        if len(found) != 1:
            raise InvalidObservation(
                f"{self.name}: {quote(text)} records {len(found)} observations, not one"
            )
        return found[0]

    def observation_text(self, observation: Observation) -> str:
        """`observation` as a person types it; `parse_entry` reads it back (given the
        observations before it)."""
        return self._observation_text(observation)

    def notation_help(self) -> list[tuple[str, str]]:
        """Each form a person can type, with an example, and what it records."""
        return self._notation_help()

    def notation_words(self) -> list[str]:
        """The words of the notation (kinds, names) that Tab completes."""
        return self._notation_words()

    def _parse_entry(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        """Hook: the observations `text` records (stripped, non-empty)."""
        raise ConfigError(f"{self.name}: observations cannot be typed for this game yet")

    def _observation_text(self, observation: Observation) -> str:
        """Hook: the typed form of `observation`."""
        raise ConfigError(f"{self.name}: observations cannot be typed for this game yet")

    def _notation_help(self) -> list[tuple[str, str]]:
        """Hook: (form with an example, what it records), one per kind a person types."""
        return []

    def _notation_words(self) -> list[str]:
        """Hook: the words Tab completes."""
        return []

    @abstractmethod
    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> State:
        """Hook: `arrange(rng, ...)` with the arguments `Setup.to_dict` wrote, each read with
        `read` (which raises InvalidState naming the field); `arrange` refuses impossible
        setups (call it through `_arranged`)."""

    def _arranged(self, arrange: Callable[[], StateT], read: JsonReader) -> StateT:
        """`arrange()`, its refusal of an impossible setup said as a refusal of the JSON."""
        try:
            return arrange()
        except InvalidState as error:
            raise InvalidState(f"{read.what}: setup is not a possible start: {error}") from None

    def state_from_json(self, text: str) -> State:
        """The state `State.to_json` wrote, rebuilt by replaying its setup and actions.

        Every rule is checked by the replay itself, so a loaded state is one the rules reach;
        the derived fields ("state", "rng", "log") must then be exactly the replayed ones.

        Raises:
            InvalidState: `text` is not JSON; or not a state of this game, its version, its
                options; or a field is missing, unknown or holds a value it may not (the
                message names it and what is allowed); or the setup is impossible, an action
                cannot be replayed (the message names its index), or the derived fields differ
                from the replayed state's (the message names the first difference).
        """
        what = f"{self.name} state"
        read = JsonReader(InvalidState, what)
        data = load_json(text, InvalidState, what)
        if isinstance(data, dict) and "deal" in data and "setup" not in data:
            return self._dealing_from_json(read.mapping(data, "the state", _DEALING_KEYS), read)
        draws = None
        if isinstance(data, dict) and "draws" in data:
            data = dict(data)
            draws = read.array(data.pop("draws"), "draws")
            if not self.chance_in_play:
                read.fail("draws", draws, f"nothing: {self.name} draws nothing during play")
        data = read.mapping(data, "the state", _STATE_KEYS)
        if not same_json(data["game"], self.name):
            read.fail("game", data["game"], repr(self.name))
        if not same_json(data["version"], self.metadata.version):
            raise InvalidState(
                f"{what}: version {quote(data['version'])} cannot be read; this version of "
                f"sleuth reads {self.name} states of version {self.metadata.version}"
            )
        options = [[key, thaw(value)] for key, value in self.option_items()]
        if not same_json(data["options"], options):
            raise InvalidState(
                f"{what}: made with the options {quote(data['options'])}, not this game's "
                f"{quote(options)}; load it with engines.make({self.name!r}, **those options)"
            )
        state = self._replay(data["setup"], data["actions"], read, draws)
        for key, value in state._derived().items():
            # Equal texts are equal values, types included (True is "true", 1.0 is "1.0").
            expected = json.dumps(value, sort_keys=True)
            if json.dumps(data[key], sort_keys=True) != expected:
                difference = first_difference(data[key], json.loads(expected), key)
                raise InvalidState(
                    f"{what}: the state does not follow from its setup and actions: "
                    f"{difference or key}"
                )
        state.check_invariants()
        return state

    def _dealing_from_json(self, data: dict[str, JsonValue], read: JsonReader) -> State:
        """A state in the middle of its deal, from the draws made so far."""
        from engines.deal import Dealing

        if not same_json(data["game"], self.name):
            read.fail("game", data["game"], repr(self.name))
        options = [[key, thaw(value)] for key, value in self.option_items()]
        if not same_json(data["version"], self.metadata.version) or not same_json(
            data["options"], options
        ):
            read.fail("version/options", [data["version"], data["options"]], "this game's")
        if not self.explicit_chance:
            read.fail("deal", data["deal"], f"nothing: {self.name}'s deal has no chance nodes")
        outcomes = read.array(data["deal"], "deal")
        drawn = [freeze(read.plain(o, f"deal[{i}]")) for i, o in enumerate(outcomes)]
        try:
            return Dealing(self, drawn)
        except IllegalAction as error:
            raise InvalidState(f"{read.what}: deal cannot be replayed: {error}") from None

    def _replay(
        self,
        setup: JsonValue,
        actions: JsonValue,
        read: JsonReader,
        draws: Sequence[JsonValue] | None = None,
    ) -> State:
        """The state `setup` starts, after each of `actions` (notation) applied by the rules;
        with `draws`, play's chance outcomes are those (explicit chance) instead of the RNG's,
        and a last action whose draws they do not complete leaves a chance node."""
        if setup is None:
            raise InvalidState(
                f"{read.what}: setup cannot be null; only a state played from a start can be "
                "loaded (a view made from an information set has no setup)"
            )
        if not isinstance(setup, dict) or "rng" not in setup:
            read.fail("setup", setup, "an object of the arguments of arrange and 'rng'")
        rng = _rng_from_json(setup["rng"], read, "setup.rng")
        state = self._arrange_from_dict(
            {key: value for key, value in setup.items() if key not in ("rng", "deal")}, rng, read
        )
        if "deal" in setup:
            self._adopt_deal(state, read.array(setup["deal"], "setup.deal"), read)
        if draws is not None:
            state._given = [freeze(read.plain(o, f"draws[{i}]")) for i, o in enumerate(draws)]
        for i, notation in enumerate(read.array(actions, "actions")):
            try:
                state.apply(self.parse_action(read.text(notation, f"actions[{i}]")))
            except (InvalidAction, IllegalAction) as error:
                raise InvalidState(
                    f"{read.what}: actions[{i}] {quote(notation)} cannot be replayed: {error}"
                ) from None
        if state._given:
            raise InvalidState(
                f"{read.what}: draws has {len(state._given)} outcomes more than the actions draw"
            )
        return state

    def _adopt_deal(self, state: State, outcomes: list[JsonValue], read: JsonReader) -> None:
        """Record on `state` (just arranged from its setup) the deal that made it, after
        checking that those draws deal exactly that setup."""
        from engines.deal import replay_deal

        if not self.explicit_chance:
            read.fail("setup.deal", outcomes, f"nothing: {self.name}'s deal has no chance nodes")
        drawn = [freeze(read.plain(o, f"setup.deal[{i}]")) for i, o in enumerate(outcomes)]
        try:
            dealer, dealt, _ = replay_deal(self, drawn)
        except IllegalAction as error:
            raise InvalidState(f"{read.what}: setup.deal cannot be replayed: {error}") from None
        if dealt is None:
            raise InvalidState(f"{read.what}: setup.deal stops before the deal is complete")
        assert dealt._setup is not None and state._setup is not None
        if dealt._setup.arguments != state._setup.arguments:
            raise InvalidState(f"{read.what}: setup.deal does not deal the setup it is stored with")
        state._setup = state._setup.dealt([outcome for outcome, _ in dealer.drawn])
        state._chance = list(dealer.drawn)

    def legal_actions_for(self, info: InformationSet) -> list[Action]:
        """The legal actions of the seat to move, from what that seat knows alone.

        Legality never depends on what the mover cannot see, so bots can list their moves
        from an information set.

        Raises:
            ConfigError: `info.seat` is not a seat of this game.
            NotToMove: it is not that seat's turn, or the game is over.
        """
        seat = self.check_seat(info.seat)
        view = self.seat_view(info)
        if view.to_move is None:
            raise NotToMove(f"{self.name}: the game is over; seat {seat!r} has no move")
        if not one_of(view.to_move, (seat,)):
            raise NotToMove(f"{self.name}: it is seat {view.to_move!r}'s turn, not {seat!r}'s")
        return view.legal_actions()

    def seat_view(self, info: InformationSet) -> StateT:
        """Hook: a state agreeing with `info` on all that the seat's own legal actions depend
        on (the public record and the seat's own cards); the rest may be anything."""
        raise NotImplementedError(f"{self.name} cannot list legal actions from an information set")

    def action_from_json(self, text: str) -> Action:
        """The action `Action.to_json` wrote; InvalidAction if it is not one of this game."""
        return self.parse_action(load_json(text, InvalidAction, f"{self.name} action"))

    def seat_from_text(self, text: str) -> Seat:
        """The seat a person named (`"lupin"`, `"2"`); raises `ConfigError` listing the seats."""
        if isinstance(text, str):
            for seat in self.seats:
                if str(seat) == text.strip().lower():
                    return seat
        raise ConfigError(
            f"{self.name}: no seat {quote(text)}; the seats are {', '.join(map(str, self.seats))}"
        )

    def __repr__(self) -> str:
        args = "".join(f", {key}={value!r}" for key, value in self.options.items())
        return f"engines.make({self.name!r}{args})"

    # --- explicit chance (engines/deal.py) ------------------------------------------------
    explicit_chance: ClassVar[bool] = False
    """Whether the game's deal is written as `_deal`, so that `initial_state()` exposes
    each draw as a chance node (OpenSpiel's explicit stochastic games)."""

    def _deal(self, dealer: Dealer, rng: random.Random) -> StateT:
        """Hook: the game's deal, every random draw taken from `dealer` (each draw is one
        chance node), then `arrange`d with `rng` for play. `new_game(seed)` runs it with
        draws sampled from `random.Random(seed)`; `initial_state()` replays it one given
        outcome at a time."""
        raise ConfigError(f"{self.name}: the deal is not yet written as chance nodes")

    def _new_dealt(self, seed: int | None) -> StateT:
        """`new_game(seed)` for a game with a `_deal`: each draw picks uniformly among the
        listed outcomes with `rng.randrange`, as `random.Random`'s choice, shuffle and
        sample do, so seeds deal what they dealt before the deal was explicit."""
        from engines.deal import Dealer

        rng = random.Random(seed)

        def pick(outcomes: tuple[Any, ...], sample: Callable[[random.Random], Any] | None) -> Any:
            return sample(rng) if sample is not None else outcomes[rng.randrange(len(outcomes))]

        dealer = Dealer(pick)
        state = self._deal(dealer, rng)
        assert state._setup is not None
        state._setup = state._setup.dealt([outcome for outcome, _ in dealer.drawn])
        state._chance = list(dealer.drawn)
        return state

    def initial_state(self) -> State:
        """The game before its deal: a chance node (`state.is_chance`) whose outcomes are
        applied with `apply_chance`; after the last draw it is the dealt game itself.

        Raises:
            ConfigError: this game's deal is not yet written as chance nodes.
        """
        from engines.deal import Dealing

        if not self.explicit_chance:
            raise ConfigError(f"{self.name}: the deal is not yet written as chance nodes")
        return Dealing(self)

    @cached_property
    def chance_outcome_space(self) -> tuple[JsonValue, ...]:
        """Every outcome any chance node can have, in a fixed order (their ids)."""
        return self._chance_outcome_space()

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        """Hook: every chance outcome of the deal, each once."""
        raise ConfigError(f"{self.name}: the deal is not yet written as chance nodes")

    @cached_property
    def _chance_index(self) -> dict[tuple[type, JsonValue], int]:
        return {(type(o), o): i for i, o in enumerate(self.chance_outcome_space)}

    @property
    def max_chance_outcomes(self) -> int:
        return len(self.chance_outcome_space)

    def chance_outcome_id(self, outcome: JsonValue) -> int:
        """The id of a chance outcome; InvalidAction if no chance node of this game has it."""
        found = self._chance_index.get((type(outcome), outcome))
        if found is None:
            raise InvalidAction(f"{self.name}: {quote(outcome)} is no chance outcome of this game")
        return found

    def chance_outcome_from_id(self, outcome_id: int) -> JsonValue:
        space = self.chance_outcome_space
        if not is_int(outcome_id) or not 0 <= outcome_id < len(space):
            raise InvalidAction(
                f"{self.name}: chance outcome id {quote(outcome_id)} is not 0 to {len(space) - 1}"
            )
        return space[outcome_id]

    @cached_property
    def deal_length(self) -> int:
        """The number of draws in a deal (every deal of a game draws as often)."""
        from engines.deal import Dealer

        dealer = Dealer(lambda outcomes, sample: outcomes[0])
        self._deal(dealer, random.Random(0))
        return len(dealer.drawn)

    @cached_property
    def max_chance_nodes(self) -> int:
        """The most chance nodes a game has: its deal's, and those of play (bounded only
        when `max_game_length` is: options without that bound count the deal's alone)."""
        return self.deal_length + self._max_play_draws()

    chance_in_play: ClassVar[bool] = False
    """Whether chance also draws during play (Serial Killer's dice), as chance nodes at the
    moment of the draw (`State._chance_draw`, `engines.deal.Rolling`)."""

    def _max_play_draws(self) -> int:
        """Hook: the most draws a game's play can make (0 for games that draw only at the deal)."""
        return 0

    # --- a fixed action space ---------------------------------------------------------------
    def _action_universe(self) -> Sequence[Action]:
        """Hook: every action of this game, each once, in a fixed order: action `i` has the
        id `i`. A game whose actions are too many to list spells them as several choices
        instead (override `_action_ids`, `_action_from_ids` and `_num_distinct_actions`)."""
        raise ConfigError(f"{self.name}: the actions are not yet numbered")

    @cached_property
    def _universe(self) -> tuple[tuple[Action, ...], dict[Action, int]]:
        actions = tuple(self._action_universe())
        return actions, {action: i for i, action in enumerate(actions)}

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """Hook: the seats that see `action` (by `seat`) in full; None when all do."""
        return None

    def _num_distinct_actions(self) -> int:
        return len(self._universe[0])

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        found = self._universe[1].get(action)
        if found is None:
            raise InvalidAction(f"{self.name}: {action} has no id (it is never legal)")
        return (found,)

    def _action_from_ids(self, ids: tuple[int, ...]) -> Action:
        if len(ids) != 1:
            raise InvalidAction(f"{self.name}: every action is one id, not {len(ids)}")
        return self._universe[0][ids[0]]

    @cached_property
    def num_distinct_actions(self) -> int:
        """How many action ids there are: every id is 0 to this minus one, for given options."""
        return self._num_distinct_actions()

    max_action_choices: int = 1
    """The most ids one action is spelled with (1 unless the game factors its actions)."""

    def action_ids(self, action: Action) -> tuple[int, ...]:
        """The ids that spell `action`: one id, or for a game whose actions are too many to
        number (Alibi's passes and accusations) one small choice after another.

        Raises:
            InvalidAction: `action` is not an action of this game, or never legal.
        """
        self.check_action(action)
        return self._action_ids(action)

    def action_from_ids(self, ids: Sequence[int]) -> Action:
        """The action `action_ids` spells as `ids`; InvalidAction if they spell none."""
        ids = tuple(ids)
        top = self.num_distinct_actions
        if not ids or not all(is_int(i) and 0 <= i < top for i in ids):
            raise InvalidAction(
                f"{self.name}: action ids are one or more whole numbers from 0 to {top - 1}, "
                f"not {quote(ids)}"
            )
        return self._action_from_ids(ids)

    def action_id(self, action: Action) -> int:
        """The one id of `action`; InvalidAction if it is spelled by several (`action_ids`)."""
        ids = self.action_ids(action)
        if len(ids) != 1:
            raise InvalidAction(
                f"{self.name}: {action} is spelled by {len(ids)} choices {ids}; use action_ids"
            )
        return ids[0]

    def action_from_id(self, action_id: int) -> Action:
        return self.action_from_ids((action_id,))

    def choice_text(self, choice: int) -> str:
        """What one id means, for a person (an action, or a part of a spelled one)."""
        return str(self.action_from_id(choice))

    # --- seats, returns, bounds --------------------------------------------------------------
    @cached_property
    def _seat_indices(self) -> dict[tuple[type, Seat], int]:
        return {(type(seat), seat): i for i, seat in enumerate(self.seats)}

    def seat_index(self, seat: Seat) -> int:
        """The seat's place in `seats` (0 for the first): the integer adapters use.

        Raises:
            ConfigError: `seat` is not a seat of this game.
        """
        found = self._seat_indices.get((type(seat), seat))
        return self.seats.index(self.check_seat(seat)) if found is None else found

    @property
    def min_utility(self) -> float:
        """The lowest value of `State.returns()` (a loss)."""
        return -1.0

    @property
    def max_utility(self) -> float:
        """The highest value of `State.returns()` (a win alone)."""
        return float(len(self.seats) - 1)

    @cached_property
    def zero_sum(self) -> bool:
        """Whether the returns always sum to 0 (not when a game may end with nobody winning)."""
        return not type(self.new_game(0)).may_end_unwon

    @property
    def max_game_length(self) -> int | None:
        """The most actions a game can last (None: no bound, so adapters refuse the options)."""
        return None

    # --- tensors ------------------------------------------------------------------------------
    @cached_property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of `info.to_array()` for every information set of this game."""
        return self._observation_shape()

    def _observation_shape(self) -> tuple[int, ...]:
        """Hook: the shape of `_encode`'s output."""
        raise ConfigError(f"{self.name}: information sets cannot yet be made tensors")

    def _encode(self, info: InformationSet) -> Sequence[float]:
        """Hook: `info` as numbers (flat), from what the seat knows alone (public and its own)."""
        raise ConfigError(f"{self.name}: information sets cannot yet be made tensors")

    def observation_tensor(self, info: InformationSet) -> Any:
        """`info` as a float32 numpy array of `observation_shape` (all zeros before the deal
        is complete, when a seat has observed nothing)."""
        if not info.observations:
            return np.zeros(self.observation_shape, dtype=np.float32)
        return np.asarray(self._encode(info), dtype=np.float32).reshape(self.observation_shape)


_STATE_KEYS = ("game", "version", "options", "setup", "actions", "state", "rng", "log")
_DEALING_KEYS = ("game", "version", "options", "deal")


def first_difference(given: JsonValue, expected: JsonValue, path: str) -> str | None:
    """The path of the first place where decoded JSON `given` differs from `expected` (types
    compared too: True is not 1), said with both values; None when they are the same."""
    if type(given) is type(expected):
        if isinstance(given, dict):
            for key in sorted(given.keys() | expected.keys()):
                if key not in given or key not in expected:
                    return f"{path}.{key} is {'missing' if key not in given else 'unexpected'}"
                found = first_difference(given[key], expected[key], f"{path}.{key}")
                if found is not None:
                    return found
            return None
        if isinstance(given, list):
            for i, (a, b) in enumerate(zip(given, expected, strict=False)):
                found = first_difference(a, b, f"{path}[{i}]")
                if found is not None:
                    return found
            if len(given) == len(expected):
                return None
            return f"{path} has {len(given)} items, not {len(expected)}"
        if given == expected:
            return None
    return f"{path} is {quote(given)}, not {quote(expected)}"


def _rng_to_json(rng: random.Random) -> list[JsonValue]:
    version, words, gauss = rng.getstate()
    return [version, list(words), gauss]


def _rng_from_json(value: JsonValue, read: JsonReader, path: str = "rng") -> random.Random:
    """The generator `_rng_to_json` wrote: [3, 624 words and a position, the spare gauss]."""
    version, words, gauss = read.array(value, path, 3)
    read.choice(version, f"{path}[0]", (3,))
    words = read.array(words, f"{path}[1]", 625)
    if not all(type(word) is int and 0 <= word < 2**32 for word in words):
        read.fail(f"{path}[1]", words, "624 whole numbers from 0 to 2**32 - 1, then 0 to 624")
    read.number(words[-1], f"{path}[1][624]", 0, 624)
    if not (gauss is None or type(gauss) is float):
        read.fail(f"{path}[2]", gauss, "null or a number")
    rng = random.Random()
    try:
        rng.setstate((version, tuple(words), gauss))
    except (ValueError, TypeError, OverflowError) as error:
        read.fail(path, value, f"a state of Python's random.Random ({error})")
    return rng


_CONTAINERS = frozenset({list, dict, set, deque})
_CORE_FIELDS = frozenset({"_log", "_actions", "_movers", "_chance", "_draws", "_given"})
"""What `State._copy_core_into` copies itself (the log only grows, so its entries are shared)."""


def fresh(value: Any) -> Any:
    """A copy of a container and of every container inside it; other values are shared."""
    kind = type(value)
    if kind is list:
        if _CONTAINERS.isdisjoint(map(type, value)):
            return value.copy()
        return [fresh(item) if type(item) in _CONTAINERS else item for item in value]
    if kind is dict:
        if _CONTAINERS.isdisjoint(map(type, value.values())):
            return value.copy()
        return {k: fresh(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is set:
        return set(value)
    if kind is deque:
        return deque((fresh(item) for item in value), value.maxlen)
    return value


class State(ABC):
    """The whole truth of one game in progress. Mutable; `clone()` is cheap for search.

    Hidden data lives in underscore attributes; every seat's view is derived from the
    observation log, never stored apart from it.
    """

    may_end_unwon: ClassVar[bool] = False
    """Whether a game can end with no seat winning (Serial Killer: the killer wins, or all
    players lose together); other games name their winners whenever they end."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self._rng = rng
        self._rng_shared = False
        self._log: list[tuple[Observation, tuple[Seat, ...] | None]] = []
        self._log_summary: tuple[int, object, Any] | None = None
        self._setup: Setup | None = None  # None only for a view made by `Game.seat_view`
        self._actions: list[Action] = []  # applied since the setup, in order
        self._movers: list[Seat] = []  # who applied each of them
        self._chance: list[tuple[JsonValue, tuple[Seat, ...] | None]] = []  # the deal's draws
        # Chance during play: each draw with the index of the action it belongs to and the
        # seats that see it; `_given` holds the outcomes still to come when chance is
        # explicit (a state dealt from `Game.initial_state`), None when the RNG draws.
        self._draws: list[tuple[int, JsonValue, tuple[Seat, ...] | None]] = []
        self._given: list[JsonValue] | None = None

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

    def clone(self) -> Self:
        """An independent copy, written once for every game: each container the state holds
        (list, dict, set, deque, nested) is copied and everything else is shared, because a
        state's other values are immutable (numbers, strings, tuples, frozen actions and
        observations) or shared on purpose (the game, the setup). A new field needs nothing."""
        other = object.__new__(type(self))
        values = self.__dict__.copy()
        for name, value in values.items():
            if type(value) in _CONTAINERS and name not in _CORE_FIELDS:
                values[name] = fresh(value)
        other.__dict__ = values
        self._copy_core_into(other)
        return other

    def points(self, seat: Seat) -> float:
        """Hook: the seat's score as the game counts it (0 for games without points)."""
        return 0.0

    def summary(self, seat: Seat) -> dict[str, object]:
        """Hook: how the game went for `seat`, for arena reports (nothing by default)."""
        return {}

    def _why_illegal(self, action: Action) -> str:
        """Hook: why a well-formed action is not legal now (a game can be more specific)."""
        return f"{action} is not legal now"

    def _broken_invariants(self) -> list[str]:
        """Hook: each rule invariant this state breaks, in words (none: an empty list).

        Called after every move by the soak benchmark, so it must be cheap next to `apply`.
        """
        return []

    def _summarise_log(self, fold: Callable[[T, LogEntry], T], initial: T) -> T:
        """`fold` over the log, resumed from where the last call stopped.

        The log only grows (entries are never rewritten), so checking invariants after every
        move costs the new entries, not the whole game. `fold` must return a new value.
        """
        log, cached = self._log, self._log_summary
        done, summary = 0, initial
        if cached is not None and 0 < cached[0] <= len(log) and log[cached[0] - 1] is cached[1]:
            done, summary = cached[0], cached[2]
        for entry in log[done:]:
            summary = fold(summary, entry)
        if log:
            self._log_summary = (len(log), log[-1], summary)
        return summary

    # --- the shared checking ------------------------------------------------------------
    def check_invariants(self) -> None:
        """Check what the published rules imply about any reachable state.

        Raises:
            InvalidState: the state breaks an invariant; the message lists each one broken.
        """
        broken = self._broken_core_invariants() or self._broken_invariants()
        if broken:
            raise InvalidState(
                f"{self.game.name}: not a state the rules can reach: {'; '.join(broken)}"
            )

    def _broken_core_invariants(self) -> list[str]:
        """What every game shares: the mover is a seat; a game is over exactly when it has
        winners (unless it `may_end_unwon`), each a seat once."""
        seats, winners, mover = self.game.seats, self.winners, self.to_move
        broken = []
        if mover is not None and not one_of(mover, seats):
            broken.append(f"the seat to move {quote(mover)} is not a seat")
        if (mover is None) != bool(winners) and not (mover is None and self.may_end_unwon):
            broken.append("a game is over exactly when it names its winners")
        if winners and (
            len(set(winners)) != len(winners) or not all(one_of(w, seats) for w in winners)
        ):
            broken.append(f"the winners {quote(winners)} are not distinct seats")
        return broken

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self._legal_actions()

    def apply(self, action: Action) -> None:
        """Apply `action` for the seat to move.

        Raises:
            InvalidAction: `action` is not an action of this game, or one of its fields holds
                a value it may not (see `Game.check_action`).
            IllegalAction: the game is over, or the rules forbid the action now.
            Either way the state is unchanged.
        """
        self.game.check_action(action)
        if self.is_over:
            raise IllegalAction(f"{action} is not possible: the game is over")
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_trusted(action)

    def _illegal_reason(self, action: Action) -> str | None:
        """Hook: why `action` breaks the rules now, or None when it is legal.

        By default an action is legal when it is listed; a game whose legal actions are too
        many to list (Alibi's passes and card-list questions) checks them by structure here.
        """
        return None if action in self._legal_actions() else self._why_illegal(action)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action taken from `legal_actions()` without checking it again (for search).

        With explicit chance in play, an action whose draws have no outcome yet leaves a
        chance node (`engines.deal.Rolling`) that turns into the state after the action once
        its outcomes are applied."""
        mover = self.to_move
        assert mover is not None
        if self._given is not None and self.game.chance_in_play:
            from engines.deal import Rolling

            Rolling.start(self, action, mover)
            return
        self._apply(action)
        self._actions.append(action)
        self._movers.append(mover)

    def _chance_draw(
        self,
        outcomes: Sequence[JsonValue],
        seen_by: tuple[Seat, ...] | None = None,
        weights: Sequence[float] | None = None,
        sample: Callable[[random.Random], JsonValue] | None = None,
    ) -> JsonValue:
        """One chance draw during play among `outcomes` (distinct), equally likely unless
        `weights` (probabilities, summing to 1) are given. With explicit chance it is the
        next outcome given, or a chance node when none is; otherwise the RNG draws it, with
        `sample` when given (so that a game draws as it drew before the draw was explicit),
        else as `outcomes[rng.randrange(len(outcomes))]`."""
        given = self._given
        if given is None:
            rng = self.rng
            outcome = sample(rng) if sample is not None else outcomes[rng.randrange(len(outcomes))]
        elif given:
            outcome = given.pop(0)
            if not one_of(outcome, outcomes):
                raise IllegalAction(
                    f"{self.game.name}: {quote(outcome)} is not an outcome of this draw; "
                    f"allowed: {quote(list(outcomes))}"
                )
        else:
            from engines.deal import PendingDraw

            raise PendingDraw(tuple(outcomes), weights, seen_by)
        self._draws.append((len(self._actions), outcome, seen_by))
        return outcome

    def apply_text(self, text: str) -> Action:
        """Parse `text` and apply it; returns the action. Raises InvalidAction/IllegalAction."""
        action = self.game.parse_action(text)
        self.apply(action)
        return action

    # --- observations and information sets ---------------------------------------------
    def _emit(self, observation: Observation, to: Iterable[Seat] | None = None) -> None:
        """Record an observation for the seats `to` (everyone when None)."""
        self._log.append((observation, None if to is None else tuple(to)))

    @property
    def observation_count(self) -> int:
        """How many observations the state has recorded, for any seat (the log only grows)."""
        return len(self._log)

    def recorded(self, start: int = 0) -> list[LogEntry]:
        """The observations recorded from index `start` on, each with the seats it is shown
        to (None: everyone): what `information_set` filters, for readers that follow the
        log as it grows."""
        return self._log[start:]

    def public_observations(self) -> tuple[Observation, ...]:
        """The observations every seat sees (what a spectator may be told)."""
        return tuple(obs for obs, to in self._log if to is None)

    def information_set(self, seat: Seat) -> InformationSet:
        """What `seat` knows; ConfigError unless it is a seat of this game (True is not 1)."""
        self.game.check_seat(seat)
        log = [(obs, to) for obs, to in self._log if to is None or seat in to]
        seen = tuple(obs for obs, _ in log)
        addressees = tuple(to for _, to in log)
        return InformationSet(self.game.name, self.game.option_items(), seat, seen, addressees)

    # --- serialisation -------------------------------------------------------------------
    def to_json(self) -> str:
        """The setup and the actions (what `Game.state_from_json` replays), then the current
        state, the RNG and the observation log derived from them, for readers."""
        return json.dumps(
            {
                "game": self.game.name,
                "version": self.game.metadata.version,
                "options": [[key, thaw(value)] for key, value in self.game.option_items()],
                "setup": None if self._setup is None else self._setup.to_json_value(),
                "actions": [str(action) for action in self._actions],
                **self._explicit_draws(),
                **self._derived(),
            },
            sort_keys=True,
        )

    def _explicit_draws(self) -> dict[str, JsonValue]:
        """Play's chance outcomes, for JSON, when they were given (explicit chance) rather
        than drawn from the RNG (which the setup stores)."""
        if self._given is None or not self.game.chance_in_play:
            return {}
        return {"draws": [thaw(outcome) for _, outcome, _ in self._draws]}

    def _derived(self) -> dict[str, JsonValue]:
        """What follows from the setup and the actions: the state, the RNG, the log."""
        return {
            "state": self._to_dict(),
            "rng": _rng_to_json(self._rng),
            "log": [[obs.to_dict(), None if to is None else list(to)] for obs, to in self._log],
        }

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
        """Give a clone its own log and actions, the same setup, and a copy-on-write share of
        the RNG (for `clone`)."""
        other._rng = self._rng
        other._rng_shared = self._rng_shared = True
        other._log = list(self._log)
        other._setup = self._setup
        other._actions = list(self._actions)
        other._movers = list(self._movers)
        other._chance = self._chance  # the deal is over: never changed again
        other._draws = list(self._draws)
        other._given = None if self._given is None else list(self._given)

    # --- explicit chance, history, returns, undo (what adapters need) ------------------------
    @property
    def is_chance(self) -> bool:
        """Whether chance moves next: during the deal (`Game.initial_state`), and with
        explicit chance during play in a game that draws then (`Game.chance_in_play`)."""
        return False

    def chance_outcomes(self) -> list[tuple[JsonValue, float]]:
        """Each outcome of the chance node with its probability (they sum to 1).

        Raises:
            IllegalAction: this is not a chance node.
        """
        raise IllegalAction(f"{self.game.name}: no chance node here; a seat is to move")

    def apply_chance(self, outcome: JsonValue) -> None:
        """Apply one outcome of the chance node. Raises IllegalAction if it is not one."""
        raise IllegalAction(f"{self.game.name}: no chance node here; a seat is to move")

    def history(self) -> list[Step]:
        """Every chance outcome, then every action, applied since the start, each with the
        seats that see it in full."""
        game = self.game
        steps = [Step(None, outcome, seen) for outcome, seen in self._chance]
        draws, d = self._draws, 0
        for i, (seat, action) in enumerate(zip(self._movers, self._actions, strict=True)):
            steps.append(Step(seat, action, game._action_seen_by(action, seat)))
            while d < len(draws) and draws[d][0] == i:
                steps.append(Step(None, draws[d][1], draws[d][2]))
                d += 1
        steps += [Step(None, outcome, seen) for _, outcome, seen in draws[d:]]
        return steps

    def public_information_set(self) -> PublicInformationSet:
        """What every seat (and a spectator) knows: the public observations."""
        return PublicInformationSet(
            self.game.name, self.game.option_items(), self.public_observations()
        )

    def returns(self) -> tuple[float, ...]:
        """Each seat's result in seat order: 0 while the game runs; then, with k winners
        among n seats, n/k - 1 to each winner and -1 to the others (zero-sum: a win alone in
        a two-seat game is +1/-1, a shared win 0/0)."""
        seats, winners = self.game.seats, self.winners
        if not self.is_over:
            return tuple(0.0 for _ in seats)
        share = len(seats) / len(winners) if winners else 0.0
        return tuple(share - 1.0 if one_of(seat, winners) else -1.0 for seat in seats)

    def spelled_actions(self) -> dict[tuple[int, ...], Action]:
        """Each legal action by the ids that spell it (`Game.action_ids`; legal actions are
        valid, so they are not checked again)."""
        ids = self.game._action_ids
        return {ids(action): action for action in self.legal_actions()}

    def legal_choices(self, prefix: Sequence[int] = ()) -> list[int]:
        """The ids that may follow `prefix` in spelling a legal action (`Game.action_ids`),
        sorted; with no prefix, the first id of every legal action."""
        prefix, n = tuple(prefix), len(prefix)
        spelled = self.spelled_actions()
        return sorted({ids[n] for ids in spelled if len(ids) > n and ids[:n] == prefix})

    def _become(self, other: State) -> None:
        """Turn into `other` in place (its class and fields), so that callers holding this
        object see the change, as with OpenSpiel states: a deal's last draw turns a
        `Dealing` into the game's own state, and `undo` may turn it back."""
        self.__class__ = other.__class__
        self.__dict__ = other.__dict__

    def undo(self) -> None:
        """Take back the last action or chance outcome, restoring the exact earlier state
        (its JSON too). It replays the game from its setup, so it costs a whole game. When
        play's draws come from the RNG (`new_game`) an action goes with its draws; with
        explicit chance the last draw is taken back alone, leaving its chance node.

        Raises:
            IllegalAction: nothing was applied since the start (a state made by `arrange`
                starts after its deal), or the state is a view with no setup.
        """
        from engines.deal import Dealing

        if self._actions:
            setup = self._setup
            if setup is None:
                raise IllegalAction(f"{self.game.name}: a view made from an information set "
                                    "has no setup to replay, so it cannot undo")  # fmt: skip
            read = JsonReader(InvalidState, f"{self.game.name} state")
            actions = [str(action) for action in self._actions]
            explicit = self._explicit_draws().get("draws")
            if explicit is None:
                # the RNG draws: the last action goes with its draws
                self._become(self.game._replay(setup.to_json_value(), actions[:-1], read))
                return
            last = len(actions) - 1
            if self._draws and self._draws[-1][0] == last:
                explicit = explicit[:-1]  # the last step is a draw of the last action
            else:
                actions = actions[:-1]
            self._become(self.game._replay(setup.to_json_value(), actions, read, explicit))
        elif self._chance:
            self._become(Dealing(self.game, [outcome for outcome, _ in self._chance[:-1]]))
        else:
            raise IllegalAction(f"{self.game.name}: nothing to undo; the game is at its start")

    # --- copies: deepcopy is clone(), pickle is to_json() -----------------------------------
    def __copy__(self) -> State:
        """A shallow copy (what `copy.copy` gave before pickling was defined)."""
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game's name and options and its JSON (loaded by replaying it)."""
        return (_state_from_pickle, (self.game.name, self.game.option_items(), self.to_json()))


@dataclass(frozen=True)
class Step:
    """One entry of `State.history()`: who moved (None: chance), what (an Action or a
    chance outcome), and the seats that see it in full (None: every seat)."""

    seat: Seat | None
    value: Any
    seen_by: tuple[Seat, ...] | None


@dataclass(frozen=True)
class PublicInformationSet:
    """What every seat knows: the game's name and options and the public observations."""

    game: str
    options: tuple[tuple[str, JsonValue], ...]
    observations: tuple[Observation, ...]

    def to_array(self) -> Any:
        """The public record as a float32 numpy array of the game's `observation_shape`:
        what the first seat's tensor would be had it seen no private observation (each
        feature of a seat's own knowledge empty), so the same for every seat and spectator
        and equal for every two states with the same public record."""
        game = _game_of(self.game, self.options)
        spectator = InformationSet(self.game, self.options, game.seats[0], self.observations)
        return game.observation_tensor(spectator)


@functools.lru_cache(maxsize=64)
def _game_of(name: str, options: tuple[tuple[str, JsonValue], ...]) -> Game:
    """The game an information set belongs to (`make_game`), made once per name and options."""
    return registry.make(name, **dict(options))


def _state_from_pickle(name: str, options: tuple[tuple[str, JsonValue], ...], text: str) -> State:
    return _game_of(name, options).state_from_json(text)
