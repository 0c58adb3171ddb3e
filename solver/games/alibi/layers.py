"""The counting program of `counting`, run a whole layer at a time with numpy, counts kept
exact modulo a few primes.

A layer is the sorted array of states (the targets still to meet, as one mixed-radix integer)
after some cards. Each card's options subtract fixed numbers, so a layer's successors are one
array per option, each still sorted; merging them and summing the ways into each distinct
state is one stable sort (its runs are already sorted) and one reduction. Counts outgrow
int64, so the program runs modulo primes below 2**31 (a product of two residues fits int64,
and a float64 sum of a few residues stays exact), and the Chinese remainder theorem rebuilds
each count as a Python int: the count of histories is below the product of the cards' option
counts, so primes whose product exceeds that bound leave no ambiguity.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from math import prod

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
"""A state's mixed-radix integer must stay below 2**KEY_BITS (int64, with room to subtract)."""

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
    ) -> None:
        self.primes, self._steps, self.widths = primes, steps, widths
        p = np.array(primes, dtype=np.int64)[:, None]
        back = [np.ones((len(primes), 1), dtype=np.int64) for _ in forward]  # last: state 0
        approx = [np.ones(1) for _ in forward]
        for i in range(len(steps) - 1, -1, -1):
            step, n = steps[i], widths[i]
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

    def sample(self, n: int, rng: random.Random) -> np.ndarray:
        """`n` uniform choices of one option per card (rows: samples; columns: cards, in the
        program's order), each card taking an option with probability proportional to the
        histories finishing after it."""
        state = np.zeros(n, dtype=np.int64)
        chosen = np.zeros((n, len(self._steps)), dtype=np.int64)
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
                weight = np.where(offsets < counts[:, None], self._approx[i + 1][target[edges]], 0)
                bounds = np.cumsum(weight, axis=1)
                points = [rng.getrandbits(53) for _ in range(n)]
                at = np.array(points, dtype=np.float64) / 2.0**53 * bounds[:, -1]
                pick = np.minimum((bounds <= at[:, None]).sum(axis=1), counts - 1)
                near = np.abs(bounds[:, :-1] - at[:, None]) <= NEAR * bounds[:, -1:]
                for k in np.flatnonzero(near.any(axis=1)).tolist():
                    pick[k] = self._exact_pick(i, int(begin[k]), int(counts[k]), points[k], rng)
                edge = begin + pick
            chosen[:, i] = option[edge]
            state = target[edge]
        return chosen

    def _exact_pick(self, i: int, begin: int, count: int, point: int, rng: random.Random) -> int:
        """Which of a state's edges the uniform point (its first 53 bits `point`) falls in,
        by exact counts, drawing further bits while a boundary lies within the bits drawn."""
        _, _, target = self._steps[i].by_source(self.widths[i])
        ways = recombine(self._back[i + 1][:, target[begin : begin + count]].T, self.primes)
        whole = sum(ways)
        bounds = [sum(ways[: j + 1]) for j in range(count)]
        bits = 53
        while True:  # the point lies in [point, point + 1) / 2**bits of the whole
            low, high = point * whole, (point + 1) * whole
            inside = [b for b in bounds if low < b << bits < high]
            if not inside:
                return next(j for j, b in enumerate(bounds) if b << bits >= high)
            point, bits = 2 * point + rng.getrandbits(1), bits + 1


def count_layers(
    targets: list[int],
    options: list[list[tuple[int, ...]]],
    max_states: int,
    seconds: float | None = None,
) -> LayeredCount | None:
    """Choose one option (the coordinates it adds one to) per card so that the coordinates
    sum to `targets`: the exact counts, or None when a layer outgrows `max_states`, time runs
    out, the states do not fit int64, or nothing meets the targets."""
    deadline = float("inf") if seconds is None else time.perf_counter() + seconds
    if not all(options):
        return None
    used = sorted({k for found in options for coords in found for k in coords})
    if any(target and k not in used for k, target in enumerate(targets)):
        return None
    compact = {k: i for i, k in enumerate(used)}
    targets = [targets[k] for k in used]
    options = [[tuple(compact[k] for k in coords) for coords in found] for found in options]
    primes = moduli(prod(len(found) for found in options))
    radix = [t + 1 for t in targets]
    if primes is None or prod(radix) >= 1 << KEY_BITS:
        return None
    place = [prod(radix[:k]) for k in range(len(radix))]
    low, high = _bounds(options, len(targets))
    p = np.array(primes, dtype=np.int64)[:, None]
    keys = np.array([sum(t * m for t, m in zip(targets, place, strict=True))], dtype=np.int64)
    ways = np.ones((len(primes), 1), dtype=np.int64)
    forward, steps, widths = [ways], [], [1]
    for i, found in enumerate(options):
        drops = np.array([sum(place[k] for k in coords) for coords in found], dtype=np.int64)
        if len(found) == 1:  # a settled card: every state moves by the same amount
            every = np.arange(len(keys))
            steps.append(Step(1, every, np.zeros(len(keys), dtype=np.int64), every))
            keys = keys - drops[0]
            forward.append(ways)
            widths.append(len(keys))
            continue
        reach = sorted({k for coords in found for k in coords})
        if len(reach) > KEY_BITS:
            return None
        bit = {k: 1 << j for j, k in enumerate(reach)}
        masks = np.array([sum(bit[k] for k in coords) for coords in found], dtype=np.int64)
        out_now = np.zeros(len(keys), dtype=np.int64)
        out_less = np.zeros(len(keys), dtype=np.int64)
        for k in reach:
            value = keys // place[k] % radix[k]
            lo, hi = low[i + 1][k], high[i + 1][k]
            out_now |= np.where((value < lo) | (value > hi), bit[k], 0)
            out_less |= np.where((value <= lo) | (value > hi + 1), bit[k], 0)
        fits = ((out_now[:, None] & ~masks[None, :]) == 0) & ((out_less[:, None] & masks) == 0)
        option, source = np.nonzero(fits.T)  # option by option: each one's successors sorted
        successors = keys[source] - drops[option]
        order = np.argsort(successors, kind="stable")  # merges the sorted runs
        ranked = successors[order]
        new = np.empty(len(ranked), dtype=bool)
        new[:1] = True
        np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
        target = np.empty(len(ranked), dtype=np.int64)
        target[order] = np.cumsum(new) - 1
        keys = ranked[new]
        if not 0 < len(keys) <= max_states or time.perf_counter() > deadline:
            return None
        ways = np.stack([np.bincount(target, row, len(keys)) for row in ways[:, source]]).astype(
            np.int64
        )  # at most one edge per option reaches a state: the float sums are exact
        ways %= p
        steps.append(Step(len(found), source, option, target))
        forward.append(ways)
        widths.append(len(keys))
    if keys[0] != 0:
        return None  # the last layer holds the zero state alone, if it is reached
    counted = LayeredCount(steps, forward, primes, widths)
    return counted if counted.total else None


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
