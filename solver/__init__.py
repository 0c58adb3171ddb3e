"""Inference over the hidden worlds an information set allows (OR-Tools CP-SAT).

d = solver.deduce(info)
d.certain(); d.possible(fact); d.probability(fact); d.estimate(fact); d.explain(fact)
solver.hints(info)
"""

from solver.deduction import Deduction, deduce
from solver.errors import Inconsistent, NotCertain, NotCounted, SolverTimeout
from solver.hints import Hint, hints
from solver.model import Fact
from solver.sampling import Estimate

__all__ = [
    "Deduction",
    "Estimate",
    "Fact",
    "Hint",
    "Inconsistent",
    "NotCertain",
    "NotCounted",
    "SolverTimeout",
    "deduce",
    "hints",
]
