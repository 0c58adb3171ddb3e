"""`sleuth assist` arguments to a session: new, --resume, --list, --export or --salvage."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

import engines
from engines import ConfigError
from sleuth.assist import setup
from sleuth.assist.levels import DEFAULT_LEVEL
from sleuth.assist.salvage import Salvage, salvage
from sleuth.assist.session import Session
from sleuth.assist.store import DamagedStore, Store
from sleuth.assist.terminal import run
from solver.opponent_models import COUNTING

DAMAGED_STORE_EXIT = 3  # the sessions file is damaged (2 is a bad argument, as everywhere)


def assist(console: Console, args: argparse.Namespace) -> int:
    """Run `sleuth assist`; a damaged sessions file is one line on stderr and exit status 3."""
    try:
        return _assist(console, args)
    except DamagedStore as error:
        print(f"sleuth: error: {error}", file=sys.stderr)
        return DAMAGED_STORE_EXIT


def _assist(console: Console, args: argparse.Namespace) -> int:
    if args.hints < 0:
        raise ConfigError(f"--hints must be 0 or more, not {args.hints}")
    if args.list:
        return _list(console, args.dir)
    if args.salvage:
        return _salvage(console, args.dir)
    if args.export:
        session = Session.open(args.export, args.dir)
        print(session.export())
        return 0
    if args.resume:
        session = Session.open(args.resume, args.dir)
        if args.level:
            session.level = args.level
        if args.model:
            session.model = args.model
        return run(console, session, not args.no_board, args.hints)
    if args.game is None:
        raise ConfigError("name a game for a new session, or use --resume NAME or --list")
    options = dict(args.option)
    if args.players is not None:
        options["players"] = args.players
    game = engines.make(args.game, **options)
    seat = game.seat_from_text(args.seat) if args.seat else game.seats[0]
    session = Session.new(
        args.game,
        seat,
        dir=args.dir,
        name=args.name,
        level=args.level or DEFAULT_LEVEL,
        model=args.model or COUNTING,
        # what the options already say is entered for the person (Alibi's `-o dealer=2`
        # types "dealer 2"), so the notebook does not ask for it a second time
        entries=setup.entries(game, seat, {}),
        **options,
    )
    return run(console, session, not args.no_board, args.hints)


def _list(console: Console, directory: str | None) -> int:
    stored = Session.stored(directory)
    if not stored:
        console.print("no saved sessions yet")
        return 0
    table = Table(box=None, padding=(0, 2))
    for column in ("name", "game", "seat", "changes", "level", "started"):
        table.add_column(column)
    for record in stored:
        table.add_row(
            record.name,
            record.game,
            str(record.seat),
            str(record.events),
            record.level,
            record.created.replace("T", " "),
        )
    console.print(table)
    return 0


def _salvage(console: Console, directory: str | None) -> int:
    """Salvage a damaged store; a healthy one is left alone."""
    try:
        Store(directory).close()
    except DamagedStore:
        report = salvage(directory)
        # soft wrap keeps the path of the damaged file whole to copy; no markup in a path
        console.print(_salvage_summary(report), soft_wrap=True, markup=False)
        return 0
    console.print("the sessions store is healthy; nothing to salvage (nothing was changed)")
    return 0


def _salvage_summary(report: Salvage) -> str:
    """What was recovered, where the damaged file is, and each thing that could not be."""
    kept = f"the damaged file is kept at {report.kept}" if report.kept else "there was no file"
    lines = [
        f"salvaged {len(report.sessions)} sessions ({report.changes} changes) into a fresh "
        f"store; {kept}"
    ]
    for what, count in (
        ("session rows", report.unreadable_sessions),
        ("change rows", report.unreadable_changes),
    ):
        if count != 0:
            lines.append(
                f"  not recovered: {'an unknown number of' if count is None else count} "
                f"{what} SQLite could not read"
            )
    if report.headless:
        lines.append(
            f"  not recovered: {sum(report.headless.values())} changes of "
            f"{_some(report.headless)}, whose session header is lost"
        )
    if report.dropped:
        lines.append(
            f"  not recovered: {sum(report.dropped.values())} changes of "
            f"{_some(report.dropped)} made after a change that is lost"
        )
    return "\n".join(lines)


def _some(sessions: dict[str, int], shown: int = 5) -> str:
    """'sessions a, b, c and 7 more': a long list kept to one line."""
    names = ", ".join(list(sessions)[:shown])
    more = f" and {len(sessions) - shown} more" if len(sessions) > shown else ""
    return f"session{'s' if len(sessions) > 1 else ''} {names}{more}"
