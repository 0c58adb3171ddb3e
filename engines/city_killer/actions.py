"""City Killer's actions, each printed in the notation a person types at the prompt.

    identity Vera          killer, option identity_choice=choose: his hidden identity
    allies law             killer, setup: the group he keeps as allies, of his three tokens
    place Vera 1,4         detective, option initial_placement=detective: where Vera starts
    start 2,3              detective, setup: where his pawn starts
    intimidate Vera        killer: flip a calm resident
    murder Oleg / refuse   killer: the murder of the round, or a refusal
    keep strike            killer: the card he keeps of the two under the crime scene
    keep police            detective: the evidence token he keeps when examining a scene
    play cordon 3,1        either: play a card with its arguments (see `CARD_ARGS`)
    pass                   either: let a reaction window go, or skip examining the scene
    answer yes             killer: a resident's answer to the question just asked
    pick Vera              killer: the witness of Testimony
    name maniac            killer: the motive Profile makes him name (not his)
    move 2,3               detective: a step of his pawn
    interrogate / done     detective: begin / end questioning in his district
    ask Vera height:tall   detective: one question to one resident ("is the killer tall?")
    police Ivan            detective: the police station: put the surveillance token on Ivan
    diner Ivan age:old     detective: the diner: one question to a resident here or next door
    hospital Ivan          detective: the hospital: calm Ivan
    fire                   detective: the fire station: draw a group token and move its group
    examine                detective: examine the crime scene here
    surveil Ivan           detective: declare surveillance on Ivan, who carries the token
    proceed / decline      detective: after Crowd moved the token, surveil its new carrier or not
    evidence row 2         detective: an evidence check taking the card at row position 2
    evidence deck          ... or the top card of the deck, unseen by the killer
    discard raid           detective: discard a card when he holds two
    shift Ivan 2,3         either: move a resident one step (group moves, the urgent call)
    group law              either: the group to move when the drawn group has nobody alive
    end                    detective: end his investigation
    accuse Oleg maniac     detective: the accusation after the fifth murder

Districts are "row,column", each 1 to 4. Names, groups, motives and cards are read without
regard to case.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.city_killer.rules import (
    BUILDINGS,
    DETECTIVE_CARDS,
    GROUPS,
    KILLER_CARDS,
    MOTIVES,
    District,
    district_text,
)
from engines.core import Action, InvalidAction, quote

BARE = ("refuse", "pass", "done", "interrogate", "fire", "examine", "proceed", "decline", "end")
NAMED = ("identity", "intimidate", "murder", "pick", "police", "hospital", "surveil")
PLACED = ("start", "move")
ASKING = ("ask", "diner")
GROUPED = ("allies", "group")
CARDS = KILLER_CARDS + DETECTIVE_CARDS


@dataclass(frozen=True)
class Verb(Action):
    """A bare word: refuse, pass, done, interrogate, fire, examine, proceed, decline, end."""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class Named(Action):
    """A verb on one resident: identity, intimidate, murder, pick, police, hospital, surveil."""

    verb: str
    name: str

    def __str__(self) -> str:
        return f"{self.verb} {self.name}"


@dataclass(frozen=True)
class Placed(Action):
    """A verb on one district: start, move."""

    verb: str
    district: District

    def __str__(self) -> str:
        return f"{self.verb} {district_text(self.district)}"


@dataclass(frozen=True)
class Grouped(Action):
    """A verb on one group: allies, group."""

    verb: str
    group: str

    def __str__(self) -> str:
        return f"{self.verb} {self.group}"


@dataclass(frozen=True)
class Ask(Action):
    """A question "is the killer <value>?" put to `name` (verb ask, or diner)."""

    verb: str
    name: str
    attr: str
    value: str

    def __str__(self) -> str:
        return f"{self.verb} {self.name} {self.attr}:{self.value}"


@dataclass(frozen=True)
class Answer(Action):
    yes: bool

    def __str__(self) -> str:
        return f"answer {'yes' if self.yes else 'no'}"


@dataclass(frozen=True)
class Keep(Action):
    """The killer keeps a card from under a scene, or the detective an evidence token."""

    item: str

    def __str__(self) -> str:
        return f"keep {self.item}"


@dataclass(frozen=True)
class Reveal(Action):
    """The killer names, for Profile, a motive that is not his."""

    motive: str

    def __str__(self) -> str:
        return f"name {self.motive}"


@dataclass(frozen=True)
class Place(Action):
    """The detective puts a resident in his starting district (initial_placement=detective)."""

    name: str
    district: District

    def __str__(self) -> str:
        return f"place {self.name} {district_text(self.district)}"


@dataclass(frozen=True)
class Shift(Action):
    name: str
    district: District

    def __str__(self) -> str:
        return f"shift {self.name} {district_text(self.district)}"


@dataclass(frozen=True)
class Evidence(Action):
    """An evidence check taking the card at row `position` (1-3), or the deck's top (0)."""

    position: int

    def __str__(self) -> str:
        return "evidence deck" if self.position == 0 else f"evidence row {self.position}"


@dataclass(frozen=True)
class Play(Action):
    """A card played with its arguments, each as typed in canonical form (names, "r,c",
    lower-case words, "age:old")."""

    card: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(("play", self.card, *self.args))


@dataclass(frozen=True)
class Discard(Action):
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Accuse(Action):
    name: str
    motive: str

    def __str__(self) -> str:
        return f"accuse {self.name} {self.motive}"


