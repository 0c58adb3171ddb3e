"""Bots and the arena refuse what they cannot use, with a SleuthError that says why.

Every bot acts only for its own seat, in its own game, on its turn; knobs are checked when a
bot or a tournament is made; arena results are read by seat (the game's seats) and by entry.
"""

from __future__ import annotations

import math

import pytest

import engines
import opponents
from engines import ConfigError, Game, InformationSet, SleuthError, State
from opponents import ArenaResult, GameRecord, WrongInformationSet, wilson

GAMES = {
    "alibi": engines.make("alibi", players=3, deck="small"),
    "blue-lion": engines.make("blue-lion"),
    "noir": engines.make("noir"),
}
KINDS = ("random", "heuristic", "solver")
CASES = [(game, kind) for game in GAMES for kind in KINDS]


def opening(game: Game) -> State:
    """A state a few moves in, at a decision of the seat to move."""
    state = game.new_game(seed=5)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    return state


def other_seat(game: Game, seat: object) -> engines.Seat:
    return next(s for s in game.seats if s != seat)


def bot_for(game: Game, kind: str, seat: engines.Seat) -> opponents.Bot:
    options = {"time_budget": 5.0} if kind == "solver" else {}
    return opponents.make(kind, game, seat, seed=0, **options)


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_a_bot_refuses_another_seats_information_set(name: str, kind: str) -> None:
    game = GAMES[name]
    state = opening(game)
    mover = state.to_move
    assert mover is not None
    bot = bot_for(game, kind, other_seat(game, mover))
    with pytest.raises(WrongInformationSet) as refused:
        bot.act(state.information_set(mover))
    message = str(refused.value)
    assert repr(mover) in message and repr(bot.seat) in message
    assert isinstance(refused.value, SleuthError | ValueError)


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_a_bot_refuses_to_move_out_of_turn(name: str, kind: str) -> None:
    game = GAMES[name]
    state = opening(game)
    waiting = other_seat(game, state.to_move)
    bot = bot_for(game, kind, waiting)
    with pytest.raises(WrongInformationSet, match=repr(waiting)):
        bot.act(state.information_set(waiting))


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_a_bot_refuses_another_games_information_set(name: str, kind: str) -> None:
    game = GAMES[name]
    other = next(g for g in GAMES.values() if g.name != name)
    state = opening(other)
    seat = state.to_move
    assert seat is not None
    info = state.information_set(seat)
    mine = InformationSet(other.name, info.options, game.seats[0], info.observations)
    with pytest.raises(WrongInformationSet, match=f"'{other.name}'"):
        bot_for(game, kind, game.seats[0]).act(mine)


def test_a_bot_refuses_the_same_game_with_other_options() -> None:
    small, full = GAMES["alibi"], engines.make("alibi", players=3)
    state = opening(full)
    seat = state.to_move
    assert seat is not None
    with pytest.raises(WrongInformationSet, match="options"):
        bot_for(small, "heuristic", seat).act(state.information_set(seat))


@pytest.mark.parametrize(("name", "kind"), CASES)
@pytest.mark.parametrize("junk", [None, "lay t1", 7, {"seat": 0}])
def test_a_bot_refuses_what_is_not_an_information_set(name: str, kind: str, junk: object) -> None:
    game = GAMES[name]
    with pytest.raises(WrongInformationSet, match="InformationSet"):
        bot_for(game, kind, game.seats[0]).act(junk)  # type: ignore[arg-type]


def test_a_bool_is_not_seat_1() -> None:
    """`True == 1` in Python: neither a bot nor its information set may pass True for 1."""
    game = GAMES["alibi"]
    with pytest.raises(ConfigError, match="no seat True"):
        opponents.make("random", game, True)
    info = game.new_game(seed=5).information_set(1)
    forged = InformationSet(info.game, info.options, True, info.observations)
    with pytest.raises(WrongInformationSet, match="seat True"):
        opponents.make("random", game, 1).act(forged)


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_a_bot_refuses_a_finished_game(name: str, kind: str) -> None:
    game = GAMES[name]
    state = game.new_game(seed=2)
    bots = {seat: opponents.make("random", game, seat, seed=1) for seat in game.seats}
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
    with pytest.raises(WrongInformationSet):
        bot_for(game, kind, game.seats[0]).act(state.information_set(game.seats[0]))


