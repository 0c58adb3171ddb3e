"""Exact probabilities and uniform samples over consistent worlds, and honest estimates where
exact counting is out of reach.

Probabilities are ratios of counts of consistent worlds (each game's prior makes every
consistent world equally likely; rules/<game>.md says why for that game). When the worlds are
few they are enumerated and counted exactly; samples are then drawn uniformly from the list.
Games whose worlds are too many for a list provide their own `WorldSet` (an exact dynamic
program, or a sampler with a proven uniform stationary distribution); CP-SAT is never used as a
sampler, because re-solving with random seeds is far from uniform.

A world set that only estimates (`exact` false) answers `estimate(fact)` with an `Estimate`:
the value, its standard error from batch means over the sampler's correlated records, and
whether the records ever showed the fact at all. `estimate(deduction, fact)` gives every fact
of a deduction as an `Estimate`, exact or not, so that nothing estimated is shown as exact.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from solver.errors import NotCounted
from solver.model import Fact, Value, World
from solver.wording import percent

if TYPE_CHECKING:
    from solver.deduction import Deduction

BATCHES = 20
"""Batches per run for batch means. The Alibi chain's records have an integrated
autocorrelation time of about 2-8 records, so batches of about 75 records are nearly
independent, and 20 of them estimate the variance with 19 degrees of freedom."""

Z95 = 1.96  # the normal quantile of a two-sided 95% interval
ESTIMATED = "estimated"
SHOWN_MARGIN = 0.05
"""The widest 95% margin an estimate is shown with (five points either way)."""
NOT_YET = "not yet estimated"
"""The word every text showing an estimated number carries."""


class WorldSet(Protocol):
    """The consistent worlds of a model, as far as probabilities and samples need them."""

    exact: bool

    def total(self) -> int:
        """How many consistent worlds there are (exact sets only)."""

    def count(self, fact: Fact) -> int:
        """How many consistent worlds make `fact` true (exact sets only)."""

    def probability(self, fact: Fact) -> float: ...

    def sample(self, n: int, rng: random.Random) -> list[World]: ...


@runtime_checkable
class WitnessingWorldSet(Protocol):
    """A world set that lists the literals its worlds make true, so that `deduce` needs a
    CP-SAT solve only for the others (the set of possible facts is exact either way)."""

    witnesses_all: bool
    """Whether `witnessed` lists every possible literal of the facts' variables (an exact
    counter): then nothing is left to prove."""

    def witnessed(self) -> Iterable[tuple[str, Value]]:
        """Literals (variable, value) that some consistent world makes true."""


class CountedWorldSet(WorldSet, WitnessingWorldSet, Protocol):
    """An exact count of the consistent worlds that witnesses every possible literal
    (`witnesses_all`): a deduction from it needs no CP-SAT solve until an explanation is
    asked for."""


@runtime_checkable
class LearningWorldSet(Protocol):
    """A world set that learns from the consistent worlds CP-SAT finds for it (Alibi keeps
    them to witness the same facts at the next refresh, and walks from them)."""

    def reached(self, world: World) -> Iterable[tuple[str, Value]]:
        """A consistent world `deduce` found while deciding what is possible; returns more
        literals that consistent worlds near it make true (each one solve fewer)."""


@runtime_checkable
class EstimatingWorldSet(Protocol):
    """A world set that estimates (`exact` false): each probability comes with its error."""

    exact: bool

    def estimate(self, fact: Fact) -> Estimate:
        """`probability(fact)` with its standard error, for a fact that is possible but not
        certain (the deduction decides those exactly)."""


@dataclass(frozen=True)
class Estimate:
    """A probability as the solver knows it: exact, or estimated with its standard error.

    `reached` is false when the estimate's records never showed the fact (or never showed it
    false) although the fact is possible and not certain. `value` is then a floor (or a
    ceiling) of half a record's weight, there only to rank the fact, and `error` equals that
    floor: the records cannot measure the fact. `effective_size` is how many independent draws
    the correlated records are worth for this fact (None when exact).
    """

    value: float
    error: float = 0.0
    exact: bool = True
    reached: bool = True
    effective_size: float | None = None

    @property
    def margin(self) -> float:
        """Half the width of an approximate 95% interval (0 when exact)."""
        return Z95 * self.error

    @property
    def shown(self) -> bool:
        """Whether the number is worth showing: exact, or reached with a margin of at most
        SHOWN_MARGIN (a wider one says nothing; "not yet estimated" is said instead)."""
        return self.exact or (self.reached and self.margin <= SHOWN_MARGIN)

    def short(self) -> str:
        """The number as a table cell shows it under an "estimated" heading: 23% ± 4%, or
        "not yet estimated" when the margin is too wide to say anything."""
        if self.exact:
            return percent(self.value)
        if self.reached and not self.shown:
            return NOT_YET
        if not self.reached:
            if self.value < 0.5:
                return "possible, not reached by the estimate"
            return f"{ESTIMATED} >99%, not certain (no record of the estimate says otherwise)"
        return f"{percent(self.value)} ± {math.ceil(self.margin * 100 - 1e-9) or 1}%"

    def __str__(self) -> str:
        """The number with its label: "23%" when exact, "estimated 23% ± 4%" otherwise."""
        if self.exact or not self.shown:
            return self.short()
        return f"{ESTIMATED} {self.short()}"


def estimate(deduction: Deduction, fact: Fact) -> Estimate:
    """The chance of `fact` with what is known of its error: exact when the deduction decides
    it (impossible, certain) or counts exactly, else the world set's estimate."""
    if not deduction.possible(fact):
        return Estimate(0.0)
    if deduction.is_certain(fact):
        return Estimate(1.0)
    worlds = deduction.worlds
    if worlds.exact:
        return Estimate(worlds.probability(fact))
    if not isinstance(worlds, EstimatingWorldSet):
        raise NotCounted(f"{deduction.info.game}: this position's probabilities carry no error")
    return worlds.estimate(fact)


