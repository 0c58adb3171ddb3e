"""`sleuth games`, `sleuth demo` and `sleuth arena`: output for people, logic elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

import engines
import opponents
import solver
from engines import ConfigError, Game, IncompleteInformationSet, InformationSet, Seat
from engines.observations import MoveRecord
from sleuth import views
from sleuth.options import read_value, show_allowed, show_value


def show_games(console: Console) -> None:
    """Each game, what it hides, and its options with their defaults and allowed values."""
    for name in engines.names():
        cls = engines.game_class(name)
        meta = cls.metadata
        console.print(Rule(f"{name}: {meta.title}", align="left"))
        console.print(f"seats: {meta.seats}\nhidden: {meta.hidden}")
        if not cls.options_spec:
            continue
        console.print(f"options, set with -o KEY=VALUE (e.g. -o {_example(cls)}):", style="dim")
        table = Table(box=None, padding=(0, 2, 0, 0), show_edge=False, pad_edge=False)
        table.add_column("option", no_wrap=True)
        table.add_column("default · allowed values, and what it does")
        for spec in cls.options_spec:
            allowed = (
                show_allowed(spec.describe_allowed)
                if spec.describe_allowed
                else ", ".join(show_value(value) for value in spec.allowed or ())
            )
            cell = Text.assemble((show_value(spec.default), "bold"), (f" · {allowed}", "dim"))
            cell.append(f"\n{spec.doc}")
            table.add_row(spec.name, cell)
        console.print(table)


def _example(cls: type[Game]) -> str:
    """An option line to copy: the first option set to its default."""
    spec = cls.options_spec[0]
    return f"{spec.name}={show_value(spec.default)}"


def seat_name(seat: Seat) -> str:
    return seat.capitalize() if isinstance(seat, str) else f"Player {seat}"


def safe_hints(info: InformationSet, limit: int, model: str = "counting") -> list[solver.Hint]:
    """What the seat knows (the hints without the search's own move, which another seed's bot
    may not play), its odds read under `model`; none for a game without a knowledge model."""
    try:
        return solver.hints(info, limit=limit, search=False, model=model)
    except ConfigError:
        return []


def demo(
    console: Console, game: Game, seed: int, hint_count: int, time_budget: float | None = None
) -> None:
    """Solver bots play one whole game; each turn shows the mover's hints, the move, the result.

    Routine decisions (as the game's view says) show the move alone. With two seats the board
    is drawn after every move; with more, only as the first seat sees it after its own turns,
    once a round, so that the screen shows the game rather than many copies of the board.
    """
    bots = {
        seat: opponents.make("solver", game, seat, seed=seed * 10 + k, time_budget=time_budget)
        for k, seat in enumerate(game.seats)
    }
    narrator = game.seats[0] if len(game.seats) > 2 else None
    solver.forget()  # a seed shows the same game however many ran before in this process
    state = game.new_game(seed=seed)
    console.print(Rule(f"{game.metadata.title}: solver bots, seed {seed}"))
    if narrator is not None:
        console.print(f"The board is drawn as {seat_name(narrator)} sees it, after its turns.")
    if (legend := views.legend(game)) is not None:
        console.print(legend)
    told = len(state.public_observations())
    for line in state.public_observations():
        console.print(Text(f"  {game.describe(line)}", style="dim"))
    step = 0
    while (mover := state.to_move) is not None:
        step += 1
        info = state.information_set(mover)
        routine = views.routine(game, state.legal_actions())
        found = [] if routine else safe_hints(info, hint_count)
        action = bots[mover].act(info)
        state.apply(action)
        console.print(Rule(f"{step}. {seat_name(mover)}: {action}", align="left", style="cyan"))
        public = state.public_observations()
        for line in public[told:]:
            if not isinstance(line, MoveRecord):
                console.print(Text(f"  {game.describe(line)}"))
        told = len(public)
        if found:
            console.print(f"  what {seat_name(mover)} knew before moving:", style="dim")
            console.print(views.hints(found, hint_count))
        if routine or narrator not in (None, mover):
            continue
        after = state.information_set(mover)
        try:
            chances = views.heat_map(game, after) if found else None
        except IncompleteInformationSet:  # the opponent owes the mover an answer yet
            chances = None
        view = chances or views.position(game, after)
        if view is not None:
            console.print(view)
    winners = " and ".join(seat_name(seat) for seat in state.winners)
    console.print(Rule(f"{winners} won" if winners else "nobody won", style="bold green"))


def run_arena(
    console: Console,
    game: Game,
    bots: Sequence[str],
    games: int,
    workers: int,
    seed: int,
    rotate: bool,
    time_budget: float | None,
    backend: str = "process",
    save: str | None = None,
) -> None:
    lineup: list[opponents.Entry] = []
    for text in bots:
        name, options = bot_entry(text)
        if name == "solver" and time_budget is not None:
            options.setdefault("time_budget", time_budget)
        lineup.append((name, options) if options else name)
    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        names = " vs ".join(opponents.label(entry) for entry in lineup)
        task = progress.add_task(f"{game.name}: {names}", total=games)
        result = opponents.arena(
            game,
            lineup,
            games=games,
            workers=workers,
            seed=seed,
            rotate=rotate,
            progress=lambda done: progress.update(task, completed=done),
            backend=backend,
            keep_states=save is not None,
        )
    if save is not None:
        written = save_games(result, Path(save))
        console.print(f"saved {written} games in {save} (look back at one: sleuth review FILE)")
    console.print(views.arena_table(result))
    console.print(views.seat_table(result))
    for line in views.summary_lines(result):
        console.print(line, soft_wrap=True)
    if result.rotated:
        rows = "a bot's figures per role" if result.roles else "a bot's rows cover every seat"
        console.print(f"seats rotated every game; {rows}", style="dim")


def bot_entry(text: str) -> tuple[str, dict[str, object]]:
    """A bot as typed for `sleuth arena`: its name, then its options, each `:key=value`
    ("solver:model=random", "solver:max_depth=2:model=heuristic"); a value is read as a
    game option's is (`read_value`: JSON or Python when it is one, else text).

    Raises:
        ConfigError: an option not written key=value (the bot checks the names and values).
    """
    name, *written = text.split(":")
    options: dict[str, object] = {}
    for part in written:
        key, equals, value = part.partition("=")
        if not equals or not key:
            raise ConfigError(
                f"a bot's option is written name:key=value (solver:model=random), got {text!r}"
            )
        options[key] = read_value(value)
    return name, options


def save_games(result: opponents.ArenaResult, directory: Path) -> int:
    """Each game's final state as JSON in `directory` (made if missing), named by the game
    and its index: what `sleuth review` reads. Returns how many were written.

    Raises:
        ConfigError: the directory cannot be made or written to.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for record in result.records:
            if record.state is not None:
                path = directory / f"{result.game}-{record.index:04d}.json"
                path.write_text(record.state, encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot save the games in {directory}: {error.strerror}") from None
    return sum(record.state is not None for record in result.records)
