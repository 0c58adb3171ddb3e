"""Blue Lion's bots and the arena: legal moves from information sets only, budgets, strength."""

from __future__ import annotations

import random

import pytest

import engines
import opponents
import solver
from engines import ConfigError, InformationSet
from solver.games import blue_lion as knowledge

GAME = engines.make("blue-lion")


def random_positions(count: int, seed: int = 0) -> list[engines.State]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.new_game(rng.randrange(10**6))
        for _ in range(rng.randrange(60)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            found.append(state)
    return found


@pytest.mark.parametrize("name", ["random", "heuristic", "solver"])
def test_bots_play_legal_moves_from_the_information_set_alone(name: str) -> None:
    options: dict[str, object] = {}
    for k, state in enumerate(random_positions(25)):
        bot = opponents.make(name, GAME, state.to_move, seed=k, **options)
        info = InformationSet.from_json(state.information_set(state.to_move).to_json())
        assert bot.act(info) in state.legal_actions()


def test_solver_bot_search_is_bounded_by_nodes() -> None:
    """Work, not the clock, bounds the search: a node budget holds (the last node counted
    may overshoot by one), and a smaller budget searches less deep."""
    for k, state in enumerate(random_positions(20, seed=1)):
        seat, info = state.to_move, state.information_set(state.to_move)
        small = opponents.make("solver", GAME, seat, seed=k, max_nodes=300)
        large = opponents.make("solver", GAME, seat, seed=k, max_depth=6, max_nodes=3000)
        small.act(info)
        large.act(info)
        assert small.nodes <= 300 + 1 and large.nodes <= 3000 + 1
        assert small.last_depth <= large.last_depth


def test_solver_bot_is_deterministic_for_a_seed() -> None:
    """Same seed, same moves, however loaded the machine (the time budget is only a ceiling
    far above the node budget here)."""
    for k, state in enumerate(random_positions(10, seed=4)):
        seat, info = state.to_move, state.information_set(state.to_move)
        options = {"max_depth": 4, "max_nodes": 4000}
        runs = [opponents.make("solver", GAME, seat, seed=k, **options) for _ in range(2)]
        moves = [bot.act(info) for bot in runs]
        assert moves[0] == moves[1]
        assert runs[0].nodes == runs[1].nodes and runs[0].last_depth == runs[1].last_depth


def winning_moves(state: engines.State) -> list[engines.Action]:
    """Moves that win at once whatever the hidden backs (no blind flip involved)."""
    wins = []
    for action in state.legal_actions():
        if getattr(action, "flipped_tile", None) is None:
            trial = state.clone()
            trial.apply(action)
            if trial.is_over and trial.winners == (state.to_move,):
                wins.append(action)
    return wins


def test_solver_bot_takes_a_sure_win() -> None:
    positions = []
    for seed in range(400):
        state = GAME.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over and len(positions) < 12:
            if winning_moves(state) and len(winning_moves(state)) < len(state.legal_actions()):
                positions.append(state.clone())
                break
            state.apply(rng.choice(state.legal_actions()))
    assert len(positions) == 12
    for k, state in enumerate(positions):
        seat = state.to_move
        info = state.information_set(seat)
        action = opponents.make("solver", GAME, seat, seed=k).act(info)
        if action in winning_moves(state):
            continue
        tile = action.flipped_tile  # a flip is a sure win only if its back is certain
        backs = {w[tile] for w in knowledge.position(info, solver.deduce(info))[1]}
        trial = state.clone()
        trial.apply(action)
        assert len(backs) == 1 and trial.winners == (seat,), f"missed a sure win: {action}"


def test_solver_bot_avoids_handing_over_points() -> None:
    """Greedy play sees no difference between quiet moves; lookahead does."""
    gifts = {"heuristic": 0, "solver": 0}
    for k, state in enumerate(random_positions(40, seed=2)):
        seat = state.to_move
        info = state.information_set(seat)
        for name in gifts:
            options = {"max_nodes": 4000} if name == "solver" else {}
            after = state.clone()
            after.apply(opponents.make(name, GAME, seat, seed=k, **options).act(info))
            while not after.is_over and after.to_move == seat:
                after.apply(after.legal_actions()[0])
            if after.is_over:
                continue
            opponent = after.to_move
            before = after.scores[opponent]
            after.apply(
                opponents.make("heuristic", GAME, opponent, seed=k).act(
                    after.information_set(opponent)
                )
            )
            gifts[name] += after.scores[opponent] > before
    assert gifts["solver"] < gifts["heuristic"]


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("genius", {}, "unknown bot 'genius'"),
        ("solver", {"depth": 3}, "no option 'depth'"),
        ("solver", {"time_budget": "fast"}, "time_budget"),
        ("random", {"time_budget": 1.0}, "no options"),
    ],
)
def test_bad_bot_names_and_options(name: str, options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        opponents.make(name, GAME, "lupin", **options)


def test_bad_seat_for_a_bot() -> None:
    with pytest.raises(ConfigError, match="no seat"):
        opponents.make("random", GAME, "zenigata")


def test_arena_counts_every_game_and_rotates_seats() -> None:
    result = opponents.arena(GAME, ["heuristic", "random"], games=6, workers=1, seed=3)
    assert result.games == 6 and sum(result.wins) == pytest.approx(6)
    assert result.entry_win_rate(0) > result.entry_win_rate(1)
    low, high = result.entry_interval(0)
    assert 0 <= low <= result.entry_win_rate(0) <= high <= 1
    assert all(len(points) == 6 for points in result.points)
    assert [result.games_in(seat, entry=0) for seat in GAME.seats] == [3, 3]
    assert result.win_rate("lupin") + result.win_rate("fujiko") == pytest.approx(1)


def test_arena_in_parallel_processes_matches_the_serial_run() -> None:
    serial = opponents.arena(GAME, ["heuristic", "random"], games=4, workers=1, seed=5)
    parallel = opponents.arena(GAME, ["heuristic", "random"], games=4, workers=2, seed=5)

    def outcomes(result: opponents.ArenaResult) -> list[tuple]:
        return [(r.index, r.seats, r.wins, r.points, r.length) for r in result.records]

    assert outcomes(serial) == outcomes(parallel)  # in game order, whoever finished first


def test_arena_rejects_a_wrong_lineup() -> None:
    with pytest.raises(ConfigError, match="needs 2 bots"):
        opponents.arena(GAME, ["solver"], games=1)
