"""What a seat does: the base of every game's actions, and the domains that say which
values an action's fields may hold (for checking actions and spelling them as ids)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, ClassVar, dataclass_transform

from engines.errors import InvalidAction
from engines.values import is_int, quote


@dataclass_transform(frozen_default=True)
class Action:
    """Base of every game's actions: frozen dataclasses whose `str` is their typed notation.

    `game.parse_action(str(action)) == action` for every legal action; JSON stores the notation.
    A subclass is made a frozen dataclass here, so a game declares only its fields and the
    words it starts with (`class Kill(Action, verb="kill")`, kept as `VERB`). Its notation is
    those words followed by each field's words in order (`spell`), so only an action spelled
    otherwise ("citizen-arrest Eve with Finn") writes its own `__str__`.
    """

    VERB: ClassVar[str] = ""
    __match_args__: ClassVar[tuple[str, ...]] = ()  # a subclass's fields, set by `dataclass`

    def __init_subclass__(cls, verb: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if verb is not None:
            cls.VERB = verb
        dataclass(frozen=True)(cls)

    def __str__(self) -> str:
        words = [self.VERB] if self.VERB else []
        for name in self.__match_args__:
            words.extend(self.spell(name, getattr(self, name)))
        return " ".join(words)

    def spell(self, name: str, value: Any) -> list[str]:
        """The words of the field `name`: none for None, the field's name for a flag that is
        set (none when unset), one word per item of a tuple, else the value as text."""
        if value is None or value is False:
            return []
        if value is True:
            return [name]
        if isinstance(value, tuple):
            return [str(item) for item in value]
        return [str(value)]

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


Refusal = Callable[[str], InvalidAction]
"""The error refusing one typed action for the reason given."""


def read_verb(text: str, usage: str, words: list[str]) -> tuple[str, list[str], Refusal]:
    """The verb and the words after it of the action typed as `text` (split into `words`), and
    its refusal, which quotes `text` and lists the game's moves (`usage`); an empty text is
    refused here."""

    def bad(why: str) -> InvalidAction:
        return InvalidAction(f"cannot read {quote(text)}: {why}; moves are: {usage}")

    if not words:
        raise bad("it is empty")
    return words[0].lower(), words[1:], bad
