"""Alibi's cards, loaded from `deck.json`: types, groups, details and names.

Only the structure (type, group, detail) matters to the rules; names are for people. Pure data,
shared by the engine, the solver's knowledge model and the bots.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources

TYPES: tuple[str, ...] = ("suspect", "place", "weapon", "feeling")
SCALES: tuple[str, ...] = ("full", "small")


@dataclass(frozen=True)
class Card:
    id: str
    type: str
    group: str
    detail: str
    name: str


@dataclass(frozen=True)
class Deck:
    """One deck scale: its cards in file order, and the ways questions group them."""

    scale: str
    cards: tuple[Card, ...]
    group_names: dict[str, str] = field(compare=False)
    detail_names: dict[str, str] = field(compare=False)

    # Derived once per deck (a frozen dataclass may still cache: cached_property writes to
    # the instance's __dict__); the rules and invariants ask for these after every move.
    @cached_property
    def ids(self) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards)

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.cards}

    @cached_property
    def _by_group(self) -> dict[str, tuple[str, ...]]:
        return {
            group: tuple(c.id for c in self.cards if c.group == group) for group in self.group_names
        }

    def of_type(self, kind: str) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards if card.type == kind)

    def of_group(self, group: str) -> tuple[str, ...]:
        return self._by_group.get(group, ())

    def of_detail(self, detail: str) -> tuple[str, ...]:
        """The cards showing `detail`: one per suspect for a time, otherwise a single card."""
        return tuple(card.id for card in self.cards if card.detail == detail)

    @property
    def groups(self) -> tuple[str, ...]:
        return tuple(self.group_names)

    @property
    def details(self) -> tuple[str, ...]:
        return tuple(self.detail_names)

    def type_of_group(self, group: str) -> str:
        return next(card.type for card in self.cards if card.group == group)


@cache
def load_deck(scale: str = "full") -> Deck:
    """The deck of `scale`: "full" (78 cards) or "small" (the groups listed under "small")."""
    if scale not in SCALES:
        raise ValueError(f"unknown deck scale {scale!r}; the scales are {', '.join(SCALES)}")
    data = json.loads(resources.files("engines.alibi").joinpath("deck.json").read_text("utf-8"))
    keep = set(data["small"]) if scale == "small" else {g["id"] for g in data["groups"]}
    cards = tuple(Card(**card) for card in data["cards"] if card["group"] in keep)
    used_details = {card.detail for card in cards}
    deck = Deck(
        scale,
        cards,
        {g["id"]: g["name"] for g in data["groups"] if g["id"] in keep},
        {d["id"]: d["name"] for d in data["details"] if d["id"] in used_details},
    )
    _check(deck)
    return deck


def _check(deck: Deck) -> None:
    """The structure the rules rely on: groups of three, suspect times shared, other details not."""
    assert len(set(deck.ids)) == len(deck.cards)
    for group in deck.groups:
        members = [deck.by_id[card] for card in deck.of_group(group)]
        assert len(members) == 3 and len({card.type for card in members}) == 1, group
    for detail in deck.details:
        kinds = {deck.by_id[card].type for card in deck.of_detail(detail)}
        shared = kinds == {"suspect"}
        assert shared or len(deck.of_detail(detail)) == 1, detail


def hand_sizes(cards: int, players: int, dealer: int) -> list[int]:
    """The hand sizes `deal` gives: the first `cards % players` seats from the dealer's left
    get one card more (3 players, 74 cards: 25/25/24)."""
    return [
        (cards - (seat - dealer - 1) % players + players - 1) // players for seat in range(players)
    ]
