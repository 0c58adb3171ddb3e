"""The core API that adapters build on, for every game (tests/conformance.py,
`check_core_api`): explicit chance, action ids, undo, tensors, returns, history, copies."""

from __future__ import annotations

import json
import random
from types import ModuleType

import pytest

import engines
from tests import (
    test_alibi_engine,
    test_blue_lion_engine,
    test_city_killer_engine,
    test_noir_engine,
    test_serial_killer_engine,
)
from tests.conformance import EngineSpec, check_core_api, check_explicit_play, draw_chance

CASES = [
    ("blue-lion", {}, test_blue_lion_engine),
    (
        "blue-lion",
        {"first_player": "fujiko", "passing": "any-time", "target": 4},
        test_blue_lion_engine,
    ),
    ("noir", {}, test_noir_engine),
    ("noir", {"grid": 4, "deck": "separate", "citizen_arrest": True}, test_noir_engine),
    ("alibi", {"players": 3, "deck": "small", "round_limit": 4}, test_alibi_engine),
    ("alibi", {"players": 5, "round_limit": 2, "end_variant": "solutions"}, test_alibi_engine),
    (
        "serial-killer",
        {"players": 3, "genres": 3, "traits_per_genre": 4},
        test_serial_killer_engine,
    ),
    (
        "serial-killer",
        {
            "players": 4,
            "start_points": 40,
            **test_serial_killer_engine.CONFIGS["4-players-variants"],
        },
        test_serial_killer_engine,
    ),
    ("city-killer", {}, test_city_killer_engine),
    (
        "city-killer",
        {
            "residents": 8,
            "empty_deck": "reshuffle",
            "initial_placement": "detective",
            "identity_choice": "choose",
            "building_layout": "random",
        },
        test_city_killer_engine,
    ),
]


@pytest.mark.parametrize(("name", "options", "module"), CASES, ids=lambda c: str(c)[:30])
@pytest.mark.parametrize("seed", [0, 1])
def test_core_api(name: str, options: dict, module: ModuleType, seed: int) -> None:
    game = engines.make(name, **options)
    spec = EngineSpec(game, module.transitions, module.twin, module.illegal_candidates)
    rng = random.Random(seed)
    check_core_api(spec, seed, lambda n: rng.randrange(n))


# Chance during play (Serial Killer's dice, City Killer's reshuffles, figurant and group
# tokens): the RNG's draws given as chance outcomes replay the same game.
PLAYED = [
    ("serial-killer", {}),
    ("serial-killer", {"players": 5, "central_park_prob": 0.5, "dice_per_pick": 2}),
    ("city-killer", {"residents": 5, "district_capacity": 4, "empty_deck": "reshuffle"}),
    ("city-killer", {"identity_choice": "choose", "initial_placement": "random"}),
]


@pytest.mark.parametrize(("name", "options"), PLAYED, ids=lambda c: str(c)[:30])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_explicit_chance_replays_sampled_play(name: str, options: dict, seed: int) -> None:
    rng = random.Random(seed)
    check_explicit_play(engines.make(name, **options), seed, lambda n: rng.randrange(n), 400)


def played(name: str, seed: int, steps: int, explicit: bool) -> engines.State:
    """A random game of `name` after `steps` moves, its chance drawn by the RNG or, when
    `explicit`, given as chance outcomes from `initial_state()`."""
    game, rng = engines.make(name), random.Random(seed)
    state = game.new_game(seed)
    if explicit:
        state = game.initial_state()
        for step in game.new_game(seed).history():
            state.apply_chance(step.value)
    moves = 0
    while moves < steps and not state.is_over:
        if state.is_chance:
            draw_chance(state, rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
    return state


@pytest.mark.parametrize("name", ["city-killer", "serial-killer"])
def test_json_without_the_deal_still_loads(name: str) -> None:
    state = played(name, 3, 40, explicit=False)
    data = json.loads(state.to_json())
    del data["setup"]["deal"]
    text = json.dumps(data, sort_keys=True)
    assert state.game.state_from_json(text).to_json() == text


def test_draws_in_json_are_checked() -> None:
    """Explicit draws of play are stored and replayed (a chance node's JSON loads as one,
    `check_chance_node`); one that is no outcome of its draw, or one more than the actions
    draw, is refused."""
    state = played("serial-killer", 5, 30, explicit=True)
    game, data = state.game, json.loads(state.to_json())
    assert data["draws"] and "draws" not in json.loads(game.new_game(5).to_json())
    for draws in ([9, *data["draws"][1:]], [*data["draws"], 1]):
        with pytest.raises(engines.InvalidState):
            game.state_from_json(json.dumps({**data, "draws": draws}))


@pytest.mark.parametrize("name", engines.names())
def test_addressees_and_the_public_tensor(name: str) -> None:
    """Each seat's information set keeps who saw each observation; its public ones are the
    public record, whose tensor moves with the game and is the same from every seat."""
    start = played(name, 2, 0, explicit=False)
    state = played(name, 2, 12, explicit=False)
    public = state.public_information_set()
    tensor = public.to_array()
    assert tensor.shape == state.game.observation_shape
    assert not (tensor == start.public_information_set().to_array()).all()
    hidden = False
    for seat in state.game.seats:
        info = state.information_set(seat)
        private = info.private()
        assert private is not None
        shown = zip(info.observations, private, strict=True)
        assert tuple(obs for obs, mine in shown if not mine) == public.observations
        hidden = hidden or any(private)
        assert info.extended().addressees is None  # made by hand: unknown
    assert hidden == (name != "blue-lion"), "Blue Lion alone has no private observation"


@pytest.mark.parametrize("name", ["city-killer", "serial-killer"])
def test_draw_inline(name: str) -> None:
    """After `draw_inline` a state with explicit chance draws play's chance from the RNG
    given, as `new_game` play does: no more chance nodes, the same end for the same seed,
    and every draw still in its history; at a chance node it is refused."""
    from engines.deal import draw_inline

    state = played(name, 4, 12, explicit=True)
    while state.is_chance:
        with pytest.raises(engines.IllegalAction, match="apply chance first"):
            draw_inline(state, random.Random(0))
        state.apply_chance(state.chance_outcomes()[0][0])
    ends = []
    for _ in range(2):
        copy, rng = state.clone(), random.Random(9)
        draw_inline(copy, rng)
        while not copy.is_over:
            assert not copy.is_chance
            copy.apply(rng.choice(copy.legal_actions()))
        drawn = sum(step.seat is None for step in copy.history())
        assert drawn > sum(step.seat is None for step in state.history())
        ends.append((copy.winners, [str(step.value) for step in copy.history()]))
    assert ends[0] == ends[1]
