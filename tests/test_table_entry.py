"""Typing at the table (issue 43): names as printed on the cards, "did you mean" on every
refused name, seats as typed, lines the seat's own hand contradicts refused on the spot, a
conflict's entries ranked by how likely each is the typo, and terminal text that keeps its
brackets, wraps at spaces and explains itself.

Each test is named after the finding of issue 43 it guards.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import engines
import solver
from engines import ConfigError, InvalidObservation, Observation
from engines.notation import AmbiguousName, Vocabulary
from sleuth import views
from sleuth.assist import Session, setup
from sleuth.assist.session import Conflict, rank_repairs
from sleuth.assist.terminal import Notebook
from sleuth.assist.transcribe import typed_lines
from sleuth.cli import main
from sleuth.play import _did_you_mean

ALIBI: Any = engines.make("alibi", players=4, dealer=1)  # an Alibi: its deck is read


def _alibi_record(seed: int = 3) -> tuple[Observation, ...]:
    """Seat 0's record up to its first question: the seating, its deal, the hand sizes."""
    return ALIBI.new_game(seed).information_set(0).observations[:3]


# --- 1. names as printed ------------------------------------------------------------------
@pytest.mark.parametrize(
    "typed", ["blunt-bottle", "bl-ob-bo", "blunt object bottle", "Blunt Object: Bottle", "BL-BO"]
)
def test_finding_names_as_printed_are_accepted(typed: str) -> None:
    before = _alibi_record()
    mine = set(before[1]["cards"])
    target = 2 if "blunt-bottle" not in mine else 3
    expected = ALIBI.parse_entry(f"0 asks {target} seen blunt-bottle: 0", 0, before)
    assert ALIBI.parse_entry(f"0 asks {target} seen {typed}: 0", 0, before) == expected


def test_finding_names_of_several_words_are_read_in_lists_and_subjects() -> None:
    before = _alibi_record()
    cards = Vocabulary("card", ALIBI.deck.ids, {c.id: c.name for c in ALIBI.deck.cards})
    typed = "blunt object bottle fall window car: back seat"
    assert cards.read_all(typed.split(" ")) == (
        "blunt-bottle",
        "fall-window",
        "car-back-seat",
    )
    printed = " ".join(ALIBI.deck.by_id[card].name for card in before[1]["cards"])
    deal = ALIBI.parse_entry(f"deal {printed}", 0, before[:1])  # the deal as printed
    assert deal == before[1:2]
    ask = ALIBI.parse_entry("0 asks 2 hand blunt object: 1", 0, before)[0]
    assert ask["subject"] == "group:blunt"
    ask = ALIBI.parse_entry("0 asks 2 seen back stage: 0", 0, before)[0]
    assert ask["subject"] == "detail:back-stage"


def test_finding_ambiguous_abbreviations_are_refused_naming_the_candidates() -> None:
    before = _alibi_record()
    with pytest.raises(AmbiguousName, match=r"blunt-hammer.*blunt-bottle.*blunt-statuette"):
        ALIBI.parse_entry("0 asks 2 seen slim-slant-noon blunt: 0", 0, before)


@pytest.mark.parametrize(
    "name, options, seat, before_lines, line, offered",
    [
        ("alibi", {"players": 4, "dealer": 1}, 0, 3, "0 asks 2 seen blunt object bottel: 0",
         "did you mean blunt-bottle"),
        ("alibi", {"players": 4, "dealer": 1}, 0, 3, "0 asks 2 seen bl-xx: 0", "did you mean"),
        ("alibi", {"players": 4, "dealer": 1}, 0, 3, "0 asks 2 seen zzzz: 0", "did you mean"),
        ("noir", {}, "killer", 1, "identity Rsoa", "did you mean Rosa"),
        ("serial-killer", {"players": 4}, 0, 0, "setup 4 bleu AGE@6 SEX@4 VIC@7 WPN@5 MO@1 "
         "SIG@2 ORG@3", "did you mean blue"),
    ],
)  # fmt: skip
def test_finding_every_refusal_of_a_name_offers_the_closest_ones(
    name: str, options: dict, seat: Any, before_lines: int, line: str, offered: str
) -> None:
    game = engines.make(name, **options)
    before = game.new_game(3).information_set(seat).observations[:before_lines]
    with pytest.raises(InvalidObservation, match=offered):
        game.parse_entry(line, seat, before)


