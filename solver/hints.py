"""Hints: a Deduction turned into ranked sentences a person can act on, with their reasons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines import InformationSet, game_module
from solver.model import Fact

if TYPE_CHECKING:
    from solver.deduction import Deduction


@dataclass(frozen=True)
class Hint:
    """One piece of advice. `because` holds the reasons in words (often observations)."""

    text: str
    fact: Fact | None = None
    probability: float | None = None
    because: tuple[str, ...] = ()
    kind: str = "deduction"
    score: float = 0.0  # rank: higher first

    def __str__(self) -> str:
        if not self.because:
            return self.text
        return f"{self.text} (because {'; '.join(self.because)})"


def hints(
    info: InformationSet, deduction: Deduction | None = None, limit: int | None = None
) -> list[Hint]:
    """Ranked hints for the seat of `info`: what is certain and why, what is likely, what to do.

    Raises:
        InvalidInformationSet: `info` is not an information set its game could produce.
        Inconsistent: the observations contradict each other.
        SolverTimeout: CP-SAT reached a time limit (a safety ceiling).
    """
    from solver.deduction import deduce
    from solver.games import knowledge_for
    from solver.validation import validate

    if deduction is None:
        found = deduce(info)  # validates
    else:
        found = deduction
        validate(info)
    found_hints = knowledge_for(info.game).hints(info, found)
    search = game_module(info.game, "solver.search")
    searched = getattr(search, "hints", None)  # a search may add the move its bot makes
    if searched is not None:
        found_hints = [*found_hints, *searched(info)]
    ranked = sorted(found_hints, key=lambda h: -h.score)
    return ranked if limit is None else ranked[:limit]


def percent(probability: float) -> str:
    """A probability as people read it: 67%, <1%, >99%."""
    if 0 < probability < 0.005:
        return "<1%"
    if 0.995 < probability < 1:
        return ">99%"
    return f"{probability:.0%}"
