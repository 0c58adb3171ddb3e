"""Odds that read what the other players chose: a seat's posterior under a model of how the
others play (`solver.deduce(info, model=...)`).

Counting (the default) takes every consistent world as equally likely under the game's prior:
exact about what could be, silent about what the others' choices say. A model names how they
choose: "random" (each other seat's move uniform over its legal moves) or a bot's name (that
bot's `policy`). Each world is then weighed by the product, over every move another seat
made, of the model's chance of that move given what that seat knew in that world (its
information set then, replayed from a whole state of the world). That is Bayes' rule with the
model as the likelihood of the others' moves: the prior over deals is the counting's, and a
choice the counting treats as free (a discard nobody saw) is weighed by the model too.

How the weighted odds are computed:
- **exact** where the game lists every consistent whole state (`states.ListingSampler`: Blue
  Lion, and Serial Killer's small positions): every state weighed;
- **estimated** where the counting odds are exact but the states too many: whole states drawn
  from the counting posterior (`solver.states.sampler`), BATCH at a time up to MODEL_SAMPLES,
  each weighed; an estimate is the counting's exact odds plus the sample's estimate of what
  the weights change, with its standard error and the effective sample size (Kish). Where the
  model weighs every drawn state alike, the counting's odds come back unchanged;
- **refused** where the counting odds are themselves an estimate (Alibi past exact counting):
  weights over a chain's correlated records collapse onto a few of them (an effective size of
  1-5 in 300 in 4-player games), so the model belongs inside the chain, which is not built.

A model weighs; it never rules a world out: a move the model gives no chance (one outside the
moves it lists, such as an Alibi question of cards its list leaves out) counts as `FLOOR`.
Certain and impossible facts stay the logic's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from engines import Action, ConfigError, InformationSet, Seat, State
from engines.values import quote
from solver.errors import NotCounted
from solver.model import Fact, World
from solver.sampling import Estimate

if TYPE_CHECKING:
    from solver.deduction import Deduction

COUNTING = "counting"
RANDOM = "random"
MODEL_SAMPLES = 300
"""The most whole states drawn and weighed when the game does not list them all: the work
bound of a modelled deduction (about 3-12 ms a state with the random model in mid-game
positions)."""
BATCH = 50
"""States drawn between checks of the estimates' errors."""
TARGET_ERROR = 0.01
"""Drawing stops once every open fact's standard error is at most this (a 95% margin of about
two points), or at MODEL_SAMPLES."""
FLOOR = 1e-6
"""The chance a model gives a move it leaves out, so that no world is ruled out by a model."""
SEED = 0
"""The seed of the states drawn: a modelled deduction is the same on every call."""
FITTING_ROUNDS = 200
"""The most rounds of fitting a table of odds to its estimated margins (`ModelledWorlds.joint`);
a few dozen suffice on City Killer's tables."""


def model_names(game: str) -> tuple[str, ...]:
    """The models `game`'s odds can be read under: counting, random, and every bot of the
    game that gives its moves as a distribution (all but "ismcts")."""
    from opponents.factory import BOT_NAMES, game_bots  # opponents build on the solver

    module = game_bots(game)
    bots = [name for name in BOT_NAMES if module is not None and name in module.BOTS]
    return (COUNTING, RANDOM, *bots)


def check_model(game: str, model: object) -> str:
    """`model` as given, once it is a model of `game` (ConfigError naming the allowed ones)."""
    allowed = model_names(game)
    if not isinstance(model, str) or model not in allowed:
        raise ConfigError(
            f"{game}: unknown opponent model {quote(model)}; models: {', '.join(allowed)}"
        )
    return model


def check_reader(game: str, seat: Seat) -> None:
    """Refuse a model for a seat whose odds are not its own posterior.

    Raises:
        ConfigError: the seat's odds are what another seat can know from the public record
            (City Killer's killer reads the detective's view), which no model applies to.
    """
    from solver.games import PublicKnowledge, knowledge_for

    knowledge = knowledge_for(game)
    if isinstance(knowledge, PublicKnowledge) and not knowledge.own_posterior(seat):
        raise ConfigError(
            f"{game}: the odds of seat {quote(seat)} are not its own posterior (they are what "
            "the other seat can know from the public record), so no opponent model applies "
            "to them; use model 'counting'"
        )


