"""A Metropolis chain over consistent Alibi histories, for positions beyond exact counting.

The state is one consistent history (a trajectory per card). A move exchanges parts of
trajectories so that every hand size, pass count and box slot is kept by construction:

- *past*: two cards in the same hand at epoch e swap where they were up to e;
- *future*: two cards in the same hand at epoch e swap where they go from e on;
- *whole*: two cards swap whole trajectories (a box card only with a card of its own type);
- *rotate*: three cards rotate whole trajectories (the same rule for box cards);
- *rebox*: the box card of a type swaps whole trajectories with another card of that type.

Each move is its own inverse (a rotation's inverse is the rotation of the reversed triple, drawn
with the same probability), so the proposal is symmetric; a move is accepted exactly when every
known card and every answer still holds, so the uniform distribution over consistent histories
is stationary. Answers are kept as running counts and a move rechecks only the answers that
mention a card it touched. Irreducibility is not proven in general (swaps alone can be trapped,
which is why rotations are included); tests compare the chain with exact counts on small games.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from operator import itemgetter

from solver.games.alibi.counting import _literals, _makes
from solver.games.alibi.model import place, world_from
from solver.games.alibi.position import Position, Trajectory
from solver.model import Fact, Model, Value, World

STEPS = 40_000
RECORDS = 1_500
BATCHES = 20


class HistoryChain:
    """Estimated probabilities from a run of the chain; `error` is their batch-means error."""

    exact = False

    def __init__(
        self, pos: Position, model: Model, start: list[Trajectory], seed: int = 0,
        steps: int = STEPS,
    ) -> None:
        self.pos, self.model = pos, model
        self.rng = random.Random(seed)
        self._random = self.rng.random
        self.paths = [tuple(path) for path in start]
        n_cards = len(self.paths)
        self._allow = [
            [pos.allowed(c, e) for e in range(pos.last[c] + 1)] for c in range(n_cards)
        ]
        self._boxable = [pos.may_be_boxed(c) for c in range(n_cards)]
        self._answers = pos.answers
        self._of_card: dict[int, list[int]] = defaultdict(list)
        for k, answer in enumerate(self._answers):
            for c in answer.cards:
                self._of_card[c].append(k)
        self._paths_ok = [frozenset(pos.trajectories(c)) for c in range(n_cards)]
        self._free = [c for c in range(n_cards) if len(self._paths_ok[c]) > 1]
        self._of_type = [[c for c in self._free if pos.kind[c] == k] for k in range(4)]
        self._boxed = [0] * 4
        for c, path in enumerate(self.paths):
            if path[0] == pos.box:
                self._boxed[pos.kind[c]] = c
        self.records: list[tuple[Trajectory, ...]] = []
        self._tallies: dict[tuple[int, int | None], Counter] = {}
        self.accepted = self.proposed = 0
        self._run(steps)

    # --- the chain -------------------------------------------------------------------------
    def _ok(self, card: int, path: Trajectory, upto: range) -> bool:
        box, me = self.pos.box, self.pos.me
        if path[0] == box:
            return self._boxable[card]
        allow = self._allow[card]
        for e in upto:
            rule = allow[e]
            if (path[e] not in rule) if rule is not None else path[e] in (me, box):
                return False
        return True

    def _propose(self) -> dict[int, Trajectory] | None:
        """The changed trajectories of a random move, or None when the move does not apply."""
        paths, pos, free = self.paths, self.pos, self._free
        if len(free) < 3:
            return None
        rnd = self._random  # int(rnd() * n) is uniform on range(n), and cheaper than randrange
        move = int(rnd() * 6)
        if move >= 4:  # rebox: the partner is uniform among the type's other free cards
            kind = int(rnd() * 4)
            boxed = self._boxed[kind]
            others = self._of_type[kind]
            partner = others[int(rnd() * len(others))]
            if partner == boxed or len(paths[partner]) != len(paths[boxed]):
                return None
            return {boxed: paths[partner], partner: paths[boxed]}
        size = len(free)  # a uniform ordered triple of distinct free cards
        i, j, k = int(rnd() * size), int(rnd() * (size - 1)), int(rnd() * (size - 2))
        if j >= i:
            j += 1
        low, high = (i, j) if i < j else (j, i)
        if k >= low:
            k += 1
            if k >= high:
                k += 1
        a, b, c = free[i], free[j], free[k]
        pa, pb, pc = paths[a], paths[b], paths[c]
        if move == 3:  # rotate three whole trajectories
            if not len(pa) == len(pb) == len(pc):
                return None
            new = {a: pb, b: pc, c: pa}
            return new if self._box_types_kept(new) else None
        if move == 2:
            if len(pa) != len(pb):
                return None
            new = {a: pb, b: pa}
            return new if self._box_types_kept(new) else None
        e = int(rnd() * min(len(pa), len(pb)))
        if pa[e] != pb[e] or pa[e] == pos.box:
            return None
        if move == 0:
            return {a: pb[: e + 1] + pa[e + 1 :], b: pa[: e + 1] + pb[e + 1 :]}
        if len(pa) != len(pb):
            return None
        return {a: pa[:e] + pb[e:], b: pb[:e] + pa[e:]}

    def _box_types_kept(self, new: dict[int, Trajectory]) -> bool:
        box = self.pos.box
        if all(path[0] != box for path in new.values()):
            return True  # a permutation of the same paths: no box path moves
        kind = self.pos.kind
        old_box = sorted(kind[c] for c in new if self.paths[c][0] == self.pos.box)
        new_box = sorted(kind[c] for c, path in new.items() if path[0] == self.pos.box)
        return old_box == new_box

    def _step(self) -> None:
        new = self._propose()
        self.proposed += 1
        if new is None:
            return
        paths_ok = self._paths_ok  # the same test as `_ok`, by lookup
        for card, path in new.items():
            if path not in paths_ok[card]:
                return
        touched = {k for card in new for k in self._of_card.get(card, ())}
        counted = self.pos.counted
        for k in touched:
            answer = self._answers[k]
            delta = sum(
                counted(answer, path) - counted(answer, self.paths[card])
                for card, path in new.items()
                if card in answer.cards
            )
            if delta:
                return
        for card, path in new.items():
            self.paths[card] = path
            if path[0] == self.pos.box:
                self._boxed[self.pos.kind[card]] = card
        self.accepted += 1

    def _run(self, steps: int) -> None:
        burn = steps // 5
        for _ in range(burn):
            self._step()
        every = max(1, (steps - burn) // RECORDS)
        for i in range(steps - burn):
            self._step()
            if i % every == 0:
                self.records.append(tuple(self.paths))

    # --- the WorldSet protocol ---------------------------------------------------------------
    def total(self) -> int:
        raise NotImplementedError("the chain estimates probabilities; it does not count")

    def count(self, fact: Fact) -> int:
        raise NotImplementedError("the chain estimates probabilities; it does not count")

    def _hits(self, fact: Fact, records: list[tuple[Trajectory, ...]]) -> float:
        cards = _cards_of(self.pos, fact)
        hits = sum(
            any(_makes(self.pos, fact, c, record[c]) for c in cards) for record in records
        )
        share = hits / len(records)
        return 1 - share if fact.negated else share

    def probability(self, fact: Fact) -> float:
        kind, _, rest = fact.var.partition(":")
        if kind == "box":
            share = sum(self._tally(self.pos.index[card], None)[self.pos.box]
                        for card in fact.values) / len(self.records)
        elif kind == "at":
            name, _, at = rest.partition("@")
            e = int(at)
            tally = self._tally(self.pos.index[name], e)
            hits = sum(ways for loc, ways in tally.items() if place(self.pos, loc) in fact.values)
            share = hits / len(self.records)
        else:
            return self._hits(fact, self.records)
        return 1 - share if fact.negated else share

    def _tally(self, card: int, epoch: int | None) -> Counter:
        """How many records put `card` at each location at `epoch` (None: at the deal, so
        the box count is the records with the card in the box)."""
        key = (card, epoch)
        if key not in self._tallies:
            e = 0 if epoch is None else epoch
            tally: Counter = Counter()
            for path, ways in Counter(map(itemgetter(card), self.records)).items():
                tally[path[e] if len(path) > e else None] += ways
            self._tallies[key] = tally
        return self._tallies[key]

    def error(self, fact: Fact) -> float:
        """The batch-means standard error of `probability(fact)`."""
        size = len(self.records) // BATCHES
        means = [
            self._hits(fact, self.records[i * size : (i + 1) * size]) for i in range(BATCHES)
        ]
        mean = sum(means) / BATCHES
        spread = sum((m - mean) ** 2 for m in means) / (BATCHES - 1)
        return (spread / BATCHES) ** 0.5

    def sample(self, n: int, rng: random.Random) -> list[World]:
        return [world_from(self.pos, list(rng.choice(self.records)), self.model) for _ in range(n)]

    def sample_paths(self, rng: random.Random) -> list[Trajectory]:
        return list(rng.choice(self.records))

    def witnessed(self) -> set[tuple[str, Value]]:
        found: set[tuple[str, Value]] = set()
        for c in range(len(self.paths)):
            found |= _literals(self.pos, c, list({record[c] for record in self.records}))
        return found


def _cards_of(pos: Position, fact: Fact) -> list[int]:
    """The cards whose trajectories decide `fact`."""
    if fact.var.startswith("box:"):
        return [pos.index[card] for card in fact.values]
    name = fact.var.split(":")[1].split("@")[0]
    return [pos.index[name]]
