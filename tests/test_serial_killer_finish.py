"""The Serial Killer finish planner: plans valued by right x roll, against hand-worked cases."""

from __future__ import annotations

from engines.serial_killer import Investigate, Lab, Weapon
from solver.games.serial_killer.race import roll_chance
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
        "drain": True,
        "declare_chance": 0.0,
        "eligible": True,
    }
    base.update(changes)
    return Finish(**base)  # type: ignore[arg-type]


def test_the_drain_this_round_faces_ferocity_as_it_is() -> None:
    """Two 3s empty deck A, the lab view sees the B card: certain, and the final round has no
    ferocity rise, so J is the roll with 30 - 12 points against 80."""
    plan = finish()
    assert abs(plan.plan_value(list(plan.looks), {"A": 2}, True) - roll_chance(23, 80)) < 1e-12
    assert abs(plan.best() - max(roll_chance(23, 80), roll_chance(29, 80) / 2)) < 1e-12


def test_without_the_lab_view_the_profile_is_a_coin_toss() -> None:
    plan = finish()
    assert abs(plan.plan_value([], {"A": 2}, True) - roll_chance(29, 80) / 2) < 1e-12


def test_a_plan_that_leaves_a_rival_who_never_declares_is_worth_nothing() -> None:
    """Undrained decks with the rivals undeclared: nobody ends the game."""
    assert finish().plan_value(list(finish().looks), {"A": 1}, True) == 0.0


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
    assert finish(points=10).plan_value(list(finish().looks), {"A": 2}, True) == 0.0


def test_a_plan_over_rounds_pays_the_surcharge_once_ferocity_reaches_the_points() -> None:
    """Ferocity 80 against 30 points: the seat is caught from the next round, so the two
    draws and the lab view bought then cost one point more each (15, not 12)."""
    plan = finish(penalty=1, pool=(0, 0, 0, 0, 0, 0))
    assert plan.cost(list(plan.looks), {"A": 2}) == (15, 2)
    assert finish(pool=(0, 0, 0, 0, 0, 0)).cost(list(plan.looks), {"A": 2}) == (12, 2)
    assert plan.waited().surcharge == 1
    assert finish(penalty=1, points=90).waited().surcharge == 0
