"""Noir's engine: the conformance suite, random games, then the rules one by one.

Scripted positions use the 3x3 grid laid in reading order unless said otherwise:

    Ada   Bruno Clara
    Dora  Emil  Finn
    Greta Hugo  Ida
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines import Action, ConfigError, IllegalAction, InvalidAction, State
from engines.noir import NoirState, adjacent, shifted
from engines.noir import actions as act
from tests.conformance import EngineSpec, check_random_game, drawn, play_checked

GAME = engines.make("noir")


def arrange(cards: str, killer_cards: str = "", grid: str = "", **options: object) -> NoirState:
    """A game (3x3 unless told) whose decks start with the cards named, the rest in name order."""
    game = engines.make("noir", **{"grid": 3, **options})
    names, size = game.suspects, game.options["grid"]
    laid = grid.split() or list(names)
    rows = [laid[i * size : (i + 1) * size] for i in range(size)]
    killer = killer_cards.split()
    if killer:
        killer += [name for name in names if name not in killer]
    top = cards.split()
    rest = [name for name in names if name not in top and name not in killer[:1]]
    return game.arrange(random.Random(0), rows, top + rest, killer or None)


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_text(move)
    return state


def legal(state: State) -> set[str]:
    return {str(action) for action in state.legal_actions()}


def seen(state: State, seat: str, kind: str) -> list[dict]:
    return [
        dict(obs.fields) for obs in state.information_set(seat).observations if obs.kind == kind
    ]


# --- the conformance suite -------------------------------------------------------------------
def transitions(previous: State | None, state: State) -> None:
    """What holds from one state to the next (each state's own invariants are the engine's)."""
    assert isinstance(state, NoirState)
    if previous is not None:
        assert isinstance(previous, NoirState)
        grid, dead = state.grid, set(state.dead)
        flat = {name for row in grid for name in row}
        before = {name for row in previous.grid for name in row}
        assert flat <= before and (before - flat) <= dead
        assert len(grid) <= len(previous.grid) and len(grid[0]) <= len(previous.grid[0])
        assert set(previous.dead) <= dead and len(state.dead) - len(previous.dead) <= 1
        if previous._inspector is not None:
            assert state._inspector == previous._inspector, "the inspector's identity is fixed"


def check_step(previous: State | None, state: State) -> None:
    state.check_invariants()
    transitions(previous, state)


def perturbed(state: NoirState, seat: object, rng: random.Random) -> dict:
    """The true hidden part with two cards of a deck exchanged, maybe another identity."""
    guess = state.hidden()
    decks = [key for key in ("deck", "killer_deck") if key in guess]
    key = rng.choice(decks)
    cards = list(guess[key])
    i, j = rng.sample(range(len(cards)), 2)
    cards[i], cards[j] = cards[j], cards[i]
    guess[key] = cards
    if seat == "killer" and "inspector_identity" in guess and rng.random() < 0.5:
        first_four = guess["deck"][1:5] if "killer_deck" not in guess else guess["deck"][:4]
        guess["inspector_identity"] = rng.choice(first_four)
    return guess


def twin(state: State, history: Sequence[Action], seat: object, rng: random.Random) -> State:
    """The same game with hidden cards this seat never saw exchanged (rejection sampling).

    `reconstruct` replays the history from the perturbed deal and refuses a deal that changes
    anything the seat saw, so what is returned differs only in what the seat cannot know.
    """
    assert isinstance(state, NoirState)
    info = state.information_set(seat)
    for _ in range(12):
        try:
            return state.game.reconstruct(info, perturbed(state, seat, rng))
        except ValueError:
            continue
    return state.game.reconstruct(info, state.hidden())


def illegal_candidates(state: State) -> list[Action]:
    assert isinstance(state, NoirState)
    texts = [
        "kill Ada", "kill Bruno", f"kill {state._killer}", "disguise", "draw", "identity Clara",
        "exonerate Dora", "arrest Emil", "arrest Ada", "shift row 1 left", "shift row 9 right",
        "shift column 2 up", "citizen-arrest Ada with Bruno", f"arrest {state._killer}",
    ]  # fmt: skip
    actions = [state.game.parse_action(text) for text in texts]
    if state.protected is not None:
        undo = {"left": "right", "right": "left", "up": "down", "down": "up"}
        last = state.protected
        actions.append(act.Shift(last.line, last.index, undo[last.direction]))
    return actions


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"grid": 4, "deck": "separate", "citizen_arrest": True},
        {"grid": 3, "reverse_shift_ban": False, "kill_canvas": False, "kills_to_win": 14},
        {"grid": 3, "deck": "separate", "citizen_arrest": True},
    ],
    ids=["5x5-defaults", "4x4-separate-citizen", "3x3-no-ban-no-canvas-14", "3x3-separate"],
)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_conform(options: dict, seed: int, data: st.DataObject) -> None:
    game = engines.make("noir", **options)
    check_random_game(EngineSpec(game, transitions, twin, illegal_candidates), seed, drawn(data))


def test_a_thousand_random_games_end_with_their_invariants() -> None:
    configs = [{}, {"grid": 4, "citizen_arrest": True}, {"grid": 3, "deck": "separate"}]
    games = [engines.make("noir", **options) for options in configs]
    endings = set()
    for seed in range(1000):
        state = play_checked(
            games[seed % len(games)].new_game(seed), random.Random(seed), check_step
        )
        endings.add(state.reason.split()[1] + " " + state.reason.split()[2])
    assert {"killer killed", "killer reached", "inspector arrested"} <= endings


def test_twins_really_differ_in_hidden_cards_only() -> None:
    """The twin changes hidden cards often, so the no-leak check has teeth."""
    rng = random.Random(0)
    differ = {"killer": 0, "inspector": 0}
    for seed in range(30):
        game = engines.make("noir", grid=4)
        state = game.new_game(seed)
        for _ in range(rng.randrange(2, 30)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        for seat in differ:
            other = twin(state, [], seat, rng)
            assert other.information_set(seat) == state.information_set(seat)
            differ[seat] += other.hidden() != state.hidden()
    assert differ["killer"] >= 10 and differ["inspector"] >= 10, differ


def test_the_no_leak_check_catches_a_seen_card_changed() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida")
    other = play(arrange("Finn Ada Bruno Clara Dora"), "kill Ida")
    assert other.information_set("inspector") == state.information_set("inspector")
    assert other.information_set("killer") != state.information_set("killer")


# --- setup and first turns ---------------------------------------------------------------------
def test_setup_is_random_reproducible_and_dealt_from_the_deck() -> None:
    assert GAME.new_game(5).to_json() == GAME.new_game(5).to_json()
    assert GAME.new_game(5).grid != GAME.new_game(6).grid
    state = GAME.new_game(5)
    assert sorted(name for row in state.grid for name in row) == sorted(GAME.suspects)
    assert state._killer == state._deck[0] and state._hand == list(state._deck[1:5])
    assert seen(state, "killer", "identity") == [{"seat": "killer", "suspect": state._killer}]
    assert seen(state, "inspector", "hand") == [{"seat": "inspector", "cards": tuple(state._hand)}]
    assert seen(state, "killer", "hand") == [] and seen(state, "inspector", "identity") == []
    assert seen(state, "killer", "setup") == seen(state, "inspector", "setup")


def test_first_turns_kill_then_choose_an_alive_identity() -> None:
    state = arrange("Emil Ada Bruno Clara Dora")
    assert legal(state) == {f"kill {n}" for n in GAME.suspects[:9] if n != "Emil"}
    with pytest.raises(IllegalAction, match="first turn must be a kill"):
        state.apply_text("shift row 1 left")
    play(state, "kill Ada")
    assert state.to_move == "inspector"
    assert legal(state) == {"identity Bruno", "identity Clara", "identity Dora"}
    with pytest.raises(IllegalAction, match="dead card cannot be chosen"):
        state.apply_text("identity Ada")
    with pytest.raises(IllegalAction, match="choosing his identity"):
        state.apply_text("arrest Bruno")
    play(state, "identity Clara")
    assert state._inspector == "Clara" and state._hand == ["Ada", "Bruno", "Dora"], "Ada stays"
    assert seen(state, "killer", "chose-identity") == [{"seat": "inspector"}]
    assert seen(state, "killer", "identity")[-1]["suspect"] == "Emil"
    assert seen(state, "inspector", "identity") == [{"seat": "inspector", "suspect": "Clara"}]
    with pytest.raises(IllegalAction, match="it is the killer's turn"):
        state.apply_text("identity Bruno")


# --- the grid ----------------------------------------------------------------------------------
def test_shifts_wrap_around() -> None:
    grid = (("Ada", "Bruno", "Clara"), ("Dora", "Emil", "Finn"), ("Greta", "Hugo", "Ida"))
    assert shifted(grid, "row", 0, "left")[0] == ("Bruno", "Clara", "Ada")
    assert shifted(grid, "row", 2, "right")[2] == ("Ida", "Greta", "Hugo")
    assert [row[0] for row in shifted(grid, "column", 0, "down")] == ["Greta", "Ada", "Dora"]
    assert [row[1] for row in shifted(grid, "column", 1, "up")] == ["Emil", "Hugo", "Bruno"]
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida", "identity Ada")
    play(state, "shift column 1 up")
    assert state.grid == (("Dora", "Bruno", "Clara"), ("Greta", "Emil", "Finn"),
                          ("Ada", "Hugo", "Ida"))  # fmt: skip
    assert seen(state, "inspector", "shift")[-1]["rows"] == state.grid
    assert "arrest Bruno" not in legal(state), "Ada moved away from Bruno"


def test_adjacency_is_the_eight_neighbours_without_wrap() -> None:
    state = play(arrange("Ada Bruno Clara Dora Emil"), "kill Bruno", "identity Clara")
    assert {a for a in legal(state) if a.startswith("kill")} == {"kill Dora", "kill Emil"}
    grid = state.grid
    assert adjacent(grid, "Ada", "Emil") and not adjacent(grid, "Ada", "Clara")
    assert not adjacent(grid, "Ada", "Ada") and not adjacent(grid, "Ada", "Greta")


def test_reverse_shift_ban_and_its_option() -> None:
    moves = ["kill Ida", "identity Ada", "shift row 1 left"]
    state = play(arrange("Emil Ada Bruno Clara Dora"), *moves)
    assert "shift row 1 right" not in legal(state) and "shift row 1 left" in legal(state)
    with pytest.raises(IllegalAction, match="undo the killer's previous shift"):
        state.apply_text("shift row 1 right")
    play(state, "arrest Ada")
    assert "shift row 1 right" in legal(state), "only the opponent's shift is protected"
    free = play(arrange("Emil Ada Bruno Clara Dora", reverse_shift_ban=False), *moves)
    assert "shift row 1 right" in legal(free)


def test_collapse_after_kills_and_adjacency_on_the_shrunk_grid() -> None:
    state = arrange("Dora Finn Ida Ada Clara")
    play(state, "kill Bruno", "identity Finn", "kill Emil", "arrest Finn")
    assert len(state.grid[0]) == 3
    play(state, "kill Hugo")  # the middle column is all dead: it goes
    assert state.grid == (("Ada", "Clara"), ("Dora", "Finn"), ("Greta", "Ida"))
    assert seen(state, "killer", "collapse") == [{"rows": state.grid}]
    assert "arrest Dora" in legal(state), "two columns apart, now adjacent"
    play(state, "arrest Finn")
    assert {"kill Clara", "kill Finn", "kill Ida"} <= legal(state)
    play(state, "kill Finn")
    assert state.is_over and state.winners == ("killer",)


def test_a_shift_can_collapse_and_a_two_card_line_cannot_be_undone() -> None:
    state = arrange("Emil Bruno Clara Finn Greta")
    play(state, "kill Ada", "identity Clara", "kill Dora", "arrest Clara", "kill Hugo")
    play(state, "arrest Clara", "shift row 3 left")  # Hugo lands under Ada and Dora
    assert state.grid == (("Bruno", "Clara"), ("Emil", "Finn"), ("Ida", "Greta"))
    assert "shift row 3 right" in legal(state), "after a collapse nothing is banned"
    play(state, "shift row 1 left")
    assert state.grid[0] == ("Clara", "Bruno")
    assert not {"shift row 1 left", "shift row 1 right"} & legal(state), "both would undo it"


# --- killer's actions ---------------------------------------------------------------------------
def test_killing_the_inspector_wins() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida", "identity Ada", "kill Ada")
    assert state.is_over and state.winners == ("killer",)
    assert state.legal_actions() == []


@pytest.mark.parametrize(
    ("size", "edition", "needed"),
    [(5, 16, 16), (5, 14, 14), (4, 16, 10), (4, 14, 9), (3, 16, 5), (3, 14, 4)],
)
def test_kills_to_win_per_grid(size: int, edition: int, needed: int) -> None:
    assert engines.make("noir", grid=size, kills_to_win=edition).kills_to_win == needed


def test_reaching_the_kill_count_wins() -> None:
    state = arrange("Emil Ada Bruno Clara Dora", kills_to_win=14)
    play(state, "kill Bruno", "identity Ada", "kill Clara", "arrest Ada", "kill Finn")
    play(state, "arrest Ada")
    assert not state.is_over and state.kills == 3
    play(state, "kill Ida")
    assert state.is_over and state.winners == ("killer",) and state.kills == 4


def test_disguise_success_reveals_the_old_identity_and_hides_the_new() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida", "identity Ada", "disguise")
    assert state._killer == "Finn" and "Emil" in state.innocent and "Emil" not in state.dead
    public = {"seat": "killer", "success": True, "former": "Emil"}
    assert seen(state, "inspector", "disguise") == [public] == seen(state, "killer", "disguise")
    assert seen(state, "killer", "identity")[-1]["suspect"] == "Finn"
    assert [obs["seat"] for obs in seen(state, "inspector", "identity")] == ["inspector"]
    # the former identity is publicly innocent: killing it asks the inspector for a canvas
    play(state, "arrest Ada", "kill Emil")
    assert seen(state, "killer", "canvas") == [
        {"seat": "inspector", "suspect": "Emil", "adjacent": True}
    ]


def test_disguise_failure_shows_the_card_and_an_empty_deck_stops_disguises() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida", "identity Ada")
    for _ in range(3):
        play(state, "disguise", "arrest Ada")  # Finn, Greta, Hugo: each alive, each taken
    assert state._killer == "Hugo" and state.revealed == ["Emil", "Finn", "Greta"]
    play(state, "disguise")  # Ida is dead
    assert state._killer == "Hugo" and state.discarded == ["Ida"]
    assert seen(state, "inspector", "disguise")[-1] == {
        "seat": "killer", "success": False, "drawn": "Ida"
    }  # fmt: skip
    play(state, "arrest Ada")
    assert state.cards_left("killer") == 0 and "disguise" not in legal(state)
    with pytest.raises(IllegalAction, match="deck is empty"):
        state.apply_text("disguise")


# --- inspector's actions ------------------------------------------------------------------------
def test_arrest_adjacent_or_the_identity_itself_dead_excluded() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Bruno", "identity Ada")
    play(state, "shift column 3 down")
    assert {a for a in legal(state) if a.startswith("arrest")} == {
        "arrest Ada", "arrest Dora", "arrest Emil"
    }  # fmt: skip
    with pytest.raises(IllegalAction, match="Bruno is dead"):
        state.apply_text("arrest Bruno")
    with pytest.raises(IllegalAction, match="nor adjacent"):
        state.apply_text("arrest Clara")
    play(state, "arrest Dora")
    assert not state.is_over
    assert seen(state, "killer", "arrest") == [
        {"seat": "inspector", "suspect": "Dora", "success": False}
    ]
    play(state, "kill Clara", "arrest Emil")
    assert state.is_over and state.winners == ("inspector",)


def test_exonerate_draws_then_chooses_and_the_killer_answers_a_canvas() -> None:
    state = play(arrange("Ada Bruno Clara Dora Emil"), "kill Bruno", "identity Clara")
    play(state, "kill Dora")
    with pytest.raises(IllegalAction, match="draw first"):
        state.apply_text("exonerate Emil")
    play(state, "draw")
    assert state.to_move == "inspector"
    assert seen(state, "inspector", "drew")[-1]["suspect"] == "Finn"
    assert seen(state, "killer", "drew") == [] and seen(state, "killer", "draw") != []
    assert legal(state) == {"exonerate Bruno", "exonerate Dora", "exonerate Emil", "exonerate Finn"}
    with pytest.raises(IllegalAction, match="must exonerate"):
        state.apply_text("arrest Clara")
    play(state, "exonerate Finn")
    assert seen(state, "inspector", "canvas") == [
        {"seat": "killer", "suspect": "Finn", "adjacent": False}
    ]
    assert "Finn" in state.innocent and state.to_move == "killer"
    play(state, "shift row 3 left", "draw", "exonerate Emil")
    assert seen(state, "inspector", "canvas")[-1]["adjacent"] is True
    assert '"!"' in GAME.describe(state.information_set("killer").observations[-1])


def test_exonerate_with_an_empty_deck_takes_a_card_of_the_hand() -> None:
    state = play(arrange("Ada Bruno Clara Dora Emil"), "kill Bruno", "identity Clara")
    for _ in range(4):
        play(state, "shift row 3 left", "draw")
        play(state, f"exonerate {state._hand[-1]}")
    assert state.cards_left("inspector") == 0
    play(state, "shift row 3 left")
    assert "draw" not in legal(state)
    assert {a for a in legal(state) if a.startswith("exonerate")} == {
        "exonerate Bruno", "exonerate Dora", "exonerate Emil"
    }  # fmt: skip
    draws = len(seen(state, "killer", "draw"))
    play(state, "exonerate Dora")
    assert state._hand == ["Bruno", "Emil"] and len(seen(state, "killer", "draw")) == draws
    assert seen(state, "killer", "canvas")[-1] == {
        "seat": "killer", "suspect": "Dora", "adjacent": True
    }  # fmt: skip


def test_killing_an_innocent_asks_the_inspector_and_the_option_silences_it() -> None:
    moves = ["kill Bruno", "identity Clara", "kill Dora", "draw", "exonerate Emil", "kill Emil"]
    state = play(arrange("Ada Bruno Clara Dora Emil"), *moves)
    assert seen(state, "killer", "canvas")[-1] == {
        "seat": "inspector", "suspect": "Emil", "adjacent": True
    }  # fmt: skip
    quiet = play(arrange("Ada Bruno Clara Dora Emil", kill_canvas=False), *moves)
    assert [obs["seat"] for obs in seen(quiet, "killer", "canvas")] == ["killer"]


def test_arrest_with_a_citizen_variant() -> None:
    moves = ["kill Bruno", "identity Clara", "shift row 3 left"]
    plain = play(arrange("Ada Bruno Clara Dora Emil"), *moves)
    with pytest.raises(IllegalAction, match="citizen_arrest"):
        plain.apply_text("citizen-arrest Hugo with Dora")
    state = play(arrange("Ada Bruno Clara Dora Emil", citizen_arrest=True), *moves)
    with pytest.raises(IllegalAction, match="not adjacent to the agent Dora"):
        state.apply_text("citizen-arrest Finn with Dora")
    play(state, "citizen-arrest Hugo with Dora")
    assert state.spent == ["Dora"] and "Dora" not in state._hand and not state.is_over
    assert seen(state, "killer", "citizen-arrest") == [
        {"seat": "inspector", "suspect": "Hugo", "agent": "Dora", "success": False}
    ]
    play(state, "kill Emil", "citizen-arrest Ada with Emil")  # a dead agent may arrest
    assert state.is_over and state.winners == ("inspector",)


def test_arrest_with_a_citizen_at_most_three_times() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora", citizen_arrest=True), "kill Ida")
    play(state, "identity Ada")
    for _ in range(3):
        state.apply(next(a for a in state.legal_actions() if isinstance(a, act.Shift)))
        citizen = [a for a in state.legal_actions() if isinstance(a, act.CitizenArrest)]
        state.apply(next(a for a in citizen if a.suspect != "Emil"))
    assert len(state.spent) == 3 and not state.is_over
    play(state, "kill Hugo", "draw")
    play(state, f"exonerate {state._hand[0]}", "kill Greta")
    assert not any(isinstance(a, act.CitizenArrest) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="all used"):
        state.apply_text("citizen-arrest Emil with Ada")


def test_separate_decks() -> None:
    state = arrange("Ada Bruno Clara Dora Finn", "Emil Ada Finn Greta", deck="separate")
    assert state._killer == "Emil" and state._hand == ["Ada", "Bruno", "Clara", "Dora"]
    assert "Emil" not in state._deck and len(state._deck) == 8
    play(state, "kill Ida", "identity Bruno", "disguise")  # Ada: the inspector's card
    assert seen(state, "inspector", "disguise")[-1]["drawn"] == "Ada" and state._killer == "Emil"
    play(state, "draw", "exonerate Finn", "disguise")  # Finn: exonerated
    assert state.discarded == ["Ada", "Finn"] and state._killer == "Emil"
    play(state, "arrest Bruno", "disguise")  # Greta: free
    assert state._killer == "Greta" and state.revealed == ["Emil"]
    assert state.cards_left("killer") == 5 and state.cards_left("inspector") == 3
    for seed in range(50):
        game = engines.make("noir", grid=3, deck="separate")
        dealt = game.new_game(seed)
        assert dealt._killer not in dealt._hand and dealt._killer not in dealt._deck


# --- the end, notation, options, reconstruction -------------------------------------------------
def test_turn_limit_ends_the_game_with_a_shared_win() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora", turn_limit=2), "kill Ida", "identity Ada")
    assert state.is_over and state.winners == ("killer", "inspector")


def test_every_kind_of_action_round_trips() -> None:
    game = engines.make("noir", grid=3)
    actions = [
        act.Kill("Ada"), act.Disguise(), act.Shift("row", 2, "left"), act.Shift("column", 3, "up"),
        act.Identity("Dora"), act.Draw(), act.Exonerate("Bruno"), act.Arrest("Clara"),
        act.CitizenArrest("Emil", "Finn"),
    ]  # fmt: skip
    for action in actions:
        assert game.parse_action(str(action)) == action
    assert game.parse_action("  SHIFT Column 2  Down ") == act.Shift("column", 2, "down")
    assert game.parse_action("kill ada") == act.Kill("Ada")
    assert str(act.CitizenArrest("Emil", "Finn")) == "citizen-arrest Emil with Finn"


@pytest.mark.parametrize(
    "text",
    ["", "fly", "kill", "kill Zed", "kill Yuri", "shift row 0 left", "shift row 2 up",
     "shift diagonal 1 left", "shift row two left", "citizen-arrest Ada Bruno", "disguise now"],
)  # fmt: skip
def test_unreadable_actions_are_invalid_and_quote_the_text(text: str) -> None:
    with pytest.raises(InvalidAction) as error:
        engines.make("noir", grid=3).parse_action(text)
    assert repr(text) in str(error.value) and "kill NAME" in str(error.value)


def test_a_shift_beyond_the_grid_is_illegal_and_changes_nothing() -> None:
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida", "identity Ada")
    before = state.to_json()
    with pytest.raises(IllegalAction, match="has 3 rows"):
        state.apply_text("shift row 4 left")
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"grid": 6}, "'grid'.*5, 4, 3"),
        ({"grid": 5.0}, "'grid'"),
        ({"kills_to_win": 15}, "'kills_to_win'.*16, 14"),
        ({"reverse_shift_ban": "yes"}, "'reverse_shift_ban'"),
        ({"kill_canvas": 1}, "'kill_canvas'"),
        ({"deck": "double"}, "'deck'.*'shared', 'separate'"),
        ({"citizen_arrest": None}, "'citizen_arrest'"),
        ({"turn_limit": 0}, "'turn_limit'.*positive integer"),
        ({"colour": "noir"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_raise_config_error(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        engines.make("noir", **options)


def test_metadata_and_a_sentence_for_every_kind_of_observation() -> None:
    assert "noir" in engines.names() and GAME.seats == ("killer", "inspector")
    game = engines.make("noir", grid=4, citizen_arrest=True)
    kinds = set()
    for seed in range(30):
        state, rng = game.new_game(seed), random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        for obs, _ in state._log:
            text = game.describe(obs)
            assert not text.startswith(f"{obs.kind}:") and "{" not in text, text
            kinds.add(obs.kind)
    assert kinds == {
        "setup", "identity", "hand", "chose-identity", "kill", "canvas", "shift", "collapse",
        "disguise", "draw", "drew", "exonerate", "arrest", "citizen-arrest", "end",
    }  # fmt: skip


def test_reconstruct_rebuilds_the_state_and_rejects_contradictions() -> None:
    game = engines.make("noir", grid=4, citizen_arrest=True)
    for seed in range(20):
        state, rng = game.new_game(seed), random.Random(seed)
        for _ in range(rng.randrange(1, 40)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        for seat in game.seats:
            rebuilt = game.reconstruct(state.information_set(seat), state.hidden())
            assert rebuilt._to_dict() == state._to_dict() and rebuilt._actions == state._actions
            assert game.state_from_json(rebuilt.to_json()).to_json() == rebuilt.to_json()
    state = play(arrange("Emil Ada Bruno Clara Dora"), "kill Ida", "identity Ada")
    hidden = state.hidden()
    with pytest.raises(ValueError, match="inspector_identity"):
        state.game.reconstruct(state.information_set("killer"), {"deck": hidden["deck"]})
    deck = hidden["deck"]
    wrong_hand = dict(hidden, deck=["Emil", "Finn", *deck[2:5], "Ada", *deck[6:]])
    with pytest.raises(ValueError):
        state.game.reconstruct(state.information_set("inspector"), wrong_hand)
    wrong_killer = dict(hidden, deck=["Finn", *deck[1:5], "Emil", *deck[6:]])
    with pytest.raises(ValueError):
        state.game.reconstruct(state.information_set("killer"), wrong_killer)
    assert state.game.reconstruct(state.information_set("inspector"), wrong_killer).to_move
