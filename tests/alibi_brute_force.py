"""A model-free brute force over explicit Alibi histories, the oracle for the solver's counts.

It shares nothing with the solver (no model, Position or counter): it replays one seat's
observations, in order, over every history the engine could have played, following
engines/alibi/state.py. A history is one row of bitmasks over the deck: each seat's hand now,
each seat's "seen" cards (dealt or received, never forgotten, laid ones included) and the box.
Rows start as every box and deal that agree with my dealt hand and the public hand sizes; each
observation keeps the rows it agrees with, and each passing step splits a row into one row per
choice of cards a giver I cannot see might have passed. Rows are never merged, so the rows left
are exactly the consistent histories, each equally likely under the rules' prior.

The observations are first compiled into steps, so that rows can run through them in chunks:
when a split would make too many rows, its rows are halved and each half runs on alone. Memory
stays bounded and the arrays stay small enough for the cache; time grows with the histories.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb

import numpy as np

from engines import InformationSet, Observation
from engines.alibi import TYPES, Deck, load_deck

CHUNK = 1 << 18
"""Split rows in halves rather than let one step make more than this many."""

Rows = np.ndarray
Step = Callable[[Rows], Rows]
Pool = Callable[[Rows], np.ndarray]  # per row, the cards a split chooses from


def keep(rows: Rows, ok: np.ndarray) -> Rows:
    """The rows where `ok` holds (without copying when all do, as hand sizes mostly do)."""
    return rows if ok.all() else rows[ok]


def all_of(table: np.ndarray) -> np.ndarray:
    """Row-wise `all` of a narrow boolean table, column by column (numpy reduces a short axis
    slowly)."""
    found = table[:, 0].copy()
    for column in range(1, table.shape[1]):
        found &= table[:, column]
    return found


def constant(cards: np.unsignedinteger) -> Pool:
    """The same cards for every row (the candidates for one type's box card)."""

    def pool(rows: Rows) -> np.ndarray:
        return np.full(len(rows), cards)

    return pool


def column(index: int) -> Pool:
    """One column of each row (the hand a giver passes from)."""

    def pool(rows: Rows) -> np.ndarray:
        return rows[:, index]

    return pool


@dataclass(frozen=True)
class Tally:
    """How many consistent histories there are, and how many make each basic fact true."""

    total: int
    boxed: dict[str, int]  # card: histories with it in the box
    held: dict[tuple[int, str], int]  # (seat, card): histories where the seat holds it now


@dataclass(frozen=True)
class Choose:
    """Split each row into one row per `k`-card subset of `pool(rows)`, OR-ed into `columns`."""

    pool: Pool
    k: int
    columns: tuple[int, ...]

    def size(self, rows: Rows) -> int:
        """How many rows the split makes (to decide whether to chunk first)."""
        sizes, rows_of_size = np.unique(np.bitwise_count(self.pool(rows)), return_counts=True)
        pairs = zip(sizes, rows_of_size, strict=True)
        return sum(comb(int(size), self.k) * int(many) for size, many in pairs)

    def __call__(self, rows: Rows) -> Rows:
        """Many rows share a pool (every deal of one box, every history with one hand), so the
        subsets are listed once per distinct pool, for all pools of one size at once: their set
        bits as a (pools, size) array indexed by one table of combinations."""
        pool = self.pool(rows)
        sizes = np.bitwise_count(pool)
        if (sizes == self.k).all():  # one subset each: the whole pool
            rows = rows.copy()
            for column in self.columns:
                rows[:, column] |= pool
            return rows
        distinct, which = np.unique(pool, return_inverse=True)
        distinct_sizes = np.bitwise_count(distinct)
        parents, chosen = [], []
        one = rows.dtype.type(1)
        shifts = np.arange(8 * rows.dtype.itemsize, dtype=rows.dtype)
        for size in np.unique(distinct_sizes[distinct_sizes >= self.k]):
            group = np.nonzero(distinct_sizes == size)[0]
            table = np.array(list(combinations(range(size), self.k)), dtype=np.intp)
            bits = (distinct[group, None] >> shifts) & one
            places = np.nonzero(bits)[1].reshape(len(group), size).astype(rows.dtype)
            subsets = np.zeros((len(group), len(table)), dtype=rows.dtype)
            for j in range(self.k):  # (pools, combinations): the j-th card of each subset
                subsets |= one << places[:, table[:, j]]
            slot = np.zeros(len(distinct), dtype=np.intp)
            slot[group] = np.arange(len(group))
            members = np.nonzero(sizes == size)[0]
            parents.append(np.repeat(members, len(table)))
            chosen.append(subsets[slot[which[members]]].ravel())
        if not parents:
            return rows[:0]
        rows = rows[np.concatenate(parents)]
        subsets = np.concatenate(chosen)
        for column in self.columns:
            rows[:, column] |= subsets
        return rows


@dataclass
class Compiler:
    """Turns observations into steps over rows, tracking the public facts steps depend on.

    Columns: hands 0..n-1, seen n..2n-1, the box 2n, and during a passing step the cards each
    giver passes, 2n+1..3n.
    """

    info: InformationSet
    deck: Deck = field(init=False)
    n: int = field(init=False)
    steps: list[Step] = field(default_factory=list)
    dealt: Sequence[str] = ()  # my dealt hand
    passes: dict[int, Observation] = field(default_factory=dict)  # this round's, by giver

    def __post_init__(self) -> None:
        options = dict(self.info.options)
        self.deck = load_deck(str(options.get("deck", "full")))
        assert len(self.deck.ids) <= 64, "bitmask rows need a deck of at most 64 cards"
        self.dtype = np.uint32 if len(self.deck.ids) <= 32 else np.uint64
        self.n = next(o for o in self.info.observations if o.kind == "seating")["players"]
        self.box = 2 * self.n
        self.seen_sets = bool(options.get("seen_includes_sets", True))
        self.laid = [self.dtype(0)] * self.n  # the cards each seat has laid so far (public)
        for obs in self.info.observations:
            self.observe(obs)

    def mask(self, cards: Sequence[str] | None) -> np.unsignedinteger:
        return self.dtype(sum(1 << self.deck.ids.index(card) for card in cards or ()))

    def start(self) -> Rows:
        """The one row before the deal: nothing known, nothing held."""
        return np.zeros((1, 2 * self.n + 1), dtype=self.dtype)

    def observe(self, obs: Observation) -> None:
        """Add the steps of one observation. The others say nothing about where cards are:
        "choose_pass" only repeats what "pass" says, and "accuse" and "end" name no location."""
        kind = obs.kind
        if kind == "deal":
            self.dealt = obs["cards"]
        elif kind == "hands":
            if obs["round"] == 0:
                self.deal(obs["sizes"])
            else:
                self.pass_round(obs["round"])
            self.sizes(obs["sizes"])
        elif kind == "lay":
            self.lay(obs["seat"], self.mask(obs["cards"]))
        elif kind == "answer":
            self.answer(obs["target"], obs["scope"], self.mask(obs["cards"]), obs["answer"])
        elif kind == "pass":
            assert obs["receiver"] == (obs["giver"] + 1) % self.n
            self.passes[obs["giver"]] = obs
        elif kind == "box":
            cards = self.mask(obs["cards"])
            self.steps.append(lambda rows: keep(rows, rows[:, self.box] == cards))

    def deal(self, sizes: Sequence[int]) -> None:
        """Every box (one card per type) and every deal of the cards I was not dealt."""
        me, mine = self.info.seat, self.mask(self.dealt)
        unknown = self.mask(self.deck.ids) & ~mine

        def give_mine(rows: Rows) -> Rows:
            rows[:, me] = rows[:, self.n + me] = mine
            return rows

        self.steps.append(give_mine)
        for kind in TYPES:
            pool = unknown & self.mask(self.deck.of_type(kind))
            self.steps.append(Choose(constant(pool), 1, (self.box,)))
        for seat in range(self.n):
            if seat != self.info.seat:
                self.steps.append(Choose(self.untaken(unknown), sizes[seat], (seat, self.n + seat)))

    def untaken(self, unknown: np.unsignedinteger) -> Pool:
        """The unknown cards not yet dealt to a hand or put in the box."""

        def pool(rows: Rows) -> np.ndarray:
            found = unknown & ~rows[:, self.box]
            for seat in range(self.n):
                found &= ~rows[:, seat]
            return found

        return pool

    def sizes(self, sizes: Sequence[int]) -> None:
        def check(rows: Rows) -> Rows:
            ok = np.bitwise_count(rows[:, 0]) == sizes[0]
            for seat in range(1, self.n):
                ok &= np.bitwise_count(rows[:, seat]) == sizes[seat]
            return keep(rows, ok)

        self.steps.append(check)

    def lay(self, seat: int, cards: np.unsignedinteger) -> None:
        """The layer held the whole set; it leaves the hand and stays in "seen"."""

        def lay(rows: Rows) -> Rows:
            rows = rows[rows[:, seat] & cards == cards]  # a copy, so the caller's rows stay
            rows[:, seat] &= ~cards
            return rows

        self.steps.append(lay)
        self.laid[seat] |= cards

    def answer(self, target: int, scope: str, cards: np.unsignedinteger, value: int) -> None:
        """AlibiState.answer: the cards in the hand, or in `seen`, less the target's own laid
        sets when the option says laid sets do not count."""
        column = target if scope == "hand" else self.n + target
        counted = cards if scope == "hand" or self.seen_sets else cards & ~self.laid[target]
        self.steps.append(
            lambda rows: keep(rows, np.bitwise_count(rows[:, column] & counted) == value)
        )

    def pass_round(self, r: int) -> None:
        """AlibiState._do_passes: everyone passes left at once, min(r, hand size) cards each,
        the ones I saw or every choice of them; then each receiver has seen what it got.

        What needs no choice (how many cards each passes, the passes I saw) is checked first,
        so that rows failing it are never split.
        """
        n, width = self.n, 2 * self.n + 1
        told = [self.passes.get(giver) for giver in range(n)]
        counts = np.array([0 if obs is None else obs["count"] for obs in told])
        known = np.array([self.mask(obs and obs.get("cards")) for obs in told], dtype=self.dtype)

        def check(rows: Rows) -> Rows:
            hands = rows[:, :n]
            ok = all_of(np.minimum(np.bitwise_count(hands), r) == counts)
            rows = keep(rows, ok & all_of(hands & known == known))
            return np.hstack([rows, np.broadcast_to(known, (len(rows), n))])

        self.steps.append(check)
        for giver, obs in enumerate(told):
            if obs is not None and obs.get("cards") is None:
                self.steps.append(Choose(column(giver), obs["count"], (width + giver,)))

        def move(rows: Rows) -> Rows:
            moved = rows[:, :width].copy()
            for seat in range(n):
                given, received = rows[:, width + seat], rows[:, width + (seat - 1) % n]
                moved[:, seat] = (moved[:, seat] & ~given) | received
                moved[:, n + seat] |= received
            return moved

        self.steps.append(move)
        self.passes = {}


BYTE_BITS = (np.arange(256)[:, None] >> np.arange(8)) & 1
"""Row b: the bits of the byte b, to turn a histogram of bytes into counts per bit."""


def bit_counts(column: np.ndarray, bits: int) -> np.ndarray:
    """How many of the masks in `column` have each of the `bits` lowest bits set: one byte
    histogram per byte, far cheaper than testing every bit of every row."""
    found = [
        np.bincount(((column >> (8 * b)) & 0xFF).astype(np.intp), minlength=256) @ BYTE_BITS
        for b in range((bits + 7) // 8)
    ]
    return np.concatenate(found)[:bits]


@dataclass
class Counts:
    """Running totals over the chunks of rows that reach the end."""

    n: int
    cards: int
    total: int = 0
    boxed: np.ndarray = field(init=False)
    held: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.boxed = np.zeros(self.cards, dtype=np.int64)
        self.held = np.zeros((self.n, self.cards), dtype=np.int64)

    def add(self, rows: Rows) -> None:
        self.total += len(rows)
        self.boxed += bit_counts(rows[:, 2 * self.n], self.cards)
        for seat in range(self.n):
            self.held[seat] += bit_counts(rows[:, seat], self.cards)


def run(rows: Rows, steps: Sequence[Step], counts: Counts) -> None:
    """Take `rows` through `steps`, halving them before any split that would make too many."""
    for i, step in enumerate(steps):
        if not len(rows):
            return
        if isinstance(step, Choose) and len(rows) > 1 and step.size(rows) > CHUNK:
            for part in np.array_split(rows, 2):
                run(part, steps[i:], counts)
            return
        rows = step(rows)
    counts.add(rows)


def brute_force(info: InformationSet) -> Tally:
    """Count the histories consistent with `info`, and those making each basic fact true."""
    compiled = Compiler(info)
    ids = compiled.deck.ids
    counts = Counts(compiled.n, len(ids))
    run(compiled.start(), compiled.steps, counts)
    return Tally(
        counts.total,
        {card: int(counts.boxed[i]) for i, card in enumerate(ids)},
        {
            (seat, card): int(counts.held[seat, i])
            for seat in range(compiled.n)
            for i, card in enumerate(ids)
        },
    )
