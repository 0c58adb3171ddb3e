"""What every game's typed notation shares: reading names a person types at a table.

A name may be typed in full, in any case, or shortened to a unique abbreviation: each
hyphen-separated part cut to a prefix ("bl-kn" for blade-knife, "ros" for Rosa). A name that
matches nothing gets "did you mean" (difflib), one that matches several lists them.
"""

from __future__ import annotations

import difflib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from engines.errors import InvalidObservation
from engines.observations import Observation
from engines.values import Seat, quote

if TYPE_CHECKING:
    from engines.game import Game

_SEPARATORS = re.compile(r"[\s,;]+")
G = TypeVar("G", bound="Game[Any]")
R = TypeVar("R")
F = TypeVar("F", bound="Fold")


class GameNotation(Generic[G]):
    """Base of a game's `TypedNotation`: the game it reads lines for, and its forms."""

    FORMS: ClassVar[Sequence[tuple[str, str]]] = ()
    """Each form a person can type, with an example, and what it records."""

    def __init__(self, game: G) -> None:
        self.game = game
        self._last: tuple[Seat | None, tuple[Observation, ...], Fold] | None = None

    def resumed(
        self, before: tuple[Observation, ...], start: Callable[[], F], seat: Seat | None = None
    ) -> F:
        """`start()` with `before` folded in, carrying on from the last line's fold (of the
        same seat) when `before` extends what it folded: the next line usually comes after
        the last (a session re-reading its entries, a person typing on). The readers never
        change a fold, so the one kept stays as it was."""
        last, self._last = self._last, None
        if last is not None and last[0] == seat and before[: len(last[1])] == last[1]:
            fold = cast(F, last[2]).added(before[len(last[1]) :])
        else:
            fold = start().added(before)
        self._last = (seat, before, fold)
        return fold

    def forms(self) -> list[tuple[str, str]]:
        return list(self.FORMS)

    def before_line(self, fold: Callable[[], R]) -> R:
        """`fold()`: the summary of the observations before a line, which must be a record
        of this game (InvalidObservation when they are not)."""
        try:
            return fold()
        except (KeyError, ValueError, TypeError, IndexError, AttributeError):
            game = self.game
            raise InvalidObservation(
                f"{game.name}: the observations before this line are not a record of "
                f"{game.metadata.title}"
            ) from None


class Fold(ABC):
    """A summary of a seat's record kept by folding its observations in, one at a time (what
    a notation checks the next line against)."""

    @abstractmethod
    def add(self, obs: Observation) -> None:
        """Fold in the next observation."""

    def added(self, observations: Iterable[Observation]) -> Self:
        """This summary, with `observations` folded in, in order."""
        for obs in observations:
            self.add(obs)
        return self


