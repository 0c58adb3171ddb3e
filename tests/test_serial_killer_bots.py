"""Serial Killer bots: legal, deterministic for a seed, and declaring when they should."""

from __future__ import annotations

import random

import pytest

import engines
import opponents
import solver
from engines import ConfigError
from engines.serial_killer import Declare, Investigate, SerialKillerState, Weapon
from opponents.games.serial_killer import notepad
from solver.games.serial_killer.position import parse
from solver.games.serial_killer.race import own_candidates, roll_chance
from solver.search import serial_killer as search

GAME = engines.make("serial-killer", players=3, genres=3, traits_per_genre=4)


def play(lineup: list[str], seed: int, stop: int | None = None) -> SerialKillerState:
    state = GAME.new_game(seed)
    assert isinstance(state, SerialKillerState)
    bots = [opponents.make(name, GAME, s, seed=seed + s) for s, name in enumerate(lineup)]
    steps = 0
    while not state.is_over and (stop is None or steps < stop):
        mover = state.to_move
        assert isinstance(mover, int)
        action = bots[mover].act(state.information_set(mover))
        assert action in state.legal_actions() or isinstance(action, Declare)
        state.apply(action)
        steps += 1
    return state


@pytest.mark.parametrize("lineup", [["heuristic"] * 3, ["solver", "heuristic", "random"]])
def test_bots_finish_games_deterministically(lineup: list[str]) -> None:
    for seed in range(2):
        first, again = play(lineup, seed), play(lineup, seed)
        assert first.is_over and first.to_json() == again.to_json()


def test_the_declaration_gamble_weighs_waiting_against_the_roll() -> None:
    """With rivals in play a guess waits while the roll stays safe and is taken at the last
    likely roll."""
    state = GAME.new_game(0)
    while state.phase == "place":
        state.apply(state.legal_actions()[0])
    info = state.information_set(0)

    def table(points: int) -> search.Table:
        found = search.Table(info)
        found.view.points_left[0] = points
        return found

    assert table(80).right < 1 and not search.declare_now(table(80)), "a guess waits"
    assert search.declare_now(table(10)), "15 dice: likely against 50 now, not against 58"
    assert not search.declare_now(table(2)), "7 dice cannot make 50"


def test_the_declaration_step_is_decided_by_the_gamble() -> None:
    """At every declaration step of solver games: a declaration exactly when the search's
    gamble says so (or when the final round compels it), and always of candidates only."""
    steps = 0
    for seed in range(3):
        state = GAME.new_game(seed)
        lineup = ["solver", "heuristic", "solver"]
        bots = [opponents.make(name, GAME, s, seed=s) for s, name in enumerate(lineup)]
        while not state.is_over and steps < 150 * (seed + 1):
            steps += 1
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            action = bots[mover].act(info)
            if state.phase == "declare" and lineup[mover] == "solver":
                candidates = own_candidates(parse(info))
                wanted = search.declare_now(search.Table(info)) or state.final_round
                assert isinstance(action, Declare) == wanted
                if isinstance(action, Declare):
                    assert all(c in candidates[c.partition(".")[0]] for c in action.profile)
            state.apply(action)


def test_the_advice_is_the_solver_bots_move() -> None:
    """`solver.advise(info, seed=s)` names the move a fresh solver bot with seed s makes."""
    game = engines.make("serial-killer", players=4)
    checked = 0
    for seed in range(2):
        state = game.new_game(seed)
        bots = [opponents.make("heuristic", game, s, seed=s) for s in game.seats]
        while not state.is_over and checked < 15 * (seed + 1):
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            fresh = opponents.make("solver", game, mover, seed=seed)
            assert solver.advise(info, seed=seed).move == fresh.act(info)
            checked += 1
            state.apply(bots[mover].act(info))
    assert checked >= 30


def test_options_are_checked_and_the_notepad_crosses_off() -> None:
    with pytest.raises(ConfigError):
        opponents.make("heuristic", GAME, 0, depth=3)
    with pytest.raises(ConfigError):
        opponents.make("solver", GAME, 0, time_budget=0)
    state = play(["heuristic"] * 3, seed=3, stop=12)
    assert not state.is_over
    assert any(
        "crossed off" in hint.text for s in GAME.seats for hint in notepad(state.information_set(s))
    )


def test_looks_wait_while_a_rival_still_draws() -> None:
    """A rival with points to spare changes its hand and the lab with every draw: briefing
    it (or viewing the lab) waits until it is down to its safe roll; in the final round
    nobody's hand changes any more."""
    state = GAME.new_game(0)
    while state.phase == "place":
        state.apply(state.legal_actions()[0])
    table = search.Table(state.information_set(0))
    assert table.still_drawing(1) and table.still_drawing(None), "80 points: it draws on"
    table = search.Table(state.information_set(0))
    table.view.points_left[1:] = [12, 12]  # 17 dice: below a 0.9 roll against 53
    assert not table.still_drawing(1) and not table.still_drawing(None)
    # 13 points keep the 0.9 roll against 53 (18 dice); 16 leave 3 to spare, half a card
    # at RIVAL_SPEND 6 a card: it may still draw; 15 leave a third of a card: it has stopped
    table = search.Table(state.information_set(0))
    table.view.points_left[1:] = [16, 15]
    assert table.still_drawing(1) and not table.still_drawing(2)
    table = search.Table(state.information_set(0))
    table.view.final_round = True
    assert not table.still_drawing(1)


