"""The solver's boundary: an information set is checked once, before any model is built.

`validate(info)` checks the shape every game shares (an `InformationSet` of a known game, its
options valid, its seat one of the game's seats, its observations a tuple of `Observation`s of
plain hashable data), then hands over to the game's knowledge module, whose `validate(info)`
checks each observation's kind, fields and values against the game and its options. Everything
an information set may get wrong raises `engines.InvalidInformationSet`, naming the
observation, the field and what is allowed; inside the solver the types are trusted.

Observations that are each well formed but contradict one another about the hidden facts are
not refused here: the solver finds them and raises `solver.Inconsistent` with a minimal
conflict, which a person at a table can act on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable, Mapping
from typing import NoReturn, cast

import engines
from engines import ConfigError, Game, InformationSet, InvalidInformationSet, Observation
from engines.observations import Kinds, ObservationKind
from engines.values import is_int, quote
from solver.games import knowledge_for


def validate(info: object) -> InformationSet:
    """`info`, checked: the shared shape here, then its game's own `validate`.

    Raises:
        InvalidInformationSet: naming what is wrong and what is allowed.
    """
    with _VALIDATED_LOCK:  # this very object passed (an equal one may differ in types: 1.0)
        if any(info is seen for seen in _VALIDATED.values()):
            return info  # type: ignore[return-value]
    if not isinstance(info, InformationSet):
        raise InvalidInformationSet(
            f"expected an engines.InformationSet, not {type(info).__name__} {quote(info)}"
        )
    game = _game(info)
    if not any(info.seat == seat and type(info.seat) is type(seat) for seat in game.seats):
        raise InvalidInformationSet(
            f"{info.game}: seat {quote(info.seat)} is not a seat of this game; "
            f"the seats are {', '.join(map(repr, game.seats))}"
        )
    if not isinstance(info.observations, tuple):
        raise InvalidInformationSet(
            f"{info.game}: observations must be a tuple of engines.Observation, "
            f"not {type(info.observations).__name__}"
        )
    for index, obs in enumerate(info.observations):
        _check_observation(info.game, index, obs)
    key = repr(info)  # the shape is sound: plain data, whose repr tells True from 1
    with _VALIDATED_LOCK:
        if key in _VALIDATED:
            return info
    knowledge_for(info.game).validate(info)  # every knowledge module defines it
    with _VALIDATED_LOCK:
        _VALIDATED[key] = info
        while len(_VALIDATED) > VALIDATED_KEPT:
            _VALIDATED.popitem(last=False)
    return info


_VALIDATED: OrderedDict[str, InformationSet] = OrderedDict()  # by repr, oldest first
_VALIDATED_LOCK = threading.Lock()
VALIDATED_KEPT = 8
"""Information sets that passed their game's check lately: deduce, hints and the assistant
each validate the same record, and a game's check may replay the whole game."""


def _game(info: InformationSet) -> Game:
    """The game `info` names, made with its options."""
    if not isinstance(info.game, str) or info.game not in engines.names():
        raise InvalidInformationSet(
            f"unknown game {quote(info.game)}; the games are: {', '.join(engines.names())}"
        )
    options = info.options
    if not isinstance(options, tuple) or not all(
        isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) for pair in options
    ):
        raise InvalidInformationSet(
            f"{info.game}: options must be a tuple of (name, value) pairs, not {quote(options)}"
        )
    if len({name for name, _ in options}) != len(options):
        raise InvalidInformationSet(f"{info.game}: an option is given twice in {quote(options)}")
    if not all(_plain(value) for _, value in options):
        raise InvalidInformationSet(
            f"{info.game}: options must hold plain values: {quote(options)}"
        )
    try:
        return info.make_game()
    except ConfigError as error:
        raise InvalidInformationSet(f"information set options: {error}") from None


def _plain(value: object) -> bool:
    """Hashable JSON-like data: strings, numbers, booleans, None and tuples of them."""
    if isinstance(value, tuple):
        return all(_plain(item) for item in value)
    return value is None or isinstance(value, str | int | float | bool)


def _check_observation(game: str, index: int, obs: object) -> None:
    if not isinstance(obs, Observation):
        raise InvalidInformationSet(
            f"{game}: observation {index} is {type(obs).__name__} {quote(obs)}, "
            "not an engines.Observation"
        )
    if not isinstance(obs.kind, str) or not isinstance(obs.fields, tuple):
        raise InvalidInformationSet(f"{game}: observation {index} is malformed: {quote(obs)}")
    names = []
    for pair in obs.fields:
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
            raise InvalidInformationSet(
                f"{game}: observation {index} ({obs.kind}): fields must be (name, value) "
                f"pairs, not {quote(pair)}"
            )
        if not _plain(pair[1]):
            raise InvalidInformationSet(
                f"{game}: observation {index} ({obs.kind}): field {pair[0]!r} cannot be "
                f"{quote(pair[1])}; allowed: strings, numbers, booleans, None, tuples of them"
            )
        names.append(pair[0])
    if len(set(names)) != len(names):
        raise InvalidInformationSet(
            f"{game}: observation {index} ({obs.kind}) names a field twice: {quote(names)}"
        )


