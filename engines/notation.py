"""What every game's typed notation shares: reading names a person types at a table.

A name may be typed in full, in any case, or shortened to a unique abbreviation: each
hyphen-separated part cut to a prefix ("bl-kn" for blade-knife, "ros" for Rosa). A name that
matches nothing gets "did you mean" (difflib), one that matches several lists them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from engines.core import InvalidObservation, quote

_SEPARATORS = re.compile(r"[\s,;]+")


class AmbiguousName(InvalidObservation):
    """A typed name that abbreviates several names; the message lists them."""


def tokens(text: str) -> list[str]:
    """The words of a typed line: split on spaces, commas and semicolons."""
    return [word for word in _SEPARATORS.split(text.strip()) if word]


def _abbreviates(typed: str, name: str) -> bool:
    typed_parts = typed.lower().split("-")
    name_parts = name.lower().split("-")
    if len(typed_parts) > len(name_parts):
        return False
    pairs = zip(typed_parts, name_parts[: len(typed_parts)], strict=True)
    return all(part and whole.startswith(part) for part, whole in pairs)


class Vocabulary:
    """The names of one kind of thing (cards, suspects, seats, kinds of entry) a person may
    type, each read back to its canonical spelling."""

    def __init__(self, what: str, names: Iterable[str]) -> None:
        self.what = what
        self.names: tuple[str, ...] = tuple(dict.fromkeys(names))
        self._by_lower = {name.lower(): name for name in self.names}

    def read(self, typed: str) -> str:
        """The name `typed` stands for.

        Raises:
            InvalidObservation: it matches no name ("did you mean ..."); AmbiguousName, a
                subclass, when it matches several.
        """
        exact = self._by_lower.get(typed.lower())
        if exact is not None:
            return exact
        matches = [name for name in self.names if _abbreviates(typed, name)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(matches[:6]) + (", ..." if len(matches) > 6 else "")
            raise AmbiguousName(f"{quote(typed)} could be any {self.what} of: {shown}")
        raise InvalidObservation(f"{quote(typed)} is not a {self.what}{self.suggestion(typed)}")

    def read_all(self, typed: Sequence[str]) -> tuple[str, ...]:
        """Each typed name read, refusing a name given twice."""
        found = tuple(self.read(word) for word in typed)
        for name in found:
            if found.count(name) > 1:
                raise InvalidObservation(f"{self.what} {name} is named twice")
        return found

    def suggestion(self, typed: str) -> str:
        """ "; did you mean X?" for the closest names, or what the names look like."""
        lowered = {name.lower(): name for name in self.names}
        close = difflib.get_close_matches(typed.lower(), lowered, n=3, cutoff=0.6)
        if close:
            return f"; did you mean {' or '.join(lowered[c] for c in close)}?"
        examples = ", ".join(self.names[:4])
        return f"; the {self.what}s are {examples}{', ...' if len(self.names) > 4 else ''}"


def _digits_within(typed: str, high: int) -> bool:
    """Whether `typed` is ASCII digits, no more of them (after leading zeros) than `high` has:
    `int` reads other digits too (٣, fullwidth ones) and refuses more than 4300 of them."""
    return bool(re.fullmatch(r"[0-9]+", typed)) and len(typed.lstrip("0")) <= len(str(high))


def read_int(typed: str, what: str, low: int, high: int) -> int:
    """A whole number from `low` to `high` written as digits.

    Raises:
        InvalidObservation: anything else, quoting it.
    """
    if not _digits_within(typed, high) or not low <= int(typed) <= high:
        raise InvalidObservation(
            f"{what} must be a number from {low} to {high}, not {quote(typed)}"
        )
    return int(typed)


def expect_count(words: Sequence[str], count: int, form: str) -> None:
    """Refuse a line with the wrong number of words, showing the form it should have."""
    if len(words) != count:
        raise InvalidObservation(
            f"expected {count} words ({form}), got {len(words)}: {quote(' '.join(words))}"
        )
