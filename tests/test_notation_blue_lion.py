"""Blue Lion's typed notation (engines/blue_lion/notation.py), its incomplete records and its
notepad.

The central check is the round trip: every observation of every seat's information set of
random games, printed by `observation_text`, reads back with `parse_entry` (given the
observations before it) as exactly that observation. Then the shorter lines a person types
(the whole toss at once, a move with the face it turned up, `score` and `end` left to the
record) rebuild whole records; every prefix of a record validates or waits for what the game
shows next; bad lines are refused by name; the notepad only says what the solver agrees with.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import engines
import opponents
import solver
from engines import (
    ConfigError,
    IncompleteInformationSet,
    InformationSet,
    InvalidObservation,
    Observation,
)
from engines.blue_lion import BlueLion
from solver.validation import validate

OPTIONS: list[dict[str, object]] = [
    {"first_player": "lupin"},
    {"first_player": "fujiko"},
    {"passing": "any-time"},
    {"phase1_scoring": False},
    {"swap_zone": "centre"},
    {"target": 3},
    {"turn_limit": 12},
    {"turn_limit": None, "target": 4},
]
"""Every non-default value of every option (each on its own), plus a short game."""


def make(**options: object) -> BlueLion:
    game = engines.make("blue-lion", **options)
    assert isinstance(game, BlueLion)
    return game


def records(game: BlueLion, games: int, first_seed: int = 0) -> Iterator[InformationSet]:
    """Both seats' information sets of `games` random games."""
    for seed in range(first_seed, first_seed + games):
        state = game.random_game(seed)
        for seat in game.seats:
            yield state.information_set(seat)


def prefix(info: InformationSet, length: int) -> InformationSet:
    return InformationSet(info.game, info.options, info.seat, info.observations[:length])


def typed(game: BlueLion, lines: list[str], seat: str = "lupin") -> tuple[Observation, ...]:
    """The observations `lines` record, each read after those before it (as a session does)."""
    found: tuple[Observation, ...] = ()
    for line in lines:
        found += game.parse_entry(line, seat, found)
    return found


# --- the round trip -----------------------------------------------------------------------------
def round_trip(game: BlueLion, info: InformationSet) -> int:
    observations = info.observations
    for i, obs in enumerate(observations):
        text = game.observation_text(obs)
        assert game.parse_entry(text, info.seat, observations[:i]) == (obs,), (i, text)
    return len(observations)


def test_every_observation_of_100_random_games_per_seat_reads_back_from_its_text() -> None:
    game = make()
    counted = sum(round_trip(game, info) for info in records(game, 100))
    assert counted > 10_000  # 200 records of about a hundred observations


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_the_round_trip_holds_for_every_option(options: dict[str, object]) -> None:
    game = make(**options)
    kinds = set()
    for info in records(game, 12, first_seed=1000):
        round_trip(game, info)
        kinds |= {obs.kind for obs in info.observations}
    assert kinds >= {"toss", "first", "act", "reveal", "end"}


def test_each_single_toss_reads_back_alone() -> None:
    game = make()
    info = next(records(game, 1))
    for i in range(6):
        obs = info.observations[i]
        assert game.observation_text(obs) == f"toss {obs['tile']} {obs['face']}"
        assert (
            game.parse_observation(
                f"toss {obs['tile']} {obs['face']}", "fujiko", info.observations[:i]
            )
            == obs
        )


def short_lines(info: InformationSet) -> list[str]:
    """The record as a hurried person types it: the toss on one line, each move with the face
    it turned up, scores and the end left to the record, reveals without their tile."""
    observations = info.observations
    lines = ["toss " + "".join(obs["face"] for obs in observations[:6])]
    i = 6
    while i < len(observations):
        obs = observations[i]
        after = observations[i + 1] if i + 1 < len(observations) else None
        if obs.kind == "act" and after is not None and after.kind == "reveal" and i % 2:
            lines.append(f"{obs['action']} {after['face']}")
            i += 1
        elif obs.kind == "act" and i % 3 == 0:
            lines.append(f"{obs['seat']}: {obs['action']}")
        elif obs.kind == "reveal":
            lines.append(f"reveal {obs['face']}")
        elif obs.kind in ("score", "end"):
            lines.append(obs.kind)
        else:
            lines.append(info.make_game().observation_text(obs))
        i += 1
    return lines


