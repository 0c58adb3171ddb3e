"""Serial Killer's actions, each printed in the notation a person types at the prompt.

    place 3                  put your pawn on district 3 (Brooklyn) at the start
    pass                     pass for the rest of this round's purchase phase
    buy 1 weapon             the weapon track moves up one (shared)
    buy 2 move 5             move your pawn to district 5
    buy 3 investigate        draw the top card of the deck in your district (also 4, 5, 6
                             when the substitution rule allows)
    buy 4 briefing blue      look at one co-located player's hand (colour or seat number;
                             `buy 4 briefing` when the option briefs everyone there)
    buy 5 first              claim the first-player marker
    buy 6 lab 2,5            look at the lab, paying to see rotated positions 2 and 5 too
    end                      end your pick (only when a pick may buy several dice)
    discard WPN.3            the card your hand of five puts on top of the lab
    declare AGE.1 SEX.4 ...  attempt a declaration: one trait of each genre, in genre order
    skip                     do not attempt a declaration this round

Lab positions count from 1, the bottom (oldest) card. Seats are printed by their colour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.actions import Action, Refusal, read_verb
from engines.serial_killer.material import COLOURS, Components
from engines.values import quote

ACTIONS = ("weapon", "move", "investigate", "briefing", "first", "lab")
FACE = {"weapon": 1, "move": 2, "briefing": 4, "first": 5, "lab": 6}
"""The face of each action's die (Investigate is a 3, or a 4-6 by substitution)."""


class Place(Action, verb="place"):
    district: int


class Pass(Action, verb="pass"):
    """No more buys for the rest of this round's purchase phase."""


class End(Action, verb="end"):
    """The end of a pick that may buy several dice."""


class Skip(Action, verb="skip"):
    """No declaration this round."""


class Weapon(Action, verb="buy 1 weapon"):
    """The weapon track moves up one (shared)."""


class Move(Action, verb="buy 2 move"):
    district: int


class Investigate(Action):
    """The top card of the deck in the buyer's district, bought with a 3 (or 4-6 by
    substitution)."""

    face: int

    def __str__(self) -> str:
        return f"buy {self.face} investigate"


class Briefing(Action, verb="buy 4 briefing"):
    """`target` None: every co-located player (option `briefing_scope` "all")."""

    target: int | None

    def spell(self, name: str, value: Any) -> list[str]:
        """A seat is printed by its colour."""
        if isinstance(value, int) and 0 <= value < len(COLOURS):
            return [COLOURS[value]]
        return super().spell(name, value)


class First(Action, verb="buy 5 first"):
    """The first-player marker."""


class Lab(Action, verb="buy 6 lab"):
    """`positions`: the rotated positions paid for, from 1 (the bottom), sorted."""

    positions: tuple[int, ...] = ()

    def spell(self, name: str, value: Any) -> list[str]:
        """The positions are one word, joined by commas."""
        return [",".join(map(str, value))] if value else []


class Discard(Action, verb="discard"):
    card: str


class Declare(Action, verb="declare"):
    """One card per genre, in genre order."""

    profile: tuple[str, ...]


BUYS = (Weapon, Move, Investigate, Briefing, First, Lab)
SerialKillerAction = (
    Place
    | Pass
    | End
    | Skip
    | Weapon
    | Move
    | Investigate
    | Briefing
    | First
    | Lab
    | Discard
    | Declare
)

USAGE = (
    "place D, pass, buy 1 weapon, buy 2 move D, buy F investigate (F 3-6), "
    "buy 4 briefing COLOUR, buy 5 first, buy 6 lab [P,Q,...], end, discard CARD, "
    "declare CARD... (one per genre), skip"
)


def face_of(action: Action) -> int | None:
    """The face of the die a buy takes (None for an action that is no buy)."""
    if isinstance(action, Investigate):
        return action.face
    return FACE.get(type(action).__name__.lower())


