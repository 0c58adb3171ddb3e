"""Blue Lion's search: expectiminimax over the exact posterior of the backs, deepened while
work allows, and the advice read off it (the value of every move, what the opponent can score
after it).

Max nodes are the mover's decisions, min nodes the opponent's, and every blind flip is a
chance node whose outcomes follow the Deduction (every consistent world equally likely).
Leaves are valued by the score difference, a finished game by +-100 (more for a quicker win or
a later loss). Depth counts main actions; returning set-aside tiles is searched but not
counted.

The search is bounded by work, so a seed gives the same move on any machine: it deepens up to
`max_depth` while the next depth, judged by how the last one grew, fits in `max_nodes`
positions in all; a depth cut off half-way is dropped. `time_budget` (seconds, off by default)
is only a safety ceiling: when set, the search also stops before a depth it would not finish
in time, which makes the move depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from engines import Action, InformationSet, Seat
from engines.blue_lion import PATTERNS, BlueLionState, Return
from solver.deduction import deduce
from solver.games.blue_lion import Pairs, outcomes, points_gained, position
from solver.hints import percent
from solver.search import Advice, Candidate, Memory

WIN = 100.0
MAX_NODES = 25_000
"""The default node budget a move (measured in benchmarks/blue_lion.py)."""
KNOBS: dict[str, object] = {"time_budget": None, "max_depth": 3, "max_nodes": MAX_NODES}
SHOWN = 4
"""Candidates whose threats are worked out (the advised move and the runners-up shown)."""


class OutOfWork(Exception):
    """The search spent its node budget (or, as a safety ceiling, its time budget); the last
    completed depth's choice stands."""


class Search:
    """One move's search for `seat`; `nodes` and `depth` say how much work it did."""

    def __init__(
        self,
        seat: Seat,
        rng: random.Random,
        time_budget: float | None,
        max_depth: int,
        max_nodes: int,
    ) -> None:
        self.seat, self.rng = seat, rng
        self.time_budget, self.max_depth, self.max_nodes = time_budget, max_depth, max_nodes
        self.nodes = 0
        self.depth = 0
        """The deepest search completed."""
        self.values: list[tuple[float, Action]] = []
        """Each root action's value at the deepest completed depth."""
        self._deadline = math.inf

    def run(self, state: BlueLionState, worlds: Sequence[Pairs]) -> Action:
        budget = self.time_budget
        self._deadline = math.inf if budget is None else time.perf_counter() + budget
        actions = state.legal_actions()
        choice = self.rng.choice(actions)
        if len(actions) == 1:
            return choice
        grown = 0
        for depth in range(1, self.max_depth + 1):
            before, began = self.nodes, time.perf_counter()
            try:
                choice, values = self._root(state, worlds, actions, depth)
            except OutOfWork:
                break
            self.depth, self.values = depth, values
            spent = self.nodes - before
            growth = spent / grown if grown else spent  # depth 1's size is the branching
            grown = spent
            took = time.perf_counter() - began
            if self.nodes + spent * growth > self.max_nodes:
                break  # the next depth would not finish: keep this one's choice
            if budget is not None and time.perf_counter() + took * growth > self._deadline:
                break  # nor within the safety ceiling, on this machine now
        return choice

    def _root(
        self, state: BlueLionState, worlds: Sequence[Pairs], actions: Sequence[Action], depth: int
    ) -> tuple[Action, list[tuple[float, Action]]]:
        values = [(self._expect(state, worlds, a, depth), a) for a in actions]
        best = max(value for value, _ in values)
        return self.rng.choice([a for value, a in values if value >= best - 1e-9]), values

    def _expect(
        self, state: BlueLionState, worlds: Sequence[Pairs], action: Action, depth: int
    ) -> float:
        remaining = depth if isinstance(action, Return) else depth - 1
        return sum(
            chance * self._value(child, child_worlds, remaining)
            for chance, child, child_worlds in outcomes(state, worlds, action)
        )

    def _value(self, state: BlueLionState, worlds: Sequence[Pairs], depth: int) -> float:
        self.nodes += 1
        if state.is_over:  # sooner wins and later losses are better: the remaining depth counts
            if len(state.winners) != 1:
                return 0.0
            return WIN + depth if state.winners[0] == self.seat else -WIN - depth
        if depth <= 0 and not state.main_done:
            return self._evaluate(state)
        if self.nodes > self.max_nodes or (
            self._deadline < math.inf and time.perf_counter() > self._deadline
        ):
            raise OutOfWork
        values = [self._expect(state, worlds, a, depth) for a in state.legal_actions()]
        return max(values) if state.to_move == self.seat else min(values)

    def _evaluate(self, state: BlueLionState) -> float:
        mine = state.scores[str(self.seat)]
        theirs = sum(state.scores.values()) - mine
        return float(mine - theirs)


