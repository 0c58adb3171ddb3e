"""The conformance suite every engine passes (pgx's api_test, OpenSpiel's random_sim_test).

A game's test module builds an `EngineSpec` and calls `check_random_game` from a hypothesis
test. Each step of a random legal game is checked for: the engine's own invariants
(`State.check_invariants`) and the test's checks of each transition, exact JSON
round-trips of the state and of both seats' information sets, `str(action)` /
`game.parse_action` round-trips for every legal action, an illegal action refused with
`IllegalAction` and the state left unchanged, and the no-leak property.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest

from engines import Action, Game, IllegalAction, InformationSet, Seat, State


@dataclass
class EngineSpec:
    """What the suite needs to know about one game.

    Attributes:
        game: the configured game under test.
        transitions: asserts what must hold from the previous state to the current one (the
            state's own invariants are the engine's `check_invariants`, called beside it).
        twin: given a state, the actions that led to it and a seat, returns another state
            reached by the same actions that differs only in what that seat cannot know
            (or None when no such state exists). Used for the no-leak property.
        illegal_candidates: well-formed actions to try that may be illegal now.
        max_steps: a bound the game must end within.
    """

    game: Game
    transitions: Callable[[State | None, State], None]
    twin: Callable[[State, Sequence[Action], Seat, random.Random], State | None]
    illegal_candidates: Callable[[State], Sequence[Action]]
    max_steps: int = 10_000


def check_random_game(spec: EngineSpec, seed: int, choices: Callable[[int], int]) -> State:
    """Play one random legal game from `seed`, `choices(n)` picking among n legal actions."""
    game = spec.game
    state = game.new_game(seed=seed)
    history: list[Action] = []
    previous: State | None = None
    rng = random.Random(seed)
    for _ in range(spec.max_steps):
        state.check_invariants()
        spec.transitions(previous, state)
        check_json(game, state)
        if state.is_over:
            assert state.legal_actions() == []
            assert state.winners or state.may_end_unwon, "a finished game names its winners"
            check_no_leak(spec, state, history, rng)
            return state
        legal = state.legal_actions()
        assert legal, f"no legal action while {state.to_move} is to move"
        assert len(set(legal)) == len(legal), "legal actions are listed once each"
        check_notation(game, legal)
        check_illegal_refused(spec, state, legal)
        if rng.random() < 0.2:
            check_no_leak(spec, state, history, rng)
        action = legal[choices(len(legal))]
        previous = state.clone()
        state.apply(action)
        history.append(action)
    raise AssertionError(f"{game.name} did not end within {spec.max_steps} steps")


def check_json(game: Game, state: State) -> None:
    text = state.to_json()
    again = game.state_from_json(text)  # replays the setup and every action so far
    assert again.to_json() == text and again._actions == state._actions
    assert again.legal_actions() == state.legal_actions()
    for seat in game.seats:
        info = state.information_set(seat)
        assert InformationSet.from_json(info.to_json()) == info
        assert again.information_set(seat) == info


def check_notation(game: Game, legal: Sequence[Action]) -> None:
    for action in legal:
        assert game.parse_action(str(action)) == action, str(action)
        assert game.action_from_json(action.to_json()) == action


def check_illegal_refused(spec: EngineSpec, state: State, legal: Sequence[Action]) -> None:
    before = state.to_json()
    for action in spec.illegal_candidates(state):
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert state.to_json() == before, "refusing an illegal action changed the state"


def check_no_leak(
    spec: EngineSpec, state: State, history: Sequence[Action], rng: random.Random
) -> None:
    for seat in spec.game.seats:
        twin = spec.twin(state, history, seat, rng)
        if twin is None:
            continue
        assert twin.information_set(seat) == state.information_set(seat), (
            f"{seat}'s information set depends on something {seat} cannot know"
        )
