"""What a seat does: the base of every game's actions, and the domains that say which
values an action's fields may hold (for checking actions and spelling them as ids)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, dataclass_transform

from engines.values import JsonValue, is_int


@dataclass_transform(frozen_default=True)
class Action:
    """Base of every game's actions: frozen dataclasses whose `str` is their typed notation.

    `game.parse_action(str(action)) == action` for every legal action; JSON stores the notation.
    A subclass is made a frozen dataclass here, so a game declares only its fields.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)

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
