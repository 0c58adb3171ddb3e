"""`sleuth play`: a person against bots at the terminal. Bad input is refused, never fatal."""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

import opponents
from engines import Action, Game, IllegalAction, InvalidAction, Seat
from sleuth import views
from sleuth.commands import safe_hints, seat_name

LONG_LIST = 40
"""Above this many legal moves, play shows what to type instead of numbering every move."""
EXAMPLES = 3


def _help(legal: Sequence[Action]) -> str:
    return (
        f"Type a move (for example `{legal[0]}`), or its number in the list.\n"
        "  hint       what can be deduced now, and the best moves\n"
        "  moves      the legal moves again (`moves all`: every listed move, numbered)\n"
        "  quit       leave the game"
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
    while (mover := state.to_move) is not None:
        info = state.information_set(seat)
        for line in info.observations[told:]:
            console.print(Text(f"  {game.describe(line)}", style="dim"))
        told = len(info.observations)
        if mover != seat:
            state.apply(bots[mover].act(state.information_set(mover)))
            continue
        if (view := views.position(game, info)) is not None:
            console.print(view)
        legal = state.legal_actions()
        _show_moves(console, game, legal)
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
                console.print(_help(legal))
            elif command in ("moves", "m"):
                _show_moves(console, game, legal)
            elif command in ("moves all", "m all"):
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


def _show_moves(console: Console, game: Game, legal: Sequence[Action]) -> None:
    """Every move numbered when they are few; otherwise what to type, with examples."""
    if len(legal) <= LONG_LIST:
        _list_moves(console, legal)
        return
    console.print(_summary(legal))
    if (syntax := views.moves_help(game, legal)) is not None:
        console.print(syntax)


def _list_moves(console: Console, legal: Sequence[Action]) -> None:
    console.print(Columns([Text(f"{k}. {a}") for k, a in enumerate(legal, 1)], padding=(0, 3)))


def _summary(legal: Sequence[Action]) -> Text:
    """Per kind of move (its first word): how many are listed, and examples to copy."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(str(action).split()[0], []).append(action)
    text = Text()
    for verb, actions in kinds.items():
        text.append(verb, "bold")
        text.append(f" ({len(actions)} listed), for example:\n")
        for action in _examples(actions, EXAMPLES):
            text.append(f"  {action}\n")
    text.rstrip()
    return text


def _examples(actions: Sequence[Action], count: int) -> list[Action]:
    """Up to `count` actions that differ in shape where they can (`ask 1 hand type:suspect`
    and `ask 1 hand cards:...` differ in the keys before ':'), else spread over the list."""
    shapes: dict[tuple[str, ...], Action] = {}
    for action in actions:
        words = str(action).split()
        shapes.setdefault(tuple(word.partition(":")[0] for word in words if ":" in word), action)
    picked = _spread(list(shapes.values()), count)
    others = [action for action in _spread(actions, count) if action not in picked]
    return picked + others[: count - len(picked)]


def _spread(items: Sequence[Action], count: int) -> list[Action]:
    """`count` items evenly spaced over `items`, first and last included."""
    if len(items) <= count:
        return list(items)
    return [items[round(k * (len(items) - 1) / (count - 1))] for k in range(count)]
