"""The Serial Killer benchmark's loss breakdown (benchmarks/serial_killer.py): every game the
solver lost is put down to one cause read from its own end-of-game summary."""

from __future__ import annotations

import random

import engines
import opponents
from engines.serial_killer import Declare
from opponents import ArenaResult, GameRecord
from tests import benchmark_scripts


def record(index: int, won: bool, **solver: object) -> GameRecord:
    summary = {"declared": False, "killer_won": False, "nobody_reached": False, **solver}
    others = {"declared": False, "killer_won": not won, "nobody_reached": False}
    return GameRecord(
        index,
        (0, 1),
        (1.0 if won else 0.0, 0.0),
        (0.0, 0.0),
        ((), ()),
        0,
        (summary, others),
    )


def test_each_lost_game_has_one_cause() -> None:
    records = [
        record(0, True, declared=True, correct=True),
        record(1, False, declared=True, correct=False, killer_won=True),
        record(2, False, declared=True, correct=False, killer_won=True),
        record(3, False, killer_won=True),
        record(4, False, killer_won=True, nobody_reached=True),
        record(5, False, declared=True, correct=True, killer_won=True, nobody_reached=True),
        record(6, False, declared=True, correct=False),
    ]
    result = ArenaResult("serial-killer", (0, 1), ["solver", "heuristic"], records)
    assert benchmark_scripts.load("serial_killer", "serial_killer_benchmark").losses(result) == (
        "the killer won, the solver's declaration wrong 2; "
        "the killer won, no roll of the solver's made it 1; all lose 1; "
        "all lose, the solver declared 1; a rival won 1"
    )


def test_the_sweep_table_counts_games_by_the_cards_left_when_the_sweep_began() -> None:
    """A game's sweep begins in the first round in which the solver spent at least SWEEP
    points; a game is counted once, in the band of the cards left then, and as caught when
    ferocity had reached the solver's points."""
    sweep = benchmark_scripts.load("serial_killer_sweep", "serial_killer_sweep_benchmark")
    Round, Game = sweep.Round, sweep.Game

    def game(won: bool, *rounds: tuple[int, int, int]) -> object:
        return Game(won, tuple(Round(n, *r) for n, r in enumerate(rounds, 1)), {})

    games = [
        game(True, (20, 80, 60), (5, 78, 68), (0, 40, 75)),  # spent 2, then 38 with 5 left
        game(False, (12, 80, 66), (3, 60, 74)),  # 20 with 12 left
        game(False, (9, 74, 74), (2, 50, 82)),  # caught: ferocity 74 against 74 points
        game(False, (30, 80, 55), (25, 79, 60)),  # never spent 8 in a round
    ]
    assert sweep.sweep_start(games[0]) == Round(2, 5, 78, 68)
    assert sweep.sweep_table(games) == [
        "5-6 cards left: won 1 of 1 (100%)",
        "8-9 cards left: won 0 of 1 (0%)",
        "10-35 cards left: won 0 of 1 (0%)",
        "not caught when it began: won 1 of 2 (50%)",
        "caught when it began: won 0 of 1 (0%)",
        "no sweep: won 0 of 1",
    ]


def test_the_pace_table_counts_games_by_the_cards_left_at_the_start_of_round_five() -> None:
    """A game is counted in the band of the cards left when round PACE_ROUND began, with the
    solver's points then; a game over sooner is counted apart."""
    sweep = benchmark_scripts.load("serial_killer_sweep", "serial_killer_sweep_benchmark")
    Round, Game = sweep.Round, sweep.Game

    def game(won: bool, *left_points: tuple[int, int]) -> object:
        rounds = (
            Round(n, left, points, 50 + 5 * n) for n, (left, points) in enumerate(left_points, 1)
        )
        return Game(won, tuple(rounds), {})

    full = [(35, 80), (25, 80), (17, 80), (10, 79)]
    games = [
        game(True, *full, (4, 72)),
        game(False, *full, (5, 68)),
        game(False, *full, (12, 77), (9, 60)),
        game(False, (35, 80), (20, 80), (3, 80)),  # the rivals emptied the decks by round 3
    ]
    assert sweep.pace_table(games) == [
        "0-5 cards left: won 1 of 2 (50%); the solver held 70 points",
        "12-35 cards left: won 0 of 1 (0%); the solver held 77 points",
        "over before round 5: won 0 of 1",
    ]


