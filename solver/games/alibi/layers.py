"""The counting program of `counting`, run a whole layer at a time with numpy, counts kept
exact modulo a few primes.

A layer is the sorted array of states (the targets still to meet, as one mixed-radix integer
of the coordinates open at that layer: `Encoding`) after some cards. Each card's options
subtract fixed numbers, so a layer's successors are one array per option, each still sorted;
merging them and summing the ways into each distinct state is one stable sort (its runs are
already sorted) and one reduction. The cards no answer names are alike (`Pool`): they take no
layers, the last layer's states are finished in closed form.

Counts outgrow int64, so the program runs modulo primes below 2**31 (a product of two residues
fits int64, and a float64 sum of a few residues stays exact), and the Chinese remainder theorem
rebuilds each count as a Python int. Every count rebuilt is at most the number of histories,
which a floating-point pass estimates to far better than `ROUNDING`: primes whose product
exceeds that bound leave no ambiguity. Samples are drawn with the floating-point counts, and
exactly (`choose`) where a point falls near a boundary.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import product
from math import comb, factorial, prod

import numpy as np

PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
    2147483423,
    2147483399,
    2147483353,
    2147483323,
    2147483269,
    2147483249,
)
"""The largest primes below 2**31, enough for 496 bits of count."""

KEY_BITS = 62
"""A state's mixed-radix integer must stay below 2**KEY_BITS (int64, with room to subtract);
also the most coordinates one card may reach (a bit mask each)."""

ROUNDING = 1e-6
"""A bound on the relative error of the floating-point count of histories (it is about 1e-13:
each of a few thousand additions of positive numbers errs by at most 2**-53)."""

NEAR = 1e-9
"""A sampled point this close (relative) to a boundary between options is decided exactly:
the floating-point weights are far more accurate (about 1e-13), so elsewhere they decide as
exact integers would."""


def moduli(bound: int) -> tuple[int, ...] | None:
    """The fewest of `PRIMES` whose product exceeds `bound` (None when they all do not)."""
    product = 1
    for k, p in enumerate(PRIMES):
        product *= p
        if product > bound:
            return PRIMES[: k + 1]
    return None


def recombine(residues: np.ndarray, primes: tuple[int, ...]) -> list[int]:
    """The integers below the primes' product with these residues (one row per integer)."""
    modulus = prod(primes)
    coefficients = [modulus // p * pow(modulus // p, -1, p) for p in primes]
    return [
        sum(int(r) * c for r, c in zip(row, coefficients, strict=True)) % modulus
        for row in residues.tolist()
    ]


@dataclass
class Step:
    """One card's move from layer i to layer i + 1: edge k takes state `source[k]` by option
    `option[k]` (the edges come option by option) to state `target[k]` of the next layer."""

    options: int
    source: np.ndarray
    option: np.ndarray
    target: np.ndarray
    _by_source: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def settles(self, states: int) -> bool:
        """Whether the card is settled and every state takes it: then state s goes to state
        s (the successors of one option stay in order), and the counts pass unchanged."""
        return self.options == 1 and len(self.source) == states

    def by_source(self, states: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The edges state by state: each state's first edge (and one past the last), and
        every edge's option and target in that order (kept once made: samples reuse them)."""
        if self._by_source is None:
            order = np.argsort(self.source, kind="stable")
            first = np.searchsorted(self.source[order], np.arange(states + 1))
            self._by_source = (first, self.option[order], self.target[order])
        return self._by_source


class LayeredCount:
    """The program's forward and backward counts: the total, each option's histories, and
    uniform samples of one option per card. Residue arrays have one row per prime."""

    def __init__(
        self,
        steps: list[Step],
        forward: list[np.ndarray],
        primes: tuple[int, ...],
        widths: list[int],
        closing: Closing | None = None,
    ) -> None:
        self.primes, self._steps, self.widths, self._closing = primes, steps, widths, closing
        p = np.array(primes, dtype=np.int64)[:, None]
        back: list[np.ndarray] = [np.ones((len(primes), 1), dtype=np.int64) for _ in forward]
        approx: list[np.ndarray] = [np.ones(1) for _ in forward]  # the last layer: state 0
        if closing is not None:  # the pool's ways to finish from each state
            back[-1], approx[-1] = closing.ways, closing.approx
        for i in range(len(steps) - 1, -1, -1):
            step, n = steps[i], widths[i]
            if step.settles(n):
                back[i], approx[i] = back[i + 1], approx[i + 1]
                continue
            later = back[i + 1][:, step.target]
            back[i] = np.stack([np.bincount(step.source, row, n) for row in later]).astype(
                np.int64
            )  # at most one edge per option leaves a state: the float sums are exact
            back[i] %= p
            approx[i] = np.bincount(step.source, approx[i + 1][step.target], n)
        self._back, self._approx = back, approx
        self.total = recombine(back[0].T, primes)[0]
        self.weights: list[list[int]] = []  # per card, per option: histories taking it
        for i, step in enumerate(steps):
            if step.options == 1:
                self.weights.append([self.total])
                continue
            ways = forward[i][:, step.source] * back[i + 1][:, step.target] % p
            sizes = np.bincount(step.option, minlength=step.options)
            taken = np.flatnonzero(sizes)
            summed = np.zeros((len(primes), step.options), dtype=np.int64)
            starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))[taken]
            summed[:, taken] = np.add.reduceat(ways, starts, axis=1) % p  # below 2**63
            self.weights.append(recombine(summed.T, primes))
        if closing is not None:
            self.weights += closing.weights(forward[-1])

    def sample(self, n: int, rng: random.Random) -> np.ndarray:
        """`n` uniform choices of one option per card (rows: samples; columns: cards, in the
        program's order), each card taking an option with probability proportional to the
        histories finishing after it."""
        state = np.zeros(n, dtype=np.int64)
        chosen = np.empty((n, len(self._steps)), dtype=np.int64)
        for i, step in enumerate(self._steps):
            first, option, target = step.by_source(self.widths[i])
            begin = first[state]
            counts = first[state + 1] - begin
            widest = int(counts.max())
            if widest == 1:
                edge = begin
            else:
                offsets = np.arange(widest)
                edges = np.minimum(begin[:, None] + offsets, len(target) - 1)
                children = target[edges]
                weight = np.where(offsets < counts[:, None], self._approx[i + 1][children], 0)
                pick = choose(weight, partial(self._ways, i + 1, children, counts), rng)
                edge = begin + pick
            chosen[:, i] = option[edge]
            state = target[edge]
        if self._closing is None:
            return chosen
        return np.concatenate([chosen, self._closing.assign(state, rng)], axis=1)

    def _ways(self, layer: int, children: np.ndarray, counts: np.ndarray, row: int) -> list[int]:
        """The exact ways to finish from one sample's children states (for `choose`)."""
        return recombine(self._back[layer][:, children[row, : counts[row]]].T, self.primes)


