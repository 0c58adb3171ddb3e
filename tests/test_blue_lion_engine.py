"""Blue Lion's engine: the conformance suite, then the rules one by one on scripted positions."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines import Action, ConfigError, IllegalAction, InvalidAction, State
from engines.blue_lion import PAIRS, TILES, BlueLionState
from tests.conformance import EngineSpec, check_random_game, drawn, play_checked

GAME = engines.make("blue-lion")


def arrange(spec: str, first: str = "lupin", **options: object) -> BlueLionState:
    """A position from 't1:FL t2:BL ...': each tile's up face, then its back."""
    game = engines.make("blue-lion", **options)
    faces = dict(item.split(":") for item in spec.split())
    pairs = {tile: frozenset(both) for tile, both in faces.items()}
    assert sorted(map(sorted, pairs.values())) == sorted(map(sorted, PAIRS))
    return game.arrange(random.Random(0), pairs, {t: both[0] for t, both in faces.items()}, first)


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_text(move)
    return state


# --- the conformance suite -------------------------------------------------------------------
def transitions(previous: State | None, state: State) -> None:
    """What holds from one state to the next (each state's own invariants are the engine's)."""
    assert isinstance(state, BlueLionState)
    if previous is not None:
        assert isinstance(previous, BlueLionState)
        for seat, points in previous.scores.items():
            assert state.scores[seat] >= points, "scores never fall"
        assert previous._pairs == state._pairs, "the tiles' faces never change"


def check_step(previous: State | None, state: State) -> None:
    state.check_invariants()
    transitions(previous, state)


def consistent_pairings(seen: dict[str, set[str]]) -> list[dict[str, frozenset[str]]]:
    """Every assignment of the six pairs to tiles that contains each tile's seen faces."""
    return [
        dict(zip(TILES, perm, strict=True))
        for perm in itertools.permutations(PAIRS)
        if all(seen[t] <= pair for t, pair in zip(TILES, perm, strict=True))
    ]


def twin(state: State, history: Sequence[Action], seat: object, rng: random.Random) -> State:
    """The same game with the backs of never-turned tiles dealt differently."""
    assert isinstance(state, BlueLionState)
    info = state.information_set(seat)
    seen: dict[str, set[str]] = {tile: set() for tile in TILES}
    for obs in info.observations:
        if obs.kind in ("toss", "reveal"):
            seen[obs["tile"]].add(obs["face"])
    pairs = rng.choice(consistent_pairings(seen))
    toss = {obs["tile"]: obs["face"] for obs in info.observations if obs.kind == "toss"}
    first = next(obs["seat"] for obs in info.observations if obs.kind == "first")
    other = state.game.arrange(random.Random(0), pairs, toss, first)
    for action in history:
        other.apply(action)
    return other


def illegal_candidates(state: State) -> list[Action]:
    texts = ["pass", "flip t1", "move t2", "swap t2 t3", "lay t4 left", "return t5 right flip"]
    return [state.game.parse_action(text) for text in texts]


@pytest.mark.parametrize(
    "options",
    [{}, {"passing": "any-time", "swap_zone": "centre"}, {"phase1_scoring": False, "target": 4}],
    ids=["defaults", "pass-any-time-centre-swaps", "no-phase1-scoring"],
)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_conform(options: dict, seed: int, data: st.DataObject) -> None:
    """Random legal games under each option set keep every engine contract."""
    spec = EngineSpec(engines.make("blue-lion", **options), transitions, twin, illegal_candidates)
    check_random_game(spec, seed, drawn(data))


def test_two_thousand_random_games_end_with_their_invariants() -> None:
    for seed in range(2000):
        assert play_checked(GAME.new_game(seed), random.Random(seed), check_step).turns <= 200


def test_no_leak_check_can_fail() -> None:
    """The twin construction really changes hidden backs, so the no-leak check has teeth."""
    state = GAME.new_game(3)
    other = twin(state, [], "lupin", random.Random(1))
    assert any(twin(state, [], "lupin", random.Random(k))._pairs != state._pairs for k in range(20))
    assert other.information_set("lupin") == state.information_set("lupin")


