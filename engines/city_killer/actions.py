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
from typing import Any

from engines.actions import Action, Refusal, read_verb
from engines.city_killer.material import (
    BUILDINGS,
    DETECTIVE_CARDS,
    GROUPS,
    KILLER_CARDS,
    MOTIVES,
    District,
    district_text,
)
from engines.values import quote

BARE = ("refuse", "pass", "done", "interrogate", "fire", "examine", "proceed", "decline", "end")
NAMED = ("identity", "intimidate", "murder", "pick", "police", "hospital", "surveil")
PLACED = ("start", "move")
ASKING = ("ask", "diner")
GROUPED = ("allies", "group")
CARDS = KILLER_CARDS + DETECTIVE_CARDS


class _Placing(Action):
    """An action with a district among its fields, printed "row,column"."""

    def spell(self, name: str, value: Any) -> list[str]:
        return [district_text(value)] if isinstance(value, tuple) else super().spell(name, value)


class Verb(Action):
    """A bare word: refuse, pass, done, interrogate, fire, examine, proceed, decline, end."""

    word: str


class Named(Action):
    """A verb on one resident: identity, intimidate, murder, pick, police, hospital, surveil."""

    verb: str
    name: str


class Placed(_Placing):
    """A verb on one district: start, move."""

    verb: str
    district: District


class Grouped(Action):
    """A verb on one group: allies, group."""

    verb: str
    group: str


class Ask(Action):
    """A question "is the killer <value>?" put to `name` (verb ask, or diner)."""

    verb: str
    name: str
    attr: str
    value: str

    def __str__(self) -> str:
        return f"{self.verb} {self.name} {self.attr}:{self.value}"


class Answer(Action):
    yes: bool

    def __str__(self) -> str:
        return f"answer {'yes' if self.yes else 'no'}"


class Keep(Action, verb="keep"):
    """The killer keeps a card from under a scene, or the detective an evidence token."""

    item: str


class Reveal(Action, verb="name"):
    """The killer names, for Profile, a motive that is not his."""

    motive: str


class Place(_Placing, verb="place"):
    """The detective puts a resident in his starting district (initial_placement=detective)."""

    name: str
    district: District


class Shift(_Placing, verb="shift"):
    name: str
    district: District


class Evidence(Action):
    """An evidence check taking the card at row `position` (1-3), or the deck's top (0)."""

    position: int

    def __str__(self) -> str:
        return "evidence deck" if self.position == 0 else f"evidence row {self.position}"


class Play(Action, verb="play"):
    """A card played with its arguments, each as typed in canonical form (names, "r,c",
    lower-case words, "age:old")."""

    card: str
    args: tuple[str, ...] = ()


class Discard(Action, verb="discard"):
    card: str


class Accuse(Action, verb="accuse"):
    name: str
    motive: str


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

    def __init__(self, bad: Refusal, names: Sequence[str]) -> None:
        self.bad = bad
        self.by_lower = {name.lower(): name for name in names}

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


_Read = Callable[[_Reader, str], Any]
"""How one word of an action is read (a method of `_Reader`, or `_one_of`'s)."""
_Form = Callable[[_Reader, str, list[str]], Action | None]
"""The reader of a verb's words: it gives None when the words do not fit the verb."""


def _one_of(allowed: Sequence[str], what: str) -> _Read:
    """The reader of a word that is one of `allowed`, refused as not a `what`."""
    return lambda read, word: read.word_of(word, allowed, what)


def _form(kind: type[Action], *reads: _Read) -> _Form:
    """The reader of `kind`, whose words after the verb are its fields, each read in turn by
    one of `reads` (the verb itself is its first field when it has no fixed one)."""

    def form(read: _Reader, verb: str, args: list[str]) -> Action | None:
        if len(args) != len(reads):
            return None
        head = () if kind.VERB else (verb,)
        return kind(*head, *(read_word(read, a) for read_word, a in zip(reads, args, strict=True)))

    return form


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


def _evidence(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """evidence deck, or evidence row N (N from 1 to 3)."""
    if len(args) == 1 and args[0].lower() == "deck":
        return Evidence(0)
    if len(args) != 2 or args[0].lower() != "row":
        return None
    if args[1] not in ("1", "2", "3"):
        raise read.bad(f"row positions are 1, 2 and 3, not {quote(args[1])}")
    return Evidence(int(args[1]))


def _play(read: _Reader, verb: str, args: list[str]) -> Action | None:
    """play CARD [ARGS]: the arguments that name residents are spelt as their names."""
    if not args:
        return None
    card = read.word_of(args[0], CARDS, "card")
    return Play(card, tuple(read.by_lower.get(a.lower(), a.lower()) for a in args[1:]))


_MOTIVE = _one_of(MOTIVES, "motive")
_FORMS: dict[str, _Form] = {
    **dict.fromkeys(BARE, _form(Verb)),
    **dict.fromkeys(NAMED, _form(Named, _Reader.name)),
    **dict.fromkeys(PLACED, _form(Placed, _Reader.district)),
    **dict.fromkeys(GROUPED, _form(Grouped, _one_of(GROUPS, "group"))),
    **dict.fromkeys(ASKING, _ask),
    "answer": _answer,
    "keep": _form(Keep, _one_of(KILLER_CARDS + BUILDINGS, "card or evidence type")),
    "name": _form(Reveal, _MOTIVE),
    "place": _form(Place, _Reader.name, _Reader.district),
    "shift": _form(Shift, _Reader.name, _Reader.district),
    "evidence": _evidence,
    "discard": _form(Discard, _one_of(DETECTIVE_CARDS, "detective card")),
    "accuse": _form(Accuse, _Reader.name, _MOTIVE),
    "play": _play,
}
"""The reader of each verb's words."""


def parse(text: str, names: Sequence[str]) -> Action:
    """The action printed as `text`; `names` are the residents this game may name."""
    verb, args, bad = read_verb(text, USAGE, text.split())
    form = _FORMS.get(verb)
    action = None if form is None else form(_Reader(bad, names), verb, args)
    if action is None:
        raise bad(f"wrong words after {quote(verb)}")
    return action
