"""Noir's sampled states: the opponent's identity is a world of the Deduction, and the cards
the seat never saw are in a uniform order among those that replay the same record (drawn by
rejection: a uniform permutation of the unseen cards, kept when the record replays)."""

from __future__ import annotations

import random

from engines import InformationSet, InvalidState, State
from engines.noir import Noir
from engines.noir import observations as seen
from solver.deduction import Deduction
from solver.games.noir import INSPECTOR_VAR, KILLER_VAR, UNCHOSEN, hidden_for

TRIES = 50
"""Shuffles of the unseen cards tried before the sample keeps the order it was given."""


def sample(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    game = Noir.of(info)
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    theirs = INSPECTOR_VAR if info.seat == KILLER_VAR else KILLER_VAR
    identity = str(world[theirs])
    if identity == UNCHOSEN:  # the inspector has not chosen: any of his cards will do
        identity = ""
    hidden = hidden_for(info, identity)
    seen_cards = _names_seen(info) | ({identity} if identity else set())
    for _ in range(TRIES):
        shuffled = dict(hidden)
        for key in ("deck", "killer_deck"):
            deck = hidden.get(key)
            if isinstance(deck, list):
                shuffled[key] = _permute_unseen(deck, seen_cards, rng)
        try:
            state = game.reconstruct(info, shuffled)
        except InvalidState:
            continue
        if state.information_set(info.seat) == info:
            return state
    return game.reconstruct(info, hidden)


def _names_seen(info: InformationSet) -> set[str]:
    """Every suspect the seat saw as a card (not merely on the grid)."""
    seen_cards: set[str] = set()
    for obs in info.observations:
        match obs:
            case seen.CitizenArrested(suspect=card, agent=agent):
                seen_cards.update((card, agent))
            case (
                seen.IdentityTold(suspect=card)
                | seen.Killed(suspect=card)
                | seen.Canvas(suspect=card)
                | seen.Drew(suspect=card)
                | seen.Exonerated(suspect=card)
                | seen.Arrested(suspect=card)
                | seen.Disguised(former=card)
                | seen.DisguiseFailed(drawn=card)
            ):
                seen_cards.add(card)
            case seen.Hand(cards=cards):
                seen_cards.update(cards)
    return seen_cards


def _permute_unseen(deck: list[str], seen_cards: set[str], rng: random.Random) -> list[str]:
    """`deck` with the cards not in `seen_cards` shuffled among their places."""
    places = [i for i, card in enumerate(deck) if card not in seen_cards]
    cards = [deck[i] for i in places]
    rng.shuffle(cards)
    out = list(deck)
    for i, card in zip(places, cards, strict=True):
        out[i] = card
    return out
