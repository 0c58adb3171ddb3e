"""`deduce(info)`: from an information set to a `Deduction` that answers every query."""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

import engines
from engines import Game, InformationSet, Observation
from solver.cpsat import Compiled, CoreSearch
from solver.errors import Inconsistent, NotCertain, NotCounted, SolverTimeout
from solver.games import CountingKnowledge, RememberingKnowledge, WitnessingKnowledge, knowledge_for
from solver.model import Fact, Model, Value, World
from solver.opponent_models import COUNTING, check_model, modelled_worlds
from solver.sampling import (
    CountedWorldSet,
    EnumeratedWorlds,
    Estimate,
    LearningWorldSet,
    WitnessingWorldSet,
    WorldSet,
    estimate,
)
from solver.validation import validate

if TYPE_CHECKING:
    from solver.games import Knowledge

ENUMERATION_LIMIT = 50_000
"""Worlds listed exactly up to this many, when the knowledge module's `world_set` returns None
(a game that counts and samples its own way returns its world set); past it, certain/possible
still hold exactly (CP-SAT backbone) but probabilities are unavailable."""


class Deduction:
    """What one information set implies: certain and possible facts, probabilities, samples,
    and the observations that explain each certainty.

    Certain/possible are exact (enumeration, or CP-SAT solution elimination). Probabilities are
    exact when `exact` is true (ratios of counts of consistent worlds).
    """

    def __init__(
        self,
        model: Model,
        compiled: Compiled | Callable[[], Compiled],
        worlds: WorldSet | None,
        possible_literals: set[tuple[str, Value]],
        decided: frozenset[str] | None = None,
        opponent_model: str = COUNTING,
    ) -> None:
        self.model = model
        self.opponent_model = opponent_model  # how the odds read the others' choices
        self.info = model.info
        self._compile = compiled  # the CP-SAT model, or how to build it when first asked
        self._worlds = worlds
        self._possible = possible_literals
        self._decided = decided  # variables whose possible literals are all known (None: all)

    @cached_property
    def _compiled(self) -> Compiled:
        """The CP-SAT model: built when a query needs it (an explanation, an undecided fact)
        if the game's own counting decided everything without it."""
        compile_ = self._compile
        return compile_ if isinstance(compile_, Compiled) else compile_()

    @property
    def facts(self) -> list[Fact]:
        return list(self.model.facts)

    @property
    def exact(self) -> bool:
        return self._worlds is not None and self._worlds.exact

    @property
    def worlds(self) -> WorldSet:
        if self._worlds is None:
            raise NotCounted(
                f"{self.info.game}: this position's worlds are too many to list and the game "
                "has no counter: certain and possible facts are exact, probabilities unavailable"
            )
        return self._worlds

    # --- certainty -----------------------------------------------------------------------
    def _values(self, fact: Fact) -> list[Value]:
        domain = self.model.var(fact.var).domain
        return [v for v in domain if (v in fact.values) != fact.negated]

    def settled(self, fact: Fact) -> bool:
        """Whether `possible(fact)` and `is_certain(fact)` are known without another solve
        (false for facts left open by `deduce`'s `about`, a passed `deadline`, or a possibility
        query that reached its work ceiling): a bot out of time may treat an unsettled fact
        as uncertain and act on its estimate."""
        return self._decided is None or fact.var in self._decided

    def possible(self, fact: Fact) -> bool:
        """Whether some consistent world makes `fact` true."""
        if not self.settled(fact):
            literals = self._compiled.fact_literals(fact)
            return self._compiled.satisfiable(None, literals, task=f"deciding whether {fact}")[0]
        return any((fact.var, value) in self._possible for value in self._values(fact))

    def is_certain(self, fact: Fact) -> bool:
        """Whether every consistent world makes `fact` true."""
        return not self.possible(~fact)

    def certain(self) -> list[Fact]:
        """The facts (of `facts`) that hold in every consistent world."""
        return [fact for fact in self.model.facts if self.is_certain(fact)]

    def impossible(self) -> list[Fact]:
        """The facts (of `facts`) that hold in no consistent world."""
        return [fact for fact in self.model.facts if not self.possible(fact)]

    # --- probabilities -------------------------------------------------------------------
    def probability(self, fact: Fact) -> float:
        """The chance that `fact` is true, under the game's prior (rules/<game>.md)."""
        if not self.possible(fact):
            return 0.0
        if self.is_certain(fact):
            return 1.0
        return self.worlds.probability(fact)

    def estimate(self, fact: Fact) -> Estimate:
        """`probability(fact)` with what is known of its error: exact (`.exact`) when the
        deduction decides or counts it, else the estimate with its standard error, effective
        sample size and whether the estimate ever reached the fact. `str()` labels it."""
        return estimate(self, fact)

    def count(self, fact: Fact) -> int:
        """How many consistent worlds make `fact` true (exact world sets only)."""
        return self.worlds.count(fact)

    def total(self) -> int:
        """How many consistent worlds there are (exact world sets only)."""
        return self.worlds.total()

    def marginals(self) -> dict[Fact, float]:
        return {fact: self.probability(fact) for fact in self.model.facts}

    def sample(self, n: int, seed: int = 0) -> list[World]:
        """`n` consistent worlds from the posterior, the same for the same `seed`.

        When `exact` is true they are independent draws from the exact posterior. Otherwise
        (Alibi beyond exact counting) they are records of a Markov chain over consistent
        worlds, drawn uniformly with replacement: each is consistent, and they follow the
        chain's estimate of the posterior (as close to it as `solver.sampling.estimate`'s
        error bars say), but the records are correlated states of the chain, so repeats
        happen and however large `n` is they carry at most about `effective_size`
        independent draws' worth of information about a fact (see `Estimate`).
        """
        return self.worlds.sample(n, random.Random(seed))

    # --- explanations --------------------------------------------------------------------
    def explain(self, fact: Fact) -> list[Observation]:
        """A minimal list of observations that force `fact`, in the order they happened.

        Dropping any one of them leaves a consistent world where `fact` is false. An empty
        list means the rules alone force it.

        Raises:
            NotCertain: some consistent world makes `fact` false.
        """
        return [self.info.observations[i] for i in self.explain_sources(fact)]

    def explain_sources(self, fact: Fact) -> list[int]:
        """`explain`, as indices into the information set's observations."""
        if not self.is_certain(fact):
            raise NotCertain(f"{fact} is not certain, so nothing forces it")
        return self._compiled.minimal_core(self._compiled.fact_literals(~fact))

    def explain_search(
        self, fact: Fact, start: CoreSearch | None = None, solves: int | None = None
    ) -> CoreSearch:
        """`explain_sources` a few CP-SAT solves at a time (`Compiled.shrink_core`): at most
        `solves` from `start`, a search begun by this deduction or by one of an information
        set this one extends (whose observations it continues: sources are their indices).
        When `.done`, `.necessary` is the explanation.

        Raises:
            NotCertain: some consistent world makes `fact` false.
        """
        if start is None and not self.is_certain(fact):
            raise NotCertain(f"{fact} is not certain, so nothing forces it")
        return self._compiled.shrink_core(self._compiled.fact_literals(~fact), start, solves)

    def describe(self, observations: list[Observation]) -> list[str]:
        return [self.game.describe(obs) for obs in observations]

    @cached_property
    def game(self) -> Game:
        """The game of the information set (for describing observations in words)."""
        return self.info.make_game()


