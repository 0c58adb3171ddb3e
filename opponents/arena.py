"""The arena: many games between bots, in parallel processes, with confidence intervals."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

import engines
from engines import ConfigError, Game

Entry = str | tuple[str, dict]
"""A lineup entry: a bot name, or (name, options) such as ("solver", {"time_budget": 0.2})."""


@dataclass
class ArenaResult:
    """Outcomes per lineup entry (per seat when seats are not rotated).

    A shared win counts 1/k to each of the k winners.
    """

    game: str
    lineup: list[str]
    games: int = 0
    wins: list[float] = field(default_factory=list)
    points: list[list[float]] = field(default_factory=list)
    decision_times: list[list[float]] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    summaries: list[list[dict]] = field(default_factory=list)  # per entry, per game: State.summary

    def win_rate(self, entry: int) -> float:
        return self.wins[entry] / self.games if self.games else 0.0

    def interval(self, entry: int, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate (95% by default)."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.win_rate(entry)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def mean_points(self, entry: int) -> float:
        return statistics.fmean(self.points[entry]) if self.points[entry] else 0.0

    def decision_time(self, entry: int, quantile: float = 0.5) -> float:
        times = sorted(self.decision_times[entry])
        if not times:
            return 0.0
        return times[min(len(times) - 1, int(quantile * len(times)))]


@dataclass
class _GameOutcome:
    wins: list[float]
    points: list[float]
    times: list[list[float]]
    length: int
    summaries: list[dict]


def _entry(entry: Entry) -> tuple[str, dict]:
    if isinstance(entry, str):
        return entry, {}
    name, options = entry
    return name, dict(options)


def play_one(
    game_name: str,
    game_options: dict,
    lineup: Sequence[Entry],
    index: int,
    seed: int,
    rotate: bool,
) -> _GameOutcome:
    """One game; lineup entry k sits in seat (k + index) mod n when rotating."""
    from opponents.base import make

    game = engines.make(game_name, **game_options)
    seats = game.seats
    shift = index % len(seats) if rotate else 0
    seat_of = {k: seats[(k + shift) % len(seats)] for k in range(len(lineup))}
    bots = {}
    for k, entry in enumerate(lineup):
        name, options = _entry(entry)
        bots[seat_of[k]] = make(name, game, seat_of[k], seed=seed * 1000 + k, **options)
    state = game.new_game(seed=seed)
    times: dict[object, list[float]] = {seat: [] for seat in seats}
    steps = 0
    while not state.is_over:
        seat = state.to_move
        began = time.perf_counter()
        action = bots[seat].act(state.information_set(seat))
        times[seat].append(time.perf_counter() - began)
        state.apply(action)
        steps += 1
    share = 1 / len(state.winners)
    return _GameOutcome(
        [share if seat_of[k] in state.winners else 0.0 for k in range(len(lineup))],
        [state.points(seat_of[k]) for k in range(len(lineup))],
        [times[seat_of[k]] for k in range(len(lineup))],
        steps,
        [state.summary(seat_of[k]) for k in range(len(lineup))],
    )


def arena(
    game: Game,
    lineup: Sequence[Entry],
    games: int = 100,
    workers: int = 1,
    seed: int = 0,
    rotate: bool = True,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play `games` games between the bots of `lineup` (one entry per seat, in seat order).

    Args:
        game: the configured game.
        lineup: one bot per seat: a name, or (name, options).
        games: how many games.
        workers: parallel processes (1 plays in this process).
        seed: game i uses seed + i, so a tournament is reproducible.
        rotate: move every entry one seat along each game, so no bot keeps the first seat.
        progress: called with the number of games finished so far.

    Raises:
        ConfigError: wrong lineup length or a bad bot name or option.
    """
    if len(lineup) != len(game.seats):
        raise ConfigError(
            f"{game.name} needs {len(game.seats)} bots, one per seat; got {len(lineup)}"
        )
    from opponents.base import make

    for k, entry in enumerate(lineup):  # fail fast, in this process, on bad names or options
        name, options = _entry(entry)
        make(name, game, game.seats[k], **options)
    names = [_entry(entry)[0] for entry in lineup]
    result = ArenaResult(
        game.name,
        names,
        0,
        [0.0] * len(lineup),
        [[] for _ in lineup],
        [[] for _ in lineup],
        summaries=[[] for _ in lineup],
    )
    args = [
        (game.name, dict(game.options), list(lineup), i, seed + i, rotate) for i in range(games)
    ]

    def record(outcome: _GameOutcome) -> None:
        result.games += 1
        result.lengths.append(outcome.length)
        for k in range(len(lineup)):
            result.wins[k] += outcome.wins[k]
            result.points[k].append(outcome.points[k])
            result.decision_times[k].extend(outcome.times[k])
            result.summaries[k].append(outcome.summaries[k])
        if progress is not None:
            progress(result.games)

    if workers <= 1:
        for arg in args:
            record(play_one(*arg))
        return result
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for future in as_completed([pool.submit(play_one, *arg) for arg in args]):
            record(future.result())
    return result
