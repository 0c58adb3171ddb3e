"""Hint levels: how much of the solver's help a person wants at the table.

- `notepad`: only what pen and paper give (cards seen, direct eliminations), the notepad the
  heuristic bots keep;
- `certain`: plus every certain fact (each one's minimal reason on request);
- `odds`: plus probabilities, labelled exact or estimated;
- `advice`: plus the best question or move and its expected information.
"""

from __future__ import annotations

import opponents
import solver
from engines import InformationSet
from sleuth.assist.store import SessionError

LEVELS = ("notepad", "certain", "odds", "advice")
DEFAULT_LEVEL = "odds"

_KINDS = {
    "certain": {"certain"},
    "odds": {"certain", "likely"},
}
"""Hint kinds each level shows from the game's own hints; `advice` shows them all."""


def check_level(level: object) -> str:
    if level not in LEVELS:
        raise SessionError(f"unknown hint level {level!r}; the levels are {', '.join(LEVELS)}")
    assert isinstance(level, str)
    return level


def hints_at(level: str, info: InformationSet, deduction: solver.Deduction) -> list[solver.Hint]:
    """The hints `level` shows for `info`: the solver's best first, then the notepad's
    crossings-off, then the remaining certain facts (each fact once)."""
    notepad = opponents.notepad(info)
    if level == "notepad":
        return notepad
    kinds = _KINDS.get(level)
    chosen = [hint for hint in solver.hints(info, deduction) if kinds is None or hint.kind in kinds]
    told = {key for hint in chosen if (key := _certainty(hint)) is not None}
    crossed = [hint for hint in notepad if _certainty(hint) not in told]
    told |= {key for hint in crossed if (key := _certainty(hint)) is not None}
    rest = [
        solver.Hint(f"{fact.text} (certain)", fact, 1.0, (), "certain", 0.5)
        for fact in deduction.certain()
        if fact not in told
    ]
    return chosen + crossed + rest


def _certainty(hint: solver.Hint) -> solver.Fact | None:
    """The fact a hint says is true for certain (its fact, or the negation of a fact it rules
    out), so that one fact is told once; None for a hint that is not a certainty."""
    if hint.fact is None or hint.probability not in (0.0, 1.0):
        return None
    return hint.fact if hint.probability == 1.0 else ~hint.fact
