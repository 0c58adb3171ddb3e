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
- **exact** where the game lists every consistent whole state (`states.ListingSampler`, Blue
  Lion when its worlds are few): every state weighed;
- **importance-weighted** elsewhere: `samples` whole states drawn from the counting posterior
  (`solver.states.sampler`), each weighed, the odds a weighted mean, with the effective sample
  size and a 95% margin on every estimate (`solver.sampling.Estimate`). When the model's
  weights vary much between worlds (few states carry the weight) the effective size falls and
  the margin says so; Alibi's chain records are correlated, so there the margin is a floor.

A model weighs; it never rules a world out: a move the model gives no chance (one outside the
moves it lists, such as an Alibi question of cards its list leaves out) counts as `FLOOR`.
Certain and impossible facts stay the logic's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cached_property

from engines import Action, ConfigError, InformationSet, Seat, State
from engines.values import quote
from solver.errors import NotCounted
from solver.model import Fact, World
from solver.sampling import Estimate

COUNTING = "counting"
RANDOM = "random"
MODEL_SAMPLES = 300
"""Whole states drawn and weighed when the game does not list them all: the work bound of a
modelled deduction (about 3-12 ms a state with the random model in mid-game positions)."""
FLOOR = 1e-6
"""The chance a model gives a move it leaves out, so that no world is ruled out by a model."""
SEED = 0
"""The seed of the states drawn: a modelled deduction is the same on every call."""


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


class OpponentModel:
    """The model's chance of each move of every seat but one, one bot per seat, its policies
    remembered by information set (worlds that agree on what a seat knew share them)."""

    def __init__(self, name: str, reader: InformationSet) -> None:
        from opponents import make  # opponents build on the solver
        from opponents.base import SeatedBot
        from solver.states import veil

        game = reader.make_game()
        self.name, self.game, self.me = name, game, reader.seat
        self._veil = veil(reader)
        self._bots: dict[Seat, SeatedBot] = {}
        for seat in game.seats:
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
    weight. `exact` when they are every consistent state. Otherwise a sample drawn from the
    counting posterior; when that posterior is exact (`counted`: its probability of a fact),
    each estimate is the counting's odds plus the sample's estimate of what the weights change
    (a control variate: where the model weighs every drawn world alike, the counting's exact
    odds come back unchanged); else the weighted mean of the sample."""

    def __init__(
        self,
        worlds: Sequence[World],
        log_weights: Sequence[float],
        exact: bool,
        counted: Callable[[Fact], float] | None = None,
    ) -> None:
        if not worlds or len(worlds) != len(log_weights):
            raise ValueError("a modelled world set needs one weight per world, and a world")
        top = max(log_weights)
        weights = [math.exp(w - top) for w in log_weights]
        mean = math.fsum(weights) / len(weights)
        self.worlds = list(worlds)
        self.ratios = [w / mean for w in weights]  # each world's weight against the average
        self.exact = exact
        self._counted = None if exact else counted

    @cached_property
    def effective_size(self) -> float:
        """How many independent equally weighted draws the weighted sample is worth (Kish)."""
        n = len(self.ratios)
        return n * n / math.fsum(r * r for r in self.ratios)

    def _hits(self, fact: Fact) -> list[float]:
        return [1.0 if fact.holds_in(world) else 0.0 for world in self.worlds]

    def probability(self, fact: Fact) -> float:
        return self.estimate(fact).value

    def estimate(self, fact: Fact) -> Estimate:
        """The weighted odds of `fact` with their standard error (exact when every state was
        weighed)."""
        hits, ratios, n = self._hits(fact), self.ratios, len(self.ratios)
        if self.exact:
            return Estimate(math.fsum(r * h for r, h in zip(ratios, hits, strict=True)) / n)
        if self._counted is not None:
            counted = self._counted(fact)
            shift = math.fsum((r - 1.0) * h for r, h in zip(ratios, hits, strict=True)) / n
            value = min(max(counted + shift, 0.0), 1.0)
            # linearised: each draw's part in the weighted mean less its part in the plain one
            parts = [r * (h - value) - (h - counted) for r, h in zip(ratios, hits, strict=True)]
            mean = math.fsum(parts) / n
            spread = math.fsum((x - mean) ** 2 for x in parts) / max(n - 1, 1)
            error = math.sqrt(spread / n)
            return Estimate(value, error, exact=False, effective_size=self.effective_size)
        value = math.fsum(r * h for r, h in zip(ratios, hits, strict=True)) / n
        size = self.effective_size
        if value <= 0.0 or value >= 1.0:  # possible and not certain, but never drawn so
            floor = 0.5 / (size + 1)
            shown = min(max(value, floor), 1 - floor)
            return Estimate(shown, floor, exact=False, reached=False, effective_size=size)
        pairs = zip(ratios, hits, strict=True)
        spread = math.fsum((r / n) ** 2 * (h - value) ** 2 for r, h in pairs)
        error = max(math.sqrt(spread), math.sqrt(value * (1 - value) / n))
        return Estimate(value, error, exact=False, effective_size=size)

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
    counted: Callable[[Fact], float] | None = None,
    samples: int = MODEL_SAMPLES,
) -> ModelledWorlds:
    """The consistent worlds of `info` weighed by `model`: every state where the game lists
    them, else `samples` drawn from the counting posterior (whose exact odds, `counted`, the
    estimates start from when given)."""
    from solver.games import PublicKnowledge, knowledge_for
    from solver.states import listed_states, sampler

    knowledge = knowledge_for(info.game)
    if isinstance(knowledge, PublicKnowledge) and not knowledge.own_posterior(info):
        raise ConfigError(
            f"{info.game}: the odds of seat {quote(info.seat)} are not its own posterior (they "
            "are what the other seat can know from the public record), so no opponent model "
            "applies to them; use model 'counting'"
        )
    weigh = OpponentModel(model, info)
    states = listed_states(info)
    exact = states is not None
    if states is None:
        draw = sampler(info)
        rng = random.Random(SEED)
        states = [draw(rng) for _ in range(samples)]
    worlds = [knowledge.world_of(state) for state in states]
    weights = [weigh.log_likelihood(state) for state in states]
    return ModelledWorlds(worlds, weights, exact, counted)


__all__ = [
    "COUNTING",
    "FLOOR",
    "MODEL_SAMPLES",
    "RANDOM",
    "ModelledWorlds",
    "OpponentModel",
    "check_model",
    "model_names",
    "modelled_worlds",
]
