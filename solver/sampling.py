"""Exact probabilities and uniform samples over consistent worlds.

Probabilities are ratios of counts of consistent worlds (each game's prior makes every
consistent world equally likely; rules/<game>.md says why for that game). When the worlds are
few they are enumerated and counted exactly; samples are then drawn uniformly from the list.
Games whose worlds are too many for a list provide their own `WorldSet` (an exact dynamic
program, or a sampler with a proven uniform stationary distribution); CP-SAT is never used as a
sampler, because re-solving with random seeds is far from uniform.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from solver.model import Fact, Value, World


class WorldSet(Protocol):
    """The consistent worlds of a model, as far as probabilities and samples need them."""

    exact: bool

    def total(self) -> int:
        """How many consistent worlds there are (exact sets only)."""

    def count(self, fact: Fact) -> int:
        """How many consistent worlds make `fact` true (exact sets only)."""

    def probability(self, fact: Fact) -> float: ...

    def sample(self, n: int, rng: random.Random) -> list[World]: ...


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
