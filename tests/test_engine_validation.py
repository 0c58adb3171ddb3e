"""The engines' validation layer: hand-built actions, states from JSON, information sets.

Regression tests for each defect of issue 8 that was found from outside, then hypothesis tests
that mutate legal states' JSON and legal actions' fields at random: every outcome is either a
`SleuthError` (the state unchanged) or a state that passes its own invariants.
"""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import (
    ConfigError,
    IllegalAction,
    InformationSet,
    InvalidAction,
    InvalidInformationSet,
    InvalidState,
    Observation,
    SleuthError,
    State,
)
from engines.alibi import AlibiState, Ask, Pass, Subject, parse_subject
from engines.blue_lion import BlueLionState, Lay
from engines.blue_lion.material import PAIRS, TILES
from engines.noir import Kill, NoirState, Shift

CONFIGS: dict[str, dict[str, Any]] = {
    "blue-lion": {},
    "noir": {"grid": 3, "deck": "separate", "citizen_arrest": True},
    "alibi": {"players": 3, "deck": "small", "end_variant": "solutions", "round_limit": 4},
}


def played(name: str, seed: int, moves: int) -> State:
    """A game of `name` after up to `moves` random legal moves."""
    return engines.make(name, **CONFIGS[name]).random_game(seed, moves)


STATES = {
    name: [played(name, seed, moves) for seed, moves in ((1, 6), (2, 25), (3, 10_000))]
    for name in CONFIGS
}


def alibi_at_second_passing() -> AlibiState:
    """The reproduction of the card duplication: 3 players, small deck, seed 2, round 2's
    passing step reached by questions only."""
    state = engines.make("alibi", players=3, deck="small").new_game(2)
    assert isinstance(state, AlibiState)
    rng = random.Random(2)
    while not (state.phase == "passing" and state.round == 2):
        if state.phase == "passing":
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(rng.choice([a for a in state.legal_actions() if isinstance(a, Ask)]))
    assert isinstance(state, AlibiState)
    return state


# --- hand-built actions -------------------------------------------------------------------------
def test_alibi_pass_naming_a_card_twice_is_refused_and_duplicates_nothing() -> None:
    state = alibi_at_second_passing()
    seat = state.to_move
    assert isinstance(seat, int)
    card = state.hand(seat)[0]
    before = state.to_json()
    with pytest.raises(InvalidAction, match=r"Pass\.cards.*distinct"):
        state.apply(Pass((card, card)))
    assert state.to_json() == before
    with pytest.raises(IllegalAction, match="passes 2 cards"):
        state.apply(Pass((card,)))
    other = next(c for c in state.game.deck.ids if c not in state.hand(seat))
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply(Pass((card, other)))
    assert state.to_json() == before
    state.apply(Pass(tuple(state.hand(seat)[:2])))
    state.check_invariants()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("scope", "feel", r"Ask\.scope.*'hand', 'seen'"),
        ("scope", None, r"Ask\.scope"),
        ("target", True, r"Ask\.target.*seat from 0 to 2"),
        ("target", 7, r"Ask\.target"),
        ("subject", Subject("cards", ("car-trunk", "car-trunk")), r"Ask\.subject"),
        ("subject", Subject("type", "colour"), r"Ask\.subject"),
        ("subject", Subject("cards", ()), r"Ask\.subject"),
        ("subject", "type:weapon", r"Ask\.subject.*parse_subject"),
    ],
)
def test_alibi_questions_built_in_code_are_checked(field: str, value: Any, message: str) -> None:
    state = played("alibi", 4, 0)
    seat = state.to_move
    assert isinstance(state, AlibiState) and isinstance(seat, int)
    good = Ask((seat + 1) % 3, "hand", parse_subject("type:weapon", state.game.deck))
    before = state.to_json()
    with pytest.raises(InvalidAction, match=message):
        state.apply(dataclasses.replace(good, **{field: value}))
    assert state.to_json() == before
    state.apply(good)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Shift("row", True, "left"), r"Shift\.index cannot be True"),
        (Shift("diag", 1, "up"), r"Shift\.line cannot be 'diag'; allowed: 'row', 'column'"),
        (Shift("row", 1, "up"), "a row shifts left or right"),
        (Shift("row", 0, "left"), r"Shift\.index.*from 1"),
        (Shift("row", 1.0, "left"), r"Shift\.index"),  # type: ignore[arg-type]
        (Kill(5), r"Kill\.suspect cannot be 5"),  # type: ignore[arg-type]
        (Kill("ada"), r"Kill\.suspect"),
        (Kill("Yuri"), r"Kill\.suspect.*Ada"),  # not on a 3x3 grid
    ],
)
def test_noir_actions_built_in_code_are_checked(action: Any, message: str) -> None:
    state = played("noir", 5, 3)
    before = state.to_json()
    with pytest.raises(InvalidAction, match=message):
        state.apply(action)
    assert state.to_json() == before
    engines.make("noir", **CONFIGS["noir"]).state_from_json(before).check_invariants()


