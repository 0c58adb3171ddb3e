"""The arena: many games between bots, in parallel processes or on a Ray cluster, with
confidence intervals.

Results are reported by seat (the game's seats, in seat order: the contract of DESIGN.md),
by lineup entry (a bot, wherever it sat), and by entry and seat together, so that rotating a
bot through the roles of a two-role game never mixes its figures as killer and as inspector.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

import engines
import solver
from engines import ConfigError, Game, Seat
from opponents.base import quote, same_seat
from opponents.factory import make

Entry = str | tuple[str, Mapping[str, object]]
"""A lineup entry: a bot name, or (name, options) such as ("solver", {"time_budget": 0.2})."""


@dataclass(frozen=True)
class GameRecord:
    """One game's outcome, per lineup entry (index k of each tuple is entry k)."""

    index: int
    seats: tuple[Seat, ...]
    """The seat entry k played."""
    wins: tuple[float, ...]
    """1/k to each of the k winners, 0 to the others."""
    points: tuple[float, ...]
    times: tuple[tuple[float, ...], ...]
    """Seconds each of the entry's decisions took."""
    length: int
    summaries: tuple[Mapping[str, object], ...]
    state: str | None = None
    """The final state's JSON, when the arena keeps it (`keep_states`): what `sleuth review`
    reads."""


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); (0, 1) with no games."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaResult:
    """Every game's record, and the figures read off them.

    By seat: `wins` (in seat order), `win_rate(seat)`, `interval(seat)`. By lineup entry:
    `entry_wins`, `entry_win_rate(k)`, `entry_interval(k)`, `mean_points(k)`,
    `decision_time(k)`. By entry in one seat: `win_rate(seat, entry=k)` and so on. A shared
    win counts 1/k to each of the k winners.
    """

    game: str
    seats: tuple[Seat, ...]
    lineup: list[str]
    records: list[GameRecord]

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def roles(self) -> bool:
        """Whether the seats are roles ("killer", "lupin"), not interchangeable numbers."""
        return all(isinstance(seat, str) for seat in self.seats)

    @property
    def rotated(self) -> bool:
        """Whether some entry played more than one seat."""
        return any(len(self.seats_of(k)) > 1 for k in range(len(self.lineup)))

    # --- by seat --------------------------------------------------------------------------
    @property
    def wins(self) -> list[float]:
        """Wins per seat, in seat order."""
        return [self.wins_in(seat) for seat in self.seats]

    def games_in(self, seat: Seat, entry: int | None = None) -> int:
        """Games played in `seat` (by entry `entry` only, if given)."""
        return len(self._cells(seat, entry))

    def wins_in(self, seat: Seat, entry: int | None = None) -> float:
        return sum(record.wins[k] for record, k in self._cells(seat, entry))

    def win_rate(self, seat: Seat, entry: int | None = None) -> float:
        """The share of games won in `seat` (by entry `entry`, if given); 0 with no games.

        Raises:
            ConfigError: `seat` is not one of the game's seats, or `entry` not an entry.
        """
        games = self.games_in(seat, entry)
        return self.wins_in(seat, entry) / games if games else 0.0

    def interval(
        self, seat: Seat, entry: int | None = None, z: float = 1.96
    ) -> tuple[float, float]:
        """The Wilson 95% interval of `win_rate(seat, entry)`."""
        return wilson(self.wins_in(seat, entry), self.games_in(seat, entry), z)

    # --- by lineup entry ------------------------------------------------------------------
    @property
    def entry_wins(self) -> list[float]:
        """Wins per lineup entry, wherever it sat."""
        return [sum(record.wins[k] for record in self.records) for k in range(len(self.lineup))]

    def entry_win_rate(self, entry: int) -> float:
        self._check_entry(entry)
        return self.entry_wins[entry] / self.games if self.games else 0.0

    def entry_interval(self, entry: int, z: float = 1.96) -> tuple[float, float]:
        self._check_entry(entry)
        return wilson(self.entry_wins[entry], self.games, z)

    def seats_of(self, entry: int) -> list[Seat]:
        """The seats `entry` played, in seat order."""
        self._check_entry(entry)
        played = {record.seats[entry] for record in self.records}
        return [seat for seat in self.seats if seat in played]

    def mean_points(self, entry: int, seat: Seat | None = None) -> float:
        points = [record.points[k] for record, k in self._entry_cells(entry, seat)]
        return statistics.fmean(points) if points else 0.0

    def decision_time(self, entry: int, quantile: float = 0.5, seat: Seat | None = None) -> float:
        times = sorted(t for record, k in self._entry_cells(entry, seat) for t in record.times[k])
        if not times:
            return 0.0
        return times[min(len(times) - 1, int(quantile * len(times)))]

    def summaries_of(self, entry: int, seat: Seat | None = None) -> list[Mapping[str, object]]:
        """What each game's `State.summary` said about `entry` (in `seat`, if given)."""
        return [record.summaries[k] for record, k in self._entry_cells(entry, seat)]

    @property
    def points(self) -> list[list[float]]:
        """Per entry, its points in each game."""
        return [[r.points[k] for r in self.records] for k in range(len(self.lineup))]

    @property
    def decision_times(self) -> list[list[float]]:
        """Per entry, the seconds each of its decisions took."""
        return [[t for r in self.records for t in r.times[k]] for k in range(len(self.lineup))]

    @property
    def lengths(self) -> list[int]:
        """Actions per game."""
        return [record.length for record in self.records]

    # --- selection ------------------------------------------------------------------------
    def _cells(self, seat: Seat, entry: int | None) -> list[tuple[GameRecord, int]]:
        """(record, entry index) for every game in which `seat` was played (by `entry`)."""
        self._check_seat(seat)
        if entry is not None:
            self._check_entry(entry)
        return [
            (record, k)
            for record in self.records
            for k, played in enumerate(record.seats)
            if played == seat and entry in (None, k)
        ]

    def _entry_cells(self, entry: int, seat: Seat | None) -> list[tuple[GameRecord, int]]:
        self._check_entry(entry)
        if seat is not None:
            return self._cells(seat, entry)
        return [(record, entry) for record in self.records]

    def _check_seat(self, seat: object) -> None:
        if not any(same_seat(seat, known) for known in self.seats):
            raise ConfigError(f"{self.game} has no seat {quote(seat)}; seats: {self.seats}")

    def _check_entry(self, entry: object) -> None:
        if isinstance(entry, bool) or not isinstance(entry, int):
            raise ConfigError(f"a lineup entry is an index, got {quote(entry)}")
        if not 0 <= entry < len(self.lineup):
            raise ConfigError(
                f"no lineup entry {entry}; entries are 0-{len(self.lineup) - 1} ({self.lineup})"
            )


