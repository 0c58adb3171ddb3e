"""`sleuth play` driven by standard input: advice, rules, undo, log, why, did-you-mean, numbers
only for listed moves, the recap at the end and `again`; `sleuth rules`; Tab completion."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

import engines
import engines.alibi
import solver
from sleuth import rules
from sleuth.cli import main
from sleuth.reader import Reader

BLUE_LION = ["play", "blue-lion", "--as", "lupin", "--seed", "8", "-o", "first_player=lupin"]


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
         *lines: str) -> str:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(argv) == 0
    return capsys.readouterr().out


def test_hint_and_best_show_the_solver_bots_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(monkeypatch, capsys, BLUE_LION, "hint", "best", "quit")
    state = engines.make("blue-lion", first_player="lupin").new_game(seed=8)
    advice = solver.advise(state.information_set("lupin"), seed=8)
    assert f"best: {advice.move}  {advice.text}" in out
    assert out.count("What the solver would play:") == 2
    assert "more moves: `best` lists them" in out and "searched" in out  # best: all, with work


def test_why_log_undo_and_did_you_mean(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["why 1", "hint", "why 1", "why 99", "hnit", "lay t9", "1", "log", "undo", "log",
             "undo", "quit"]  # fmt: skip
    out = _run(monkeypatch, capsys, BLUE_LION, *lines)
    assert "no hints yet: type `hint` first" in out
    assert re.search(r"1\. t1's back is Zenigata \(certain\)\n  1\. t2 landed", out)
    assert "why takes a hint's number, 1-" in out
    assert "did you mean: `hint`?" in out and "did you mean: `lay t6`" in out
    assert "  1. Lupin: lay t1\n  2. Fujiko:" in out
    assert "took back your move; back to move 1" in out and "no moves yet" in out
    assert "nothing to undo: you have not moved yet" in out


def test_undo_restores_the_position_and_play_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(monkeypatch, capsys, BLUE_LION, "lay t2", "undo", "lay t3", "log", "quit")
    assert "  1. Lupin: lay t3\n" in out and "  1. Lupin: lay t2\n  2." not in out.split("undo")[-1]


def test_rules_in_the_game_and_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _run(monkeypatch, capsys, BLUE_LION, "rules", "quit")
    assert "Blue Lion: the rules in short" in out and "L-B-L" in out
    assert set(rules.names()) >= {"alibi", "blue-lion", "noir"}
    for name in rules.names():
        assert main(["rules", name]) == 0
        assert "the rules in short" in capsys.readouterr().out
    assert main(["rules", "chess"]) == 2
    assert "no rules summary for 'chess'" in capsys.readouterr().err


def test_unlisted_moves_cannot_be_played_by_number(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "alibi", "--players", "3", "-o", "deck=small", "--seed", "4", "--bot",
            "heuristic"]  # fmt: skip
    out = _run(monkeypatch, capsys, argv, "1", "quit")
    assert re.search(r"the \d+ moves are not numbered here", out)
    assert "Player 0: ask" not in out and "accused" not in out


@pytest.mark.parametrize("seat", ["killer", "inspector"])
def test_a_whole_noir_game_ends_with_the_truth_a_recap_and_again(
    seat: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "noir", "-o", "grid=3", "--as", seat, "--seed", "5", "--bot", "heuristic"]
    out = _run(monkeypatch, capsys, argv, *["1"] * 80, "undo", *["1"] * 80, "again", "quit")
    assert "took back your move" in out.split("The hidden truth:")[1], "undo after the end"
    assert out.count("The hidden truth:") == 2, "the game was played to its end again"
    assert "The hidden truth:" in out and "the killer was " in out and "How it ended:" in out
    assert re.search(r"(could have known|never had) the opponent's identity", out)
    assert out.count("You play ") == 2, "again deals a new game"
    assert "the game is over: type `again`" in out


def test_tab_completes_commands_moves_and_names() -> None:
    reader = Reader(Console(file=io.StringIO()))
    reader.complete_with(
        ["hint", "help", "lay t1 left", "lay t2 left", "ask 1 hand cards:studio-on-set"]
    )
    assert reader.candidates("h") == ["help", "hint"]
    assert reader.candidates("lay ") == ["t1", "t2"]
    assert reader.candidates("lay t1 ") == ["left"]
    assert reader.candidates("ask 2 seen cards:stu") == ["cards:studio-on-set"]
    assert reader.candidates("zz") == []


def test_a_mistyped_card_is_named_with_the_closest_cards() -> None:
    game = engines.make("alibi")
    with pytest.raises(
        engines.InvalidAction,
        match=r"unknown card 'studio-back-stag' \(did you mean studio-back-stage",
    ):
        game.parse_action("accuse slim-slant-noon studio-back-stag poison-arsenic rage-jealousy")


def test_a_long_card_list_is_said_shortly() -> None:
    deck = engines.make("alibi").deck
    places = deck.of_type("place")
    subject = engines.alibi.Subject("cards", tuple(places[:-2]))
    left = " and ".join(deck.by_id[c].name for c in places[-2:])
    assert subject.words(deck) == f"place cards except {left}"
    group = deck.of_group(deck.groups[0])
    mixed = engines.alibi.Subject("cards", (*group, places[0]))
    assert mixed.words(deck) == (
        f"of {deck.group_names[deck.groups[0]]} (all 3), {deck.by_id[places[0]].name}"
    )


def test_play_reads_the_hints_odds_under_a_model_where_the_game_can(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "noir", "--as", "killer", "--seed", "3", "--bot", "random", "--model", "random"]
    out = _run(monkeypatch, capsys, argv, "hint", "quit")
    assert "What the solver would play:" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "alibi", "--model", "random"]) == 2
    assert "games whose hints read a model: blue-lion, city-killer, noir" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "city-killer", "--as", "killer", "--model", "random"]) == 2
    assert "use model 'counting'" in capsys.readouterr().err
    assert main(["play", "noir", "--model", "oracle"]) == 2
    assert "unknown opponent model 'oracle'" in capsys.readouterr().err
