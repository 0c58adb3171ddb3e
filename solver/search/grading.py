"""How a review values one decision: the move made and the solver's best, in one unit, and the
thresholds that grade the loss between them (solver/review.py reads them).

A game's search module may define `GRADING` (its values' unit and thresholds) and
`judge(turn, advice, action) -> Judged | None` for decisions its advice alone cannot value
(a move the search did not score, or one scored in another unit than the best move). Without
`judge`, `by_candidates` reads both values off the advice.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines import Action
from solver.search import Advice, Candidate


@dataclass(frozen=True)
class Grading:
    """A unit of value and the largest loss each grade allows (above `mistake`: a blunder)."""

    unit: str
    good: float
    inaccuracy: float
    mistake: float
    meaning: str = ""
    """What the unit measures, for a person reading the review once."""

    def grade(self, loss: float) -> str:
        """The grade of a decision that lost `loss` (in `unit`) against the solver's move:
        best (nothing lost), good, inaccuracy, mistake or blunder."""
        if loss <= 1e-9:
            return "best"
        if loss <= self.good:
            return "good"
        if loss <= self.inaccuracy:
            return "inaccuracy"
        return "mistake" if loss <= self.mistake else "blunder"


CHANCE = Grading("win chance", 0.02, 0.05, 0.15, "the chance of winning")
"""For values that are chances: 2 points of the winning chance are good, 15 a mistake."""


@dataclass(frozen=True)
class Judged:
    """A decision valued: the move made and the best move, both in `grading`'s unit."""

    made: Candidate
    best: Candidate
    grading: Grading

    @property
    def loss(self) -> float:
        return max(self.best.value - self.made.value, 0.0)


def by_candidates(advice: Advice, action: Action, grading: Grading) -> Judged | None:
    """The decision valued off the advice's own candidates: None when the search did not
    score `action`, or weighed no alternative (a routine step)."""
    if len(advice.candidates) < 2:
        return None
    made = next((c for c in advice.candidates if c.action == action), None)
    if made is None:
        return None
    best = max(advice.candidates, key=lambda c: c.value)
    return Judged(made, best, grading)