def choose(weight: np.ndarray, exact: Callable[[int], list[int]], rng: random.Random) -> np.ndarray:
    """Per row, a column drawn with probability proportional to its exact weight: a 53-bit
    uniform point decides by the floating-point `weight` (rows of zeros padded to the right)
    unless it falls near a boundary; then `exact(row)` gives that row's exact integers and
    further bits are drawn while a boundary lies within the bits drawn."""
    bounds = np.cumsum(weight, axis=1)
    points = [rng.getrandbits(53) for _ in range(len(weight))]
    at = np.array(points, dtype=np.float64) / 2.0**53 * bounds[:, -1]
    pick = (bounds <= at[:, None]).sum(axis=1)
    near = np.abs(bounds[:, :-1] - at[:, None]) <= NEAR * bounds[:, -1:]
    for row in np.flatnonzero(near.any(axis=1) | (pick >= weight.shape[1])).tolist():
        pick[row] = _exact_choice(exact(row), points[row], rng)
    return pick


def _exact_choice(ways: list[int], point: int, rng: random.Random) -> int:
    """Which of `ways` a uniform point in [0, 1) falls in, its first 53 bits being `point`."""
    whole, bounds = sum(ways), list[int]()
    for w in ways:
        bounds.append(w + (bounds[-1] if bounds else 0))
    bits = 53
    while True:  # the point lies in [point, point + 1) / 2**bits of the whole
        low, high = point * whole, (point + 1) * whole
        if not any(low < b << bits < high for b in bounds):
            return next(j for j, b in enumerate(bounds) if b << bits >= high)
        point, bits = 2 * point + rng.getrandbits(1), bits + 1


