"""The model compiled to OR-Tools CP-SAT: feasibility, enumeration, backbone, explanations.

Every variable is one-hot encoded (a Boolean per value), so facts and counts are sums of
literals. Every observation gets an *enabling literal*: its constraints hold only when it is
on, and queries switch observations on through CP-SAT assumptions. That makes one compiled
model answer every question, including "which observations force this?" (the assumption core,
shrunk to a minimal one), as the OR-Tools samples do.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cached_property

from ortools.sat.python import cp_model

from solver.model import Clause, Count, Fact, Lit, Model, Rules, Value, Var, World

_FEASIBLE = (cp_model.OPTIMAL, cp_model.FEASIBLE)


class Compiled:
    """One CP-SAT model for one `Model`, reused across queries."""

    def __init__(self, model: Model, parameters: Mapping[str, object] | None = None) -> None:
        self.model = model
        self.parameters = dict(parameters or {})  # CP-SAT parameters for every solve
        self.witness: World | None = None  # a consistent world, once one is known
        variables, constraints = model.variables, model.constraints
        self._index: dict[tuple[str, Value], int] = {}  # each literal's CP-SAT variable index
        if model.base is None:
            self.cp = cp_model.CpModel()
        else:  # start from the compiled rules and add only what is particular to this model
            compiled, index = _compiled_rules(model.base)
            self.cp = compiled.clone()
            self._index = dict(index)
            variables = variables[len(model.base.variables) :]
            constraints = constraints[len(model.base.constraints) :]
        self.literal = _Literals(self.cp, self._index)
        self._add_variables(variables)
        self.enable: dict[int, cp_model.IntVar] = {
            source: self.cp.new_bool_var(f"obs{source}") for source in model.sources()
        }
        for constraint in constraints:
            self._add(constraint)

    def _add_variables(self, variables: Iterable[Var]) -> None:
        """One Boolean per value of each variable, exactly one of them true."""
        for variable in variables:
            bools = []
            for value in variable.domain:
                lit = self.cp.new_bool_var(f"{variable.name}={value}")
                self.literal[(variable.name, value)] = lit
                self._index[(variable.name, value)] = lit.index
                bools.append(lit)
            self.cp.add_exactly_one(bools)

    def _lit(self, lit: Lit) -> cp_model.IntVar:
        return self.literal[(lit.var, lit.value)]

    def _add(self, constraint: Count | Clause) -> None:
        if isinstance(constraint, Count):
            total = cp_model.LinearExpr.sum([self._lit(term) for term in constraint.terms])
            if constraint.op == "==":
                added = self.cp.add(total == constraint.bound)
            elif constraint.op == "<=":
                added = self.cp.add(total <= constraint.bound)
            else:
                added = self.cp.add(total >= constraint.bound)
        else:
            literals = [self._lit(lit) for lit in constraint.positive]
            literals += [~self._lit(lit) for lit in constraint.negative]
            added = self.cp.add_bool_or(literals)
        if constraint.source is not None:
            added.only_enforce_if(self.enable[constraint.source])

    def fact_literals(self, fact: Fact) -> list[cp_model.IntVar]:
        """Literals of `fact`'s variable whose truth makes the fact true."""
        domain = self.model.var(fact.var).domain
        return [
            self.literal[(fact.var, value)]
            for value in domain
            if (value in fact.values) != fact.negated
        ]

    # --- solving -------------------------------------------------------------------------
    def _solver(self) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        for name, value in self.parameters.items():
            setattr(solver.parameters, name, value)
        return solver

    def _world(self, solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback) -> World:
        """The solution as a world, read off the solution vector by variable index."""
        solution = list(solver.response_proto.solution)
        return {
            name: next(value for value, i in values if solution[i]) for name, values in self._layout
        }

    @cached_property
    def _layout(self) -> list[tuple[str, list[tuple[Value, int]]]]:
        return [
            (v.name, [(value, self._index[(v.name, value)]) for value in v.domain])
            for v in self.model.variables
        ]

    def guard(self, literals: Sequence[cp_model.IntVar]) -> cp_model.IntVar:
        """A fresh literal that, when assumed, forces at least one of `literals`."""
        guard = self.cp.new_bool_var("query")
        self.cp.add_bool_or(literals).only_enforce_if(guard)
        return guard

    def solve(
        self, sources: Iterable[int] | None = None, extra: Sequence[cp_model.IntVar] = ()
    ) -> tuple[World | None, list[int]]:
        """A world satisfying the enabled observations and `extra` literals, or None.

        Returns the world (or None) and, when infeasible, a core: enabled sources sufficient
        for the infeasibility (not yet minimal).
        """
        enabled = list(self.enable) if sources is None else list(sources)
        self.cp.clear_assumptions()
        self.cp.add_assumptions([self.enable[s] for s in enabled] + list(extra))
        solver = self._solver()
        status = solver.solve(self.cp)
        self.cp.clear_assumptions()
        if status in _FEASIBLE:
            return self._world(solver), []
        if status != cp_model.INFEASIBLE:
            raise RuntimeError(f"CP-SAT returned {solver.status_name(status)}")
        by_index = {lit.index: source for source, lit in self.enable.items()}
        found = solver.sufficient_assumptions_for_infeasibility()
        core = [by_index[i] for i in found if i in by_index]
        return None, sorted(core)

    def minimal_core(self, extra: Sequence[cp_model.IntVar] = ()) -> list[int]:
        """A minimal set of sources that, with `extra`, is infeasible (deletion-based).

        Every member is necessary: dropping any one of them makes the rest satisfiable.
        The caller guarantees that all sources together with `extra` are infeasible.
        """
        world, core = self.solve(None, extra)
        assert world is None, "minimal_core needs an infeasible query"
        necessary: list[int] = []
        rest = list(core)
        while rest:
            candidate, rest = rest[0], rest[1:]
            world, smaller = self.solve(necessary + rest, extra)
            if world is None:
                keep = set(smaller)
                rest = [s for s in rest if s in keep]
            else:
                necessary.append(candidate)
        return sorted(necessary)

    def enumerate(self, limit: int) -> list[World] | None:
        """Every consistent world, or None if there are more than `limit`."""
        worlds: list[World] = []
        compiled = self

        class Collect(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                worlds.append(compiled._world(self))
                if len(worlds) > limit:
                    self.stop_search()

        self.cp.clear_assumptions()
        self.cp.add_assumptions(list(self.enable.values()))
        solver = self._solver()
        solver.parameters.enumerate_all_solutions = True
        solver.solve(self.cp, Collect())
        self.cp.clear_assumptions()
        return None if len(worlds) > limit else worlds

    def possible_literals(
        self,
        witnesses: Iterable[World],
        variables: Collection[str] | None = None,
        found: Callable[[World], None] | None = None,
    ) -> set[tuple[str, Value]]:
        """The backbone by solution elimination: every (var, value) some consistent world has.

        Worlds in hand witness the literals they make true; then one solve of "some unwitnessed
        literal holds" either finds a new witness or proves all the rest impossible at once.
        With `variables`, only their literals are decided (the others may be missing). Each new
        witness is passed to `found` (a sampler may want to start there).
        """
        possible = {(name, value) for world in witnesses for name, value in world.items()}
        wanted = {
            key: self.literal[key]
            for key in self._index
            if variables is None or key[0] in variables
        }
        while True:
            open_literals = [lit for key, lit in wanted.items() if key not in possible]
            if not open_literals:
                return possible
            world, _ = self.solve(None, [self.guard(open_literals)])
            if world is None:
                return possible
            possible.update(world.items())
            if found is not None:
                found(world)


class _Literals(dict):
    """The literal of each (variable, value), wrapped on first use: a model cloned from its
    compiled rules has thousands, and a query touches few."""

    def __init__(self, cp: cp_model.CpModel, index: dict[tuple[str, Value], int]) -> None:
        super().__init__()
        self._proto, self._index = cp.model_proto, index

    def __missing__(self, key: tuple[str, Value]) -> cp_model.IntVar:
        # what CpModel.get_bool_var_from_proto_index returns, without its checks: every
        # index here is one of our Booleans
        lit = self[key] = cp_model.IntVar(self._proto, self._index[key])
        return lit


_RULES: dict[Rules, tuple[cp_model.CpModel, dict[tuple[str, Value], int]]] = {}  # by identity
RULES_KEPT = 8


def _compiled_rules(rules: Rules) -> tuple[cp_model.CpModel, dict[tuple[str, Value], int]]:
    """The rules compiled once: a CP-SAT model to clone, and each literal's variable index."""
    if rules not in _RULES:
        shell = Compiled.__new__(Compiled)
        shell.cp, shell.literal, shell._index = cp_model.CpModel(), {}, {}
        shell._add_variables(rules.variables)
        for constraint in rules.constraints:
            shell._add(constraint)
        if len(_RULES) >= RULES_KEPT:
            _RULES.clear()
        _RULES[rules] = (shell.cp, shell._index)
    return _RULES[rules]
