"""The command line: every command runs, bad input exits non-zero with one line, play survives."""

from __future__ import annotations

import io
import re

import pytest

from sleuth.cli import main


def test_games_lists_every_game_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "blue-lion" in out and "turn_limit" in out and "swap_zone" in out


def test_demo_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "2", "-o", "turn_limit=10"]) == 0
    out = capsys.readouterr().out
    assert "won" in out.splitlines()[-1]
    assert "%" in out, "the demo shows hints with probabilities"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "chess"], "unknown game 'chess'"),
        (["demo", "-o", "target=0"], "option 'target'"),
        (["play", "blue-lion", "--as", "zenigata"], "no seat 'zenigata'"),
        (["arena", "blue-lion", "--bots", "solver"], "needs 2 bots"),
        (["arena", "blue-lion", "--bots", "solver,genius", "--games", "1"], "unknown bot"),
        (["arena", "blue-lion", "--bots", "random,random", "--games", "0"], "at least 1"),
        (["demo", "--time-budget", "nan"], "finite number of seconds > 0, got nan"),
        (["demo", "noir", "--time-budget", "-1"], "finite number of seconds > 0"),
        (["arena", "noir", "--bots", "solver,random", "--time-budget", "inf"], "finite number"),
        (["arena", "noir", "--bots", "solver,random", "--time-budget", "0"], "got 0.0"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [["demo", "--seed", "x"], ["arena"], ["fly"], []])
def test_unparsable_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["demo", "play", "arena", "games"])
def test_every_command_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0 and "usage" in capsys.readouterr().out


def test_play_refuses_bad_moves_and_keeps_going(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["", "help", "fly t1", "lay t9", "swap t1 t2", "99", "hint", "moves", "1", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert (
        main(
            [
                "play",
                "blue-lion",
                "--as",
                "lupin",
                "--seed",
                "8",
                "--bot",
                "random",
                "-o",
                "first_player=lupin",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "cannot read 'fly t1'" in out
    assert "swap t1 t2 is not legal in phase 1" in out
    assert "there is no move 99" in out
    assert "Lupin: lay t1" in out and out.rstrip().endswith("bye")


def test_play_to_the_end_of_input_never_crashes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "blue-lion", "--seed", "3", "--bot", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert "You win" in out or "You lose" in out or "shared" in out or "bye" in out


def test_arena_prints_a_results_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "blue-lion", "--bots", "heuristic,random", "--games", "4", "--workers", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert "blue-lion: 4 games" in out and "%" in out
    for bot in ("1. heuristic", "2. random"):  # rotated: a row per bot and role
        assert len(re.findall(rf"{bot} +│ (lupin|fujiko) +│ +\d+/2 ", out)) == 2, out
    assert re.search(r"lupin +│ +\d+/4 ", out) and re.search(r"fujiko +│ +\d+/4 ", out)


def test_arena_takes_a_bots_options_after_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    """`solver:max_depth=1` is the solver bot with that option (read as JSON: a number), and
    the tables name it so; a malformed option or one the bot lacks is refused in one line."""
    argv = ["arena", "blue-lion", "--bots", "solver:max_depth=1", "random", "--games", "2"]
    assert main([*argv, "--workers", "1"]) == 0
    assert "1. solver(max_depth=1)" in capsys.readouterr().out
    assert main(["arena", "blue-lion", "--bots", "solver:max_depth", "random"]) == 2
    assert "written name:key=value" in capsys.readouterr().err
    assert main(["arena", "blue-lion", "--bots", "solver:depth=1", "random"]) == 2
    assert "the solver bot has no option 'depth'" in capsys.readouterr().err


def test_a_bots_options_are_read_as_json_where_they_are() -> None:
    from sleuth.commands import bot_entry

    assert bot_entry("solver") == ("solver", {})
    assert bot_entry("solver:model=random:max_depth=2:time_budget=null") == (
        "solver",
        {"model": "random", "max_depth": 2, "time_budget": None},
    )


def test_noir_demo_draws_the_heat_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "noir", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "won" in out.splitlines()[-1] and "kills" in out and "%" in out


@pytest.mark.parametrize("seat", ["killer", "inspector"])
def test_play_noir_as_either_role(
    seat: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nshift row 9 left\n1\n1\nquit\n"))
    assert main(["play", "noir", "--as", seat, "--seed", "4", "--bot", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert f"You play {seat.capitalize()}" in out and "bye" in out