def choose(
    info: InformationSet, rng: random.Random, **knobs: object
) -> tuple[Action, Search, BlueLionState, list[Pairs]]:
    """The solver's move at `info`, and the search that chose it (its values and work)."""
    search = Search(info.seat, rng, **knobs)  # type: ignore[arg-type]
    state, worlds = position(info, deduce(info))
    return search.run(state, worlds), search, state, worlds


def advise(
    info: InformationSet,
    legal: Sequence[Action],
    rng: random.Random,
    memory: Memory,
    **knobs: object,
) -> Advice:
    """The solver's move with its value in words, the runners-up, and what the opponent can
    score on the next move after each of the moves shown."""
    move, search, state, worlds = choose(info, rng, **knobs)
    seat = str(info.seat)
    lead = state.scores[seat] - (sum(state.scores.values()) - state.scores[seat])
    if not search.values:  # one legal move, or not even depth 1 fitted the budget
        search.values = [(float(lead), a) for a in state.legal_actions()]
    ranked = sorted(search.values, key=lambda item: (item[1] != move, -item[0]))
    candidates = []
    for k, (value, action) in enumerate(ranked):
        threats = _threats(state, worlds, action, seat) if k < SHOWN else ()
        candidates.append(
            Candidate(action, value, value_text(value, lead, search.depth), None, threats)
        )
    best = candidates[0]
    details = (f"searched {search.nodes} positions, {search.depth} moves deep",)
    return Advice(move, best.value, best.text, tuple(candidates), best.threats, (), details)


def value_text(value: float, lead: int, depth: int) -> str:
    """A search value in words: a forced result, or the expected lead after `depth` moves."""
    if depth == 0:
        return "the only move" if value == lead else "not searched"
    if value >= WIN:
        return f"wins by force within {depth} moves"
    if value <= -WIN:
        return f"loses against best play within {depth} moves"
    if value > WIN / 4:
        return f"may win outright (value {value:+.0f}, a win counts {WIN:.0f})"
    if value < -WIN / 4:
        return f"may lose outright (value {value:+.0f}, a loss counts -{WIN:.0f})"
    change = value - lead
    verb = "gains" if change > 0.05 else "loses ground" if change < -0.05 else "keeps the score"
    return f"{verb}: lead {value:+.1f} expected after {depth} moves (now {lead:+d})"


def _threats(
    state: BlueLionState, worlds: Sequence[Pairs], action: Action, seat: str
) -> tuple[str, ...]:
    """What the opponent's next main action can score after `action` (and, if the turn goes
    on with returns, after the returns that leave him least): each scoring reply with its
    chance and the points, the strongest first."""
    worst: dict[str, tuple[float, float, str]] = {}
    for chance, child, child_worlds in outcomes(state, worlds, action):
        for text, (points, p) in _replies(child, child_worlds, seat).items():
            old = worst.get(text, (0.0, 0.0, text))
            worst[text] = (max(old[0], points), old[1] + chance * p, text)
    ranked = sorted(worst.values(), key=lambda item: (-item[0] * item[1], item[2]))
    return tuple(f"{text} {percent(p)}" for points, p, text in ranked if points > 0 and p > 0)


def _replies(
    state: BlueLionState, worlds: Sequence[Pairs], seat: str
) -> dict[str, tuple[float, float]]:
    """The opponent's scoring replies at `state`: text -> (points, chance). While the turn is
    still ours (returns to make), the returns leaving the fewest points to him are assumed."""
    if state.is_over:
        return {}
    if state.to_move == seat:
        options = []
        for action in state.legal_actions():
            found: dict[str, tuple[float, float]] = {}
            for chance, child, child_worlds in outcomes(state, worlds, action):
                for text, (points, p) in _replies(child, child_worlds, seat).items():
                    old = found.get(text, (0.0, 0.0))
                    found[text] = (max(old[0], points), old[1] + chance * p)
            options.append(found)
        return min(options, key=lambda f: sum(pts * p for pts, p in f.values()), default={})
    who = str(state.to_move).capitalize()
    found = {}
    for action in state.legal_actions():
        if isinstance(action, Return):
            continue
        for chance, child, _ in outcomes(state, worlds, action):
            gained = points_gained(state.scores, child)
            theirs = sum(v for s, v in gained.items() if s != seat)
            if theirs <= 0:
                continue
            made = [
                PATTERNS[obs["faces"]].name
                for obs, _to in child._log[len(state._log) :]
                if obs.kind == "score"
            ]
            text = f"{who} {action} scores +{theirs} ({', '.join(made)})"
            old = found.get(text, (0.0, 0.0))
            found[text] = (max(old[0], theirs), old[1] + chance)
    return found