def test_blue_lion_actions_built_in_code_are_checked() -> None:
    state = played("blue-lion", 5, 0)
    before = state.to_json()
    one: Any = 1
    for action, message in [
        (Lay("t1", None, one), r"Lay\.flip cannot be 1; allowed: True or False"),
        (Lay("t7", None), r"Lay\.tile"),
        (Lay("t1", "up"), r"Lay\.end"),
        (dataclasses.replace(engines.blue_lion.Swap("t2", "t3"), second="t2"), "two different"),
    ]:
        with pytest.raises(InvalidAction, match=message):
            state.apply(action)
    assert state.to_json() == before


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("value", [None, 7, b"pass", ["pass"], 1.5])
def test_parse_action_of_anything_but_text_is_invalid(name: str, value: Any) -> None:
    with pytest.raises(InvalidAction, match="an action is text"):
        engines.make(name, **CONFIGS[name]).parse_action(value)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_long_input_is_quoted_short(name: str) -> None:
    game = engines.make(name, **CONFIGS[name])
    for text in ("x" * 1_000_000, "kill " + "a" * 1_000_000, "ask 1 hand cards:" + "b" * 10**6):
        with pytest.raises(InvalidAction) as error:
            game.parse_action(text)
        assert len(str(error.value)) < 600 and "..." in str(error.value)
    with pytest.raises(InvalidState) as bad_state:
        game.state_from_json("[" * 100_000)
    assert len(str(bad_state.value)) < 300


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_other_games_actions_and_non_actions_are_refused(name: str) -> None:
    state = STATES[name][0]
    others = [s for n, states in STATES.items() if n != name for s in states[:1]]
    foreign = [a for other in others for a in other.legal_actions()[:1]]
    before = state.to_json()
    for action in [*foreign, "pass", None, 3]:
        with pytest.raises(InvalidAction, match=r"is (an action of another game|not an action)"):
            state.apply(action)  # type: ignore[arg-type]
    assert state.to_json() == before


def test_a_bool_is_never_a_seat() -> None:
    alibi, noir = STATES["alibi"][0], STATES["noir"][0]
    for state, seat in [(alibi, True), (alibi, False), (alibi, 1.0), (noir, 0)]:
        with pytest.raises(ConfigError, match="no seat"):
            state.information_set(seat)  # type: ignore[arg-type]
    assert alibi.information_set(1).seat == 1
    with pytest.raises(ConfigError, match="no seat"):
        STATES["blue-lion"][0].points(True)
    with pytest.raises(ConfigError, match="no seat"):
        alibi.game.seat_from_text(None)  # type: ignore[arg-type]