USAGE = (
    "identity NAME, allies GROUP, place NAME R,C, start R,C, intimidate NAME, murder NAME, "
    "refuse, keep CARD, play CARD [ARGS], pass, answer yes|no, pick NAME, name MOTIVE, "
    "move R,C, interrogate, ask NAME ATTR:VALUE, done, police NAME, diner NAME ATTR:VALUE, "
    "hospital NAME, fire, examine, surveil NAME, proceed, decline, evidence row N|deck, "
    "discard CARD, shift NAME R,C, group GROUP, end, accuse NAME MOTIVE"
)
_DISTRICT = re.compile(r"([1-9]),([1-9])")


def read_district(word: str) -> District | None:
    match = _DISTRICT.fullmatch(word)
    return None if match is None else (int(match[1]), int(match[2]))


class _Reader:
    """The readers of the words of one action text, each refusing a word it cannot read
    with the text and the list of actions."""

    def __init__(self, text: str, names: Sequence[str]) -> None:
        self.text = text
        self.by_lower = {name.lower(): name for name in names}

    def bad(self, why: str) -> InvalidAction:
        return InvalidAction(f"cannot read {quote(self.text)}: {why}; actions are: {USAGE}")

    def name(self, word: str) -> str:
        if word.lower() not in self.by_lower:
            raise self.bad(f"no resident is called {quote(word)}")
        return self.by_lower[word.lower()]

    def district(self, word: str) -> District:
        found = read_district(word)
        if found is None:
            raise self.bad(f"{quote(word)} is not a district (row,column such as 2,3)")
        return found

    def word_of(self, word: str, allowed: Sequence[str], what: str) -> str:
        if word.lower() not in allowed:
            raise self.bad(f"{quote(word)} is not a {what} ({', '.join(allowed)})")
        return word.lower()


def _verb(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """A bare word (refuse, pass, ...)."""
    return Verb(verb) if not args else None


def _named(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """A verb on one resident (identity NAME, murder NAME, ...)."""
    return Named(verb, read.name(args[0])) if len(args) == 1 else None


def _placed(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """A verb on one district (start R,C, move R,C)."""
    return Placed(verb, read.district(args[0])) if len(args) == 1 else None


def _grouped(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """A verb on one group (allies GROUP, group GROUP)."""
    return Grouped(verb, read.word_of(args[0], GROUPS, "group")) if len(args) == 1 else None


def _ask(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """A question to a resident (ask NAME ATTR:VALUE, diner NAME ATTR:VALUE)."""
    if len(args) != 2 or ":" not in args[1]:
        return None
    attr, _, value = args[1].lower().partition(":")
    return Ask(verb, read.name(args[0]), attr, value)


def _answer(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """answer yes|no."""
    if len(args) == 1 and args[0].lower() in ("yes", "no"):
        return Answer(args[0].lower() == "yes")
    return None


def _keep(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """keep CARD: a killer card or an evidence type."""
    if len(args) != 1:
        return None
    return Keep(read.word_of(args[0], KILLER_CARDS + BUILDINGS, "card or evidence type"))


def _reveal(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """name MOTIVE."""
    return Reveal(read.word_of(args[0], MOTIVES, "motive")) if len(args) == 1 else None


def _place(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """place NAME R,C."""
    return Place(read.name(args[0]), read.district(args[1])) if len(args) == 2 else None


def _shift(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """shift NAME R,C."""
    return Shift(read.name(args[0]), read.district(args[1])) if len(args) == 2 else None


def _evidence(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """evidence deck, or evidence row N (N from 1 to 3)."""
    if len(args) == 1 and args[0].lower() == "deck":
        return Evidence(0)
    if len(args) != 2 or args[0].lower() != "row":
        return None
    if args[1] not in ("1", "2", "3"):
        raise read.bad(f"row positions are 1, 2 and 3, not {quote(args[1])}")
    return Evidence(int(args[1]))


def _discard(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """discard CARD: a detective card."""
    if len(args) != 1:
        return None
    return Discard(read.word_of(args[0], DETECTIVE_CARDS, "detective card"))


def _accuse(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """accuse NAME MOTIVE."""
    if len(args) != 2:
        return None
    return Accuse(read.name(args[0]), read.word_of(args[1], MOTIVES, "motive"))


def _play(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """play CARD [ARGS]: the arguments that name residents are spelt as their names."""
    if not args:
        return None
    card = read.word_of(args[0], CARDS, "card")
    return Play(card, tuple(read.by_lower.get(a.lower(), a.lower()) for a in args[1:]))


_FORMS: dict[str, Callable[[_Reader, str, list[str]], Action | None]] = {
    **dict.fromkeys(BARE, _verb),
    **dict.fromkeys(NAMED, _named),
    **dict.fromkeys(PLACED, _placed),
    **dict.fromkeys(GROUPED, _grouped),
    **dict.fromkeys(ASKING, _ask),
    "answer": _answer,
    "keep": _keep,
    "name": _reveal,
    "place": _place,
    "shift": _shift,
    "evidence": _evidence,
    "discard": _discard,
    "accuse": _accuse,
    "play": _play,
}
"""The reader of each verb's words: it gives None when the words do not fit the verb."""


def parse(text: str, names: Sequence[str]) -> Action:
    """The action printed as `text`; `names` are the residents this game may name."""
    words = text.split()
    read = _Reader(text, names)
    if not words:
        raise read.bad("it is empty")
    verb, args = words[0].lower(), words[1:]
    form = _FORMS.get(verb)
    action = None if form is None else form(read, verb, args)
    if action is None:
        raise read.bad(f"wrong words after {quote(words[0])}")
    return action