class Encoding:
    """How a layer's states are integers: the coordinates some card before has touched and
    some card after will (the live ones) in mixed radix, the others left out as constants
    (their target before their first card, zero after their last). So the integer holds only
    the answers and box slots open at that layer, however many there are in all."""

    def __init__(self, live: list[int], targets: list[int]) -> None:
        self.targets = targets
        self.radix = {k: targets[k] + 1 for k in live}
        self.place = dict(
            zip(
                live,
                [prod(targets[j] + 1 for j in live[:n]) for n in range(len(live))],
                strict=True,
            )
        )

    def value(self, keys: np.ndarray, k: int) -> np.ndarray:
        """Coordinate `k` of every state (a constant when it is not live)."""
        if k in self.place:
            return keys // self.place[k] % self.radix[k]
        return np.full(len(keys), self.targets[k], dtype=np.int64)

    def moved(self, live: list[int], keys: np.ndarray) -> tuple[Encoding, np.ndarray] | None:
        """The states in the encoding holding `live`: those coordinates just born start at
        their targets, those dead (zero) are dropped. None when the integers outgrow int64."""
        new = Encoding(live, self.targets)
        if prod(new.radix.values()).bit_length() > KEY_BITS:
            return None
        moved = np.zeros(len(keys), dtype=np.int64)
        for k in live:
            moved += (self.value(keys, k) if k in self.place else self.targets[k]) * new.place[k]
        return new, moved


def count_layers(
    targets: list[int],
    options: list[list[tuple[int, ...]]],
    max_states: int,
    seconds: float | None = None,
    pool: int = 0,
) -> LayeredCount | None:
    """Choose one option (the coordinates it adds one to) per card so that the coordinates
    sum to `targets`: the exact counts, or None when a layer outgrows `max_states`, time runs
    out, the states do not fit int64, or nothing meets the targets.

    The last `pool` cards may form a `Pool` (see there): then they take no layers, the last
    layer's states are finished in closed form. If they do not, they are layers like others."""
    deadline = float("inf") if seconds is None else time.perf_counter() + seconds
    compacted = _compacted(targets, options)
    if compacted is None:
        return None
    targets, options = compacted
    closed = Pool.of(options[len(options) - pool :], targets) if pool else None
    layered = len(options) - pool if closed is not None else len(options)
    sweep = _Sweep.of(targets, options, layered, max_states, deadline)
    if sweep is None:
        return None
    closing = None
    if closed is not None:
        closing = Closing(
            closed, {k: sweep.encoding.value(sweep.keys, k) for k in closed.touched + closed.slots}
        )
    estimate = sweep.estimate(closing)
    primes = moduli(int(estimate * (1 + ROUNDING)) + 1)  # every count recombined is at most
    if not estimate or primes is None:  # the total, and the estimate's error is far smaller
        return None
    forward = sweep.forward(primes)
    if closing is not None:
        closing.count(primes)
    counted = LayeredCount(sweep.steps, forward, primes, sweep.widths, closing)
    assert counted.total, "the floating-point estimate found histories"
    return counted


def _compacted(
    targets: list[int], options: list[list[tuple[int, ...]]]
) -> tuple[list[int], list[list[tuple[int, ...]]]] | None:
    """The targets and options on the coordinates some option touches alone, renumbered in
    order; None when a card has no option or a target is one no option can meet."""
    if not all(options):
        return None
    used = sorted({k for found in options for coords in found for k in coords})
    if any(target and k not in used for k, target in enumerate(targets)):
        return None
    compact = {k: i for i, k in enumerate(used)}
    targets = [targets[k] for k in used]
    options = [[tuple(compact[k] for k in coords) for coords in found] for found in options]
    return targets, options


