"""Consistent histories kept between refreshes of one seat's game, to witness possible facts.

Deciding which facts are possible costs a CP-SAT solve for every literal the chain's records
never show (a card in a rare hand). A refresh follows every new observation, and a history
CP-SAT found at the refresh before usually still fits: a new answer or set only adds
constraints. So the histories found are kept per game and seat, and each refresh checks them
against its own position (every trajectory allowed, every count met: the same test the
counting program applies) and lets those that fit witness their literals. Witnessing only
saves solves: the set of possible facts is exact either way, so results never depend on what
was kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from engines import InformationSet
from solver.games.alibi.counting import Coordinates
from solver.games.alibi.position import Position, Trajectory

KEPT = 64  # histories per game and seat
GAMES_KEPT = 8

History = tuple[Trajectory, ...]
_Key = tuple[str, tuple, object, tuple]
_KEPT: OrderedDict[_Key, list[History]] = OrderedDict()
"""Histories by game, options, seat and the seat's deal (a module cache, oldest game first,
guarded by `_LOCK`; values are lists of immutable tuples, copied on the way out)."""
_LOCK = threading.Lock()


def game_key(info: InformationSet) -> _Key:
    """One seat's game: its game, options, seat and the seat's deal."""
    return (info.game, info.options, info.seat, info.observations[:2])


def fits(pos: Position, paths: History, coordinates: Coordinates | None = None) -> bool:
    """Whether `paths` is a consistent history of `pos`: each card's trajectory is allowed and
    the deal, box, pass and answer counts all come out right."""
    if len(paths) != len(pos.ids):
        return False
    if not all(pos.valid(c, path) for c, path in enumerate(paths)):
        return False
    coordinates = coordinates or Coordinates(pos)
    left = list(coordinates.targets)
    for c, path in enumerate(paths):
        for k in coordinates.of(c, path):
            left[k] -= 1
    return not any(left)


def kept(pos: Position) -> list[History]:
    """The kept histories of this game and seat that are consistent with `pos` (the others
    are forgotten: positions only ever grow, and after a pass what I received rules out
    nearly every history of the epoch before)."""
    key = game_key(pos.info)
    with _LOCK:
        found = list(_KEPT.get(key, ()))
    if not found:
        return []
    coordinates = Coordinates(pos)
    still = [paths for paths in found if fits(pos, paths, coordinates)]
    with _LOCK:
        if key in _KEPT:  # keep those kept meanwhile by another thread
            _KEPT[key] = still + [paths for paths in _KEPT[key] if paths not in found]
    return still


def keep(pos: Position, paths: History) -> None:
    """Remember a consistent history of `pos` for the refreshes after it."""
    key = game_key(pos.info)
    with _LOCK:
        histories = _KEPT.setdefault(key, [])
        _KEPT.move_to_end(key)
        if paths not in histories:
            histories.append(paths)
            del histories[:-KEPT]
        while len(_KEPT) > GAMES_KEPT:
            _KEPT.popitem(last=False)


def clear() -> None:
    """Forget every kept history (benchmarks measure refreshes with nothing kept)."""
    with _LOCK:
        _KEPT.clear()