def parse(text: str, parts: Components, players: int) -> SerialKillerAction:
    """The action printed as `text` (case, spacing and commas are forgiven)."""
    verb, args, bad = read_verb(text, USAGE, text.strip().replace(",", " ").split())
    simple: dict[str, type[Pass | End | Skip]] = {"pass": Pass, "end": End, "skip": Skip}
    if verb in simple:
        if args:
            raise bad(f"{verb!r} takes nothing after it")
        return simple[verb]()
    if verb == "place":
        if len(args) != 1:
            raise bad("'place' takes one district, 1 to 7")
        return Place(_district(args[0], bad))
    if verb == "discard":
        if len(args) != 1 or args[0].upper() not in parts.ids:
            raise bad(f"'discard' takes one card id such as {parts.ids[0]}")
        return Discard(args[0].upper())
    if verb == "declare":
        return Declare(_profile(args, parts, bad))
    if verb == "buy":
        return _buy(args, parts, players, bad)
    raise bad(f"unknown move {quote(verb)}")


def _district(word: str, bad: Refusal) -> int:
    if word not in {str(d) for d in range(1, 8)}:
        raise bad(f"districts are 1 to 7, not {quote(word)}")
    return int(word)


def _profile(args: list[str], parts: Components, bad: Refusal) -> tuple[str, ...]:
    cards = [word.upper() for word in args]
    unknown = [card for card in cards if card not in parts.ids]
    by_genre = {parts.genre_of(card): card for card in cards}
    if unknown or len(cards) != len(parts.genres) or len(by_genre) != len(cards):
        raise bad(
            f"'declare' takes one card of each genre ({', '.join(parts.genre_ids)})"
            + (f"; unknown card {quote(unknown[0])}" if unknown else "")
        )
    return tuple(by_genre[genre] for genre in parts.genre_ids)


def _buy(args: list[str], parts: Components, players: int, bad: Refusal) -> SerialKillerAction:
    if len(args) < 2 or args[0] not in {"1", "2", "3", "4", "5", "6"}:
        raise bad("'buy' takes a die face 1-6 and an action")
    face, kind, rest = int(args[0]), args[1].lower(), args[2:]
    if kind not in ACTIONS:
        raise bad(f"the actions are {', '.join(ACTIONS)}, not {quote(kind)}")
    if kind in FACE and face != FACE[kind]:
        raise bad(f"{kind} is bought with a {FACE[kind]}, not a {face}")
    return _BUY_READERS[kind](face, rest, players, bad)


def _investigate(face: int, rest: list[str], players: int, bad: Refusal) -> SerialKillerAction:
    if face < 3 or rest:
        raise bad("investigate takes a 3 (or a 4, 5, 6 by substitution) and nothing more")
    return Investigate(face)


def _move(face: int, rest: list[str], players: int, bad: Refusal) -> SerialKillerAction:
    if len(rest) != 1:
        raise bad("move takes one district, 1 to 7")
    return Move(_district(rest[0], bad))


def _briefing(face: int, rest: list[str], players: int, bad: Refusal) -> SerialKillerAction:
    if not rest:
        return Briefing(None)
    if len(rest) != 1:
        raise bad("briefing takes one player (a colour or a seat number)")
    return Briefing(_seat(rest[0], players, bad))


def _lab(face: int, rest: list[str], players: int, bad: Refusal) -> SerialKillerAction:
    if not all(word.isdigit() and int(word) > 0 for word in rest):
        raise bad("lab takes lab positions counted from 1, the bottom card")
    positions = sorted(int(word) for word in rest)
    if len(set(positions)) != len(positions):
        raise bad("name each lab position once")
    return Lab(tuple(positions))


def _plain(made: Callable[[], SerialKillerAction], word: str) -> BuyReader:
    """The reader of an action that takes nothing after its word (weapon, first)."""

    def read(face: int, rest: list[str], players: int, bad: Refusal) -> SerialKillerAction:
        if rest:
            raise bad(f"{word} takes nothing more")
        return made()

    return read


BuyReader = Callable[[int, list[str], int, Refusal], SerialKillerAction]
_BUY_READERS: dict[str, BuyReader] = {
    "weapon": _plain(Weapon, "weapon"),
    "move": _move,
    "investigate": _investigate,
    "briefing": _briefing,
    "first": _plain(First, "first"),
    "lab": _lab,
}
"""How the words after `buy FACE ACTION` are read, by action (ACTIONS)."""


def _seat(word: str, players: int, bad: Refusal) -> int:
    colours = list(COLOURS[:players])
    if word.lower() in colours:
        return colours.index(word.lower())
    if word.isdigit() and int(word) < players:
        return int(word)
    raise bad(f"the players are {', '.join(colours)} (or 0 to {players - 1}), not {quote(word)}")