def estimate_from_runs(hits: np.ndarray, starts: Sequence[int]) -> Estimate:
    """The estimate of a probability from a sampler's correlated records.

    Args:
        hits: for each record, in order, whether it makes the fact true.
        starts: the index of the first record of each run (restarts make several runs).

    Each run's mean is weighed equally. The variance of a run's mean comes from batch means
    (`BATCHES` consecutive batches; their means are nearly independent once batches are much
    longer than the autocorrelation time). Runs from different starts may have explored
    different regions: when their means disagree more than their batch errors say, the spread
    between runs is the error instead, so a run stuck in one region widens the bar rather
    than hiding behind it. The error is never below that of as many independent draws.
    """
    bounds = np.array([*starts, len(hits)], dtype=np.int64)
    first, end = bounds[:-1], bounds[1:]
    kept = end > first
    first, end = first[kept], end[kept]
    lengths = end - first
    total = np.concatenate(([0.0], np.cumsum(hits, dtype=float)))  # 0/1 sums: exact
    means = (total[end] - total[first]) / lengths
    value = float(means.mean())
    floor = 0.5 / (len(hits) + 1)
    if value == 0.0 or value == 1.0:
        return Estimate(min(max(value, floor), 1 - floor), floor, exact=False, reached=False)
    within = float(_batch_variances(total, first, lengths, means).sum()) / len(means) ** 2
    between = float(means.var(ddof=1)) / len(means) if len(means) > 1 else 0.0
    independent = value * (1 - value) / len(hits)  # correlated records never tell more
    error = math.sqrt(max(within, between, independent))
    effective = value * (1 - value) / error**2
    return Estimate(value, error, exact=False, effective_size=effective)


def _batch_variances(
    total: np.ndarray, first: np.ndarray, lengths: np.ndarray, means: np.ndarray
) -> np.ndarray:
    """Each run's batch-means variance of its mean, read off the running count of hits
    `total` (too short to batch: as if independent, from the run's own variance)."""
    found = means * (1 - means) / lengths  # a 0/1 run's variance is its mean times 1 - mean
    size = lengths // BATCHES
    long = size >= 2
    if long.any():
        edges = first[long, None] + size[long, None] * np.arange(BATCHES + 1)
        batch_means = np.diff(total[edges], axis=1) / size[long, None]
        found[long] = batch_means.var(axis=1, ddof=1) / BATCHES
    return found


class EnumeratedWorlds:
    """Every consistent world, listed: exact counts, exact uniform sampling."""

    exact = True

    def __init__(self, worlds: Sequence[World]) -> None:
        self.worlds = list(worlds)
        self._literal_counts: Counter[tuple[str, Value]] = Counter(
            item for world in self.worlds for item in world.items()
        )

    def total(self) -> int:
        return len(self.worlds)

    def count(self, fact: Fact) -> int:
        hits = sum(self._literal_counts[(fact.var, value)] for value in fact.values)
        return len(self.worlds) - hits if fact.negated else hits

    def probability(self, fact: Fact) -> float:
        return self.count(fact) / len(self.worlds)

    def sample(self, n: int, rng: random.Random) -> list[World]:
        return [rng.choice(self.worlds) for _ in range(n)]
