"""Steps per second of random play, per game, beside OpenSpiel's own Python games.

    nice -n 10 python benchmarks/random_play.py --seconds 5

For each sleuth game: the engine alone (`legal_actions` + `apply_trusted`, the loop a search
runs; `clone` once per step as search does), then the same game through the OpenSpiel adapter
(chance nodes, spelled actions, `legal_actions` + `apply_action`). Then OpenSpiel's Python
tic_tac_toe and kuhn_poker (and their C++ versions) through the same pyspiel loop. A step is
one action or chance outcome. `--ismcts N [N ...]` also times the ismcts bot (N simulations a
move) on Blue Lion and Noir (`--ismcts-games` others), `--only-ismcts` without the random play.
Wall and CPU (`time.process_time`) seconds are both reported: on a shared machine the CPU
rate is the one to compare.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import engines

GAMES = {
    "alibi": {},
    "blue-lion": {},
    "noir": {},
    "city-killer": {},
    "serial-killer": {},
}


def engine_steps(name: str, budget: float, seed: int) -> Callable[[], int]:
    """A game of random engine play; returns its number of steps."""
    game = engines.make(name, **GAMES[name])
    rng = random.Random(seed)

    def play() -> int:
        state = game.new_game(rng.randrange(2**32))
        steps = 0
        while not state.is_over:
            state.clone()
            state.apply_trusted(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def spiel_steps(game: object, seed: int) -> Callable[[], int]:
    """A game of random play through pyspiel; returns its number of steps."""
    rng = random.Random(seed)

    def play() -> int:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def measure(play: Callable[[], int], budget: float) -> tuple[float, float, int, int]:
    """(steps per wall second, steps per CPU second, steps, games) over about `budget` s."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = games = 0
    while time.perf_counter() - wall < budget or games == 0:
        steps += play()
        games += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return steps / wall, steps / max(cpu, 1e-9), steps, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--ismcts", type=int, nargs="*", default=[], help="also time ismcts at N simulations a move"
    )
    parser.add_argument("--only-ismcts", action="store_true", help="skip random play")
    parser.add_argument(
        "--ismcts-games", nargs="+", default=["blue-lion", "noir"], choices=list(GAMES),
        help="the games --ismcts times",
    )  # fmt: skip
    args = parser.parse_args()
    if args.only_ismcts:
        for simulations in args.ismcts:
            for name in args.ismcts_games:
                print(ismcts_rate(name, simulations, args.seed))
        return
    rows: list[tuple[str, tuple[float, float, int, int]]] = []
    for name in GAMES:
        rows.append((f"{name} (engine)", measure(engine_steps(name, args.seconds, args.seed),
                                                 args.seconds)))  # fmt: skip
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401 - registers

        import engines.adapters.openspiel  # noqa: F401 - registers sleuth's games
        from engines.adapters import adaptable
        from engines.adapters.openspiel import short_name
    except ImportError:
        print("OpenSpiel is not installed (pip install 'sleuth[openspiel]'): engines only")
    else:
        for name in adaptable():
            game = pyspiel.load_game(short_name(name))
            rows.append((f"{name} (OpenSpiel adapter)", measure(spiel_steps(game, args.seed),
                                                                args.seconds)))  # fmt: skip
        for name in ("python_tic_tac_toe", "python_kuhn_poker", "tic_tac_toe", "kuhn_poker"):
            game = pyspiel.load_game(name)
            label = f"{name} (OpenSpiel, {'Python' if name.startswith('python') else 'C++'})"
            rows.append((label, measure(spiel_steps(game, args.seed), args.seconds)))
    print(f"{'game':42} {'steps/s wall':>13} {'steps/s CPU':>12} {'steps':>8} {'games':>6}")
    for label, (wall, cpu, steps, games) in rows:
        print(f"{label:42} {wall:13,.0f} {cpu:12,.0f} {steps:8} {games:6}")
    if args.ismcts:
        print()
    for simulations in args.ismcts:
        for name in args.ismcts_games:
            print(ismcts_rate(name, simulations, args.seed))


def ismcts_rate(name: str, simulations: int, seed: int) -> str:
    """Simulations per second of the ismcts bot over the first moves of one game (after a
    move of another, so that imports and first-use caches are not counted)."""
    import opponents

    game = engines.make(name)
    warm = game.new_game(seed + 1)
    seat = warm.to_move
    opponents.make("ismcts", game, seat, seed=seed, simulations=2).act(warm.information_set(seat))
    state, moves = game.new_game(seed), 0
    bots = {seat: opponents.make("ismcts", game, seat, seed=seed, simulations=simulations)
            for seat in game.seats}  # fmt: skip
    wall, cpu = time.perf_counter(), time.process_time()
    while moves < 10 and not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.information_set(seat)))
        moves += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done = moves * simulations
    return (
        f"ismcts on {name}: {moves} moves x {simulations} simulations: "
        f"{done / wall:,.0f} simulations/s wall, {done / cpu:,.0f} per CPU second"
    )


if __name__ == "__main__":
    main()
