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
from hypothesis import strategies as st

import opponents
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


def draw_chance(state: State, rng: random.Random) -> None:
    """Apply an outcome of the chance node `state` is at, drawn by its weights."""
    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
    state.apply_chance(rng.choices(outcomes, weights)[0])


def play_checked(
    state: State, rng: random.Random, check_step: Callable[[State | None, State], None]
) -> State:
    """Play `state` to its end with random legal moves drawn by `rng`, calling
    `check_step(previous, state)` on the start, every transition and the end."""
    previous = None
    while not state.is_over:
        check_step(previous, state)
        previous = state.clone()
        state.apply(rng.choice(state.legal_actions()))
    check_step(previous, state)
    return state


def bots_game(game: Game, kinds: dict[int, str], seed: int) -> State:
    """A whole game of bots: kinds[k] in the k-th seat, `heuristic` where unnamed, the k-th
    seeded seed * 10 + k (what a review looks back at)."""
    bots = {
        seat: opponents.make(kinds.get(k, "heuristic"), game, seat, seed=seed * 10 + k)
        for k, seat in enumerate(game.seats)
    }
    state = game.new_game(seed=seed)
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
    return state


def drawn(data: st.DataObject) -> Callable[[int], int]:
    """The choices of a random game drawn by hypothesis, so that a failure shrinks."""
    return lambda n: data.draw(st.integers(0, n - 1))


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


# --- the core API adapters need (OpenSpiel, PettingZoo) ------------------------------------
def check_chance(game: Game, seed: int) -> State:
    """Explicit chance: each node's probabilities sum to 1, outcome ids round-trip, undo of a
    draw restores the node, and applying `new_game(seed)`'s draws deals its game exactly."""
    dealt = game.new_game(seed=seed)
    draws = [step.value for step in dealt.history() if step.seat is None]
    assert len(draws) == game.deal_length <= game.max_chance_nodes
    state = game.initial_state()
    for i, outcome in enumerate(draws):
        assert state.is_chance and not state.is_over and state.legal_actions() == []
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(p > 0 for _, p in outcomes)
        for o, _ in outcomes:
            assert game.chance_outcome_from_id(game.chance_outcome_id(o)) == o
        assert outcome in [o for o, _ in outcomes]
        before = state.to_json()
        assert game.state_from_json(before).to_json() == before
        if i % 7 == 0:
            state.apply_chance(outcomes[-1][0])
            state.undo()
            assert state.to_json() == before, "undoing a draw restores the chance node"
        state.apply_chance(outcome)
    assert not state.is_chance
    assert state._to_dict() == dealt._to_dict()
    assert state._log == dealt._log and state.history() == dealt.history()
    assert state._setup is not None and dealt._setup is not None
    assert state._setup.arguments == dealt._setup.arguments
    assert state._setup.deal == dealt._setup.deal
    return state


def check_core_api(
    spec: EngineSpec, seed: int, choices: Callable[[int], int], every: int = 5
) -> State:
    """Play one random game checking, beside the engine's own, what adapters rely on: action
    ids round-trip and no spelling is the beginning of another; undo restores the exact JSON;
    each seat's tensor has the declared shape and does not change in a twin state the seat
    cannot tell apart; deepcopy and pickle; returns, bounds and history. Costly checks run
    on every `every`-th step."""
    game = spec.game
    state = check_chance(game, seed)
    dealt = game.new_game(seed=seed)
    assert dealt.to_json() == game.state_from_json(dealt.to_json()).to_json()
    history: list[Action] = []
    rng = random.Random(seed)
    limit = game.max_game_length
    assert limit is not None and isinstance(limit, int)
    n = len(game.seats)
    assert [game.seat_index(seat) for seat in game.seats] == list(range(n))
    drawn = 0
    for step in range(spec.max_steps):
        if state.is_over:
            break
        assert state.returns() == tuple(0.0 for _ in game.seats)
        if state.is_chance:  # a draw during play (Game.chance_in_play)
            check_chance_node(game, state, step % every == 0)
            draw_chance(state, rng)
            drawn += 1
            continue
        legal = state.legal_actions()
        spelled = {game.action_ids(action): action for action in legal}
        assert len(spelled) == len(legal), "two legal actions share their ids"
        for ids, action in spelled.items():
            assert all(0 <= i < game.num_distinct_actions for i in ids)
            assert len(ids) <= game.max_action_choices
            assert game.action_from_ids(ids) == action
            if len(ids) == 1:
                assert game.action_from_id(game.action_id(action)) == action
            for k in range(1, len(ids)):
                assert ids[:k] not in spelled, f"{ids[:k]} spells an action and begins {action}"
        assert state.legal_choices() == sorted({ids[0] for ids in spelled})
        if step % every == 0:
            check_tensors_and_copies(spec, state, history, rng)
        action = legal[choices(len(legal))]
        if step % every == 0:
            before = state.to_json()
            probe = state.clone()
            probe.apply(action)
            probe.undo()
            assert probe.to_json() == before, f"undoing {action} did not restore the state"
        state.apply(action)
        history.append(action)
    assert state.is_over, f"{game.name} did not end within {spec.max_steps} steps"
    assert len(history) <= limit, f"{len(history)} actions, more than max_game_length {limit}"
    returns = state.returns()
    assert all(game.min_utility <= r <= game.max_utility for r in returns)
    if game.zero_sum:
        assert abs(sum(returns)) < 1e-9
    for winner in state.winners:
        assert returns[game.seat_index(winner)] > 0 or len(state.winners) == n
    steps = state.history()
    assert [s.value for s in steps if s.seat is not None] == history
    assert len(steps) == game.deal_length + drawn + len(history)
    assert game.deal_length + drawn <= game.max_chance_nodes
    check_tensors_and_copies(spec, state, history, rng)
    return state