def test_finding_serial_killer_cards_are_read_by_their_printed_trait() -> None:
    from engines.serial_killer.notation import Notation

    game: Any = engines.make("serial-killer", players=4)
    cards = Notation(game).cards
    assert cards.read("bare-hands") == cards.read("ba-ha") == cards.read("WPN.5") == "WPN.5"
    assert cards.read("20-29") == "AGE.1"
    with pytest.raises(InvalidObservation, match="did you mean"):
        cards.read("2")  # a number is never shortened


def test_finding_kinds_of_entry_are_named_in_good_english() -> None:
    with pytest.raises(InvalidObservation, match="the kinds of entry are dealer, deal"):
        ALIBI.parse_entry("qqqq 1", 0, ())
    assert Vocabulary("reply", ["yes"]).plural == "replies"


# --- 2. seats as typed --------------------------------------------------------------------
def test_finding_seats_are_accepted_as_typed(tmp_path: Path) -> None:
    assert Session.new("alibi", seat="0", players=4, dir=tmp_path).seat == 0
    assert Session.new("noir", seat=" Inspector ", dir=tmp_path).seat == "inspector"
    with pytest.raises(ConfigError, match="no seat '7'; the seats are 0, 1, 2, 3"):
        Session.new("alibi", seat="7", players=4, dir=tmp_path)


# --- 3. lines the seat's own hand contradicts ---------------------------------------------
def _alibi_session(tmp_path: Path, seed: int = 1) -> tuple[Session, list[str]]:
    game = engines.make("alibi", players=4)
    lines = typed_lines(game, game.random_game(seed).information_set(0))
    session = Session.new("alibi", seat=0, players=4, dir=tmp_path, name=f"a{seed}")
    for line in lines[:3]:  # the seating, the deal, the hand sizes
        session.add(line)
    return session, lines


def _asker_and_other(line: str) -> tuple[int, int]:
    """The first question's asker, and a seat other than the asker and seat 0."""
    asker = int(line.split()[0])
    return asker, next(s for s in (1, 2, 3) if s != asker)


@pytest.mark.parametrize("seed", [1, 2])  # seat 0 asks first; player 3 asks seat 0 first
def test_finding_a_line_that_contradicts_the_seats_own_hand_is_refused_on_the_spot(
    tmp_path: Path, seed: int
) -> None:
    """The issue's `2 asks 0 hand fa-wi: 0` typed while seat 0 holds Fall: Window."""
    session, lines = _alibi_session(tmp_path, seed)
    mine = session.information_set().observations[1]["cards"]
    asker, other = _asker_and_other(lines[3])
    held = mine[0]
    refused = {
        f"{asker} asks 0 hand {held}: 0" if asker else f"0 asks {other} hand {held}: 1":
            "you hold 1 of the cards asked" if asker else f"you hold {held}",
        f"{asker} asks {other if asker else 1} seen {held}: 1": "dealt to you and never passed",
    }  # fmt: skip
    for line, message in refused.items():
        version = session.version
        with pytest.raises(InvalidObservation, match=message):
            session.add(line)
        assert session.version == version and len(session.entries) == 3  # unchanged
    assert session.conflict is None


