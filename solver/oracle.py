"""Brute-force ground truth with python-constraint: every consistent world, by enumeration.

Independent of CP-SAT, so the tests can compare every solver answer with it exactly. Only for
small configurations: it lists all worlds. python-constraint is a test dependency
(`pip install 'sleuth[test]'`), imported on first use; nothing the installed product runs
imports this module.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from types import ModuleType

from engines import SleuthError
from solver.model import Clause, Count, Fact, Lit, Model, World


def _constraint() -> ModuleType:
    """python-constraint, or a SleuthError saying how to install it."""
    try:  # optional: the test extra
        import constraint
    except ImportError:
        raise SleuthError(
            "solver.oracle needs python-constraint2, a test dependency: pip install 'sleuth[test]'"
        ) from None
    return constraint


def worlds(model: Model) -> list[World]:
    """Every world satisfying all of `model`'s constraints.

    Raises:
        SleuthError: python-constraint2 is not installed.
    """
    constraint = _constraint()
    problem = constraint.Problem()
    for variable in model.variables:
        problem.addVariable(variable.name, list(variable.domain))
    for item in model.constraints:
        names = sorted({lit.var for lit in _literals(item)})
        if not names:
            if not item.holds({}):
                return []
            continue
        problem.addConstraint(constraint.FunctionConstraint(_checker(item, names)), names)
    found: list[World] = problem.getSolutions()
    return found


def _literals(item: Count | Clause) -> tuple[Lit, ...]:
    return item.terms if isinstance(item, Count) else item.positive + item.negative


def _checker(item: Count | Clause, names: list[str]) -> Callable[..., bool]:
    def check(*values: object) -> bool:
        return item.holds(dict(zip(names, values, strict=True)))

    return check


def probability(found: list[World], fact: Fact) -> Fraction:
    return Fraction(sum(fact.holds_in(world) for world in found), len(found))
