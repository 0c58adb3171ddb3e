"""Exact counting and uniform sampling of consistent Alibi histories: a dynamic program over cards.

Every constraint of the model is a count over cards of something one card's trajectory decides:
the deal sizes, one box card per type, each pass count, each answer. So a history is a choice of
one allowed trajectory per card whose feature vectors sum to the targets, and the number of
histories is a walk over cards whose state is the vector of targets still to meet (remaining
hand capacities, pass counts, box slots and the answers' running counts). States that can no
longer meet a target with the cards left are pruned. The forward counts times the backward counts
give every card's exact trajectory marginals; walking the backward counts samples uniformly.
Later sizes need no coordinate: the deal sizes and pass counts imply them.

`count_histories` runs the program a layer at a time with exact modular counts (`layers`), the
cards no answer names finished in closed form; `layered`, the same program over dictionaries,
serves the chain's small blocks of cards.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable

from solver.games.alibi.layers import LayeredCount, count_layers
from solver.games.alibi.model import (
    STAY,
    AtVar,
    BoxVar,
    PassVar,
    SeenVar,
    at_var,
    box_var,
    place,
    var_key,
    world_from,
)
from solver.games.alibi.position import Position, Trajectory
from solver.model import Fact, Model, Value, World

MAX_STATES = 20_000
"""Give up (and let the chain estimate) when a layer of the program holds more states. With the
pool finished in closed form (`layers.Pool`) the first three rounds with 4 players and the first
two with 6 mostly stay below (a few thousand states and a few dozen milliseconds, about 0.1 s
of CPU near the bound); positions beyond pass the bound within about 20 ms, so trying costs
little."""

MAX_OPTIONS = 1_000
"""Give up before listing when the cards have more trajectories than this in all: such a
position is far beyond exact reach (the third round with 6 players has about 1,100, the sixth
with 4 about 1,200). Below, the fourth and fifth rounds with 4 players (700 to 1,000) are
tried in vain, at about 20 ms a try."""

BLOCK_STATES = 1_500
"""The bound of `layered`, the dictionary program the chain runs on its blocks of cards."""

State = int  # the targets still to meet, one bit field per coordinate (see `layered`)
Option = tuple[Trajectory, tuple[int, ...]]  # a trajectory and the coordinates it adds to
Step = tuple[Trajectory, int]  # a trajectory and what it takes off a state


class Coordinates:
    """The targets every history must meet, and each trajectory's part in them: its deal seat
    (or its type's box slot), each pass it makes, each answer it counts toward."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        n = pos.players
        self.targets: list[int] = [*pos.sizes[0][0], 1, 1, 1, 1]
        self._pass_at = {}
        for r in range(1, pos.epoch + 1):
            for p in range(n):
                self._pass_at[(r, p)] = len(self.targets)
                self.targets.append(pos.passes.get((r, p), (0, 0))[0])
        self._first_answer = len(self.targets)
        self.targets += [answer.value for answer in pos.answers]
        self._member: dict[int, list[int]] = defaultdict(list)
        for k, answer in enumerate(pos.answers):
            for c in answer.cards:
                self._member[c].append(k)

    def of(self, card: int, path: Trajectory) -> tuple[int, ...]:
        pos = self.pos
        if path[0] == pos.box:
            coords = [pos.players + pos.kind[card]]
        else:
            coords = [path[0]] + [self._pass_at[move] for move in pos.moves(path)]
        coords += [
            self._first_answer + k for k in self._member[card] if pos.counted(pos.answers[k], path)
        ]
        return tuple(coords)

    def options(self, card: int) -> list[Option]:
        return [(path, self.of(card, path)) for path in self.pos.trajectories(card)]


def features(pos: Position) -> tuple[list[int], list[list[Option]]]:
    """The targets, and for each card its allowed trajectories with the coordinates they add to."""
    coordinates = Coordinates(pos)
    return coordinates.targets, [coordinates.options(c) for c in range(len(pos.ids))]


class CountedHistories:
    """Every consistent history, counted exactly: exact probabilities, exact uniform samples."""

    exact = True
    witnesses_all = False  # `witnessed` covers the box and current places, not every variable

    def __init__(
        self,
        pos: Position,
        model: Model,
        options: list[list[Option]],
        counted: LayeredCount,
        order: list[int],
    ) -> None:
        self.pos, self.model, self.options = pos, model, options
        self._counted, self._order = counted, order
        self._total = counted.total
        self._tallies: dict[tuple[int, int], dict[int | None, int]] = {}
        self.weights: list[list[int]] = [[] for _ in options]  # per card, per option: histories
        for weights, card in zip(counted.weights, order, strict=True):
            self.weights[card] = weights

    def total(self) -> int:
        return self._total

    def count(self, fact: Fact) -> int:
        hits: int
        match var_key(fact.var):  # facts on one card's box or current place: from tallies
            case BoxVar():
                hits = sum(
                    self._tally(self.pos.index[str(card)], 0).get(self.pos.box, 0)
                    for card in fact.values
                )
            case AtVar(card=name, epoch=epoch):
                tally = self._tally(self.pos.index[name], epoch)
                hits = sum(
                    w
                    for loc, w in tally.items()
                    if loc is not None and place(self.pos, loc) in fact.values
                )
            case PassVar() | SeenVar():
                hits = sum(
                    weight
                    for card, found in enumerate(self.options)
                    for (path, _), weight in zip(found, self.weights[card], strict=True)
                    if weight and _makes(self.pos, fact, card, path)
                )
        return self._total - hits if fact.negated else hits

    def probability(self, fact: Fact) -> float:
        return self.count(fact) / self._total

    def _tally(self, card: int, epoch: int) -> dict[int | None, int]:
        """How many histories put `card` at each location at `epoch` (None: laid before)."""
        key = (card, epoch)
        if key not in self._tallies:
            tally: dict[int | None, int] = defaultdict(int)
            for (path, _), weight in zip(self.options[card], self.weights[card], strict=True):
                if weight:
                    tally[path[epoch] if len(path) > epoch else None] += weight
            self._tallies[key] = dict(tally)
        return self._tallies[key]

    def sample_paths(self, rng: random.Random) -> list[Trajectory]:
        return self.sample_many(1, rng)[0]

    def sample_many(self, n: int, rng: random.Random) -> list[list[Trajectory]]:
        """`n` uniform samples at once (the program walks all of them a layer at a time)."""
        paths: list[list[Trajectory]] = [[] for _ in range(n)]
        chosen = self._counted.sample(n, rng).tolist()
        for sample, picks in zip(paths, chosen, strict=True):
            by_card: list[Trajectory] = [()] * len(self.options)
            for card, j in zip(self._order, picks, strict=True):
                by_card[card] = self.options[card][j][0]
            sample.extend(by_card)
        return paths

    def sample(self, n: int, rng: random.Random) -> list[World]:
        return [world_from(self.pos, paths, self.model) for paths in self.sample_many(n, rng)]

    def witnessed(self) -> set[tuple[str, Value]]:
        """Every literal of the facts' variables that some consistent history makes true."""
        found = set()
        for card, options in enumerate(self.options):
            paths = [path for (path, _), w in zip(options, self.weights[card], strict=True) if w]
            found |= _literals(self.pos, card, paths)
        return found


def _literals(pos: Position, card: int, paths: list[Trajectory]) -> set[tuple[str, Value]]:
    """The box and current-location literals a card's trajectories make true."""
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
    data = pos.deck.cards[card]
    match var_key(fact.var):
        case BoxVar():
            return data.id in fact.values and path[0] == pos.box
        case SeenVar(card=name, seat=seat, epoch=epoch):
            return name == data.id and (int(seat in path[: epoch + 1]) in fact.values)
        case AtVar(card=name, epoch=e):
            return name == data.id and place(pos, path[e]) in fact.values
        case PassVar(card=name, round=r):
            if name != data.id:
                return False
            moved = path[r - 1] if path[r] != path[r - 1] else STAY
            return moved in fact.values


def count_histories(
    pos: Position, model: Model, max_states: int = MAX_STATES, seconds: float | None = None
) -> CountedHistories | None:
    """The exact count, or None when a layer outgrows `max_states` (or time runs out, or the
    states outgrow int64 integers).

    By default only the state bound decides, so the same position always gets the same kind
    of answer whatever the machine's load; `seconds` adds a wall-clock bound for callers that
    prefer speed to reproducibility.
    """
    options = sum(pos.trajectory_count(c) for c in range(len(pos.ids)))
    if options > MAX_OPTIONS * max(1, max_states // MAX_STATES):
        return None  # far beyond this state bound (a caller raising it lists more)
    targets, found = features(pos)
    order, pool = card_order(pos, found)
    counted = count_layers(
        targets, [[coords for _, coords in found[c]] for c in order], max_states, seconds, pool
    )
    if counted is None:
        return None
    return CountedHistories(pos, model, found, counted, order)


def card_order(pos: Position, options: list[list[Option]]) -> tuple[list[int], int]:
    """The order the program takes the cards in, and how many of the last ones make its pool
    (`layers.Pool`): the settled cards first (they add no state), then by type and by the
    coordinates they may add to, so that cards sharing a box slot or an answer come together
    and its coordinate is open for few layers; last the largest set of cards whose options
    (but the box) add to the same coordinates, which the program finishes in closed form."""

    def shared(card: int) -> tuple:
        return tuple(coords for path, coords in options[card] if path[0] != pos.box)

    unsettled = [c for c in range(len(options)) if len(options[c]) > 1]
    alike: dict[tuple, list[int]] = defaultdict(list)
    for card in unsettled:
        alike[shared(card)].append(card)
    pool = max(alike.values(), key=len, default=[])
    pooled = set(pool)

    def key(card: int) -> tuple:
        found = options[card]
        reached = sorted({k for _, coords in found for k in coords})
        return (card in pooled, len(found) > 1, pos.kind[card], reached)

    return sorted(range(len(options)), key=key), len(pool)


Program = tuple[
    list[list[Step]],  # the options, each with what it takes off a state
    list[dict[State, int]],  # forward: ways to reach each state
    list[dict[State, int]],  # backward: ways to finish from each state
    list[dict[State, list[tuple[int, State]]]],  # per card and state: option, next state
]


def layered(
    targets: list[int],
    options: list[list[Option]],
    max_states: int = BLOCK_STATES,
    seconds: float | None = None,
) -> Program | None:
    """The dynamic program choosing one option per card so that the coordinates they add to
    sum to `targets`, or None when it outgrows its bounds or nothing meets the targets.

    Coordinates no option touches are dropped first. A state is one integer with a bit field
    per coordinate, wide enough for its target (the bounds keep every field between 0 and its
    target), so taking an option off a state is one subtraction; the options come back with
    the number each subtracts."""
    deadline = float("inf") if seconds is None else time.perf_counter() + seconds
    compacted = _compacted(targets, options)
    if compacted is None:
        return None
    targets, options = compacted
    lo, hi = _limits(options, len(targets))
    bits = max(1, max(targets, default=0).bit_length())
    steps = [_stepper(found, lo[i + 1], hi[i + 1], bits) for i, found in enumerate(options)]
    taken = [
        [(path, sum(1 << (bits * k) for k in coords)) for path, coords in found]
        for found in options
    ]
    start = sum(target << (bits * k) for k, target in enumerate(targets))
    forward = _forward(taken, steps, start, max_states, deadline)
    if forward is None:
        return None
    layers, moves = forward
    back = _backward(layers, moves)
    if not back[0]:
        return None
    return taken, layers, back, moves


def _compacted(
    targets: list[int], options: list[list[Option]]
) -> tuple[list[int], list[list[Option]]] | None:
    """The targets and options on the coordinates some option touches alone, renumbered in
    order; None when a card has no option or a target is one no option can meet."""
    if not all(options):
        return None  # a card with nowhere to be
    used = sorted({k for found in options for _, coords in found for k in coords})
    if any(target and k not in used for k, target in enumerate(targets)):
        return None  # a target no card can meet
    compact = {k: i for i, k in enumerate(used)}  # only coordinates some option touches
    targets = [targets[k] for k in used]
    options = [
        [(path, tuple(compact[k] for k in coords)) for path, coords in found] for found in options
    ]
    return targets, options


def _limits(options: list[list[Option]], width: int) -> tuple[list[list[int]], list[list[int]]]:
    """Per layer and coordinate, the least and most the cards after it can still add."""
    hi = [[0] * width for _ in range(len(options) + 1)]
    lo = [[0] * width for _ in range(len(options) + 1)]
    for i in range(len(options) - 1, -1, -1):
        touched = [set(coords) for _, coords in options[i]]
        some, every = set().union(*touched), set.intersection(*touched)
        hi[i] = [h + (k in some) for k, h in enumerate(hi[i + 1])]
        lo[i] = [low + (k in every) for k, low in enumerate(lo[i + 1])]
    return lo, hi


def _forward(
    taken: list[list[Step]],
    steps: list[Callable[[State], list[int]]],
    start: State,
    max_states: int,
    deadline: float,
) -> tuple[list[dict[State, int]], list[dict[State, list[tuple[int, State]]]]] | None:
    """Per layer, the ways to reach each state from `start`, and per card and state, the
    options it may take with the state each leads to; None as soon as a layer outgrows
    `max_states` or time runs out."""
    layers: list[dict[State, int]] = [{start: 1}]
    moves: list[dict[State, list[tuple[int, State]]]] = []  # per layer: option, next state
    for i, found in enumerate(taken):
        step = steps[i]
        layer: dict[State, int] = defaultdict(int)
        moved: dict[State, list[tuple[int, State]]] = {}
        for done, (state, ways) in enumerate(layers[-1].items()):
            if done % 32 == 31 and (len(layer) > max_states or time.perf_counter() > deadline):
                return None  # give up as soon as the layer outgrows its bounds
            moved[state] = [(j, state - found[j][1]) for j in step(state)]
            for _, then in moved[state]:
                layer[then] += ways
        if len(layer) > max_states or time.perf_counter() > deadline:
            return None
        layers.append(dict(layer))
        moves.append(moved)
    return layers, moves


def _backward(
    layers: list[dict[State, int]], moves: list[dict[State, list[tuple[int, State]]]]
) -> list[dict[State, int]]:
    """Per layer, the ways to finish at the zero state from each state (those with none
    left out)."""
    back: list[dict[State, int]] = [{} for _ in layers]
    back[-1] = {0: 1} if 0 in layers[-1] else {}
    for i in range(len(moves) - 1, -1, -1):
        nxt = back[i + 1]
        back[i] = {}
        for state, reachable in moves[i].items():
            ways = sum(nxt.get(then, 0) for _, then in reachable)
            if ways:
                back[i][state] = ways
    return back


def draw(
    options: list[list[Step]], back: list[dict[State, int]], rng: random.Random
) -> list[Trajectory]:
    """One choice of trajectory per card, uniform over those meeting the targets: each card
    takes an option with probability proportional to the ways to finish after it."""
    state, paths = next(iter(back[0])), []
    for i, found in enumerate(options):
        after = [back[i + 1].get(state - taken, 0) for _, taken in found]
        pick = rng.randrange(sum(after))
        chosen = 0
        while pick >= after[chosen]:
            pick -= after[chosen]
            chosen += 1
        paths.append(found[chosen][0])
        state -= found[chosen][1]
    return paths


def _stepper(
    found: list[Option], low: list[int], high: list[int], bits: int
) -> Callable[[State], list[int]]:
    """For one card, the options a state may take: those leaving every coordinate the card
    reaches within the bounds the later cards can still meet.

    A coordinate an option touches drops by one, the others stay, so with bit masks an option
    fits when it touches every coordinate that is out of bounds as it stands and none that
    would be out of bounds one lower.
    """
    reach = sorted({k for _, coords in found for k in coords})
    masks = []
    for _, coords in found:
        assert len(set(coords)) == len(coords)
        masks.append(sum(1 << k for k in coords))
    indexed = list(enumerate(masks))
    field = (1 << bits) - 1
    bounds = [(bits * k, 1 << k, low[k], high[k]) for k in reach]

    fitting: dict[tuple[int, int], list[int]] = {}  # by the two masks: states share them

    def step(state: State) -> list[int]:
        bad_same = bad_less = 0
        for shift, bit, lo, hi in bounds:
            v = (state >> shift) & field
            if not lo <= v <= hi:
                bad_same |= bit
            if not lo <= v - 1 <= hi:
                bad_less |= bit
        key = (bad_same, bad_less)
        found = fitting.get(key)
        if found is None:
            found = fitting[key] = [
                j for j, m in indexed if bad_same & ~m == 0 and bad_less & m == 0
            ]
        return found

    return step