def test_finding_the_seats_own_answer_is_its_own_hand(tmp_path: Path) -> None:
    session, lines = _alibi_session(tmp_path, 2)  # player 3 asks first
    mine = session.information_set().observations[1]["cards"]
    asker, _ = _asker_and_other(lines[3])
    assert asker != 0
    group = ALIBI.deck.by_id[mine[0]].group
    count = sum(ALIBI.deck.by_id[card].group == group for card in mine)
    with pytest.raises(InvalidObservation, match=f"so your answer is {count}, not {count + 1}"):
        session.add(f"{asker} asks 0 hand {group}: {count + 1}")
    session.add(f"{asker} asks 0 hand {group}: {count}")
    assert session.reading().status == "ok"


def test_finding_a_box_card_the_seat_has_held_is_refused() -> None:
    game: Any = engines.make("alibi", players=3, round_limit=1)
    state = game.new_game(5)
    while state.to_move is not None:
        state.apply(state.legal_actions()[-1])
    record = state.information_set(0).observations
    at = next(i for i, obs in enumerate(record) if obs.kind == "box")
    box = " ".join(record[at]["cards"])
    assert game.parse_entry(f"box {box}", 0, record[:at]) == (record[at],)
    held = record[1]["cards"]
    same_type = next(c for c in held if game.deck.by_id[c].type == "suspect")
    wrong = " ".join([same_type, *record[at]["cards"][1:]])
    with pytest.raises(InvalidObservation, match=f"{same_type} cannot be in the box"):
        game.parse_entry(f"box {wrong}", 0, record[:at])


def test_finding_a_conflict_ranks_the_entries_by_how_likely_each_is_the_typo() -> None:
    assert rank_repairs([2, 8, 13, 14], own=[2]) == (14, 13, 8, 2)
    conflict = Conflict((2, 8, 13, 14), (14, 13, 8, 2), (), (2,))
    said = str(conflict)
    assert "the likeliest typo first: entry 14, entry 13, entry 8, entry 2 (your own)" in said
    assert (
        str(Conflict((3, 5), (5,)))
        == "entries 3 and 5 contradict each other; entry 5 is probably mistyped"
    )


def test_finding_a_session_conflict_puts_the_seats_own_entries_last(tmp_path: Path) -> None:
    """Two answers by others that cannot both hold: the later is named first."""
    session, lines = _alibi_session(tmp_path)
    mine = set(session.information_set().observations[1]["cards"])
    theirs = next(card for card in ALIBI.deck.ids if card not in mine)
    first = int(lines[3].split()[0])
    targets = [s for s in (1, 2, 3)]
    a = next(t for t in targets if t != first)
    b = next(t for t in targets if t not in (a, (first + 1) % 4))
    session.add(f"{first} asks {a} hand {theirs}: 1")
    session.add(f"{(first + 1) % 4} asks {b} hand {theirs}: 1")
    conflict = session.conflict
    assert conflict is not None and conflict.repairs == (5, 4) and conflict.own == ()
    assert "entry 5, entry 4" in str(conflict)


# --- 4. terminal text ---------------------------------------------------------------------
def _blue_lion_before_a_lay(tmp_path: Path) -> tuple[Session, str]:
    """A Blue Lion session typed up to the first lay that names a side."""
    game = engines.make("blue-lion")
    lines = typed_lines(game, game.random_game(3).information_set("lupin"))
    at = next(i for i, line in enumerate(lines) if re.fullmatch(r"lay t\d (left|right)", line))
    session = Session.new("blue-lion", seat="lupin", dir=tmp_path, name="bl")
    for line in lines[:at]:
        session.add(line)
    return session, lines[at]


def _run_notebook(session: Session, lines: list[str], width: int = 200) -> str:
    console = Console(record=True, width=width)
    typed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    Notebook(console, session, read, board=False).run()
    return console.export_text()


def test_finding_a_refused_move_keeps_its_brackets_and_offers_the_closest_move(
    tmp_path: Path,
) -> None:
    session, lay = _blue_lion_before_a_lay(tmp_path)
    typo = lay.replace("right", "rigth").replace("left", "lfet")
    out = _run_notebook(session, [typo])
    said = " ".join(out.split())
    assert "lay TILE [left|right] [flip]" in said
    assert f"did you mean {lay}?" in said


