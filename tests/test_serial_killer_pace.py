"""The race's pace read off the record, the chance the decks run out in time, and the hints
that say when to draw and when to wait."""

from __future__ import annotations

import random
from itertools import product

import engines
import opponents
import solver
from engines import Observation
from engines.serial_killer import SerialKillerState
from solver.games.serial_killer.pace import HORIZON, Pace, Round, pace_of, rounds_of
from solver.games.serial_killer.race import roll_chance


def _played(seed: int, picks: int) -> SerialKillerState:
    """A 4-player game of heuristic bots, `picks` decisions in."""
    game = engines.make("serial-killer", players=4)
    state = game.new_game(seed)
    assert isinstance(state, SerialKillerState)
    bots = [opponents.make("heuristic", game, s, seed=seed * 10 + s) for s in game.seats]
    for _ in range(picks):
        if state.is_over:
            break
        mover = state.to_move
        assert isinstance(mover, int)
        state.apply(bots[mover].act(state.information_set(mover)))
    return state


def test_rounds_count_every_draw_and_each_rounds_growth() -> None:
    state = _played(3, 150)
    observations = state.information_set(0).observations
    rounds = rounds_of(observations, 50)
    draws = [obs for obs in observations if obs.kind == "draw"]
    assert sum(r.drawn for r in rounds) == len(draws)
    ends = [int(obs["ferocity"]) for obs in observations if obs.kind == "round_end"]
    assert [r.growth for r in rounds if r.growth is not None] == [
        f - before for before, f in zip([50, *ends], ends, strict=False)
    ]
    for seat in range(4):
        assert sum(r.draws.get(seat, 0) for r in rounds) == sum(
            1 for obs in draws if obs["seat"] == seat
        )


def test_a_steady_pace_runs_out_on_the_round_it_reaches_the_last_card() -> None:
    pace = Pace((Round({0: 5}, 4), Round({1: 5}, 4), Round({2: 3}, None)))
    # 12 cards: 2 more this round (5 a round, 3 drawn), then 5, then 5: out 2 rounds on
    assert pace.runs_out(12) == [0.0, 0.0, 1.0]
    assert pace.outlook(30, 90, 12) == roll_chance(30, 98)
    assert pace.runs_out(0) == [1.0]


def test_the_chance_of_running_out_weighs_each_recent_round_alike() -> None:
    """Against every sequence of recent rounds, enumerated."""
    played = (Round({0: 2}, 6), Round({0: 6}, 9), Round({1: 3}, 3))
    pace = Pace(played)
    cards = 11
    expected = [0.0] * HORIZON
    for seq in product(played, repeat=6):
        left = cards
        for r, past in enumerate(seq):
            left -= past.drawn
            if left <= 0:
                expected[r] += 1 / 3**6
                break
    chances = pace.runs_out(cards)
    for r in range(6):
        got = chances[r] if r < len(chances) else 0.0
        assert abs(got - expected[r]) < 1e-12, r
    growth = 6.0
    assert pace.growth == growth
    outlook = sum(p * roll_chance(20, round(70 + growth * r)) for r, p in enumerate(expected))
    assert abs((pace.outlook(20, 70, cards) or 0.0) - outlook) < 1e-12


def test_decks_that_stand_still_never_run_out_and_no_pace_is_read_before_a_round_ends() -> None:
    still = Pace((Round({}, 7), Round({}, 8)))
    assert sum(still.runs_out(9)) == 0.0
    assert still.outlook(40, 60, 9) == 0.0
    assert Pace((Round({0: 4}, None),)).outlook(40, 60, 9) is None
    first_roll = Observation.of("roll", round=1, counts=[3] * 5 + [0], bonus=0)
    assert pace_of([first_roll], 50).growth is None


def test_hints_say_the_race_the_outlook_and_the_solvers_choice_at_the_seats_own_pick() -> None:
    rng = random.Random(8)
    checked = 0
    for seed in range(20):
        state = _played(seed, rng.randrange(40, 120))
        if state.is_over or state.phase != "buy" or state.round < 2 or state.final_round:
            continue
        mover = state.to_move
        assert isinstance(mover, int)
        info = state.information_set(mover)
        texts = [hint.text for hint in solver.hints(info)]
        race = next(text for text in texts if text.startswith("The race, closest first: "))
        for seat in range(4):
            assert f"{state.points_left[seat]} points" in race
        assert any(text.startswith(("The decks (", "The decks stand still")) for text in texts)
        move = solver.advise(info, seed=0).move
        assert texts[0].startswith(f"{str(move).capitalize()}: ")  # what to do, first
        other = state.information_set((mover + 1) % 4)
        assert not any(h.text.startswith(str(move).capitalize()) for h in solver.hints(other))
        checked += 1
    assert checked >= 5