def check_chance_node(game: Game, state: State, costly: bool) -> None:
    """A chance node during play: probabilities sum to 1, outcome ids round-trip, the node
    survives JSON, and (when `costly`) undoing an outcome restores it."""
    outcomes = state.chance_outcomes()
    assert state.legal_actions() == [] and state.to_move is None and not state.is_over
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
    for o, _ in outcomes:
        assert game.chance_outcome_from_id(game.chance_outcome_id(o)) == o
    if costly:
        before = state.to_json()
        assert game.state_from_json(before).to_json() == before
        probe = state.clone()
        probe.apply_chance(outcomes[0][0])
        probe.undo()
        assert probe.to_json() == before, "undoing a draw restores the chance node"


def check_explicit_play(game: Game, seed: int, choices: Callable[[int], int], steps: int) -> None:
    """`new_game(seed)` played a while (its RNG drawing), then its history given to
    `initial_state()` step by step, outcomes as chance: the same game, draw for draw."""
    sampled = game.new_game(seed=seed)
    for _ in range(steps):
        if sampled.is_over:
            break
        legal = sampled.legal_actions()
        sampled.apply(legal[choices(len(legal))])
    state = game.initial_state()
    for step in sampled.history():
        if step.seat is None:
            assert state.is_chance
            assert step.value in [o for o, _ in state.chance_outcomes()]
            state.apply_chance(step.value)
        else:
            assert not state.is_chance and state.to_move == step.seat
            state.apply(step.value)
    assert not state.is_chance
    assert state._to_dict() == sampled._to_dict() and state._log == sampled._log
    assert state.history() == sampled.history()
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


def check_tensors_and_copies(
    spec: EngineSpec, state: State, history: Sequence[Action], rng: random.Random
) -> None:
    import copy
    import pickle

    game = spec.game
    text = state.to_json()
    assert copy.deepcopy(state).to_json() == text
    assert pickle.loads(pickle.dumps(state)).to_json() == text
    public = state.public_information_set()
    assert public.observations == state.public_observations()
    public_tensor = public.to_array()
    assert public_tensor.shape == game.observation_shape and public_tensor.dtype.name == "float32"
    for seat in game.seats:
        info = state.information_set(seat)
        # each observation keeps its addressees; the public ones are the public record
        assert info.addressees is not None and len(info.addressees) == len(info.observations)
        assert all(to is None or seat in to for to in info.addressees)
        shown = zip(info.observations, info.addressees, strict=True)
        assert tuple(obs for obs, to in shown if to is None) == public.observations
        assert InformationSet.from_json(info.to_json()).addressees == info.addressees
        tensor = info.to_array()
        assert tensor.shape == game.observation_shape and tensor.dtype.name == "float32"
        twin = spec.twin(state, history, seat, rng)
        if twin is not None:
            again = twin.information_set(seat).to_array()
            assert (again == tensor).all(), f"{seat}'s tensor depends on what it cannot know"
            assert (twin.public_information_set().to_array() == public_tensor).all()
