"""Noir's typed notation: every observation of both seats types and reads back exactly, typed
records are accepted line by line by the solver's validation (a record that stops where the
game still owes an observation waits, it is not wrong), bad lines are refused with one clear
line, and the notepad crosses off only suspects the opponent cannot be.

Games are random legal games (uniform over the legal actions): 100 on the default options,
each read from both seats, and a few on every other option value and the small grids.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
import opponents
from engines import (
    IncompleteInformationSet,
    InformationSet,
    InvalidInformationSet,
    InvalidObservation,
    Observation,
)
from engines.noir import Noir, NoirState
from engines.noir import actions as act
from engines.noir.observations import KINDS, end_word
from opponents.games.noir import notepad
from solver.validation import validate

GAMES = 100
OPTIONS: tuple[dict[str, object], ...] = (
    {"grid": 3},
    {"grid": 4},
    {"deck": "separate", "citizen_arrest": True},
    {"grid": 3, "deck": "separate", "citizen_arrest": True, "kill_canvas": False},
    {"grid": 4, "reverse_shift_ban": False, "kills_to_win": 14},
    {"turn_limit": 9},
    {"grid": 3, "turn_limit": 14, "citizen_arrest": True},
)
GAMES_PER_OPTION = 15


def noir(**options: object) -> Noir:
    game = engines.make("noir", **options)
    assert isinstance(game, Noir)
    return game


@cache
def played(options: tuple[tuple[str, object], ...], seed: int) -> NoirState:
    """A game of uniformly random legal moves, to its end."""
    state = noir(**dict(options)).new_game(seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def records(options: dict[str, object], games: int) -> list[InformationSet]:
    """Both seats' whole information sets of `games` random games."""
    key = tuple(sorted(options.items()))
    return [played(key, seed).information_set(seat) for seed in range(games) for seat in SEATS]


SEATS = ("killer", "inspector")
KINDS_SEEN: Counter[str] = Counter()


def assert_round_trip(info: InformationSet) -> int:
    game = info.make_game()
    for i, obs in enumerate(info.observations):
        text = game.observation_text(obs)
        assert game.parse_entry(text, info.seat, info.observations[:i]) == (obs,), text
        KINDS_SEEN[obs.kind] += 1
    return len(info.observations)


# --- the round trip --------------------------------------------------------------------------
def test_every_observation_of_both_seats_types_and_reads_back() -> None:
    infos = records({}, GAMES)
    assert sum(info.seat == "inspector" for info in infos) == GAMES
    assert sum(assert_round_trip(info) for info in infos) > 5000


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_every_observation_round_trips_with_other_options(options: dict[str, object]) -> None:
    for info in records(options, GAMES_PER_OPTION):
        assert_round_trip(info)


def test_the_round_trips_met_every_kind_of_observation() -> None:
    for options in ({}, *OPTIONS):
        for info in records(options, GAMES_PER_OPTION):
            assert_round_trip(info)
    assert set(KINDS_SEEN) == set(KINDS)
    ends = {
        end_word(obs["reason"])
        for options in ({}, *OPTIONS)
        for info in records(options, GAMES_PER_OPTION)
        for obs in info.observations[-1:]
        if obs.kind == "end"
    }
    assert {"inspector-killed", "kills", "arrest", "turn-limit"} <= ends


SHORT_VERBS = {"identity": "i", "kill": "k", "drew": "dre", "exonerate": "ex"}


