"""Alibi's question language (rules/alibi.md, "Questions"): a scope and a subject.

    scope    hand | seen
    subject  type:weapon | group:poison | detail:noon | cards:car-front-seat,poison-arsenic

Every subject denotes a fixed set of cards, so an answer is a count over that set; observations
carry the set itself, and a solver needs no deck knowledge to turn an answer into a constraint.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from contextlib import suppress
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from engines.actions import Domain, cards_domain, choice_domain
from engines.alibi.material import TYPES, Deck
from engines.values import quote

SCOPES: tuple[str, ...] = ("hand", "seen")


class SubjectKind(StrEnum):
    """What a subject names: a type, a group or a detail by its name, or cards by their ids.
    Each value is the word before the colon of the stored subject (`group:poison`)."""

    TYPE = "type"
    GROUP = "group"
    DETAIL = "detail"
    CARDS = "cards"

    def names(self, deck: Deck) -> Collection[str]:
        """The names a subject of this kind may give in `deck` (for CARDS: the card ids)."""
        match self:
            case SubjectKind.TYPE:
                return TYPES
            case SubjectKind.GROUP:
                return deck.groups
            case SubjectKind.DETAIL:
                return deck.details
            case SubjectKind.CARDS:
                return deck.ids

    def cards_named(self, name: str, deck: Deck) -> tuple[str, ...]:
        """The cards of `deck` that the name `name` of this kind counts, in deck order."""
        match self:
            case SubjectKind.TYPE:
                return deck.of_type(name)
            case SubjectKind.GROUP:
                return deck.of_group(name)
            case SubjectKind.DETAIL:
                return deck.of_detail(name)
            case SubjectKind.CARDS:
                return (name,)

    def printed(self, name: str, deck: Deck) -> str:
        """The name `name` of this kind as the cards print it ("Poison", "noon")."""
        match self:
            case SubjectKind.TYPE:
                return name
            case SubjectKind.GROUP:
                return deck.group_names[name]
            case SubjectKind.DETAIL:
                return deck.detail_names[name]
            case SubjectKind.CARDS:
                return deck.by_id[name].name


def subject_kind(word: str) -> SubjectKind | None:
    """The kind `word` names ("group"), or None."""
    with suppress(ValueError):
        return SubjectKind(word)
    return None


@dataclass(frozen=True)
class Subject:
    """What a question counts. `value` is a name, or a tuple of card ids for `cards` (sorted).

    A kind given as its word ("type") is stored as its SubjectKind, so that subjects built
    either way are one; a word that is no kind is kept, for `is_subject` to refuse."""

    kind: SubjectKind
    value: str | tuple[str, ...]

    def __post_init__(self) -> None:
        kind = subject_kind(self.kind)
        if kind is not None:
            object.__setattr__(self, "kind", kind)
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
        return self.kind.cards_named(self.value, deck)

    def words(self, deck: Deck) -> str:
        """The subject as a person asks it: "Poison cards", "noon cards", "of Car: Trunk"."""
        if isinstance(self.value, tuple):
            return cards_in_words(self.value, deck)
        return f"{self.kind.printed(self.value, deck)} cards"


def parse_subject(text: str, deck: Deck) -> Subject:
    """The subject written `kind:value`; raises ValueError saying what is wrong."""
    word, colon, value = text.partition(":")
    kind = subject_kind(word)
    if not colon or kind is None:
        raise ValueError(f"a subject is one of {', '.join(f'{k}:...' for k in SubjectKind)}")
    if kind is SubjectKind.CARDS:
        if not value:
            raise ValueError("no card is named after 'cards:'")
        cards = tuple(value.split(","))
        unknown = [card for card in cards if card not in deck.by_id]
        if unknown:
            raise ValueError(unknown_card(unknown[0], deck))
        if len(set(cards)) != len(cards):
            raise ValueError("a card is named twice")
        return Subject(kind, cards)
    if value not in kind.names(deck):
        raise ValueError(f"unknown {kind} {quote(value)}")
    return Subject(kind, value)


def is_subject(value: object, deck: Deck) -> bool:
    """Whether `value` is a Subject of `deck`, as `parse_subject` would build it."""
    if type(value) is not Subject or type(value.kind) is not SubjectKind:
        return False
    if value.kind is SubjectKind.CARDS:
        return _card_lists(deck).accepts(value.value)
    return type(value.value) is str and value.value in value.kind.names(deck)


@cache
def _card_lists(deck: Deck) -> Domain:
    return cards_domain(choice_domain(deck.ids), range(1, len(deck.ids) + 1))


def question_words(scope: str, subject: Subject, deck: Deck) -> str:
    """The question in plain words: "how many Poison cards in your hand"."""
    if scope == "hand":
        return f"how many {subject.words(deck)} in your hand"
    return f"how many {subject.words(deck)} have you seen"


def subject_text(stored: str) -> str:
    """A subject stored as `kind:value` (a Subject's str), as typed in the notation: the name
    alone, or the cards (sorted, as a Subject keeps them)."""
    word, _, value = stored.partition(":")
    if subject_kind(word) is SubjectKind.CARDS:
        return " ".join(sorted(value.split(",")))
    return value


def listed_subjects(deck: Deck, single_cards: bool) -> list[Subject]:
    """The subjects `legal_actions` offers: every type, group and detail, and single cards.

    Card lists of two or more cards are legal but not listed (there are 2**78 of them). When
    single-card questions are forbidden, so are the details that name one card.
    """
    subjects = [Subject(SubjectKind.TYPE, kind) for kind in TYPES]
    subjects += [Subject(SubjectKind.GROUP, group) for group in deck.groups]
    details = [Subject(SubjectKind.DETAIL, detail) for detail in deck.details]
    subjects += [s for s in details if single_cards or len(s.cards(deck)) > 1]
    if single_cards:
        subjects += [Subject(SubjectKind.CARDS, (card,)) for card in deck.ids]
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
