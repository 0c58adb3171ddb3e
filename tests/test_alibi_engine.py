"""Alibi's engine: the conformance suite, random games, then the rules one by one."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from math import comb
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines import Action, ConfigError, IllegalAction, InvalidAction, State
from engines.alibi import (
    ACCUSATIONS_LISTED,
    PASSES_LISTED,
    TYPES,
    AlibiState,
    Subject,
    SubjectKind,
    load_deck,
    parse_subject,
    set_points,
)
from engines.alibi import actions as act
from engines.alibi.questions import is_subject, listed_subjects
from tests.conformance import EngineSpec, check_random_game, drawn

GAME = engines.make("alibi")
BOX = ("slim-slant-morning", "studio-back-stage", "poison-arsenic", "rage-jealousy")
# A small-deck game for three: player 2 deals, so 0 and 1 get 7 cards, 2 gets 6 and starts.
HANDS = (
    "mona-vance-morning mona-vance-noon mona-vance-evening car-front-seat car-back-seat "
    "slim-slant-noon greed-inheritance",
    "firearm-pistol firearm-rifle firearm-shotgun studio-dressing-room greed-insurance "
    "greed-debt slim-slant-evening",
    "car-trunk studio-on-set poison-cyanide poison-strychnine rage-betrayal rage-insult",
)
ROUND_1 = [
    "ask 0 hand type:suspect",
    "lay mona-vance",
    "ask 1 hand group:firearm",
    "lay firearm",
    "ask 2 seen detail:trunk",
    "pass car-trunk",
    "pass slim-slant-noon",
    "pass slim-slant-evening",
]
ROUND_2 = [
    "ask 1 seen type:suspect",
    "lay car",
    "ask 1 hand type:suspect",
    "ask 0 hand type:feeling",
    "pass rage-betrayal rage-insult",
    "pass slim-slant-noon studio-dressing-room",
]


def arranged(**options: Any) -> AlibiState:
    game = engines.make("alibi", players=3, deck="small", **options)
    hands = [hand.split() for hand in HANDS]
    return game.arrange(random.Random(0), hands, BOX, dealer=2)


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_text(move)
    return state


def public(state: State, kind: str) -> list[Any]:
    return [obs for obs, to in state._log if to is None and obs.kind == kind]


def dealt(state: AlibiState) -> list[list[str]]:
    deals = {obs["seat"]: list(obs["cards"]) for obs, _ in state._log if obs.kind == "deal"}
    return [deals[seat] for seat in state.game.seats]


# --- the conformance suite -------------------------------------------------------------------
def transitions(previous: State | None, state: State) -> None:
    """Every new answer true and scores never falling (each state's own invariants, cards
    conserved, public sizes and scores as recorded, are the engine's)."""
    assert isinstance(state, AlibiState)
    deck = state.game.deck
    if previous is not None:
        assert isinstance(previous, AlibiState)
        for obs, _ in state._log[len(previous._log) :]:
            if obs.kind == "answer":
                cards = parse_subject(obs["subject"], deck).cards(deck)
                assert tuple(obs["cards"]) == cards
                assert obs["answer"] == previous.answer(obs["target"], obs["scope"], cards)
        assert all(a >= b for a, b in zip(state.scores, previous.scores, strict=True))
    if state.is_over:
        assert public(state, "box")[0]["cards"] == tuple(state.box())


def check_step(previous: State | None, state: State) -> None:
    state.check_invariants()
    transitions(previous, state)


def twin(state: State, history: Sequence[Action], seat: Any, rng: random.Random) -> AlibiState:
    """The same game with never-seen cards permuted where no question could tell them apart.

    The seat cannot see a card it never held, that was never laid, named in an accusation or a
    solution, or shown in the opened box. Two such cards of the same type that belong to the
    same subjects of every question asked so far can swap places throughout the history (in the
    deal, the box and the others' passes) and every answer stays the same.
    """
    assert isinstance(state, AlibiState)
    deck = state.game.deck
    known = set(state._seen[seat])
    known |= {card for groups in state.laid for g in groups for card in deck.of_group(g)}
    for action in history:
        if isinstance(action, act.Accuse | act.Solution):
            known |= set(action.cards)
    if state.is_over:
        known |= set(state.box())
    subjects = [set(obs["cards"]) for obs in public(state, "answer")]
    classes: dict[tuple, list[str]] = {}
    for card in deck.ids:
        if card not in known:
            key = (deck.by_id[card].type, *(card in cards for cards in subjects))
            classes.setdefault(key, []).append(card)
    swap = {}
    for members in classes.values():
        swap.update(zip(members, rng.sample(members, len(members)), strict=True))

    def moved(cards: Sequence[str]) -> list[str]:
        return [swap.get(card, card) for card in cards]

    other = state.game.arrange(
        random.Random(0), [moved(hand) for hand in dealt(state)], moved(state.box()), state.dealer
    )
    for action in history:
        other.apply(
            act.Pass(tuple(moved(action.cards))) if isinstance(action, act.Pass) else action
        )
    return other


def illegal_candidates(state: State) -> list[Action]:
    """Actions illegal in every position: asking oneself, moving the box's cards."""
    assert isinstance(state, AlibiState)
    box = state.box()
    seat = state.to_move
    assert isinstance(seat, int)
    candidates: list[Action] = [
        act.Ask(seat, "hand", parse_subject("type:weapon", state.game.deck)),
        act.Lay(state.game.deck.by_id[box[2]].group),
        act.Pass((box[0],)),
    ]
    if state.phase == "turns":
        candidates.append(act.Solution(box))
    else:
        candidates.append(act.Accuse(box))
    if state.game.options["single_card_questions"] == "forbidden":
        target = (seat + 1) % state.game.players
        candidates.append(state.game.parse_action(f"ask {target} hand detail:trunk"))
    return candidates


CONFIGS = {
    "3-players": {"players": 3, "round_limit": 4},
    "4-players-forbid-single-no-sets-seen": {
        "players": 4,
        "round_limit": 3,
        "single_card_questions": "forbidden",
        "seen_includes_sets": False,
    },
    "6-players-solutions": {"players": 6, "round_limit": 4, "end_variant": "solutions"},
    "3-players-accuser-can-win": {"players": 3, "round_limit": 3, "wrong_accuser_can_win": True},
}


@pytest.mark.parametrize("options", CONFIGS.values(), ids=CONFIGS.keys())
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_small_deck_games_conform(options: dict, seed: int, data: st.DataObject) -> None:
    game = engines.make("alibi", deck="small", **options)
    spec = EngineSpec(game, transitions, twin, illegal_candidates, max_steps=500)
    check_random_game(spec, seed, drawn(data))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_full_deck_games_conform(seed: int, data: st.DataObject) -> None:
    spec = EngineSpec(
        engines.make("alibi", players=5, round_limit=2), transitions, twin, illegal_candidates
    )
    check_random_game(spec, seed, drawn(data))


def test_three_hundred_random_games_keep_their_invariants() -> None:
    configs = [
        {"deck": "small", "players": 3},
        {"deck": "small", "players": 6, "end_variant": "solutions"},
        {"players": 4, "round_limit": 8},
    ]
    endings: Counter[str] = Counter()
    for seed in range(300):
        game = engines.make("alibi", **configs[seed % 3])
        state, rng, previous = game.new_game(seed), random.Random(seed), None
        while not state.is_over:
            check_step(previous, state)
            previous = state.clone()
            legal = state.legal_actions()
            if rng.random() < 0.1:
                assert game.legal_actions_for(state.information_set(state.to_move)) == legal
            state.apply(rng.choice(legal))
        check_step(previous, state)
        endings[public(state, "end")[0]["reason"]] += 1
        assert state.winners
    assert endings["accusation"] > 20 and endings["round limit"] > 20


def test_twins_really_differ_and_a_naive_twin_would_be_caught() -> None:
    game = engines.make("alibi", players=3, deck="small")
    state = game.new_game(5)
    history = [game.parse_action(f"ask {(state.to_move + 1) % 3} hand type:weapon")]
    state.apply(history[0])
    twins = [twin(state, history, 0, random.Random(k)) for k in range(20)]
    assert sum(other._hands != state._hands for other in twins) > 10
    assert all(other.information_set(0) == state.information_set(0) for other in twins)
    # Swapping a card seat 0 holds with one it does not hold changes what seat 0 saw.
    hands = dealt(state)
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    naive = game.arrange(random.Random(0), hands, state.box(), state.dealer)
    naive.apply(history[0])
    assert naive.information_set(0) != state.information_set(0)


# --- setup ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "full", "small"),
    [
        (3, [25, 25, 24], [7, 7, 6]),
        (4, [19, 19, 18, 18], [5, 5, 5, 5]),
        (5, [15, 15, 15, 15, 14], [4, 4, 4, 4, 4]),
        (6, [13, 13, 12, 12, 12, 12], [4, 4, 3, 3, 3, 3]),
    ],
)
def test_deal_sizes_from_the_dealers_left(players: int, full: list, small: list) -> None:
    for scale, sizes in (("full", full), ("small", small)):
        for dealer in range(players):
            game = engines.make("alibi", players=players, deck=scale, dealer=dealer)
            state = game.new_game(dealer)
            from_left = [len(state._hands[(dealer + 1 + i) % players]) for i in range(players)]
            assert from_left == sizes
            last = (dealer + sum(sizes)) % players  # who got the last card
            assert state.to_move == state.start == (last + 1) % players
            assert public(state, "seating")[0]["start"] == state.start