class TypedNotation(Protocol):
    """A game's typed notation, made once per configured game (`Game.notation_class`)."""

    def __init__(self, game: Any) -> None: ...

    def parse(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        """The observations `text` (stripped, not empty) records for `seat` after `before`."""
        ...

    def words(self) -> list[str]:
        """The words of the notation (kinds, names) that Tab completes."""
        ...

    def forms(self) -> list[tuple[str, str]]:
        """Each form a person can type, with an example, and what it records."""
        ...


class AmbiguousName(InvalidObservation):
    """A typed name that abbreviates several names; the message lists them."""


def tokens(text: str) -> list[str]:
    """The words of a typed line: split on spaces, commas and semicolons."""
    return [word for word in _SEPARATORS.split(text.strip()) if word]


_PARTS = re.compile(r"[\s:,\-]+")
_LISTED = 8
"""A vocabulary this short is listed whole when a typed name is nothing like any of them."""
_NEAR_MISS = 0.8
"""How alike (difflib's ratio) a typed run of words and a name are when it is a typo of it."""


def parts_of(text: str) -> tuple[str, ...]:
    """The parts of a name, lower case: split on spaces, hyphens, colons and commas, so that
    "Blunt Object: Bottle", "blunt-object-bottle" and "blunt object bottle" have the same."""
    return tuple(part for part in _PARTS.split(text.lower()) if part)


def _abbreviates(typed: Sequence[str], name: Sequence[str]) -> bool:
    """Whether each typed part begins the name's part in its place (fewer parts may be
    typed); a number is not shortened ("2" is not "20-29")."""
    if not typed or len(typed) > len(name):
        return False
    return all(
        whole == part if part.isdigit() else whole.startswith(part)
        for part, whole in zip(typed, name, strict=False)
    )


class Vocabulary:
    """The names of one kind of thing (cards, suspects, seats, kinds of entry) a person may
    type, each read back to its canonical spelling.

    `printed` gives a name as the game prints it ("Blunt Object: Bottle" for blunt-bottle):
    it may be typed too, in full or shortened the same way; `plural` is how the kind of
    thing reads in the plural ("kinds of entry"), default `what` with an s.
    """

    def __init__(
        self,
        what: str,
        names: Iterable[str],
        printed: Mapping[str, str] | None = None,
        plural: str | None = None,
    ) -> None:
        self.what = what
        self.plural = plural or _plural(what)
        self.names: tuple[str, ...] = tuple(dict.fromkeys(names))
        self._by_lower = {name.lower(): name for name in self.names}
        printed = printed or {}
        self.printed = {name: printed[name] for name in self.names if name in printed}
        # every way of spelling each name as parts: the canonical name split on its hyphens
        # (as before: "20-29" is one name of two parts), and the printed name
        spellings: dict[tuple[str, ...], list[str]] = {}
        for name in self.names:
            forms = {tuple(name.lower().split("-")), parts_of(name)}
            if name in self.printed:
                forms.add(parts_of(self.printed[name]))
            for form in forms:
                if form and all(form):
                    spellings.setdefault(form, []).append(name)
        self._spellings = spellings
        self._longest = max((len(form) for form in spellings), default=1)

    def matches(self, typed: str) -> list[str]:
        """The names `typed` may stand for: the one it spells in full, else every name it
        abbreviates (each typed part the beginning of a part of the name)."""
        exact = self._by_lower.get(typed.lower())
        if exact is not None:
            return [exact]
        parts = parts_of(typed)
        spelt = self._spellings.get(parts)
        if spelt is not None and len(set(spelt)) == 1:
            return [spelt[0]]
        found = {
            name
            for form, named in self._spellings.items()
            if _abbreviates(parts, form)
            for name in named
        }
        return [name for name in self.names if name in found]

    def read(self, typed: str) -> str:
        """The name `typed` stands for: in full or shortened, as the game writes it or as it
        is printed ("blunt-bottle", "Blunt Object: Bottle", "bl-ob-bo"), in any case.

        Raises:
            InvalidObservation: it matches no name ("did you mean ..."); AmbiguousName, a
                subclass, when it matches several (the message names them).
        """
        matches = self.matches(typed)
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(map(self._shown, matches[:6])) + (", ..." if len(matches) > 6 else "")
            raise AmbiguousName(f"{quote(typed)} could be any {self.what} of: {shown}")
        raise InvalidObservation(f"{quote(typed)} is not a {self.what}{self.suggestion(typed)}")

    def read_all(self, typed: Sequence[str]) -> tuple[str, ...]:
        """Each typed name read, refusing a name given twice.

        A name may take several words ("blunt object bottle fall window" is two cards): when
        the words do not read one name each, they are read as the one way of cutting them
        into names; two ways that give different names are refused, naming both.
        """
        try:
            found = tuple(self.read(word) for word in typed)
        except InvalidObservation as error:
            found = self._phrases(list(typed), error)
        for name in found:
            if found.count(name) > 1:
                raise InvalidObservation(f"{self.what} {name} is named twice")
        return found

    def read_phrase(self, words: Sequence[str]) -> str:
        """One name typed as one or more words ("blunt object: bottle").

        Raises:
            InvalidObservation: no words, or they do not read as one name (as `read`).
        """
        if not words:
            raise InvalidObservation(f"no {self.what} is named")
        return self.read(" ".join(words))

    def _phrases(self, words: list[str], error: InvalidObservation) -> tuple[str, ...]:
        """`words` cut into consecutive names, each a run of words that reads one name."""
        count = len(words)
        # ways[i]: the distinct readings of words[:i] (at most two are kept: one is the
        # answer, two are an ambiguity to report)
        none: tuple[str, ...] = ()
        ways: list[list[tuple[str, ...]]] = [[none]] + [[] for _ in range(count)]
        for start in range(count):
            if not ways[start]:
                continue
            for end in range(start + 1, min(count, start + self._longest) + 1):
                matches = self.matches(" ".join(words[start:end]))
                if len(matches) != 1:
                    continue
                for reading in ways[start]:
                    longer = (*reading, matches[0])
                    if longer not in ways[end] and len(ways[end]) < 2:
                        ways[end].append(longer)
        if len(ways[count]) == 1:
            return ways[count][0]
        if len(ways[count]) > 1:
            first, second = (" ".join(way) for way in ways[count])
            raise AmbiguousName(
                f"{quote(' '.join(words))} reads as {first}, or as {second}; join each "
                "name's words with '-'"
            )
        stuck = max(i for i in range(count + 1) if ways[i])
        if stuck == 0 and len(words) == 1:
            raise error
        # from where the reading stopped: a run of words that is a near miss of a name (a
        # typo: "did you mean"), else the longest that abbreviates several ("could be any")
        ends = range(stuck + 1, min(count, stuck + self._longest) + 1)
        runs = [" ".join(words[stuck:end]) for end in ends]
        best = max(runs, key=lambda run: (self._likeness(run), -len(run)))
        several = [run for run in runs if len(self.matches(run)) > 1]
        if self._likeness(best) < _NEAR_MISS and several:
            best = several[-1]
        self.read(best)  # raises, naming the candidates or the closest names
        raise error  # not reached: a run that read would have been taken

    def _likeness(self, typed: str) -> float:
        """How close `typed` comes to the nearest spelling of a name (0 to 1)."""
        joined = "-".join(parts_of(typed))
        return max(
            (
                difflib.SequenceMatcher(None, joined, "-".join(form)).ratio()
                for form in self._spellings
            ),
            default=0.0,
        )

    def closest(self, typed: str, count: int = 3, near: bool = False) -> list[str]:
        """The names nearest to `typed`, best first: close spellings (difflib, of the names
        and of the printed names), else those its first part begins, else (unless `near`)
        the nearest at all (empty only when there are no names)."""
        joined = "-".join(parts_of(typed)) or typed.lower()
        spelt = {"-".join(form): names[0] for form, names in self._spellings.items()}

        def nearest(cutoff: float) -> list[str]:
            close = difflib.get_close_matches(joined, spelt, n=count * 3, cutoff=cutoff)
            return list(dict.fromkeys(spelt[c] for c in close))[:count]

        head = parts_of(typed)[:1]
        found = nearest(0.6) or (self.matches(head[0])[:count] if head else [])
        return found or ([] if near else nearest(0.0))

    def suggestion(self, typed: str) -> str:
        """ "; did you mean X or Y?" with the closest names (the printed name beside each
        that is printed otherwise); a short vocabulary with no near name is listed whole."""
        close = self.closest(typed, near=len(self.names) <= _LISTED)
        if close:
            return f"; did you mean {' or '.join(self._shown(name) for name in close)}?"
        if not self.names:
            return ""
        return f"; the {self.plural} are {', '.join(self.names)}"

    def _shown(self, name: str) -> str:
        printed = self.printed.get(name)
        if printed is None or parts_of(printed) == parts_of(name):
            return name
        return f"{name} ({printed})"


def respell(words: Sequence[str], known: Iterable[str]) -> list[str] | None:
    """`words` with each word that is not a known one replaced by the closest known word
    ("rigth" -> "right"); None when no word changed or a word has no close one."""
    lowered = {word.lower(): word for word in known}
    fixed, changed = [], False
    for word in words:
        if word.lower() in lowered:
            fixed.append(lowered[word.lower()])
            continue
        close = difflib.get_close_matches(word.lower(), lowered, n=1, cutoff=0.6)
        if not close:
            return None
        fixed.append(lowered[close[0]])
        changed = True
    return fixed if changed else None


def _plural(what: str) -> str:
    """ "kind of entry" -> "kinds of entry", "card" -> "cards", "reply" -> "replies"."""
    head, of, tail = what.partition(" of ")
    if of:
        return f"{_plural(head)} of {tail}"
    if what.endswith("y") and what[-2:-1] not in tuple("aeiou"):
        return what[:-1] + "ies"
    if what.endswith(("s", "x", "ch", "sh")):
        return what + "es"
    return what + "s"


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
