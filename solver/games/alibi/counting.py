"""Exact counting and uniform sampling of consistent Alibi histories: a dynamic program over cards.

Every constraint of the model is a count over cards of something one card's trajectory decides:
the deal sizes, one box card per type, each pass count, each answer. So a history is a choice of
one allowed trajectory per card whose feature vectors sum to the targets, and the number of
histories is a walk over cards whose state is the vector of targets still to meet (remaining
hand capacities, pass counts, box slots and the answers' running counts). States that can no
longer meet a target with the cards left are pruned. The forward counts times the backward counts
give every card's exact trajectory marginals; walking the backward counts samples uniformly.
Later sizes need no coordinate: the deal sizes and pass counts imply them.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict

from solver.games.alibi.model import world_from
from solver.games.alibi.position import Position, Trajectory
from solver.model import Fact, Model, Value, World

MAX_STATES = 40_000
"""Give up (and let the chain estimate) when a layer of the program holds more states."""

State = tuple[int, ...]


def features(pos: Position) -> tuple[list[int], list[list[tuple[Trajectory, tuple[int, ...]]]]]:
    """The targets, and for each card its allowed trajectories with the coordinates they add to."""
    n, epoch = pos.players, pos.epoch
    targets: list[int] = list(pos.sizes[0][0])
    targets += [1] * 4
    pass_at = {}
    for r in range(1, epoch + 1):
        for p in range(n):
            pass_at[(r, p)] = len(targets)
            targets.append(pos.passes.get((r, p), (0, 0))[0])
    first_answer = len(targets)
    targets += [answer.value for answer in pos.answers]
    member: dict[int, list[int]] = defaultdict(list)
    for k, answer in enumerate(pos.answers):
        for c in answer.cards:
            member[c].append(k)
    options = []
    for c in range(len(pos.ids)):
        found = []
        for path in pos.trajectories(c):
            if path[0] == pos.box:
                coords = [n + pos.kind[c]]
            else:
                coords = [path[0]] + [pass_at[move] for move in pos.moves(path)]
            coords += [
                first_answer + k for k in member[c] if pos.counted(pos.answers[k], path)
            ]
            found.append((path, tuple(coords)))
        options.append(found)
    return targets, options


class CountedHistories:
    """Every consistent history, counted exactly: exact probabilities, exact uniform samples."""

    exact = True

    def __init__(
        self,
        pos: Position,
        model: Model,
        options: list[list[tuple[Trajectory, tuple[int, ...]]]],
        layers: list[dict[State, int]],
        back: list[dict[State, int]],
    ) -> None:
        self.pos, self.model, self.options = pos, model, options
        self._back = back
        self._start = next(iter(layers[0]))
        self._total = back[0].get(self._start, 0)
        self.weights: list[list[int]] = []  # per card, per option: histories using it
        for i, found in enumerate(options):
            counts = [0] * len(found)
            for state, ways in layers[i].items():
                for j, (_, coords) in enumerate(found):
                    after = back[i + 1].get(_minus(state, coords))
                    if after:
                        counts[j] += ways * after
            self.weights.append(counts)

    def total(self) -> int:
        return self._total

    def count(self, fact: Fact) -> int:
        hits = sum(
            weight
            for card, found in enumerate(self.options)
            for (path, _), weight in zip(found, self.weights[card], strict=True)
            if weight and _makes(self.pos, fact, card, path)
        )
        return self._total - hits if fact.negated else hits

    def probability(self, fact: Fact) -> float:
        return self.count(fact) / self._total

    def sample_paths(self, rng: random.Random) -> list[Trajectory]:
        state, paths = self._start, []
        for i, found in enumerate(self.options):
            after = [self._back[i + 1].get(_minus(state, coords), 0) for _, coords in found]
            pick = rng.randrange(sum(after))
            chosen = 0
            while pick >= after[chosen]:
                pick -= after[chosen]
                chosen += 1
            paths.append(found[chosen][0])
            state = _minus(state, found[chosen][1])
        return paths

    def sample(self, n: int, rng: random.Random) -> list[World]:
        return [world_from(self.pos, self.sample_paths(rng), self.model) for _ in range(n)]

    def witnessed(self) -> set[tuple[str, Value]]:
        """Every literal of the facts' variables that some consistent history makes true."""
        found = set()
        for card, options in enumerate(self.options):
            paths = [path for (path, _), w in zip(options, self.weights[card], strict=True) if w]
            found |= _literals(self.pos, card, paths)
        return found


