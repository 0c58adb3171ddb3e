"""Noir's actions, each printed in the notation a person types at the prompt.

    kill Ada                      killer: flip an alive neighbour of his identity to dead
    disguise                      killer: draw a new identity from the top of the deck
    shift row 2 left              either: move row 2 one step (left or right), wrapping around
    shift column 3 up             either: move column 3 one step (up or down), wrapping around
    identity Dora                 inspector, first turn: choose his identity among his four cards
    draw                          inspector: the first half of exonerating, drawing the top card
    exonerate Bruno               inspector: put a card of his hand on the table as innocent
    arrest Clara                  inspector: arrest a neighbour of his identity, or it
    citizen-arrest Eve with Finn  inspector (variant): arrest a neighbour of agent Finn

Rows and columns count from 1, top row and left column first, on the current (possibly
collapsed) grid. Names and words are read without regard to case.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.actions import Action, read_verb
from engines.noir.grid import LINES
from engines.values import quote


class Kill(Action, verb="kill"):
    suspect: str


class Disguise(Action, verb="disguise"):
    """The killer takes a new identity from the top of the deck."""


class Shift(Action, verb="shift"):
    """Row or column `index` (1-based) moved one step towards `direction`."""

    line: str
    index: int
    direction: str


class Identity(Action, verb="identity"):
    suspect: str


class Draw(Action, verb="draw"):
    """The inspector draws the top card: the first half of exonerating."""


class Exonerate(Action, verb="exonerate"):
    suspect: str


class Arrest(Action, verb="arrest"):
    suspect: str


class CitizenArrest(Action):
    """The variant: arrest `suspect`, a neighbour of the agent card `agent` from the hand."""

    suspect: str
    agent: str

    def __str__(self) -> str:
        return f"citizen-arrest {self.suspect} with {self.agent}"


NoirAction = Kill | Disguise | Shift | Identity | Draw | Exonerate | Arrest | CitizenArrest

USAGE = (
    "kill NAME, disguise, shift row N left|right, shift column N up|down, identity NAME, "
    "draw, exonerate NAME, arrest NAME, citizen-arrest NAME with NAME "
    "(rows and columns count from 1)"
)

_NAMED: dict[str, type[Kill | Identity | Exonerate | Arrest]] = {
    kind.VERB: kind for kind in (Kill, Identity, Exonerate, Arrest)
}
_BARE: dict[str, type[Disguise | Draw]] = {kind.VERB: kind for kind in (Disguise, Draw)}
_VERBS = (*_NAMED, *_BARE, "shift", "citizen-arrest")


def parse(text: str, suspects: Sequence[str]) -> NoirAction:
    """The action printed as `text`; `suspects` are the names this game's grid uses."""
    verb, args, bad = read_verb(text, USAGE, text.strip().lower().split())
    by_lower = {name.lower(): name for name in suspects}

    def name(word: str) -> str:
        if word not in by_lower:
            raise bad(f"no suspect is called {quote(word)}; the suspects are {', '.join(suspects)}")
        return by_lower[word]

    if verb not in _VERBS:
        raise bad(f"unknown action {quote(verb)}")
    if verb in _BARE and not args:
        return _BARE[verb]()
    if verb in _NAMED and len(args) == 1:
        return _NAMED[verb](name(args[0]))
    if verb == "citizen-arrest" and len(args) == 3 and args[1] == "with":
        return CitizenArrest(name(args[0]), name(args[2]))
    if verb == "shift" and len(args) == 3 and args[0] in LINES:
        line, number, direction = args
        if not (number.isascii() and number.isdigit()) or int(number) < 1:
            raise bad(f"{quote(number)} is not a {line} number (they count from 1)")
        if direction not in LINES[line]:
            raise bad(f"a {line} shifts {' or '.join(LINES[line])}, not {quote(direction)}")
        return Shift(line, int(number), direction)
    raise bad(f"wrong words after {quote(verb)}")
