"""Serial Killer's engine: the conformance suite, then the rules one by one."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import engines
from engines import Action, ConfigError, IllegalAction, InvalidAction, State
from engines.serial_killer import HAND_LIMIT, WEAPON_MAX, Declare, Discard, SerialKillerState
from tests.conformance import EngineSpec, check_random_game, drawn


def transitions(previous: State | None, state: State) -> None:
    """Ferocity never falls, points never rise, the weapon track never falls, the hand limit
    holds (but for the pick that must discard), and the cards are conserved."""
    assert isinstance(state, SerialKillerState)
    parts = state.game.parts
    held = [c for g in parts.genre_ids for c in state._decks[g]]
    held += [c for seat in state.game.seats for c in state.hand(seat)] + state.lab_cards()
    assert sorted(held) == sorted(parts.ids), "every card is in exactly one place"
    assert all(p >= 0 for p in state.points_left)
    for hand in state._hands:
        assert len(hand) <= HAND_LIMIT or (state.phase in ("discard", "over") and len(hand) == 5)
    if previous is not None:
        assert isinstance(previous, SerialKillerState)
        assert state.ferocity >= previous.ferocity, "ferocity never falls"
        assert state.weapon >= previous.weapon
        assert all(a <= b for a, b in zip(state.points_left, previous.points_left, strict=True))
        assert all(d >= 1 for g, d in ((g, state.deck_size(g)) for g in parts.genre_ids))


def seen_cards(info: engines.InformationSet) -> set[str]:
    """Every card id any observation of the information set names."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str) and "." in value:
            found.add(value)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    for obs in info.observations:
        for _, value in obs.fields:
            walk(value)
    return found


def twin(state: State, history: Sequence[Action], seat: Any, rng: random.Random) -> State:
    """The same game with the cards `seat` never saw permuted within their genres (decks,
    hands, lab, others' discards and declarations alike); the dice fall the same."""
    assert isinstance(state, SerialKillerState)
    game = state.game
    seen = seen_cards(state.information_set(seat))
    swap: dict[str, str] = {}
    for genre in game.parts.genres:
        hidden = [card for card in genre.cards if card not in seen]
        swap.update(zip(hidden, rng.sample(hidden, len(hidden)), strict=True))
    setup = state._setup
    assert setup is not None
    arguments = setup.to_dict()
    start = random.Random()
    start.setstate(setup.rng)
    decks = {g: [swap.get(c, c) for c in cards] for g, cards in arguments["decks"].items()}
    other = game.arrange(start, decks, arguments["districts"], arguments["first_player"])
    if state._given is not None:  # explicit chance: the same outcomes, not the RNG's
        other._given = [outcome for _, outcome, _ in state._draws]
    for action in history:
        if isinstance(action, Discard):
            action = Discard(swap.get(action.card, action.card))
        elif isinstance(action, Declare):
            action = Declare(tuple(swap.get(c, c) for c in action.profile))
        other.apply(action)
    return other


def illegal_candidates(state: State) -> list[Action]:
    texts = ["pass", "skip", "end", "place 3", "buy 1 weapon", "buy 2 move 7", "buy 3 investigate"]
    texts += ["buy 6 investigate", "buy 4 briefing red", "buy 5 first", "buy 6 lab 1", "buy 6 lab"]
    assert isinstance(state, SerialKillerState)
    parts = state.game.parts
    texts.append(f"discard {parts.ids[0]}")
    if state.phase != "declare" and not state._may_declare_at_pick(state.current):
        texts.append("declare " + " ".join(genre.cards[0] for genre in parts.genres))
    return [state.game.parse_action(text) for text in texts]


CONFIGS = {
    "3-players-small": {"players": 3, "genres": 3, "traits_per_genre": 4},
    "4-players": {"players": 4},
    "5-players-short": {"players": 5, "start_points": 40},
    "4-players-variants": {
        "players": 4,
        "genres": 4,
        "cost_model": "flat",
        "substitution": "always",
        "dice_per_pick": 2,
        "sopralluogo_trigger": "both",
        "hunted_mode": "per-district",
        "caught_mode": "crossing",
        "declare_timing": "pick",
        "failed_test_lockout": True,
        "declared_players_act": True,
        "final_round_requires_no_purchase": True,
        "end_trigger": "any",
        "unreachable_scope": "undeclared",
        "unreachable_outcome": "reveal",
        "lab_view": "all-or-nothing",
        "pollution_cost": 2,
        "pollution_target": "placed",
        "briefing_scope": "all",
        "first_player_timing": "immediate",
        "rotate_first_player": True,
        "genre_public": False,
        "allow_dead_buys": False,
        "uniform_roll_bonus": 3,
        "max_rounds": 12,
        "start_points": 50,
    },
}