def test_short_lines_rebuild_whole_records() -> None:
    for options in [{}, *OPTIONS]:
        game = make(**options)
        for info in records(game, 4, first_seed=50):
            assert typed(game, short_lines(info), str(info.seat)) == info.observations


def assert_refused(
    game: BlueLion, seat: str, record: tuple[Observation, ...], refused: list[tuple[str, str]]
) -> None:
    """Each line of `refused`, typed by `seat` after `record`, is refused with a message that
    says its problem."""
    for line, problem in refused:
        with pytest.raises(InvalidObservation, match=problem):
            game.parse_entry(line, seat, record)


def test_the_toss_can_be_typed_in_parts_tile_by_tile_and_by_name() -> None:
    game = make()
    whole = typed(game, ["toss LFZLBZ"])
    assert typed(game, ["toss t2 F t1:L", "toss t3 zenigata", "toss L blue-lion Z"]) == whole
    assert typed(game, ["toss l f z l b z"]) == whole
    assert [obs["face"] for obs in whole] == list("LFZLBZ")


def test_scores_and_the_end_are_derived_and_typed_parts_are_checked() -> None:
    game = make(target=2)
    # L-B-L around t2: Lupin +2 reaches the target of 2 and wins.
    lines = ["toss LBLFZZ", "first fujiko", "lay t1", "lay t2 right", "lay t3 right"]
    before = typed(game, lines)
    score = Observation.of("score", faces="LBL", tiles=("t1", "t2", "t3"), seat="lupin", points=2)
    for line in ("score", "score LBL", "score L-B-L t3 t2 t1", "score t2", "score lupin 2"):
        assert game.parse_entry(line, "lupin", before) == (score,), line
    refused = [
        ("score FBF", "the combination: the record shows L-B-L"),
        ("score t1", "centre t2"),
        ("score fujiko", "who scores: the record shows lupin"),
        ("score 3", "the points: the record shows 2"),
        ("score FBB", "not a combination"),
        ("end", "first type what the game shows: L-B-L"),
        ("lay t4 left", "first type what the game shows"),
    ]
    assert_refused(game, "lupin", before, refused)
    before += (score,)
    end = Observation.of("end", winners=("lupin",), reason="target")
    for line in ("end", "end lupin", "end lupin target", "end Lupin Target"):
        assert game.parse_entry(line, "lupin", before) == (end,), line
    refused = [
        ("end fujiko", "who won: the record shows lupin"),
        ("end turn limit", "why the game ended"),
    ]
    assert_refused(game, "lupin", before, refused)
    assert_refused(game, "lupin", (*before, end), [("move t1", "the game is over")])


def test_a_reveal_belongs_to_the_tile_just_turned() -> None:
    game = make()
    before = typed(game, ["toss LFZLBZ", "first lupin", "lay t2 flip"])
    reveal = Observation.of("reveal", tile="t2", face="B")
    assert game.parse_entry("reveal B", "fujiko", before) == (reveal,)
    assert game.parse_entry("reveal t2 blue-lion", "fujiko", before) == (reveal,)
    refused = [
        ("reveal t3 B", "t2 was just turned over"),
        ("reveal F", "turned, it shows its other face"),
        ("score", "reveal t2 FACE"),
    ]
    assert_refused(game, "fujiko", before, refused)
    assert_refused(
        game, "fujiko", (*before, reveal), [("reveal B", "no tile was just turned over")]
    )


