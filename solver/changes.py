"""What the last entry changed: the facts it made certain or ruled out, and the odds it moved
most, for a person who wants to see at a glance what a new observation taught them.

Facts are matched between the two deductions by kind and arguments (a model's variables may
be named differently from one position to the next). Estimated odds count as moved only when
the move is larger than both margins, so sampling noise is never reported as news.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.games import knowledge_for
from solver.hints import Hint, percent
from solver.model import Fact
from solver.sampling import estimate

if TYPE_CHECKING:
    from solver.deduction import Deduction

TOLD_APART = 3
"""Newly certain facts told one per hint (each can be asked `why`); the rest share one."""
MOVED = 0.10
"""The least change of a chance worth telling (beyond the estimates' margins)."""
MOVES_TOLD = 2


def changes(deduction: Deduction, before: Deduction) -> list[Hint]:
    """What `deduction` knows that `before` (the same seat's deduction one entry earlier) did
    not: newly certain facts, newly impossible ones (but those a newly certain value of the
    same variable implies), and the biggest moves of the answer's odds (the facts of the
    kinds the game's knowledge module names in ANSWER_KINDS)."""
    earlier = {(fact.kind, fact.args): fact for fact in before.facts}
    answer_kinds = getattr(knowledge_for(deduction.info.game), "ANSWER_KINDS", None)
    settled: list[tuple[bool, Fact]] = []
    moved: list[tuple[float, Fact, float, float]] = []
    for fact in deduction.facts:
        old = earlier.get((fact.kind, fact.args))
        if old is None:
            continue
        if deduction.is_certain(fact):
            if not before.is_certain(old):
                settled.append((True, fact))
        elif not deduction.possible(fact):
            if before.possible(old):
                settled.append((False, fact))
        elif answer_kinds is None or fact.kind in answer_kinds:
            now, then = estimate(deduction, fact), estimate(before, old)
            if not (now.shown and then.shown):
                continue
            change = abs(now.value - then.value)
            if change >= MOVED + now.margin + then.margin:
                moved.append((change, fact, then.value, now.value))
    known = {fact.var for is_true, fact in settled if is_true}  # a value certain says the rest
    settled = [(is_true, fact) for is_true, fact in settled if is_true or fact.var not in known]
    first = answer_kinds or frozenset()
    settled.sort(key=lambda item: (item[1].kind not in first, not item[0]))
    found = [_settled(is_true, fact) for is_true, fact in settled[:TOLD_APART]]
    rest = settled[TOLD_APART:]
    if rest:
        listed = "; ".join(_said(is_true, fact) for is_true, fact in rest[:TOLD_APART])
        more = len(rest) - TOLD_APART
        text = f"Also settled by it: {listed}" + (f"; and {more} more" if more > 0 else "")
        found.append(Hint(text, None, None, (), "new", 0.5))
    moved.sort(key=lambda item: -item[0])
    for change, fact, was, chance in moved[:MOVES_TOLD]:
        text = f"Odds moved: {fact.text}, {percent(was)} before, {percent(chance)} now"
        found.append(Hint(text, fact, chance, (), "shift", change))
    return found


def _settled(is_true: bool, fact: Fact) -> Hint:
    """A newly settled fact as a hint `why` can explain (its fact, or its negation)."""
    return Hint(f"New: {_said(is_true, fact)}", fact, 1.0 if is_true else 0.0, (), "new", 1.0)


def _said(is_true: bool, fact: Fact) -> str:
    return f"{fact.text} (certain)" if is_true else f"no longer possible: {fact.text}"
