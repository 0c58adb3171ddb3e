"""Brute-force ground truth with python-constraint: every consistent world, by enumeration.

Independent of CP-SAT, so the tests can compare every solver answer with it exactly. Only for
small configurations: it lists all worlds.
"""

from __future__ import annotations

from fractions import Fraction

import constraint

from solver.model import Clause, Count, Fact, Model, World


def worlds(model: Model) -> list[World]:
    """Every world satisfying all of `model`'s constraints."""
    problem = constraint.Problem()
    for variable in model.variables:
        problem.addVariable(variable.name, list(variable.domain))
    for item in model.constraints:
        names = sorted({lit.var for lit in _literals(item)})
        if not names:
            if not item.holds({}):
                return []
            continue
        problem.addConstraint(_checker(item, names), names)
    return problem.getSolutions()


def _literals(item: Count | Clause) -> tuple:
    return item.terms if isinstance(item, Count) else item.positive + item.negative


def _checker(item: Count | Clause, names: list[str]):
    def check(*values: object) -> bool:
        return item.holds(dict(zip(names, values, strict=True)))

    return constraint.FunctionConstraint(check)


def probability(found: list[World], fact: Fact) -> Fraction:
    return Fraction(sum(fact.holds_in(world) for world in found), len(found))
