"""Serial Killer's knowledge model against a model-free brute force, and its parts."""

from __future__ import annotations

import random
from itertools import product

import pytest

import engines
import solver
from engines import IncompleteInformationSet, InformationSet, InvalidInformationSet, Observation
from solver.games.serial_killer import world_of
from solver.games.serial_killer.counting import CountedWorlds
from solver.games.serial_killer.hinting import seen_because
from solver.games.serial_killer.position import parse
from solver.games.serial_killer.race import own_candidates, progress, roll_chance
from tests.serial_killer_brute_force import fact_counts, positions

POSITIONS = 45  # the benchmark checks 300 and more (benchmarks/serial_killer.py --exact)


def test_matches_the_brute_force() -> None:
    """certain, possible and every probability equal the brute force's, over positions that
    include others' overflow discards and briefings and lab views after them."""
    with_discards = 0
    for info in positions(POSITIONS, seed=7):
        total, counts = fact_counts(info)
        deduction = solver.deduce(info)
        assert deduction.exact and total > 0
        with_discards += any(
            obs.kind == "lab_place" and obs["seat"] != info.seat for obs in info.observations
        )
        for fact in deduction.facts:
            k = counts.get((fact.kind, *fact.args), 0)
            assert deduction.possible(fact) == (k > 0), fact
            assert deduction.is_certain(fact) == (k == total), fact
            assert deduction.probability(fact) == pytest.approx(k / total, abs=1e-12), fact
    assert with_discards >= 5


def test_the_truth_is_always_possible_and_samples_are_consistent() -> None:
    game = engines.make("serial-killer", players=4)
    state = game.new_game(11)
    rng = random.Random(11)
    for step in range(120):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
        if step % 30 == 29:
            info = state.information_set(step % 4)
            deduction = solver.deduce(info)
            for fact in deduction.facts:
                if fact.holds(state):
                    assert deduction.possible(fact), fact
            model = deduction.model
            assert model.consistent(world_of(state))
            for world in deduction.sample(5, seed=step):
                assert model.consistent(world)


def test_profile_chances_are_one_over_the_candidates() -> None:
    info = next(positions(1, seed=3))
    deduction = solver.deduce(info)
    pos = parse(info)
    for genre, cards in own_candidates(pos).items():
        for fact in deduction.facts:
            if fact.kind == "Profile" and fact.args[0] == genre:
                expected = 1 / len(cards) if fact.args[1] in cards else 0.0
                assert deduction.probability(fact) == pytest.approx(expected)


def test_roll_odds_are_exact() -> None:
    for dice, ferocity in ((1, 4), (2, 7), (3, 12), (3, 19)):
        rolls = list(product(range(1, 7), repeat=dice))
        assert roll_chance(dice, ferocity) == sum(sum(r) >= ferocity for r in rolls) / len(rolls)


def test_opponents_progress_counts_what_they_saw() -> None:
    for info in positions(20, seed=5):
        pos = parse(info)
        deduction = solver.deduce(info)
        worlds = deduction.worlds
        assert isinstance(worlds, CountedWorlds)
        mine = progress(pos, worlds, pos.seat)
        assert mine.candidates == {g: float(len(c)) for g, c in own_candidates(pos).items()}
        for seat in range(pos.players):
            other = progress(pos, worlds, seat)
            for genre, plan in pos.plans.items():
                assert 1 <= other.candidates[genre] <= plan.size - len(plan.drawn_by(seat))


def test_a_record_the_game_could_not_show_is_refused() -> None:
    info = next(positions(1, seed=2))
    assert any(obs.kind == "see_draw" for obs in info.observations)
    draws = [i for i, obs in enumerate(info.observations) if obs.kind == "see_draw"]
    if draws:
        i = draws[0]
        wrong = Observation.of("see_draw", seat=info.seat, card="NOPE.1")
        bad = InformationSet(
            info.game,
            info.options,
            info.seat,
            (*info.observations[:i], wrong, *info.observations[i + 1 :]),
        )
        with pytest.raises(InvalidInformationSet):
            solver.deduce(bad)
    buys = [i for i, obs in enumerate(info.observations) if obs.get("action") == "investigate"]
    if buys:
        cut = InformationSet(info.game, info.options, info.seat, info.observations[: buys[0] + 1])
        with pytest.raises(IncompleteInformationSet, match="draw"):
            solver.deduce(cut)


def test_hints_tell_candidates_odds_dice_and_the_race() -> None:
    game = engines.make("serial-killer", players=4)
    state = game.new_game(4)
    rng = random.Random(4)
    while state.round < 2 or state.phase != "buy":
        state.apply(rng.choice(state.legal_actions()))
    info = state.information_set(state.to_move)
    texts = [hint.text for hint in solver.hints(info)]
    assert any("candidates" in text for text in texts)
    assert any("a guess now is right" in text for text in texts)
    assert any(text.startswith("The race, closest first: ") for text in texts)
    values = [h for h in solver.hints(info) if " for " in h.text and "points" in h.text]
    assert values and all("bits" not in h.text for h in values), "the value of a die, in words"
    assert all(any("bits of the profile" in why for why in h.because) for h in values)


def test_a_certain_genre_is_explained_by_the_sightings_of_its_other_traits() -> None:
    """The reasons of a certain genre, read without a solve: sightings of every other trait
    of the genre and the draw that left only its undrawable card."""
    checked = 0
    for info in positions(120, seed=5):
        position = parse(info)
        for genre, cards in own_candidates(position).items():
            plan = position.plans[genre]
            if len(cards) != 1 or plan.revealed is not None:
                continue
            reasons = seen_because(position, genre, info)
            seen: set[str] = set()
            for obs in reasons:
                if obs.kind in ("see_draw", "see_discard"):
                    seen.add(obs["card"])
                elif obs.kind == "see_hand":
                    seen.update(obs["cards"])
                elif obs.kind == "see_lab":
                    seen.update(card for _, card in obs["cards"])
            assert set(plan.cards) - seen == set(cards)
            assert any(o.kind == "draw" and o["deck_size"] == 1 for o in reasons)
            checked += 1
    assert checked > 0
