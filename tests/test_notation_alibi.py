"""Alibi's typed notation: every observation of every seat types and reads back exactly, typed
records are accepted line by line by the solver's validation, bad lines are refused with one
clear line, and the notepad hints cross off what the heuristic bot crosses off.

Games are random legal games, kept short (a round limit of 1 to 3) so that 100 games for every
player count, each read from every seat, take a few seconds; they lay sets more often than a
uniform choice would, and sometimes ask about a list of cards (legal, but not listed).
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator

import pytest

import engines
import solver
from engines import (
    Action,
    IncompleteInformationSet,
    InformationSet,
    InvalidObservation,
    Observation,
)
from engines.alibi import Accuse, Alibi, AlibiState, Ask, Lay, Subject
from engines.notation import Vocabulary
from opponents.games.alibi import crossed_off, notepad
from solver.validation import validate

VARIANTS: tuple[dict[str, object], ...] = (
    {"round_limit": 2},
    {"round_limit": 3, "deck": "small"},
    {"round_limit": 2, "single_card_questions": "forbidden"},
    {"round_limit": 2, "end_variant": "solutions", "seen_includes_sets": False},
    {"round_limit": None, "deck": "small", "wrong_accuser_can_win": True},
    {"round_limit": 1, "end_variant": "solutions", "deck": "small", "dealer": 0},
)
GAMES_PER_PLAYER_COUNT = 100


def alibi(**options: object) -> Alibi:
    game = engines.make("alibi", **options)
    assert isinstance(game, Alibi)
    return game


def played(game: Alibi, seed: int) -> AlibiState:
    """A random legal game: lays when it can seven times in ten, accuses one turn in ten when
    there is no round limit (so that the game ends soon), and one question in five is about
    two to four random cards."""
    state = game.new_game(seed)
    rng = random.Random(seed)
    eager = 0.1 if game.options["round_limit"] is None else 0.0
    while not state.is_over:
        legal = state.legal_actions()
        lays = [a for a in legal if isinstance(a, Lay)]
        asks = [a for a in legal if isinstance(a, Ask)]
        accusations = [a for a in legal if isinstance(a, Accuse)]
        action: Action
        if lays and rng.random() < 0.7:
            action = rng.choice(lays)
        elif accusations and rng.random() < eager:
            action = rng.choice(accusations)
        elif asks and rng.random() < 0.2:
            cards = tuple(rng.sample(game.deck.ids, rng.randint(2, 4)))
            action = Ask(asks[0].target, rng.choice(("hand", "seen")), Subject("cards", cards))
        else:
            action = rng.choice(legal)
        state.apply(action)
    return state


def random_games(players: int, games: int) -> Iterator[tuple[Alibi, AlibiState]]:
    """`games` random games of `players`, the variants taking turns."""
    made = [alibi(players=players, **options) for options in VARIANTS]
    for seed in range(games):
        game = made[seed % len(made)]
        yield game, played(game, seed)


def prefix(info: InformationSet, end: int) -> InformationSet:
    """`info` cut to its first `end` observations."""
    return InformationSet(info.game, info.options, info.seat, info.observations[:end])


def infos(state: AlibiState) -> list[InformationSet]:
    return [state.information_set(seat) for seat in state.game.seats]


# --- the round trip --------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_observation_of_every_seat_types_and_reads_back(players: int) -> None:
    kinds: Counter[str] = Counter()
    subjects: Counter[str] = Counter()
    for game, state in random_games(players, GAMES_PER_PLAYER_COUNT):
        for info in infos(state):
            for i, obs in enumerate(info.observations):
                text = game.observation_text(obs)
                assert game.parse_entry(text, info.seat, info.observations[:i]) == (obs,), text
                kinds[obs.kind] += 1
                if obs.kind == "answer":
                    subjects[str(obs["subject"]).partition(":")[0]] += 1
    assert set(kinds) == {
        "seating",
        "deal",
        "hands",
        "answer",
        "lay",
        "accuse",
        "choose_pass",
        "pass",
        "choose_solution",
        "box",
        "solution",
        "end",
    }, kinds
    assert set(subjects) == {"type", "group", "detail", "cards"}, subjects


def passing_steps(info: InformationSet) -> Iterator[tuple[int, int]]:
    """(first, end) of each passing step: its choices and passes, then the hand sizes."""
    obs = info.observations
    first = None
    for i, o in enumerate(obs):
        if o.kind in ("choose_pass", "pass") and first is None:
            first = i
        elif o.kind == "hands" and first is not None:
            yield first, i + 1
            first = None


def step_line(info: InformationSet, first: int, end: int) -> str:
    """The one line a person types for a passing step: what they gave and what they got."""
    me = info.seat
    gave = got = ()
    for obs in info.observations[first:end]:
        if obs.kind == "pass" and obs["giver"] == me:
            gave = obs["cards"]
        if obs.kind == "pass" and obs["receiver"] == me:
            got = obs["cards"]
    return f"pass {' '.join(gave)}" + (f" got {' '.join(got)}" if got else "")


@pytest.mark.parametrize("players", [3, 6])
def test_a_whole_passing_step_is_one_line_of_what_you_gave_and_got(players: int) -> None:
    steps = 0
    for game, state in random_games(players, 40):
        for info in infos(state):
            for first, end in passing_steps(info):
                line = step_line(info, first, end)
                read = game.parse_entry(line, info.seat, info.observations[:first])
                assert read == info.observations[first:end], line
                steps += 1
    assert steps > 100


def shortest(name: str, vocabulary: Vocabulary) -> str:
    """The shortest "same prefix length per hyphen part" abbreviation that reads back."""
    for length in range(1, len(name) + 1):
        short = "-".join(part[:length] for part in name.split("-"))
        try:
            if vocabulary.read(short) == name:
                return short
        except InvalidObservation:
            continue
    raise AssertionError(name)


def abbreviated(text: str, cards: Vocabulary) -> str:
    """`text` with every full card name shortened, as a person would type it."""
    return " ".join(shortest(word, cards) if word in cards.names else word for word in text.split())


def test_a_whole_game_typed_with_abbreviations_and_me_reads_the_same() -> None:
    game = alibi(players=4, round_limit=3)
    cards = Vocabulary("card", game.deck.ids)
    assert shortest("alleyway-doorway", cards) == "al-do"
    for seed in range(5):
        info = played(game, seed).information_set(0)
        for i, obs in enumerate(info.observations):
            text = abbreviated(game.observation_text(obs), cards)
            text = text.replace("0 ", "me ", 1) if text.startswith("0 ") else text
            assert game.parse_entry(text, 0, info.observations[:i]) == (obs,), text


def test_the_deal_is_one_line_of_short_names_in_any_order() -> None:
    game = alibi(players=4, dealer=1)
    info = game.new_game(3).information_set(2)
    cards = Vocabulary("card", game.deck.ids)
    dealt = list(info.observations[1]["cards"])
    assert len(dealt) == 19
    random.Random(0).shuffle(dealt)
    line = "deal " + ", ".join(shortest(card, cards).upper() for card in dealt)
    assert game.parse_entry(line, 2, info.observations[:1]) == (info.observations[1],)


def test_left_out_fields_are_derived_from_the_record() -> None:
    game = alibi(players=4, dealer=1)
    before = game.new_game(3).information_set(0).observations[:3]
    assert before[0] == Observation.of("seating", players=4, dealer=1, start=0)
    answer = game.parse_observation("0 asks 3 seen deck: 0", 0, before)
    assert answer == Observation.of(
        "answer",
        asker=0,
        target=3,
        scope="seen",
        subject="detail:deck",
        cards=["boat-deck"],
        answer=0,
        round=1,
        turn=1,
    )
    typed = {
        "1 asks 2 hand poi = 2": ("group:poison", 3),
        "1 asks 2 hand weapon 2": ("type:weapon", 18),
        "1 asks 2 hand noon: 2": ("detail:noon", 8),
        "1 asks 2 hand po-ar car-tr: 1": ("cards:car-trunk,poison-arsenic", 2),  # 0 holds car-trunk
        "1 asks 2 hand group:poison: 2": ("group:poison", 3),
        "1 asks 2 h cards: po-cy: 1": ("cards:poison-cyanide", 1),
    }
    after = (*before, answer)
    for text, (subject, covered) in typed.items():
        obs = game.parse_observation(text, 0, after)
        assert (obs["subject"], len(obs["cards"]), obs["turn"]) == (subject, covered, 2), text
    assert game.parse_observation("dealer 1 start 0", 0, ()) == before[0]
    assert game.parse_observation("hands", 0, before[:2]) == before[2]


# --- incomplete records ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_prefix_validates_or_waits_and_whole_records_validate(players: int) -> None:
    waits: Counter[str] = Counter()
    for _, state in random_games(players, 12):
        for info in infos(state):
            validate(info)
            for end in range(len(info.observations)):
                try:
                    validate(prefix(info, end))
                except IncompleteInformationSet as waiting:
                    waits[waiting.waiting_for.split(" of round")[0]] += 1
    assert set(waits) == {
        "the seating",
        "the seat's deal",
        "the hand sizes after the deal",
        "the hand sizes after the passes",
    }, waits


def test_a_pass_followed_by_anything_but_passes_and_sizes_is_not_merely_incomplete() -> None:
    game = alibi(players=4, round_limit=2)
    info = played(game, 1).information_set(0)
    obs = info.observations
    last_pass = max(i for i, o in enumerate(obs) if o.kind == "pass" and o["round"] == 1)
    cut = obs[: last_pass + 1] + obs[last_pass + 2 : last_pass + 3]  # sizes left out
    assert cut[-1].kind == "answer"
    with pytest.raises(engines.InvalidInformationSet, match="followed by the hand sizes") as error:
        validate(InformationSet(info.game, info.options, info.seat, cut))
    assert not isinstance(error.value, IncompleteInformationSet)


# --- bad lines -------------------------------------------------------------------------------
GAME = alibi(players=4, dealer=1, round_limit=3)
STATE = played(GAME, 7)
RECORD = STATE.information_set(0).observations


def at(kind: str, nth: int = 0) -> tuple[Observation, ...]:
    """The record of seat 0 up to (not including) its nth observation of `kind`."""
    index = [i for i, obs in enumerate(RECORD) if obs.kind == kind][nth]
    return RECORD[:index]


DEALT = RECORD[1]["cards"]


def someone_elses_card() -> str:
    return next(card for card in GAME.deck.ids if card not in RECORD[1]["cards"])


BAD_LINES = [
    # (before, line, part of the message)
    ((), "hello", "not a kind of entry"),
    ((), "delaer 1", "did you mean dealer"),
    ((), "dealer 7", "from 0 to 3"),
    ((), "dealer 2", "player 1 as the dealer"),
    ((), "dealer 1 start 2", "player 0 starts"),
    ((), "deal po-ar", "comes right after the seating"),
    (RECORD[:1], "deal 2 po-ar", "only your own deal"),
    (RECORD[:1], "deal " + " ".join(DEALT[:-1]), f"get {len(DEALT)} cards, not {len(DEALT) - 1}"),
    (RECORD[:1], "deal " + " ".join((*DEALT[:-1], "zebra")), "not a card"),
    (RECORD[:1], "deal " + " ".join((*DEALT[:-2], "bl-kn", "bl-kn")), "twice"),
    (RECORD[:1], "deal bl", "could be any card"),
    (RECORD[:2], "hands 18 18 19", "hold 18 18 19 19"),
    (RECORD[:2], "hands 18 18 18 20", "hold 18 18 19 19"),
    (RECORD[:3], "1 asks 2 seen deck: 0", "player 0's turn"),
    (RECORD[:3], "0 asks 0 seen deck: 0", "cannot ask themselves"),
    (RECORD[:3], "0 asks 9 seen deck: 0", "from 0 to 3"),
    (RECORD[:3], "0 asks 2 seen poison: 4", "from 0 to 3"),
    (RECORD[:3], "0 asks 2 seen deck", "expected 'A asks T hand|seen SUBJECT: N'"),
    (RECORD[:3], "0 asks 2 held deck: 0", "not a scope"),
    (RECORD[:3], "0 asks 2 seen no: 0", "could be any of: nora-quill, noon"),
    (RECORD[:3], "0 asks 2 seen posion: 0", "did you mean poison"),
    (RECORD[:3], "0 asks 2 seen poison noon: 0", "could be any card"),
    (RECORD[:3], "0 flies", "not a verb"),
    (RECORD[:3], "0 chooses bl-kn", "after every player has had a turn"),
    (RECORD[:3], "box sl-sl-mo st-on po-ar ra-in", "opened once, when the game ends"),
    (RECORD[:3], "end", "ends after the box"),
    (RECORD[:3], "0 accuses sl-sl-mo st-on po-ar po-cy", "one of each type"),
    (RECORD[:3], "0 lays poison", "do not hold"),
    (at("choose_pass"), "1 chooses " + someone_elses_card(), "do not see which cards player 1"),
    (at("choose_pass"), "0 chooses " + someone_elses_card(), "do not hold"),
    (at("choose_pass"), "0 passes to 1", "has not chosen yet"),
    (at("pass"), "1 passes to 2: " + someone_elses_card(), "do not see the cards player 1"),
    (at("pass"), "1 passes to 3", "passes to the left, to player 2"),
    (at("pass"), "hands", "player 0's is missing"),
    (at("hands", 1)[:-2] + at("hands", 1)[-1:], "hands 18 18 19 19", "player 2's is missing"),
    (at("pass"), "1 asks 2 seen deck: 0", "the passes and the hand sizes come next"),
    (at("pass"), "pass", "before any choice or pass of it"),
    (at("choose_pass"), f"pass {someone_elses_card()} got po-ar", "do not hold"),
    (at("choose_pass"), f"pass {' '.join(DEALT[:2])} got po-ar", "you pass 1 cards, not 2"),
    (at("choose_pass"), "pass " + RECORD[1]["cards"][0], "player 3 passed you after 'got'"),
]


@pytest.mark.parametrize(("before", "line", "message"), BAD_LINES)
def test_a_bad_line_is_refused_with_one_clear_line(
    before: tuple[Observation, ...], line: str, message: str
) -> None:
    with pytest.raises(InvalidObservation, match=message) as error:
        GAME.parse_entry(line, 0, before)
    assert "\n" not in str(error.value)


def test_rules_that_depend_on_options_are_kept() -> None:
    forbidden = alibi(players=4, dealer=1, single_card_questions="forbidden")
    before = forbidden.new_game(0).information_set(0).observations[:3]
    with pytest.raises(InvalidObservation, match="single-card questions"):
        forbidden.parse_entry("0 asks 2 seen deck: 0", 0, before)
    with pytest.raises(InvalidObservation, match="single-card questions"):
        forbidden.parse_entry("0 asks 2 seen po-ar: 0", 0, before)
    assert forbidden.parse_observation("0 asks 2 seen po-ar car-tr: 0", 0, before)["turn"] == 1


def test_mangled_lines_are_refused_or_read_as_what_the_solver_accepts() -> None:
    rng = random.Random(0)
    accepted = 0
    words = [*GAME.notation_words(), "0", "1", "2", "3", "7", ":", "to", "x"]
    for seat, info in enumerate(infos(STATE)):
        for i, obs in enumerate(info.observations):
            line = GAME.observation_text(obs).split()
            for _ in range(3):
                mangled = list(line)
                where = rng.randrange(len(mangled))
                change = rng.choice(("drop", "swap", "add"))
                if change == "drop":
                    del mangled[where]
                elif change == "swap":
                    mangled[where] = rng.choice(words)
                else:
                    mangled.insert(where, rng.choice(words))
                try:
                    read = GAME.parse_entry(" ".join(mangled) or "x", seat, info.observations[:i])
                except InvalidObservation:
                    continue
                accepted += 1
                with contextlib.suppress(IncompleteInformationSet):
                    validate(prefix(info, i).extended(*read))
    assert accepted > 0


def test_help_and_words() -> None:
    help_rows = GAME.notation_help()
    forms = " ".join(form for form, _ in help_rows)
    for verb in ("dealer", "deal", "hands", "asks", "lays", "chooses", "passes", "accuses"):
        assert verb in forms
    cards = Vocabulary("card", GAME.deck.ids)
    for form, _ in help_rows:
        for word in form.split():
            if "-" in word:
                assert cards.read(word.rstrip(":"))  # each example card is unique
    words = GAME.notation_words()
    assert {"asks", "seen", "hand", "alleyway-doorway", "poison", "noon", "weapon"} <= set(words)
    assert len(words) == len(set(words))


# --- the notepad -----------------------------------------------------------------------------
def test_notepad_crosses_off_what_the_heuristic_does_and_only_impossible_cards() -> None:
    game = alibi(players=3, deck="small", round_limit=3)
    for seed in range(4):
        state = played(game, seed)
        info = state.information_set(seed % 3)
        cut = prefix(info, len(info.observations) - 2)
        hints = notepad(cut)
        crossed = {h.fact.args[0] for h in hints if h.fact is not None and h.probability == 0}
        assert crossed == crossed_off(cut)
        assert all(h.kind == "notepad" and h.because and h.fact for h in hints)
        d = solver.deduce(cut)
        assert {h.fact for h in hints} <= set(d.facts)
        for hint in hints:
            assert hint.fact is not None
            assert d.probability(hint.fact) == hint.probability, hint.text
        dealt = next(
            h for h in hints if h.fact and h.fact.args[0] == cut.observations[1]["cards"][0]
        )
        assert game.describe(cut.observations[1]) in dealt.because


def test_notepad_names_the_box_card_when_the_rest_of_its_type_is_crossed_off() -> None:
    game = alibi(players=3, deck="small", round_limit=None)
    for seed in range(40):
        state = played(game, seed)
        for info in infos(state):
            hints = notepad(info)
            solved = [h for h in hints if h.probability == 1.0]
            if solved:
                assert hints[: len(solved)] == solved, "the box cards come first"
                for hint in solved:
                    assert hint.fact is not None
                    assert hint.fact.args[0] in state.box()
                    kind = game.deck.by_id[str(hint.fact.args[0])].type
                    assert len(hint.because) >= 1 and kind in hint.text
                return
    raise AssertionError("no random game let the notepad name a box card")


def test_notepad_of_an_empty_record_is_empty() -> None:
    assert notepad(InformationSet("alibi", GAME.option_items(), 0, ())) == []