def _minus(state: State, coords: tuple[int, ...]) -> State:
    rest = list(state)
    for k in coords:
        rest[k] -= 1
    return tuple(rest)


def _literals(pos: Position, card: int, paths: list[Trajectory]) -> set[tuple[str, Value]]:
    """The box and current-location literals a card's trajectories make true."""
    from solver.games.alibi.model import at_var, box_var, place

    data = pos.deck.cards[card]
    found: set[tuple[str, Value]] = set()
    for path in paths:
        if path[0] == pos.box:
            found.add((box_var(data.type), data.id))
        if len(path) > pos.epoch:
            found.add((at_var(data.id, pos.epoch), place(pos, path[pos.epoch])))
    return found


def _makes(pos: Position, fact: Fact, card: int, path: Trajectory) -> bool:
    """Whether a card's trajectory makes the (un-negated) fact true, for facts on one card."""
    from solver.games.alibi.model import place

    data = pos.deck.cards[card]
    kind, _, rest = fact.var.partition(":")
    if kind == "box":
        return data.id in fact.values and path[0] == pos.box
    if kind == "seen":
        name, seat, epoch = rest.split(":")[0], *(int(x) for x in rest.split(":")[1].split("@"))
        return name == data.id and (int(seat in path[: epoch + 1]) in fact.values)
    name, _, at = rest.partition("@")
    if name != data.id:
        return False
    e = int(at)
    if kind == "at":
        return place(pos, path[e]) in fact.values
    moved = path[e - 1] if path[e] != path[e - 1] else "-"
    return moved in fact.values


def count_histories(
    pos: Position, model: Model, max_states: int = MAX_STATES, seconds: float = 0.3
) -> CountedHistories | None:
    """The exact count, or None when a layer outgrows `max_states` or time runs out."""
    targets, options = features(pos)
    deadline = time.perf_counter() + seconds
    width = len(targets)
    hi = [[0] * width for _ in range(len(options) + 1)]
    lo = [[0] * width for _ in range(len(options) + 1)]
    for i in range(len(options) - 1, -1, -1):
        touched = [set(coords) for _, coords in options[i]]
        for k in range(width):
            inside = [k in t for t in touched]
            hi[i][k] = hi[i + 1][k] + any(inside)
            lo[i][k] = lo[i + 1][k] + all(inside)
    layers: list[dict[State, int]] = [{tuple(targets): 1}]
    for i, found in enumerate(options):
        reach = {k for _, coords in found for k in coords}
        low, high = lo[i + 1], hi[i + 1]
        layer: dict[State, int] = defaultdict(int)
        for state, ways in layers[-1].items():
            for _, coords in found:
                rest = list(state)
                for k in coords:
                    rest[k] -= 1
                if all(low[k] <= rest[k] <= high[k] for k in reach):
                    layer[tuple(rest)] += ways
        if len(layer) > max_states or time.perf_counter() > deadline:
            return None
        layers.append(dict(layer))
    zero = (0,) * width
    back: list[dict[State, int]] = [{} for _ in layers]
    back[-1] = {zero: 1} if zero in layers[-1] else {}
    for i in range(len(options) - 1, -1, -1):
        nxt = back[i + 1]
        back[i] = {}
        for state in layers[i]:
            ways = sum(nxt.get(_minus(state, coords), 0) for _, coords in options[i])
            if ways:
                back[i][state] = ways
    if not back[0]:
        return None
    return CountedHistories(pos, model, options, layers, back)
