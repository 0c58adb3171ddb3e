"""The `sleuth` command line: games, rules, demo, play, assist, serve, arena, review."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markdown import Markdown

import engines
import opponents
from engines import ConfigError, Game, SleuthError
from sleuth import rules
from sleuth.assist.command import assist
from sleuth.commands import demo, run_arena, show_games
from sleuth.options import read_value
from sleuth.play import play
from sleuth.review import review_command
from sleuth.web.serve import serve

DEFAULT_DEMO_GAME = "blue-lion"


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _option(text: str) -> tuple[str, object]:
    """KEY=VALUE with VALUE read as JSON or Python (7, true or True, null or None, 'x'), else
    as text."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip().replace("-", "_"), read_value(raw)


def _game(args: argparse.Namespace) -> Game:
    """The game named on the command line, with its -o options and --players."""
    options = dict(args.option)
    if args.players is not None:
        options["players"] = args.players
    return engines.make(args.game, **options)


def _add_game_options(command: argparse.ArgumentParser) -> None:
    """The switches that configure the game: --players and repeatable -o KEY=VALUE."""
    command.add_argument(
        "--players",
        type=int,
        default=None,
        help="players, for games with a choice (same as -o players=N)",
    )
    command.add_argument(
        "-o",
        "--option",
        type=_option,
        action="append",
        default=[],
        help="a game option, e.g. -o target=5 or -o turn_limit=null (repeatable; JSON or "
        "Python spellings; see `sleuth games`)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sleuth",
        description="Referee, deduction assistant and bots for hidden-information deduction games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    commands.add_parser("games", help="list the games and their options")
    rules = commands.add_parser("rules", help="the rules of a game, in short")
    rules.add_argument("game", help="the game (see `sleuth games`)")

    game_help = f"the game ({', '.join(engines.names())})"
    demo = commands.add_parser("demo", help="watch two solver bots play a whole game, with hints")
    _demo_arguments(demo, game_help)
    play = commands.add_parser("play", help="play against a bot in the terminal")
    _play_arguments(play, game_help)
    assist = commands.add_parser(
        "assist",
        help="the notebook for a game at a real table: type what you saw, see what follows",
        description="Type what your seat saw and heard; see what is certain, how likely each "
        "hidden possibility is, and what to ask or do. Every entry is saved at once.",
        epilog="A damaged sessions file is never read from, written over or replaced: sleuth "
        "keeps a copy of it beside it (sessions.sqlite3.damaged-TIME), says so in one line and "
        "exits with status 3; --salvage then recovers what SQLite can still read.",
    )
    _assist_arguments(assist, game_help)
    serve = commands.add_parser(
        "serve",
        help="the notebook as a web page for a phone or laptop, over the same sessions",
        description="Serve the notebook's sessions as a local web page (needs the web extra: "
        "pip install 'sleuth[web]'). Prints the address to open.",
    )
    _serve_arguments(serve)
    arena = commands.add_parser("arena", help="a tournament between bots, with a results table")
    _arena_arguments(arena, game_help)
    review = commands.add_parser(
        "review",
        help="look back at a game: each decision beside the solver's, graded",
        description="Each decision of one seat beside the solver bot's move there, both valued "
        "in the game's own terms, the loss graded (best, good, inaccuracy, mistake, blunder), "
        "when each hidden fact became certain, and a summary.",
    )
    review.add_argument(
        "record",
        help="a saved game (sleuth play --save FILE, sleuth arena --save DIR), an exported "
        "information set (sleuth assist --export), or a notebook session's name",
    )
    review.add_argument("--seat", default=None, help="whose decisions (default: the record's)")
    review.add_argument("--dir", default=None, help="where sessions are kept (default: user data)")
    return parser


def _demo_arguments(demo: argparse.ArgumentParser, game_help: str) -> None:
    """`sleuth demo`'s: the game, its seed, the hints shown, a time ceiling, its options."""
    demo.add_argument("game", nargs="?", default=DEFAULT_DEMO_GAME, help=game_help)
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.add_argument("--hints", type=int, default=3, help="hints shown per turn (default 3)")
    demo.add_argument(
        "--time-budget",
        type=float,
        default=None,
        help="a safety ceiling on a bot move's seconds (default none: search is bounded by "
        "work, so a seed gives the same game on any machine; a ceiling may change that)",
    )
    _add_game_options(demo)


def _play_arguments(play: argparse.ArgumentParser, game_help: str) -> None:
    """`sleuth play`'s: the game, the seat, the bot, the seed, the game's options."""
    play.add_argument("game", help=game_help)
    play.add_argument("--as", dest="seat", default=None, help="your seat (default: the first)")
    play.add_argument("--bot", default="solver", choices=opponents.BOT_NAMES, help="opponent")
    play.add_argument("--seed", type=int, default=None, help="the game's seed (default random)")
    play.add_argument(
        "--save",
        metavar="FILE",
        default=None,
        help="write the game's record as JSON to FILE when it ends, for `sleuth review FILE`",
    )
    play.add_argument(
        "--model",
        default="counting",
        help="read the hints' odds under a model of the other players: counting (default: "
        "every consistent deal alike), random, or a bot's name (every game but alibi; slower)",
    )
    _add_game_options(play)


def _assist_arguments(assist: argparse.ArgumentParser, game_help: str) -> None:
    """`sleuth assist`'s: a new session's game, seat, name and level, where sessions are
    kept, what is shown; or one of the list, resume, export and salvage of sessions."""
    assist.add_argument("game", nargs="?", default=None, help=game_help + " for a new session")
    assist.add_argument("--seat", default=None, help="your seat (default: the first)")
    assist.add_argument("--name", default=None, help="the new session's name (default GAME-N)")
    assist.add_argument(
        "--level", default=None, help="hint level: notepad, certain, odds (default) or advice"
    )
    assist.add_argument(
        "--model",
        default=None,
        help="read the odds under a model of the other players: counting (default), random or "
        "a bot's name (every game but alibi; slower)",
    )
    assist.add_argument("--dir", default=None, help="where sessions are kept (default: user data)")
    assist.add_argument(
        "--no-board", action="store_true", help="do not draw the board after each entry (`view`)"
    )
    assist.add_argument(
        "--hints", type=int, default=12, help="hints listed after each entry (default 12)"
    )
    which = assist.add_mutually_exclusive_group()
    which.add_argument("--list", action="store_true", help="list the saved sessions")
    which.add_argument("--resume", metavar="NAME", help="go on with a saved session")
    which.add_argument("--export", metavar="NAME", help="print a session's information set (JSON)")
    which.add_argument(
        "--salvage",
        action="store_true",
        help="recover the sessions SQLite can still read from a damaged sessions file into a "
        "fresh store (the damaged file is moved aside, not deleted)",
    )
    _add_game_options(assist)


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    """`sleuth serve`'s: the address and port to listen on, where sessions are kept."""
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this computer only; 0.0.0.0 for a phone "
        "on the same network, which needs the printed token)",
    )
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free)")
    serve.add_argument("--dir", default=None, help="where sessions are kept (default: user data)")