class OpponentModel:
    """The model's chance of each move of every seat but the reader's, one bot per seat, its
    policies remembered by information set (worlds that agree on what a seat knew share
    them)."""

    def __init__(self, name: str, reader: InformationSet) -> None:
        from opponents import make  # opponents build on the solver
        from opponents.base import SeatedBot
        from solver.states import veil

        game = reader.make_game()
        self.name, self.game, self.me = name, game, reader.seat
        self._veil = veil(reader)
        self._bots: dict[Seat, SeatedBot] = {}
        for seat in game.seats:
            if seat == self.me:
                continue
            bot = make(name, game, seat, seed=SEED)
            assert isinstance(bot, SeatedBot)  # every bot `make` builds gives its policy
            self._bots[seat] = bot
        self._policies: dict[tuple[Seat, InformationSet], dict[Action, float]] = {}

    def chance(self, seat: Seat, info: InformationSet, action: Action) -> float:
        """The model's chance that `seat` plays `action` at `info` (at least FLOOR); for a
        move whose content the reader never saw and no world holds (`solver.states.veil`),
        its chance of a move of that kind."""
        key = (seat, info)
        policy = self._policies.get(key)
        if policy is None:
            policy = self._policies[key] = dict(self._bots[seat].policy(info))
        kind = self._veil(action)
        if kind is None:
            return max(policy.get(action, 0.0), FLOOR)
        return max(math.fsum(p for a, p in policy.items() if self._veil(a) == kind), FLOOR)

    def log_likelihood(self, state: State) -> float:
        """log of the chance of every move another seat made in `state`, each given what that
        seat knew then (`Game.decisions` replays them)."""
        total = 0.0
        for seat, info, action in self.game.decisions(state):
            if seat != self.me:
                total += math.log(self.chance(seat, info, action))
        return total


class ModelledWorlds:
    """The consistent worlds weighed by a model: each a whole state's world with the log of its
    weight. Either every consistent state (`counted` None: exact), or a sample drawn from the
    counting posterior whose exact odds are `counted`: each estimate is then the counting's odds
    plus the sample's estimate of what the weights change (a control variate: where the model
    weighs every drawn world alike, the counting's exact odds come back unchanged)."""

    def __init__(
        self,
        worlds: Sequence[World],
        log_weights: Sequence[float],
        counted: Callable[[Fact], float] | None = None,
    ) -> None:
        if not worlds or len(worlds) != len(log_weights):
            raise ValueError("a modelled world set needs one weight per world, and a world")
        top = max(log_weights)
        weights = [math.exp(w - top) for w in log_weights]
        mean = math.fsum(weights) / len(weights)
        self.worlds = list(worlds)
        self.ratios = [w / mean for w in weights]  # each world's weight against the average
        self.exact = counted is None
        self._counted = counted

    @cached_property
    def effective_size(self) -> float:
        """How many independent equally weighted draws the weighted sample is worth (Kish)."""
        n = len(self.ratios)
        return n * n / math.fsum(r * r for r in self.ratios)

    def probability(self, fact: Fact) -> float:
        return self.estimate(fact).value

    def estimate(self, fact: Fact) -> Estimate:
        """The weighted odds of `fact`: exact when every state was weighed, else with the
        estimate's standard error (its linearisation over the draws)."""
        n = len(self.ratios)
        drawn = zip(self.ratios, self.worlds, strict=True)
        pairs = [(r, 1.0 if fact.holds_in(world) else 0.0) for r, world in drawn]
        if self._counted is None:
            return Estimate(math.fsum(r * h for r, h in pairs) / n)
        counted = self._counted(fact)
        value = min(max(counted + math.fsum((r - 1.0) * h for r, h in pairs) / n, 0.0), 1.0)
        # each draw's part in the weighted mean less its part in the plain one
        parts = [r * (h - value) - (h - counted) for r, h in pairs]
        mean = math.fsum(parts) / n
        error = math.sqrt(math.fsum((x - mean) ** 2 for x in parts) / max(n - 1, 1) / n)
        return Estimate(value, error, exact=False, effective_size=self.effective_size)

    def means(self, rows: Sequence[Sequence[float]], counted: Sequence[float]) -> list[float]:
        """The weighted mean of each column of `rows` (one row per world, in `worlds`' order):
        over every world where all were weighed; else the counting's exact means (`counted`)
        plus the draws' estimate of what the weights change, as `estimate` reads a fact (its
        holding, 0 or 1, being the column)."""
        n, columns = len(self.ratios), list(zip(*rows, strict=True))
        if self.exact:
            return [math.fsum(r * x for r, x in zip(self.ratios, c, strict=True)) / n
                    for c in columns]  # fmt: skip
        return [
            mean + math.fsum((r - 1.0) * x for r, x in zip(self.ratios, c, strict=True)) / n
            for mean, c in zip(counted, columns, strict=True)
        ]

    def joint(self, counted: np.ndarray, axes: Sequence[Sequence[Fact]]) -> np.ndarray:
        """A whole table of odds read under the weights, for hints that read a table rather
        than single facts (City Killer's killer x motive x allies x figurant).

        `counted` is the counting's table (normalised); `axes[a][i]` is the fact that axis a
        takes its i-th value. Exact where every state was weighed (each cell's weighted
        share). Else the counted table fitted to the estimated odds of every value of every
        axis (iterative proportional fitting: the table nearest the counting's whose margins
        are the estimates), so that each value's odds in the table are `probability`'s, where
        an estimate cell by cell would scatter a few hundred draws over thousands of cells.
        No cell the counting allows falls below FLOOR of its counted odds (a model never rules
        a world out)."""
        if self.exact:
            table = np.zeros_like(counted, dtype=float)
            for ratio, world in zip(self.ratios, self.worlds, strict=True):
                index = [next((i for i, f in enumerate(axis) if f.holds_in(world)), None)
                         for axis in axes]  # fmt: skip
                if None not in index:
                    table[tuple(index)] += ratio
            return table / table.sum()
        table = counted.astype(float)
        targets = []
        for a, axis in enumerate(axes):
            others = tuple(b for b in range(counted.ndim) if b != a)
            floor = counted.sum(axis=others) * FLOOR
            target = np.maximum([self.probability(f) for f in axis], floor)
            targets.append((others, target / target.sum()))
        for _ in range(FITTING_ROUNDS):
            for others, target in targets:
                margin = table.sum(axis=others)
                scale = np.divide(target, margin, out=np.zeros_like(margin), where=margin > 0)
                table *= np.expand_dims(scale, others)
            if all(np.abs(table.sum(axis=o) - t).max() < 1e-12 for o, t in targets):
                break
        return table / table.sum()

    def total(self) -> int:
        raise NotCounted("a modelled world set weighs worlds: it has probabilities, not counts")

    def count(self, fact: Fact) -> int:
        return self.total()

    def sample(self, n: int, rng: random.Random) -> list[World]:
        """`n` worlds drawn with replacement in proportion to their weights."""
        return rng.choices(self.worlds, weights=self.ratios, k=n)