def test_box_holds_one_random_card_per_type_and_is_reproducible() -> None:
    assert GAME.new_game(5).to_json() == GAME.new_game(5).to_json()
    game = engines.make("alibi", deck="small")
    counts = Counter(game.new_game(seed).box()[0] for seed in range(1200))
    assert sorted(counts) == sorted(game.deck.of_type("suspect"))
    assert all(150 < count < 250 for count in counts.values())
    state = GAME.new_game(1)
    assert len(state.box()) == 4 and not set(state.box()) & {c for h in state._hands for c in h}
    dealers = Counter(public(GAME.new_game(seed), "seating")[0]["dealer"] for seed in range(400))
    assert sorted(dealers) == [0, 1, 2, 3]


def test_the_deck() -> None:
    full, small = load_deck("full"), load_deck("small")
    assert len(full.cards) == 78 and len(small.cards) == 24
    assert [len(full.of_type(kind)) for kind in TYPES] == [24, 18, 18, 18]
    assert [len(small.of_type(kind)) for kind in TYPES] == [6, 6, 6, 6]
    assert full.of_detail("noon") == tuple(f"{g}-noon" for g in full.groups[:8])
    assert full.by_id["car-front-seat"].name == "Car: Front Seat"
    assert full.of_group("poison") == ("poison-arsenic", "poison-cyanide", "poison-strychnine")


