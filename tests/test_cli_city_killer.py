"""City Killer at the command line: `hint` and `best` in `sleuth play` show the solver bot's
move and the opponent's threats, `sleuth rules city-killer` prints the shipped summary, and the
recap at the end reveals the killer's identity, motive, allies and figurant."""

from __future__ import annotations

import pytest

import engines
import opponents
import solver
from sleuth import rules
from sleuth.recap import recap
from tests.test_play_loop import _run


def test_hint_and_best_show_the_solver_move_and_the_killers_threats(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "city-killer", "--as", "detective", "--seed", "3", "--bot", "heuristic"]
    out = _run(monkeypatch, capsys, argv, "hint", "best", "quit")
    assert out.count("What the solver would play:") == 2
    assert "start 2,2" in out


def test_the_rules_summary_ships_and_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "city-killer" in rules.names()
    assert "fifth murder" in rules.text("city-killer")
    out = _run(monkeypatch, capsys, ["rules", "city-killer"])
    assert "liars" in out and "accuse Oleg maniac" in out


def test_the_recap_reveals_the_four_secrets_and_the_accusation() -> None:
    game = engines.make("city-killer", residents=12)
    state = game.new_game(seed=6)
    bots = {s: opponents.make("heuristic", game, s, seed=6) for s in game.seats}
    decisions = []
    while state.to_move is not None:
        info = state.information_set(state.to_move)
        decisions.append((len(decisions) + 1, state.to_move, info))
        state.apply(bots[state.to_move].act(info))
    lines = recap(game, state, decisions, "detective")
    text = "\n".join(lines)
    assert f"the killer was {state._identity} (" in text
    assert f"his motive was {state._motive}" in text
    assert f"allies were the group {state._allies}" in text
    assert f"the figurant was {state._figurant or 'nobody'}" in text
    assert "How it ended: The game ended:" in text
    if state.accusation is not None:
        assert f"the detective accused {state.accusation[0]} (" in text
    _check_first_known(text, [(n, info) for n, seat, info in decisions if seat == "detective"])


def _check_first_known(text: str, mine: list[tuple[int, engines.InformationSet]]) -> None:
    """The recap's "could have known from move N" is the detective's first decision at which
    a full deduction settles both the killer and the motive; the killer gets no such line."""

    def known(info: engines.InformationSet) -> bool:
        d = solver.deduce(info)
        return {f.kind for f in d.facts if d.probability(f) == 1.0} >= {"killer", "motive"}

    first = next((n for n, info in mine if known(info)), None)
    if first is None:
        assert "you never had the killer and his motive certain" in text
    else:
        assert f"you could have known the killer and his motive from move {first}" in text
    assert "Killer could have known" not in text and "Killer never had" not in text


def test_the_demo_plays_a_whole_game_through_records_that_wait_for_answers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After the detective asks, his record waits for the answer: the board is drawn without
    odds then, and the game goes on."""
    out = _run(monkeypatch, capsys, ["demo", "city-killer", "--seed", "7"])
    assert "answered" in out and out.rstrip().endswith("─")
    assert "Killer won" in out or "Detective won" in out