def _spans(options: list[list[tuple[int, ...]]]) -> tuple[dict[int, int], dict[int, int]]:
    """Per coordinate, the first and the last card with an option touching it."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, found in enumerate(options):
        for k in {k for coords in found for k in coords}:
            first.setdefault(k, i)
            last[k] = i
    return first, last


@dataclass
class _Sweep:
    """The program's forward pass over the layered cards: their steps and layer widths, the
    last layer's states (`keys` in `encoding`) and the floating-point ways to reach each."""

    encoding: Encoding
    keys: np.ndarray
    flow: np.ndarray
    steps: list[Step]
    widths: list[int]

    @classmethod
    def of(
        cls,
        targets: list[int],
        options: list[list[tuple[int, ...]]],
        layered: int,
        max_states: int,
        deadline: float,
    ) -> _Sweep | None:
        """The layers of the first `layered` cards (the bounds and the coordinates' spans
        count every card), or None when the states outgrow int64 or `max_states`, time runs
        out, or a layer is empty."""
        low, high = _bounds(options, len(targets))
        first, last = _spans(options)
        encoding = Encoding([], targets)
        keys = np.zeros(1, dtype=np.int64)
        flow: np.ndarray = np.ones(1)  # the ways to reach each state, in floating point
        steps: list[Step] = []
        widths = [1]
        for i in range(layered):
            found = options[i]
            if any(k not in encoding.place for coords in found for k in coords):
                moved = encoding.moved([k for k in first if first[k] <= i <= last[k]], keys)
                if moved is None:
                    return None
                encoding, keys = moved
            edges = _edges(encoding, keys, found, low[i + 1], high[i + 1])
            if edges is None:
                return None
            option, source, successors = edges
            target, keys = _merged(successors)
            if not 0 < len(keys) <= max_states or time.perf_counter() > deadline:
                return None
            flow = np.bincount(target, flow[source], len(keys))
            steps.append(Step(len(found), source, option, target))
            widths.append(len(keys))
        return cls(encoding, keys, flow, steps, widths)

    def estimate(self, closing: Closing | None) -> float:
        """The floating-point count of histories: those finishing at the zero state alone,
        or through the pool's closing from every state of the last layer."""
        if closing is not None:
            return float(self.flow @ closing.approx)
        return float(self.flow[0]) if self.keys[0] == 0 else 0.0  # the zero state, if reached

    def forward(self, primes: tuple[int, ...]) -> list[np.ndarray]:
        """Per layer, the ways to reach each state modulo `primes` (one row per prime)."""
        p = np.array(primes, dtype=np.int64)[:, None]
        ways = np.ones((len(primes), 1), dtype=np.int64)
        forward = [ways]
        widths = self.widths
        for i, step in enumerate(self.steps):
            if not step.settles(widths[i]):
                ways = np.stack(
                    [np.bincount(step.target, row, widths[i + 1]) for row in ways[:, step.source]]
                )
                ways = ways.astype(np.int64) % p  # at most one edge per option reaches a state:
            forward.append(ways)  # the float sums are exact
        return forward


