"""Serial Killer bots: legal, deterministic for a seed, and declaring when they should."""

from __future__ import annotations

from math import prod

import pytest

import engines
import opponents
from engines import ConfigError
from engines.serial_killer import Declare, SerialKillerState
from opponents.games.serial_killer import SolverBot, notepad
from solver.games.serial_killer.position import parse
from solver.games.serial_killer.race import own_candidates

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


def test_solver_declares_when_certain_or_at_its_last_safe_roll() -> None:
    state = GAME.new_game(0)
    bot = opponents.make("solver", GAME, 0, seed=0)
    assert isinstance(bot, SolverBot)
    assert bot.declares(state, 1.0), "a certain profile is declared"
    assert not bot.declares(state, 0.01), "a guess waits while the roll stays safe"
    state.points_left[0] = 11  # 16 dice: likely against 50 now, not against 60
    assert bot.declares(state, 0.01), "the last likely roll is taken"
    state.points_left[0] = 2  # 7 dice cannot make 50
    assert not bot.declares(state, 1.0)


def test_the_declaration_step_is_decided_by_the_gamble() -> None:
    """At every declaration step of solver games: a declaration exactly when `declares`
    says so (or when the final round compels it), and always of candidates only."""
    for seed in range(3):
        state = engines.make("serial-killer", players=3).new_game(seed)
        bots = [opponents.make("solver", state.game, s, seed=s) for s in state.game.seats]
        while not state.is_over:
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            action = bots[mover].act(info)
            if state.phase == "declare":
                candidates = own_candidates(parse(info))
                right = prod(1 / len(c) for c in candidates.values())
                wanted = bots[mover].declares(state, right) or state.final_round
                assert isinstance(action, Declare) == wanted
                if isinstance(action, Declare):
                    assert all(c in candidates[c.partition(".")[0]] for c in action.profile)
            state.apply(action)


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