@pytest.mark.parametrize("options", CONFIGS.values(), ids=CONFIGS.keys())
@settings(max_examples=2, deadline=None, phases=(Phase.explicit, Phase.generate))
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_conform(options: dict[str, Any], seed: int, data: st.DataObject) -> None:
    game = engines.make("serial-killer", **options)
    spec = EngineSpec(game, transitions, twin, illegal_candidates, max_steps=3000)
    check_random_game(spec, seed, drawn(data))


def random_walk(game: engines.Game, seed: int) -> Iterator[State]:
    """The game `seed` deals, played by uniformly random moves (from `seed` too): the state
    before each move (the caller may look at it first), then the state at the end."""
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not state.is_over:
        yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize("options", CONFIGS.values(), ids=CONFIGS.keys())
def test_legal_actions_from_the_information_set_alone(options: dict[str, Any]) -> None:
    game = engines.make("serial-killer", **options)
    for seed in range(3):
        for state in random_walk(game, seed):
            if not state.is_over:
                legal = state.legal_actions()
                assert game.legal_actions_for(state.information_set(state.to_move)) == legal


# --- the rules one by one --------------------------------------------------------------------
def start(players: int = 3, **options: Any) -> SerialKillerState:
    """A game whose decks are in trait order (AGE.0 on top), AGE on district 1, SEX on 2..."""
    game = engines.make("serial-killer", players=players, first_player=0, **options)
    parts = game.parts
    decks = {genre.id: list(genre.cards) for genre in parts.genres}
    districts = {genre.id: k + 1 for k, genre in enumerate(parts.genres)}
    return game.arrange(random.Random(1), decks, districts, 0)


def set_pool(state: SerialKillerState, counts: Sequence[int]) -> None:
    state.pool = list(counts)


def test_setup_and_placement() -> None:
    state = start()
    assert state.to_move == 0 and state.phase == "place"
    for d in (1, 1, 2):
        state.apply_text(f"place {d}")
    assert state.round == 1 and state.phase in ("buy",) and sum(state.pool) == 15
    assert state.points_left == [80, 80, 80] and state.ferocity == 50 and state.weapon == 0


def placed(*districts: int, **options: Any) -> SerialKillerState:
    state = start(len(districts), **options)
    for d in districts:
        state.apply_text(f"place {d}")
    # put the pawns back where they were placed (the first roll may relocate them)
    state.pawn = list(districts)
    state.current = state.first_player
    return state


def test_cost_is_the_face_plus_the_surcharge() -> None:
    state = placed(1, 1, 2)
    set_pool(state, [3, 3, 3, 3, 2, 1])
    state.apply_text("buy 3 investigate")
    assert state.points_left[0] == 77 and state.hand(0) == ["AGE.0"]
    state.caught[1] = True
    state.apply_text("buy 4 briefing red")
    assert state.points_left[1] == 80 - 5
    with pytest.raises(IllegalAction, match="no 3 is left"):
        set_pool(state, [3, 3, 1, 3, 2, 1])
        state.apply_text("buy 4 investigate")


def test_substitution_when_no_three_is_left() -> None:
    state = placed(1, 2, 3)
    set_pool(state, [3, 3, 0, 3, 3, 3])
    state.apply_text("buy 5 investigate")
    assert state.points_left[0] == 75 and state.hand(0) == ["AGE.0"] and state.pool[4] == 2


