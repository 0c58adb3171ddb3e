"""Blue Lion bots: a greedy heuristic and an expectiminimax solver over the posterior."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engines import Action, ConfigError, InformationSet, Seat
from engines.blue_lion import ICONS, BlueLion, BlueLionState, Return
from opponents.base import Bot, check_options
from solver import deduce
from solver.games.blue_lion import Pairs, outcomes, position


def net_gain(before: BlueLionState, after: BlueLionState, seat: Seat) -> int:
    """Points `seat` gained minus points its opponent gained between two positions."""
    return sum(
        (after.scores[s] - before.scores[s]) * (1 if s == seat else -1) for s in before.scores
    )


class HeuristicBot:
    """Greedy on the points of its own move, as a player without a notebook would be.

    A blind flip is valued as if its back were any of the three other icons alike (no
    deduction from the faces seen); ties are broken at random.
    """

    def __init__(self, game: BlueLion, seat: Seat, rng: random.Random) -> None:
        self.game, self.seat, self.rng = game, seat, rng

    def act(self, info: InformationSet) -> Action:
        state = self.game.public_state(info)
        scored = [(self._value(state, action), action) for action in state.legal_actions()]
        best = max(value for value, _ in scored)
        return self.rng.choice([action for value, action in scored if value == best])

    def _value(self, state: BlueLionState, action: Action) -> float:
        tile = getattr(action, "flipped_tile", None)
        if tile is None:
            after = state.clone()
            after.apply_trusted(action)
            return net_gain(state, after, self.seat)
        up = state.up[tile]
        total = 0.0
        for back in (icon for icon in ICONS if icon != up):
            after = state.with_pairs({**state._pairs, tile: frozenset((up, back))})
            after.apply_trusted(action)
            total += net_gain(state, after, self.seat)
        return total / 3


class OutOfTime(Exception):
    """The search's deadline passed; the last completed depth's choice stands."""


WIN = 100.0


class SolverBot:
    """Expectiminimax over the exact posterior of the backs, deepened while time allows.

    Max nodes are this bot's decisions, min nodes the opponent's, and every blind flip is a
    chance node whose outcomes follow the Deduction (every consistent world equally likely).
    Leaves are valued by the score difference, a finished game by +-100 (more for a quicker
    win or a later loss). Depth counts main actions; returning set-aside tiles is searched
    but not counted.
    """

    def __init__(
        self,
        game: BlueLion,
        seat: Seat,
        rng: random.Random,
        time_budget: float = 1.0,
        max_depth: int = 3,
    ) -> None:
        if time_budget <= 0 or max_depth < 1:
            raise ConfigError("solver bot: time_budget must be > 0 and max_depth >= 1")
        self.game, self.seat, self.rng = game, seat, rng
        self.time_budget, self.max_depth = time_budget, max_depth
        self.last_depth = 0

    def act(self, info: InformationSet) -> Action:
        start = time.perf_counter()
        deadline = start + self.time_budget
        state, worlds = position(info, deduce(info))
        actions = state.legal_actions()
        if state.to_move != self.seat:
            raise ValueError(f"it is {state.to_move}'s turn, not {self.seat}'s")
        choice = self.rng.choice(actions)
        if len(actions) == 1:
            return choice
        for depth in range(1, self.max_depth + 1):
            began = time.perf_counter()
            try:
                choice = self._root(state, worlds, actions, depth, deadline)
            except OutOfTime:
                break
            self.last_depth = depth
            spent = time.perf_counter() - began
            if time.perf_counter() + spent * 8 > deadline:
                break  # the next depth would not finish: keep this one's choice
        return choice

    def _root(
        self,
        state: BlueLionState,
        worlds: Sequence[Pairs],
        actions: Sequence[Action],
        depth: int,
        deadline: float,
    ) -> Action:
        values = [(self._expect(state, worlds, a, depth, deadline), a) for a in actions]
        best = max(value for value, _ in values)
        return self.rng.choice([a for value, a in values if value >= best - 1e-9])

    def _expect(
        self,
        state: BlueLionState,
        worlds: Sequence[Pairs],
        action: Action,
        depth: int,
        deadline: float,
    ) -> float:
        remaining = depth if isinstance(action, Return) else depth - 1
        return sum(
            chance * self._value(child, child_worlds, remaining, deadline)
            for chance, child, child_worlds in outcomes(state, worlds, action)
        )

    def _value(
        self, state: BlueLionState, worlds: Sequence[Pairs], depth: int, deadline: float
    ) -> float:
        if state.is_over:  # sooner wins and later losses are better: the remaining depth counts
            if len(state.winners) != 1:
                return 0.0
            return WIN + depth if state.winners[0] == self.seat else -WIN - depth
        if depth <= 0 and not state.main_done:
            return self._evaluate(state)
        if time.perf_counter() > deadline:
            raise OutOfTime
        values = [self._expect(state, worlds, a, depth, deadline) for a in state.legal_actions()]
        return max(values) if state.to_move == self.seat else min(values)

    def _evaluate(self, state: BlueLionState) -> float:
        mine = state.scores[str(self.seat)]
        theirs = sum(state.scores.values()) - mine
        return float(mine - theirs)


def make(name: str, game: BlueLion, seat: Seat, rng: random.Random, **options: object) -> Bot:
    if name == "heuristic":
        check_options(name, options, {})
        return HeuristicBot(game, seat, rng)
    check_options(name, options, {"time_budget": float | int, "max_depth": int})
    return SolverBot(game, seat, rng, **options)  # type: ignore[arg-type]