def test_rivals_are_expected_to_declare_when_their_roll_fades() -> None:
    """Ferocity 50. A rival with 10 points (15 dice) tries this round (likely now, not a
    round later at 58) and never again (at 58 its roll is below LAST_GUESS): it declares
    with the chance of that one roll. A rival with 40 points waits past the horizon."""
    state = GAME.new_game(0)
    while state.phase == "place":
        state.apply(state.legal_actions()[0])
    table = search.Table(state.information_set(0))
    table.view.seq[1] = 1
    table.view.points_left[2] = 10
    assert roll_chance(15, 58) < search.LAST_GUESS < roll_chance(15, 50)
    assert abs(search._rivals_declare(table) - roll_chance(15, 50)) < 1e-12
    table.view.points_left[2] = 40
    assert search._rivals_declare(table) == 0.0


def quiet_round_three(game: engines.Game) -> SerialKillerState:
    """Round 3 of `game` after two rounds in which nobody bought anything."""
    state = game.new_game(0)
    assert isinstance(state, SerialKillerState)
    while state.phase == "place":
        state.apply(state.legal_actions()[0])
    while state.round < 3:
        state.apply(next(a for a in state.legal_actions() if type(a).__name__ in ("Pass", "Skip")))
    return state


def broke_table(state: SerialKillerState) -> search.Table:
    """The seat's table with ferocity 50, the track at 10, and a guess at its last likely
    roll (10 points: 15 dice); rival 1 has 80 points and has not drawn lately, rival 2 none."""
    table = search.Table(state.information_set(0))
    table.view.ferocity, table.view.weapon = 50, 10
    table.view.points_left[:] = [10, 80, 0]
    return table


def test_a_guess_waits_when_nobody_else_can_end_the_game() -> None:
    """Declared, the seat buys nothing more: a guess at its last likely roll (15 dice
    against 50) is declared only if the rivals can end the game without it (empty the decks
    or all declare). A broke rival can do neither; one with points that has not drawn lately
    will not draw and will not need to declare for many rounds."""
    state = quiet_round_three(GAME)
    table = broke_table(state)
    assert table.right < 1 and not table.drew_lately
    assert table.judged == 0.0 and not search.declare_now(table), "nobody drains or declares"
    table = search.Table(state.information_set(0))
    table.view.ferocity, table.view.weapon = 50, 10
    table.view.points_left[:] = [10, 0, 10]  # the undeclared rival's roll fades as the seat's
    table.view.seq[1] = 1
    assert table.judged > search.JUDGED and search.declare_now(table)


def test_under_the_reveal_reading_a_declaration_is_always_judged() -> None:
    """With `unreachable_outcome` "reveal", the collective loss judges the declarations
    already made, so a guess need not wait for the rivals to end the game: the table where
    it waits under the literal reading declares."""
    game = engines.make("serial-killer", **{**GAME.options, "unreachable_outcome": "reveal"})
    table = broke_table(quiet_round_three(game))
    assert table.judged == 1.0 and search.declare_now(table)


def test_with_no_winning_plan_the_seat_empties_the_decks() -> None:
    """Seat 0 with 4 points (9 dice cannot make 50) and broke rivals: no plan can win, so
    rather than pass (and let the game run on until nobody can reach ferocity) it draws, the
    cheapest die first, bringing the judged end nearer."""
    for seed in range(20):
        state = GAME.new_game(seed)
        assert isinstance(state, SerialKillerState)
        while state.phase == "place":
            state.apply(state.legal_actions()[0])
        if state.to_move != 0 or not state.pool[2]:
            continue
        table = search.Table(state.information_set(0))
        here = table.view.deck_at.get(table.view.pawn[0] or 0)
        if here is None or table.view.deck_size(here) < 2:
            continue
        table.view.points_left[:] = [4, 0, 0]
        table.view.weapon = 10
        assert table.finishing
        ranked = search._picks(table, table.view.legal_actions(), random.Random(0), 0.0, None)
        best = max(ranked, key=lambda item: item[0])
        assert best[1] == Investigate(3), best
        return
    raise AssertionError("no position with a 3 to draw with")


def test_a_weapon_track_the_rivals_left_alone_is_the_seats_to_move() -> None:
    """Nobody waits for the others to fill the weapon track for ever: when no rival bought a
    weapon die this round or the last (from round 2 on), a weapon die is worth its point
    (4 solvers left the track short for rounds on end, and nobody could declare)."""
    game = engines.make("serial-killer", players=4)
    left = kept = 0
    for seed in range(2):
        state = game.new_game(seed)
        bots = [opponents.make("heuristic", game, s, seed=s) for s in game.seats]
        while not state.is_over and state.round < 8:
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            if state.phase == "buy" and state.weapon < 10 and state.pool[0]:
                table = search.Table(info)
                scored = search.score(table, Weapon())
                rolls = [i for i, obs in enumerate(info.observations) if obs.kind == "roll"]
                recent = info.observations[rolls[-2] :] if len(rolls) >= 2 else None
                alone = recent is not None and not any(
                    o.kind == "buy" and o["action"] == "weapon" and o["seat"] != mover
                    for o in recent
                )
                if alone and not table.finishing and "kept for" not in scored.text:
                    left += 1
                    assert scored.value > 0, scored
                elif "can wait" in scored.text:
                    kept += 1
                    assert not alone
            state.apply(bots[mover].act(info))
    assert left and kept
