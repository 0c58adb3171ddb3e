"""The declarative model of what an information set allows: variables, constraints, facts.

A game's knowledge model (solver/games/<game>.py) turns an information set into a `Model`.
Every constraint carries `source`, the index of the observation that produced it (None for the
rules of the game, which always hold), so deductions can be explained in the player's own
observations, as python-constraint's einstein example labels each clue.

A *world* maps every variable to one value of its domain. The semantics here (`holds`) is the
specification: the CP-SAT compilation and the brute-force oracle must both agree with it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeAlias

from engines import InformationSet, Observation
from solver.games import knowledge_for

if TYPE_CHECKING:
    from engines import State

Value: TypeAlias = Hashable
World: TypeAlias = Mapping[str, Value]


@dataclass(frozen=True)
class Var:
    """A hidden quantity with a finite domain (a tile's pair of icons, a card's place)."""

    name: str
    domain: tuple[Value, ...]


@dataclass(frozen=True)
class Lit:
    """The proposition `var == value`."""

    var: str
    value: Value

    def holds(self, world: World) -> bool:
        return world[self.var] == self.value


@dataclass(frozen=True)
class Count:
    """How many of `terms` hold, compared with `bound` (`==`, `<=` or `>=`).

    Covers membership (`x in S` is exactly one of its literals), all-different, and every
    numeric answer ("player 3 holds 2 Poison cards").
    """

    terms: tuple[Lit, ...]
    op: Literal["==", "<=", ">="]
    bound: int
    source: int | None = None

    def holds(self, world: World) -> bool:
        total = sum(term.holds(world) for term in self.terms)
        if self.op == "==":
            return total == self.bound
        return total <= self.bound if self.op == "<=" else total >= self.bound


@dataclass(frozen=True)
class Clause:
    """At least one of `positive` holds or at least one of `negative` fails."""

    positive: tuple[Lit, ...] = ()
    negative: tuple[Lit, ...] = ()
    source: int | None = None

    def holds(self, world: World) -> bool:
        return any(lit.holds(world) for lit in self.positive) or any(
            not lit.holds(world) for lit in self.negative
        )


Constraint: TypeAlias = Count | Clause


def member(var: str, values: Iterable[Value], source: int | None = None) -> Count:
    """The constraint `var in values`."""
    return Count(tuple(Lit(var, value) for value in values), "==", 1, source)


@dataclass(frozen=True)
class Fact:
    """A queryable proposition: `var` takes one of `values` (or, when negated, none of them).

    `kind` and `args` name it for people and code (`Back("t4", "Z")`); `text` says it in words.
    """

    kind: str
    args: tuple[Value, ...]
    var: str
    values: frozenset[Value]
    text: str
    negated: bool = False

    def holds_in(self, world: World) -> bool:
        return (world[self.var] in self.values) != self.negated

    def holds(self, state: State) -> bool:
        """Whether the fact is true in a full-truth State of its game."""
        return self.holds_in(knowledge_for(state.game.name).world_of(state))

    def __invert__(self) -> Fact:
        return Fact(self.kind, self.args, self.var, self.values, self.text, not self.negated)

    def __str__(self) -> str:
        return f"not ({self.text})" if self.negated else self.text


@dataclass(frozen=True, eq=False)
class Rules:
    """Variables and rule constraints (no observation) that many models start with.

    With `parent`, these extend the parent's rules: its variables and constraints come first,
    in its order (Alibi: the rules of a round extend those of the round before), so that a
    compiler that kept the parent's work adds only the rest."""

    variables: tuple[Var, ...]
    constraints: tuple[Constraint, ...]
    parent: Rules | None = None


@dataclass
class Model:
    """Variables, constraints and facts for one information set."""

    info: InformationSet
    variables: list[Var] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    base: Rules | None = None
    """When set, `variables` and `constraints` start with these, shared by many models (the
    rules of a position's shape), so that a compiler may reuse its work on them."""
    branching: tuple[str, ...] | None = None
    """When set, the variables in the order a solver should branch on them (its values in
    domain order), whatever order they were created in: a game whose rules are listed round
    by round (so that they extend) may still want CP-SAT to decide one card's whole story at
    a time."""
    read_with: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """For a source whose constraints depend on how earlier observations were read, those
    observations (Noir: a kill's constraint is read on the grid that the setup and every shift
    before it made). They produce no constraint of theirs, yet a mistyped one of them can be
    what makes the record contradict itself, so a diagnosis names them beside the conflict."""

    @property
    def observations(self) -> tuple[Observation, ...]:
        return self.info.observations

    def var(self, name: str) -> Var:
        cached = self.__dict__.get("_by_name")
        if cached is None or cached[0] is not self.variables or cached[1] != len(self.variables):
            by_name: dict[str, Var] = {}
            for variable in self.variables:
                by_name.setdefault(variable.name, variable)  # the first of a name, as a scan
            cached = self.__dict__["_by_name"] = (self.variables, len(self.variables), by_name)
        try:
            return cached[2][name]
        except KeyError:
            raise KeyError(name) from None

    def sources(self) -> list[int]:
        """Indices of the observations that produced at least one constraint, in order."""
        return sorted({c.source for c in self.constraints if c.source is not None})

    def consistent(self, world: World, enabled: Sequence[int] | None = None) -> bool:
        """Whether `world` satisfies the rules and the constraints of the `enabled` sources."""
        allowed = None if enabled is None else set(enabled)
        return all(
            c.holds(world)
            for c in self.constraints
            if c.source is None or allowed is None or c.source in allowed
        )