def test_a_tile_that_showed_both_faces_can_only_show_the_other_one() -> None:
    game = make()
    lays = ["lay t2 flip B", "lay t1 right", "lay t3 right", "lay t4 right", "lay t5 right"]
    before = typed(game, ["toss LFZLBZ", "first lupin", *lays, "lay t6 right", "flip t2"])
    assert game.parse_entry("reveal F", "lupin", before)[0]["face"] == "F"
    with pytest.raises(InvalidObservation, match="has shown B and F, so turned over it shows F"):
        game.parse_entry("reveal Z", "lupin", before)


# --- refusing bad lines -------------------------------------------------------------------------
BAD_LINES: list[tuple[list[str], str, str]] = [
    # (lines before, the bad line, what the message must say)
    ([], "toss LFZFB", "6 faces, not 5"),
    ([], "toss LFZLBZL", "6 faces, not 7"),
    ([], "toss t1 L t2", "names a tile and its face each time"),
    ([], "toss t1 L t1 F", "tile t1 is named twice"),
    ([], "toss t2 F", "next come t1, not t2"),
    ([], "toss t1 Q", "'Q' is not a face; the faces are L, F, Z, B"),
    ([], "toss t1 Fujko", "did you mean Fujiko"),
    ([], "toss tt1 L", "did you mean t1"),
    ([], "toss t9 L", "'t9' is not a tile; the tiles are t1, t2"),
    ([], "toss LLLFFF", "no toss shows"),
    ([], "toss LLLLZB", "each icon is on three tiles"),
    ([], "first lupin", "the toss of t1 is missing"),
    ([], "lay t1", "the toss of t1 comes first"),
    ([], "tosss LFZLBZ", "did you mean toss"),
    ([], "t1 L", "'t1' does not start an entry"),
    ([], "f lupin", "could be any keyword of: first, flip, fujiko"),
    (["toss LFZLBZ"], "toss t1 L", "the toss is over"),
    (["toss LFZLBZ"], "first zenigata", "'zenigata' is not a seat; the seats are lupin, fujiko"),
    (["toss LFZLBZ"], "first lupni", "did you mean lupin"),
    (["toss LFZLBZ"], "first lupin fujiko", "first names who starts"),
    (["toss LFZLBZ"], "first", "first names who starts"),
    (["toss LFZLBZ"], "reveal t1 F", "who starts comes first"),
    (["toss LFZLBZ", "first lupin"], "first fujiko", "lupin started already"),
    (["toss LFZLBZ", "first lupin"], "fujiko: lay t1", "it is lupin's move, not fujiko's"),
    (["toss LFZLBZ", "first lupin"], "lupn: lay t1", "did you mean lupin"),
    (["toss LFZLBZ", "first lupin"], "zenigata: lay t1", "'zenigata' does not start an entry"),
    (["toss LFZLBZ", "first lupin"], "lupin", "after a player comes their move"),
    (["toss LFZLBZ", "first lupin"], "lay t1 left", "not legal now"),
    (["toss LFZLBZ", "first lupin"], "move t1", "not legal in phase 1"),
    (["toss LFZLBZ", "first lupin"], "lay t7", "cannot read 'lay t7'"),
    (["toss LFZLBZ", "first lupin"], "lay t1 flip L", "turned, it shows its other face"),
    (["toss LFZLBZ", "first lupin"], "lay t1 F", "lay t1 turns no tile over"),
    (["toss LFZLBZ", "first lupin"], "score", "nothing scored"),
    (["toss LFZLBZ", "first lupin"], "end", "the game is not over"),
    (["toss LFZLBZ", "first lupin", "pass"], "pass", "only one pass"),
    (["toss LFZLBZ", "first lupin", "lay t1 flip"], "reveal t1 Z L", "reveal t1 FACE"),
    (["toss LFZLBZ", "first lupin", "lay t1 flip"], "lay t2 left", "reveal t1 FACE"),
]


@pytest.mark.parametrize(("lines", "bad", "problem"), BAD_LINES, ids=[b for _, b, _ in BAD_LINES])
def test_bad_lines_are_refused_saying_why(lines: list[str], bad: str, problem: str) -> None:
    game = make()
    before = typed(game, lines)
    with pytest.raises(InvalidObservation, match=problem):
        game.parse_entry(bad, "lupin", before)


