"""The examples run and say something true."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_notebook_example() -> None:
    lines = load("blue_lion_notebook").main(seed=5)
    assert lines[-1].startswith("winners:")
    assert any(line.startswith("now certain:") and "because" in line for line in lines)


def test_tournament_example() -> None:
    rates = load("blue_lion_tournament").main(games=4)
    assert set(rates) == {"solver vs heuristic", "heuristic vs random"}
    assert all(0 <= rate <= 1 for rate in rates.values())


def test_alibi_notebook_example() -> None:
    lines = load("alibi_notebook").main(seed=2, players=3, deck="small", rounds=3)
    rounds = [k for k, line in enumerate(lines) if line.startswith("round ")]
    assert len(rounds) == 3
    for k in rounds:
        assert [line.split(":")[0] for line in lines[k + 1 : k + 5]] == [
            "  likeliest suspect",
            "  likeliest place",
            "  likeliest weapon",
            "  likeliest feeling",
        ]
    assert sum(line.startswith("  best question: ask ") for line in lines) == 3


def test_assist_transcript_lines_are_the_engines_record(tmp_path) -> None:
    """The person-style lines (short names, one line per passing step) read back exactly."""
    import engines
    from sleuth.assist import Session

    example = load("assist_transcript")
    game = engines.make("alibi", players=4)
    info = game.random_game(3).information_set(0)
    lines = example.table_lines(game, info.observations)
    assert len(lines) < len(info.observations) / 2
    session = Session.new("alibi", 0, dir=tmp_path, players=4)
    for line in lines:
        session.add(line)
    assert session.information_set() == info


def test_review_session_example_reviews_what_was_typed(capfd, monkeypatch) -> None:
    """The session typed line by line is reviewed from its record alone."""
    monkeypatch.setattr("sys.argv", ["review_session.py", "--seed", "11"])
    load("review_session").main()
    out = capfd.readouterr().out
    assert "typed 24 lines into the session noir-table" in out
    assert "Review of Inspector in noir" in out and "Accuracy" in out
