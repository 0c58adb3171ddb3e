"""The notebook's session: typed records equal the engine's, bad input changes nothing,
contradictions are kept and blamed, every change survives reopening (and SIGKILL)."""

from __future__ import annotations

import json
import sqlite3
from itertools import pairwise
from pathlib import Path

import pytest
from rich.console import Console

import engines
import solver
from engines import InformationSet, InvalidObservation, SleuthError
from sleuth.assist import LEVELS, Session, SessionError, StaleSession
from sleuth.assist.terminal import Notebook
from sleuth.assist.transcribe import typed_lines
from sleuth.cli import main
from solver.hints import certainty
from tests import benchmark_scripts

bench = benchmark_scripts.load("assist", "assist_bench")


def _events(directory: Path, name: str) -> int:
    db = sqlite3.connect(directory / "sessions.sqlite3")
    return db.execute("SELECT COUNT(*) FROM events WHERE session = ?", (name,)).fetchone()[0]


def _typed(tmp_path: Path, name: str, seed: int, count: int | None = None, **options) -> Session:
    game = engines.make(name, **options)
    info = game.random_game(seed).information_set(game.seats[0])
    session = Session.new(name, dir=tmp_path, name=f"{name}-{seed}", **options)
    for line in typed_lines(game, info)[:count]:
        session.add(line)
    return session


# --- typed records ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, options, games",
    [("blue-lion", {}, 4), ("noir", {}, 4), ("alibi", {"players": 3}, 2)],
)
def test_a_typed_record_is_the_engines_information_set_with_the_same_deduction(
    name, options, games
) -> None:
    """Every seat; the notation tests round-trip each observation over 100+ games, and the
    benchmark types 100 whole games per seat through sessions."""
    rows = bench.typed(games, configs=[(name, options)])
    for row in rows:
        assert row.games == games and row.mismatches == [], row.mismatches
        assert row.compared == games


def test_the_session_is_the_same_after_reopening(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 20)
    session.edit(8, session.entries[7].text)
    session.delete(20)
    session.undo()
    session.level = "notepad"
    before = session.information_set()
    session.close()
    again = Session.open("blue-lion-3", tmp_path)
    assert again.information_set() == before and len(again.entries) == 20
    assert again.level == "notepad"
    assert [r.name for r in Session.stored(tmp_path)] == ["blue-lion-3"]


def test_export_is_read_back_by_information_set_from_json(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 5, 25)
    assert InformationSet.from_json(session.export()) == session.information_set()


# --- bad input changes nothing ----------------------------------------------------------
@pytest.mark.parametrize(
    "text, error, words",
    [
        ("hello", InvalidObservation, "does not start an entry"),
        ("lay t9", InvalidObservation, "tiles are t1..t6"),
        ("toss LLL", InvalidObservation, "toss is over"),
        ("first zenigata", InvalidObservation, "started already"),
        ("  ", SessionError, "needs the text of an entry"),
    ],
)
def test_bad_entries_get_one_line_and_leave_the_session_unchanged(
    tmp_path, text, error, words
) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 13)
    before, events = session.information_set(), _events(tmp_path, "blue-lion-3")
    with pytest.raises(error, match=words) as raised:
        session.add(text)
    assert "\n" not in str(raised.value)
    assert session.information_set() == before and _events(tmp_path, "blue-lion-3") == events
    assert Session.open("blue-lion-3", tmp_path).information_set() == before


def test_an_edit_that_later_entries_cannot_follow_is_refused_naming_them(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 30)
    before = session.information_set()
    with pytest.raises(InvalidObservation, match=r"entry \d+ \('.*'\) would no longer read"):
        session.edit(2, "toss t2 B")
    assert session.information_set() == before


def test_bad_positions_levels_and_names_are_session_errors(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 5)
    for change in (lambda: session.edit(9, "pass"), lambda: session.delete(0)):
        with pytest.raises(SessionError, match="entries: 1 to 5"):
            change()
    with pytest.raises(SessionError, match="levels are notepad, certain, odds, advice"):
        session.level = "everything"
    with pytest.raises(SessionError, match="already a session"):
        Session.new("blue-lion", dir=tmp_path, name="blue-lion-3")
    with pytest.raises(engines.ConfigError, match="no seat"):
        Session.new("blue-lion", "zenigata", dir=tmp_path)


def test_an_unfinished_record_waits_and_shows_its_complete_beginning(tmp_path) -> None:
    game = engines.make("alibi", players=3)
    lines = typed_lines(game, game.random_game(1).information_set(0))
    session = Session.new("alibi", 0, dir=tmp_path, players=3)
    session.add(lines[0])
    reading = session.reading()
    assert reading.status == "waiting" and reading.waiting_for and reading.usable is None
    assert session.hints() == []
    for line in lines[1:3]:
        session.add(line)
    assert session.reading().status == "ok"


