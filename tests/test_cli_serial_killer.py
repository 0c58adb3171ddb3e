"""Serial Killer at the command line: demo, play (piped moves) and arena."""

from __future__ import annotations

import io

import pytest

from sleuth.cli import main


def test_demo_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "serial-killer", "--seed", "3", "-o", "players=3", "-o", "genres=4"]) == 0
    out = capsys.readouterr().out
    assert "won" in out.splitlines()[-1]
    assert "%" in out and "ferocity" in out


def test_play_four_players_from_piped_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["place 3", "buy 9 weapon", "fly", "hint", "buy 1 weapon", *["pass"] * 300]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    code = main(["play", "serial-killer", "--players", "4", "--seed", "5", "--bot", "heuristic"])
    assert code == 0
    out = capsys.readouterr().out
    assert "cannot read 'buy 9 weapon'" in out and "cannot read 'fly'" in out
    assert "You lose" in out or "You win" in out or "bye" in out


def test_arena_runs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "serial-killer", "--bots", "heuristic,random,random", "--games", "2"]
    assert main([*argv, "--workers", "1", "-o", "players=3"]) == 0
    assert "serial-killer: 2 games" in capsys.readouterr().out


def test_rules_summary_and_best(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", "serial-killer"]) == 0
    assert "undrawable" in capsys.readouterr().out
    typed = ["place 3", "best", *["pass"] * 300]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    argv = ["play", "serial-killer", "--players", "3", "--seed", "2", "--bot", "heuristic"]
    assert main([*argv, "-o", "genres=4"]) == 0
    out = capsys.readouterr().out
    assert "best: " in out, "best names the solver bot's move"
    assert "The hidden truth:" in out and "the profile: " in out