def test_finding_lines_wrap_at_spaces_not_inside_words(tmp_path: Path) -> None:
    session, lay = _blue_lion_before_a_lay(tmp_path)
    out = _run_notebook(session, [lay.replace("right", "rigth").replace("left", "lfet")], 40)
    refused = out[out.index("refused:") :].split("Saved.")[0]
    message = " ".join(refused.split())
    for line in refused.splitlines():  # each line is whole words of the message
        for word in line.split():
            assert re.search(rf"(^| ){re.escape(word)}( |$)", message), word
    assert "did you mean" in message


@pytest.mark.parametrize("name", engines.names())
def test_finding_each_games_help_shows_its_own_examples(name: str, tmp_path: Path) -> None:
    options: dict[str, Any] = {"players": 4} if name in ("alibi", "serial-killer") else {}
    session = Session.new(name, dir=tmp_path, **options)
    out = _run_notebook(session, ["help"])
    assert views.names_help(session.game) in " ".join(out.split())
    if name != "alibi":
        assert "bl-kn" not in out and "blade-knife" not in out


@pytest.mark.parametrize(
    "name, kind, example, full",
    [
        ("blue-lion", "seat", "fu", "fujiko"),
        ("noir", "suspect", "ros", "Rosa"),
        ("alibi", "card", "bl-ob-bo", "blunt-bottle"),
        ("alibi", "card", "al-do", "alleyway-doorway"),
        ("city-killer", "resident", "dm", "Dmitri"),
        ("city-killer", "card", "de-ev", "destroy-evidence"),
        ("serial-killer", "card", "ba-ha", "WPN.5"),
    ],
)
def test_finding_the_help_examples_read_as_they_say(
    name: str, kind: str, example: str, full: str
) -> None:
    game: Any = engines.make(name)
    assert example in views.names_help(game)
    names = {
        "seat": lambda: game.seats,
        "suspect": lambda: game.suspects,
        "resident": lambda: game.names,
    }
    if kind == "card" and name == "alibi":
        vocabulary = Vocabulary(kind, game.deck.ids, {c.id: c.name for c in game.deck.cards})
    elif kind == "card" and name == "serial-killer":
        from engines.serial_killer.notation import Notation

        vocabulary = Notation(game).cards
    elif kind == "card":
        from engines.city_killer.notation import DETECTIVE_CARDS, KILLER_CARDS

        vocabulary = Vocabulary(kind, (*KILLER_CARDS, *DETECTIVE_CARDS))
    else:
        vocabulary = Vocabulary(kind, names[kind]())
    assert vocabulary.read(example) == full


def test_finding_the_star_marking_new_hints_is_explained(tmp_path: Path) -> None:
    session, lay = _blue_lion_before_a_lay(tmp_path)
    out = _run_notebook(session, ["hints", lay])
    if re.search(r"^\*\s?\d+\.", out, re.MULTILINE):
        assert "* new or changed since the last list" in out


def test_finding_the_dealer_is_asked_once(tmp_path: Path, monkeypatch, capsys) -> None:
    fixed = engines.make("alibi", players=4, dealer=2)
    assert [pick.name for pick in setup.picks(fixed, 0, {})] == ["deal"]
    assert setup.entries(fixed, 0, {}) == ["dealer 2"]
    chosen = engines.make("alibi", players=4)
    assert [pick.name for pick in setup.picks(chosen, 0, {})] == ["dealer"]
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("log\nquit\n"))
    argv = ["assist", "alibi", "--players", "4", "-o", "dealer=2", "--dir", str(tmp_path)]
    assert main(argv) == 0
    assert Session.open("alibi-1", tmp_path).entries[0].text == "dealer 2"