# --- turns, sets, questions and passing, on one scripted game ---------------------------------
def test_sets_score_by_round_and_type() -> None:
    assert [set_points(r, "suspect") for r in (1, 2, 3, 9)] == [6, 4, 3, 3]
    assert [set_points(r, "weapon") for r in (1, 2, 3, 9)] == [7, 5, 3, 3]
    state = play(arranged(), *ROUND_1)
    assert state.scores == [6, 7, 0] and state.laid == [["mona-vance"], ["firearm"], []]
    play(state, *ROUND_2)
    assert state.scores == [11, 7, 0]
    play(state, "ask 0 hand type:place", "ask 1 hand type:place")
    assert act.Lay("greed") in state.legal_actions()
    play(state, "lay greed", "ask 2 hand type:place")
    assert state.scores == [11, 10, 0]
    lays = public(state, "lay")
    assert [(o["seat"], o["group"], o["points"], o["round"]) for o in lays] == [
        (0, "mona-vance", 6, 1),
        (1, "firearm", 7, 1),
        (0, "car", 5, 2),
        (1, "greed", 3, 3),
    ]


def test_sets_only_before_the_question_and_only_when_complete() -> None:
    state = arranged()
    assert state.to_move == 2 and not any(isinstance(a, act.Lay) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="does not hold all three"):
        state.apply_text("lay rage")
    play(state, "ask 0 hand type:suspect")
    assert {str(a) for a in state.legal_actions() if isinstance(a, act.Lay)} == {"lay mona-vance"}
    play(state, "lay mona-vance")
    assert state.to_move == 0, "laying does not end the turn"
    play(state, "ask 1 hand group:firearm")
    assert state.to_move == 1


