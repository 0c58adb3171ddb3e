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
mention a card it touched.

Swaps alone mix badly once many answers are known: moving the box from one card to another can
need a dozen cards to change together. So every `BLOCK_EVERY` steps a *block step* redraws up
to `BLOCK` cards at once from their exact conditional distribution given all the other cards
(the counting program of `counting`, run on the block alone): a Gibbs step, which keeps the
uniform distribution too. Half the blocks are a type's box card, other cards of that type that
may be in the box, and cards that share answers with them; the other half are random cards.
Irreducibility is still not proven; tests compare the chain with exact counts on small games.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from operator import itemgetter

from solver.games.alibi.counting import Coordinates, Option, _literals, _makes, draw, layered
from solver.games.alibi.model import paths_of, place, world_from
from solver.games.alibi.position import Position, Trajectory
from solver.model import Fact, Model, Value, World

STEPS = 30_000
BLOCK = 10  # cards redrawn together by a block step
BOX_BLOCK = 4  # of them, at most this many that may be the box card of the block's type
BLOCK_EVERY = 3_000  # steps between block steps
BLOCK_PATHS = 1_024  # cards with more trajectories stay out of blocks (listing them costs)
LISTED = 512  # a card's trajectories are kept as a set up to this many
RECORDS = 1_500
MAX_RESTARTS = 6
RESTART_STEPS = 10_000