def label(entry: Entry) -> str:
    """A lineup entry as its results name it: the bot, with its options except the time
    ceiling (a safety limit, not a setting of strength), "solver(model=random)"."""
    name, options = _entry(entry)
    shown = ", ".join(f"{key}={value}" for key, value in options.items() if key != "time_budget")
    return f"{name}({shown})" if shown else name


def _entry(entry: object) -> tuple[str, dict[str, object]]:
    """(name, options) of a lineup entry; ConfigError if it is neither a name nor a pair."""
    if isinstance(entry, str):
        return entry, {}
    if (
        isinstance(entry, tuple | list)
        and len(entry) == 2
        and isinstance(entry[0], str)
        and isinstance(entry[1], Mapping)
        and all(isinstance(key, str) for key in entry[1])
    ):
        return entry[0], dict(entry[1])
    raise ConfigError(f"a lineup entry is a bot name or (name, options dict), got {quote(entry)}")


def play_one(
    game_name: str,
    game_options: dict[str, object],
    lineup: Sequence[Entry],
    index: int,
    seed: int,
    rotate: bool,
    keep_state: bool = False,
) -> GameRecord:
    """One game; lineup entry k sits in seat (k + index) mod n when rotating; with
    `keep_state`, the record holds the final state's JSON."""
    game = engines.make(game_name, **game_options)
    seats = game.seats
    shift = index % len(seats) if rotate else 0
    seat_of = [seats[(k + shift) % len(seats)] for k in range(len(lineup))]
    bots = {}
    for k, entry in enumerate(lineup):
        name, options = _entry(entry)
        bots[seat_of[k]] = make(name, game, seat_of[k], seed=seed * 1000 + k, **options)
    solver.forget()  # the game is played as in a fresh process, whichever worker plays it
    state = game.new_game(seed=seed)
    times: dict[Seat, list[float]] = {seat: [] for seat in seats}
    steps = 0
    while (seat := state.to_move) is not None:
        began = time.perf_counter()
        action = bots[seat].act(state.information_set(seat))
        times[seat].append(time.perf_counter() - began)
        state.apply(action)
        steps += 1
    share = 1 / len(state.winners) if state.winners else 0.0
    return GameRecord(
        index,
        tuple(seat_of),
        tuple(share if seat in state.winners else 0.0 for seat in seat_of),
        tuple(float(state.points(seat)) for seat in seat_of),
        tuple(tuple(times[seat]) for seat in seat_of),
        steps,
        tuple(state.summary(seat) for seat in seat_of),
        state.to_json() if keep_state else None,
    )


