"""`sleuth games` shows option values as `-o` takes them, and `-o` reads JSON and Python."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

import engines
from sleuth.cli import main
from sleuth.commands import show_games
from sleuth.options import read_value, show_value


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("true", True),
        ("True", True),
        ("false", False),
        ("False", False),
        ("null", None),
        ("None", None),
        ("7", 7),
        ("random", "random"),
        ("'random'", "random"),
        ('"random"', "random"),
        ('"7"', "7"),
        ("phase-1", "phase-1"),
    ],
)
def test_o_reads_json_and_python_spellings(typed: str, value: object) -> None:
    read = read_value(typed)
    assert read == value and type(read) is type(value)


@pytest.mark.parametrize("name", engines.names())
def test_every_default_shown_reads_back_as_itself(name: str) -> None:
    for spec in engines.game_class(name).options_spec:
        shown = show_value(spec.default)
        as_json = json.loads(json.dumps(spec.default))  # a tuple default reads back as a list
        assert read_value(shown) == as_json, (spec.name, shown)
        assert "'" not in shown and shown not in ("True", "False", "None")


@pytest.mark.parametrize(
    "option", ["turn_limit=null", "turn_limit=None", "first_player='lupin'", "phase1_scoring=False"]
)
def test_play_takes_either_spelling(
    option: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("quit\n"))
    assert main(["play", "blue-lion", "--seed", "1", "--bot", "random", "-o", option]) == 0
    assert "bye" in capsys.readouterr().out


def test_the_games_table_fits_80_columns_without_splitting_words() -> None:
    console = Console(width=80, record=True, highlight=False)
    show_games(console)
    out = console.export_text()
    assert max(len(line.rstrip()) for line in out.splitlines()) <= 80
    words = set(re.findall(r"\S+", out))
    for name in engines.names():
        for spec in engines.game_class(name).options_spec:
            assert spec.name in words
            for word in spec.doc.split():
                assert word in words, f"{name} {spec.name}: {word!r} was split"
    assert "True" not in words and "None" not in words and "'random'" not in words