def deduce(
    info: InformationSet,
    enumeration_limit: int = ENUMERATION_LIMIT,
    about: Callable[[Fact], bool] | None = None,
    deadline: float | None = None,
    model: str = COUNTING,
) -> Deduction:
    """Everything `info` implies about the hidden worlds.

    `model` says how the odds read the other seats' choices: "counting" (every consistent
    world as likely as its deal), "random", or a bot's name (`solver.opponent_models`): each
    world is then weighed by that model's chance of every move the others made there. Certain
    and possible facts are the same under every model; the odds are exact where the game
    lists its whole states, else importance-weighted estimates with a margin.

    With `about`, only the facts it accepts are decided up front (certain or not); other
    facts are still answered exactly, with a CP-SAT solve each when asked. A bot that needs
    only some facts saves the solves that decide the rest.

    With `deadline` (a `time.monotonic()` instant, a bot's time budget), the work stops when
    it passes and the deduction answers with what it has: a game's estimates from a shorter
    run, and the facts not yet decided by then decided by a solve each when asked (so
    certain and possible stay exact). The solver's safety ceilings still apply.

    A full deduction (no `about`, no `deadline`) is remembered for the last few information
    sets, so that asking again, as a bot does right after the hints of the same position,
    costs nothing.

    Raises:
        ConfigError: `model` is not a model of the game (the message lists them), or no
            model applies to this position (`solver.opponent_models.modelled_worlds`).
        InvalidInformationSet: `info` is not an information set its game could produce.
        Inconsistent: the observations contradict each other; `.conflict` is a minimal set.
        SolverTimeout: CP-SAT reached a time limit (solver.cpsat; a safety ceiling), or
            `deadline` passed before a first consistent world was found.
    """
    if model != COUNTING:
        check_model(info.game, model)
    validate(info)
    key = (info, enumeration_limit, model)
    with _RECENT_LOCK:
        remembered = _RECENT.get(key)
    if remembered is not None:  # it decides every fact, so it serves any `about` too
        return remembered
    if model == COUNTING:
        found = _deduce(info, enumeration_limit, about, deadline)
    else:
        found = _modelled(deduce(info, enumeration_limit, about, deadline), model)
    if about is None and deadline is None:
        with _RECENT_LOCK:
            _RECENT[key] = found
            while len(_RECENT) > RECENT_KEPT:
                _RECENT.popitem(last=False)
    return found