BACKENDS = ("process", "ray")
"""Where the games run: this machine's processes, or a Ray cluster (the `ray` extra)."""


def arena(
    game: Game,
    lineup: Sequence[Entry],
    games: int = 100,
    workers: int = 1,
    seed: int = 0,
    rotate: bool = True,
    progress: Callable[[int], None] | None = None,
    backend: str = "process",
    keep_states: bool = False,
) -> ArenaResult:
    """Play `games` games between the bots of `lineup` (one entry per seat, in seat order).

    Args:
        game: the configured game.
        lineup: one bot per seat: a name, or (name, options).
        games: how many games, at least 1.
        workers: parallel processes, at least 1 (1 plays in this process); with Ray, the
            CPUs of the local instance it starts (none is started when one is running or
            `RAY_ADDRESS` names a cluster).
        seed: an int; game i uses seed + i, so a tournament is reproducible.
        rotate: move every entry one seat along each game, so no bot keeps the first seat.
        progress: called with the number of games finished so far.
        backend: "process" or "ray". Each game's seeds depend on its index alone, so both
            give the same records, decision times aside.
        keep_states: keep each game's final state as JSON in its record (`GameRecord.state`),
            for `sleuth arena --save` and reviews.

    Returns:
        The records in game order, whatever order the workers finished in.

    Raises:
        ConfigError: a bad game, lineup (length, bot name or option), count, seed or
            backend, or Ray asked for and not installed.
    """
    _check_arena(game, lineup, games, workers, seed, backend)
    for k, entry in enumerate(lineup):  # fail fast, in this process, on bad names or options
        name, options = _entry(entry)
        make(name, game, game.seats[k], seed=seed, **options)
    names = [label(entry) for entry in lineup]
    args = [
        (game.name, dict(game.options), list(lineup), i, seed + i, bool(rotate), keep_states)
        for i in range(games)
    ]
    records: list[GameRecord] = []

    def record(outcome: GameRecord) -> None:
        records.append(outcome)
        if progress is not None:
            progress(len(records))

    if backend == "ray":
        for outcome in _on_ray(args, workers):
            record(outcome)
    elif workers == 1:
        for arg in args:
            record(play_one(*arg))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for future in as_completed([pool.submit(play_one, *arg) for arg in args]):
                record(future.result())
    records.sort(key=lambda outcome: outcome.index)
    return ArenaResult(game.name, tuple(game.seats), names, records)


def _on_ray(args: Sequence[tuple], workers: int) -> Iterator[GameRecord]:
    """The games played as Ray tasks, yielded as they finish; a local instance is started
    (and stopped after) unless Ray is already running or `RAY_ADDRESS` names a cluster."""
    try:  # optional: the ray extra
        import ray
    except ImportError:
        raise ConfigError(
            "the ray backend needs Ray: pip install 'sleuth[ray]'; or use backend 'process'"
        ) from None
    started = not ray.is_initialized()
    if started:
        cpus = None if os.environ.get("RAY_ADDRESS") else workers  # a cluster has its own
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_one)
        waiting = [remote.remote(*arg) for arg in args]
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def _check_arena(
    game: object,
    lineup: object,
    games: object,
    workers: object,
    seed: object,
    backend: object = "process",
) -> None:
    """ConfigError, quoting the value, for anything `arena` cannot run."""
    if not isinstance(game, Game):
        raise ConfigError(f"arena plays an engines.Game (engines.make(...)), got {quote(game)}")
    if isinstance(lineup, str) or not isinstance(lineup, Sequence):
        raise ConfigError(f"a lineup is a list of bots, one per seat; got {quote(lineup)}")
    if len(lineup) != len(game.seats):
        raise ConfigError(
            f"{game.name} needs {len(game.seats)} bots, one per seat {game.seats}; "
            f"got {len(lineup)}: {quote(list(lineup))}"
        )
    for name, value in (("games", games), ("workers", workers)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"arena {name} must be an integer >= 1, got {quote(value)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"arena seed must be an integer, got {quote(seed)}")
    if backend not in BACKENDS:
        raise ConfigError(
            f"arena backend must be one of {', '.join(BACKENDS)}, got {quote(backend)}"
        )
