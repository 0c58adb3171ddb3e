"""`sleuth play`: a person against bots at the terminal. Bad input is refused, never fatal."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

import opponents
from engines import Game, IllegalAction, InvalidAction, Seat
from sleuth import views
from sleuth.commands import safe_hints, seat_name

HELP = (
    "Type a move as listed (for example `lay t3 left flip`), or its number.\n"
    "  hint   what can be deduced now, and the best moves\n"
    "  moves  list the legal moves again\n"
    "  quit   leave the game"
)


def play(console: Console, game: Game, seat: Seat, bot: str, seed: int | None) -> int:
    bots = {
        other: opponents.make(bot, game, other, seed=None if seed is None else seed + k)
        for k, other in enumerate(game.seats)
        if other != seat
    }
    state = game.new_game(seed=seed)
    console.print(f"You play {seat_name(seat)} against the {bot} bot. Type `help` for help.")
    if (legend := views.legend(game)) is not None:
        console.print(legend)
    told = 0
    while not state.is_over:
        info = state.information_set(seat)
        for line in info.observations[told:]:
            console.print(Text(f"  {game.describe(line)}", style="dim"))
        told = len(info.observations)
        mover = state.to_move
        if mover != seat:
            state.apply(bots[mover].act(state.information_set(mover)))
            continue
        if (view := views.position(game, info)) is not None:
            console.print(view)
        legal = state.legal_actions()
        _list_moves(console, legal)
        while True:
            try:
                text = console.input(f"[bold]{seat_name(seat)}>[/bold] ").strip()
            except EOFError:
                console.print("\nbye")
                return 0
            command = text.lower()
            if command in ("quit", "exit", "q"):
                console.print("bye")
                return 0
            if command in ("help", "?", ""):
                console.print(HELP)
            elif command in ("moves", "m"):
                _list_moves(console, legal)
            elif command in ("hint", "hints", "h"):
                found = safe_hints(info, 8)
                console.print(views.hints(found, 8) if found else "no hints for this game yet")
                if found and (chances := views.heat_map(game, info)) is not None:
                    console.print(chances)
            elif command.isdigit():
                if 1 <= int(command) <= len(legal):
                    state.apply(legal[int(command) - 1])
                    break
                console.print(f"there is no move {command}; moves are numbered 1-{len(legal)}")
            else:
                try:
                    state.apply_text(text)
                    break
                except (InvalidAction, IllegalAction) as error:
                    console.print(Text(str(error), style="red"))
    info = state.information_set(seat)
    for line in info.observations[told:]:
        console.print(Text(f"  {game.describe(line)}", style="dim"))
    if (view := views.position(game, info)) is not None:
        console.print(view)
    verdict = "You win!" if seat in state.winners else "You lose."
    if seat in state.winners and len(state.winners) > 1:
        verdict = "A shared win."
    console.print(f"[bold]{verdict}[/bold]")
    return 0


def _list_moves(console: Console, legal: list) -> None:
    console.print(Columns([Text(f"{k}. {a}") for k, a in enumerate(legal, 1)], padding=(0, 3)))
