"""Blue Lion's sampled states: the tile pairs are a world of the Deduction."""

from __future__ import annotations

import random
import weakref

from engines import InformationSet, State
from engines.blue_lion import BlueLion, BlueLionState
from solver.deduction import Deduction
from solver.games.blue_lion import pairs_of
from solver.states import game_of


def sample(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    pairs = pairs_of(world)
    base = _BLUE_LION_BASES.get(d)
    if base is None or not (d.info is info or d.info == info):
        game = game_of(info)
        assert isinstance(game, BlueLion)
        base = _BLUE_LION_BASES[d] = game.reconstruct(info, pairs)
    return base.with_pairs(pairs)


_BLUE_LION_BASES: weakref.WeakKeyDictionary[Deduction, BlueLionState] = weakref.WeakKeyDictionary()
"""The replayed game of each live Deduction's information set: ISMCTS samples a world per
simulation, and re-binding the backs of one replay (`with_pairs`) is what replaying the whole
record again would give, at a tenth of its cost."""
