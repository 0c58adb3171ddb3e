"""What a seat sees: observations (a kind and named fields), the typed kinds each game
declares, and a seat's information set, the only input of the solver and the bots."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, dataclass_transform

from engines import registry
from engines.errors import InvalidInformationSet
from engines.values import PLAIN_TYPES, JsonReader, JsonValue, Seat, freeze, is_int, load_json, thaw

if TYPE_CHECKING:
    from collections.abc import Mapping

    from engines.game import Game

_INFO = JsonReader(InvalidInformationSet, "information set")


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
        """By kind and fields, computed once (information sets, hashed as keys of caches,
        hash every observation of theirs each time)."""
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = hash((self.kind, self.fields))
            object.__setattr__(self, "_hash", found)
        return found

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


@dataclass_transform(frozen_default=True, eq_default=False)
class ObservationKind(Observation):
    """Base of a game's typed observation kinds. Each subclass is made a frozen dataclass
    here (equality left to `Observation`), so a kind declares only its fields, those of the
    stored form in its order, and its name in the class statement
    (`class Toss(ObservationKind, kind="toss")`). Field values are frozen (lists become
    tuples), so an instance equals, hashes and stores as the plain `Observation` of its kind
    and fields; `Game.observation_kinds` lists a game's kinds by name."""

    KIND: ClassVar[str] = ""
    _field_names: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            cls.KIND = kind
        dataclasses.dataclass(frozen=True, eq=False)(cls)

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
            if type(value) not in PLAIN_TYPES:
                object.__setattr__(self, name, freeze(value))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, name) for name in self.field_names()))

    def describe(self) -> str:
        """The kind in one plain sentence (`Game.describe`); every kind says its own."""
        raise NotImplementedError(f"{type(self).__name__} has no words")

    def text(self) -> str:
        """The kind as a person types it (`Game.observation_text`); every kind says its own."""
        raise NotImplementedError(f"{type(self).__name__} has no typed form")


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
        (the observations' text is each one's kept `json_text`)."""
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
        return registry.cached_game(self.game, self.options).observation_tensor(self)

    def extended(self, *observations: Observation) -> InformationSet:
        """A new information set with `observations` appended (used by the assistant)."""
        return InformationSet(self.game, self.options, self.seat, self.observations + observations)


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
        game = registry.cached_game(self.game, self.options)
        spectator = InformationSet(self.game, self.options, game.seats[0], self.observations)
        return game.observation_tensor(spectator)
