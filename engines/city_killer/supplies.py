"""City Killer's hidden draws (the decks, the evidence tokens, the group-token stack), the
evidence checks and the card row. In a view every draw takes what the seat's observations say
came out (`_observed`)."""

from __future__ import annotations

from typing import Any

from engines.city_killer import observations as seen
from engines.city_killer.board import UNKNOWN, Board
from engines.city_killer.frames import HandLimit
from engines.city_killer.material import DETECTIVE, KILLER, ROW


class Supplies(Board):
    """Draws, evidence checks and the card row."""

    def _reshuffle(self, pile: list[str]) -> None:
        """Shuffle `pile` in place as `random.Random.shuffle` does, each place a chance
        node whose outcome is the place swapped in (piles hold equal cards)."""
        for i in reversed(range(1, len(pile))):
            j = self._chance_draw(range(i + 1), ())
            pile[i], pile[j] = pile[j], pile[i]

    def _reshuffle_discards(self, pile: str, deck: list[str], discards: list[str]) -> None:
        """Put the `discards` of an empty `deck` back into it, shuffled, for all to see."""
        deck.extend(discards)
        discards.clear()
        self._reshuffle(deck)
        self._emit(seen.Reshuffle(pile, len(deck)))

    def _observed(self, kind: str, value: Any) -> Any:
        """`value`, or in a view what the observations say came out."""
        if self._script is not None:
            queue = self._script.get(kind)
            if queue:
                return queue.popleft()
            self._stood_in = True  # a record cut inside a move: its outcome comes later
            return UNKNOWN
        return value

    def _draw_detective_card(self, blind: bool) -> str | None:
        deck = self._detective_deck
        if not deck and self.game.options["empty_deck"] == "reshuffle" and self.detective_discard:
            self._reshuffle_discards("detective-deck", deck, self.detective_discard)
        if not deck:
            return None
        card = self._observed("detective-card", deck.pop(0))
        if blind:
            self._emit(seen.Draw("detective-deck", DETECTIVE, None))
            self._emit(seen.Drew("detective-deck", card), to=[DETECTIVE])
        else:
            self._emit(seen.Draw("detective-deck", "row", card))
        return card

    def _give_evidence(self, count: int = 1) -> list[str]:
        """The detective takes `count` random evidence tokens (he alone sees their types)."""
        drawn = []
        for _ in range(count):
            if not self._supply and self.evidence_discard:
                self._reshuffle_discards("evidence", self._supply, self.evidence_discard)
            if not self._supply:
                break
            token = self._observed("evidence", self._supply.pop(0))
            self._emit(seen.Draw("evidence", DETECTIVE, None))
            self._emit(seen.Drew("evidence", token), to=[DETECTIVE])
            drawn.append(token)
        self._evidence.extend(drawn)
        return drawn

    def _killer_draws(self) -> None:
        deck = self._killer_deck
        if not deck and self.game.options["empty_deck"] == "reshuffle" and self.killer_discard:
            self._reshuffle_discards("killer-deck", deck, self.killer_discard)
        if not deck:
            return
        card = self._observed("killer-card", deck.pop(0))
        self._emit(seen.Draw("killer-deck", KILLER, None))
        self._emit(seen.Drew("killer-deck", card), to=[KILLER])
        self._killer_hand.append(card)
        self.killer_hand_size += 1

    def _draw_stack(self, seat: str, source: str) -> str | None:
        """A random stack token, shown to both: the group it names."""
        if not self._stack:
            return None
        group = self._observed("stack", self._chance_draw(tuple(self._stack)))
        if group in self._stack:
            self._stack.remove(group)
        elif self._stack:
            self._stack.pop()
        self.revealed_tokens.append(group)
        alive = any(self.resident(n).group == group for n in self.living)
        if not alive and (source == "city" or self.game.options["fire_empty_group"] == "c2"):
            self.out_tokens.append(group)
        elif source == "fire":
            self._stack.append(group)  # shuffled back at once: draws are uniform anyway
        else:
            self._pending_stack_tokens.append(group)
        self._emit(seen.GroupToken(seat, group, source, not alive))
        return group

    def _take_from(self, hand: list[str], card: str) -> None:
        hand.remove(card if card in hand else UNKNOWN)

    def _evidence_check(self, position: int) -> None:
        assert self.pawn is not None
        kind = self.buildings[self.pawn]
        self._take_from(self._evidence, kind)
        self.evidence_discard.append(kind)
        self.checks += 1
        if position == 0:
            self._emit(seen.EvidenceCheck(kind, 0, None))
            card = self._draw_detective_card(blind=True)
        else:
            card = self.row[position - 1]
            self._emit(seen.EvidenceCheck(kind, position, card))
            self.row[1:position] = self.row[0 : position - 1]
            self.row[0] = None
            self._refill(1)
        if card is not None:
            self._gain(card)

    def _refill(self, count: int) -> None:
        """Deal up to `count` cards into position 1 onwards, while the row has room."""
        for _ in range(count):
            if sum(c is not None for c in self.row) >= self.row_limit or self.row[0] is not None:
                return
            card = self._draw_detective_card(blind=False)
            if card is None:
                return
            self.row[0] = card

    def _gain(self, card: str) -> None:
        self._detective_hand.append(card)
        if len(self._detective_hand) > 1:
            self._push(HandLimit())

    def _city_row(self) -> None:
        """C3: the rightmost card leaves, the rest slide right, a new card comes in at
        position 1 (after Destroy evidence, the row is refilled to three)."""
        cards = [c for c in self.row if c is not None]
        if cards:
            self.detective_discard.append(cards.pop())
        deal = 1
        if self.row_destroyed:
            self.row_destroyed = False
            if self.game.options["destroy_evidence_end"] == "refill":
                self.row_limit = ROW
                deal = ROW - len(cards)
        self.row = [None] * (ROW - len(cards)) + cards
        for _ in range(deal):
            if len(cards) >= self.row_limit:
                break
            card = self._draw_detective_card(blind=False)
            if card is None:
                break
            self.row[max(i for i, c in enumerate(self.row) if c is None)] = card
            cards.append(card)
        self._emit(seen.Row(tuple(self.row)))