def test_each_question_subject_and_scope_is_answered_truthfully() -> None:
    state = play(arranged(), *ROUND_1)
    asked = public(state, "answer")
    answers = [(o["asker"], o["target"], o["subject"], o["answer"]) for o in asked]
    assert answers == [
        (2, 0, "type:suspect", 4),
        (0, 1, "group:firearm", 3),
        (1, 2, "detail:trunk", 1),
    ]
    play(state, *ROUND_2[:3])
    # Player 1 passed slim-slant-evening on and received slim-slant-noon: one held, two seen.
    first, second = public(state, "answer")[3:5]
    assert (first["scope"], first["answer"], second["scope"], second["answer"]) == (
        "seen",
        2,
        "hand",
        1,
    )
    play(state, "ask 2 seen cards:firearm-pistol,mona-vance-noon,slim-slant-noon")
    play(state, *ROUND_2[4:], "ask 0 seen detail:noon", "ask 1 hand detail:noon")
    last = public(state, "answer")[-3:]
    assert [o["answer"] for o in last] == [0, 2, 0]
    assert last[0]["cards"] == ("slim-slant-noon", "mona-vance-noon", "firearm-pistol")
    assert last[1]["cards"] == ("slim-slant-noon", "mona-vance-noon")
    assert last[1]["round"] == 3 and last[1]["turn"] == 7


def test_laid_sets_count_as_seen_unless_the_option_says_no() -> None:
    moves = [*ROUND_1[:3], "ask 0 seen group:mona-vance"]
    assert public(play(arranged(), *moves), "answer")[-1]["answer"] == 3
    no = play(arranged(seen_includes_sets=False), *moves)
    assert public(no, "answer")[-1]["answer"] == 0


def test_passing_moves_r_cards_left_all_at_once() -> None:
    state = play(arranged(), *ROUND_1[:5])
    assert state.phase == "passing" and state.to_move == 2
    play(state, "pass car-trunk")
    assert "car-trunk" in state._hands[2], "nothing moves before everyone has chosen"
    with pytest.raises(IllegalAction, match="passes 1 cards"):
        state.apply_text("pass car-back-seat car-front-seat")
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply_text("pass poison-cyanide")
    play(state, "pass slim-slant-noon", "pass slim-slant-evening")
    assert state.hand(0) == ["car-back-seat", "car-front-seat", "car-trunk", "greed-inheritance"]
    assert "slim-slant-noon" in state.hand(1) and "slim-slant-evening" in state.hand(2)
    assert state.round == 2 and state.phase == "turns" and state.to_move == 2
    assert public(state, "hands")[-1]["sizes"] == (4, 4, 6)


def test_a_short_hand_passes_everything_without_choosing_and_may_receive_more() -> None:
    state = play(arranged(), *ROUND_1, *ROUND_2[:4])
    assert state.passers == [2, 1], "player 0 holds 1 card: no choice to make"
    play(state, *ROUND_2[4:])
    assert state.hand(0) == ["rage-betrayal", "rage-insult"], "gave 1 card, received 2"
    assert "greed-inheritance" in state.hand(1)
    play(state, "ask 0 hand type:place", "ask 1 hand type:place", "lay greed")
    assert state.hand(1) == []
    play(state, "ask 2 hand type:place")
    assert state.phase == "passing" and state.passers == [2], "2 and 0 cards: no choices"
    play(state, "pass poison-cyanide slim-slant-noon studio-on-set")
    assert state.hand_sizes == [3, 2, 3]
    assert state.to_move == 2
    play(state, "ask 1 seen type:feeling", "ask 1 hand type:weapon")
    assert state.to_move == 1, "a player whose hand was empty still plays"


