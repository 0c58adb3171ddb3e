"""City Killer's engine: the conformance suite on random options, then rules one by one."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from string import Formatter

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import engines
import opponents
import solver
from engines import (
    Action,
    ConfigError,
    IllegalAction,
    IncompleteInformationSet,
    InformationSet,
    NotToMove,
    State,
)
from engines.city_killer import DETECTIVE, KILLER, CityKiller, CityKillerState
from engines.city_killer import actions as act
from engines.city_killer.frames import (
    AnswerQuestion,
    ChooseAllies,
    ChooseIdentity,
    Frame,
    KillerTurn,
    PlacePawn,
    PlaceResidents,
    Reaction,
)
from engines.city_killer.material import GROUPS, MOTIVES, POOL
from engines.city_killer.observations import KINDS
from engines.city_killer.pool_file import EXAMPLE
from solver.validation import validate
from tests.conformance import EngineSpec, check_random_game, drawn

SWITCHES = {
    spec.name: list(spec.allowed) for spec in CityKiller.options_spec if spec.allowed is not None
}
SWITCHES["residents"] = [8, 12, 20]


def random_game(rng: random.Random) -> CityKiller:
    """A game with each switch drawn at random (the small configurations included)."""
    options = {name: rng.choice(values) for name, values in SWITCHES.items()}
    options["pool"] = rng.choice([options["residents"], 27, 54])
    if rng.random() < 0.3:  # the example pool file: 12 residents
        options.update(pool_file=str(EXAMPLE), residents=8, pool=rng.choice([8, 54]))
    options["killer_symbol_cards"] = rng.sample(
        ["graffiti", "abduction", "bomb", "message", "strike"], 3
    )
    game = engines.make("city-killer", **options)
    assert isinstance(game, CityKiller)
    return game


def setup_of(state: State) -> dict:
    assert state._setup is not None
    return state._setup.to_dict()


def replay(
    game: CityKiller, setup: dict, actions: Sequence[Action], like: State
) -> CityKillerState | None:
    """`actions` from `setup`, with the chance of `like`'s start; None if one is illegal."""
    assert like._setup is not None
    rng = random.Random()
    rng.setstate(like._setup.rng)
    try:
        state = game._arrange_from_dict(setup, rng, _READ)
        if like._given is not None:  # explicit chance: the same outcomes, not the RNG's
            state._given = [outcome for _, outcome, _ in like._draws]
        for action in actions:
            state.apply(action)
    except (IllegalAction, engines.InvalidState):
        return None
    return state


_READ = engines.values.JsonReader(engines.InvalidState, "test setup")
INFORMATIVE = {
    DETECTIVE: ("surveillance", "confession", "token", "end"),
    KILLER: ("evidence-discard", "end"),
}
"""Public observations that may depend on what the seat cannot see: they are what it learns."""


def twin(state: State, history: Sequence[Action], seat: object, rng: random.Random) -> State | None:
    """The same actions from a setup that differs only in what `seat` cannot see: for the
    detective the killer's secrets and deck, for the killer the evidence tokens' order."""
    assert isinstance(state, CityKillerState)
    game = state.game
    for _ in range(4):
        setup = setup_of(state)
        if seat == DETECTIVE:
            names = setup["residents"]
            if setup["identity"] is not None:
                setup["identity"] = rng.choice(names)
                if setup["figurant"] is not None:
                    setup["figurant"] = rng.choice([n for n in names if n != setup["identity"]])
            setup["motive"] = rng.choice(MOTIVES)
            setup["drawn"] = rng.sample(GROUPS, 3)
            rng.shuffle(setup["killer_deck"])
        else:
            rng.shuffle(setup["supply"])
        found = replay(game, setup, history, state)
        if found is None:
            continue
        kinds = INFORMATIVE[str(seat)]
        if [o for o in found.public_observations() if o.kind in kinds] != [
            o for o in state.public_observations() if o.kind in kinds
        ]:
            continue
        return found
    return None


def transitions(previous: State | None, state: State) -> None:
    assert isinstance(state, CityKillerState)
    living = state.living
    if state.frames and isinstance(state.frames[-1], PlaceResidents):  # initial_placement=detective
        assert not state.dead and set(living) < set(state.residents)
        return
    assert state._identity == "" or state._identity in living or state.is_over
    assert len(state.scenes) <= 5 and state.refusals <= 2
    if previous is not None:
        assert isinstance(previous, CityKillerState)
        assert set(previous.dead) <= set(state.dead)
        assert state.murders - previous.murders in (0, 1)
        assert state.refusals - previous.refusals in (0, 1)
        assert len(state.living) + len(state.dead) == len(state.residents)