def short_text(obs: Observation, seat: str) -> str:
    """What a hurried person types: names by their first letter, nothing the record gives."""
    kind, get = obs.kind, obs.get
    if kind == "setup":
        return "grid " + "/".join(" ".join(name[0] for name in row) for row in get("rows"))
    if kind == "hand":
        return "h " + " ".join(name[0].lower() for name in get("cards"))
    if kind in SHORT_VERBS:
        return f"{SHORT_VERBS[kind]} {get('suspect')[0]}"
    if kind == "canvas":
        return "canvas" if get("seat") == seat else ("!" if get("adjacent") else "?")
    if kind == "shift":
        return f"shift {get('line')[0]} {get('index')} {get('direction')[0]}"
    if kind == "disguise":
        if get("success"):
            return "disguise innocent" if seat == "killer" else f"disg inn {get('former')[0]}"
        return f"disg f {get('drawn')[0]}"
    if kind in ("arrest", "citizen-arrest"):
        agent = f" with {get('agent')[0]}" if kind == "citizen-arrest" else ""
        caught = " caught" if get("success") and seat == "inspector" else ""
        return f"{'a' if kind == 'arrest' else 'ci'} {get('suspect')[0]}{agent}{caught}"
    if kind == "end":  # the killer cannot tell a kill of the inspector from others
        return "end" if seat == "inspector" else f"end {end_word(get('reason'))}"[:5]
    return {"chose-identity": "ch", "collapse": "co", "draw": "dra"}[kind]


def test_short_forms_with_what_the_record_gives_left_out_read_the_same() -> None:
    """First letters for names, no seat on a shift, no canvas answer or arrest outcome the
    seat knows itself, no end reason when only one is possible."""
    for options in ({}, {"grid": 3, "deck": "separate", "citizen_arrest": True}):
        for info in records(options, 20):
            game = info.make_game()
            for i, obs in enumerate(info.observations):
                text = short_text(obs, str(info.seat))
                got = game.parse_entry(text, info.seat, info.observations[:i])
                assert got == (obs,), text


def combined(obs: Observation, after: Observation, seat: str) -> str | None:
    """The one line that types `obs` and the observation right after it together, if any."""
    if obs.kind == "draw" and after.kind == "drew":
        return f"draw {after['suspect']}"
    if obs.kind == "chose-identity" and after.kind == "identity":
        return f"chose-identity {after['suspect']}"
    if obs.kind == "disguise" and obs["success"] and after.kind == "identity" and seat == "killer":
        return f"disguise as {after['suspect']}"
    return None


def test_what_a_seat_sees_at_once_is_one_line() -> None:
    """The inspector's draw with his card, his choice with his identity; the killer's
    disguise with his new identity."""
    seen: Counter[str] = Counter()
    for info in records({}, 30):
        game = info.make_game()
        pairs = zip(info.observations, info.observations[1:], strict=False)
        for i, (obs, after) in enumerate(pairs):
            text = combined(obs, after, str(info.seat))
            if text is not None:
                got = game.parse_entry(text, info.seat, info.observations[:i])
                assert got == (obs, after), text
                seen[text.split()[0]] += 1
    assert set(seen) == {"draw", "chose-identity", "disguise"}


def test_the_inspector_may_type_his_identity_alone_for_the_choice() -> None:
    info = records({}, 1)[1]
    chose = next(i for i, obs in enumerate(info.observations) if obs.kind == "chose-identity")
    identity = info.observations[chose + 1]
    game = info.make_game()
    got = game.parse_entry(
        f"identity {identity['suspect']}", "inspector", info.observations[:chose]
    )
    assert got == info.observations[chose : chose + 2]


def test_the_grid_is_one_line_of_first_letters_and_a_hand_one_line() -> None:
    game = noir()
    grid = "grid a b c d e/f g h i j/k l m n o/p q r s t/u v w x y"
    rows = game.parse_observation(grid, "killer")["rows"]
    assert rows[0] == ("Ada", "Bruno", "Clara", "Dora", "Emil") and len(rows) == 5
    setup = game.parse_entry(grid, "inspector")
    hand = game.parse_observation("hand Ad bru C dora", "inspector", setup)
    assert hand["cards"] == ("Ada", "Bruno", "Clara", "Dora")
    flat = "setup " + " ".join(name.lower() for name in game.suspects)
    assert game.parse_entry(flat, "killer") == setup