def test_who_learns_which_cards_were_passed() -> None:
    state = play(arranged(), *ROUND_1)
    game = state.game
    for seat in game.seats:
        passes = [o for o in state.information_set(seat).observations if o.kind == "pass"]
        assert len(passes) == 3
        for obs in passes:
            involved = seat in (obs["giver"], obs["receiver"])
            assert (obs.get("cards") is not None) == involved
    info = state.information_set(1).observations
    chosen = [o for o in info if o.kind == "choose_pass"]
    assert [o.get("cards") for o in chosen] == [None, None, ("slim-slant-evening",)]
    deals = [o for o in info if o.kind == "deal"]
    assert [o["seat"] for o in deals] == [1]
    sentence = game.describe(next(o for o in info if o.kind == "pass" and o["giver"] == 0))
    assert sentence == "player 0 passed 1 card to player 1 after round 1: slim-slant-noon"


def test_questions_are_public_and_described() -> None:
    state = play(arranged(), *ROUND_1, "ask 1 seen group:poison")
    obs = public(state, "answer")[-1]
    assert all(obs in state.information_set(seat).observations for seat in state.game.seats)
    assert dict(obs.fields) == {
        "asker": 2,
        "target": 1,
        "scope": "seen",
        "subject": "group:poison",
        "cards": ("poison-arsenic", "poison-cyanide", "poison-strychnine"),
        "answer": 0,
        "round": 2,
        "turn": 4,
    }
    assert state.game.describe(obs) == (
        "player 1 answered 0 to player 2's 'how many Poison cards have you seen' in round 2"
    )
    for entry, _ in state._log:
        assert not state.game.describe(entry).startswith(entry.kind + ":"), entry.kind


# --- accusation and the end --------------------------------------------------------------------
ACCUSE_RIGHT = "accuse " + " ".join(BOX)
ACCUSE_WRONG = "accuse mona-vance-noon studio-back-stage poison-arsenic rage-jealousy"


def test_a_right_accusation_wins_at_once() -> None:
    state = play(arranged(), *ROUND_1, ACCUSE_RIGHT)
    assert state.is_over and state.winners == (2,)
    assert public(state, "box")[0]["cards"] == BOX
    with pytest.raises(IllegalAction, match="over"):
        state.apply_text("ask 0 hand type:weapon")


def test_a_wrong_accuser_cannot_win_unless_the_option_says_so() -> None:
    moves = [*ROUND_1, *ROUND_2, "ask 1 hand type:place", ACCUSE_WRONG]
    state = play(arranged(), *moves)
    assert state.scores == [11, 7, 0] and state.accuser == 0
    assert state.is_over and state.winners == (1,)
    state = play(arranged(wrong_accuser_can_win=True), *moves)
    assert state.winners == (0,)


def test_ties_share_the_win() -> None:
    state = play(arranged(), ACCUSE_WRONG)
    assert state.winners == (0, 1), "the wrong accuser (2) is out; 0 and 1 tie on 0 points"
    state = play(
        arranged(round_limit=1),
        "ask 0 hand type:suspect",
        "ask 1 hand type:place",
        "ask 2 hand type:place",
    )
    assert state.is_over and state.winners == (0, 1, 2)
    assert public(state, "end")[0]["reason"] == "round limit"


def test_accusation_names_one_card_per_type_in_any_order() -> None:
    action = GAME.parse_action("accuse rage-jealousy poison-arsenic car-front-seat slim-slant-noon")
    assert str(action) == "accuse slim-slant-noon car-front-seat poison-arsenic rage-jealousy"
    with pytest.raises(InvalidAction, match="one of each type"):
        GAME.parse_action("accuse slim-slant-noon car-front-seat poison-arsenic poison-cyanide")
    state = arranged()
    with pytest.raises(InvalidAction, match="one of each type"):
        state.apply(act.Accuse(("car-trunk", "slim-slant-noon", "poison-arsenic", "rage-jealousy")))


def test_round_limit_and_no_limit() -> None:
    state = play(arranged(round_limit=2), *ROUND_1, *ROUND_2[:4])
    assert state.is_over and state.phase == "over", "no passing after the last round"
    state = arranged(round_limit=None)
    rng = random.Random(0)
    while state.round <= 25:
        asks = [a for a in state.legal_actions() if not isinstance(a, act.Accuse | act.Lay)]
        state.apply(rng.choice(asks))
    assert not state.is_over


