"""The model compiled to OR-Tools CP-SAT: feasibility, enumeration, backbone, explanations.

Every variable is one-hot encoded (a Boolean per value), so facts and counts are sums of
literals. Every observation gets an *enabling literal*: its constraints hold only when it is
on, and queries switch observations on through CP-SAT assumptions. That makes one compiled
model answer every question, including "which observations force this?" (the assumption core,
shrunk to a minimal one), as the OR-Tools samples do.

Queries leave the compiled model as they found it: a question such as "can this fact be
true?" goes into one *query slot* made at compile time (a constraint `slot => some of these
literals`, empty and so forcing `slot` false between queries), filled for one solve and emptied
again. A lock makes each query atomic, so a `Compiled` (and the `Deduction` holding it) may be
shared between threads.

Every solve has a limit in CP-SAT's deterministic time (a measure of work, the same on a
busy machine as on an idle one), and every iterative query a total: both are safety ceilings
far above normal solves (thousandths of a unit), so answers never depend on the machine's
speed or load; reaching one raises `SolverTimeout`. Wall-clock limits stay behind them, far
higher, for work deterministic time does not measure.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from itertools import compress
from types import MappingProxyType

import numpy as np
from ortools.sat.python import cp_model

from solver.errors import SolverTimeout
from solver.model import Clause, Count, Fact, Lit, Model, Rules, Value, Var, World

_FEASIBLE = (cp_model.OPTIMAL, cp_model.FEASIBLE)

SOLVE_WORK = 30.0
"""The deterministic-time limit of one CP-SAT solve (`max_deterministic_time`), unless the
game's `CPSAT_PARAMETERS` set their own. Normal solves take 0.001-0.01 units and the slowest
late-game Alibi queries about 1: the limit only turns a solve that would run away (a
hand-built contradiction CP-SAT's search proves slowly) into a `SolverTimeout`, at the same
point of the search however loaded the machine is."""

QUERY_WORK = 60.0
"""The deterministic-time limit of one iterative query (a minimal core, a backbone), all its
solves together."""

SOLVE_SECONDS = 600.0
"""The wall-clock limit of one solve (`max_time_in_seconds`): a last safety net behind
`SOLVE_WORK`, which is what normally stops a runaway; a game's parameters may set it."""

QUERY_SECONDS = 1_200.0
"""The wall-clock deadline of one iterative query (a minimal core, a backbone, an
enumeration), all its solves together, behind `QUERY_WORK`."""

GUIDED_WORK = 0.05
"""The deterministic time a first world's search, or a query's, first spends following the
game's search order (a late-game Alibi solve under it usually takes 0.002-0.02) before it
searches on its own: the order finds worlds several times faster, but a proof that there is
none can run away under it, and so, at a few positions, can a search for a world."""

BoolVar = cp_model.IntVar  # a Boolean variable of the compiled model
Index = Mapping[tuple[str, Value], int]  # each literal's CP-SAT variable index


class Compiled:
    """One CP-SAT model for one `Model`, reused across queries (and threads, one at a time)."""

    def __init__(
        self,
        model: Model,
        parameters: Mapping[str, object] | None = None,
        previous: Compiled | None = None,
    ) -> None:
        """Compile `model`; with `previous` (the compiled model of an earlier information set
        of the same seat's game), start from a copy of it and add only what is new, when
        `model` extends it (see `_Extension`)."""
        self.model = model
        self.parameters = dict(parameters or {})  # CP-SAT parameters for every solve
        limit = self.parameters.pop("max_time_in_seconds", SOLVE_SECONDS)
        assert isinstance(limit, int | float), "max_time_in_seconds is a number of seconds"
        self.solve_seconds = float(limit)  # a game's CPSAT_PARAMETERS may set its own
        work = self.parameters.pop("max_deterministic_time", SOLVE_WORK)
        assert isinstance(work, int | float), "max_deterministic_time is a number"
        self.solve_work = float(work)
        self.witness: World | None = None  # a consistent world, once one is known
        self.deadline: float | None = None  # a caller's budget (time.monotonic), if any
        self.impossible: set[tuple[str, Value]] = set()
        """Literals proven false in every consistent world (all observations on): found by
        `possible_literals`, carried from `previous` (a model that only adds constraints
        and variables to it has no world the earlier one lacked), or added by a game that
        proves them its own way. `possible_literals` asks no solve about them."""
        self._lock = threading.RLock()
        self.extended = False  # whether it was compiled from `previous`
        tail = _Extension.of(previous, model) if previous is not None else None
        if tail is not None:
            assert previous is not None
            self._extend(previous, tail)
        else:
            self._compile()
        if model.branching is not None:
            self.cp.proto.search_strategy.clear()
            self._branch(model.branching)

    def _compile(self) -> None:
        model = self.model
        variables, constraints = model.variables, model.constraints
        self._index: dict[tuple[str, Value], int] = {}
        if model.base is None:
            self.cp = cp_model.CpModel()
        else:  # start from the compiled rules and add only what is particular to this model
            compiled, index = _compiled_rules(model.base)
            self.cp = compiled.clone()
            self._index = dict(index)
            variables = variables[len(model.base.variables) :]
            constraints = constraints[len(model.base.constraints) :]
        self.literal = _Literals(self.cp, self._index)
        _add_variables(self.cp, self._index, self.literal, variables)
        self.enable: dict[int, BoolVar] = {
            source: self.cp.new_bool_var(f"obs{source}") for source in model.sources()
        }
        for constraint in constraints:
            self._add(constraint)
        self._slot = self.cp.new_bool_var("query")
        self.cp.add_bool_or([]).only_enforce_if(self._slot)  # empty: the slot is off
        self._slot_at = len(self.cp.proto.constraints) - 1

    def _extend(self, previous: Compiled, tail: _Extension) -> None:
        """A copy of `previous` with `tail` added: the new rules, variables, observations."""
        with previous._lock:  # no query is under way, so its slot and assumptions are clear
            self.cp = previous.cp.clone()
        self._index = dict(previous._index)
        self.literal = _Literals(self.cp, self._index)
        proto = self.cp.model_proto
        _add_variables(self.cp, self._index, self.literal, tail.rule_variables)
        for constraint in tail.rules:
            _add_constraint(self.cp, self._lit, constraint)
        _add_variables(self.cp, self._index, self.literal, tail.variables)
        self.enable = {s: cp_model.IntVar(proto, v.index) for s, v in previous.enable.items()}
        for source in sorted({c.source for c in tail.constraints if c.source is not None}):
            self.enable[source] = self.cp.new_bool_var(f"obs{source}")
        for constraint in tail.constraints:
            self._add(constraint)
        self._slot = cp_model.IntVar(proto, previous._slot.index)
        self._slot_at = previous._slot_at
        self.impossible = set(previous.impossible)
        self.extended = True

    def _branch(self, names: Sequence[str]) -> None:
        """A decision strategy: the literals of `names`' values in that order, false first
        (CP-SAT follows it with `search_branching` PARTIAL_FIXED_SEARCH, then searches on)."""
        strategy = self.cp.proto.search_strategy.add()
        index, model = self._index, self.model
        strategy.variables.extend(
            index[(name, value)] for name in names for value in model.var(name).domain
        )

    def _lit(self, lit: Lit) -> BoolVar:
        return self.literal[(lit.var, lit.value)]

    def _add(self, constraint: Count | Clause) -> None:
        added = _add_constraint(self.cp, self._lit, constraint)
        if constraint.source is not None:
            added.only_enforce_if(self.enable[constraint.source])

    def fact_literals(self, fact: Fact) -> list[BoolVar]:
        """Literals of `fact`'s variable whose truth makes the fact true."""
        domain = self.model.var(fact.var).domain
        return [
            self.literal[(fact.var, value)]
            for value in domain
            if (value in fact.values) != fact.negated
        ]

    # --- solving -------------------------------------------------------------------------
    def _solver(
        self,
        deadline: float | None,
        task: str,
        ordered: bool = False,
        work: _Work | None = None,
        cap: float | None = None,
    ) -> cp_model.CpSolver:
        """A solver for one query, within `work` (the query's deterministic time left) and
        `cap`. A game's search order (`search_branching`) is used only when `ordered`: it
        finds a world fast, but a proof that there is none can run away under it (a 6-player
        possibility query took over 60 s with it, 12 s without)."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        for name, value in self.parameters.items():
            if ordered or name != "search_branching":
                setattr(solver.parameters, name, value)
        limit = self.solve_seconds
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SolverTimeout(f"{self._what()}: the deadline passed while {task}")
            limit = min(limit, left)
        solver.parameters.max_time_in_seconds = limit
        budget = self.solve_work if cap is None else min(cap, self.solve_work)
        if work is not None:
            if work.left <= 0:
                raise SolverTimeout(
                    f"{self._what()}: {task} took more than {QUERY_WORK:g} units of CP-SAT's "
                    "deterministic time"
                )
            budget = min(budget, work.left)
        solver.parameters.max_deterministic_time = budget
        return solver

    @property
    def _guided(self) -> bool:
        """Whether the game gave a search order for finding worlds."""
        return "search_branching" in self.parameters and self.model.branching is not None

    def _what(self) -> str:
        info = self.model.info
        return (
            f"{info.game} information set of seat {info.seat!r} "
            f"({len(info.observations)} observations)"
        )

    def _status(
        self, solver: cp_model.CpSolver, status: cp_model.CpSolverStatus, task: str
    ) -> cp_model.CpSolverStatus:
        """The status, unless it is a time-out (SolverTimeout) or an invalid model (a bug)."""
        if status == cp_model.UNKNOWN:
            limit = (
                f"{solver.parameters.max_time_in_seconds:g} s"
                if _stopped_by_clock(solver)
                else f"{solver.parameters.max_deterministic_time:g} units of deterministic time"
            )
            raise SolverTimeout(
                f"{self._what()}: CP-SAT reached its time limit of {limit} while {task}"
            )
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT rejected the model: {self.cp.validate()}")
        return status

    def _world(self, solver: cp_model.CpSolver | cp_model.CpSolverSolutionCallback) -> World:
        """The solution as a world, read off the solution vector in one vectorised step: the
        literals that are true, one per variable, are its (variable, value) pairs."""
        solution = np.fromiter(solver.response_proto.solution, dtype=np.int8)
        pairs, at = self._layout
        return dict(compress(pairs, solution[at].tolist()))

    @cached_property
    def _layout(self) -> tuple[list[tuple[str, Value]], np.ndarray]:
        """Every (variable, value) pair and the index of its literal, in one order."""
        return list(self._index), np.fromiter(self._index.values(), dtype=np.int64)

    @contextmanager
    def _query(
        self, sources: Iterable[int] | None, any_of: Sequence[BoolVar] | None
    ) -> Iterator[None]:
        """Assume the `sources` (all by default) and, with `any_of`, that one of them holds;
        the model is as before on exit."""
        enabled = list(self.enable) if sources is None else list(sources)
        assumed = [self.enable[s] for s in enabled]
        slot = self.cp.proto.constraints[self._slot_at].bool_or.literals
        if any_of is not None:
            slot.extend([lit.index for lit in any_of])
            assumed.append(self._slot)
        self.cp.clear_assumptions()
        self.cp.add_assumptions(assumed)
        try:
            yield
        finally:
            self.cp.clear_assumptions()
            slot.clear()

    @contextmanager
    def _hinting(self, near: World | None) -> Iterator[None]:
        """`near`'s literals as CP-SAT's solution hint for one solve; none on exit."""
        if not near:
            yield
            return
        hinted = [(i, int(near[name] == v)) for (name, v), i in self._index.items() if name in near]
        hint = self.cp.proto.solution_hint
        hint.vars.extend(index for index, _ in hinted)
        hint.values.extend(value for _, value in hinted)
        try:
            yield
        finally:
            self.cp.clear_hints()

    @contextmanager
    def _preferring(self, literals: Sequence[BoolVar] | None) -> Iterator[None]:
        """The game's search order with `literals`, true first, put before it; restored on
        exit."""
        if not literals:
            yield
            return
        strategies = self.cp.proto.search_strategy
        kept = [list(strategy.variables) for strategy in strategies]
        strategies.clear()
        first = strategies.add()
        first.variables.extend([lit.index for lit in literals])
        first.domain_reduction_strategy = first.SELECT_MAX_VALUE
        try:
            yield
        finally:
            strategies.clear()
            for variables in kept:
                strategies.add().variables.extend(variables)

    def solve(
        self,
        sources: Iterable[int] | None = None,
        any_of: Sequence[BoolVar] | None = None,
        deadline: float | None = None,
        task: str = "checking that the observations are consistent",
        work: _Work | None = None,
        guided: bool = False,
        many: bool = False,
        near: World | None = None,
    ) -> tuple[World | None, list[int]]:
        """A world satisfying the enabled observations and (with `any_of`) one of those
        literals, or None.

        Returns the world (or None) and, when infeasible, a core: enabled sources sufficient
        for the infeasibility (not yet minimal).

        `guided` (a world that may well exist, a first one above all) follows the game's
        search order for `GUIDED_WORK` first, then searches on its own: the answer is the
        same, found sooner when there is a world. The order's search
        is heavy-tailed: late in a 4-player Alibi game a first world it finds in 0.02-0.1 s
        at most positions took up to 1.9 s at a few, and within `GUIDED_WORK` then on its own
        at most 0.2 s (87 first solves of new rounds, 10 games).
        `work` is the deterministic time left to the query this solve is part of. With
        `many`, that guided search first tries each of `any_of` true first, so that one world
        makes as many of them true as it can (a backbone's solve then witnesses several at
        once), and follows the plain order for as long again if that finds nothing.
        `near` is a world close to a consistent one (values of some or all variables), which
        the search tries first (CP-SAT's solution hint): the same answer, found sooner.

        Raises:
            SolverTimeout: the solve reached its limit, or `deadline` (a `time.monotonic`
                instant) passed, or `work` ran out.
        """
        with self._lock, self._query(sources, any_of), self._hinting(near):
            solver, status = self._search(any_of, deadline, task, work, guided, many)
            if status in _FEASIBLE:
                return self._world(solver), []
            return None, self._core(solver)

    def satisfiable(
        self,
        sources: Iterable[int] | None = None,
        any_of: Sequence[BoolVar] | None = None,
        deadline: float | None = None,
        task: str = "checking that the observations are consistent",
        work: _Work | None = None,
        guided: bool = False,
    ) -> tuple[bool, list[int]]:
        """`solve` for a caller that needs no world: whether there is one, else a core.
        Reading a world off a large model's solution costs milliseconds a solve."""
        with self._lock, self._query(sources, any_of):
            solver, status = self._search(any_of, deadline, task, work, guided, False)
            return (True, []) if status in _FEASIBLE else (False, self._core(solver))

    def _search(
        self,
        any_of: Sequence[BoolVar] | None,
        deadline: float | None,
        task: str,
        work: _Work | None,
        guided: bool,
        many: bool,
    ) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
        """One query's search, the model set up by the caller (`solve`'s arguments)."""
        if guided and self._guided and not (work and work.unguided):
            for preferred in [any_of, None] if many else [None]:
                solver = self._solver(deadline, task, True, work, GUIDED_WORK)
                with self._preferring(preferred):
                    status = solver.solve(self.cp)
                _charge(work, solver)
                if status != cp_model.UNKNOWN or _stopped_by_clock(solver):
                    return solver, self._status(solver, status, task)
            if work is not None and work.gives_up:  # the order does not suit this
                work.unguided = True  # position: the query's other solves search on their own
        solver = self._solver(deadline, task, False, work)
        status = solver.solve(self.cp)
        _charge(work, solver)
        return solver, self._status(solver, status, task)

    def _core(self, solver: cp_model.CpSolver) -> list[int]:
        """The enabled sources an infeasible solve found sufficient for its infeasibility."""
        by_index = {lit.index: source for source, lit in self.enable.items()}
        found = solver.sufficient_assumptions_for_infeasibility()
        return sorted(by_index[i] for i in found if i in by_index)

    def minimal_core(self, any_of: Sequence[BoolVar] | None = None) -> list[int]:
        """A minimal set of sources that, with `any_of`, is infeasible (deletion-based).

        Every member is necessary: dropping any one of them makes the rest satisfiable.
        The caller guarantees that all sources together with `any_of` are infeasible.

        Raises:
            SolverTimeout: the solves together took more than QUERY_SECONDS.
        """
        return self.shrink_core(any_of).necessary

    def shrink_core(
        self,
        any_of: Sequence[BoolVar] | None = None,
        start: CoreSearch | None = None,
        solves: int | None = None,
    ) -> CoreSearch:
        """`minimal_core` a few solves at a time: from `start` (None: the beginning, whose
        first solve finds a core), at most `solves` solves (None: to the end). Each solve is
        a model load (tens of milliseconds on a large model) however easy its search, so a
        caller that wants quick answers spreads a search over several calls; the result is
        the same as one call's (`CoreSearch.done` when it is minimal).

        Raises:
            SolverTimeout: one call's solves together took more than QUERY_SECONDS.
        """
        task = "finding a minimal set of observations that contradict each other"
        if any_of is not None:
            task = "finding a minimal set of observations that force a fact"
        deadline, work = time.monotonic() + QUERY_SECONDS, _Work(QUERY_WORK)
        left = solves
        with self._lock:
            if start is None:
                feasible, core = self.satisfiable(None, any_of, deadline, task, work=work)
                assert not feasible, "minimal_core needs an infeasible query"
                start = CoreSearch((), tuple(core), False, 1)
                left = None if left is None else left - 1
            work.unguided = start.unguided
            necessary, rest, made = list(start.kept), list(start.rest), start.solves
            while rest and (left is None or left > 0):
                candidate, rest = rest[0], rest[1:]
                feasible, smaller = self.satisfiable(
                    necessary + rest, any_of, deadline, task, work=work, guided=True
                )
                if not feasible:
                    keep = set(smaller)
                    rest = [s for s in rest if s in keep]
                else:
                    necessary.append(candidate)
                left = None if left is None else left - 1
                made += 1
            return CoreSearch(tuple(necessary), tuple(rest), work.unguided, made)

    def enumerate(self, limit: int) -> list[World] | None:
        """Every consistent world, or None if there are more than `limit`.

        Worlds are told apart by the model's own variables only, so helper variables of the
        compilation can never make one world count twice.

        Raises:
            SolverTimeout: the enumeration took more than QUERY_SECONDS.
        """
        task = "listing the consistent worlds"
        worlds: dict[tuple[Value, ...], World] = {}
        compiled = self

        class Collect(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                world = compiled._world(self)
                worlds.setdefault(tuple(world.values()), world)
                if len(worlds) > limit:
                    self.stop_search()

        with self._lock, self._query(None, None):
            solver = self._solver(time.monotonic() + QUERY_SECONDS, task)
            solver.parameters.enumerate_all_solutions = True
            status = solver.solve(self.cp, Collect())
            if len(worlds) > limit:
                return None  # stopped on purpose
            if status == cp_model.FEASIBLE:  # stopped by the time limit after some worlds
                status = cp_model.UNKNOWN
            if self._status(solver, status, task) == cp_model.INFEASIBLE:
                return []
            return list(worlds.values())

    def possible_literals(
        self,
        witnesses: Iterable[World],
        variables: Collection[str] | None = None,
        found: Callable[[World], Iterable[tuple[str, Value]]] | None = None,
        stop: float | None = None,
    ) -> tuple[set[tuple[str, Value]], set[str]]:
        """The backbone by solution elimination: every (var, value) some consistent world has.

        Worlds in hand witness the literals they make true; then one solve of "some unwitnessed
        literal holds" either finds a new witness or proves all the rest impossible at once.
        Literals already proven impossible (`impossible`) are not asked about again. With
        `variables`, only their literals are decided (the others may be missing). Each new
        witness is passed to `found` (a sampler may want to start there), and the literals it
        returns, which other consistent worlds make true, are possible too.

        Returns the possible literals and the variables left undecided: none, unless `stop` (a
        `time.monotonic` instant, a caller's budget) passed first, or the solves reached a
        limit (`QUERY_WORK` together, `SOLVE_WORK` one, or the clock's safety nets); those
        variables' literals may then be missing from the set though possible, and a caller
        decides them one fact at a time when asked (`Deduction.possible`). A hard position
        thus costs more solves later instead of failing the whole deduction.
        """
        task = "deciding which facts are possible"
        deadline, work = time.monotonic() + QUERY_SECONDS, _Work(QUERY_WORK, gives_up=False)
        until = deadline if stop is None else min(deadline, stop)
        possible = {(name, value) for world in witnesses for name, value in world.items()}
        wanted = {
            key: self.literal[key]
            for key in self._index
            if (variables is None or key[0] in variables) and key not in self.impossible
        }
        while True:
            unknown = [key for key in wanted if key not in possible]
            if not unknown:
                return possible, set()
            try:
                world, _ = self.solve(
                    None,
                    [wanted[key] for key in unknown],
                    until,
                    task,
                    work=work,
                    guided=True,
                    many=True,
                )
            except SolverTimeout:
                return possible, {name for name, _ in unknown}
            if world is None:
                self.impossible.update(unknown)
                return possible, set()
            possible.update(world.items())
            if found is not None:
                possible.update(found(world))


@dataclass(frozen=True)
class CoreSearch:
    """Where a deletion-based core search (`Compiled.shrink_core`) stands: the sources found
    necessary, in the order found, and those not yet tried; whether its guided solves
    already gave up (so that a resumed search makes the same solves); the solves so far."""

    kept: tuple[int, ...]
    rest: tuple[int, ...]
    unguided: bool
    solves: int

    @property
    def done(self) -> bool:
        return not self.rest

    @property
    def necessary(self) -> list[int]:
        """The minimal core, once `done`."""
        assert self.done, "the core search is not finished"
        return sorted(self.kept)


class _Work:
    """The deterministic time left to one iterative query, all its solves together; and, for
    a query whose solves are mostly proofs that there is no world (a core search: `gives_up`),
    whether a guided solve already found nothing within its work, so that the others search
    on their own at once. A query whose solves mostly find worlds (`possible_literals`) tries
    the order on each: late in a 6-player Alibi game, giving it up after one failure left
    dozens of solves unguided at 1-5 s each (seat 0's refreshes of rounds 9-12, two games:
    55.7 s and 99.3 s in all; trying it on each solve, 41.9 s and 71.2 s)."""

    def __init__(self, total: float, gives_up: bool = True) -> None:
        self.left = total
        self.gives_up = gives_up
        self.unguided = False  # a guided solve of the query found nothing within its work


def _charge(work: _Work | None, solver: cp_model.CpSolver) -> None:
    if work is not None:
        work.left -= solver.response_proto.deterministic_time


def _stopped_by_clock(solver: cp_model.CpSolver) -> bool:
    """Whether a solve that found no answer stopped at its wall-clock limit (else its
    deterministic-time limit)."""
    return solver.wall_time >= solver.parameters.max_time_in_seconds


@dataclass(frozen=True)
class _Extension:
    """What a model adds to the model compiled before it (`Compiled(previous=...)`)."""

    rule_variables: tuple[Var, ...]
    rules: tuple[Count | Clause, ...]
    variables: tuple[Var, ...]
    constraints: tuple[Count | Clause, ...]

    @staticmethod
    def of(previous: Compiled, model: Model) -> _Extension | None:
        """The extension, or None when `model` does not extend `previous.model`: the same
        seat's game, the observations before continued, the rules the same or their
        extension (`Rules.parent`), and every earlier observation's constraints and
        variables as they were (a new observation that changes how an earlier one reads
        makes a fresh compilation)."""
        before, info = previous.model, model.info
        old, new = before.info, info
        if (old.game, old.options, old.seat) != (new.game, new.options, new.seat):
            return None
        if new.observations[: len(old.observations)] != old.observations:
            return None
        if before.base is None or model.base is None:
            return None
        if model.base is before.base:
            rule_variables: tuple[Var, ...] = ()
            rules: tuple[Count | Clause, ...] = ()
        elif model.base.parent is before.base:
            rule_variables = model.base.variables[len(before.base.variables) :]
            rules = model.base.constraints[len(before.base.constraints) :]
        else:
            return None
        old_vars = before.variables[len(before.base.variables) :]
        new_vars = {v.name: v for v in model.variables[len(model.base.variables) :]}
        if any(new_vars.get(v.name) != v for v in old_vars):
            return None
        known = {v.name for v in old_vars}
        old_groups = _by_source(before.constraints[len(before.base.constraints) :])
        tail = model.constraints[len(model.base.constraints) :]
        new_groups = _by_source(tail)
        old_none, new_none = old_groups.pop(None, []), new_groups.get(None, [])
        if new_none[: len(old_none)] != old_none:  # rules of the model's own variables
            return None
        if any(new_groups.get(source) != found for source, found in old_groups.items()):
            return None
        added = new_none[len(old_none) :]
        added += [c for c in tail if c.source is not None and c.source not in old_groups]
        return _Extension(
            rule_variables,
            rules,
            tuple(v for name, v in new_vars.items() if name not in known),
            tuple(added),
        )


def _by_source(constraints: Sequence[Count | Clause]) -> dict[int | None, list[Count | Clause]]:
    groups: dict[int | None, list[Count | Clause]] = {}
    for constraint in constraints:
        groups.setdefault(constraint.source, []).append(constraint)
    return groups


class _Literals(dict[tuple[str, Value], BoolVar]):
    """The literal of each (variable, value), wrapped on first use: a model cloned from its
    compiled rules has thousands, and a query touches few."""

    def __init__(self, cp: cp_model.CpModel, index: Index) -> None:
        super().__init__()
        self._proto, self._index = cp.model_proto, index

    def __missing__(self, key: tuple[str, Value]) -> BoolVar:
        # what CpModel.get_bool_var_from_proto_index returns, without its checks: every
        # index here is one of our Booleans
        lit = self[key] = cp_model.IntVar(self._proto, self._index[key])
        return lit


def _add_variables(
    cp: cp_model.CpModel,
    index: dict[tuple[str, Value], int],
    literal: dict[tuple[str, Value], BoolVar],
    variables: Iterable[Var],
) -> None:
    """One Boolean per value of each variable, exactly one of them true."""
    for variable in variables:
        bools = []
        for value in variable.domain:
            lit = cp.new_bool_var(f"{variable.name}={value}")
            literal[(variable.name, value)] = lit
            index[(variable.name, value)] = lit.index
            bools.append(lit)
        cp.add_exactly_one(bools)


def _add_constraint(
    cp: cp_model.CpModel, lit: Callable[[Lit], BoolVar], constraint: Count | Clause
) -> cp_model.Constraint:
    if isinstance(constraint, Count):
        total = cp_model.LinearExpr.sum([lit(term) for term in constraint.terms])
        if constraint.op == "==":
            return cp.add(total == constraint.bound)
        if constraint.op == "<=":
            return cp.add(total <= constraint.bound)
        return cp.add(total >= constraint.bound)
    literals: list[cp_model.LiteralT] = [lit(term) for term in constraint.positive]
    literals += [~lit(term) for term in constraint.negative]
    return cp.add_bool_or(literals)


_RULES: OrderedDict[Rules, tuple[cp_model.CpModel, Index]] = OrderedDict()  # by identity
_RULES_LOCK = threading.Lock()
RULES_KEPT = 8
"""Rules compiled once are kept for the last few shapes (`_RULES`, a module cache, oldest
first, guarded by `_RULES_LOCK`). Callers only read what it holds: they clone the model and
copy the index."""


def _compiled_rules(rules: Rules) -> tuple[cp_model.CpModel, Index]:
    """The rules compiled once: a CP-SAT model to clone, and each literal's variable index.
    Rules that extend kept ones (`Rules.parent`) are compiled from a copy of the parent's."""
    with _RULES_LOCK:
        kept = _RULES.get(rules)
        if kept is not None:
            _RULES.move_to_end(rules)
            return kept
        parent = _RULES.get(rules.parent) if rules.parent is not None else None
        variables, constraints = rules.variables, rules.constraints
        if parent is None:
            cp = cp_model.CpModel()
            index: dict[tuple[str, Value], int] = {}
        else:
            assert rules.parent is not None
            cp, index = parent[0].clone(), dict(parent[1])
            variables = variables[len(rules.parent.variables) :]
            constraints = constraints[len(rules.parent.constraints) :]
        literal = _Literals(cp, index)
        _add_variables(cp, index, literal, variables)
        for constraint in constraints:
            _add_constraint(cp, lambda term: literal[(term.var, term.value)], constraint)
        kept = _RULES[rules] = (cp, MappingProxyType(index))
        while len(_RULES) > RULES_KEPT:
            _RULES.popitem(last=False)
        return kept