def test_derived_fields_come_from_the_record() -> None:
    """The rows after a shift and a collapse, the kill count, the canvas card, who shifted."""
    game, state = scripted()
    state.apply(act.Kill("Leo"))
    killer = state.information_set("killer").observations
    assert game.parse_observation("kill Leo", "killer", killer[:2])["kills"] == 1
    state.apply(act.Identity("Ada"))
    before = state.information_set("killer").observations
    shift = game.parse_observation("shift r 1 l", "killer", before)
    assert shift["seat"] == "killer"
    assert shift["rows"][0] == ("Bruno", "Clara", "Dora", "Emil", "Ada")
    state.apply(act.Shift("row", 1, "left"))
    assert state.information_set("killer").observations[-1] == shift


# --- a scripted game -------------------------------------------------------------------------
def scripted(**options: object) -> tuple[Noir, NoirState]:
    """The grid laid in name order (Mia in the centre); the killer is Mia, the inspector holds
    Ada, Bruno, Yuri and Uma, then draws Hugo (beside Mia), Jonas, ..."""
    game = noir(**options)
    names = list(game.suspects)
    size = game.options["grid"]
    grid = [names[r * size : (r + 1) * size] for r in range(size)]
    first = ["Mia", "Ada", "Bruno", "Yuri", "Uma", "Hugo", "Jonas"]
    deck = first + [name for name in names if name not in first]
    killer_deck = None
    if game.options["deck"] == "separate":
        killer_deck = deck
        deck = [name for name in deck if name != "Mia"]
    return game, game.arrange(random.Random(0), grid, deck, killer_deck)


def context(
    actions: tuple[act.NoirAction, ...] | None, seat: str, drop: int = 0, **options: object
) -> tuple[Noir, tuple[Observation, ...]]:
    """`seat`'s observations after `actions` of the scripted game, without the last `drop`
    (None: before the setup)."""
    game, state = scripted(**options)
    if actions is None:
        return game, ()
    for action in actions:
        state.apply(action)
    observations = state.information_set(seat).observations
    return game, observations[: len(observations) - drop]


def info_of(game: Noir, seat: str, observations: tuple[Observation, ...]) -> InformationSet:
    return InformationSet("noir", game.option_items(), seat, observations)


CHOSEN = (act.Kill("Leo"), act.Identity("Ada"))
SHIFTED = (*CHOSEN, act.Shift("row", 1, "left"))  # now the inspector's turn
EXONERATED = (*SHIFTED, act.Draw(), act.Exonerate("Hugo"))  # the killer answers "!"
CAUGHT = (*CHOSEN, act.Shift("column", 1, "down"), act.Shift("row", 2, "right"), act.Kill("Ada"))