# --- contradictions are kept and blamed -------------------------------------------------
def _contradiction(tmp_path: Path) -> tuple[Session, int]:
    """A 3-player Alibi record whose two first questions say players 1 and 2 both hold one
    card seat 0 does not: the two answers conflict. (An answer that contradicts the seat's
    own hand is refused when typed: tests/test_table_entry.py.)"""
    game = engines.make("alibi", players=3)
    lines = typed_lines(game, game.random_game(1).information_set(0))
    session = _typed(tmp_path, "alibi", 1, 3, players=3)
    theirs = next(
        c for c in game.deck.ids if c not in session.information_set().observations[1]["cards"]
    )
    first = int(lines[3].split()[0])  # the first question's asker; the next player asks next
    target = 1 if first != 1 else 2  # players 1 and 2, each asked by someone else
    session.add(f"{first} asks {target} hand {theirs}: 1")
    session.add(f"{(first + 1) % 3} asks {3 - target} hand {theirs}: 1")
    return session, len(session.entries)


def test_a_contradiction_is_kept_and_names_the_entries_and_the_likely_typo(tmp_path) -> None:
    session, last = _contradiction(tmp_path)
    conflict = session.conflict
    assert conflict is not None and last in conflict.entries
    assert set(conflict.repairs) <= set(conflict.entries) and last in conflict.repairs
    assert f"entry {last}" in str(conflict)
    reading = session.reading()
    assert reading.status == "conflict" and reading.entries == last - 1
    assert reading.usable == Session.open(session.name, tmp_path)._info(session.entries[:-1])
    assert session.hints()  # deductions for the consistent beginning
    session.edit(last, session.entries[-1].text.replace(": 1", ": 0"))
    assert session.conflict is None and session.reading().status == "ok"


def test_diagnosis_blames_only_entries_whose_removal_restores_consistency(tmp_path) -> None:
    session, last = _contradiction(tmp_path)
    info = session.information_set()
    found = solver.diagnosis.diagnose(info)
    assert found is not None and found.conflict == (last - 2, last - 1)  # the two answers
    assert found.repairs == found.conflict
    without_answer = InformationSet(info.game, info.options, info.seat, info.observations[:-1])
    assert solver.diagnosis.consistent(without_answer)
    assert not solver.diagnosis.consistent(info)


# --- levels and explanations ------------------------------------------------------------
def test_each_level_shows_at_least_what_the_level_below_shows(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 30)

    def told(hint: solver.Hint) -> object:  # the answer is the same at `advice`, plus its plan
        return "answer" if hint.kind == "answer" else certainty(hint) or hint.text

    shown = [{told(h) for h in session.hints(level)} for level in LEVELS]
    for lower, higher in pairwise(shown):
        assert lower <= higher
    answers = [h.text for level in LEVELS for h in session.hints(level) if h.kind == "answer"]
    assert all(text.startswith(answers[0]) for text in answers)
    kinds = {level: {h.kind for h in session.hints(level)} for level in LEVELS}
    assert kinds["notepad"] <= {"notepad"} and "certain" in kinds["certain"]


def test_why_names_the_entries_that_force_a_certain_fact(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 30)
    deduction = session.deduction()
    assert deduction is not None
    fact = next(f for f in deduction.certain())
    entries = session.explain(fact)
    sources = deduction.explain_sources(fact)
    assert entries and all(
        any(s in session.entries[n - 1].sources for n in entries) for s in sources
    )


