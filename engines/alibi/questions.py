"""Alibi's question language (rules/alibi.md, "Questions"): a scope and a subject.

    scope    hand | seen
    subject  type:weapon | group:poison | detail:noon | cards:car-front-seat,poison-arsenic

Every subject denotes a fixed set of cards, so an answer is a count over that set; observations
carry the set itself, and a solver needs no deck knowledge to turn an answer into a constraint.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache

from engines.actions import Domain, cards_domain, choice_domain
from engines.alibi.material import TYPES, Deck
from engines.values import one_of, quote

SCOPES: tuple[str, ...] = ("hand", "seen")
KINDS: tuple[str, ...] = ("type", "group", "detail", "cards")


@dataclass(frozen=True)
class Subject:
    """What a question counts. `value` is a name, or a tuple of card ids for `cards` (sorted)."""

    kind: str
    value: str | tuple[str, ...]

    def __post_init__(self) -> None:
        if isinstance(self.value, tuple) and all(isinstance(card, str) for card in self.value):
            object.__setattr__(self, "value", tuple(sorted(self.value)))

    def __str__(self) -> str:
        value = ",".join(self.value) if isinstance(self.value, tuple) else self.value
        return f"{self.kind}:{value}"

    def cards(self, deck: Deck) -> tuple[str, ...]:
        """The cards this subject counts, in deck order."""
        if isinstance(self.value, tuple):
            wanted = set(self.value)
            return tuple(card for card in deck.ids if card in wanted)
        if self.kind == "type":
            return deck.of_type(self.value)
        if self.kind == "group":
            return deck.of_group(self.value)
        return deck.of_detail(self.value)

    def words(self, deck: Deck) -> str:
        """The subject as a person asks it: "Poison cards", "noon cards", "of Car: Trunk"."""
        if isinstance(self.value, tuple):
            return cards_in_words(self.value, deck)
        if self.kind == "type":
            return f"{self.value} cards"
        if self.kind == "group":
            return f"{deck.group_names[self.value]} cards"
        return f"{deck.detail_names[self.value]} cards"


def parse_subject(text: str, deck: Deck) -> Subject:
    """The subject written `kind:value`; raises ValueError saying what is wrong."""
    kind, colon, value = text.partition(":")
    if not colon or kind not in KINDS:
        raise ValueError(f"a subject is one of {', '.join(k + ':...' for k in KINDS)}")
    if kind == "cards":
        if not value:
            raise ValueError("no card is named after 'cards:'")
        cards = tuple(value.split(","))
        unknown = [card for card in cards if card not in deck.by_id]
        if unknown:
            raise ValueError(unknown_card(unknown[0], deck))
        if len(set(cards)) != len(cards):
            raise ValueError("a card is named twice")
        return Subject(kind, cards)
    known = {"type": TYPES, "group": deck.groups, "detail": deck.details}[kind]
    if value not in known:
        raise ValueError(f"unknown {kind} {quote(value)}")
    return Subject(kind, value)


def is_subject(value: object, deck: Deck) -> bool:
    """Whether `value` is a Subject of `deck`, as `parse_subject` would build it."""
    if type(value) is not Subject or not one_of(value.kind, KINDS):
        return False
    if value.kind == "cards":
        return _card_lists(deck).accepts(value.value)
    known = {"type": TYPES, "group": deck.groups, "detail": deck.details}[value.kind]
    return type(value.value) is str and value.value in known


@cache
def _card_lists(deck: Deck) -> Domain:
    return cards_domain(choice_domain(deck.ids), range(1, len(deck.ids) + 1))


def question_words(scope: str, subject: Subject, deck: Deck) -> str:
    """The question in plain words: "how many Poison cards in your hand"."""
    if scope == "hand":
        return f"how many {subject.words(deck)} in your hand"
    return f"how many {subject.words(deck)} have you seen"


def subject_text(subject: Subject) -> str:
    """A subject as typed in the notation: the name alone, or the cards."""
    if isinstance(subject.value, tuple):
        return " ".join(subject.value)
    return subject.value


def listed_subjects(deck: Deck, single_cards: bool) -> list[Subject]:
    """The subjects `legal_actions` offers: every type, group and detail, and single cards.

    Card lists of two or more cards are legal but not listed (there are 2**78 of them). When
    single-card questions are forbidden, so are the details that name one card.
    """
    subjects = [Subject("type", kind) for kind in TYPES]
    subjects += [Subject("group", group) for group in deck.groups]
    details = [Subject("detail", detail) for detail in deck.details]
    subjects += [s for s in details if single_cards or len(s.cards(deck)) > 1]
    if single_cards:
        subjects += [Subject("cards", (card,)) for card in deck.ids]
    return subjects


def unknown_card(text: str, deck: Deck) -> str:
    """Why `text` is no card of `deck`, with the card ids closest to it."""
    close = difflib.get_close_matches(text, list(deck.by_id), n=2, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return (
        f"unknown card {quote(text)}{hint}; a card is GROUP-DETAIL, e.g. {next(iter(deck.by_id))}"
    )


def cards_in_words(cards: tuple[str, ...], deck: Deck) -> str:
    """A card list as a subject short enough to say: whole groups by their name ("of Studio
    (all 3), Car: Trunk"), and most of one type by the cards it leaves out ("place cards
    except Car: Trunk")."""
    chosen = set(cards)
    kinds = {deck.by_id[card].type for card in cards}
    if len(kinds) == 1 and len(cards) > 3:
        (kind,) = kinds
        missing = [c for c in deck.of_type(kind) if c not in chosen]
        if len(missing) < len(cards) / 2:
            left = " and ".join(deck.by_id[c].name for c in missing)
            return f"{kind} cards" + (f" except {left}" if left else "")
    parts, done = [], set()
    for card in cards:
        group = deck.by_id[card].group
        if group in done:
            continue
        members = deck.of_group(group)
        if len(members) > 1 and set(members) <= chosen:
            parts.append(f"{deck.group_names[group]} (all {len(members)})")
            done.add(group)
        else:
            parts.append(deck.by_id[card].name)
    return "of " + ", ".join(parts)