BAD: list[tuple[str, tuple[act.NoirAction, ...] | None, int, str, str, str]] = [
    # (what, actions before, observations dropped, seat, line, a part of the message)
    ("no setup first", None, 0, "killer", "kill Ada", "starts with the grid"),
    ("grid with a repeated suspect", None, 0, "killer",
     "setup a b c d e / f g h i j / k l m n o / p q r s t / u v w x a", "named twice"),
    ("grid with an unknown suspect", None, 0, "killer",
     "setup a b c d e / f g h i j / k l m n o / p q r s t / u v w x Zed", "Zed"),
    ("grid of the wrong shape", None, 0, "killer",
     "setup a b c d e f / g h i j / k l m n o", "rows"),
    ("grid too short", None, 0, "inspector", "setup a b c d e", "25 suspects"),
    ("a second setup", (act.Kill("Leo"),), 0, "killer", "setup a b c d e", "once"),
    ("hand of three", (), 1, "inspector", "hand a b c", "4 cards"),
    ("hand of five", (), 1, "inspector", "hand a b c d e", "4 cards"),
    ("hand with a card twice", (), 1, "inspector", "hand a b c a", "twice"),
    ("the killer types the hand", (), 1, "killer", "hand a b c d", "does not see"),
    ("the killer types the inspector's identity", CHOSEN, 0, "killer",
     "inspector identity Ada", "does not see"),
    ("the inspector types the killer's identity", CHOSEN, 0, "inspector",
     "killer identity Mia", "does not see"),
    ("the killer types the card drawn", (*SHIFTED, act.Draw()), 0, "killer", "drew Emil",
     "does not see"),
    ("the killer names the card drawn", SHIFTED, 0, "killer", "draw Emil", "does not see"),
    ("the killer names the choice", (act.Kill("Leo"),), 0, "killer", "chose-identity Ada",
     "does not see"),
    ("the inspector names the new identity", CHOSEN, 0, "inspector", "disguise as Kira",
     "does not see"),
    ("an identity out of the hand", (act.Kill("Leo"),), 0, "inspector", "identity Mia", "hand"),
    ("a kill not beside the killer", CHOSEN, 0, "killer", "kill Ada", "not adjacent"),
    ("a kill of the dead", CHOSEN, 0, "killer", "kill Leo", "dead"),
    ("a kill out of turn", (act.Kill("Leo"),), 0, "inspector", "kill Mia", "inspector's turn"),
    ("a shift before the choice", (act.Kill("Leo"),), 0, "inspector", "shift row 1 left",
     "choosing his identity"),
    ("a row off the grid", CHOSEN, 0, "killer", "shift row 6 left", "from 1 to 5"),
    ("a row shifted up", CHOSEN, 0, "killer", "shift row 1 up", "direction"),
    ("a diagonal", CHOSEN, 0, "killer", "shift diag 1 up", "line"),
    ("undoing the last shift", SHIFTED, 0, "inspector", "shift row 1 right", "undo"),
    ("a shift by the seat not to move", CHOSEN, 0, "killer", "inspector shift row 1 left",
     "killer's turn"),
    ("a canvas nobody asked", CHOSEN, 0, "killer", "canvas !", "no canvas"),
    ("a canvas on the wrong card", EXONERATED, 1, "inspector", "canvas Bruno !", "on Hugo"),
    ("a canvas the killer knows is false", EXONERATED, 1, "killer", "canvas ?",
     "is adjacent to Hugo"),
    ("an action while a canvas is owed", EXONERATED, 1, "killer", "shift row 1 left",
     "killer's canvas on Hugo"),
    ("a collapse not due", (act.Kill("Leo"),), 0, "killer", "collapse", "no collapse"),
    ("exonerating without drawing", SHIFTED, 0, "inspector", "exonerate Bruno", "draws first"),
    ("exonerating a card not held", (*SHIFTED, act.Draw()), 0, "inspector", "exonerate Mia",
     "hand"),
    ("an arrest out of reach", SHIFTED, 0, "inspector", "arrest Yuri", "adjacent"),
    ("an arrest the killer knows missed", SHIFTED, 0, "killer", "arrest Mia missed", "caught"),
    ("an arrest with a citizen, variant off", SHIFTED, 0, "inspector",
     "citizen-arrest Greta with Bruno", "variant"),
    ("an end of a game that goes on", (act.Kill("Leo"),), 0, "inspector", "end", "goes on"),
    ("an end by a way not possible", (*SHIFTED, act.Arrest("Emil")), 0, "killer", "end kills",
     "cannot have"),
    ("a line after the end", CAUGHT, 0, "killer", "shift row 1 left", "over"),
    ("an unknown kind", (), 0, "killer", "teleport Ada", "not a kind"),
    ("an ambiguous kind", CHOSEN, 0, "killer", "d", "could be"),
    ("a misspelt suspect", CHOSEN, 0, "killer", "kill Nilz", "did you mean Nils"),
    ("a seat alone", (), 0, "killer", "killer", "after the seat"),
    ("a failed disguise onto the living, one deck", CHOSEN, 0, "inspector",
     "disguise failed Nils", "dead card"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("actions", "drop", "seat", "text", "named"),
    [bad[1:] for bad in BAD],
    ids=[bad[0] for bad in BAD],
)
def test_a_bad_line_is_refused_with_one_clear_line(
    actions: tuple[act.NoirAction, ...] | None, drop: int, seat: str, text: str, named: str
) -> None:
    game, before = context(actions, seat, drop)
    with pytest.raises(InvalidObservation) as error:
        game.parse_entry(text, seat, before)
    message = str(error.value)
    assert named in message
    assert message.startswith("noir: ") and "\n" not in message and len(message) < 300


def test_the_scripted_lines_read_where_the_bad_ones_do_not() -> None:
    """The same contexts accept the right lines: the refusals above are about the line."""
    game, before = context(EXONERATED, "killer", 1)
    assert game.parse_observation("canvas", "killer", before)["adjacent"] is True
    game, before = context(CAUGHT, "killer", 1)
    assert game.parse_observation("end", "killer", before)["winners"] == ("killer",)
    game, before = context(SHIFTED, "killer")
    assert game.parse_observation("arrest Mia", "killer", before)["success"] is True
    game, before = context((), "inspector", 1)
    assert game.parse_observation("hand a b y u", "inspector", before)["cards"][2] == "Yuri"


def test_the_variant_and_separate_decks_read_their_own_lines() -> None:
    game, before = context(SHIFTED, "inspector", citizen_arrest=True, deck="separate")
    got = game.parse_observation("citizen-arrest Greta with Bruno", "inspector", before)
    assert got["agent"] == "Bruno" and got["success"] is False
    game, before = context(CHOSEN, "killer", deck="separate")
    failed = game.parse_observation("disguise failed Nils", "killer", before)
    assert failed["drawn"] == "Nils"  # with his own deck a disguise may fail onto anyone held


def test_the_small_grids_refuse_names_of_the_big_one() -> None:
    game = noir(grid=3)
    with pytest.raises(InvalidObservation, match="Yuri"):
        game.parse_entry("setup a b c / d e f / g h Yuri", "killer")
    with pytest.raises(InvalidObservation, match="9 suspects"):
        game.parse_entry("setup a b c d e f g h", "killer")


LINE = st.lists(
    st.sampled_from([*noir().notation_words(), "!", "?", "/", "7", "0", "xx", "Zed", "a", "d"]),
    min_size=1,
    max_size=8,
).map(" ".join)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 3), st.integers(0, 60), st.sampled_from(SEATS), LINE)
def test_random_lines_read_or_are_refused_and_what_reads_validates(
    game_seed: int, at: int, seat: str, text: str
) -> None:
    info = records({"grid": 3}, 4)[2 * game_seed + SEATS.index(seat)]
    before = info.observations[: min(at, len(info.observations) - 1)]
    game = info.make_game()
    try:
        found = game.parse_entry(text, seat, before)
    except InvalidObservation:
        return
    typed = InformationSet(info.game, info.options, seat, (*before, *found))
    with contextlib.suppress(IncompleteInformationSet):
        validate(typed)


