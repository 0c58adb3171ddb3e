"""Plain JSON values: read at the boundary with errors that say what was wrong and what is
allowed, frozen into hashable tuples, compared exactly and quoted short in messages."""

from __future__ import annotations

import json
import reprlib
from collections.abc import Collection
from typing import Any, NoReturn, TypeAlias

from engines.errors import SleuthError

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


PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def freeze(value: JsonValue) -> JsonValue:
    """Turn JSON-like data into hashable data: lists become tuples, dicts sorted item tuples."""
    if isinstance(value, (list, tuple)):
        if type(value) is tuple and PLAIN_TYPES.issuperset(map(type, value)):
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


def thaw(value: JsonValue) -> JsonValue:
    """The inverse of `freeze` for JSON output: tuples become lists."""
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value
