"""Serial Killer's finish: once the rivals have stopped drawing (or have all declared, or the
final round has begun), the seat plans the rest of the game itself.

What is left to buy is a short list of sources: the lab, each rival's hand, the cards still
in each deck and the weapon dice the track still needs. A plan is a set of them; its value
is `J = right x roll`: the chance the profile is right once they are seen (per genre, the
candidates less those the looks are expected to rule out and those the draws certainly do)
times the exact chance of out-rolling the ferocity the declaration will face. The decks must
be emptied when a rival who will never declare is left (else nobody can end the game); the
last draw starts the final round, where the declaration faces ferocity with no further rise
and needs no buy-free round. Each pick buys the legal action whose remaining plan is worth
most, or passes when waiting a round is worth more. The dice a plan needs come from this
round's pool first, then from a typical pool a round, and from the round after ferocity
reaches the points left every buy pays the caught surcharge (so a plan bought this round is
cheaper than the same plan spread over rounds). The best plan is found among every set of
sources when they are few, else by a local search, so the work is bounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import combinations, product
from math import prod
from typing import TypeAlias

from engines import Action
from engines.serial_killer import actions as act
from solver.games.serial_killer.counting import CountedWorlds, at_var
from solver.games.serial_killer.race import roll_chance

GROWTH = 8
"""About how much ferocity grows in a round (a tenth of the unbought dice, the hunted bonus
most rounds)."""
TYPICAL_POOL = (2, 2, 2, 2, 2, 2)
"""The dice a later round is counted on to offer the seat (15 dice, some bought by others);
a draw takes the cheapest face left (a 3, else a 4, 5 or 6)."""
MAX_ROUNDS = 6
"""The rounds a plan may take (ferocity outgrows any longer one)."""
EXHAUSTIVE = 4096
"""Plans (sets of looks times draw counts) tried one by one when there are at most this
many; beyond, a local search (Finish._local_search)."""
FACE = {"weapon": 1, "move": 2, "brief": 4, "lab": 6}
DRAW_FACES = (3, 4, 5, 6)
"""A draw takes a 3, else a 4, 5 or 6 standing in (the substitution rule)."""
Costs: TypeAlias = dict[tuple[object, ...], tuple[int, int]]
"""A memo of `Finish.cost` within one search: (points, rounds) by the looks, the number of
moves and the number of draws."""


@dataclass(frozen=True)
class Look:
    """A briefing or a lab view still to buy: the expected number of candidates it rules out
    per genre, and the die and points it takes (the move to the target's district apart)."""

    kind: str  # "brief" or "lab"
    key: int | None  # the briefed seat, or None for the lab
    found: dict[str, float]
    cost: int
    where: int | None  # the district the seat must stand in (briefing), else None


@dataclass(frozen=True)
class Finish:
    """The rest of the game as the seat sees it: what is left to buy and what it has."""

    candidates: dict[str, int]  # genre -> candidates left
    deck_left: dict[str, int]  # genre -> drawable cards left
    deck_district: dict[str, int]
    looks: tuple[Look, ...]
    weapons: int  # weapon dice the track still needs
    points: int
    ferocity: int
    pool: tuple[int, ...]
    pawn: int | None
    dice_base: int
    per_die: int
    surcharge: int  # what a buy costs extra this round (the seat is caught)
    penalty: int  # what a buy costs extra once caught: from the round after F reaches P
    final: bool  # the final round: the declaration comes at this round's end
    declare_chance: float  # that the seat's declaration is judged without the decks emptied
    # (1 once every rival has declared, or when the collective loss reveals the declarations;
    # else the chance the rivals still succeed in theirs)
    eligible: bool  # the seat may still declare at this round's end (bought nothing)

    # --- value of a plan --------------------------------------------------------------------
    def roll(self, points: int, ferocity: int) -> float:
        if points < 0:
            return 0.0
        return roll_chance(self.dice_base + points // self.per_die, ferocity)

    def right(self, looks: Iterable[Look], draws: dict[str, int]) -> float:
        chosen = list(looks)
        chance = 1.0
        for genre, k in self.candidates.items():
            found = sum(look.found.get(genre, 0.0) for look in chosen) + draws.get(genre, 0)
            chance /= max(k - found, 1.0)
        return chance

    def cost(
        self, looks: list[Look], draws: dict[str, int], costs: Costs | None = None
    ) -> tuple[int, int]:
        """(points, rounds) to buy `looks`, the weapon dice and `draws`, looks first: this
        round's pool, then a typical pool a round; from the round after ferocity (grown
        GROWTH a round) reaches the points left, every buy pays the caught surcharge.
        `costs` keeps the answers of one search: they depend only on the looks, the number
        of moves and the number of draws."""
        visits = {look.where for look in looks if look.where is not None}
        visits |= {self.deck_district[g] for g, n in draws.items() if n}
        if self.pawn is not None:
            visits.discard(self.pawn)
        key = (tuple(map(id, looks)), len(visits), sum(draws.values()))
        if costs is not None and key in costs:
            return costs[key]
        found = self._cost(looks, len(visits), sum(draws.values()))
        if costs is not None:
            costs[key] = found
        return found

    def _cost(self, looks: list[Look], moves: int, drawn: int) -> tuple[int, int]:
        # each buy: the faces it may take, cheapest first, and its price (None: the face's)
        needs: list[tuple[tuple[int, ...], int | None]] = [((FACE["weapon"],), 1)] * self.weapons
        needs += [((FACE["move"],), 2)] * moves
        needs += [((FACE[look.kind],), look.cost) for look in looks]
        needs += [(DRAW_FACES, None)] * drawn
        pool, points, rounds, surcharge = list(self.pool), 0, 1, self.surcharge
        for faces, price in needs:
            while True:
                face = self._take(pool, faces)
                if face is not None:
                    points += (face if price is None else price) + surcharge
                    break
                rounds, pool = rounds + 1, list(TYPICAL_POOL)
                if self.ferocity + GROWTH * (rounds - 1) >= self.points - points:
                    surcharge = self.penalty
                if rounds > MAX_ROUNDS:
                    return 10**6, rounds
        return points, rounds

    @staticmethod
    def _take(pool: list[int], faces: tuple[int, ...]) -> int | None:
        """The first of `faces` left in `pool` (removed), or None when none is."""
        for face in faces:
            if pool[face - 1]:
                pool[face - 1] -= 1
                return face
        return None

    def plan_value(
        self, looks: list[Look], draws: dict[str, int], costs: Costs | None = None
    ) -> float:
        """J of buying `looks` and `draws` and then declaring: at the final round's end when
        the draws empty the decks (ferocity as it will be then), else in the round after the
        last buy, judged only with the chance the rivals end the game (declare_chance).
        `costs`: a memo of Finish.cost shared by one search."""
        points, rounds = self.cost(looks, draws, costs)
        if points > self.points:
            return 0.0
        drawn = sum(draws.values())
        remaining = sum(self.deck_left.values())
        judged = 1.0
        if self.final:
            if rounds > 1 or self.weapons:
                return 0.0
            ferocity = self.ferocity
        elif drawn == remaining and remaining:
            ferocity = self.ferocity + GROWTH * (rounds - 1)
        elif self.declare_chance > 0:
            judged = self.declare_chance
            if not looks and not drawn and not self.weapons:
                ferocity = self.ferocity if self.eligible else self.ferocity + GROWTH
            else:
                ferocity = self.ferocity + GROWTH * rounds
        else:
            return 0.0
        return judged * self.right(looks, draws) * self.roll(self.points - points, ferocity)

    def best(self) -> float:
        """The best plan's J: the drain (every draw, with whichever looks are worth their
        points) and, when the seat's declaration ends the game, any plan of looks and
        draws (_best_partial)."""
        costs: Costs = {}
        value = max(
            self.plan_value(list(looks), self.deck_left, costs) for looks in _subsets(self.looks)
        )
        if self.declare_chance > 0 and not self.final:
            value = max(value, self._best_partial(costs))
        return value

    def _best_partial(self, costs: Costs) -> float:
        """The best plan of looks and some draws: every combination when there are at most
        EXHAUSTIVE, else a local search. No genre is drawn beyond its candidates less one
        (a further card rules nothing out); the drain is the plan that draws them all."""
        caps = {g: min(n, max(self.candidates[g] - 1, 0)) for g, n in self.deck_left.items()}
        genres = [g for g, cap in caps.items() if cap]
        if 2 ** len(self.looks) * prod(caps[g] + 1 for g in genres) > EXHAUSTIVE:
            return self._local_search({g: caps[g] for g in genres}, costs)
        return max(
            self.plan_value(list(looks), dict(zip(genres, counts, strict=True)), costs)
            for looks in _subsets(self.looks)
            for counts in product(*(range(caps[g] + 1) for g in genres))
        )

    def _local_search(self, caps: dict[str, int], costs: Costs) -> float:
        """From the empty plan, the best single or paired change (a look added or dropped, a
        genre's draws set to another count) while one improves J: a plan whose first step
        alone does not pay (a move to a deck, then its draws) is still found."""
        looks: tuple[Look, ...] = ()
        draws = {g: 0 for g in caps}
        best = self.plan_value([], draws, costs)
        while True:
            near = list(self._changes(looks, draws, caps))
            near += [pair for a, b in list(near) for pair in self._changes(a, b, caps)]
            value, looks_after, draws_after = max(
                ((self.plan_value(list(a), b, costs), a, b) for a, b in near),
                key=lambda scored: scored[0],
                default=(best, looks, draws),
            )
            if value <= best:
                return best
            best, looks, draws = value, looks_after, draws_after

    def _changes(
        self, looks: tuple[Look, ...], draws: dict[str, int], caps: dict[str, int]
    ) -> Iterator[tuple[tuple[Look, ...], dict[str, int]]]:
        """The plans one change away from (looks, draws); looks keep their order in
        self.looks, so a set of looks is always costed the same way."""
        for look in self.looks:
            chosen = {id(x) for x in looks} ^ {id(look)}
            yield tuple(x for x in self.looks if id(x) in chosen), draws
        for genre, n in draws.items():
            for m in range(caps[genre] + 1):
                if m != n:
                    yield looks, {**draws, genre: m}

    # --- the position after one buy -------------------------------------------------------
    def after(self, action: Action, cost: int) -> Finish | None:
        """The finish once `action` is bought at `cost` (None: it does nothing for it)."""
        pool = list(self.pool)
        face = act.face_of(action)
        if face is None:
            return None  # no buy
        pool[face - 1] -= 1
        base = replace(self, points=self.points - cost, pool=tuple(pool), eligible=False)
        if isinstance(action, act.Weapon):
            if not self.weapons:
                return None
            return replace(base, weapons=self.weapons - 1)
        if isinstance(action, act.Move):
            return replace(base, pawn=action.district)
        if isinstance(action, act.Investigate):
            genre = next(g for g, d in self.deck_district.items() if d == self.pawn)
            left = {**self.deck_left, genre: self.deck_left[genre] - 1}
            k = {**self.candidates, genre: max(self.candidates[genre] - 1, 1)}
            final = self.final or not sum(left.values())
            return replace(base, deck_left=left, candidates=k, final=final)
        if isinstance(action, act.Briefing | act.Lab):
            kind = "brief" if isinstance(action, act.Briefing) else "lab"
            key = action.target if isinstance(action, act.Briefing) else None
            rest = tuple(look for look in self.looks if (look.kind, look.key) != (kind, key))
            if len(rest) == len(self.looks):
                return None
            return replace(base, looks=rest, candidates=self._seen(action, self.looks))
        return None

    def _seen(self, action: Action, looks: tuple[Look, ...]) -> dict[str, int]:
        """Candidates after the look `action` (its expected finds, rounded down)."""
        kind = "brief" if isinstance(action, act.Briefing) else "lab"
        key = action.target if isinstance(action, act.Briefing) else None
        look = next(look for look in looks if (look.kind, look.key) == (kind, key))
        return {
            g: max(k - int(look.found.get(g, 0.0) + 0.5), 1) for g, k in self.candidates.items()
        }

    def waited(self) -> Finish:
        """The finish a round later: ferocity grown (the seat caught once it reaches the
        points), a fresh (typical) pool, eligible again."""
        ferocity = self.ferocity + GROWTH
        surcharge = self.penalty if ferocity >= self.points else self.surcharge
        return replace(
            self,
            ferocity=ferocity,
            pool=TYPICAL_POOL,
            eligible=True,
            final=False,
            surcharge=surcharge,
        )


def _subsets(looks: tuple[Look, ...]) -> Iterator[tuple[Look, ...]]:
    """Every set of `looks`, each in their order."""
    for size in range(len(looks) + 1):
        yield from combinations(looks, size)


def found_at(
    worlds: CountedWorlds, candidates: dict[str, list[str]], places: list[str]
) -> dict[str, float]:
    """Per genre, the expected number of candidates that lie at `places` (a look there rules
    them out)."""
    found: dict[str, float] = {}
    for genre, cards in candidates.items():
        if len(cards) <= 1:
            continue
        expected = 0.0
        for card in cards:
            inside, total = worlds.genre_count(at_var(card), frozenset(places))
            expected += inside / total if total else 0.0
        if expected > 1e-9:
            found[genre] = expected
    return found


def value_of(finish: Finish, action: Action, cost: int) -> float:
    """J of the best plan once `action` is bought (0 when it serves no plan)."""
    if finish.points < cost:
        return 0.0
    after = finish.after(action, cost)
    if after is None:
        return 0.0
    if after.final and not finish.final:
        return after.best() if not after.weapons else 0.0
    return after.best()


def pass_value(finish: Finish) -> float:
    """J of passing: the declaration now (the final round, or eligible with every rival
    declared), or the best plan a round later."""
    now = finish.right([], {}) * finish.roll(finish.points, finish.ferocity)
    if finish.final:
        return now
    later = finish.waited().best()
    if finish.eligible and not finish.weapons:
        return max(now * finish.declare_chance, later)
    return later
