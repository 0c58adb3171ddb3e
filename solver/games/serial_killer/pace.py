"""The race's pace, read off the public record: the cards each player drew round by round,
how fast ferocity grows, and the chance the decks run out while a roll still reaches it.

The game is judged only once every deck is out (or everyone has declared); until then
ferocity grows every round. Whether waiting pays therefore turns on two public rates: the
cards the table draws a round and ferocity's growth a round. Both are read from the rounds
played (the last few: the pace changes as points run out), never assumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines import Observation
from engines.serial_killer.observations import Draw, Roll, RoundEnd
from solver.games.serial_killer.race import roll_chance

RECENT = 3
"""The completed rounds the table's pace is read from."""
HORIZON = 12
"""The rounds ahead the outlook follows (ferocity outgrows any roll well before)."""


@dataclass(frozen=True)
class Round:
    """One round of the record: the cards each seat drew in it and, once it is over, how
    much ferocity grew at its end."""

    draws: dict[int, int]
    growth: int | None  # None: the round is still being played

    @property
    def drawn(self) -> int:
        return sum(self.draws.values())


def rounds_of(observations: Sequence[Observation], start_ferocity: int) -> list[Round]:
    """Every round of `observations` (an information set's, read as their kinds) in order,
    the one being played last."""
    rounds: list[Round] = []
    draws: dict[int, int] | None = None
    ferocity = start_ferocity
    for obs in observations:
        match obs:
            case Roll():
                draws = {}
            case Draw(seat=seat) if draws is not None:
                draws[seat] = draws.get(seat, 0) + 1
            case RoundEnd(ferocity=now) if draws is not None:
                rounds.append(Round(draws, now - ferocity))
                ferocity, draws = now, None
    if draws is not None:
        rounds.append(Round(draws, None))
    return rounds


@dataclass(frozen=True)
class Pace:
    """The table's recent rounds: what they drew and how much ferocity grew."""

    rounds: tuple[Round, ...]

    @property
    def played(self) -> tuple[Round, ...]:
        """The last RECENT completed rounds."""
        return tuple(r for r in self.rounds if r.growth is not None)[-RECENT:]

    @property
    def current(self) -> Round | None:
        last = self.rounds[-1] if self.rounds else None
        return last if last is not None and last.growth is None else None

    def lately(self, seat: int) -> int:
        """The cards `seat` drew this round and the last."""
        completed = [r for r in self.rounds if r.growth is not None][-1:]
        current = [self.current] if self.current is not None else []
        return sum(r.draws.get(seat, 0) for r in completed + current)

    @property
    def growth(self) -> float | None:
        """Ferocity's mean growth a round lately (None before a round has ended)."""
        played = self.played
        return sum(r.growth or 0 for r in played) / len(played) if played else None

    def runs_out(self, cards_left: int) -> list[float]:
        """Index r: the chance the last card is drawn r rounds from now (0: this round), the
        table drawing each round as many cards as in one of its recent rounds (each equally
        likely); what is left past HORIZON rounds is the decks standing still."""
        played = self.played
        if cards_left <= 0:
            return [1.0]
        if not played:
            return []
        so_far = self.current.drawn if self.current is not None else 0
        # left[n]: the chance n cards are still undrawn after the rounds so far
        left = {cards_left: 1.0}
        chances: list[float] = []
        for r in range(HORIZON):
            after: dict[int, float] = {}
            out = 0.0
            for n, p in left.items():
                for past in played:
                    drawn = max(past.drawn - so_far, 0) if r == 0 else past.drawn
                    rest = n - drawn
                    if rest <= 0:
                        out += p / len(played)
                    else:
                        after[rest] = after.get(rest, 0.0) + p / len(played)
            chances.append(out)
            left = after
            if not left:
                break
        return chances

    def outlook(self, dice: int, ferocity: int, cards_left: int) -> float | None:
        """The chance the decks run out and `dice` then reach ferocity (grown by its recent
        rate for every round before the last one: the final round has no growth). None
        before a round has ended: there is no pace to read yet."""
        growth = self.growth
        if growth is None:
            return None
        return sum(
            p * roll_chance(dice, round(ferocity + growth * r))
            for r, p in enumerate(self.runs_out(cards_left))
        )


def pace_of(observations: Sequence[Observation], start_ferocity: int) -> Pace:
    return Pace(tuple(rounds_of(observations, start_ferocity)))
