"""Serial Killer's notepad: what a person with pen and paper knows of the profile, which the
heuristic and the careful bot both play from."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.serial_killer import SerialKillerState
from engines.serial_killer import actions as act
from opponents.policy import Guess


def notepad_candidates(view: SerialKillerState, seat: int) -> dict[str, list[str]]:
    """Per genre, the traits `seat` has not seen (drawn, briefed, in the lab): what a notepad
    leaves (the same as the solver's candidates; it needs no genre on the card backs)."""
    seen = view.seen_by(seat)
    return {
        genre.id: [card for card in genre.cards if card not in seen] or list(genre.cards)
        for genre in view.game.parts.genres
    }


def guess(candidates: Mapping[str, Sequence[str]]) -> Guess:
    """A declaration of a random candidate per genre (a guess, unless each has one)."""
    return Guess(tuple(tuple(cards) for cards in candidates.values()), act.Declare)
