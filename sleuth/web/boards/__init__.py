"""The board of a session as plain data for the templates, read from the game's views.

Each game's board is its own module here, found by the engine's package name
(`engines.game_module(name, "sleuth.web.boards")`); a game without one shows hints and
entries only. A board module has `draw(game, info, deduction)` (the template's data, with
`template` naming its file under templates/boards/) and `AT_START`, whether it can be drawn
for a record still being started. Nothing is worked out here: the marks, chances and grids
come from `sleuth.views` and the engines; these modules only group them the way the page
lays them out. A chance's heat ("hot", "warm", "mild", "cold") and what an Alibi cell says
("hand", "laid", ...) are the page's CSS classes as the views name them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol, cast

import engines
import solver
from engines import Game, InformationSet

LOG = logging.getLogger(__name__)


class Board(Protocol):
    """What a game's board module here provides."""

    AT_START: bool
    """Whether the board can be drawn for a record still being started (as a picker)."""

    def draw(
        self, game: Any, info: InformationSet, deduction: solver.Deduction | None
    ) -> dict[str, Any]:
        """The template's data for `info` (`template` names its file under
        templates/boards/); with a deduction, the odds on it."""


def _board_module(game: Game) -> Board | None:
    return cast(Board | None, engines.game_module(game.name, __name__))


if TYPE_CHECKING:  # mypy checks that every board module provides what `Board` declares
    from sleuth.web.boards import alibi, blue_lion, city_killer, noir, serial_killer

    _BOARDS: tuple[Board, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)


def board(
    game: Game, info: InformationSet, deduction: solver.Deduction | None, odds: bool
) -> dict[str, Any] | None:
    """What the board template draws for `info`: with `odds` (and a deduction) the heat map,
    else the plain position; None for a game without a board."""
    module = _board_module(game)
    if module is None:
        return None
    try:
        data: dict[str, Any] = module.draw(game, info, deduction if odds else None)
    except AssertionError:
        # an engine's view that cannot replay this record (a bug there: City Killer's
        # detective after "killer: done", issue 43): the page shows the hints and entries
        # without the board rather than failing; the traceback goes to the server's log
        LOG.exception("%s: the board cannot be drawn for this record", game.name)
        return None
    return data


def start_board(game: Game, info: InformationSet) -> dict[str, Any] | None:
    """The plain board of a record still being started (nothing deduced yet), as a picker
    to tap names from; None for a game whose board needs a whole beginning (Blue Lion's line
    needs the whole toss)."""
    module = _board_module(game)
    if module is None or not module.AT_START:
        return None
    return board(game, info, None, False)
