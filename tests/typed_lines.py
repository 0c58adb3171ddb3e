"""Random and mutated typed lines for one game, seat and position: the fuzz input of the
notation boundary tests (tests/test_notation_boundaries.py) and the notebook benchmarks.

A line is either a random sequence of tokens (the notation's own words, numbers that are
edge cases, punctuation, odd unicode) or a valid typed form of a real observation
(`game.observation_text`) or of a help example, mutated: tokens dropped, repeated, swapped,
cut short, replaced, characters changed, two lines spliced. Everything is drawn from `rng`
alone, so the same `rng` state gives the same lines.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import engines

FULLWIDTH_ONE, FULLWIDTH_A = "\uff11", "\uff21"
NUMBERS = ("0", "1", "2", "3", "4", "7", "15", "-1", "-3", "+2", "00", "1.5", "1e3", "0x1f",
           "99", "4294967296", "9" * 40, "9" * 5000, "²", "①", "٣", "३", "½", "Ⅳ",
           FULLWIDTH_ONE)  # fmt: skip
"""Numbers a parser may mishandle: signs, huge ones (Python refuses int() of more than 4300
digits), and characters that `str.isdigit` accepts but `int` does not (² ①) or that `int`
reads though they are not ASCII (٣ ३, fullwidth)."""
PUNCTUATION = (";", ":", ",", "!", "?", "-", "(", ")", "/", "@", "+", ".", "*", "'", '"', "#",
               "\\", "...", "—", "=", "[", "]", "{", "}", "|", "&", "%", "_", "~", "<", ">",
               "::", ",,", "@@", "+-", "1,", ",1", "1:", ":1", "@1,1", "1,1,1")  # fmt: skip
ODD = ("", " ", "\t", "é", "ß", "İ", FULLWIDTH_A, "\u200b", "ﬁ", "ǅ", "\x00", "🙂", "nan", "None",
       "true", "null", "killer:", "me", "i", "help", "none", "nobody")  # fmt: skip
"""Characters whose case changes their length (İ ß ﬁ), invisible ones, and words that mean
something in some notation."""
CHARACTERS = "aeiouzxAZ019²①-:;,.!?@+/ _é"


def typed_lines(
    game: engines.Game,
    seat: engines.Seat,
    before: tuple[engines.Observation, ...],
    rng: random.Random,
    count: int,
) -> list[str]:
    """`count` lines for `seat` to type after `before`: about a quarter random tokens, the
    rest mutations of valid lines (as typed for `before` and the help's examples)."""
    words = list(game.notation_words()) or ["x"]
    valid = _valid_lines(game, before)
    pool = _Pool(words, valid, rng)
    makers: list[Callable[[], str]] = [pool.random_tokens, pool.mutated, pool.mutated,
                                       pool.mutated, pool.spliced, pool.valid_line]  # fmt: skip
    return [rng.choice(makers)() for _ in range(count)]


def _valid_lines(game: engines.Game, before: Sequence[engines.Observation]) -> list[str]:
    """The typed forms of `before` (the recent ones twice: they are closest to what comes
    next) and of the help examples."""
    lines = []
    for obs in before:
        try:
            lines.append(game.observation_text(obs))
        except engines.SleuthError:
            continue  # a kind nobody types (the game shows it itself)
    lines += lines[-6:]
    lines += [form for form, _ in game.notation_help()]
    return lines or ["help"]


class _Pool:
    """The token pools of one game and the makers of lines from them."""

    def __init__(self, words: list[str], valid: list[str], rng: random.Random) -> None:
        self.words, self.valid, self.rng = words, valid, rng

    def token(self) -> str:
        roll = self.rng.random()
        if roll < 0.5:
            return self.rng.choice(self.words)
        if roll < 0.7:
            return self.rng.choice(NUMBERS)
        if roll < 0.9:
            return self.rng.choice(PUNCTUATION)
        return self.rng.choice(ODD)

    def random_tokens(self) -> str:
        length = self.rng.choice((1, 1, 2, 2, 3, 4, 5, 7, 10))
        return _join([self.token() for _ in range(length)], self.rng)

    def valid_line(self) -> str:
        return self.rng.choice(self.valid)

    def mutated(self) -> str:
        """A valid line with one to three mutations."""
        line = self.valid_line()
        for _ in range(self.rng.choice((1, 1, 1, 2, 3))):
            line = self.rng.choice(self._mutations)(line)
        return line

    def spliced(self) -> str:
        """The start of one valid line and the end of another."""
        first, second = self.valid_line().split(), self.valid_line().split()
        return " ".join(
            first[: self.rng.randint(0, len(first))] + second[self.rng.randint(0, len(second)) :]
        )

    # --- mutations: each takes a line and returns a changed one ----------------------------
    @property
    def _mutations(self) -> tuple[Callable[[str], str], ...]:
        return (self.drop, self.duplicate, self.swap, self.truncate, self.cut, self.replace,
                self.insert, self.change_character, self.glue, self.recase,
                self.odd_digits)  # fmt: skip

    def _split(self, line: str) -> list[str]:
        return line.split() or [line]

    def drop(self, line: str) -> str:
        tokens = self._split(line)
        del tokens[self.rng.randrange(len(tokens))]
        return " ".join(tokens)

    def duplicate(self, line: str) -> str:
        tokens = self._split(line)
        at = self.rng.randrange(len(tokens))
        tokens.insert(at, tokens[at])
        return " ".join(tokens)

    def swap(self, line: str) -> str:
        tokens = self._split(line)
        i, j = self.rng.randrange(len(tokens)), self.rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
        return " ".join(tokens)

    def truncate(self, line: str) -> str:
        """Keep the first few tokens (a line cut short)."""
        tokens = self._split(line)
        return " ".join(tokens[: self.rng.randint(1, len(tokens))])

    def cut(self, line: str) -> str:
        """Keep the first few characters (maybe mid-word)."""
        return line[: self.rng.randint(1, max(1, len(line)))]

    def replace(self, line: str) -> str:
        tokens = self._split(line)
        tokens[self.rng.randrange(len(tokens))] = self.token()
        return " ".join(tokens)

    def insert(self, line: str) -> str:
        tokens = self._split(line)
        tokens.insert(self.rng.randint(0, len(tokens)), self.token())
        return " ".join(tokens)

    def change_character(self, line: str) -> str:
        if not line:
            return self.rng.choice(CHARACTERS)
        at = self.rng.randrange(len(line))
        return line[:at] + self.rng.choice(CHARACTERS) + line[at + 1 :]

    def glue(self, line: str) -> str:
        """Punctuation stuck to a token ("red:", "3,", "(Ada")."""
        tokens = self._split(line)
        at = self.rng.randrange(len(tokens))
        mark = self.rng.choice(PUNCTUATION)
        tokens[at] = mark + tokens[at] if self.rng.random() < 0.5 else tokens[at] + mark
        return " ".join(tokens)

    def recase(self, line: str) -> str:
        return self.rng.choice((line.upper(), line.lower(), line.title(), line.swapcase()))

    def odd_digits(self, line: str) -> str:
        """Each ASCII digit replaced by a look-alike or a huge number."""
        odd = ("²", "①", "٣", FULLWIDTH_ONE, "9" * 30)
        return "".join(self.rng.choice(odd) if ch in "0123456789" else ch for ch in line)


def _join(tokens: list[str], rng: random.Random) -> str:
    """Tokens joined by spaces, now and then by nothing or a comma."""
    glue = rng.choice((" ", " ", " ", "", ",", "  "))
    return glue.join(tokens)
