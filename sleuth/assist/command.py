"""`sleuth assist` arguments to a session: new, --resume, --list or --export."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

import engines
from engines import ConfigError
from sleuth.assist.levels import DEFAULT_LEVEL
from sleuth.assist.session import Session
from sleuth.assist.terminal import run


def assist(console: Console, args: argparse.Namespace) -> int:
    if args.hints < 0:
        raise ConfigError(f"--hints must be 0 or more, not {args.hints}")
    if args.list:
        return _list(console, args.dir)
    if args.export:
        session = Session.open(args.export, args.dir)
        print(session.export())
        return 0
    if args.resume:
        session = Session.open(args.resume, args.dir)
        if args.level:
            session.level = args.level
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
