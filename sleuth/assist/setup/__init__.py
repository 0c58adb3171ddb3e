"""A seat's setup as picks from the choices the game knows, and the entries the picks make.

The new-session page of `sleuth serve` offers these instead of a blank box for the start of a
game (who dealt, the cards dealt, the toss, the grid, the decks). Each game's module here is
found by the engine's package name and has `picks(game, seat, chosen)` and `entries(game,
seat, chosen)`. `chosen` maps a pick's name to its answer as text (several values of one pick
separated by spaces); an unanswered pick is missing or "". The entries are the lines the
terminal would type, made in order up to the first part left unanswered (the rest is typed on
the session page later), and `Session.new(entries=...)` reads them with the game's notation
like any typed line, so a pick the rules refuse is refused with the notation's own message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

import engines
from engines import Game, Seat


@dataclass(frozen=True)
class Pick:
    """One question of the setup with its known answers.

    `choices` are (value as typed, what a person reads); `count` how many of them to pick
    (1: exactly one); `groups` optional headings over the values (a deck's groups);
    `section` a title shared by the picks shown together (a grid's cells), laid out in
    `columns` columns when not 0; `reload`: the picks after it depend on its answer (the
    page asks again once it is answered); `default` the answer picked at first; `caption`
    whether the label is shown with it (a grid's cells are told by their place instead).
    """

    name: str
    label: str
    choices: tuple[tuple[str, str], ...]
    count: int = 1
    groups: tuple[tuple[str, tuple[str, ...]], ...] = ()
    section: str = ""
    columns: int = 0
    reload: bool = False
    default: str = ""
    caption: bool = True


class SetupPicks(Protocol):
    """What a game's module here provides."""

    def picks(self, game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]: ...

    def entries(self, game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]: ...


if TYPE_CHECKING:  # mypy checks that every module here provides what `SetupPicks` declares
    from sleuth.assist.setup import alibi, blue_lion, city_killer, noir, serial_killer

    _PICKS: tuple[SetupPicks, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)


def _module(game: Game) -> SetupPicks | None:
    return cast(SetupPicks | None, engines.game_module(game.name, __name__))


def picks(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[Pick]:
    """The picks of `seat`'s setup given the answers so far (none for a game without them)."""
    module = _module(game)
    return [] if module is None else module.picks(game, seat, chosen)


def entries(game: Game, seat: Seat, chosen: Mapping[str, str]) -> list[str]:
    """The typed lines the answers make, in order, up to the first part left unanswered.

    Raises:
        InvalidObservation: a part answered only in part (some cells of a grid), saying what
            is missing.
    """
    module = _module(game)
    return [] if module is None else module.entries(game, seat, chosen)


def answer(chosen: Mapping[str, str], name: str) -> list[str]:
    """The values given for pick `name` (none when it is unanswered)."""
    return chosen.get(name, "").split()


def named(values: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    """Choices read as they are typed."""
    return tuple((value, value) for value in values)