# --- setup ------------------------------------------------------------------------------------
def test_toss_is_fair_and_reproducible() -> None:
    assert GAME.new_game(5).to_json() == GAME.new_game(5).to_json()
    counts = {"lupin": 0, "fujiko": 0}
    up_is_first_icon = 0
    for seed in range(2000):
        state = GAME.new_game(seed)
        counts[state.to_move] += 1
        up_is_first_icon += sum(state.up[t] == min(state._pairs[t]) for t in TILES)
    assert 900 < counts["lupin"] < 1100
    assert 0.47 < up_is_first_icon / 12000 < 0.53


def test_both_seats_see_the_same_things() -> None:
    state = GAME.new_game(9)
    rng = random.Random(9)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    lupin, fujiko = state.information_set("lupin"), state.information_set("fujiko")
    assert lupin.observations == fujiko.observations and lupin.seat != fujiko.seat


# --- phase 1, set-aside and returns -------------------------------------------------------------
def test_combination_in_phase_one_scores_and_is_returned_by_the_next_player() -> None:
    state = arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL")
    play(state, "lay t1", "lay t2 right", "lay t3 right")
    assert state.scores == {"lupin": 2, "fujiko": 0}
    assert state.line == ["t1", "t3"] and state.returning == ["t2"]
    assert state.to_move == "fujiko"
    play(state, "lay t4 left")
    assert state.to_move == "fujiko", "the turn ends only after returning the set-aside tile"
    assert {str(a) for a in state.legal_actions()} == {
        "return t2 left",
        "return t2 right",
        "return t2 left flip",
        "return t2 right flip",
    }
    with pytest.raises(IllegalAction, match="must first return t2"):
        state.apply_text("lay t5 left")
    play(state, "return t2 right flip")
    assert state.line == ["t4", "t1", "t3", "t2"] and state.up["t2"] == "Z"
    assert state.to_move == "lupin" and state.scores == {"lupin": 2, "fujiko": 0}


def test_phase_one_scoring_can_be_switched_off() -> None:
    state = arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL", phase1_scoring=False)
    play(state, "lay t1", "lay t2 right", "lay t3 right")
    assert state.scores == {"lupin": 0, "fujiko": 0} and state.line == ["t1", "t2", "t3"]


def test_returned_tiles_never_score_and_score_only_when_formed_again() -> None:
    state = arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL")
    play(state, "lay t1", "lay t2 right", "lay t3 right", "lay t6 left", "return t2 right")
    # t6:B t1:L t3:L t2:B -- returning t2 made nothing; now L t6 ... build L-B-L by returns only
    assert state.scores == {"lupin": 2, "fujiko": 0}


def test_pass_once_per_game_and_only_in_phase_one_by_default() -> None:
    state = arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL")
    play(state, "lay t1", "pass")
    assert "pass" not in map(str, state.legal_actions())
    with pytest.raises(IllegalAction, match="only one pass"):
        state.apply_text("pass")
    play(state, "lay t4 right", "lay t5 right", "lay t6 right", "lay t2 left", "lay t3 left")
    assert state.phase == 2


