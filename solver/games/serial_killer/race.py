"""The race: how close each player is to a certain profile, read from who saw what, and the
exact odds of out-rolling ferocity.

Every player's looks are public (draws, briefing targets, lab positions viewed), so the
tokens a player has seen are known once the other players' discard choices are; the counted
worlds weigh those choices exactly, so each opponent's candidates per genre and chance of a
right declaration now are exact expectations under the seat's own posterior.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.games.serial_killer.counting import CountedWorlds
from solver.games.serial_killer.position import GenrePlan, Position, Token

_DISTRIBUTIONS: list[tuple[int, ...]] = [(1,)]  # index n: the counts for n dice


def sum_distribution(dice: int) -> tuple[int, ...]:
    """How many of the 6^dice rolls give each sum (index = sum), by convolution with one die
    at a time (a sliding sum of six), each count kept for the next."""
    while len(_DISTRIBUTIONS) <= dice:
        counts = _DISTRIBUTIONS[-1]
        nxt, window = [], 0
        for total in range(len(counts) + 6):
            window += counts[total - 1] if 0 <= total - 1 < len(counts) else 0
            window -= counts[total - 7] if 0 <= total - 7 < len(counts) else 0
            nxt.append(window)
        _DISTRIBUTIONS.append(tuple(nxt))
    return _DISTRIBUTIONS[dice]


def roll_chance(dice: int, ferocity: int) -> float:
    """P(the sum of `dice` six-sided dice is at least `ferocity`), exactly."""
    if dice <= 0:
        return 1.0 if ferocity <= 0 else 0.0
    counts = sum_distribution(dice)
    reach = sum(counts[max(ferocity, 0) :])
    return reach / 6**dice


def seen_tokens(
    position: Position, plan: GenrePlan, seat: int, delta: dict[int, Token]
) -> set[Token]:
    """The tokens of the genre `seat` has seen, given the others' discard choices."""
    seen = set(plan.drawn_by(seat))
    looks = position.looks[seat]
    for index, target in looks.briefings:
        removed = {
            delta.get(d.position) for d in plan.discards if d.seat == target and d.source < index
        }
        removed |= {t for p, t in plan.own_discards.items() if _placed_before(plan, p, index)}
        seen |= {
            t
            for t, who in plan.drawn
            if who == target and plan.drawn_at[t] < index and t not in removed
        }
    for _, positions in looks.labs:
        for p in positions:
            token = plan.own_discards.get(p) or delta.get(p)
            if token is not None and token[0] == plan.genre:
                seen.add(token)
    return seen


def _placed_before(plan: GenrePlan, position: int, index: int) -> bool:
    """Whether the seat's own discard at lab `position` came before observation `index`
    (lab positions grow with time, so compare with the others' discards' positions)."""
    return plan.own_discard_at.get(position, 10**9) < index


@dataclass(frozen=True)
class Progress:
    """One player's position in the race."""

    seat: int
    candidates: dict[str, float]  # genre -> expected candidates left
    certain: dict[str, float]  # genre -> chance they know it for sure
    chance: float  # chance a declaration now (their best guess) is right


def progress(position: Position, worlds: CountedWorlds, seat: int) -> Progress:
    """`seat`'s candidates per genre and chance of a right declaration now, as expectations
    over the discard choices weighed by the counted worlds."""
    candidates, certain, chance = {}, {}, 1.0
    for genre, plan in position.plans.items():
        genre_worlds = worlds.genres[genre]
        total = genre_worlds.total
        if not total:
            return Progress(seat, {}, {}, 0.0)
        expected, sure, inverse = 0.0, 0.0, 0.0
        for delta, b in genre_worlds.choices:
            if not b.total:
                continue
            weight = b.total / total
            left = plan.size - len(seen_tokens(position, plan, seat, delta))
            if seat == position.seat:
                left = plan.size - len(_observed(plan))
            expected += weight * left
            sure += weight * (left == 1)
            inverse += weight / left
        candidates[genre], certain[genre] = expected, sure
        chance *= inverse
    return Progress(seat, candidates, certain, chance)


def _observed(plan: GenrePlan) -> set[str]:
    """The traits of the genre the seat itself has observed in play (the end's reveal of the
    profile aside)."""
    found = {card for token, (card, _) in plan.pins.items() if token != plan.bottom}
    for check in plan.hand_checks:
        found |= check.cards
    found |= {lab.card for lab in plan.lab_checks}
    return found


def own_candidates(position: Position) -> dict[str, list[str]]:
    """The traits of each genre the seat has never observed: the profile's candidates."""
    return {
        genre: [plan.revealed]
        if plan.revealed is not None
        else [card for card in plan.cards if card not in _observed(plan)]
        for genre, plan in position.plans.items()
    }