def illegal_candidates(state: State) -> list[Action]:
    assert isinstance(state, CityKillerState)
    name = state.residents[0]
    return [
        act.Verb("refuse"),
        act.Verb("end"),
        act.Named("murder", state._identity or name),
        act.Answer(True),
        act.Answer(False),
        act.Play("bomb", ("1,1",)),
        act.Play("sixth-sense"),
        act.Verb("pass"),
    ]


@settings(max_examples=8, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate))
@given(st.integers(0, 10_000), st.data())
def test_conformance_on_random_options(seed: int, data: st.DataObject) -> None:
    game = random_game(random.Random(seed))
    spec = EngineSpec(game, transitions, twin, illegal_candidates, max_steps=2_000)
    check_random_game(spec, seed, drawn(data))


# --- rules ----------------------------------------------------------------------------------
GAME = engines.make("city-killer")


def started(seed: int = 1, **options: object) -> CityKillerState:
    """A game past its setup decisions (allies: the first token; pawn at 1,1)."""
    game = engines.make("city-killer", **options)
    state = game.new_game(seed)
    assert isinstance(state, CityKillerState)
    while isinstance(state.frames[-1], ChooseIdentity | ChooseAllies | PlacePawn):
        state.apply(state.legal_actions()[0])
    return state


def legal(state: State) -> set[str]:
    return {str(action) for action in state.legal_actions()}


def test_the_pool_follows_its_formula() -> None:
    first = POOL[0]
    assert (first.sex, first.age, first.build, first.height) == ("male", "young", "slim", "short")
    assert (first.group, first.profession) == ("law", "police-officer")
    assert [r.card for r in POOL if r.group == "law"] == [1, 14, 27, 28, 45, 50]
    profiles = {(r.sex, r.age, r.build, r.height) for r in POOL}
    assert len(profiles) == 54


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="pool"):
        engines.make("city-killer", residents=12, pool=10)
    with pytest.raises(ConfigError, match="liar_model"):
        engines.make("city-killer", liar_model="sometimes")


def test_intimidation_is_mandatory_then_the_murder_fits_the_motive() -> None:
    state = started()
    assert state.to_move == KILLER and state.frames[-1] == KillerTurn(2)
    assert not any(a.startswith("murder") for a in legal(state))
    for _ in range(2):
        state.apply(next(a for a in state.legal_actions() if str(a).startswith("intimidate")))
    murders = [a for a in state.legal_actions() if str(a).startswith("murder")]
    assert "refuse" in legal(state)
    for action in murders:
        assert isinstance(action, act.Named)
        assert state._motive in GAME.predicates.fitting(state.scene_of(action.name))
        assert action.name != state._identity and state.pos[action.name] != state.pawn


def murder_due(state: CityKillerState) -> bool:
    """The killer's turn, his intimidations made: the murder (or a refusal) is next."""
    frame = state.frames[-1]
    return isinstance(frame, KillerTurn) and not state.intimidations_left(frame)


def test_a_second_refusal_loses() -> None:
    state = started()
    for _ in range(2):
        while not murder_due(state):
            if state.to_move == KILLER:
                state.apply(state.legal_actions()[0])
            else:
                state.apply(act.Verb("end") if act.Verb("end") in state.legal_actions() else
                            state.legal_actions()[-1])  # fmt: skip
        state.apply(act.Verb("refuse"))
    assert state.is_over and state.winners == (DETECTIVE,)


def play_until(
    state: CityKillerState, kind: type[Frame], rng: random.Random, limit: int = 2000
) -> bool:
    for _ in range(limit):
        if state.is_over:
            return False
        if isinstance(state.frames[-1], kind):
            return True
        state.apply(rng.choice(state.legal_actions()))
    return False


def test_honest_residents_answer_truly_and_liars_freely() -> None:
    seen_honest = seen_liar = 0
    for seed in range(30):
        state = started(seed)
        rng = random.Random(seed)
        while play_until(state, AnswerQuestion, rng):
            frame = state.frames[-1]
            assert isinstance(frame, AnswerQuestion)
            truth = state.resident(state._identity).attribute(frame.attr) == frame.value
            answers = {a for a in state.legal_actions() if isinstance(a, act.Answer)}
            if state.is_liar(frame.name):
                seen_liar += 1
                assert answers == {act.Answer(True), act.Answer(False)}
            else:
                seen_honest += 1
                assert answers == {act.Answer(truth)}
            state.apply(rng.choice(state.legal_actions()))
    assert seen_honest and seen_liar