def test_the_first_player_option_is_respected() -> None:
    game = make(first_player="fujiko")
    before = typed(game, ["toss LFZLBZ"])
    assert game.parse_entry("first", "lupin", before) == (Observation.of("first", seat="fujiko"),)
    with pytest.raises(InvalidObservation, match="the option first_player is 'fujiko'"):
        game.parse_entry("first lupin", "lupin", before)


def test_a_seat_that_is_not_one_and_text_that_is_not_text_are_refused() -> None:
    game = make()
    with pytest.raises(ConfigError, match="no seat 'zenigata'"):
        game.parse_entry("toss LFZLBZ", "zenigata", ())
    with pytest.raises(InvalidObservation, match="an entry is text"):
        game.parse_entry(42, "lupin", ())
    with pytest.raises(InvalidObservation, match="empty"):
        game.parse_entry("   ", "lupin", ())


def test_a_record_that_does_not_follow_the_rules_is_named() -> None:
    game = make()
    before = typed(game, ["toss LFZLBZ", "first lupin"])
    wrong = (*before, Observation.of("act", seat="fujiko", action="lay t1"))
    with pytest.raises(InvalidObservation, match="observation 7 before this entry"):
        game.parse_entry("lay t2 left", "lupin", wrong)


@pytest.mark.parametrize(
    "odd",
    [
        Observation.of("act", seat=None, action=None),
        Observation.of("act", seat="lupin", action=3),
        Observation.of("score", faces=1),
        Observation.of("end", winners="lupin", reason="target"),
        Observation.of("deal", cards=("knife",)),
    ],
    ids=str,
)
def test_a_record_holding_what_blue_lion_never_shows_is_named(odd: Observation) -> None:
    game = make()
    before = typed(game, ["toss LFZLBZ", "first lupin"])
    with pytest.raises(InvalidObservation, match="observation 7 before this entry"):
        game.parse_entry("pass", "lupin", (*before, odd))


def test_observations_of_no_blue_lion_kind_have_no_text() -> None:
    game = make()
    with pytest.raises(InvalidObservation, match="no typed form for 'deal'"):
        game.observation_text(Observation.of("deal", cards=("knife",)))
    with pytest.raises(InvalidObservation, match="not a blue-lion observation"):
        game.observation_text(Observation.of("toss", tile="t9", face="L"))


def test_garbage_lines_raise_only_invalid_observation() -> None:
    """Random lines of notation words and junk, in random places of real records."""
    game = make()
    vocabulary = [*game.notation_words(), "x", "7", "-", "t0", "FBF", "lbl", ":", "0", "99"]
    rng = random.Random(5)
    info = next(records(game, 1, first_seed=77))
    refused = 0
    for _ in range(1500):
        line = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(1, 5)))
        before = info.observations[: rng.randint(0, len(info.observations))]
        try:
            game.parse_entry(line, "fujiko", before)
        except InvalidObservation:
            refused += 1
    assert refused > 1000


def test_help_shows_an_example_of_every_kind_and_the_words_complete() -> None:
    game = make()
    forms = [form for form, _ in game.notation_help()]
    assert [form.split()[0] for form in forms] == ["toss", "first", "lay", "reveal", "score", "end"]
    assert all(what for _, what in game.notation_help())
    words = game.notation_words()
    assert {
        "toss",
        "first",
        "reveal",
        "score",
        "end",
        "lupin",
        "fujiko",
        "t1",
        "t6",
        "left",
    } <= set(words)
    assert {"lay", "pass", "move", "swap", "flip", "return", "Blue-Lion", "B"} <= set(words)