def test_pass_in_phase_two_with_the_option() -> None:
    moves = ["lay t1", "lay t4 right", "lay t5 right", "lay t6 right", "lay t2 left", "lay t3 left"]
    default = play(arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL"), *moves)
    assert default.phase == 2 and "pass" not in map(str, default.legal_actions())
    with pytest.raises(IllegalAction, match="phase 2"):
        default.apply_text("pass")
    anytime = play(arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL", passing="any-time"), *moves)
    assert "pass" in map(str, anytime.legal_actions())


# --- phase 2 ----------------------------------------------------------------------------------
LINE = "t1:ZL t2:LF t3:FZ t4:LB t5:ZB t6:BF"
BUILD = ["lay t1", "lay t2 right", "lay t3 right", "lay t4 right", "lay t5 right", "lay t6 right"]


def test_phase_two_moves() -> None:
    state = play(arrange(LINE), *BUILD)
    assert state.phase == 2 and state.line == list(TILES) and state.to_move == "lupin"
    assert {str(a) for a in state.legal_actions()} == {
        "move t1",
        "move t6",
        "swap t2 t3",
        "swap t3 t4",
        "swap t4 t5",
        *(f"flip {t}" for t in TILES),
    }
    play(state, "move t1")
    assert state.line == ["t2", "t3", "t4", "t5", "t6", "t1"]
    play(state, "swap t3 t4")
    assert state.line == ["t2", "t4", "t3", "t5", "t6", "t1"]


def test_centre_swap_zone() -> None:
    state = play(arrange(LINE, swap_zone="centre"), *BUILD)
    assert {str(a) for a in state.legal_actions() if str(a).startswith("swap")} == {"swap t3 t4"}


def test_no_undo() -> None:
    state = play(arrange(LINE), *BUILD, "move t1")
    assert "move t1" not in map(str, state.legal_actions())
    with pytest.raises(IllegalAction, match="undo"):
        state.apply_text("move t1")
    play(state, "swap t3 t4")
    assert "swap t3 t4" not in map(str, state.legal_actions())
    play(state, "flip t2")
    assert "flip t2" not in map(str, state.legal_actions())
    play(state, "flip t1")
    assert state.scores == {"lupin": 0, "fujiko": 0}
    assert "flip t2" in map(str, state.legal_actions()), "only the immediate inverse is banned"


def test_one_flip_creating_two_combinations() -> None:
    state = play(arrange(LINE), *BUILD)
    assert [state.up[t] for t in state.line] == list("ZLFLZB")
    play(state, "flip t3")  # Z L Z L Z B: Z-L-Z twice, both for Fujiko
    assert state.scores == {"lupin": 0, "fujiko": 2}
    assert state.line == ["t1", "t3", "t5", "t6"] and state.returning == ["t2", "t4"]
    assert state.to_move == "fujiko"
    assert {str(a) for a in state.legal_actions()} == {
        "move t1",
        "move t6",
        "swap t3 t5",
        "flip t1",
        "flip t5",
        "flip t6",
    }, "four tiles: one swappable pair; flipping t3 back would undo Lupin's move"
    play(state, "flip t6", "return t4 left", "return t2 right")
    assert state.line == ["t4", "t1", "t3", "t5", "t6", "t2"] and state.to_move == "lupin"


def test_scoring_on_a_short_line_sets_aside_first_then_returns_the_old_tile() -> None:
    state = arrange("t1:FL t2:BL t3:FZ t4:ZL t5:ZB t6:BF")
    play(state, "lay t1 flip", "lay t4 left flip", "lay t6 right", "lay t3 right flip")
    play(state, "lay t2 right", "lay t5 right", "move t5")
    play(state, "swap t1 t6")  # Z L B L Z B: Lupin steals a diamond, made by Fujiko
    assert state.scores == {"lupin": 2, "fujiko": 0} and state.returning == ["t6"]
    play(state, "swap t1 t3")  # on the short line: Z L Z L B, Lupin is interrogated
    assert state.scores == {"lupin": 2, "fujiko": 1}
    assert state.aside == ["t4"] and state.returning == ["t6"] and state.to_move == "lupin"
    play(state, "return t6 left flip")
    assert state.up["t6"] == "F" and state.to_move == "fujiko" and state.returning == ["t4"]


def test_theft_of_the_century_goes_to_whoever_made_it() -> None:
    state = arrange("t1:BL t2:BF t3:FZ t4:BZ t5:LZ t6:LF", first="fujiko")
    play(state, "lay t1", "lay t2 right", "lay t4 right")
    assert state.scores == {"lupin": 0, "fujiko": 3}


def test_reaching_the_target_ends_the_game() -> None:
    state = arrange("t1:BL t2:BF t3:FZ t4:BZ t5:LZ t6:LF", first="fujiko", target=3)
    play(state, "lay t1", "lay t2 right", "lay t4 right")
    assert state.is_over and state.winners == ("fujiko",)
    with pytest.raises(IllegalAction, match="over"):
        state.apply_text("lay t3 left")


def test_both_reaching_the_target_at_once_is_won_by_the_player_who_acted() -> None:
    state = arrange("t1:FZ t2:FB t3:LZ t4:FL t5:LB t6:BZ", phase1_scoring=False)
    play(state, "pass", "lay t4 flip", "lay t6 left flip", "lay t2 right", "lay t1 right")
    play(state, "lay t3 right", "lay t5 right flip", "flip t3", "swap t1 t2")
    state.scores.update(lupin=6, fujiko=6)
    play(state, "flip t1")  # one Z-L-Z for Fujiko and one Z-F-Z for Lupin
    assert state.scores == {"lupin": 7, "fujiko": 7}
    assert state.is_over and state.winners == ("fujiko",)


def test_turn_limit_ends_the_game_with_a_shared_win_on_a_tie() -> None:
    state = arrange("t1:LF t2:BZ t3:LZ t4:FB t5:ZF t6:BL", turn_limit=2)
    play(state, "lay t1", "lay t4 right")
    assert state.is_over and state.winners == ("lupin", "fujiko")


# --- input and options ------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "fly t1", "lay t9", "swap t1", "swap t1 t1", "return t1"])
def test_unreadable_moves_are_invalid_and_name_the_text(text: str) -> None:
    with pytest.raises(InvalidAction) as error:
        GAME.parse_action(text)
    assert repr(text) in str(error.value)


def test_parse_forgives_case_and_space() -> None:
    assert str(GAME.parse_action("  LAY t3   Left FLIP ")) == "lay t3 left flip"
    assert GAME.parse_action("swap t5 t2") == GAME.parse_action("swap t2 t5")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"first_player": "bob"}, "first_player"),
        ({"passing": "never"}, "passing"),
        ({"swap_zone": "edge"}, "swap_zone"),
        ({"target": 0}, "target"),
        ({"turn_limit": -1}, "turn_limit"),
        ({"phase1_scoring": "yes"}, "phase1_scoring"),
        ({"colour": "blue"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_raise_config_error(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        engines.make("blue-lion", **options)


def test_unknown_game() -> None:
    with pytest.raises(ConfigError, match="blue-lion"):
        engines.make("chess")


def test_reconstruct_rebuilds_the_state_and_rejects_contradicting_backs() -> None:
    state = GAME.new_game(4)
    rng = random.Random(4)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    info = state.information_set("fujiko")
    rebuilt = GAME.reconstruct(info, state._pairs)
    assert rebuilt.information_set("fujiko") == info and rebuilt._actions == state._actions
    assert GAME.state_from_json(rebuilt.to_json()).to_json() == rebuilt.to_json()
    wrong = {t: p for t, p in zip(TILES, reversed(PAIRS), strict=True)}
    if any(state.up[t] not in wrong[t] for t in TILES):
        with pytest.raises(engines.InvalidState):
            GAME.reconstruct(info, wrong)


def test_arrange_refuses_impossible_tiles() -> None:
    """A setup the toss cannot give is refused at once (so no JSON can load it either)."""
    pairs = dict(zip(TILES, PAIRS, strict=True))
    up = {tile: min(pair) for tile, pair in pairs.items()}
    rng = random.Random(0)
    for bad_pairs, bad_up, first, message in [
        ({**pairs, "t1": frozenset("L")}, up, "lupin", "six pairs"),
        ({**pairs, "t1": pairs["t2"]}, up, "lupin", "six pairs"),
        (pairs, {**up, "t1": max(pairs["t1"]) + "x"}, "lupin", "one of its own two faces"),
        (pairs, {**up, "t1": next(f for f in "LFZB" if f not in pairs["t1"])}, "lupin", "faces"),
        (pairs, up, "zenigata", "first player"),
    ]:
        with pytest.raises(engines.InvalidState, match=message):
            GAME.arrange(rng, bad_pairs, bad_up, first)
    assert GAME.arrange(rng, pairs, up, "fujiko").to_move == "fujiko"


def test_look_alike_option_values_are_refused() -> None:
    with pytest.raises(ConfigError, match="phase1_scoring"):
        engines.make("blue-lion", phase1_scoring=1)
    with pytest.raises(ConfigError, match="target"):
        engines.make("blue-lion", target=7.0)


@pytest.mark.parametrize(("kept", "waiting_for"), [(3, "the rest of the toss"), (6, "who starts")])
def test_public_state_of_an_unfinished_toss_says_what_it_waits_for(
    kept: int, waiting_for: str
) -> None:
    info = GAME.new_game(seed=1).information_set("lupin")
    unfinished = dataclasses.replace(info, observations=info.observations[:kept])
    with pytest.raises(engines.IncompleteInformationSet) as refused:
        GAME.public_state(unfinished)
    assert refused.value.waiting_for == waiting_for