def _edges(
    encoding: Encoding,
    keys: np.ndarray,
    found: list[tuple[int, ...]],
    low: np.ndarray,
    high: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """One card's edges from the states `keys`: each option's sources (option by option,
    each one's successors sorted) and the state each edge reaches. An option fits a state
    when it leaves every coordinate the card reaches within the bounds (`low`, `high`) the
    later cards can still meet. None when the card reaches more coordinates than a mask
    holds."""
    place, radix = encoding.place, encoding.radix
    drops = np.array([sum(place[k] for k in coords) for coords in found], dtype=np.int64)
    reach = sorted({k for coords in found for k in coords})
    if len(reach) > KEY_BITS:
        return None
    bit = {k: 1 << j for j, k in enumerate(reach)}
    masks = np.array([sum(bit[k] for k in coords) for coords in found], dtype=np.int64)
    out_now = np.zeros(len(keys), dtype=np.int64)
    out_less = np.zeros(len(keys), dtype=np.int64)
    for k in reach:
        value = keys // place[k] % radix[k]
        lo, hi = low[k], high[k]
        out_now |= np.where((value < lo) | (value > hi), bit[k], 0)
        out_less |= np.where((value <= lo) | (value > hi + 1), bit[k], 0)
    fits = ((out_now[:, None] & ~masks[None, :]) == 0) & ((out_less[:, None] & masks) == 0)
    option, source = np.nonzero(fits.T)  # option by option: each one's successors sorted
    return option, source, keys[source] - drops[option]


def _merged(successors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct states among `successors` (sorted runs), and the index of each edge's
    among them: one stable sort merges the runs."""
    order = np.argsort(successors, kind="stable")  # merges the sorted runs
    ranked = successors[order]
    new = np.empty(len(ranked), dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    target = np.empty(len(ranked), dtype=np.int64)
    target[order] = np.cumsum(new) - 1
    return target, ranked[new]


def _bounds(options: list[list[tuple[int, ...]]], width: int) -> tuple[np.ndarray, np.ndarray]:
    """Per layer and coordinate, the least and most the cards after it can still add."""
    low = np.zeros((len(options) + 1, width), dtype=np.int64)
    high = np.zeros((len(options) + 1, width), dtype=np.int64)
    for i in range(len(options) - 1, -1, -1):
        touched = [set(coords) for coords in options[i]]
        some, every = set().union(*touched), set.intersection(*touched)
        high[i] = high[i + 1]
        low[i] = low[i + 1]
        high[i, list(some)] += 1
        low[i, list(every)] += 1
    return low, high


class Pool:
    """Cards that differ at most in one option of their own (a box slot): the others, the
    shared options, are the same coordinates for all of them. Once every other card has
    chosen, what is left of each coordinate says how many pool cards take each option: peel
    the shared options (a coordinate left that one open option alone touches gives its
    count), and where none peels, enumerate the count of the option with the fewest possible
    values (at most `MAX_SPLITS` ways in all). Each such split of the pool is a multinomial
    number of histories, so the program needs no layer for the pool's cards. The unnamed
    cards of early rounds make a pool: their options are the seats and the passes they may
    take, the same for every card but for its type's box slot."""

    def __init__(
        self,
        cards: list[list[tuple[int, ...]]],
        shared: list[tuple[int, ...]],
        own: list[int | None],
        free: list[tuple[int, int]],
        plan: list[tuple[int, int, list[int]]],
    ) -> None:
        self.cards, self.shared, self.own, self.plan = cards, shared, own, plan
        self.free = [j for j, _ in free]
        self.combos = list(product(*(range(most + 1) for _, most in free)))
        self.slots = sorted({k for k in own if k is not None})
        self.members = {k: [c for c, mine in enumerate(own) if mine == k] for k in self.slots}
        self.shared_at = [[found.index(coords) for coords in shared] for found in cards]
        self.touched = sorted({k for coords in shared for k in coords})

    @classmethod
    def of(cls, cards: list[list[tuple[int, ...]]], targets: list[int]) -> Pool | None:
        """The pool these cards make, or None when they do not make one."""
        shared = [coords for coords in cards[0] if all(coords in found for found in cards)]
        touched = {k for coords in shared for k in coords}
        own = _own_slots(cards, shared, touched)
        if own is None:
            return None
        planned = _plan(cards, targets, shared, touched)
        if planned is None:
            return None
        free, plan = planned
        return cls(cards, shared, own, free, plan)

    def split(
        self, left: dict[int, np.ndarray], combo: tuple[int, ...]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Per state (`left`: what is left of each coordinate): how many pool cards take
        each shared option, with the enumerated ones at `combo`, and whether that meets
        every coordinate exactly."""
        states = len(next(iter(left.values())))
        counts = np.zeros((states, len(self.shared)), dtype=np.int64)
        counts[:, self.free] = combo
        for j, k, others in self.plan:
            counts[:, j] = left[k] - counts[:, others].sum(axis=1)
        fits = (counts >= 0).all(axis=1)
        for k in self.touched:
            made = counts[:, [j for j, c in enumerate(self.shared) if k in c]].sum(axis=1)
            fits &= made == left[k]
        boxed = sum((left[k] for k in self.slots), np.zeros(states, dtype=np.int64))
        fits &= counts.sum(axis=1) + boxed == len(self.cards)
        for k in self.slots:
            fits &= left[k] <= len(self.members[k])
        counts[~fits] = 0  # dead states count nothing (and index the tables safely)
        return counts, fits


def _own_slots(
    cards: list[list[tuple[int, ...]]], shared: list[tuple[int, ...]], touched: set[int]
) -> list[int | None] | None:
    """Per card, the box slot of its one option beyond the shared ones (None: it has none);
    None when a card repeats an option or has another kind of option of its own."""
    own: list[int | None] = []
    for found in cards:
        rest = [coords for coords in found if coords not in shared]
        if len(found) != len(set(found)) or len(rest) > 1:
            return None
        if rest and (len(rest[0]) != 1 or rest[0][0] in touched):
            return None
        own.append(rest[0][0] if rest else None)
    return own


def _plan(
    cards: list[list[tuple[int, ...]]],
    targets: list[int],
    shared: list[tuple[int, ...]],
    touched: set[int],
) -> tuple[list[tuple[int, int]], list[tuple[int, int, list[int]]]] | None:
    """How a split of the pool is found: the shared options enumerated (each with the most
    cards it may take) and the peeling plan (option, the coordinate giving its count, the
    options solved before that touch it too); None past `MAX_SPLITS` combinations."""
    free: list[tuple[int, int]] = []
    plan: list[tuple[int, int, list[int]]] = []
    solved: set[int] = set()
    while len(solved) < len(shared):
        peeled = _peeled(shared, touched, solved)
        if peeled is not None:
            j, k = peeled
            plan.append((j, k, [i for i in solved if k in shared[i]]))
        else:  # enumerate the open option with the fewest possible counts
            most, j = min(
                (min(len(cards), *(targets[k] for k in shared[j])), j)
                for j in range(len(shared))
                if j not in solved
            )
            free.append((j, most))
            if prod(m + 1 for _, m in free) > MAX_SPLITS:
                return None
        solved.add(j)
    return free, plan


def _peeled(
    shared: list[tuple[int, ...]], touched: set[int], solved: set[int]
) -> tuple[int, int] | None:
    """The first open shared option that a coordinate touched by no other open option
    counts, with that coordinate (None when every coordinate has two or more)."""
    return next(
        (
            (only[0], k)
            for k in sorted(touched)
            for only in [[j for j, c in enumerate(shared) if k in c and j not in solved]]
            if len(only) == 1
        ),
        None,
    )


MAX_SPLITS = 64
"""The most combinations of enumerated option counts a pool may have (each costs a pass over
the last layer)."""


class Closing:
    """A pool finishing the states of the last layer: the ways from each (summed over the
    enumerated splits), every pool card's histories per option (given the forward counts),
    and uniform splits for samples. Each split is kept only at the states it fits."""

    def __init__(self, pool: Pool, left: dict[int, np.ndarray]) -> None:
        self.pool = pool
        self.states = len(next(iter(left.values())))
        self.boxed = [np.minimum(left[k], len(pool.members[k])) for k in pool.slots]
        self.splits: list[tuple[np.ndarray, np.ndarray]] = []  # per split: states, counts
        for combo in pool.combos:
            counts, fits = pool.split(left, combo)
            rows = np.flatnonzero(fits)
            self.splits.append((rows, counts[rows]))
        m = len(pool.cards)
        factorials = np.array([float(factorial(k)) for k in range(m + 1)])
        chosen = np.ones(self.states)
        for k, boxed in zip(pool.slots, self.boxed, strict=True):  # which cards are boxed
            g = len(pool.members[k])
            chosen = chosen * np.array([float(comb(g, b)) for b in range(m + 1)])[boxed]
        self._approx: list[np.ndarray] = []  # per split, at every state
        for rows, counts in self.splits:
            approx = chosen[rows] * factorials[counts.sum(axis=1)]
            for j in range(len(pool.shared)):
                approx = approx / factorials[counts[:, j]]
            dense = np.zeros(self.states)
            dense[rows] = approx
            self._approx.append(dense)
        self.approx = sum(self._approx, np.zeros(self.states))

    def count(self, primes: tuple[int, ...]) -> None:
        """The ways from each state (and of each split) modulo `primes`."""
        pool, m = self.pool, len(self.pool.cards)
        p = np.array(primes, dtype=np.int64)[:, None]
        fact = [[1] * (m + 1) for _ in primes]  # per prime: k! and its inverse, k up to m
        for row, q in zip(fact, primes, strict=True):
            for k in range(1, m + 1):
                row[k] = row[k - 1] * k % q
        inverse = [[pow(f, -1, q) for f in row] for row, q in zip(fact, primes, strict=True)]
        fact_of, inverse_of = np.array(fact, dtype=np.int64), np.array(inverse, dtype=np.int64)
        chosen = np.ones((len(primes), self.states), dtype=np.int64)
        for k, boxed in zip(pool.slots, self.boxed, strict=True):  # which cards are boxed
            g = len(pool.members[k])
            chosen = chosen * fact_of[:, g : g + 1] % p * inverse_of[:, boxed] % p
            chosen = chosen * inverse_of[:, g - boxed] % p
        self.primes = primes
        self._ways: list[np.ndarray] = []  # per split, at its states
        self.ways = np.zeros((len(primes), self.states), dtype=np.int64)
        for rows, counts in self.splits:
            ways = chosen[:, rows] * fact_of[:, counts.sum(axis=1)] % p
            for j in range(len(pool.shared)):
                ways = ways * inverse_of[:, counts[:, j]] % p
            self._ways.append(ways)
            self.ways[:, rows] += ways
        self.ways %= p

    def weights(self, forward: np.ndarray) -> list[list[int]]:
        """Per pool card, per option: the histories where it takes that option. A card of
        slot k is boxed in b of its g fellows' histories, and on shared option j in
        (g - b) / g * n_j / (the pool cards on shared options) of them."""
        pool, m = self.pool, len(self.pool.cards)
        p = np.array(self.primes, dtype=np.int64)[:, None]
        inverse = np.array(
            [[0] + [pow(k, -1, q) for k in range(1, m + 1)] for q in self.primes], dtype=np.int64
        )  # per prime, the inverses of 1..m
        sums: dict[int | None, np.ndarray] = {}  # by own slot: per prime, per option
        for (rows, counts), ways in zip(self.splits, self._ways, strict=True):
            through = forward[:, rows] * ways % p  # histories through each state and split
            spread = through * inverse[:, counts.sum(axis=1)] % p
            for own in dict.fromkeys(pool.own):
                if own is None:
                    free, boxed = spread, None
                else:
                    g, boxed = len(pool.members[own]), self.boxed[pool.slots.index(own)][rows]
                    free = spread * (g - boxed) % p * inverse[:, g : g + 1] % p
                found = free @ counts  # residues times counts up to m: no overflow
                if boxed is not None:
                    own_sum = (through * boxed % p * inverse[:, g : g + 1] % p).sum(axis=1)
                    found = np.concatenate([found, own_sum[:, None]], axis=1)
                sums[own] = (sums[own] + found) % p if own in sums else found % p
        by_slot = {own: recombine(found.T, self.primes) for own, found in sums.items()}
        weights = []
        for c, own in enumerate(pool.own):
            card = [0] * len(pool.cards[c])
            for j, at in enumerate(pool.shared_at[c]):
                card[at] = by_slot[own][j]
            if own is not None:
                card[pool.cards[c].index((own,))] = by_slot[own][-1]
            weights.append(card)
        return weights

    def assign(self, states: np.ndarray, rng: random.Random) -> np.ndarray:
        """Each sample's pool cards' options (columns: pool cards), uniform given its last
        state: a split drawn by its ways, the boxed cards of each slot drawn, the rest
        shuffled into the shared options."""
        pool = self.pool
        if len(self.splits) == 1:
            split = np.zeros(len(states), dtype=np.int64)
        else:
            weight = np.stack([approx[states] for approx in self._approx], axis=1)
            split = choose(weight, partial(self._exact, states), rng)
        chosen = np.empty((len(states), len(pool.cards)), dtype=np.int64)
        for row, (state, s) in enumerate(zip(states.tolist(), split.tolist(), strict=True)):
            taken = set()
            for k, boxed in zip(pool.slots, self.boxed, strict=True):
                for c in rng.sample(pool.members[k], int(boxed[state])):
                    chosen[row, c] = pool.cards[c].index((k,))
                    taken.add(c)
            rest = [c for c in range(len(pool.cards)) if c not in taken]
            rng.shuffle(rest)
            rows, counts = self.splits[s]
            at = 0
            for j, n in enumerate(counts[np.searchsorted(rows, state)].tolist()):
                for c in rest[at : at + n]:
                    chosen[row, c] = pool.shared_at[c][j]
                at += n
        return chosen

    def _exact(self, states: np.ndarray, row: int) -> list[int]:
        """The exact ways of each split from one sample's state (for `choose`)."""
        state, found = int(states[row]), []
        for (rows, _), ways in zip(self.splits, self._ways, strict=True):
            at = int(np.searchsorted(rows, state))
            fits = at < len(rows) and rows[at] == state
            found.append(recombine(ways[:, at : at + 1].T, self.primes)[0] if fits else 0)
        return found
