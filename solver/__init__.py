"""Inference over the hidden worlds an information set allows (OR-Tools CP-SAT).

d = solver.deduce(info)
d.certain(); d.possible(fact); d.probability(fact); d.estimate(fact); d.explain(fact)
solver.hints(info)
solver.advise(info, seed=0)      # the solver bot's move, its value, runners-up, threats
solver.sample_state(info, rng)   # a whole consistent State drawn from the posterior
solver.forget()                  # drop what earlier refreshes remembered (a new game)
"""

from solver.deduction import Deduction, deduce, forget
from solver.errors import Inconsistent, NotCertain, NotCounted, SolverTimeout
from solver.hints import Hint, hints
from solver.model import Fact
from solver.sampling import Estimate
from solver.search import Advice, Candidate, advise
from solver.states import sample_state

__all__ = [
    "Advice",
    "Candidate",
    "Deduction",
    "Estimate",
    "Fact",
    "Hint",
    "Inconsistent",
    "NotCertain",
    "NotCounted",
    "SolverTimeout",
    "advise",
    "deduce",
    "forget",
    "hints",
    "sample_state",
]