def _arena_arguments(arena: argparse.ArgumentParser, game_help: str) -> None:
    """`sleuth arena`'s: the game, a bot per seat, how many games on how many workers, the
    first seed, the seats kept or rotated, the backend, a time ceiling, the game's options."""
    arena.add_argument("game", help=game_help)
    arena.add_argument(
        "--bots",
        required=True,
        nargs="+",
        help="one bot per seat, e.g. solver,heuristic or solver heuristic; a bot's options "
        "follow its name, each :key=value (solver:model=random)",
    )
    arena.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    arena.add_argument("--workers", type=int, default=2, help="parallel processes (default 2)")
    arena.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    arena.add_argument("--no-rotate", action="store_true", help="keep every bot in its seat")
    arena.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="where games run: this machine's processes (default), or Ray (pip install "
        "'sleuth[ray]'; a local instance of --workers CPUs, or the cluster RAY_ADDRESS names)",
    )
    arena.add_argument(
        "--time-budget",
        type=float,
        default=None,
        help="a safety ceiling on a solver-bot move's seconds (default none, so a seed "
        "reproduces the tournament; a ceiling may change that)",
    )
    arena.add_argument(
        "--save",
        metavar="DIR",
        default=None,
        help="write each game's record as JSON in DIR, for `sleuth review FILE`",
    )
    _add_game_options(arena)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(highlight=False)
    try:
        if args.command == "games":
            show_games(console)
        elif args.command == "rules":
            console.print(Markdown(rules.text(args.game)))
        elif args.command == "demo":
            demo(console, _game(args), args.seed, args.hints, args.time_budget)
        elif args.command == "play":
            game = _game(args)
            seat = game.seat_from_text(args.seat) if args.seat else game.seats[0]
            return play(console, game, seat, args.bot, args.seed, args.save, args.model)
        elif args.command == "assist":
            return assist(console, args)
        elif args.command == "serve":
            return serve(args.host, args.port, args.dir)
        elif args.command == "review":
            return review_command(console, args.record, args.seat, args.dir)
        elif args.command == "arena":
            if args.games < 1 or args.workers < 1:
                raise ConfigError("--games and --workers must be at least 1")
            game = _game(args)
            bots = [name.strip() for arg in args.bots for name in arg.split(",")]
            run_arena(
                console,
                game,
                bots,
                args.games,
                args.workers,
                args.seed,
                not args.no_rotate,
                args.time_budget,
                args.backend,
                args.save,
            )
    except SleuthError as error:
        print(f"sleuth: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nsleuth: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
