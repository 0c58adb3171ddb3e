"""Blue Lion's sampled states: the tile pairs are a world of the Deduction, every consistent
pair assignment equally likely (solver.games.blue_lion: the toss is fair)."""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from itertools import pairwise

from engines import InformationSet, State
from engines.blue_lion import PAIRS, TILES, BlueLion, BlueLionState
from solver.deduction import Deduction, deduce
from solver.games.blue_lion import Pairs, events, pairs_of


def sample(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    pairs = pairs_of(world)
    base = _BLUE_LION_BASES.get(d)
    if base is None or not (d.info is info or d.info == info):
        base = _BLUE_LION_BASES[d] = _replayed(info, pairs)
    return base.with_pairs(pairs)


def sampler(info: InformationSet) -> Callable[[random.Random], State]:
    """Uniform draws among `worlds(info)`, each re-binding the backs of one replay."""
    listed = worlds(info)
    if not listed:
        deduce(info)  # raises Inconsistent, with the observations that conflict
    base = _replayed(info, listed[0])
    return lambda rng: base.with_pairs(rng.choice(listed))


LISTED = 2_000
"""The most consistent states `states` lists (each one a replay re-bound: about 0.1 ms)."""


def states(info: InformationSet) -> list[State] | None:
    """Every consistent state (one per pair assignment), when there are at most LISTED."""
    listed = worlds(info)
    if not listed:
        deduce(info)  # raises Inconsistent, with the observations that conflict
    if len(listed) > LISTED:
        return None
    base = _replayed(info, listed[0])
    return [base.with_pairs(pairs) for pairs in listed]


def worlds(info: InformationSet) -> list[Pairs]:
    """Every pair assignment showing each face seen, each flip the other face: the
    Deduction's worlds (with every observation on), listed without a solve."""
    shown = events(info)
    allowed: list[list[frozenset[str]]] = []
    for tile in TILES:
        faces = [face for _, face in shown.get(tile, ())]
        if any(a == b for a, b in pairwise(faces)):
            return []
        allowed.append([pair for pair in PAIRS if all(face in pair for face in faces)])
    found: list[Pairs] = []

    def place(i: int, chosen: list[frozenset[str]]) -> None:
        if i == len(TILES):
            found.append(dict(zip(TILES, chosen, strict=True)))
            return
        for pair in allowed[i]:
            if pair not in chosen:
                place(i + 1, [*chosen, pair])

    place(0, [])
    return found


def _replayed(info: InformationSet, pairs: Pairs) -> BlueLionState:
    game = BlueLion.of(info)
    return game.reconstruct(info, pairs)


_BLUE_LION_BASES: weakref.WeakKeyDictionary[Deduction, BlueLionState] = weakref.WeakKeyDictionary()
"""The replayed game of each live Deduction's information set: ISMCTS samples a world per
simulation, and re-binding the backs of one replay (`with_pairs`) is what replaying the whole
record again would give, at a tenth of its cost."""