def _modelled(counted: Deduction, model: str) -> Deduction:
    """`counted` with its odds weighed by `model`: the same certain and possible facts."""
    worlds = modelled_worlds(counted.info, model, counted)
    return Deduction(
        counted.model, counted._compile, worlds, counted._possible, counted._decided, model
    )


_RECENT: OrderedDict[tuple[InformationSet, int, str], Deduction] = OrderedDict()  # oldest first
_RECENT_LOCK = threading.Lock()
RECENT_KEPT = 4
"""Full deductions remembered (`_RECENT`, a module cache guarded by `_RECENT_LOCK`). A
remembered Deduction is shared by every caller and thread that asks again: its queries never
change it (solver.cpsat restores its model after each query and serialises them)."""


_COMPILED: OrderedDict[tuple, Compiled] = OrderedDict()  # by game, options, seat, beginning
_COMPILED_LOCK = threading.Lock()
COMPILED_KEPT = 8
"""The last compiled model of each of the last few seats' games (a module cache guarded by
`_COMPILED_LOCK`): the next information set of the same game usually extends it by an
observation or a round, and compiling only what is new costs a fraction of compiling it all
(`Compiled(previous=...)`). A Compiled is only read after it is made (its queries restore it)."""


def _game_key(info: InformationSet) -> tuple:
    return (info.game, info.options, info.seat, info.observations[:2])


def _compiled_before(info: InformationSet) -> Compiled | None:
    with _COMPILED_LOCK:
        return _COMPILED.get(_game_key(info))


def _keep_compiled(info: InformationSet, compiled: Compiled) -> None:
    with _COMPILED_LOCK:
        _COMPILED[_game_key(info)] = compiled
        _COMPILED.move_to_end(_game_key(info))
        while len(_COMPILED) > COMPILED_KEPT:
            _COMPILED.popitem(last=False)


def forget() -> None:
    """Drop everything the solver remembers between refreshes (deductions, compiled models,
    and what each game's knowledge module keeps), so that what follows is computed as in a
    fresh process: a new game starts here, and a replayed one shows exactly what it showed."""
    with _RECENT_LOCK:
        _RECENT.clear()
    with _COMPILED_LOCK:
        _COMPILED.clear()
    for name in engines.names():
        knowledge = engines.game_module(name, "solver.games")
        if isinstance(knowledge, RememberingKnowledge):
            knowledge.forget()


def _counted(knowledge: Knowledge, model: Model) -> CountedWorldSet | None:
    """The game's own exact count of the model's worlds, if its knowledge module counts."""
    return knowledge.counted(model) if isinstance(knowledge, CountingKnowledge) else None


def _known_world(knowledge: Knowledge, model: Model, compiled: Compiled) -> World | None:
    """A consistent world of the model that the game already knows, if it keeps any."""
    if isinstance(knowledge, WitnessingKnowledge):
        return knowledge.known_world(model, compiled)
    return None


def _near_world(knowledge: Knowledge, model: Model) -> World | None:
    """A world the game expects near a consistent one, for the first solve to start from."""
    if isinstance(knowledge, WitnessingKnowledge):
        return knowledge.near_world(model)
    return None


def _in_time(deadline: float | None, info: InformationSet, task: str) -> None:
    """Stop between the steps of a deduction once a caller's deadline passed (each step
    that can take long checks it within too: CP-SAT's solves, a game's counting and chain)."""
    if deadline is not None and time.monotonic() >= deadline:
        raise SolverTimeout(f"{info.game}: the deadline passed while {task}")