# --- incomplete records -------------------------------------------------------------------------
def check_prefixes(info: InformationSet) -> None:
    """Each prefix validates (and a move comes next) or waits for what the game shows next."""
    validate(info)
    for length in range(len(info.observations)):
        head, after = prefix(info, length), info.observations[length]
        try:
            validate(head)
        except IncompleteInformationSet as waiting:
            assert after.kind in ("toss", "first", "reveal", "score", "end"), (length, after)
            assert waiting.waiting_for
            if after.kind == "reveal":
                assert waiting.waiting_for == f"the face {after['tile']} showed when turned over"
        else:
            assert after.kind == "act", (length, after)


def test_every_prefix_validates_or_waits_for_what_the_game_shows_next() -> None:
    game = make()
    for seed in range(300, 306):
        check_prefixes(game.random_game(seed).information_set(game.seats[seed % 2]))
    for options in OPTIONS[3:7]:
        check_prefixes(make(**options).random_game(400).information_set("fujiko"))


def test_what_an_incomplete_record_waits_for() -> None:
    game = make(target=2)
    lines = ["toss LBLFZZ", "first fujiko", "lay t1", "lay t2 right", "lay t3 right", "score"]
    record = typed(game, lines)
    info = InformationSet("blue-lion", game.option_items(), "lupin", record)
    expected = [
        (0, "the toss of t1"),
        (3, "the toss of t4"),
        (6, "who starts"),
        (10, "the score of L-B-L (t1 t2 t3)"),
        (11, "the end of the game (end lupin)"),
    ]
    for length, waiting_for in expected:
        with pytest.raises(IncompleteInformationSet) as waiting:
            validate(prefix(info, length))
        assert waiting.value.waiting_for == waiting_for
    with pytest.raises(engines.InvalidInformationSet) as wrong:
        validate(prefix(info, 10).extended(Observation.of("act", seat="fujiko", action="pass")))
    assert not isinstance(wrong.value, IncompleteInformationSet)


# --- the notepad --------------------------------------------------------------------------------
def notepad_of(game: BlueLion, lines: list[str]) -> list[solver.Hint]:
    info = InformationSet("blue-lion", game.option_items(), "lupin", typed(game, lines))
    return opponents.notepad(info)


def test_the_notepad_crosses_off_an_icon_seen_on_three_tiles_and_a_known_pair() -> None:
    game = make()
    start = notepad_of(game, ["toss LLLFZB", "first lupin"])
    assert [hint.text for hint in start] == [
        "t4's back is not Lupin: Lupin is on three tiles already (t1, t2, t3)",
        "t5's back is not Lupin: Lupin is on three tiles already (t1, t2, t3)",
        "t6's back is not Lupin: Lupin is on three tiles already (t1, t2, t3)",
    ]
    assert start[0].because == (
        "t1 landed showing Lupin",
        "t2 landed showing Lupin",
        "t3 landed showing Lupin",
    )
    later = notepad_of(game, ["toss LLLFZB", "first lupin", "lay t4 flip Z"])
    texts = [hint.text for hint in later]
    assert texts[:2] == [
        "t4's back is Fujiko: both its faces have been seen",
        "t5's back is the Blue Lion: the other icons are crossed off",
    ]
    assert "t5's back is not Fujiko: t4 carries Zenigata-Fujiko (both its faces seen)" in texts
    assert [hint.probability for hint in later] == [1.0, 1.0] + [0.0] * (len(later) - 2)
    assert all(hint.kind == "notepad" and hint.fact is not None for hint in later)


def test_the_notepad_says_only_what_the_solver_agrees_with() -> None:
    game = make()
    said = 0
    for info in records(game, 3, first_seed=900):
        for length in range(7, len(info.observations), 5):
            head = prefix(info, length)
            try:
                deduction = solver.deduce(head)
            except IncompleteInformationSet:
                continue
            for hint in opponents.notepad(head):
                assert hint.fact is not None
                assert deduction.probability(hint.fact) == hint.probability, hint.text
                assert hint.because
                said += 1
    assert said > 100


def test_the_notepad_of_an_empty_record_is_empty() -> None:
    assert opponents.notepad(InformationSet("blue-lion", make().option_items(), "lupin", ())) == []