def modelled_worlds(
    info: InformationSet,
    model: str,
    counted: Deduction,
    samples: int = MODEL_SAMPLES,
) -> ModelledWorlds:
    """The consistent worlds of `info` weighed by `model`: every state where the game lists
    them, else states drawn from the counting posterior (`counted`, the counting deduction of
    `info`; its odds start the estimates when exact), BATCH at a time, until every fact open
    there is known within TARGET_ERROR, or `samples` were drawn."""
    from solver.games import knowledge_for
    from solver.states import listed_states, sampler

    check_reader(info.game, info.seat)
    knowledge = knowledge_for(info.game)
    weigh = OpponentModel(model, info)
    listed = listed_states(info)
    if listed is not None:
        worlds = [knowledge.world_of(state) for state in listed]
        return ModelledWorlds(worlds, [weigh.log_likelihood(s) for s in listed])
    if not counted.exact:
        raise ConfigError(
            f"{info.game}: this position's counting odds are an estimate (a chain's records), "
            "and odds under a model start from exact ones; use model 'counting' here"
        )
    draw, rng = sampler(info), random.Random(SEED)
    open_facts = _open(counted)
    worlds, weights = [], []
    while True:
        for _ in range(min(BATCH, samples - len(worlds))):
            state = draw(rng)
            worlds.append(knowledge.world_of(state))
            weights.append(weigh.log_likelihood(state))
        found = ModelledWorlds(worlds, weights, counted.probability)
        errors = [found.estimate(f).error for f in open_facts]
        if len(worlds) >= samples or max(errors, default=0.0) <= TARGET_ERROR:
            return found


def _open(deduction: Deduction) -> list[Fact]:
    """The facts of `deduction` that are possible and not certain."""
    return [f for f in deduction.facts if deduction.possible(f) and not deduction.is_certain(f)]


__all__ = [
    "BATCH",
    "COUNTING",
    "FLOOR",
    "MODEL_SAMPLES",
    "RANDOM",
    "TARGET_ERROR",
    "ModelledWorlds",
    "OpponentModel",
    "check_model",
    "check_reader",
    "model_names",
    "modelled_worlds",
]
