"""A Metropolis chain over consistent Alibi histories, for positions beyond exact counting.

The state is one consistent history (a trajectory per card). A move exchanges parts of
trajectories so that every hand size, pass count and box slot is kept by construction:

- *past*: two cards in the same hand at epoch e swap where they were up to e;
- *future*: two cards in the same hand at epoch e swap where they go from e on;
- *whole*: two cards swap whole trajectories (a box card only with a card of its own type);
- *rotate*: three cards rotate whole trajectories (the same rule for box cards);
- *rebox*: the box card of a type swaps whole trajectories with another card of that type
  that may be in the box.

Late in a game I have held most cards, so my knowledge pins most trajectories at some epochs,
and a partner drawn from all cards rarely fits: with 4 players in round 13, about three moves in
four proposed a trajectory my knowledge rules out. So partners are drawn where they fit. A past
or future move's partner is among the cards in the same hand at that epoch; half of these moves
take only a partner that my knowledge allows the same places over the part traded (its *kin*
there), and so do whole swaps and rotations over whole trajectories; a rebox partner is a card
that may be in the box. There, about one move in three is accepted instead of one in thirty,
and only the past and future moves drawn from the whole hand need their trajectories checked
against my knowledge.

Each move is its own inverse (a rotation's inverse is the rotation of the reversed triple, drawn
with the same probability; a partner is drawn from the same company, or kin, before and after
the move), so the proposal is symmetric; a move is accepted exactly when every
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

What the numbers are: the chain keeps `RECORDS` evenly spaced states per run. They are
correlated (consecutive records share most trajectories), so a probability is the share of
records making a fact true, and its error comes from batch means, with the spread between
runs when restarts made several (`solver.sampling.estimate_from_runs`). Restarts pool runs
with equal weight, which is biased when the runs sit in regions of different sizes; the error
bar then shows their disagreement, but a region no run reached is invisible to it, which is
why every estimate is labelled as one. A fact that is possible but that no record shows gets a
floor labelled "not reached", never 0%. A card's place now (`Holds`) moves between hands only
a few times per run late in a game, so its share of records is pulled toward the card's share
of possible places as far as those few moves tell little (`_shrunk`): the records alone were
overconfident (benchmarks/alibi.py measures the calibration).
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from engines.alibi import TYPES
from engines.alibi.observations import Answered, Laid, PassChosen
from solver.cpsat import Compiled
from solver.errors import NotCounted, SolverTimeout
from solver.games.alibi import witnesses
from solver.games.alibi.counting import Coordinates, Option, _literals, _makes, draw, layered
from solver.games.alibi.model import (
    BOX,
    AtVar,
    BoxVar,
    PassVar,
    SeenVar,
    at_var,
    box_var,
    paths_of,
    place,
    var_key,
    world_from,
)
from solver.games.alibi.position import Answer, Position, Trajectory
from solver.model import Fact, Model, Value, World
from solver.sampling import Estimate, estimate_from_runs

STEPS = 30_000
BLOCK = 10  # cards redrawn together by a block step
BOX_BLOCK = 4  # of them, at most this many that may be the box card of the block's type
BLOCK_EVERY = 3_000  # steps between block steps
BLOCK_PATHS = 1_024  # cards with more trajectories stay out of blocks (listing them costs)
LISTED = 512  # a card's trajectories are kept as a set up to this many
RECORDS = 1_500
MIN_RECORDS = 50  # a run cut short by a deadline keeps at least this many
CHECK_EVERY = 256  # steps between looks at the deadline (a step takes tens of microseconds)
MAX_RESTARTS = 6
RESTART_STEPS = 10_000
WALK_FIRST = 1_000  # moves walked from the first history CP-SAT finds for `deduce` (`walk`)
WALK_STEPS = 10_000  # the longest walk: each one after the first is twice as long, up to this
WALK_KEPT = 16  # histories a walk keeps for the refreshes after it, at most
HEAD, TAIL, KIN_HEAD, KIN_TAIL, SWAP, ROTATE, REBOX = range(7)
MOVES = (HEAD, TAIL, KIN_HEAD, KIN_TAIL, SWAP, ROTATE, REBOX, REBOX, REBOX)
"""The chain's moves, each as likely as its share here (`_propose`)."""
Column = tuple[np.ndarray, list[Trajectory]]
"""A card's trajectory in each record, as an index into its distinct trajectories (`_paths_of`)."""
PRIOR_WEIGHT = 4.0  # draws a location's prior share is worth against the records (`_shrunk`)


