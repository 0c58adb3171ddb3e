"""One registry entry per game: every layer finds its module by the engine's package name."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

import engines
import opponents
import solver
from engines import ConfigError
from engines.blue_lion import BlueLion
from opponents.factory import game_bots
from sleuth import views
from solver.games import knowledge_for

LAYERS = (
    "solver.games",
    "solver.search",
    "solver.states",
    "opponents.games",
    "sleuth.views",
    "sleuth.recap",
)


@pytest.mark.parametrize("name", engines.names())
def test_every_game_has_every_layer(name: str) -> None:
    package = engines.game_class(name).__module__.split(".")[1]
    for layer in LAYERS:
        module = engines.game_module(name, layer)
        assert module is not None and module.__name__ == f"{layer}.{package}"
    assert knowledge_for(name) is engines.game_module(name, "solver.games")
    assert game_bots(name) is engines.game_module(name, "opponents.games")


def test_unknown_game_is_named() -> None:
    with pytest.raises(ConfigError, match="unknown game 'chess'; the games are: alibi"):
        engines.game_module("chess", "solver.games")
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        knowledge_for("chess")


def test_a_game_without_a_layer_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game registered with its engine alone: the other layers say what is missing."""
    monkeypatch.setitem(engines.registry._REGISTRY, "solo", "engines.blue_lion:Solo")
    assert engines.game_module("solo", "solver.games") is not None  # blue_lion's package
    monkeypatch.setitem(engines.registry._REGISTRY, "solo", "engines.solo:Solo")
    assert engines.game_module("solo", "solver.games") is None
    with pytest.raises(ConfigError, match="no knowledge model for 'solo' yet"):
        knowledge_for("solo")
    assert game_bots("solo") is None
    with pytest.raises(ConfigError, match="no heuristic bot for solo yet"):
        opponents.make("heuristic", _Solo(), "lupin")


class _Solo(BlueLion):
    metadata = dataclasses.replace(BlueLion.metadata, name="solo")


def test_a_broken_import_inside_a_layer_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the layer's own module may be missing; a missing import inside it is a real bug."""
    import sys
    import types

    broken = types.ModuleType("solver.games.broken")
    monkeypatch.setitem(engines.registry._REGISTRY, "broken", "engines.broken:Broken")

    def fail(name: str) -> types.ModuleType:
        if name == "solver.games.broken":
            raise ModuleNotFoundError("No module named 'numpyy'", name="numpyy")
        return broken

    monkeypatch.setattr(engines.registry, "import_module", fail)
    with pytest.raises(ModuleNotFoundError, match="numpyy"):
        engines.game_module("broken", "solver.games")
    assert "solver.games.broken" not in sys.modules


def test_views_and_solver_still_answer_through_the_registry() -> None:
    game = engines.make("blue-lion")
    state = game.new_game(seed=3)
    info = state.information_set("lupin")
    assert views.heat_map(game, info) is None
    assert views.routine(game, state.legal_actions()) is False
    assert solver.deduce(info).total() > 0


ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ("engines", "solver", "opponents", "sleuth")


def adding_a_game() -> list[tuple[str, bool]]:
    """The places README's "Adding a game" lists, each a path with `<package>` in it, and
    whether it is optional."""
    text = (ROOT / "README.md").read_text()
    section = text.split("### Adding a game", 1)[1].split("\n## ", 1)[0]
    found = []
    for item in re.split(r"\n- ", section)[1:]:
        optional = item.startswith("optionally")
        for path in re.findall(r"`([a-z_/]+/<package>[a-z_./]*)`", item):
            found.append((path, optional))
    return found


def looked_up_layers() -> set[str]:
    """Every layer the library finds a game's module in (`game_module(name, layer)`)."""
    layers = set()
    for top in LIBRARY:
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not (isinstance(node, ast.Call) and len(node.args) == 2):
                    continue
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called != "game_module":
                    continue
                layer = node.args[1]
                if isinstance(layer, ast.Constant):
                    layers.add(layer.value)
                elif isinstance(layer, ast.Name) and layer.id == "__name__":
                    layers.add(".".join(path.relative_to(ROOT).parent.parts))
    return layers


def test_readme_lists_every_layer_the_library_looks_up() -> None:
    listed = {
        path.removesuffix("/<package>").replace("/", ".")
        for path, _ in adding_a_game()
        if path.endswith("/<package>")
    }
    assert looked_up_layers() == listed


@pytest.mark.parametrize("name", engines.names())
def test_every_game_has_every_place_readme_lists(name: str) -> None:
    package = engines.game_class(name).__module__.split(".")[1]
    places = adding_a_game()
    assert len(places) >= 10
    for path, optional in places:
        where = ROOT / path.replace("<package>", package)
        exists = where.exists() or where.with_suffix(".py").exists()
        assert exists or optional, f"{name}: README says a game has {path}; {where} is missing"
