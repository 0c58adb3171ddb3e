"""Hint levels: how much of the solver's help a person wants at the table.

- `notepad`: only what pen and paper give (cards seen, direct eliminations), the notepad the
  heuristic bots keep;
- `certain`: plus every certain fact (each one's minimal reason on request), and what the
  last entry made certain;
- `odds`: plus probabilities, labelled exact or estimated, and the odds the last entry moved;
- `advice`: plus what to do now and why (the best question or move), and the plan towards
  winning once the hidden answer is certain.

Whatever the level, hints come in the order a player needs them (solver.hints.SECTIONS):
the answer once certain, what changed, what to do, the certain facts and the odds, the
notepad.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import opponents
import solver
from engines import InformationSet
from sleuth.assist.store import SessionError
from solver.games import SeeingKnowledge, knowledge_for
from solver.hints import certainty, folded, ranked

LEVELS = ("notepad", "certain", "odds", "advice")
DEFAULT_LEVEL = "odds"

_KINDS = {
    "certain": {"answer", "certain", "new"},
    "odds": {"answer", "certain", "new", "likely", "shift"},
}
"""Hint kinds each level shows from the solver's hints; the level `advice` shows them all (what
to do too: the kinds "move", "question", "suggestion", ...)."""
FOLD_AT = 4
"""Certain facts of one kind beyond the hints are told one per line up to this many; more
share one line (the board shows them all)."""


def check_level(level: object) -> str:
    if level not in LEVELS:
        raise SessionError(f"unknown hint level {level!r}; the levels are {', '.join(LEVELS)}")
    assert isinstance(level, str)
    return level


def hints_at(
    level: str,
    info: InformationSet,
    deduction: solver.Deduction,
    changes: Sequence[solver.Hint] = (),
) -> list[solver.Hint]:
    """The hints `level` shows for `info`, ranked: the solver's, what the last entry changed
    (`changes`, solver.changes against the record before it; each fact told once, so a
    newly certain answer is told as the answer), the notepad's crossings-off, then the
    remaining certain facts (many of one kind folded into one line); hints that share a
    heading are told on one line (`solver.hints.folded`: the crossings by reason, Alibi's
    certain holdings by holder)."""
    notepad = opponents.notepad(info)
    if level == "notepad":
        return folded(notepad)
    chosen = [
        h for h in solver.hints(info, deduction, plans=level == "advice") if shown_at(level, h)
    ]
    told = {key for hint in chosen if (key := certainty(hint)) is not None}
    chosen += [h for h in changes_at(level, changes) if certainty(h) not in told]
    told = {key for hint in chosen if (key := certainty(hint)) is not None}
    crossed = [h for h in notepad if h.kind != "summary" and certainty(h) not in told]
    told |= {key for hint in crossed if (key := certainty(hint)) is not None}
    knowledge = knowledge_for(info.game)
    if isinstance(knowledge, SeeingKnowledge):  # not deductions: the seat sees them
        told |= knowledge.plainly_known(info, deduction)
    rest = _folded([fact for fact in deduction.certain() if fact not in told])
    return ranked(folded(chosen + crossed + rest))


def shown_at(level: str, hint: solver.Hint) -> bool:
    """Whether `level` shows a hint of the solver's (the notepad level shows none)."""
    kinds = _KINDS.get(level)
    return level != "notepad" and (kinds is None or hint.kind in kinds)


def changes_at(level: str, changes: Sequence[solver.Hint]) -> list[solver.Hint]:
    """What the last entry changed, as much of it as `level` shows: settled facts from
    `certain`, moved odds from `odds`, nothing at `notepad`."""
    return [hint for hint in changes if shown_at(level, hint)]


def _folded(facts: list[solver.Fact]) -> list[solver.Hint]:
    """Certain facts as hints: one each (so that `why` can explain it) up to FOLD_AT of a
    kind, and the rest of that kind on one line."""
    by_kind: dict[str, list[solver.Fact]] = defaultdict(list)
    for fact in facts:
        by_kind[fact.kind].append(fact)
    found = []
    for group in by_kind.values():
        for fact in group[:FOLD_AT]:
            found.append(solver.Hint(f"{fact.text} (certain)", fact, 1.0, (), "certain", 0.5))
        if len(group) > FOLD_AT:
            listed = "; ".join(fact.text for fact in group[FOLD_AT:])
            found.append(solver.Hint(f"Also certain: {listed}", None, None, (), "certain", 0.4))
    return found