# --- incomplete records ----------------------------------------------------------------------
def test_every_prefix_validates_or_waits_and_whole_records_validate() -> None:
    waits: Counter[str] = Counter()
    prefixes = 0
    cases: list[tuple[dict[str, object], int]] = [({}, 4), ({"grid": 3}, 40), (OPTIONS[3], 25)]
    for options, games in cases:
        for info in records(options, games):
            validate(info)
            for n in range(1, len(info.observations)):
                prefix = InformationSet(info.game, info.options, info.seat,
                                        info.observations[:n])  # fmt: skip
                prefixes += 1
                try:
                    validate(prefix)
                except IncompleteInformationSet as waiting:
                    assert waiting.waiting_for and str(waiting).startswith("noir: ")
                    waits[info.observations[n].kind] += 1
    assert {"identity", "hand", "canvas", "collapse", "drew", "end"} <= set(waits)
    assert prefixes > 3000


def test_a_missing_owed_observation_in_the_middle_is_wrong_not_incomplete() -> None:
    dropped = 0
    for info in records({}, 30):
        for i, obs in enumerate(info.observations[:-1]):
            if obs.kind in ("canvas", "collapse") and i + 1 < len(info.observations) - 1:
                cut = (*info.observations[:i], *info.observations[i + 1 :])
                wrong = InformationSet(info.game, info.options, info.seat, cut)
                with pytest.raises(InvalidInformationSet) as error:
                    validate(wrong)
                assert not isinstance(error.value, IncompleteInformationSet)
                assert "comes first" in str(error.value) or "rows" in str(error.value)
                dropped += 1
                break
    assert dropped > 10


