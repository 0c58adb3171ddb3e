"""A small Blue Lion tournament between the three bots, each pairing with seats alternated.

Run: python examples/blue_lion_tournament.py [GAMES]
"""

from __future__ import annotations

import sys

import engines
import opponents


def main(games: int = 20) -> dict[str, float]:
    """Print, and return, the first bot's win rate in each pairing."""
    game = engines.make("blue-lion")
    rates = {}
    for first, second in (("solver", "heuristic"), ("heuristic", "random")):
        result = opponents.arena(
            game,
            [(first, {"max_depth": 2}) if first == "solver" else first, second],
            games=games,
            workers=2,
            seed=0,
        )
        low, high = result.entry_interval(0)  # the first bot, in either seat
        rate = rates[f"{first} vs {second}"] = result.entry_win_rate(0)
        print(f"{first} vs {second}: {rate:.0%} (95% CI {low:.0%}-{high:.0%})")
        for seat in game.seats:
            print(f"  as {seat}: {result.win_rate(seat, entry=0):.0%}")
    return rates


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