def test_the_hand_limit_sends_a_card_to_the_lab() -> None:
    state = placed(1, 5, 6)
    state._hands[0] = ["SEX.0", "SEX.1", "VIC.0", "VIC.1"]
    state.hand_genres[0] = ["SEX", "SEX", "VIC", "VIC"]
    set_pool(state, [2, 2, 3, 3, 3, 2])
    state.apply_text("buy 3 investigate")
    assert state.phase == "discard" and state.to_move == 0
    with pytest.raises(IllegalAction, match="do not hold"):
        state.apply_text("discard ORG.2")
    state.apply_text("discard SEX.1")
    assert state.lab_cards() == ["SEX.1"] and len(state.hand(0)) == 4
    kinds = [obs.kind for obs, _ in state._log[-3:]]
    assert kinds == ["lab_place", "see_discard", "pollution"]
    assert state.information_set(1).observations[-1].kind == "pollution"
    assert all(obs.kind != "see_discard" for obs in state.information_set(1).observations)


def test_the_bottom_card_cannot_be_drawn() -> None:
    state = placed(1, 2, 3, traits_per_genre=2)
    set_pool(state, [2, 2, 3, 3, 3, 2])
    state.apply_text("buy 3 investigate")
    state.apply_text("pass")
    state.apply_text("pass")
    with pytest.raises(IllegalAction, match="undrawable"):
        state.apply_text("buy 3 investigate")


def test_unbought_dice_and_the_hunted_rule_feed_ferocity() -> None:
    state = placed(1, 1, 2)
    set_pool(state, [0, 0, 0, 0, 0, 5])  # 30 left unbought: +3
    state.caught = [False] * 3
    for _ in range(3):
        state.apply_text("pass")
    end = next(obs for obs, _ in reversed(state._log) if obs.kind == "round_end")
    assert end["unused"] == 30 and end["hunted"] == 5 and end["ferocity"] == 50 + 3 + 5


def test_declaring_needs_the_weapon_track_and_no_purchase() -> None:
    state = placed(1, 2, 3)
    state.weapon = WEAPON_MAX
    set_pool(state, [3, 3, 3, 3, 2, 1])
    state.apply_text("buy 1 weapon")  # legal at 10, no effect
    assert state.weapon == WEAPON_MAX
    for _ in range(3):
        state.apply_text("pass")
    assert state.phase == "declare" and state.to_move == 1  # red bought, so is not eligible
    profile = " ".join(state.profile())
    state.apply_text(f"declare {profile}")
    attempt = state.information_set(0).observations[-1]
    assert attempt.kind == "attempt" and attempt["dice"] == 85 and attempt["success"]
    assert all(obs.kind != "declaration" for obs in state.information_set(0).observations)
    state.apply_text("skip")
    assert state.phase == "buy" and state.seq[1] == 1


def test_nobody_reaching_ferocity_loses_for_all() -> None:
    state = placed(1, 2, 3, start_points=4, start_ferocity=50)
    set_pool(state, [3, 3, 3, 3, 2, 1])
    state.apply_text("buy 3 investigate")  # red's best roll is 36 now, the others' 54
    assert not state.is_over
    state.points_left = [1, 0, 4]
    state.apply_text("pass")  # blue (30)
    state.apply_text("buy 1 weapon")
    assert state.is_over and state.winners == () and state.end_reason.startswith("nobody")


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="players"):
        engines.make("serial-killer", players=6)
    with pytest.raises(ConfigError, match="first_player"):
        engines.make("serial-killer", players=3, first_player=4)
    with pytest.raises(ConfigError, match="central_park_prob"):
        engines.make("serial-killer", central_park_prob=2)


@pytest.mark.parametrize(
    "text",
    [
        "buy 3 investigate",
        "buy 4 investigate",
        "buy 4 briefing blue",
        "buy 6 lab 2,5",
        "buy 6 lab",
        "buy 2 move 7",
        "discard WPN.3",
        "declare AGE.1 SEX.4 VIC.0 WPN.2 MO.5 SIG.1 ORG.3",
        "pass",
        "place 4",
    ],
)
def test_notation_round_trips(text: str) -> None:
    game = engines.make("serial-killer")
    assert str(game.parse_action(text)) == text


@pytest.mark.parametrize(
    "text", ["buy 7 weapon", "buy 2 weapon", "buy 4 briefing purple", "declare AGE.1", "fly"]
)
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(InvalidAction):
        engines.make("serial-killer").parse_action(text)