class HistoryChain:
    """Estimated probabilities from runs of the chain: correlated records of its states,
    evenly spaced, each probability with its error (`estimate`)."""

    exact = False
    witnesses_all = False

    def __init__(
        self,
        pos: Position,
        model: Model,
        start: list[Trajectory],
        seed: int = 0,
        steps: int = STEPS,
        deadline: float | None = None,
        carried: Carried | None = None,
        burn: int | None = None,
    ) -> None:
        """Runs of `steps` from `start`, the first `burn` of them (a fifth by default) not
        recorded; `carried` holds runs of records already consistent with `pos` (from the
        chain of the position before, `carry`), pooled first."""
        self.pos, self.model = pos, model
        self.deadline = deadline  # a caller's budget (time.monotonic): runs stop short there
        self.rng = random.Random(seed)
        self._random = self.rng.random
        self.paths = [tuple(path) for path in start]
        n_cards = len(self.paths)
        self._answers = pos.answers
        self._of_card = _answers_by_card(self._answers)
        counts = [pos.trajectory_count(c) for c in range(n_cards)]
        self._paths_ok = [  # listed where that is cheap; beyond, checked step by step
            pos.trajectory_set(c) if k <= LISTED else None for c, k in enumerate(counts)
        ]
        self._free = [c for c in range(n_cards) if counts[c] > 1]
        self._boxable = [
            [c for c in self._free if pos.kind[c] == k and pos.may_be_boxed(c)] for k in range(4)
        ]
        self._kin_before, self._kin_after, self._kin = _kinship(pos, self._free)
        self._alive = [[c for c in self._free if pos.last[c] >= e] for e in range(pos.epoch + 1)]
        self._boxed = [0] * 4
        self._find_boxed()
        self.records: list[tuple[Trajectory, ...]] = []
        self._starts: list[int] = []  # the first record of each run
        for run in carried.runs if carried is not None else ():
            self._starts.append(len(self.records))
            self.records += run
        self._columns: dict[int, Column] = {}
        self._carried_columns = carried.columns if carried is not None else {}
        self._estimates: dict[Fact, Estimate] = {}
        self._where: dict[tuple[int, int], np.ndarray] = {}
        self._places_at: dict[tuple[int, int], set[int]] = {}  # by card and epoch (`_places`)
        self._draws_at: dict[tuple[int, int], float] = {}  # by card and epoch (`_shrunk`)
        self._coordinates = Coordinates(pos)
        self._option_cache: dict[int, list[Option]] = {}
        self._blockable = [c for c in self._free if counts[c] <= BLOCK_PATHS]
        self._candidates = self._box_candidates()
        self._near = [self._near_candidates(k) for k in range(4)]
        self._ever_boxed = set(self._boxed) | set(carried.boxed if carried is not None else ())
        self.carried = len(self.records)  # records carried from the position before
        self.starts = 1
        self.accepted = self.proposed = 0
        self._fitted = False  # whether the move proposed last makes only allowed trajectories
        self._visited: list[dict[Trajectory, tuple[Trajectory, ...]]] | None = None  # `walk`
        self._walks = 0
        self._run(steps, burn)

    def _find_boxed(self) -> None:
        """Note the box card of each type in the current history."""
        for c, path in enumerate(self.paths):
            if path[0] == self.pos.box:
                self._boxed[self.pos.kind[c]] = c

    def _box_candidates(self) -> list[list[int]]:
        """Per type, the blockable cards of that type that may be in the box."""
        pos = self.pos
        return [
            [c for c in self._blockable if pos.kind[c] == k and pos.may_be_boxed(c)]
            for k in range(4)
        ]

    def _near_candidates(self, kind: int) -> list[int]:
        """The other blockable cards that share an answer with a box candidate of `kind`:
        they make up a box block's counts."""
        candidates = self._candidates[kind]
        return sorted(
            {
                c
                for box in candidates
                for a in self._of_card.get(box, ())
                for c in self._answers[a].cards
            }
            & set(self._blockable) - set(candidates)
        )

    def explore(self, compiled: Compiled) -> None:
        """Run on from a history CP-SAT finds with a box card no run has held, while some
        possible box card was never held (at most `MAX_RESTARTS` times). A run stuck in one
        region of histories would make its guesses look certain; these restarts reach the
        others. The pooled estimate weighs runs equally, not regions by their true size: it is
        biased, and its error bar includes the spread between runs to say so.

        The solves ask only about the box, whatever else the chain missed, so the same
        position always gets the same runs."""
        pos = self.pos
        while self.starts <= MAX_RESTARTS and not self._late():
            missing = [
                compiled.literal[key]
                for c in range(len(pos.ids))
                if c not in self._ever_boxed
                and pos.may_be_boxed(c)
                and (key := (box_var(TYPES[pos.kind[c]]), pos.ids[c])) not in compiled.impossible
            ]
            if not missing:
                return
            try:
                world, _ = compiled.solve(
                    None, missing, self.deadline, task="looking for other box cards", guided=True
                )
            except SolverTimeout:
                if self.deadline is None or not self._late():
                    raise
                return  # the budget ran out: act on the runs so far
            if world is None:
                return
            paths = paths_of(pos, world)
            witnesses.keep(pos, tuple(paths))
            self.restart(paths, RESTART_STEPS)

    def reached(self, world: World) -> set[tuple[str, Value]]:
        """A consistent world CP-SAT found (`deduce` finding what the records never showed):
        kept to witness the same facts at the next refresh (`witnesses`); returns the box and
        current-location literals of the histories a walk from it visits (`walk`). The first
        walk is short (WALK_FIRST moves) and each next one twice as long (up to WALK_STEPS):
        a position with few rare literals pays little for them, one with many (six players,
        late in the game: 18-23 solves of 70-80 ms at a round's first refresh) walks further."""
        paths = paths_of(self.pos, world)
        witnesses.keep(self.pos, tuple(paths))
        self._walks += 1
        return self.walk(paths, min(WALK_STEPS, WALK_FIRST << (self._walks - 1)))

    def walk(self, start: list[Trajectory], steps: int) -> set[tuple[str, Value]]:
        """The box and current-location literals of every history `steps` moves of the chain
        (and, on a long walk, one block step) visit from the consistent history `start`: each
        is consistent, so each literal is possible. CP-SAT finds a history where the records
        never were; its neighbours there are as rare in the records, and a walk witnesses them
        for a fraction of a solve each. A history that first showed a literal the records do
        not is kept (`witnesses`, at most WALK_KEPT a walk), so the refreshes after witness it
        too. The walk draws from its own generator (seeded by the start) and leaves the
        chain's records, state, box cards held (which `explore` restarts runs for: a walk
        records nothing) and generator as they were."""
        kept = self.paths, list(self._boxed), set(self._ever_boxed), self.rng, self._random
        walker = random.Random(repr(start))  # a str seeds the same on every machine
        self.rng, self._random = walker, walker.random
        self.paths = [tuple(path) for path in start]
        self._find_boxed()
        first = tuple(self.paths)
        self._visited = [{path: first} for path in self.paths]
        try:
            if steps >= WALK_STEPS:
                self._block()
            for i in range(steps):
                self._step()
                if i % CHECK_EVERY == 0 and self._late():
                    break  # a caller's budget: the solves decide the rest
            visited = self._visited
        finally:
            self.paths, self._boxed, self._ever_boxed, self.rng, self._random = kept
            self._visited = None
        known, found = self.witnessed(), set[tuple[str, Value]]()
        keeping: list[tuple[Trajectory, ...]] = []
        for card, paths in enumerate(visited):
            for path, history in paths.items():
                literals = _literals(self.pos, card, [path])
                if literals - known - found and history is not first:
                    keeping.append(history)
                found |= literals
        for history in list(dict.fromkeys(keeping))[:WALK_KEPT]:
            witnesses.keep(self.pos, history)
        return found

    def restart(self, start: list[Trajectory], steps: int) -> None:
        """Run on from another consistent history and pool the records."""
        self.paths = [tuple(path) for path in start]
        self._find_boxed()
        self._ever_boxed.update(self._boxed)
        self._columns.clear()
        self._estimates.clear()
        self._where.clear()
        self._draws_at.clear()
        self._run(steps)
        self.starts += 1

    def rerun(self, seed: int, steps: int = STEPS) -> HistoryChain:
        """Another chain on the same position, independent of this one's draws: a full run
        from this one's first record, with `seed`, then a restart from the first record of
        each later run whose box no earlier start held (so it reaches the same regions of
        histories without CP-SAT). Nothing is carried in or remembered: a judge
        values moves on it that were chosen on this chain's records, which would flatter
        them (the best of many estimates on one sample is biased up on that sample)."""
        starts: list[tuple[Trajectory, ...]] = []
        held: set[tuple[int, ...]] = set()
        for first in self._starts:
            record = self.records[first]
            boxed = tuple(c for c, path in enumerate(record) if path[0] == self.pos.box)
            if boxed not in held and len(starts) <= MAX_RESTARTS:
                held.add(boxed)
                starts.append(record)
        chain = HistoryChain(self.pos, self.model, list(starts[0]), seed=seed, steps=steps)
        for start in starts[1:]:
            chain.restart(list(start), RESTART_STEPS * steps // STEPS)
        return chain

    # --- the chain -------------------------------------------------------------------------
    def _propose(self) -> dict[int, Trajectory] | None:
        """The changed trajectories of a random move, or None when the move does not apply."""
        paths, free = self.paths, self._free
        if len(free) < 3:
            return None
        rnd = self._random  # int(rnd() * n) is uniform on range(n), and cheaper than randrange
        move = MOVES[int(rnd() * len(MOVES))]
        self._fitted = move not in (HEAD, TAIL)  # the other moves make only allowed trajectories
        if move == REBOX:  # the partner is uniform among the type's cards that may be boxed
            kind = int(rnd() * 4)  # (the box card itself among them: drawing it is a null move)
            boxed, others = self._boxed[kind], self._boxable[kind]
            if not others:
                return None
            partner = others[int(rnd() * len(others))]
            if partner == boxed or len(paths[partner]) != len(paths[boxed]):
                return None
            return {boxed: paths[partner], partner: paths[boxed]}
        if move <= KIN_TAIL:
            return self._crossover(move)
        a = free[int(rnd() * len(free))]  # its kin may take its trajectory, and it theirs
        kin = self._kin[a]  # a itself included: drawing it is a null move
        if move == ROTATE:  # rotate three whole trajectories
            if len(kin) < 3:
                return None
            i, j = int(rnd() * len(kin)), int(rnd() * (len(kin) - 1))
            b, c = kin[i], kin[j + (j >= i)]
            if a in (b, c):
                return None
            new = {a: paths[b], b: paths[c], c: paths[a]}
        else:
            b = kin[int(rnd() * len(kin))]
            if a == b:
                return None
            new = {a: paths[b], b: paths[a]}
        return new if self._box_types_kept(new) else None

    def _crossover(self, move: int) -> dict[int, Trajectory] | None:
        """Two cards in the same place at one epoch trade what came before it (HEAD) or
        from it on (TAIL): a uniform free card, a uniform epoch of its trajectory, and a
        uniform card of those in the same place then (itself included, as a null move), so
        the reverse move, from the same place with the same company, is as likely. The KIN
        moves draw the partner among the company that my knowledge allows the same places
        over the part traded, so the traded parts always fit."""
        rnd, paths = self._random, self.paths
        a = self._free[int(rnd() * len(self._free))]
        pa = paths[a]
        e = int(rnd() * len(pa))
        here = pa[e]
        if here == self.pos.box:
            return None
        if move >= KIN_HEAD:
            kin = self._kin_before if move == KIN_HEAD else self._kin_after
            mine = kin[a][e]
            company = [c for c in self._alive[e] if paths[c][e] == here and kin[c][e] == mine]
            move -= KIN_HEAD - HEAD
        else:
            company = [c for c in self._alive[e] if paths[c][e] == here]
        b = company[int(rnd() * len(company))]
        if b == a:
            return None
        pb = paths[b]
        if move == HEAD:
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
        if not self._fitted:
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
        visited = self._visited
        if visited is not None:  # on a walk: the history that first showed each path
            history = None
            for card, path in new.items():
                if path not in visited[card]:
                    history = history or tuple(self.paths)
                    visited[card][path] = history

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
        seconds = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        program = layered(targets, options, seconds=seconds)  # past the deadline: None
        if program is None:  # too many ways to fill the block (or no time): leave it
            return
        compact, _, back, _ = program
        self._move(dict(zip(block, draw(compact, back, self.rng), strict=True)))

    def _options(self, card: int) -> list[Option]:
        if card not in self._option_cache:
            self._option_cache[card] = self._coordinates.options(card)
        return self._option_cache[card]

    def _late(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _run(self, steps: int, burn: int | None = None) -> None:
        """`steps` steps, the first `burn` of them (a fifth by default) burn-in, keeping
        `RECORDS` evenly spaced states; past the deadline the run stops early (keeping at
        least `MIN_RECORDS`)."""
        burn = steps // 5 if burn is None else burn
        for i in range(burn):
            self._step()
            if i % BLOCK_EVERY == 0:
                self._block()
            if i % CHECK_EVERY == 0 and self._late():
                break
        every = max(1, (steps - burn) // RECORDS)
        first = len(self.records)
        self._starts.append(first)
        for i in range(steps - burn):
            self._step()
            if i % BLOCK_EVERY == 0:
                self._block()
            if i % every == 0:
                self.records.append(tuple(self.paths))
                if len(self.records) - first >= MIN_RECORDS and self._late():
                    break

    # --- the WorldSet protocol ---------------------------------------------------------------
    def total(self) -> int:
        raise NotCounted(
            "alibi: this position's probabilities are estimated (d.exact is False), so there "
            "are no exact counts; use d.probability or d.estimate"
        )

    def count(self, fact: Fact) -> int:
        raise NotCounted(
            "alibi: this position's probabilities are estimated (d.exact is False), so there "
            "are no exact counts; use d.probability or d.estimate"
        )

    def probability(self, fact: Fact) -> float:
        """The estimated chance of a fact that is possible and not certain; never 0 or 1 (see
        `estimate`)."""
        return self.estimate(fact).value

    def estimate(self, fact: Fact) -> Estimate:
        """The share of records making `fact` true, with its batch-means error, for a fact
        that is possible and not certain (a fact no record shows gets a labelled floor)."""
        if fact not in self._estimates:
            hits = np.zeros(len(self.records), dtype=bool)
            for card in _cards_of(self.pos, fact):
                hits |= self._makes(fact, card)
            found = estimate_from_runs(~hits if fact.negated else hits, self._starts)
            self._estimates[fact] = self._shrunk(fact, found)
        return self._estimates[fact]

    def _shrunk(self, fact: Fact, found: Estimate) -> Estimate:
        """A location fact's share of records pulled toward the share of the card's possible
        places it names, as far as the records tell little: a posterior mean under a prior
        worth `PRIOR_WEIGHT` draws, the records worth about one draw per two changes of the
        card's place in them (`_draws`). Late in a game the chain moves a card between hands
        only a few times per run, or never, so the share alone is overconfident (estimates of
        85% came true 60% of the time); pulled, they are calibrated, and the error bar grows
        to match. A pulled estimate is no longer a floor or a ceiling: it counts as reached.
        InBox estimates are left as they are: the box moves often enough to be calibrated."""
        key = var_key(fact.var)
        if not isinstance(key, AtVar):
            return found
        card, epoch = self.pos.index[key.card], key.epoch
        places = self._places(card, epoch)
        named = {_location(self.pos, v) for v in fact.values} & places
        share = len(named) / len(places) if places else found.value
        if fact.negated:
            share = 1 - share
        if (card, epoch) not in self._draws_at:
            codes, _ = self._paths_of(card)
            self._draws_at[(card, epoch)] = _draws(
                self._locations(card, epoch)[codes], self._starts
            )
        draws = self._draws_at[(card, epoch)]
        if draws >= len(self.records):
            return found
        weight = PRIOR_WEIGHT
        value = (draws * found.value + weight * share) / (draws + weight)
        error = max(found.error, (value * (1 - value) / (draws + weight + 1)) ** 0.5)
        return replace(found, value=value, error=error, reached=True, effective_size=draws + weight)

    def _places(self, card: int, epoch: int) -> set[int]:
        """Where `card` may be at `epoch` by my knowledge and the passing rule alone."""
        key, pos = (card, epoch), self.pos
        if key not in self._places_at:
            here = set(pos.steps(card, 0, None))
            for e in range(1, epoch + 1):
                here = {nxt for loc in here for nxt in pos.steps(card, e, loc)}
            self._places_at[key] = here | ({pos.box} if pos.may_be_boxed(card) else set())
        return self._places_at[key]

    def _makes(self, fact: Fact, card: int) -> np.ndarray:
        """Whether each record's trajectory of `card` makes the un-negated `fact` true."""
        codes, paths = self._paths_of(card)
        match var_key(fact.var):  # most facts: one vectorised lookup of a location
            case BoxVar():
                table = np.isin(self._locations(card, 0), [self.pos.box])
            case AtVar(epoch=epoch):
                wanted = [_location(self.pos, v) for v in fact.values]
                table = np.isin(self._locations(card, epoch), wanted)
            case PassVar() | SeenVar():
                table = np.array([_makes(self.pos, fact, card, path) for path in paths], dtype=bool)
        return table[codes]

    def _locations(self, card: int, epoch: int) -> np.ndarray:
        """Where each of `card`'s distinct recorded trajectories is at `epoch` (-1: laid)."""
        key = (card, epoch)
        if key not in self._where:
            paths = self._paths_of(card)[1]
            found = [path[epoch] if len(path) > epoch else -1 for path in paths]
            self._where[key] = np.array(found, dtype=np.int64)
        return self._where[key]

    def _paths_of(self, card: int) -> tuple[np.ndarray, list[Trajectory]]:
        """`card`'s trajectory in each record, as an index into its distinct trajectories.
        A record shares the tuple of every card that did not move since the record before, so
        tuples are told apart by identity (the records keep them alive): C-speed, and two
        equal tuples that are different objects only cost a duplicate entry. The carried
        records' part comes read from the chain before (`Carried.columns`)."""
        if card not in self._columns:
            carried = self._carried_columns.get(card)
            start = 0 if carried is None else self.carried
            column = list(map(itemgetter(card), self.records[start:]))
            ids = np.fromiter(map(id, column), dtype=np.int64, count=len(column))
            _, first, codes = np.unique(ids, return_index=True, return_inverse=True)
            paths = [column[i] for i in first]
            if carried is not None:  # the carried records' column, read by the chain before
                carried_codes, carried_paths = carried
                codes = np.concatenate((carried_codes, codes + len(carried_paths)))
                paths = carried_paths + paths
            self._columns[card] = codes, paths
        return self._columns[card]

    def sample(self, n: int, rng: random.Random) -> list[World]:
        """`n` records drawn uniformly with replacement (see `Deduction.sample`)."""
        return [world_from(self.pos, self.sample_paths(rng), self.model) for _ in range(n)]

    def sample_paths(self, rng: random.Random) -> list[Trajectory]:
        """One record's trajectories, drawn uniformly from the records."""
        return list(rng.choice(self.records))

    def as_carried(self) -> Carried:
        """All the records and every box card a run held, for another refresh of the same
        position (which needs no `carry` check)."""
        every = np.arange(len(self.records))
        return Carried([self.records], frozenset(self._ever_boxed), self.columns_of(every))

    def columns_of(self, rows: np.ndarray) -> dict[int, Column]:
        """The columns already read (`_paths_of`), restricted to the records `rows`, in that
        order: the trajectories none of them holds are dropped (they may not fit the next
        position, and a column's trajectories are what its records hold)."""
        found = {}
        for card, (codes, paths) in self._columns.items():
            if len(codes) != len(self.records):
                continue  # read before records were added: read again where needed
            used, inverse = np.unique(codes[rows], return_inverse=True)
            found[card] = inverse.reshape(-1), [paths[k] for k in used]
        return found

    def witnessed(self) -> set[tuple[str, Value]]:
        """The box and current-location literals of the records, of every box card a run
        held, and of the histories kept from earlier refreshes that still fit."""
        pos = self.pos
        found: set[tuple[str, Value]] = set()
        for c, card in enumerate(pos.ids):
            if pos.box in self._locations(c, 0):
                found.add((box_var(TYPES[pos.kind[c]]), card))
            now = at_var(card, pos.epoch)
            found.update(
                (now, place(pos, int(loc)))
                for loc in np.unique(self._locations(c, pos.epoch))
                if loc >= 0
            )
        for c in self._ever_boxed:
            found.add((box_var(TYPES[pos.kind[c]]), pos.ids[c]))
        for history in witnesses.kept(pos):
            for c, path in enumerate(history):
                found |= _literals(pos, c, [path])
        return found


CARRIED_ENOUGH = 300
"""With at least this many records carried from the position before, a refresh runs the
chain for `CARRIED_STEPS` only, from the last carried record and with no burn-in: the carried
records already follow the new posterior, and so does the run's start."""
CARRIED_STEPS = STEPS // 3 - STEPS // 15  # as many records, as far apart, as a third of STEPS
CARRIED_RUN = 50  # a carried run keeps its records only if this many still fit
CARRIED_KEPT = 500
"""A carried run keeps at most about this many records, evenly spaced (`carry`). Runs are
weighed equally whatever their length, and a run's neighbouring records are a few steps
apart, so thinning a long run loses little of what it tells; without it, the records of a
round pile up (a run more each refresh: 10,000-13,000 by a round's end with 4 players) and
every refresh pays for all of them."""

_LAST: OrderedDict[tuple, HistoryChain] = OrderedDict()
"""The last chain of each of the last few seats' games (a module cache, oldest first, guarded
by `_LAST_LOCK`; a chain is only read once made, but for its memoised columns and estimates,
which any reader may fill)."""
_LAST_LOCK = threading.Lock()
LAST_KEPT = 8


def previous(pos: Position) -> HistoryChain | None:
    """The chain of the last position of this seat's game that `pos` continues, if kept."""
    with _LAST_LOCK:
        found = _LAST.get(witnesses.game_key(pos.info))
    if found is None:
        return None
    before, now = found.pos.info.observations, pos.info.observations
    return found if now[: len(before)] == before else None


def remember(chain: HistoryChain) -> None:
    key = witnesses.game_key(chain.pos.info)
    with _LAST_LOCK:
        _LAST[key] = chain
        _LAST.move_to_end(key)
        while len(_LAST) > LAST_KEPT:
            _LAST.popitem(last=False)


def forget() -> None:
    """Drop every kept chain (benchmarks measure refreshes with nothing kept)."""
    with _LAST_LOCK:
        _LAST.clear()


Kinship = list[list[int]]


def _kinship(pos: Position, free: list[int]) -> tuple[Kinship, Kinship, dict[int, list[int]]]:
    """What my knowledge allows each free card, as numbers two cards share when it allows
    them the same: per card and epoch, over the epochs up to it (`before`) and from it on to
    the card's last epoch (`after`); and per card, the free cards allowed the same
    trajectories as it (itself included). Two cards in the same place at an epoch may trade
    what came before it when they share `before` there, what comes after when they share
    `after`, and whole trajectories when they are kin (one `Position.signature`): each fits
    the other's constraints."""
    numbers: dict[tuple, int] = {}
    before: Kinship = [[] for _ in pos.ids]
    after: Kinship = [[] for _ in pos.ids]
    kin: dict[tuple, list[int]] = defaultdict(list)
    kin_of: dict[int, list[int]] = {}
    for card in free:
        allowed = tuple(pos.allowed(card, e) for e in range(pos.last[card] + 1))
        epochs = range(len(allowed))
        before[card] = [numbers.setdefault(allowed[: e + 1], len(numbers)) for e in epochs]
        after[card] = [numbers.setdefault(allowed[e:], len(numbers)) for e in epochs]
        kin_of[card] = kin[pos.signature(card)]  # the list the card's kin are added to
        kin_of[card].append(card)
    return before, after, kin_of


def _answers_by_card(answers: Sequence[Answer]) -> dict[int, list[int]]:
    """The indices of the answers that mention each card."""
    of_card: dict[int, list[int]] = defaultdict(list)
    for k, answer in enumerate(answers):
        for c in answer.cards:
            of_card[c].append(k)
    return of_card


class Carried(NamedTuple):
    """What a chain hands on to the next position (`carry`): runs of its records that fit it,
    the cards some fitting record has in the box, and the cards' columns over those records
    (`HistoryChain._paths_of`) where the chain had read them, so that only the next chain's
    own records are read again."""

    runs: list[list[tuple[Trajectory, ...]]]
    boxed: frozenset[int]
    columns: Mapping[int, Column] = MappingProxyType({})


def carry(chain: HistoryChain, pos: Position) -> Carried | None:
    """The records of `chain` (of an earlier position of the same epoch) that are consistent
    with `pos`, run by run (each thinned to about `CARRIED_KEPT`), and the box cards of all
    that fit; or None when `pos` adds more than answers and sets.

    Records were consistent with the earlier position, so only what the new observations add
    needs checking: each new answer's count, and each newly laid card in its layer's hand.
    Records drawn from the earlier posterior that satisfy these are drawn from the new one
    (the posterior is the earlier one restricted to them), so they can be pooled."""
    before = chain.pos
    if before.epoch != pos.epoch or before.players != pos.players:
        return None
    start = len(before.info.observations)
    if any(not isinstance(o, Answered | Laid | PassChosen) for o in pos.info.observations[start:]):
        return None
    fits = np.ones(len(chain.records), dtype=bool)
    for card, (seat, epoch, source) in pos.laid_by.items():
        if source >= start:
            fits &= chain._locations(card, epoch)[chain._paths_of(card)[0]] == seat
    for answer in pos.answers:
        if answer.source < start:
            continue
        counted = np.zeros(len(chain.records), dtype=np.int64)
        for card in answer.cards:
            codes, paths = chain._paths_of(card)
            table = np.array([pos.counted(answer, path) for path in paths], dtype=np.int64)
            counted += table[codes]
        fits &= counted == answer.value
    runs, kept = [], []
    for a, b in pairwise([*chain._starts, len(chain.records)]):
        rows = np.flatnonzero(fits[a:b]) + a
        if len(rows) >= CARRIED_RUN:
            rows = rows[:: -(-len(rows) // CARRIED_KEPT)]
            runs.append([chain.records[i] for i in rows])
            kept.append(rows)
    boxed = frozenset(
        c
        for c in range(len(pos.ids))
        if pos.may_be_boxed(c)
        and (fits & (chain._locations(c, 0)[chain._paths_of(c)[0]] == pos.box)).any()
    )
    rows = np.concatenate(kept) if kept else np.zeros(0, dtype=np.int64)
    return Carried(runs, boxed, chain.columns_of(rows))


def _draws(states: np.ndarray, starts: Sequence[int]) -> float:
    """How many independent draws records of a slowly changing location are worth: one held
    for long stretches is worth about one draw per two changes (within a run), scaled by how
    evenly the records spread over the places (at least one draw, at most one per record)."""
    changes = 0
    for a, b in pairwise([*starts, len(states)]):
        changes += int(np.count_nonzero(states[a + 1 : b] != states[a : b - 1]))
    counts = np.bincount(states + 1)  # location codes, -1 (laid) and up
    spread = 1.0 - float(((counts / len(states)) ** 2).sum())
    if spread <= 0.0:
        return 1.0  # the card never moved: the records tell no more than their start
    return float(min(len(states), max(1.0, changes / (2 * spread))))


def _cards_of(pos: Position, fact: Fact) -> list[int]:
    """The cards whose trajectories decide `fact`."""
    match var_key(fact.var):
        case BoxVar():
            return [pos.index[card_id(card)] for card in fact.values]
        case AtVar(card=card) | PassVar(card=card) | SeenVar(card=card):
            return [pos.index[card]]


def _location(pos: Position, value: Value) -> int:
    """A model value of a place (a seat, or "box") as a location code (the inverse of `place`)."""
    if value == BOX:
        return pos.box
    assert isinstance(value, int), value
    return value


def card_id(value: Value) -> str:
    """A fact's value or argument that names a card (facts keep values as plain hashables)."""
    assert isinstance(value, str), value
    return value
