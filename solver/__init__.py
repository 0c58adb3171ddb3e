"""Inference over the hidden worlds an information set allows (OR-Tools CP-SAT).

d = solver.deduce(info)
d.certain(); d.possible(fact); d.probability(fact); d.estimate(fact); d.explain(fact)
solver.hints(info)                # ranked: the answer once certain, what to do, the odds, ...
solver.answer(info, d)           # the hidden answer once certain, and the plan to win with it
solver.changes(d, d_before)      # what an entry taught: facts settled, odds moved
solver.advise(info, seed=0)      # the solver bot's move, its value, runners-up, threats
solver.sample_state(info, rng)   # a whole consistent State drawn from the posterior
solver.review(record, seat)      # each decision beside the solver's, valued and graded
solver.forget()                  # drop what earlier refreshes remembered (a new game)
"""

from solver.changes import changes
from solver.deduction import Deduction, deduce, forget
from solver.errors import Inconsistent, NotCertain, NotCounted, SolverTimeout
from solver.hints import Answer, Hint, answer, hints
from solver.model import Fact
from solver.review import Review, review
from solver.sampling import Estimate
from solver.search import Advice, Candidate, advise
from solver.states import sample_state

__all__ = [
    "Advice",
    "Answer",
    "Candidate",
    "Deduction",
    "Estimate",
    "Fact",
    "Hint",
    "Inconsistent",
    "NotCertain",
    "NotCounted",
    "Review",
    "SolverTimeout",
    "advise",
    "answer",
    "changes",
    "deduce",
    "forget",
    "hints",
    "review",
    "sample_state",
]
