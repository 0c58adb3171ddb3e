"""Alibi hints along whole games: explanations stay right when they are remembered from an
earlier position, and the estimate never gives 0% to a card that can be in the box."""

from __future__ import annotations

import random

import engines
import solver
from engines.alibi import Accuse
from solver.games.alibi import advice
from tests.test_alibi_solver import assert_forces_minimally

GAME = engines.make("alibi", players=3, deck="small")


def positions_of_one_seat(seed: int, steps: int = 60) -> list:
    """Seat 0's information sets along one random game without accusations, in order."""
    rng, state = random.Random(seed), GAME.new_game(seed)
    found = []
    for _ in range(steps):
        if state.is_over:
            break
        found.append(state.information_set(0))
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    return found


def test_remembered_explanations_still_force_their_fact_and_are_minimal() -> None:
    advice._EXPLAINED.clear()
    remembered_count = verified = 0
    for seed in range(2):
        for info in positions_of_one_seat(seed)[::3]:
            d = solver.deduce(info)
            decided = [
                f
                for f in d.facts
                if f.kind in ("InBox", "BoxGroup")
                if d.is_certain(f) or not d.possible(f)
            ]
            for fact in decided:
                target = fact if d.is_certain(fact) else ~fact
                remembered = (info.game, info.options, info.seat, target) in advice._EXPLAINED
                core = advice.explain(d, target)
                remembered_count += remembered
                if not remembered or remembered_count % 3:  # every third, to keep it quick
                    continue
                assert_forces_minimally(d, core, target)
                verified += 1
    assert verified > 20


def test_every_possible_box_card_gets_a_probability_above_zero() -> None:
    for seed in (11, 12):
        for info in positions_of_one_seat(seed, steps=80)[::8]:
            d = solver.deduce(info)
            for fact in d.facts:
                if fact.kind == "InBox" and d.possible(fact):
                    assert d.probability(fact) > 0, fact
