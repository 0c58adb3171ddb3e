"""Alibi's actions, each printed in the notation a person types at the prompt.

    lay poison                        lay the set of a group from your hand (before asking)
    ask 3 hand group:poison           ask player 3 a question (see questions.py)
    ask 2 seen cards:car-front-seat,slim-slant-morning
    accuse SUSPECT PLACE WEAPON FEELING
    pass poison-arsenic rage-jealousy the cards you pass to your left after a round
    solution SUSPECT PLACE WEAPON FEELING   (variant "solutions": your written solution)

Card lists are canonical: pass and question cards are sorted by id, accusations and solutions
are in type order (suspect, place, weapon, feeling) whatever order they were typed in.
"""

from __future__ import annotations

from contextlib import suppress

from engines.actions import Action, read_verb
from engines.alibi.material import TYPES, Deck
from engines.alibi.questions import SCOPES, Subject, parse_subject, unknown_card
from engines.values import quote


class Lay(Action, verb="lay"):
    group: str


class Ask(Action, verb="ask"):
    target: int
    scope: str
    subject: Subject


class Pass(Action, verb="pass"):
    """The cards a player passes left; stored sorted, so equal choices print equally."""

    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        # Only card ids can be put in order; anything else is refused by `check_action`.
        if isinstance(self.cards, tuple):
            with suppress(TypeError):
                object.__setattr__(self, "cards", tuple(sorted(self.cards)))


class Accuse(Action, verb="accuse"):
    """One card of each type, in type order (`box` order)."""

    cards: tuple[str, str, str, str]


class Solution(Action, verb="solution"):
    """A written solution (variant "solutions"): one card of each type, in type order."""

    cards: tuple[str, str, str, str]


AlibiAction = Lay | Ask | Pass | Accuse | Solution

USAGE = (
    "lay GROUP, ask SEAT hand|seen type:T|group:G|detail:D|cards:C1,C2,..., "
    "accuse SUSPECT PLACE WEAPON FEELING, pass CARD..., solution SUSPECT PLACE WEAPON FEELING"
)


def parse(text: str, deck: Deck, players: int) -> AlibiAction:
    """The action printed as `text` (case and spacing are forgiven)."""
    verb, args, bad = read_verb(text, USAGE, text.strip().lower().split())
    if verb == "lay":
        if len(args) != 1 or args[0] not in deck.group_names:
            raise bad(f"'lay' takes one group of this deck: {', '.join(deck.groups)}")
        return Lay(args[0])
    if verb == "ask":
        if len(args) != 3:
            raise bad("'ask' takes a seat, a scope and a subject")
        if args[0] not in {str(seat) for seat in range(players)}:
            raise bad(f"no seat {quote(args[0])}; the seats are 0 to {players - 1}")
        if args[1] not in SCOPES:
            raise bad(f"the scope is {' or '.join(SCOPES)}, not {quote(args[1])}")
        try:
            return Ask(int(args[0]), args[1], parse_subject(args[2], deck))
        except ValueError as error:
            raise bad(str(error)) from None
    if verb == "pass":
        unknown = [card for card in args if card not in deck.by_id]
        if not args or unknown or len(set(args)) != len(args):
            why = unknown_card(unknown[0], deck) if unknown else "name each card once"
            raise bad(f"'pass' takes one or more cards: {why}")
        return Pass(tuple(args))
    if verb in ("accuse", "solution"):
        unknown = [card for card in args if card not in deck.by_id]
        if unknown:
            raise bad(
                f"'{verb}' takes four cards, one of each type: {unknown_card(unknown[0], deck)}"
            )
        cards = one_per_type(args, deck)
        if cards is None:
            raise bad(f"'{verb}' takes four cards, one of each type ({', '.join(TYPES)})")
        return Accuse(cards) if verb == "accuse" else Solution(cards)
    raise bad(f"unknown move {quote(verb)}")


def one_per_type(args: list[str], deck: Deck) -> tuple[str, str, str, str] | None:
    """The cards in type order, or None unless they are four known cards of distinct types."""
    if len(args) != 4 or any(card not in deck.by_id for card in args):
        return None
    by_type = {deck.by_id[card].type: card for card in args}
    if len(by_type) != 4:
        return None
    suspect, place, weapon, feeling = (by_type[kind] for kind in TYPES)
    return suspect, place, weapon, feeling
