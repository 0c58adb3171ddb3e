"""A bot's move as a probability distribution over the legal actions (`SeatedBot.policy`).

A bot that plays by rules with random tie-breaks (`random`, the heuristics, `careful`) has an
exact policy: the distribution of its move over its random choices. Rather than restate each
bot's rules as a distribution (two copies that could drift apart), `enumerate_policy` runs the
bot's own move once per branch of its random choices, with a scripted stand-in for its RNG
that follows one branch and multiplies that branch's probability. That is exact for a bot
whose randomness is `rng.choice` (uniform) and `rng.choices` (weighted, one item: `coin`), the
only calls the stand-in answers; any other draw (`random()`, `sample`, `shuffle`) raises
`UnenumerableBot`, so a bot that starts using one fails its policy tests instead of giving a
wrong distribution.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import Any, NoReturn, TypeVar

from engines import Action, SleuthError

Policy = dict[Action, float]
"""Each action's probability; actions left out have probability 0."""

T = TypeVar("T")

MAX_BRANCHES = 20_000
"""Runs of a bot's move `enumerate_policy` makes at most. The bots' moves branch a few to a
few hundred ways (an Alibi heuristic's question: a group and a player); a `Guess` is one run
however many outcomes it has."""


class UnenumerableBot(SleuthError, RuntimeError):
    """A bot's policy could not be enumerated: it draws randomness the scripted RNG does not
    answer, or its choices branch more than `MAX_BRANCHES` ways."""


def coin(rng: random.Random, p: float) -> bool:
    """True with probability `p`: one `random()` draw, as `rng.random() < p` makes, in a form
    `enumerate_policy` can branch on."""
    return rng.choices((True, False), (p, 1.0 - p))[0]


class _Script(random.Random):
    """An RNG that follows `path` (the branch index of each choice, in order), then the first
    branch of every later choice; it notes how many branches each choice had and the
    probability of the branch taken."""

    def __init__(self, path: list[int]) -> None:
        super().__init__(0)
        self.path = path
        self.at = 0
        self.branches: list[int] = []
        self.probability = 1.0

    def _branch(self, weights: Sequence[float]) -> int:
        total = float(sum(weights))
        if not weights or total <= 0:
            raise UnenumerableBot("a bot chose from nothing (no item, or weights summing to 0)")
        if self.at == len(self.path):
            self.path.append(0)
        index = self.path[self.at]
        self.branches.append(len(weights))
        self.probability *= weights[index] / total
        self.at += 1
        return index

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        return seq[self._branch([1.0] * len(seq))]

    def choices(  # type: ignore[override]
        self,
        population: Sequence[T],
        weights: Sequence[float] | None = None,
        *,
        cum_weights: Sequence[float] | None = None,
        k: int = 1,
    ) -> list[T]:
        if cum_weights is not None or k != 1:
            self._refuse("choices(cum_weights=..., k>1)")
        return [population[self._branch(weights or [1.0] * len(population))]]

    def random(self) -> float:
        self._refuse("random()")

    def getrandbits(self, k: int) -> int:  # randrange, randint, sample, shuffle
        self._refuse("a draw of bits (randrange, randint, sample or shuffle)")

    def _refuse(self, call: str) -> NoReturn:
        raise UnenumerableBot(
            f"a bot's policy is enumerated over rng.choice and rng.choices (one item), but it "
            f"drew {call}: use rng.choice for a uniform pick, opponents.policy.coin for a "
            "chance, or give the bot a _policy of its own"
        )


@dataclass(frozen=True)
class Guess:
    """A move a bot draws last, from independent uniform picks (a Serial Killer profile: a
    card per genre): left undrawn by `SeatedBot._decide`, so that a policy counts its
    outcomes at once instead of running the bot once per combination (thousands late in a
    game)."""

    options: tuple[tuple[Any, ...], ...]
    make: Callable[[tuple[Any, ...]], Action]

    def draw(self, rng: random.Random) -> Action:
        """The move, its picks drawn in order (`rng.choice` once per option)."""
        return self.make(tuple(rng.choice(option) for option in self.options))

    def outcomes(self) -> Iterator[tuple[Action, float]]:
        """Every move it may be, with its probability."""
        for picks in product(*self.options):
            yield self.make(picks), prod(1.0 / len(option) for option in self.options)


def enumerate_policy(move: Callable[[random.Random], Action | Guess]) -> Policy:
    """The distribution of `move(rng)` over rng's choices, by running it once per branch (a
    `Guess` it returns counts all its outcomes).

    Raises:
        UnenumerableBot: `move` draws what the scripted RNG does not answer, or has more than
            `MAX_BRANCHES` branches.
    """
    policy: defaultdict[Any, float] = defaultdict(float)
    path: list[int] = []
    for _ in range(MAX_BRANCHES):
        script = _Script(path)
        made = move(script)
        if isinstance(made, Guess):
            for action, p in made.outcomes():
                policy[action] += script.probability * p
        else:
            policy[made] += script.probability
        path = script.path[: script.at]
        while path and path[-1] + 1 >= script.branches[len(path) - 1]:
            path.pop()
        if not path:
            total = sum(policy.values())
            return {action: p / total for action, p in policy.items() if p > 0}
        path[-1] += 1
    raise UnenumerableBot(f"a bot's move branches more than {MAX_BRANCHES} ways")
