"""Alibi's setup: who dealt, then the seat's hand picked from the deck ("dealer 1", "deal
...", "hands": the sizes follow from the dealer)."""

from __future__ import annotations

from collections.abc import Mapping

from engines import Game, Seat
from engines.alibi import TYPES
from engines.alibi.game import Alibi, hand_sizes
from sleuth.assist.setup import Pick, answer


def _dealers(game: Alibi) -> tuple[int, ...]:
    fixed = game.options["dealer"]
    return tuple(range(game.players)) if fixed == "random" else (int(fixed),)


def _dealer(game: Alibi, chosen: Mapping[str, str]) -> int | None:
    dealers = _dealers(game)
    given = answer(chosen, "dealer")
    if len(dealers) == 1:
        return dealers[0]
    if len(given) == 1 and given[0].isdigit() and int(given[0]) in dealers:
        return int(given[0])
    return None


def picks(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]:
    """Who dealt (unless the game's `dealer` option says it already: asked once), then the
    seat's hand."""
    assert isinstance(game, Alibi) and isinstance(seat, int)
    dealers = _dealers(game)
    found = []
    if len(dealers) > 1:
        found.append(
            Pick(
                "dealer", "Who dealt", tuple((str(s), f"player {s}") for s in dealers), reload=True
            )
        )
    dealer = _dealer(game, chosen)
    if dealer is None:
        return found
    deck = game.deck
    count = hand_sizes(len(deck.ids) - len(TYPES), game.players, dealer)[seat]
    found.append(
        Pick(
            "deal",
            f"Your {count} cards as dealt",
            tuple((card, deck.by_id[card].detail) for card in deck.ids),
            count=count,
            groups=tuple((group, tuple(deck.of_group(group))) for group in deck.groups),
        )
    )
    return found


def entries(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]:
    assert isinstance(game, Alibi)
    dealer = _dealer(game, chosen)
    if dealer is None:
        return []
    lines = [f"dealer {dealer}"]
    cards = answer(chosen, "deal")
    if cards:
        lines += ["deal " + " ".join(cards), "hands"]
    return lines