def test_windows_open_on_hand_sizes_alone() -> None:
    """A reaction window depends on how many cards the other seat holds, never on which."""
    for seed in range(20):
        state = started(seed)
        rng = random.Random(seed)
        while play_until(state, Reaction, rng):
            seat = state.frames[-1].seat
            assert state.hand_size(seat) >= 1
            assert act.Verb("pass") in state.legal_actions()
            state.apply(rng.choice(state.legal_actions()))


def test_a_clone_keeps_its_frames_while_the_game_goes_on() -> None:
    """Clones share the frames, so none is changed in place: a decision that goes on (an
    intimidation made, a resident moved or asked) puts its successor on the stack."""
    for seed in range(6):
        state = started(seed)
        rng = random.Random(seed)
        while not state.is_over:
            copy = state.clone()
            frames = copy._to_dict()["frames"]
            state.apply(rng.choice(state.legal_actions()))
            assert copy._to_dict()["frames"] == frames


def test_capacity_and_crime_scene_count_hold_in_random_games() -> None:
    for seed in range(25):
        state = GAME.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            counts: dict = {}
            for district in state.pos.values():
                counts[district] = counts.get(district, 0) + 1
            assert max(counts.values()) <= 3
        assert state.murders == 5 or state.refusals == 2


def test_json_names_the_bad_field() -> None:
    state = started()
    data = json.loads(state.to_json())
    data["setup"]["motive"] = "boredom"
    with pytest.raises(engines.InvalidState, match=r"setup\.motive"):
        GAME.state_from_json(json.dumps(data))


def test_each_kind_says_its_words_by_a_template_of_its_fields_or_by_a_method() -> None:
    for (kind,) in KINDS.values():
        for template, method in ((kind.DESCRIBE, "describe"), (kind.TEXT, "text")):
            overridden = method in vars(kind)
            assert bool(template) != overridden, f"{kind.KIND}: a template or a {method}"
            named = {field for _, field, _, _ in Formatter().parse(template) if field}
            assert named <= set(kind.field_names()), f"{kind.KIND}: {named}"


def test_notation_reads_back() -> None:
    for text in ("ask Vera height:tall", "move 2,3", "surveil Ivan", "play cordon 3,1",
                 "answer yes", "murder Oleg", "accuse Oleg psychopath", "evidence row 2",
                 "play testimony Vera Oleg", "keep police", "shift Ivan 1,2"):  # fmt: skip
        assert str(GAME.parse_action(text)) == text
    with pytest.raises(engines.InvalidAction, match="no resident"):
        GAME.parse_action("murder Nobody")


def test_the_detective_places_the_residents() -> None:
    """initial_placement=detective: each resident in turn, typed and read back, into a district
    with room; both seats see it, views rebuild it, and it says nothing of the killer."""
    game = engines.make("city-killer", initial_placement="detective", district_capacity=2)
    state = game.new_game(4)
    assert isinstance(state, CityKillerState)
    for i, name in enumerate(state.residents):
        assert state.to_move == DETECTIVE
        offered = state.legal_actions()
        assert {a.name for a in offered if isinstance(a, act.Place)} == {name}
        full = {d for d in {(r, c) for r in range(1, 5) for c in range(1, 5)}
                if len(state.at(d)) == 2}  # fmt: skip
        assert {a.district for a in offered if isinstance(a, act.Place)} == {
            (r, c) for r in range(1, 5) for c in range(1, 5)
        } - full
        text = f"place {name.lower()} {1 + i // 8},{1 + i // 2 % 4}"
        assert str(game.parse_action(text)) == text.replace(name.lower(), name)
        state.apply(game.parse_action(text))
    assert state.pos[state.residents[0]] == (1, 1) and state.pos[state.residents[9]] == (2, 1)
    assert not isinstance(state.frames[-1], PlaceResidents)
    for seat in (DETECTIVE, KILLER):
        info = state.information_set(seat)
        acts = [o["move"] for o in info.observations if o.kind == "act"]
        assert acts[: len(state.residents)] == [
            f"place {n} {state.pos[n][0]},{state.pos[n][1]}" for n in state.residents
        ]
        assert game.seat_view(info).pos == state.pos
    deduction = solver.deduce(state.information_set(DETECTIVE))
    n = len(state.residents)
    assert deduction.total() == n * len(MOTIVES) * len(GROUPS) * (n - 1)
    with pytest.raises(engines.InvalidState, match="placement must be empty"):
        setup = setup_of(state)
        setup["placement"] = [[name, 1, 1] for name in setup["residents"]]
        game._arrange_from_dict(setup, random.Random(0), _READ)


