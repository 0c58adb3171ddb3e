"""The end of a game for a person: the hidden truth revealed, who won and why, and the move at
which each player could first have known what the game hid (by full deduction).

Each game has a module here named as its engine's package (engines.game_module) that provides
what `GameRecap` declares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import engines
from engines import Game, InformationSet, Seat, SleuthError, State
from engines.observations import GameOver

Decision = tuple[int, Seat, InformationSet]
"""A decision of the game: the move number it led to, the seat, what that seat knew."""


@dataclass(frozen=True)
class Certainty:
    """What a player of a game can come to know for certain, and how to tell from a position."""

    what: str
    """Said after "could have known": "the box", "the profile"."""
    known: Callable[[InformationSet], bool]
    """Whether the seat of the position is certain of it (a full deduction)."""
    monotone: bool
    """Once known, known for the rest of the game (what it is about never changes), so the
    first such move can be found by binary search."""
    seats: tuple[Seat, ...] | None = None
    """The seats with something to learn; None for every seat."""


class GameRecap(Protocol):
    """What a game's recap module provides (`game` and `state` are that game's own classes)."""

    def reveal(self, game: Any, state: Any) -> list[str]:
        """What the game hid, now that it is over."""

    def certainty(self, game: Any) -> Certainty | None:
        """What its players can come to know, if the recap should say when they could have."""


if TYPE_CHECKING:  # mypy checks that every recap module provides what `GameRecap` declares
    from sleuth.recap import alibi, blue_lion, city_killer, noir, serial_killer

    _RECAPS: tuple[GameRecap, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)


def _module(game: Game) -> GameRecap | None:
    return cast(GameRecap | None, engines.game_module(game.name, "sleuth.recap"))


def recap(game: Game, state: State, decisions: Sequence[Decision], me: Seat) -> list[str]:
    """Lines to print once the game is over."""
    lines = ["", "The hidden truth:"]
    lines += [f"  {line}" for line in reveal(game, state)]
    ends = [obs for obs in state.public_observations() if isinstance(obs, GameOver)]
    if ends:
        lines.append(f"How it ended: {game.describe(ends[-1])}")
    module = _module(game)
    certainty = None if module is None else module.certainty(game)
    if certainty is None:
        return lines
    for seat in certainty.seats or game.seats:
        mine = [(n, info) for n, s, info in decisions if s == seat]
        first = _first(mine, certainty.known, certainty.monotone)
        who = "you" if seat == me else name(seat)
        if first is None:
            lines.append(f"  {who} never had {certainty.what} certain")
        else:
            lines.append(f"  {who} could have known {certainty.what} from move {first}")
    return lines


def reveal(game: Game, state: State) -> list[str]:
    """What the game hid, now that it is over; nothing for a game without a recap module."""
    module = _module(game)
    return [] if module is None else module.reveal(game, state)


def name(seat: Seat) -> str:
    """A seat as a sentence names it: "Lupin", "player 2"."""
    return seat.capitalize() if isinstance(seat, str) else f"player {seat}"


def _first(
    infos: Sequence[tuple[int, InformationSet]],
    test: Callable[[InformationSet], bool],
    monotone: bool,
) -> int | None:
    """The first move whose position let the seat be certain; a binary search when certainty,
    once reached, stays (what it is about never changes)."""
    try:
        if not monotone:
            return next((n for n, info in infos if test(info)), None)
        low, high = 0, len(infos)
        while low < high:
            mid = (low + high) // 2
            if test(infos[mid][1]):
                high = mid
            else:
                low = mid + 1
        return infos[low][0] if low < len(infos) else None
    except SleuthError:
        return None