# --- knobs ----------------------------------------------------------------------------------
BAD_BUDGETS = [math.nan, math.inf, -math.inf, -1.0, 0, 0.0, True, "1"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("budget", BAD_BUDGETS, ids=repr)
def test_a_time_budget_is_a_finite_number_above_zero(name: str, budget: object) -> None:
    game = GAMES[name]
    with pytest.raises(ConfigError, match="finite number of seconds > 0") as refused:
        opponents.make("solver", game, game.seats[0], time_budget=budget)
    assert repr(budget) in str(refused.value)


@pytest.mark.parametrize("name", GAMES)
def test_good_time_budgets_are_kept(name: str) -> None:
    game = GAMES[name]
    bot = opponents.make("solver", game, game.seats[0], time_budget=3)
    assert bot.time_budget == 3.0  # type: ignore[attr-defined]


@pytest.mark.parametrize("option", ["max_depth", "max_nodes"])
@pytest.mark.parametrize("value", [0, -2, 1.5, True, "3"], ids=repr)
def test_blue_lion_search_bounds_are_positive_integers(option: str, value: object) -> None:
    with pytest.raises(ConfigError, match=f"{option} must be an integer >= 1"):
        opponents.make("solver", GAMES["blue-lion"], "lupin", **{option: value})


@pytest.mark.parametrize("seed", ["x", 1.5, True, [1]], ids=repr)
def test_a_bot_seed_is_an_int_or_none(seed: object) -> None:
    with pytest.raises(ConfigError, match="seed"):
        opponents.make("random", GAMES["noir"], "killer", seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [None, 3, "Solver", ""], ids=repr)
def test_unknown_bot_names(name: object) -> None:
    with pytest.raises(ConfigError, match="unknown bot"):
        opponents.make(name, GAMES["noir"], "killer")  # type: ignore[arg-type]


def test_a_bot_needs_a_game() -> None:
    with pytest.raises(ConfigError, match=r"engines\.Game"):
        opponents.make("random", "noir", "killer")  # type: ignore[arg-type]


# --- the arena's arguments ------------------------------------------------------------------
NOIR = GAMES["noir"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"games": 0}, "games must be an integer >= 1, got 0"),
        ({"games": -1}, "games must be an integer >= 1, got -1"),
        ({"games": 2.0}, "games must be an integer"),
        ({"games": True}, "games must be an integer"),
        ({"workers": 0}, "workers must be an integer >= 1, got 0"),
        ({"workers": -3}, "workers must be an integer >= 1"),
        ({"workers": "2"}, "workers must be an integer"),
        ({"seed": "x"}, "seed must be an integer, got 'x'"),
        ({"seed": None}, "seed must be an integer"),
        ({"seed": 1.5}, "seed must be an integer"),
        ({"lineup": ["random"]}, "needs 2 bots, one per seat"),
        ({"lineup": ["random"] * 3}, "needs 2 bots"),
        ({"lineup": "random,random"}, "a lineup is a list"),
        ({"lineup": ["random", "genius"]}, "unknown bot 'genius'"),
        ({"lineup": ["random", ("solver",)]}, "a bot name or \\(name, options dict\\)"),
        ({"lineup": ["random", ("solver", 3)]}, "a bot name or"),
        ({"lineup": ["random", 7]}, "a bot name or"),
        ({"lineup": ["random", ("solver", {"time_budget": math.nan})]}, "finite number"),
        ({"lineup": ["random", ("heuristic", {"depth": 2})]}, "no options"),
        ({"game": "noir"}, "engines.Game"),
    ],
)
def test_the_arena_refuses_bad_arguments(arguments: dict, message: str) -> None:
    call = {"game": NOIR, "lineup": ["random", "random"], "games": 1, **arguments}
    with pytest.raises(ConfigError, match=message):
        opponents.arena(**call)


# --- results by seat ------------------------------------------------------------------------
def _record(index: int, seats: tuple[str, str], wins: tuple[float, float]) -> GameRecord:
    return GameRecord(index, seats, wins, (0.0, 0.0), ((0.1,), (0.2,)), 10, ({}, {}))


def rotated_result() -> ArenaResult:
    """Entry 0 wins every game as killer and loses every game as inspector; 3 games of each."""
    records = [
        _record(i, ("killer", "inspector") if i % 2 == 0 else ("inspector", "killer"),
                (1.0, 0.0) if i % 2 == 0 else (0.0, 1.0))
        for i in range(6)
    ]  # fmt: skip
    return ArenaResult("noir", ("killer", "inspector"), ["solver", "heuristic"], records)


def test_results_by_seat_follow_the_seats_not_the_lineup() -> None:
    result = rotated_result()
    assert result.wins == [6.0, 0.0]  # the killer always won
    assert result.win_rate("killer") == 1.0 and result.win_rate("inspector") == 0.0
    assert result.interval("killer") == wilson(6, 6)


def test_results_by_entry_and_seat_do_not_mix_the_roles() -> None:
    result = rotated_result()
    assert result.entry_wins == [3.0, 3.0] and result.entry_win_rate(0) == 0.5
    assert result.win_rate("killer", entry=0) == 1.0
    assert result.win_rate("inspector", entry=0) == 0.0
    assert result.games_in("killer", entry=1) == 3
    assert result.seats_of(0) == ["killer", "inspector"] and result.rotated and result.roles
    assert result.decision_time(1, seat="inspector") == pytest.approx(0.2)


@pytest.mark.parametrize("seat", ["zenigata", 0, None, True], ids=repr)
def test_an_unknown_seat_is_refused(seat: object) -> None:
    with pytest.raises(ConfigError, match="no seat"):
        rotated_result().win_rate(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("entry", [2, -1, "0", True], ids=repr)
def test_an_unknown_entry_is_refused(entry: object) -> None:
    result = rotated_result()
    with pytest.raises(ConfigError, match="entry"):
        result.entry_win_rate(entry)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="entry"):
        result.win_rate("killer", entry=entry)  # type: ignore[arg-type]


def test_a_real_arena_reports_each_seat_and_each_role() -> None:
    result = opponents.arena(NOIR, ["heuristic", "random"], games=4, seed=2)
    assert result.games == 4 and len(result.wins) == 2
    assert sum(result.wins) == pytest.approx(4) == sum(result.entry_wins)
    for seat in NOIR.seats:
        assert result.games_in(seat) == 4
        assert sum(result.games_in(seat, entry=k) for k in range(2)) == 4
        both = sum(result.wins_in(seat, entry=k) for k in range(2))
        assert both == pytest.approx(result.wins_in(seat))
    assert [r.index for r in result.records] == [0, 1, 2, 3]


def test_wilson_interval() -> None:
    low, high = wilson(65, 100)
    assert (round(low, 3), round(high, 3)) == (0.553, 0.736)
    assert wilson(0, 0) == (0.0, 1.0)