def test_everyone_writes_a_solution_variant() -> None:
    state = play(arranged(end_variant="solutions", solution_points=4), *ROUND_1, ACCUSE_WRONG)
    assert not state.is_over and state.to_move == 0 and state.phase == "solutions"
    assert all(isinstance(a, act.Solution) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="must write a solution"):
        state.apply_text("ask 1 hand type:weapon")
    play(state, "solution slim-slant-morning studio-on-set poison-arsenic greed-debt")
    assert state.to_move == 1
    others = state.information_set(1).observations
    assert [o.get("cards") for o in others if o.kind == "choose_solution"] == [None]
    play(state, "solution " + " ".join(BOX))
    # Sets 6, 7, 0; correct cards 2, 4, 3 at 4 points each.
    assert public(state, "end")[0]["totals"] == (14, 23, 12)
    assert state.winners == (1,)
    assert [o["correct"] for o in public(state, "solution")] == [2, 4, 3]


def test_solutions_at_the_round_limit_come_from_everyone() -> None:
    state = play(arranged(end_variant="solutions", round_limit=1), *ROUND_1[:5])
    assert state.phase == "solutions" and state.writers == [2, 0, 1]


# --- notation and errors -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "ask 3 hand group:poison",
        "ask 2 seen type:weapon",
        "ask 1 hand detail:noon",
        "ask 2 seen cards:car-front-seat,slim-slant-morning",
        "lay poison",
        "pass poison-arsenic rage-jealousy",
        "accuse slim-slant-morning car-front-seat poison-arsenic rage-jealousy",
        "solution slim-slant-morning car-front-seat poison-arsenic rage-jealousy",
    ],
)
def test_notation_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text and GAME.parse_action(str(action)) == action


def test_a_subject_stores_as_kind_colon_value_whatever_its_kind_is_given_as() -> None:
    """A kind given as its word or as its SubjectKind makes one subject, stored as before."""
    deck = GAME.deck
    for subject in listed_subjects(deck, single_cards=True):
        assert parse_subject(str(subject), deck) == subject
        assert Subject(str(subject.kind), subject.value) == subject
    assert Subject("type", "weapon").kind is SubjectKind.TYPE
    assert str(Subject(SubjectKind.GROUP, "poison")) == "group:poison"
    assert str(Subject("cards", ("poison-arsenic", "car-trunk"))) == (
        "cards:car-trunk,poison-arsenic"
    )
    assert [f"{kind}" for kind in SubjectKind] == ["type", "group", "detail", "cards"]
    assert not is_subject(Subject("colour", "red"), deck)


def test_card_lists_are_canonical() -> None:
    assert GAME.parse_action("pass rage-jealousy poison-arsenic") == act.Pass(
        ("poison-arsenic", "rage-jealousy")
    )
    ask = GAME.parse_action("  ASK 2 seen cards:slim-slant-morning,car-front-seat ")
    assert str(ask) == "ask 2 seen cards:car-front-seat,slim-slant-morning"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("shout 1", "unknown move"),
        ("ask 4 hand type:weapon", "no seat"),
        ("ask 1 pocket type:weapon", "scope"),
        ("ask 1 hand colour:red", "subject"),
        ("ask 1 hand group:dragon", "unknown group"),
        ("ask 1 hand cards:", "no card"),
        ("ask 1 hand cards:car-trunk,car-trunk", "twice"),
        ("lay dragon", "group"),
        ("pass", "one or more"),
        ("pass car-trunk car-trunk", "once"),
        ("pass unicorn", "unknown card"),
        ("accuse car-trunk", "four cards"),
    ],
)
def test_unreadable_actions_are_invalid_and_quote_the_text(text: str, why: str) -> None:
    with pytest.raises(InvalidAction, match=why) as error:
        GAME.parse_action(text)
    assert repr(text) in str(error.value)


def test_the_small_deck_does_not_know_full_deck_cards() -> None:
    with pytest.raises(InvalidAction, match="unknown card"):
        arranged().game.parse_action("ask 1 hand cards:boat-deck")
    with pytest.raises(InvalidAction, match="card id of the small deck"):
        arranged().apply(act.Pass(("boat-deck",)))