class HistoryChain:
    """Estimated probabilities from a run of the chain (records of its states, evenly spaced)."""

    exact = False

    def __init__(
        self,
        pos: Position,
        model: Model,
        start: list[Trajectory],
        seed: int = 0,
        steps: int = STEPS,
    ) -> None:
        self.pos, self.model = pos, model
        self.rng = random.Random(seed)
        self._random = self.rng.random
        self.paths = [tuple(path) for path in start]
        n_cards = len(self.paths)
        self._answers = pos.answers
        self._of_card: dict[int, list[int]] = defaultdict(list)
        for k, answer in enumerate(self._answers):
            for c in answer.cards:
                self._of_card[c].append(k)
        counts = [pos.trajectory_count(c) for c in range(n_cards)]
        self._paths_ok = [  # listed where that is cheap; beyond, checked step by step
            frozenset(pos.trajectories(c)) if k <= LISTED else None for c, k in enumerate(counts)
        ]
        self._free = [c for c in range(n_cards) if counts[c] > 1]
        self._of_type = [[c for c in self._free if pos.kind[c] == k] for k in range(4)]
        self._boxed = [0] * 4
        for c, path in enumerate(self.paths):
            if path[0] == pos.box:
                self._boxed[pos.kind[c]] = c
        self.records: list[tuple[Trajectory, ...]] = []
        self._tallies: dict[tuple[int, int | None], Counter] = {}
        self._coordinates = Coordinates(pos)
        self._option_cache: dict[int, list[Option]] = {}
        self._blockable = [c for c in self._free if counts[c] <= BLOCK_PATHS]
        self._candidates = [  # the cards of each type that may be in the box
            [c for c in self._blockable if pos.kind[c] == k and pos.may_be_boxed(c)]
            for k in range(4)
        ]
        self._near = [  # cards that share an answer with one of them, to make up the counts
            sorted(
                {
                    c
                    for box in self._candidates[k]
                    for a in self._of_card.get(box, ())
                    for c in self._answers[a].cards
                }
                & set(self._blockable) - set(self._candidates[k])
            )
            for k in range(4)
        ]
        self._ever_boxed = set(self._boxed)
        self.starts = 1
        self.accepted = self.proposed = 0
        self._run(steps)

    def reached(self, world: World) -> None:
        """A consistent world CP-SAT found (`deduce` finding what the records never showed).
        When it puts in the box a card no record does, the run has missed a region of
        histories, so it runs on from there too and pools the records. The pooled estimate no
        longer weighs regions by their true size, but it no longer gives 0% to a card that
        can be in the box either: a run stuck in one region would make its guesses look
        certain."""
        if self.starts > MAX_RESTARTS:
            return
        paths = paths_of(self.pos, world)
        if any(
            path[0] == self.pos.box and c not in self._ever_boxed for c, path in enumerate(paths)
        ):
            self.restart(paths, RESTART_STEPS)

    def restart(self, start: list[Trajectory], steps: int) -> None:
        """Run on from another consistent history and pool the records."""
        self.paths = [tuple(path) for path in start]
        for c, path in enumerate(self.paths):
            if path[0] == self.pos.box:
                self._boxed[self.pos.kind[c]] = c
        self._ever_boxed.update(self._boxed)
        self._tallies.clear()
        self._run(steps)
        self.starts += 1

    # --- the chain -------------------------------------------------------------------------
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
        paths_ok = self._paths_ok
        for card, path in new.items():
            listed = paths_ok[card]
            if (path not in listed) if listed is not None else not self.pos.valid(card, path):
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
        self._move(new)

    def _move(self, new: dict[int, Trajectory]) -> None:
        for card, path in new.items():
            self.paths[card] = path
            if path[0] == self.pos.box:
                self._boxed[self.pos.kind[card]] = card
                self._ever_boxed.add(card)
        self.accepted += 1

    def _block(self) -> None:
        """Redraw a few cards' trajectories from their exact conditional distribution given
        all the others (a Gibbs step): uniform over the ways the block can fill the same hand
        places, passes, box slot and answer counts. Half the blocks hold a type's box card and
        others of its type, so the box can move where no swap of two cards could take it."""
        rnd = self._random
        if rnd() < 0.5:
            kind = int(rnd() * 4)
            boxed, candidates = self._boxed[kind], self._candidates[kind]
            others = [c for c in candidates if c != boxed]
            if boxed not in candidates or not others:
                return
            block = [boxed, *self.rng.sample(others, min(BOX_BLOCK - 1, len(others)))]
            near = self._near[kind]
            block += self.rng.sample(near, min(BLOCK - len(block), len(near)))
        else:
            pool = self._blockable
            block = self.rng.sample(pool, min(BLOCK, len(pool)))
        options = [self._options(c) for c in block]
        targets = [0] * len(self._coordinates.targets)
        for c in block:
            for k in self._coordinates.of(c, self.paths[c]):
                targets[k] += 1
        program = layered(targets, options)
        if program is None:  # too many ways to fill the block: leave it
            return
        compact, _, back, _ = program
        self._move(dict(zip(block, draw(compact, back, self.rng), strict=True)))

    def _options(self, card: int) -> list[Option]:
        if card not in self._option_cache:
            self._option_cache[card] = self._coordinates.options(card)
        return self._option_cache[card]

    def _run(self, steps: int) -> None:
        burn = steps // 5
        for i in range(burn):
            self._step()
            if i % BLOCK_EVERY == 0:
                self._block()
        every = max(1, (steps - burn) // RECORDS)
        for i in range(steps - burn):
            self._step()
            if i % BLOCK_EVERY == 0:
                self._block()
            if i % every == 0:
                self.records.append(tuple(self.paths))

    # --- the WorldSet protocol ---------------------------------------------------------------
    def total(self) -> int:
        raise NotImplementedError("the chain estimates probabilities; it does not count")

    def count(self, fact: Fact) -> int:
        raise NotImplementedError("the chain estimates probabilities; it does not count")

    def _share(self, fact: Fact) -> float:
        """The share of records making `fact` true, for facts other than box and place."""
        cards = _cards_of(self.pos, fact)
        hits = sum(
            any(_makes(self.pos, fact, c, record[c]) for c in cards) for record in self.records
        )
        share = hits / len(self.records)
        return 1 - share if fact.negated else share

    def probability(self, fact: Fact) -> float:
        kind, _, rest = fact.var.partition(":")
        if kind == "box":
            share = sum(
                self._tally(self.pos.index[card], None)[self.pos.box] for card in fact.values
            ) / len(self.records)
        elif kind == "at":
            name, _, at = rest.partition("@")
            e = int(at)
            tally = self._tally(self.pos.index[name], e)
            hits = sum(ways for loc, ways in tally.items() if place(self.pos, loc) in fact.values)
            share = hits / len(self.records)
        else:
            return self._share(fact)
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