def test_wins_are_counted_by_the_solvers_place_in_the_turn_order() -> None:
    """Place 0 is the first player; the solver's seat counts from the game's first player."""
    records = [
        record(0, True),  # seat 0, first player 0: place 0
        record(1, False),  # seat 0, first player 1: place 1
        record(2, True),  # seat 0, first player 1: place 1
    ]
    result = ArenaResult("serial-killer", (0, 1), ["solver", "heuristic"], records)
    benchmark = benchmark_scripts.load("serial_killer", "serial_killer_benchmark")
    assert benchmark.by_turn(result, [0, 1, 1]) == "0: 1/1 (100.0%); 1: 1/2 (50.0%)"
    assert benchmark.by_turn(result, [0, 0, 0]) == "0: 2/3 (66.7%); 1: 0/0"


def test_a_race_row_counts_the_killer_and_the_collective_loss_apart() -> None:
    bench = benchmark_scripts.load("serial_killer", "serial_killer_benchmark")
    Outcome = bench.Outcome
    outcomes = [
        Outcome(1.0, True, False),
        Outcome(0.0, True, True),  # another seat won (the reveal reading judged it)
        Outcome(0.0, False, True),
        Outcome(0.0, False, False),
    ]
    row = bench.race_row("x", "literal", outcomes)
    assert row.startswith("| x | literal | 4 | 1 (25.0%, 95% 4.6%-69.9%) |")
    assert row.endswith("| 50.0% | 25.0% | 25.0% |")


def test_the_rush_oracle_declares_the_truth_only() -> None:
    bench = benchmark_scripts.load("serial_killer", "serial_killer_benchmark")
    game = engines.make("serial-killer", players=4)
    state = game.new_game(seed=5)
    rush = bench.RushOracle(game, 0, random.Random(0))
    rush.truth = state.profile()
    bots = [rush, *(opponents.make("careful", game, s, seed=s) for s in (1, 2, 3))]
    declared = 0
    while (mover := state.to_move) is not None:
        action = bots[mover].act(state.information_set(mover))
        if mover == 0 and isinstance(action, Declare):
            declared += 1
            assert action.profile == state.profile()
        state.apply(action)
    assert declared >= 1 and state.end_reason == "the decks are exhausted"


def test_the_rush_on_its_own_deduction_declares_one_of_its_candidates() -> None:
    bench = benchmark_scripts.load("serial_killer", "serial_killer_benchmark")
    game = engines.make("serial-killer", players=4)
    state = game.new_game(seed=6)
    bots = [bench.RushOwnDeduction(game, s, random.Random(s)) for s in range(4)]
    for bot in bots:
        bot.truth = state.profile()  # hidden from its declarations all the same
    declared = 0
    while (mover := state.to_move) is not None:
        info = state.information_set(mover)
        action = bots[mover].act(info)
        if isinstance(action, Declare):
            declared += 1
            candidates = bench.own_candidates(bench.parse(info))
            chosen = zip(action.profile, candidates.values(), strict=True)
            assert all(card in cards for card, cards in chosen)
        state.apply(action)
    assert declared >= 1


def test_a_table_of_four_counts_the_first_entrys_seat_by_the_arenas_rotation() -> None:
    bench = benchmark_scripts.load("serial_killer", "serial_killer_benchmark")
    outcome = bench.play_oracle(({}, "rush oracle", "rush oracle", 1, 3))
    assert outcome.first in (0.0, 1.0) and (outcome.first == 0.0 or outcome.anyone)
