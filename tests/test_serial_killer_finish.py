"""The Serial Killer finish planner: plans valued by right x roll, against hand-worked cases."""

from __future__ import annotations

import random
from itertools import combinations, product

from pytest import MonkeyPatch

from engines.serial_killer import Investigate, Lab, Weapon
from solver.games.serial_killer.race import roll_chance
from solver.search import serial_killer_finish as endgame
from solver.search.serial_killer_finish import Finish, Look, pass_value, value_of

GENRES = ("A", "B")


def finish(**changes: object) -> Finish:
    """Two genres; deck A (district 1, the seat's) has 2 cards left, deck B is out; a lab
    view would rule out one B candidate."""
    base: dict[str, object] = {
        "candidates": {"A": 3, "B": 2},
        "deck_left": {"A": 2, "B": 0},
        "deck_district": {"A": 1, "B": 2},
        "looks": (Look("lab", None, {"B": 1.0}, 6, None),),
        "weapons": 0,
        "points": 30,
        "ferocity": 80,
        "pool": (2, 2, 2, 2, 2, 2),
        "pawn": 1,
        "dice_base": 5,
        "per_die": 1,
        "surcharge": 0,
        "penalty": 0,
        "final": False,
        "declare_chance": 0.0,
        "eligible": True,
    }
    base.update(changes)
    return Finish(**base)  # type: ignore[arg-type]


def test_the_drain_this_round_faces_ferocity_as_it_is() -> None:
    """Two 3s empty deck A, the lab view sees the B card: certain, and the final round has no
    ferocity rise, so J is the roll with 30 - 12 points against 80."""
    plan = finish()
    assert abs(plan.plan_value(list(plan.looks), {"A": 2}) - roll_chance(23, 80)) < 1e-12
    assert abs(plan.best() - max(roll_chance(23, 80), roll_chance(29, 80) / 2)) < 1e-12


def test_without_the_lab_view_the_profile_is_a_coin_toss() -> None:
    plan = finish()
    assert abs(plan.plan_value([], {"A": 2}) - roll_chance(29, 80) / 2) < 1e-12


def test_a_plan_that_leaves_a_rival_who_never_declares_is_worth_nothing() -> None:
    """Undrained decks with the rivals undeclared: nobody ends the game."""
    assert finish().plan_value(list(finish().looks), {"A": 1}) == 0.0


def test_the_weapon_track_must_reach_ten_before_the_final_round() -> None:
    short = finish(weapons=1, final=True, deck_left={"A": 0, "B": 0}, candidates={"A": 1, "B": 2})
    assert short.best() == 0.0
    assert value_of(finish(weapons=1), Weapon(), 1) > 0.0


def test_a_draw_that_starts_the_final_round_keeps_the_looks_of_this_round() -> None:
    """After the first draw, the last one starts the final round; the lab view can still be
    bought this round, so the plan after the first draw is the full drain."""
    plan = finish()
    after = value_of(plan, Investigate(3), 3)
    assert abs(after - roll_chance(23, 80)) < 1e-12
    assert value_of(plan, Lab(()), 6) == after


def test_passing_waits_a_round_of_ferocity() -> None:
    """A round later ferocity is 88: the lab view no longer pays for its six points."""
    plan = finish()
    expected = max(roll_chance(23, 88), roll_chance(29, 88) / 2)
    assert abs(pass_value(plan) - expected) < 1e-12
    assert expected == roll_chance(29, 88) / 2


def test_a_plan_beyond_the_points_is_worth_nothing() -> None:
    assert finish(points=10).plan_value(list(finish().looks), {"A": 2}) == 0.0


def test_a_plan_over_rounds_pays_the_surcharge_once_ferocity_reaches_the_points() -> None:
    """Ferocity 80 against 30 points: the seat is caught from the next round, so the two
    draws and the lab view bought then cost one point more each (15, not 12)."""
    plan = finish(penalty=1, pool=(0, 0, 0, 0, 0, 0))
    assert plan.cost(list(plan.looks), {"A": 2}) == (15, 2)
    assert finish(pool=(0, 0, 0, 0, 0, 0)).cost(list(plan.looks), {"A": 2}) == (12, 2)
    assert plan.waited().surcharge == 1
    assert finish(penalty=1, points=90).waited().surcharge == 0


def random_finish(rng: random.Random) -> Finish:
    """A small random finish: three genres, up to two looks, any round and ferocity."""
    genres = ("A", "B", "C")
    candidates = {g: rng.randint(1, 4) for g in genres}
    districts = rng.sample(range(1, 8), len(genres))
    looks = tuple(
        Look(
            kind,
            key,
            {g: float(rng.randint(0, candidates[g] - 1)) for g in genres},
            cost,
            rng.choice(districts) if kind == "brief" else None,
        )
        for kind, key, cost in (("lab", None, 6), ("brief", 1, 4))[: rng.randint(0, 2)]
    )
    return finish(
        candidates=candidates,
        deck_left={g: rng.randint(0, 3) for g in genres},
        deck_district=dict(zip(genres, districts, strict=True)),
        looks=looks,
        weapons=rng.randint(0, 2),
        points=rng.randint(15, 60),
        ferocity=rng.randint(50, 100),
        pool=tuple(rng.randint(0, 3) for _ in range(6)),
        pawn=rng.choice(districts),
        surcharge=rng.randint(0, 1),
        penalty=1,
        final=rng.random() < 0.2,
        declare_chance=rng.choice((0.0, 0.5, 1.0)),
        eligible=rng.random() < 0.5,
    )


def brute_best(plan: Finish) -> float:
    """The best plan by trying them all: the drain with any looks and, when the seat's
    declaration ends the game, any looks with any number of draws from each deck."""
    sets = [list(c) for n in range(len(plan.looks) + 1) for c in combinations(plan.looks, n)]
    values = [plan.plan_value(looks, plan.deck_left) for looks in sets]
    if plan.declare_chance > 0 and not plan.final:
        genres = list(plan.deck_left)
        for counts in product(*(range(plan.deck_left[g] + 1) for g in genres)):
            draws = dict(zip(genres, counts, strict=True))
            values += [plan.plan_value(looks, draws) for looks in sets]
    return max(values)


def test_the_best_plan_is_the_best_of_all_plans() -> None:
    """On 300 random small finishes, Finish.best equals trying every plan."""
    rng = random.Random(7)
    for _ in range(300):
        plan = random_finish(rng)
        assert abs(plan.best() - brute_best(plan)) < 1e-12, plan


def test_the_local_search_finds_nearly_every_best_plan(monkeypatch: MonkeyPatch) -> None:
    """Where plans are too many to try one by one, the local search stands in: on 300
    random small finishes (forced to it) it never claims more than the best plan and finds
    it in at least 95 of 100."""
    monkeypatch.setattr(endgame, "EXHAUSTIVE", 0)
    rng = random.Random(11)
    found = 0
    for _ in range(300):
        plan = random_finish(rng)
        searched, truth = plan.best(), brute_best(plan)
        assert searched <= truth + 1e-12
        found += abs(searched - truth) < 1e-12
    assert found >= 285