def _deduce(
    info: InformationSet,
    enumeration_limit: int,
    about: Callable[[Fact], bool] | None,
    deadline: float | None = None,
) -> Deduction:
    knowledge = knowledge_for(info.game)
    _in_time(deadline, info, "validating the observations")
    model = knowledge.build(info)
    _in_time(deadline, info, "building the model")
    counted = _counted(knowledge, model) if deadline is None else None
    if counted is not None and counted.total() > 0:
        # the game's exact counter witnesses every possible literal: no solve is needed
        # until an explanation is asked for
        possible = set(counted.witnessed())
        return Deduction(
            model, lambda: Compiled(model, knowledge.CPSAT_PARAMETERS), counted, possible
        )
    compiled = Compiled(model, knowledge.CPSAT_PARAMETERS, _compiled_before(info))
    _keep_compiled(info, compiled)  # kept even when late: the next position extends it
    _in_time(deadline, info, "compiling the model")
    witness = _first_witness(info, knowledge, model, compiled, deadline)
    worlds = _world_set(knowledge, model, compiled, enumeration_limit)
    if isinstance(worlds, EnumeratedWorlds):
        possible = {item for world in worlds.worlds for item in world.items()}
        return Deduction(model, compiled, worlds, possible, None)
    decided = _decided(knowledge, model, about)
    possible, decided = _possible(model, compiled, worlds, witness, decided, deadline)
    return Deduction(model, compiled, worlds, possible, decided)


def _first_witness(
    info: InformationSet,
    knowledge: Knowledge,
    model: Model,
    compiled: Compiled,
    deadline: float | None,
) -> World:
    """A consistent world (the game's own, or CP-SAT's first solve), kept on `compiled` with
    the caller's budget for `world_set` to start from.

    Raises:
        Inconsistent: no world is consistent, with the observations of a minimal conflict.
    """
    witness = _known_world(knowledge, model, compiled)
    if witness is None:  # a caller's budget bounds this first solve too
        near = _near_world(knowledge, model)
        witness, _ = compiled.solve(deadline=deadline, guided=True, near=near)
    compiled.witness = witness  # a consistent world, for world_set to start from
    compiled.deadline = deadline  # and the budget it should keep
    if witness is None:
        conflict = [info.observations[i] for i in compiled.minimal_core()]
        game = info.make_game()
        raise Inconsistent(conflict, [game.describe(obs) for obs in conflict])
    return witness


def _world_set(
    knowledge: Knowledge, model: Model, compiled: Compiled, enumeration_limit: int
) -> WorldSet | None:
    """The game's own world set, else every world listed up to `enumeration_limit` (None
    past it)."""
    worlds = knowledge.world_set(model, compiled)
    if worlds is None:
        listed = compiled.enumerate(enumeration_limit)
        if listed is not None:
            worlds = EnumeratedWorlds(listed)
    return worlds


def _decided(
    knowledge: Knowledge, model: Model, about: Callable[[Fact], bool] | None
) -> frozenset[str] | None:
    """The variables whose possible literals are decided now (None: all of them): those the
    game's facts ask about, and of them only those of the facts `about` selects."""
    decided = None
    queried = knowledge.query_variables(model)
    if queried is not None:  # decide only what facts ask, the rest on demand
        decided = frozenset(queried)
    if about is not None:
        decided = frozenset(fact.var for fact in model.facts if about(fact)) & (
            decided if decided is not None else {v.name for v in model.variables}
        )
    return decided


def _possible(
    model: Model,
    compiled: Compiled,
    worlds: WorldSet | None,
    witness: World,
    decided: frozenset[str] | None,
    deadline: float | None,
) -> tuple[set[tuple[str, Value]], frozenset[str] | None]:
    """The possible literals of the `decided` variables, from the worlds that witness them
    and CP-SAT's proofs for the rest; and the variables decided in the end (those a budget
    or a work ceiling left open are decided when asked)."""
    witnessing = worlds if isinstance(worlds, WitnessingWorldSet) else None
    witnesses = _witnesses(worlds, witnessing, witness, decided)
    if witnessing is not None and witnessing.witnesses_all:
        # an exact counter that witnesses every possible literal: nothing left to prove
        return {item for world in witnesses for item in world.items()}, decided
    found = worlds.reached if isinstance(worlds, LearningWorldSet) else None
    possible, undecided = compiled.possible_literals(witnesses, decided, found, deadline)
    if undecided:  # the budget or a work ceiling ran out: decided when asked
        everything = decided if decided is not None else {v.name for v in model.variables}
        decided = frozenset(everything) - undecided
    return possible, decided


def _witnesses(
    worlds: WorldSet | None,
    witnessing: WitnessingWorldSet | None,
    witness: World,
    decided: frozenset[str] | None,
) -> list[World]:
    """The worlds known to be consistent: the first witness, the literals a sampler met on
    its way, and samples of the world set where they can add to what is decided."""
    witnesses = [witness]
    if witnessing is not None:  # literals a sampler met on its way witness too
        witnesses += [{name: value} for name, value in witnessing.witnessed()]
    if worlds is not None and (decided is None or witnessing is None):
        # samples witness more (with `witnessed` covering the decided variables they
        # could add nothing there)
        witnesses += worlds.sample(64, random.Random(0))
    return witnesses
