"""The ismcts opponent (opponents/ismcts.py): OpenSpiel's ISMCTSBot over the adapter, its
worlds drawn by `solver.sample_state`."""

from __future__ import annotations

import random

import pytest

import engines
import opponents

pytest.importorskip("pyspiel", reason="the extra sleuth[openspiel] is not installed")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("blue-lion", {}),
        ("noir", {"grid": 4}),
        ("serial-killer", {"players": 3, "genres": 3, "traits_per_genre": 4, "start_points": 30}),
        ("city-killer", {"residents": 8}),
    ],
)
def test_plays_legal_moves_deterministically(name: str, options: dict) -> None:
    game = engines.make(name, **options)
    state, rng = game.new_game(5), random.Random(0)
    for _ in range(4):
        seat = state.to_move
        info = state.information_set(seat)
        first = opponents.make("ismcts", game, seat, seed=7, simulations=8).act(info)
        again = opponents.make("ismcts", game, seat, seed=7, simulations=8).act(info)
        assert first == again and first in state.legal_actions()
        state.apply(first if rng.random() < 0.5 else rng.choice(state.legal_actions()))


def test_refusals() -> None:
    game = engines.make("blue-lion")
    with pytest.raises(engines.ConfigError, match="no option"):
        opponents.make("ismcts", game, "lupin", depth=3)
    with pytest.raises(engines.ConfigError, match="simulations"):
        opponents.make("ismcts", game, "lupin", simulations=1)


def test_rollouts_finish_a_spelled_action_and_leave_the_state() -> None:
    """A leaf can stop inside an action spelled in parts (Alibi's passes): the rollout
    completes it with a legal action, plays to the end and leaves the leaf unchanged."""
    import pyspiel

    import engines.adapters.openspiel  # noqa: F401 - registers sleuth's games
    from opponents.ismcts import Rollouts

    spiel = pyspiel.load_game("sleuth_alibi", {"players": 3, "deck": "small"})
    state, rng = spiel.new_initial_state(), random.Random(3)
    while not state.spelling.prefix:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    before = (state.spelling.state.to_json(), list(state.spelling.prefix))
    returns = Rollouts(2, random.Random(0), None).evaluate(state)
    assert before == (state.spelling.state.to_json(), state.spelling.prefix)
    assert len(returns) == 3 and all(-1.0 <= value <= 2.0 for value in returns)
    assert any(value != 0.0 for value in returns)  # played to the end: somebody won
    cut = Rollouts(1, random.Random(0), 1).evaluate(state)  # stopped after one action
    assert list(cut) == [0.0, 0.0, 0.0]


def test_rollouts_draw_chance_during_play() -> None:
    """Serial Killer rolls dice during play: from a resampled world (explicit chance) a
    rollout applies those draws as chance nodes and plays to the end, instead of stopping at
    the first roll."""
    import pyspiel

    from engines.adapters.openspiel import SleuthState
    from opponents.ismcts import Rollouts
    from solver import sample_state

    options = {"players": 3, "genres": 3, "traits_per_genre": 4}
    spiel = pyspiel.load_game("sleuth_serial_killer", options)
    game = spiel.engine
    state = game.new_game(2)
    for _ in range(6):
        state.apply(random.Random(len(state.history())).choice(state.legal_actions()))
    world = sample_state(state.information_set(state.to_move), random.Random(0))
    leaf = SleuthState(spiel, world)
    returns = Rollouts(2, random.Random(0), None).evaluate(leaf)
    assert all(value != 0.0 for value in returns)  # ended: each seat won (1/k - 1) or lost


def test_an_action_of_several_ids() -> None:
    """City Killer spells its actions in several ids: ismcts searches once per id, from a
    root whose key (the information state with the ids chosen so far) must match its
    resamples' after the first id is chosen."""
    from collections import Counter

    from engines.adapters import Spelling

    game = engines.make("city-killer", residents=8)
    state, rng = game.new_game(3), random.Random(0)

    def two_choices_twice() -> bool:  # every action two ids or more, each first id twice
        spelled = Spelling(state).spelled()
        firsts = Counter(ids[0] for ids in spelled)
        return min(map(len, spelled)) >= 2 and len(firsts) >= 2 and min(firsts.values()) >= 2

    while not two_choices_twice():
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_move
    action = opponents.make("ismcts", game, seat, seed=3, simulations=6).act(
        state.information_set(seat)
    )
    assert action in state.legal_actions()


@pytest.mark.parametrize(
    ("name", "options"),
    [("city-killer", {"residents": 8}), ("serial-killer", {"players": 3, "genres": 3})],
)
def test_node_keys_are_the_information_states(name: str, options: dict) -> None:
    """The search keys its nodes by `information_key`, built on from the last key of the
    same state: over a search's every node (private observations, ids chosen, chance
    during play) two keys are equal exactly when OpenSpiel's information state strings are."""
    from engines.adapters import Spelling
    from opponents.ismcts import _search_class

    game = engines.make(name, **options)
    state, rng = game.new_game(4), random.Random(1)
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    while len({ids[0] for ids in Spelling(state).spelled()}) < 2:  # a search, not one id
        state.apply(rng.choice(state.legal_actions()))
    pairs: set[tuple[tuple[int, str], tuple[int, str]]] = set()
    search = _search_class()
    plain = search.__mro__[1].get_state_key

    def both(self: object, node: object) -> tuple[int, str]:
        key = search.get_state_key(self, node)
        pairs.add((key, plain(self, node)))
        return key

    seat = state.to_move
    bot = opponents.make("ismcts", game, seat, seed=2, simulations=30)
    bot.search.get_state_key = both.__get__(bot.search)  # type: ignore[method-assign]
    bot.act(state.information_set(seat))
    keys, strings = {key for key, _ in pairs}, {string for _, string in pairs}
    assert len(keys) == len(strings) == len(pairs) > 10
