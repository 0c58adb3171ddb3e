"""Alibi at the command line: play with typed moves and hints, the demo, the notepad view."""

from __future__ import annotations

import io
import re
import shlex

import pytest
from rich.console import Console

import engines
import opponents
import solver
from engines import InformationSet
from sleuth.cli import main
from sleuth.views import alibi as view


def _sleuth(command: str) -> int:
    """The command line run on `command`, as typed after `sleuth`."""
    return main(shlex.split(command))


def _typed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))


def _drawn(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def test_play_summarises_moves_refuses_bad_ones_and_gives_hints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["moves", "ask 9 hand type:weapon", "pass car-trunk", "hint", "ask 1 hand type:weapon"]
    _typed(monkeypatch, *typed, "1", "quit")
    assert _sleuth("play alibi --players 4 --seed 3 --bot heuristic") == 0
    out = capsys.readouterr().out
    assert "ask (" in out and "listed), for example:" in out and "GROUP-DETAIL" in out
    assert not re.search(r"^1\. ask", out, re.M), "a long move list is summarised, not numbered"
    assert "cannot read 'ask 9 hand type:weapon': no seat '9'" in out
    assert "pass car-trunk is not legal now" in out
    assert "The box's" in out and "% chance in the box" in out, "hint: hints and heat map"
    assert "to player 0's 'how many weapon cards in your hand'" in out
    assert "1. pass" in out, "the few passes of round 1 are numbered"
    assert "player 0 chose the card to pass" in out, "a number picks a listed move"
    assert out.rstrip().endswith("bye")


def test_demo_small_deck_plays_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert _sleuth("demo alibi --players 3 -o deck=small --seed 1 --time-budget 0.2") == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "won" in lines[-1] and "what Player 1 knew before moving" in out
    passes = [k for k, line in enumerate(lines) if re.match(r"\d+\. Player \d: pass ", line)]
    assert passes and all("knew" not in lines[k + 1] for k in passes), "passes: no hints"
    turns_of_0 = re.findall(r"^\d+\. Player 0: (?!pass)", out, re.MULTILINE)
    assert out.count("% chance in the box") == len(turns_of_0), "Player 0's board, once a turn"


def test_arena_takes_bots_separated_by_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    command = "arena alibi --bots heuristic heuristic random --players 3 -o deck=small --games 2"
    assert _sleuth(command + " --workers 1") == 0
    assert "alibi: 2 games" in capsys.readouterr().out


def test_arena_reports_accusations(capsys: pytest.CaptureFixture[str]) -> None:
    command = "arena alibi --bots solver heuristic heuristic --players 3 -o deck=small --games 2"
    assert _sleuth(command + " --workers 1") == 0
    out = capsys.readouterr().out
    assert re.search(
        r"1\. solver: \d games with something to say; accused in round: median "
        r"[\d.]+, accused right: \d of \d",
        out,
    )


def _after_lays_and_passes(deck: str = "full") -> InformationSet:
    """Player 0's view once heuristic bots have laid a set and passed cards (seed 3)."""
    game = engines.make("alibi", players=4, deck=deck)
    state = game.new_game(seed=3)
    bots = {seat: opponents.make("heuristic", game, seat, seed=seat) for seat in game.seats}
    while True:
        info = state.information_set(0)
        kinds = {obs.kind for obs in info.observations}
        if {"lay", "pass"} <= kinds and state.to_move == 0:
            return info
        state.apply(bots[state.to_move].act(state.information_set(state.to_move)))


def test_notepad_marks_hand_held_and_laid_cards_within_80_columns() -> None:
    info = _after_lays_and_passes()
    game = info.make_game()
    pad = view.notepad(info)
    text = _drawn(view.render(game, info))
    laid_group = next(obs for obs in info.observations if obs.kind == "lay")
    row = next(line for line in text.splitlines() if line.startswith(laid_group["group"] + " "))
    assert row.count(f"L{laid_group['seat']}") == 3
    assert pad.held > pad.hand and len(pad.hand) == pad.sizes[0]
    assert "player 0, round 2 · cards" in text and "set points" in text
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    rows = [line.split()[0] for line in text.splitlines() if line.strip()]
    assert sorted(row for row in rows if row in game.deck.groups) == sorted(game.deck.groups)


def test_heat_map_marks_the_impossible_and_the_odds() -> None:
    info = _after_lays_and_passes("small")
    game = info.make_game()
    deduction = solver.deduce(info)
    text = _drawn(view.heat_map(game, info, deduction))
    assert "% chance in the box" in text and " - " in text and "%" in text
    assert ("(estimated)" in text) == (not deduction.exact)
    laid_group = next(obs for obs in info.observations if obs.kind == "lay")["group"]
    row = next(line for line in text.splitlines() if line.startswith(laid_group + " "))
    assert "%" not in row, "a laid set's cards cannot be in the box"