def test_a_pool_file_is_read_and_checked(tmp_path: Path) -> None:
    game = engines.make("city-killer", pool_file=str(EXAMPLE), residents=10)
    assert isinstance(game, CityKiller)
    cards = json.loads(EXAMPLE.read_text())
    assert game.names == tuple(c["name"] for c in cards)
    state = game.new_game(3)
    assert set(state.residents) <= set(game.names) and len(state.residents) == 10
    first = game.resident(cards[0]["name"])
    assert (first.card, first.age, first.group) == (1, cards[0]["age"], cards[0]["group"])
    good = cards[0]

    def broken(data: object, text: str | None = None) -> str:
        path = tmp_path / "pool.json"
        path.write_text(json.dumps(data) if text is None else text)
        with pytest.raises(ConfigError) as error:
            engines.make("city-killer", pool_file=str(path), residents=4)
        return str(error.value)

    assert "is not JSON" in broken(None, "[{")
    assert "4 to 54 residents" in broken(cards[:3])
    assert "exactly name, sex" in broken([{**good, "eyes": "blue"}, *cards[1:]])
    assert "age 'ancient' is not one of young, adult, old" in broken(
        [{**good, "age": "ancient"}, *cards[1:]]
    )
    assert "group 'clergy' is not one of law" in broken([{**good, "group": "clergy"}, *cards[1:]])
    assert "name must be one word" in broken([{**good, "name": "Anna Maria"}, *cards[1:]])
    assert "used twice" in broken([good, {**cards[1], "name": good["name"].upper()}, *cards[2:]])
    with pytest.raises(ConfigError, match="cannot be read"):
        engines.make("city-killer", pool_file=str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="must hold at least the 20 residents"):
        engines.make("city-killer", pool_file=str(EXAMPLE))
    with pytest.raises(ConfigError, match="pool_file"):
        engines.make("city-killer", pool_file=3)


def test_a_kept_view_is_replayed_anew_when_the_record_shows_what_it_stood_in_for() -> None:
    """The detective's views at every complete beginning of a heuristic game (seed 2), each
    extending the one before: a beginning cut inside the city phase's move (its token shown
    after the cut) was replayed with a stand-in, and the next view extended it in place and
    failed an assertion at "killer: done" (the notebook's page hid its board)."""
    state = heuristic_game(2)
    info = state.information_set("detective")
    viewer = engines.make("city-killer")
    for k in range(1, len(info.observations) + 1):
        beginning = InformationSet(info.game, info.options, info.seat, info.observations[:k])
        try:
            validate(beginning)
        except IncompleteInformationSet:
            continue
        assert _moves(viewer, beginning) == _moves(engines.make("city-killer"), beginning), k


def _moves(game: engines.Game, info: InformationSet) -> list[str] | None:
    """The seat's legal moves at `info` as the game's view of it lists them (None: not its
    turn)."""
    try:
        return [str(action) for action in game.legal_actions_for(info)]
    except NotToMove:
        return None


def test_a_view_of_a_record_that_stops_before_the_kept_card_stands_one_in() -> None:
    """The killer's record cut after his "keep ?" and before the card he kept (heuristic
    game, seed 11, 18 observations; a typed session can stop there): the view replayed the
    keep with an unknown card that is not among the scene's known cards and raised
    ValueError (the notebook's page answered 500, found by the notebook fuzz, seed 101)."""
    state = heuristic_game(11)
    info = state.information_set("killer")
    cut = InformationSet(info.game, info.options, info.seat, info.observations[:18])
    assert cut.observations[-1].kind == "act" and cut.observations[-1]["move"] == "keep ?"
    validate(cut)
    assert _moves(engines.make("city-killer"), cut) == ["pass"]  # read, not a ValueError


def heuristic_game(seed: int) -> engines.State:
    """A whole City Killer game between heuristic bots."""
    game = engines.make("city-killer")
    state = game.new_game(seed=seed)
    bots = {s: opponents.make("heuristic", game, s, seed=seed) for s in game.seats}
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.information_set(seat)))
    return state