def test_illegal_actions_give_reasons_and_change_nothing() -> None:
    state = arranged()
    before = state.to_json()
    for text, why in [
        ("ask 2 hand type:weapon", "cannot ask themselves"),
        ("pass car-trunk", "only when the game calls for it"),
        ("solution " + " ".join(BOX), "only when the game calls for it"),
        ("lay car", "does not hold all three"),
    ]:
        with pytest.raises(IllegalAction, match=why):
            state.apply_text(text)
    play(state, *ROUND_1[:5])
    with pytest.raises(IllegalAction, match="must choose 1 cards to pass"):
        state.apply_text(ACCUSE_RIGHT)
    assert arranged().to_json() == before


def test_single_card_questions_can_be_forbidden() -> None:
    allowed = arranged()
    assert act.Ask(0, "hand", parse_subject("cards:car-trunk", allowed.game.deck)) in (
        allowed.legal_actions()
    )
    state = arranged(single_card_questions="forbidden")
    for text in ("ask 0 hand cards:car-trunk", "ask 0 seen detail:trunk"):
        with pytest.raises(IllegalAction, match="single-card questions are forbidden"):
            state.apply_text(text)
    assert not any(
        isinstance(a, act.Ask) and len(a.subject.cards(state.game.deck)) == 1
        for a in state.legal_actions()
    )
    play(state, "ask 0 hand detail:noon", "ask 1 seen cards:car-trunk,poison-arsenic")
    assert [o["answer"] for o in public(state, "answer")] == [2, 0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 7}, "'players' cannot be 7; allowed: 3, 4, 5 or 6"),
        ({"dealer": 4, "players": 4}, "'dealer' cannot be 4 with 4 players"),
        ({"dealer": "left"}, "'dealer'.*'random' or a seat number"),
        ({"single_card_questions": "maybe"}, "single_card_questions.*'allowed', 'forbidden'"),
        ({"seen_includes_sets": "yes"}, "seen_includes_sets.*True or False"),
        ({"wrong_accuser_can_win": 1}, "wrong_accuser_can_win"),
        ({"round_limit": 0}, "round_limit.*positive integer or None"),
        ({"end_variant": "last"}, "end_variant.*'first-accuser', 'solutions'"),
        ({"solution_points": -2}, "solution_points.*positive integer"),
        ({"deck": "tiny"}, "'deck'.*'full', 'small'"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_raise_config_error(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        engines.make("alibi", **options)


# --- what legal_actions lists ------------------------------------------------------------------
def test_every_pass_is_listed_when_few_and_any_pass_is_accepted_when_many() -> None:
    state = engines.make("alibi", players=3, dealer=2).new_game(1)
    listed_sizes = []
    while state.round < 4:
        if state.phase == "passing":
            size = len(state._hands[state.to_move])
            listed_sizes.append((len(state.legal_actions()), comb(size, state.round), size))
        state.apply(next(a for a in state.legal_actions() if isinstance(a, act.Ask | act.Pass)))
    (one, c1, _), (two, c2, _), (three, c3, size) = [listed_sizes[i] for i in (0, 3, 6)]
    assert one == c1 >= 24 and two == c2 >= 276, "every choice of 1 or 2 cards is listed"
    assert c3 > PASSES_LISTED and three == size, "then one window of 3 cards per card in hand"
    while state.phase != "passing":
        state.apply(next(a for a in state.legal_actions() if isinstance(a, act.Ask)))
    seat, hand = state.to_move, state._hands[state.to_move]
    unlisted = act.Pass(tuple(hand[::6][:4]))
    assert unlisted not in state.legal_actions()
    state.apply(unlisted)
    assert state._chosen[seat] == unlisted.cards


def test_accusations_listed_over_never_seen_cards_and_any_accepted() -> None:
    state = arranged()
    accusations = [a for a in state.legal_actions() if isinstance(a, act.Accuse)]
    unseen = [
        [c for c in state.game.deck.of_type(kind) if c not in state._seen[2]] for kind in TYPES
    ]
    assert [len(c) for c in unseen] == [6, 4, 4, 4] and ACCUSATIONS_LISTED < 6 * 4 * 4 * 4
    assert len(accusations) == 6, "the diagonal names every candidate card once"
    assert {a.cards[0] for a in accusations} == set(unseen[0])
    assert all(set(a.cards) <= {c for cs in unseen for c in cs} for a in accusations)
    named_own = act.Accuse(("slim-slant-morning", "studio-on-set", "poison-cyanide", "rage-insult"))
    assert named_own not in accusations
    state.apply(named_own)
    assert state.is_over and state.winners == (0, 1)


def test_all_accusations_listed_when_few() -> None:
    state = play(arranged(), *ROUND_1, *ROUND_2, "ask 0 hand type:place", "ask 1 hand type:place")
    seat = state.to_move
    laid = {c for groups in state.laid for g in groups for c in state.game.deck.of_group(g)}
    known = state._seen[seat] | laid
    counts = [len([c for c in state.game.deck.of_type(k) if c not in known]) for k in TYPES]
    accusations = [a for a in state.legal_actions() if isinstance(a, act.Accuse)]
    total = counts[0] * counts[1] * counts[2] * counts[3]
    assert total <= ACCUSATIONS_LISTED and len(accusations) == total


def test_every_listed_action_is_accepted() -> None:
    state = play(arranged(), *ROUND_1[:3])
    for action in state.legal_actions():
        state.clone().apply(action)
    assert len(state.legal_actions()) > 200


# --- state handling ------------------------------------------------------------------------------
def test_clone_is_independent_and_json_is_exact() -> None:
    state = play(arranged(), *ROUND_1[:6])
    copy = state.clone()
    play(copy, "pass slim-slant-noon", "pass slim-slant-evening")
    assert state.phase == "passing" and copy.phase == "turns"
    assert "car-trunk" in state.hand(2) and "car-trunk" in copy.hand(0)
    again = state.game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json() and again._chosen == {2: ("car-trunk",)}


def test_legal_actions_from_the_information_set_alone() -> None:
    state = play(arranged(), *ROUND_1, *ROUND_2[:5])
    game = state.game
    assert state.phase == "passing" and state.to_move == 1
    assert game.legal_actions_for(state.information_set(1)) == state.legal_actions()
    with pytest.raises(engines.NotToMove, match="seat 1's turn, not 0's"):
        game.legal_actions_for(state.information_set(0))
    play(state, *ROUND_2[5:], "ask 0 hand type:place", "ask 1 hand type:place")
    assert game.legal_actions_for(state.information_set(1)) == state.legal_actions()
    assert act.Lay("greed") in state.legal_actions()


def hidden_of(state: AlibiState) -> dict[str, Any]:
    """The whole hidden history of `state`, in the format `Alibi.reconstruct` reads."""
    n = state.game.players
    passes = [[[] for _ in range(n)] for _ in range(state.round)]
    for obs, _ in state._log:
        if obs.kind == "pass" and obs.get("cards") is not None:
            passes[obs["round"] - 1][obs["giver"]] = list(obs["cards"])
    for seat, cards in state._chosen.items():
        passes[state.round - 1][seat] = list(cards)
    return {
        "box": list(state.box()),
        "hands": dealt(state),
        "passes": passes,
        "solutions": {str(s): list(c) for s, c in state._solutions.items()},
    }


def test_reconstruct_rebuilds_the_state_and_rejects_contradicting_guesses() -> None:
    game = engines.make("alibi", players=4, deck="small", end_variant="solutions")
    for seed in range(20):
        state, rng = game.new_game(seed), random.Random(seed)
        for _ in range(rng.randrange(40)):
            if not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
        for seat in game.seats:
            info = state.information_set(seat)
            again = game.reconstruct(info, hidden_of(state))
            assert again.information_set(seat) == info and again._hands == state._hands
            assert game.state_from_json(again.to_json()).to_json() == again.to_json()
    hidden = hidden_of(state)
    hidden["hands"][0][0], hidden["hands"][1][0] = hidden["hands"][1][0], hidden["hands"][0][0]
    with pytest.raises(engines.InvalidState, match="contradicts"):
        game.reconstruct(state.information_set(0), hidden)