# --- states from JSON ---------------------------------------------------------------------------
def edited(state: State, edit: Any) -> str:
    """The state's JSON after `edit(data)` changed the decoded document in place."""
    data = json.loads(state.to_json())
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_malformed_json_is_an_invalid_state_naming_the_problem(name: str) -> None:
    state = STATES[name][1]
    game, text = state.game, state.to_json()
    cases = {
        text[: len(text) // 2]: "not JSON",
        "null": "an object with the keys",
        "[]": "an object",
        "{}": "has no key",
        edited(state, lambda d: d.update(version=1)): "version 1 cannot be read.*version 2",
        edited(state, lambda d: d.update(version=True)): "version True",
        edited(state, lambda d: d.update(game="chess")): "game cannot be 'chess'",
        edited(state, lambda d: d.update(extra=1)): "unknown key 'extra'",
        edited(state, lambda d: d.pop("log")): "no key 'log'",
        edited(state, lambda d: d.pop("actions")): "no key 'actions'",
        edited(state, lambda d: d.update(setup=None)): "setup cannot be null",
        edited(state, lambda d: d.update(setup=[])): "setup cannot be",
        edited(state, lambda d: d["setup"].pop("rng")): "setup cannot be",
        edited(state, lambda d: d["setup"].update(extra=1)): "setup has an unknown key 'extra'",
        edited(state, lambda d: d["setup"]["rng"].pop()): r"setup\.rng cannot be",
        edited(state, lambda d: d["setup"]["rng"][1].__setitem__(624, 999)): (
            r"setup\.rng\[1\]\[624\]"
        ),
        edited(state, lambda d: d.update(actions={})): "actions cannot be",
        edited(state, lambda d: d["actions"].insert(0, 5)): r"actions\[0\] cannot be 5",
        edited(state, lambda d: d["actions"].append("dance")): (
            r"actions\[\d+\] 'dance' cannot be replayed"
        ),
        edited(state, lambda d: d["rng"].pop()): "does not follow .*: rng has 2 items, not 3",
        edited(state, lambda d: d["log"].append([{"kind": "x"}, None])): r"log has \d+ items",
        edited(state, lambda d: d["log"][0].__setitem__(1, ["nobody"])): r"log\[0\]\[1\] is",
        edited(state, lambda d: d["state"].pop(next(iter(d["state"])))): r"state\.\w+ is missing",
        edited(state, lambda d: d["options"].pop()): "made with the options",
    }
    for bad, message in cases.items():
        with pytest.raises(InvalidState, match=message):
            game.state_from_json(bad)
    assert game.state_from_json(text).to_json() == text


NOT_FOLLOWING = "does not follow from its setup and actions"


def test_blue_lion_impossible_states_are_refused() -> None:
    state = STATES["blue-lion"][1]
    assert isinstance(state, BlueLionState)
    load = state.game.state_from_json

    def face_off_t1(data: Any) -> None:
        data["setup"]["up"]["t1"] = next(f for f in "LFZB" if f not in data["setup"]["pairs"]["t1"])

    with pytest.raises(InvalidState, match=r"setup\.pairs\.t1 cannot be \['L', 'L'\]"):
        load(edited(state, lambda d: d["setup"]["pairs"].update(t1=["L", "L"])))
    with pytest.raises(InvalidState, match="six pairs of two different icons, each once"):
        load(edited(state, lambda d: d["setup"]["pairs"].update(t1=d["setup"]["pairs"]["t2"])))
    with pytest.raises(InvalidState, match="one of its own two faces"):
        load(edited(state, face_off_t1))
    with pytest.raises(InvalidState, match=r"setup\.first cannot be 'zenigata'"):
        load(edited(state, lambda d: d["setup"].update(first="zenigata")))
    tile = state.line[0] if state.line else state.pool[0]
    with pytest.raises(InvalidState, match=rf"{NOT_FOLLOWING}: state\.pool"):
        load(edited(state, lambda d: d["state"]["pool"].append(tile)))
    with pytest.raises(InvalidState, match=r"state\.scores\.lupin is 5, not"):
        load(edited(state, lambda d: d["state"]["scores"].update(lupin=5)))
    with pytest.raises(InvalidState, match=r"state\.scores\.lupin is True, not \d"):
        load(edited(state, lambda d: d["state"]["scores"].update(lupin=True)))


def test_noir_impossible_states_are_refused() -> None:
    games = (played("noir", seed, 5) for seed in range(50))
    state = next(s for s in games if isinstance(s, NoirState) and s.dead and not s.is_over)
    load = state.game.state_from_json
    for edit, message in [
        (lambda d: d["state"].update(killer=state.dead[0]), r"state\.killer is"),
        (lambda d: d["state"].update(killer="Zed"), r"state\.killer is 'Zed'"),
        (lambda d: d["state"].update(deck_top=999), r"state\.deck_top is 999"),
        (lambda d: d["state"]["dead"].pop(), r"state\.dead has"),
        (lambda d: d["state"].update(protected="shift row True left"), r"state\.protected"),
        (lambda d: d["setup"]["grid"][0].__setitem__(0, "Zed"), r"setup\.grid\[0\]\[0\]"),
        (lambda d: d["setup"]["grid"][0].__setitem__(0, d["setup"]["grid"][1][0]), "grid must"),
        (lambda d: d["setup"]["grid"].pop(), "3 rows of 3"),
        (lambda d: d["setup"]["deck"].pop(), "the deck must hold"),
        (lambda d: d["setup"]["deck"].append(d["setup"]["deck"][0]), "at most once"),
        (lambda d: d["setup"]["killer_deck"].pop(), "killer's deck must hold"),
        (lambda d: d["setup"].update(killer_deck=None), "exactly when the option deck"),
    ]:
        with pytest.raises(InvalidState, match=message):
            load(edited(state, edit))


def test_alibi_impossible_states_are_refused() -> None:
    state = STATES["alibi"][1]
    assert isinstance(state, AlibiState)
    load = state.game.state_from_json
    box_card = state.box()[0]
    for edit, message in [
        (lambda d: d["setup"]["hands"][0].append(box_card), "every card of the deck once"),
        (lambda d: d["setup"]["hands"].__setitem__(1, d["setup"]["hands"][0]), "deck once"),
        (lambda d: d["setup"]["hands"][0].append(d["setup"]["hands"][0][0]), "at most once"),
        (lambda d: d["setup"].update(box=d["setup"]["box"][::-1]), "one card of each type"),
        (lambda d: d["setup"].update(dealer=3), r"setup\.dealer cannot be 3"),
        (lambda d: d["setup"].update(dealer=(d["setup"]["dealer"] + 1) % 3), "gives hands of"),
        (lambda d: d["state"]["scores"].__setitem__(0, 3), r"state\.scores\[0\] is 3"),
        (lambda d: d["state"]["hands"][0].append(box_card), r"state\.hands\[0\] has"),
        (lambda d: d["state"].update(box=d["state"]["box"][::-1]), r"state\.box\[0\]"),
    ]:
        with pytest.raises(InvalidState, match=message):
            load(edited(state, edit))


def log_index(state: State, kind: str) -> int:
    """The index in the log of the first observation of `kind` (it must have one)."""
    return next(i for i, (obs, _) in enumerate(state._log) if obs.kind == kind)


def with_observation(name: str, kind: str, moves: int) -> State:
    """The first random game of `name` (seeds 0, 1, ...) whose log records `kind` after up to
    `moves` moves."""
    games = (played(name, seed, moves) for seed in range(100))
    return next(s for s in games if any(obs.kind == kind for obs, _ in s._log))


def drop_field(entry: Any, name: str) -> None:
    """Remove the field `name` from a log entry's observation, in place."""
    entry[0]["fields"] = [pair for pair in entry[0]["fields"] if pair[0] != name]


def set_field(entry: Any, name: str, value: Any) -> None:
    """Give the field `name` of a log entry's observation a new value, in place."""
    entry[0]["fields"] = [[key, value if key == name else old] for key, old in entry[0]["fields"]]


def test_an_edited_log_is_refused() -> None:
    """The log must be exactly the replay's: the soak found each of these loading silently."""
    state = with_observation("blue-lion", "reveal", 40)
    load, reveal = state.game.state_from_json, log_index(state, "reveal")
    other_face = next(f for f in "LFZB" if f != state._log[reveal][0]["face"])
    act = log_index(state, "act")
    for edit, message in [
        (lambda d: set_field(d["log"][reveal], "face", other_face), rf"log\[{reveal}\]\[0\]"),
        (lambda d: drop_field(d["log"][reveal], "tile"), rf"log\[{reveal}\]\[0\]\.fields"),
        (lambda d: drop_field(d["log"][act], "action"), rf"log\[{act}\]\[0\]\.fields"),
        (lambda d: d["log"].pop(reveal), rf"log\[{reveal}\]"),
        (lambda d: d["log"].pop(), "log has"),
    ]:
        with pytest.raises(InvalidState, match=f"{NOT_FOLLOWING}: {message}"):
            load(edited(state, edit))


def test_a_noir_log_with_a_doubled_suspect_or_a_kill_before_the_setup_is_refused() -> None:
    state = with_observation("noir", "shift", 30)
    shift, kill = log_index(state, "shift"), log_index(state, "kill")

    def doubled(data: Any) -> None:
        rows = dict(data["log"][shift][0]["fields"])["rows"]
        rows[0][0] = rows[0][1]
        set_field(data["log"][shift], "rows", rows)

    def kill_first(data: Any) -> None:
        data["log"].insert(0, data["log"].pop(kill))

    for edit in (doubled, kill_first):
        with pytest.raises(InvalidState, match=f"{NOT_FOLLOWING}: log"):
            state.game.state_from_json(edited(state, edit))


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_actions_that_do_not_give_the_state_are_refused(name: str) -> None:
    state = STATES[name][0]
    load = state.game.state_from_json
    assert len(state._actions) >= 2 and not state.is_over
    illegal = next(
        str(action)
        for other in STATES[name]
        for action in [*other._actions, *other.legal_actions()]
        if action not in state.legal_actions()
    )
    with pytest.raises(InvalidState, match=r"actions\[\d+\] .* cannot be replayed"):
        load(edited(state, lambda d: d["actions"].append(illegal)))
    with pytest.raises(InvalidState, match=r"actions\[\d\] .* cannot be replayed"):
        load(edited(state, lambda d: d["actions"].insert(0, d["actions"][1])))
    with pytest.raises(InvalidState, match=NOT_FOLLOWING):
        load(edited(state, lambda d: d["actions"].pop()))
    with pytest.raises(InvalidState, match=NOT_FOLLOWING):
        load(edited(state, lambda d: d.update(actions=[])))


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_view_from_an_information_set_cannot_be_loaded_as_a_state(name: str) -> None:
    state = STATES[name][0]
    seat = state.to_move
    assert seat is not None
    view = state.game.seat_view(state.information_set(seat))
    text = view.to_json()
    if view._setup is None:  # Alibi and Noir views leave the hidden cards unknown
        with pytest.raises(InvalidState, match="setup cannot be null"):
            state.game.state_from_json(text)
    else:  # a Blue Lion view is a whole state, rebuilt by `reconstruct`
        assert state.game.state_from_json(text).to_json() == text


def test_states_made_for_search_round_trip() -> None:
    """Clones, finished games and Blue Lion's determinizations (`with_pairs`) load exactly."""
    for states in STATES.values():
        for state in states:
            clone = state.clone()
            assert clone.game.state_from_json(clone.to_json()).to_json() == state.to_json()
    lion = STATES["blue-lion"][0]
    assert isinstance(lion, BlueLionState)
    seen = {
        tile: {obs["face"] for obs, _ in lion._log if obs.get("tile") == tile} for tile in TILES
    }
    pairs = next(
        dict(zip(TILES, order, strict=True))
        for order in permutations(PAIRS)
        if all(seen[t] <= pair for t, pair in zip(TILES, order, strict=True))
        and dict(zip(TILES, order, strict=True)) != lion._pairs
    )
    other = lion.with_pairs(pairs)
    assert other.game.state_from_json(other.to_json()).to_json() == other.to_json()
    assert other.to_json() != lion.to_json()


# --- information sets ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{}", "has no key"),
        ("null", "an object"),
        ("[1", "not JSON"),
        ('{"game": 1, "options": [], "seat": 0, "observations": []}', "game cannot be 1"),
        ('{"game": "alibi", "options": [], "seat": true, "observations": []}', "seat cannot"),
        ('{"game": "alibi", "options": {}, "seat": 0, "observations": []}', "options cannot"),
        ('{"game": "alibi", "options": [["a"]], "seat": 0, "observations": []}', "options"),
        ('{"game": "alibi", "options": [], "seat": 0, "observations": {}}', "observations"),
        ('{"game": "alibi", "options": [], "seat": 0, "observations": [{"kind": "x"}]}', "fields"),
        (
            '{"game": "alibi", "options": [], "seat": 0, '
            '"observations": [{"kind": "x", "fields": [["a", {"b": 1}]]}]}',
            r"fields\[0\]\[1\]",
        ),
        (
            '{"game": "alibi", "options": [], "seat": 0, '
            '"observations": [{"kind": "x", "fields": [["a", 1], ["a", 2]]}]}',
            "each name once",
        ),
    ],
)
def test_malformed_information_sets_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidInformationSet, match=message):
        InformationSet.from_json(text)