# --- 5. play: the advice says whose chance of what ----------------------------------------
def test_finding_noir_advice_says_who_does_what_to_whom() -> None:
    """The search says its chances in full (who acts on whom, and when), not in shorthand."""
    said: set[str] = set()
    game = engines.make("noir")
    for seed in range(12):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 16)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        advice = solver.advise(state.information_set(state.to_move), seed=0)
        for candidate in advice.candidates:
            text = " ".join((candidate.text, *candidate.threats))
            assert "next turn" not in text and "placed to" not in text, text
            said |= {phrase for phrase in PHRASES if phrase in text}
    assert said == set(PHRASES), set(PHRASES) - said


PHRASES = (
    "the killer kills you on his next move: ",
    "you arrest the killer on your next move: ",
    "the inspector arrests you on his next move: ",
    "of worlds: he could kill you on his next move, if he picks you out as the inspector",
    "of worlds: he could arrest you on his next move, if he picks you out as the killer",
)
"""What the Noir search says of the next moves, for either seat (was: "killed next turn 0%,
arrest next turn 10%", "the killer is placed to kill you in 22% of worlds")."""


def test_finding_play_offers_the_respelt_move() -> None:
    legal = ["lay t4", "lay t4 left", "lay t4 right", "lay t4 right flip", "pass"]
    assert _did_you_mean("lay t4 rigth", legal)[0] == "lay t4 right"
    assert _did_you_mean("lay t4 rigth flp", legal)[0] == "lay t4 right flip"
    assert set(_did_you_mean("lay t4 sideways", ["lay t4", "lay t4 flip", "pass"])) == {
        "lay t4",
        "lay t4 flip",
    }


def test_finding_a_serial_killer_profile_card_the_seat_has_seen_is_refused() -> None:
    """The profile is the cards left at the bottom of the decks: a card the seat drew or saw
    in play is not one of them."""
    game = engines.make("serial-killer", players=4)
    state = game.random_game(0)
    info = state.information_set(0)
    lines = typed_lines(game, info)
    before = info.observations[:-1]
    assert game.parse_entry(lines[-1], 0, before) == info.observations[-1:]
    seen = next(o["card"] for o in before if o.kind == "see_draw")
    genre = seen.partition(".")[0]
    wrong = re.sub(rf"\b{genre}\.\d\b", seen, lines[-1], count=1)
    with pytest.raises(InvalidObservation, match=f"{re.escape(seen)} .* cannot be in the profile"):
        game.parse_entry(wrong, 0, before)


def test_finding_a_city_killer_end_that_contradicts_the_killers_own_secrets_is_refused() -> None:
    game = engines.make("city-killer")
    info = game.random_game(0).information_set("killer")
    lines = typed_lines(game, info)
    before = info.observations[:-1]
    assert lines[-1].startswith("end ")
    assert game.parse_entry(lines[-1], "killer", before) == info.observations[-1:]
    words = lines[-1].split()
    mine = words[5]  # end REASON killer NAME motive MOTIVE ...
    words[5] = next(m for m in ("psychopath", "maniac") if m != mine)
    with pytest.raises(InvalidObservation, match=f"your own motive: {mine}, not {words[5]}"):
        game.parse_entry(" ".join(words), "killer", before)


def test_finding_a_noir_arrest_of_a_card_the_inspector_held_cannot_have_caught() -> None:
    """The inspector's own cards are not the killer: an arrest of one 'caught' is refused."""
    game = engines.make("noir")
    records = (game.random_game(seed).information_set("inspector") for seed in range(50))
    info = next(info for info in records if any(o.kind == "arrest" for o in info.observations))
    at = next(i for i, o in enumerate(info.observations) if o.kind == "arrest")
    before = info.observations[:at]
    me = next(o["suspect"] for o in before if o.kind == "identity")
    game.parse_entry(f"arrest {me} missed", "inspector", before)
    with pytest.raises(InvalidObservation, match=f"{me} has been in your hand"):
        game.parse_entry(f"arrest {me} caught", "inspector", before)


