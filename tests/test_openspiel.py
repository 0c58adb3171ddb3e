"""OpenSpiel's own checks on every adaptable game (engines/adapters/openspiel.py): its
`random_sim_test` with serialisation, and its Python API test (`GamesSimTest.sim_game`:
clones, pyspiel and pickle serialisation, returns in bounds)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import engines

pyspiel = pytest.importorskip("pyspiel", reason="the extra sleuth[openspiel] is not installed")
games_sim_test = pytest.importorskip("open_spiel.python.tests.games_sim_test")
from engines.adapters.openspiel import short_name  # noqa: E402

# Small configurations keep random games short (a default Blue Lion may last 200 turns).
CONFIGS = {
    "alibi": "sleuth_alibi(players=3,deck=small,round_limit=3)",
    "blue-lion": "sleuth_blue_lion(target=4,turn_limit=30)",
    "city-killer": "sleuth_city_killer(residents=8)",
    "noir": "sleuth_noir(grid=4,turn_limit=40)",
    "serial-killer": "sleuth_serial_killer(players=3,genres=3,traits_per_genre=4,start_points=30)",
}


def load(name: str) -> pyspiel.Game:
    return pyspiel.load_game(CONFIGS[name])


@pytest.mark.parametrize("name", engines.names())
def test_random_sim_test(name: str) -> None:
    np.random.seed(0)
    pyspiel.random_sim_test(load(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", engines.names())
def test_python_api(name: str) -> None:
    np.random.seed(1)
    games_sim_test.GamesSimTest().sim_game(load(name))


@pytest.mark.parametrize("name", engines.names())
def test_undo_action(name: str) -> None:
    load(name)
    pytest.skip(
        "OpenSpiel's Python games cannot undo: pyspiel's trampoline has no UndoAction, and "
        "the history it keeps cannot be shortened from Python; State.undo() is checked in "
        "tests/test_core_api.py"
    )


def test_defaults_and_options_are_parameters() -> None:
    game = pyspiel.load_game("sleuth_alibi(players=5,round_limit=3)")
    assert game.engine.options["players"] == 5 and game.num_players() == 5
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    # A string option given another type's value is read as JSON (OpenSpiel's game string
    # would read the digit back as a number, so such a game is made from a dict).
    seated = pyspiel.load_game(short_name("alibi"), {"dealer": "2"})
    assert seated.engine.options["dealer"] == 2
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("sleuth_blue_lion(turn_limit=null)")


def test_spelled_actions_and_views() -> None:
    """Alibi's passes are spelled card by card: the mover stays to move, and only the mover's
    information state shows the cards chosen so far."""
    game = load("alibi")
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    spelled = False
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        before = {p: state.information_state_string(p) for p in range(game.num_players())}
        state.apply_action(int(rng.choice(state.legal_actions())))
        if not state.is_terminal() and state.current_player() == player and state.spelling.prefix:
            spelled = True
            for p in range(game.num_players()):
                changed = state.information_state_string(p) != before[p]
                assert changed == (p == player)
    assert spelled, "some pass was spelled in several ids"