def test_observation_from_dict_checks_structure() -> None:
    malformed: list[Any] = [None, [], {"kind": 3, "fields": []}, {"kind": "x", "fields": [[1, 2]]}]
    for data in malformed:
        with pytest.raises(InvalidInformationSet):
            Observation.from_dict(data)
    assert Observation.from_dict({"kind": "x", "fields": [["a", [1, 2]]]}) == Observation.of(
        "x", a=[1, 2]
    )


# --- random mutations ---------------------------------------------------------------------------
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 30),
    st.floats(allow_nan=True),
    st.text(max_size=6),
)
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3), max_leaves=6)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside decoded JSON (the words of each rng counted as one)."""
    found = [prefix] if prefix else []
    if "rng" in prefix and prefix.index("rng") < len(prefix) - 1:
        return found
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return found
    for key, item in items:
        found += paths(item, (*prefix, key))
    return found


def mutate(data: Any, path: tuple[Any, ...], how: str, new: Any) -> None:
    """Delete, replace, retype, duplicate or drop the value at `path`, in place."""
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key, old = path[-1], parent[path[-1]]
    if how == "delete":
        del parent[key]
    elif how == "retype":
        parent[key] = str(old) if not isinstance(old, str) else [old]
    elif how == "duplicate" and isinstance(old, list) and old:
        old.append(old[0])
    elif how == "drop" and isinstance(old, list) and old:
        old.pop()
    else:
        parent[key] = new


def accepted_or_refused(load: Any, text: str) -> None:
    """Loading either raises a SleuthError or gives a state that keeps its invariants."""
    try:
        state = load(text)
    except SleuthError:
        return
    state.check_invariants()
    assert load(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("name", sorted(CONFIGS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_state_json_is_refused_or_valid(name: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(STATES[name]))
    text = state.to_json()
    if data.draw(st.integers(0, 9)) == 0:
        accepted_or_refused(
            state.game.state_from_json, text[: data.draw(st.integers(0, len(text)))]
        )
        return
    document = json.loads(text)
    path = data.draw(st.sampled_from(paths(document)))
    how = data.draw(st.sampled_from(["delete", "replace", "retype", "duplicate", "drop"]))
    parent: Any = document
    for key in path[:-1]:
        parent = parent[key]
    siblings = [v for v in (parent.values() if isinstance(parent, dict) else parent)]
    new = data.draw(st.one_of(JSON_VALUES, st.sampled_from(siblings)))
    mutate(document, path, how, new)
    accepted_or_refused(state.game.state_from_json, json.dumps(document))


def field_values(state: State) -> list[Any]:
    """Values of the right vocabulary: every field value of every legal action now."""
    return [
        getattr(action, field.name)
        for action in state.legal_actions()
        for field in dataclasses.fields(action)  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("name", sorted(CONFIGS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_actions_are_refused_or_legal(name: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from([s for s in STATES[name] if not s.is_over])).clone()
    legal = state.legal_actions()
    action = data.draw(st.sampled_from(legal))
    fields = dataclasses.fields(action)  # type: ignore[arg-type]
    if fields:
        field = data.draw(st.sampled_from(fields))
        vocabulary = field_values(state) or [None]
        value = data.draw(
            st.one_of(
                JSON_VALUES,
                st.sampled_from(vocabulary),
                st.tuples(st.sampled_from(vocabulary), st.sampled_from(vocabulary)),
            )
        )
        action = dataclasses.replace(action, **{field.name: value})  # type: ignore[type-var]
    before = state.to_json()
    try:
        state.apply(action)
    except SleuthError:
        assert state.to_json() == before, "a refused action changed the state"
        return
    state.check_invariants()