class Checker:
    """Checks one game's observations field by field, each failure naming the observation's
    index, its field and what is allowed (for the knowledge modules' `validate`)."""

    def __init__(self, info: InformationSet, kinds: Mapping[str, Collection[str]] | Kinds) -> None:
        """`kinds`: the observation kinds this seat may see, each with its field names (a
        field named with a trailing "?" may be absent), or the game's typed kinds."""
        self.info = info
        self.names: dict[str, Collection[str]] = {}
        self.typed: dict[str, tuple[type[ObservationKind], ...]] = {}
        for name, kind in kinds.items():
            if isinstance(kind, tuple) and all(isinstance(k, type) for k in kind):
                self.typed[name] = kind
            else:
                self.names[name] = cast("Collection[str]", kind)

    def fail(self, index: int, field: str, value: object, allowed: str) -> NoReturn:
        kind = self.info.observations[index].kind
        raise InvalidInformationSet(
            f"{self.info.game}: observation {index} ({kind}): {field} cannot be "
            f"{quote(value)}; allowed: {allowed}"
        )

    def refuse(self, index: int, why: str) -> NoReturn:
        kind = self.info.observations[index].kind
        raise InvalidInformationSet(f"{self.info.game}: observation {index} ({kind}): {why}")

    def shape(self, index: int) -> None:
        """The observation's kind is known and it has exactly that kind's fields (a typed
        kind: each once, in order)."""
        obs = self.info.observations[index]
        if obs.kind in self.typed:
            if not isinstance(obs, self.typed[obs.kind]):
                shapes = " or ".join(", ".join(k.field_names()) for k in self.typed[obs.kind])
                given = [name for name, _ in obs.fields]
                self.fail(index, "the fields", given, f"each once, in the order {shapes}")
            return
        if obs.kind not in self.names:
            known = [*self.names, *self.typed]
            self.fail(index, "the kind", obs.kind, ", ".join(map(repr, known)))
        expected = self.names[obs.kind]
        required = {name for name in expected if not name.endswith("?")}
        optional = {name.rstrip("?") for name in expected}
        names = {name for name, _ in obs.fields}
        if not required <= names <= optional:
            self.fail(index, "the fields", sorted(names), ", ".join(sorted(optional)))

    def choice(self, index: int, field: str, allowed: Iterable[object]) -> object:
        """The field's value, one of `allowed` with the same type (True is not 1)."""
        allowed = tuple(allowed)
        value = self.info.observations[index].get(field)
        if not any(value == ok and type(value) is type(ok) for ok in allowed):
            self.fail(index, field, value, ", ".join(map(repr, allowed)))
        return value

    def number(self, index: int, field: str, low: int, high: int) -> int:
        """The field's value, a whole number from `low` to `high`."""
        value = self.info.observations[index].get(field)
        if not is_int(value) or not low <= value <= high:
            self.fail(index, field, value, f"a whole number from {low} to {high}")
        return value

    def optional_number(self, index: int, field: str, low: int, high: int) -> int | None:
        """The field's value, None or a whole number from `low` to `high`."""
        if self.info.observations[index].get(field) is None:
            return None
        return self.number(index, field, low, high)

    def numbers(self, index: int, field: str, low: int, high: int, count: int) -> tuple[int, ...]:
        """The field's value, a tuple of `count` whole numbers from `low` to `high`."""
        value = self.info.observations[index].get(field)
        if not (
            isinstance(value, tuple)
            and len(value) == count
            and all(is_int(item) and low <= item <= high for item in value)
        ):
            self.fail(index, field, value, f"{count} whole numbers from {low} to {high}")
        return value

    def flag(self, index: int, field: str) -> bool:
        """The field's value, True or False."""
        value = self.info.observations[index].get(field)
        if not isinstance(value, bool):
            self.fail(index, field, value, "True or False")
        return value

    def text(self, index: int, field: str) -> str:
        value = self.info.observations[index].get(field)
        if not isinstance(value, str):
            self.fail(index, field, value, "a string")
        return value

    def items(
        self,
        index: int,
        field: str,
        allowed: Collection[object],
        sizes: Collection[int] | None = None,
        what: str = "values",
    ) -> tuple[object, ...]:
        """The field's value, a tuple of distinct members of `allowed` (of one of `sizes`)."""
        value = self.info.observations[index].get(field)
        wanted = f"a tuple of distinct {what}" + (
            f" ({' or '.join(map(str, sorted(sizes)))} of them)" if sizes is not None else ""
        )
        if not isinstance(value, tuple) or len(set(value)) != len(value):
            self.fail(index, field, value, wanted)
        if sizes is not None and len(value) not in sizes:
            self.fail(index, field, value, wanted)
        for item in value:
            if not any(item == ok and type(item) is type(ok) for ok in allowed):
                self.fail(index, field, value, f"{wanted}; {quote(item)} is not one")
        return value