# --- the whole loop through the command line --------------------------------------------
def test_the_command_line_notebook_keeps_entries_across_end_of_input(
    tmp_path, monkeypatch, capsys
) -> None:
    game = engines.make("blue-lion")
    lines = typed_lines(game, game.random_game(3).information_set("lupin"))[:12]
    script = iter([*lines, "lay t9", "why 1", "log", "level notepad", "undo"])

    def read(prompt: str) -> str:
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("sleuth.assist.terminal.line_reader", lambda console, words: read)
    assert main(["assist", "blue-lion", "--dir", str(tmp_path), "--name", "t"]) == 0
    out = capsys.readouterr().out
    assert "refused:" in out and "Resume with: sleuth assist --resume t" in out
    assert len(Session.open("t", tmp_path).entries) == 11  # the undo took the 12th back
    assert main(["assist", "--list", "--dir", str(tmp_path)]) == 0
    assert "t" in capsys.readouterr().out
    assert main(["assist", "--export", "t", "--dir", str(tmp_path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["game"] == "blue-lion" and len(exported["observations"]) == 11
    assert main(["assist", "--resume", "nope", "--dir", str(tmp_path)]) == 2


def test_the_terminal_refuses_a_change_typed_before_it_saw_one_made_elsewhere(tmp_path) -> None:
    lines = typed_lines(engines.make("blue-lion"), engines.make("blue-lion").random_game(3)
                        .information_set("lupin"))  # fmt: skip
    mine = _typed(tmp_path, "blue-lion", 3, 4)
    console = Console(record=True, width=200)
    notebook = Notebook(console, mine, lambda prompt: "", board=False)
    elsewhere = Session.open(mine.name, tmp_path)
    elsewhere.add(lines[4])
    with pytest.raises(StaleSession, match="changed elsewhere"):
        notebook.command("delete 4")
    assert [e.text for e in mine.entries] == lines[:5] and lines[4] in console.export_text()
    notebook.command("delete 5")  # now made on what it shows
    assert elsewhere.sync()
    elsewhere.add(lines[4])
    notebook.command("log")  # a command that changes nothing goes on
    assert "changed elsewhere" in console.export_text()
    assert len(Session.open(mine.name, tmp_path).entries) == 5


def test_sigkill_while_typing_loses_no_entry_whose_hints_were_shown() -> None:
    result = bench.crash(3, seed=1)
    assert result.kills == 3 and result.lost == []
    assert result.kept >= result.shown > 0


def test_a_corrupted_entry_is_in_every_conflict_it_causes() -> None:
    rows = bench.corrupt(2, 3, configs=[("alibi", {"players": 3})], seed=4)
    for row in rows:
        assert row.misses == [] and row.tries > 0
        assert row.blamed == row.outcomes["inconsistent"]


def test_refusals_are_sleuth_errors_never_bare_exceptions(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 8)
    for text in ("lay", "toss t1", "score x", "end nobody", "move t1 t2 t3", "@@", "t1"):
        try:
            session.add(text)
        except SleuthError:
            continue
        session.undo()
    with pytest.raises(SessionError, match="needs the text"):
        session.add(None)  # type: ignore[arg-type]


# --- several front ends on one session --------------------------------------------------
def test_a_change_made_on_an_older_version_is_refused_and_sync_catches_up(tmp_path) -> None:
    """Two windows on one session: the second one's change, made before it saw the first
    one's, is refused (not silently stored over it); after sync it goes through."""
    first = _typed(tmp_path, "blue-lion", 3, 4)
    second = Session.open(first.name, tmp_path)
    assert first.version == second.version == 4
    first.edit(4, first.entries[3].text)
    assert first.version == 5 and second.version == 4
    with pytest.raises(StaleSession, match="changed elsewhere"):
        second.delete(4)
    assert _events(tmp_path, first.name) == 5 and len(second.entries) == 4
    assert second.sync() and second.version == 5 and not second.sync()
    second.delete(4)
    assert Session.open(first.name, tmp_path).entries == second.entries


def test_why_of_a_hint_names_the_entries_of_its_certain_fact(tmp_path) -> None:
    session = _typed(tmp_path, "blue-lion", 3, 30)
    hints = session.hints("certain")
    certain = next(h for h in hints if certainty(h) is not None)
    assert session.why(certain) == session.explain(certainty(certain))
    with pytest.raises(solver.NotCertain):
        session.why(solver.Hint("t1's back is probably Fujiko", certain.fact, 0.5))


def test_a_mistyped_noir_shift_is_named_with_the_entries_it_made_contradict(tmp_path) -> None:
    """A shift typed in the wrong direction adds no constraint of its own: it moves the grid
    that later kills are read on. The conflict names it among the entries the contradicting
    ones were read with (found by benchmarks/assist.py: seed 1012, entry 17)."""
    game = engines.make("noir")
    lines = typed_lines(game, game.random_game(1012).information_set("killer"))
    assert lines[16].startswith("killer shift column") and lines[16] != "killer shift column 5 up"
    session = Session.new("noir", "killer", dir=tmp_path, name="shifted")
    for line in lines:
        session.add(line)
    session.edit(17, "killer shift column 5 up")
    conflict = session.conflict
    assert conflict is not None and 17 not in conflict.entries and 17 in conflict.read_with
    assert "as read on the position entries" in str(conflict)
    assert all(n < max(conflict.entries) for n in conflict.read_with)
    session.edit(17, lines[16])
    assert session.conflict is None


def test_hints_are_computed_once_per_reading_and_level(tmp_path, monkeypatch) -> None:
    """A page shown again after a refused line asks for the same hints: they are kept until
    the record changes, and a change gives the hints a fresh session gives."""
    import sleuth.assist.session as session_module

    computed: list[str] = []
    real = session_module.hints_at

    def counted(level, usable, deduction, changes):
        computed.append(level)
        return real(level, usable, deduction, changes)

    monkeypatch.setattr(session_module, "hints_at", counted)
    game = engines.make("blue-lion")
    lines = typed_lines(game, game.random_game(3).information_set(game.seats[0]))
    session = Session.new("blue-lion", dir=tmp_path, name="kept", entries=lines[:10])
    first = session.hints()
    assert first, "the record should be complete enough for hints"
    with pytest.raises(SleuthError):
        session.add("this is no entry")
    assert session.hints() == first and session.hints("certain") == session.hints("certain")
    assert computed == ["odds", "certain"]
    session.add(lines[10])
    fresh = Session.new("blue-lion", dir=tmp_path, name="fresh", entries=lines[:11])
    assert session.hints() == fresh.hints() and len(computed) == 4