# --- help and words --------------------------------------------------------------------------
def test_help_names_every_kind_and_words_complete_names() -> None:
    game = noir()
    forms = " ".join(form for form, _ in game.notation_help())
    for kind in KINDS:
        assert kind in forms or kind == "setup"
    assert "setup" in forms
    words = game.notation_words()
    assert set(KINDS) <= set(words) and set(game.suspects) <= set(words)
    assert {"killer", "inspector", "row", "column", "left", "up", "caught"} <= set(words)


# --- the notepad ------------------------------------------------------------------------------
def notepad_positions() -> list[tuple[InformationSet, NoirState]]:
    """Both seats at the end of every 7th action of random games, with the truth."""
    found = []
    for options in ({}, {"grid": 3, "deck": "separate", "citizen_arrest": True}):
        game = noir(**options)
        for seed in range(12):
            state, rng = game.new_game(seed), random.Random(seed)
            step = 0
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
                step += 1
                if step % 7 == 0:
                    found += [(state.information_set(seat), state.clone()) for seat in SEATS]
    return found


def test_the_notepad_crosses_off_only_who_the_opponent_is_not() -> None:
    crossed = 0
    for info, state in notepad_positions():
        for hint in notepad(info):
            assert hint.kind in ("notepad", "summary") and hint.text
            if hint.fact is None:
                continue
            assert hint.fact.holds(state) == (hint.probability == 1.0), hint.text
            if hint.probability == 0.0:
                crossed += 1
                assert hint.because, hint.text
    assert crossed > 500


def test_the_notepad_starts_with_who_is_left_and_puts_the_dead_last() -> None:
    game, before = context(SHIFTED, "inspector")
    info = info_of(game, "inspector", before)
    hints = notepad(info)
    assert hints[0].text.startswith("The killer is one of 20 not crossed off: ")
    crossed = [hint.text.split()[0] for hint in hints[1:]]
    assert crossed == ["Ada", "Bruno", "Uma", "Yuri", "Leo"]
    assert hints[1].text == "Ada is not the killer (one of your cards)"
    assert hints[1].fact is not None and hints[1].fact.args == ("Ada",)
    assert hints[-1].text == "Leo is not the killer (dead)"
    assert hints[-1].because == ("Killer killed Leo (kill 1)",)
    assert opponents.notepad(info) == hints


def test_the_notepad_keeps_the_heuristic_tips() -> None:
    game, before = context(EXONERATED, "inspector")
    tip = notepad(info_of(game, "inspector", before))[1]
    assert tip.text.startswith('The killer was beside Hugo when the canvas said "!": one of ')
    assert "Mia" in tip.text and "Leo" not in tip.text  # the dead are crossed off
    game, before = context((*SHIFTED, act.Draw(), act.Exonerate("Bruno")), "inspector")
    assert not any("canvas" in hint.text for hint in notepad(info_of(game, "inspector", before)))
    game, before = context((*CHOSEN, act.Shift("row", 2, "left"), act.Arrest("Bruno")), "killer")
    tip = notepad(info_of(game, "killer", before))[1]
    assert tip.text.startswith("The inspector was Bruno or beside Bruno when he arrested Bruno")
    assert tip.because == ("Inspector arrested Bruno: not the killer",)


def test_the_notepad_names_the_opponent_when_all_else_is_crossed_off() -> None:
    game, before = context(SHIFTED, "inspector")
    info = info_of(game, "inspector", before)
    left = notepad(info)[0].text.split(": ")[1].split(", ")
    arrests = tuple(Observation.of("arrest", seat="inspector", suspect=name, success=False)
                    for name in left if name != "Mia")  # fmt: skip
    hints = notepad(info_of(game, "inspector", (*before, *arrests)))
    assert hints[0].text == "Mia is the killer: every other suspect is crossed off"
    assert hints[0].probability == 1.0 and hints[0].fact is not None


def test_the_killer_has_nothing_to_note_before_the_inspector_chooses() -> None:
    game, before = context((act.Kill("Leo"),), "killer")
    assert notepad(info_of(game, "killer", before)) == []
    assert notepad(info_of(game, "killer", ())) == []
