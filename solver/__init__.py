"""Inference over the hidden worlds an information set allows (OR-Tools CP-SAT).

d = solver.deduce(info)
d.certain(); d.possible(fact); d.probability(fact); d.explain(fact)
solver.hints(info)
"""

from solver.deduction import Deduction, deduce
from solver.errors import Inconsistent, NotCertain, SolverTimeout
from solver.hints import Hint, hints
from solver.model import Fact

__all__ = [
    "Deduction",
    "Fact",
    "Hint",
    "Inconsistent",
    "NotCertain",
    "SolverTimeout",
    "deduce",
    "hints",
]