def test_finding_a_seen_answer_below_what_was_passed_between_them_is_refused() -> None:
    """Seat 0 gave its left neighbour cards and got cards from its right one: both have
    seen those cards, so a 'seen' answer below their count contradicts the seat's own
    passes."""
    game = engines.make("alibi", players=4)
    info = game.random_game(1).information_set(0)
    record = info.observations
    passes = [i for i, o in enumerate(record) if o.kind == "pass" and o.get("cards")]
    at = next(i for i, o in enumerate(record) if o.kind == "answer" and i > passes[0])
    before = record[:at]
    asker = record[at]["asker"]
    between = {
        o["receiver"] if o["giver"] == 0 else o["giver"]: o["cards"][0]
        for o in record[:at]
        if o.kind == "pass" and o.get("cards")
    }
    target, card = next((t, c) for t, c in between.items() if t != asker)
    with pytest.raises(InvalidObservation, match=f"{card} passed between you"):
        game.parse_entry(f"{asker} asks {target} seen {card}: 0", 0, before)
    assert game.parse_entry(f"{asker} asks {target} seen {card}: 1", 0, before)


def test_finding_a_serial_killer_card_is_typed_by_its_trait_in_words() -> None:
    game = engines.make("serial-killer", players=4)
    info = game.random_game(0).information_set(0)
    lines = typed_lines(game, info)
    at = next(i for i, line in enumerate(lines) if line.startswith("drew "))
    before: tuple[Observation, ...] = ()
    for line in lines[:at]:
        before += game.parse_entry(line, 0, before)
    card = lines[at].split()[1]
    trait: str = game.parts.trait_name(card)  # type: ignore[attr-defined]
    assert game.parse_entry(f"drew {trait}", 0, before) == game.parse_entry(lines[at], 0, before)
    with pytest.raises(InvalidObservation, match="no card is named"):
        game.parse_entry("drew", 0, before)


def test_finding_play_reads_names_shortened_as_in_the_notebook() -> None:
    from sleuth.play import expand_names

    game = engines.make("alibi", players=4)
    names = ["ask", "lay", "pass", "hand", "seen", *game.notation_words()]
    assert expand_names("pass po-ar bl-kn", names) == "pass poison-arsenic blade-knife"
    assert expand_names("ask 1 hand cards:po-ar,bl-kn", names) == (
        "ask 1 hand cards:poison-arsenic,blade-knife"
    )
    assert expand_names("ask 1 hand group:blun", names) == "ask 1 hand group:blunt"
    assert expand_names("pass poison-arsenic", names) is None  # nothing to expand
    assert game.parse_action(str(expand_names("pass po-ar bl-kn", names)))


def test_finding_a_shortened_move_is_played_at_the_terminal(monkeypatch, capsys) -> None:
    import io

    game = engines.make("noir")
    state = game.new_game(seed=3)
    kill = next(str(a) for a in state.legal_actions() if str(a).startswith("kill "))
    typed = f"kill {kill.split()[1][:3].lower()}"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{typed}\nlog\nquit\n"))
    assert main(["play", "noir", "--as", "killer", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert f"(read as `{kill}`)" in out


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(min_size=0, max_size=12),
            st.sampled_from(["blunt", "object", "bottle", "fall", "window", ":", "-", "bl-ob"]),
        ),
        max_size=10,
    )
)
def test_finding_loose_name_reading_reads_or_refuses_anything(words: list[str]) -> None:
    """Reading names loosely (several words, printed spellings) never crashes: a list of
    words is names, or refused with an InvalidObservation."""
    cards = Vocabulary("card", ALIBI.deck.ids, {c.id: c.name for c in ALIBI.deck.cards})
    try:
        found = cards.read_all(words)
    except InvalidObservation as error:
        assert str(error)
        return
    assert all(card in ALIBI.deck.by_id for card in found) and len(set(found)) == len(found)
