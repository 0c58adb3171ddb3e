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
from engines.alibi.observations import Answered, PassChosen
from solver.games.alibi.counting import Coordinates
from solver.games.alibi.position import Position, Trajectory

KEPT = 64  # histories per game and seat
GAMES_KEPT = 8

History = tuple[Trajectory, ...]
_Key = tuple[str, tuple, object, tuple]
_KEPT: OrderedDict[_Key, list[tuple[History, InformationSet]]] = OrderedDict()
"""Histories by game, options, seat and the seat's deal, each with the last information set
it was found consistent with (a module cache, oldest game first, guarded by `_LOCK`; values
are lists of immutable pairs, copied on the way out)."""
_LOCK = threading.Lock()
ADDING = (Answered, PassChosen)
"""Observations that, within an epoch, add only answer counts to check (as `chain.carry`)."""


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
    nearly every history of the epoch before). A history found consistent with an earlier
    position of the same epoch that `pos` extends by answers only is checked against the new
    answers alone."""
    key = game_key(pos.info)
    with _LOCK:
        found = list(_KEPT.get(key, ()))
    if not found:
        return []
    coordinates: Coordinates | None = None
    still: list[tuple[History, InformationSet]] = []
    for paths, checked in found:
        if checked == pos.info:
            still.append((paths, checked))
            continue
        new = _new_answers(pos, checked)
        if new is not None:
            ok = all(
                sum(pos.counted(answer, paths[c]) for c in answer.cards) == answer.value
                for answer in new
            )
        else:
            coordinates = coordinates or Coordinates(pos)
            ok = fits(pos, paths, coordinates)
        if ok:
            still.append((paths, pos.info))
    with _LOCK:
        if key in _KEPT:  # keep those kept meanwhile by another thread
            _KEPT[key] = still + [entry for entry in _KEPT[key] if entry not in found]
    return [paths for paths, _ in still]


def _new_answers(pos: Position, checked: InformationSet) -> list | None:
    """The answers `pos` adds to `checked`, or None when it adds more than answers (or is
    not an extension of it within the same epoch)."""
    before, now = checked.observations, pos.info.observations
    if now[: len(before)] != before:
        return None
    if any(not isinstance(obs, ADDING) for obs in now[len(before) :]):
        return None
    start = len(before)
    return [answer for answer in pos.answers if answer.source >= start]


def keep(pos: Position, paths: History) -> None:
    """Remember a consistent history of `pos` for the refreshes after it."""
    key = game_key(pos.info)
    with _LOCK:
        histories = _KEPT.setdefault(key, [])
        _KEPT.move_to_end(key)
        if all(paths != kept for kept, _ in histories):
            histories.append((paths, pos.info))
            del histories[:-KEPT]
        while len(_KEPT) > GAMES_KEPT:
            _KEPT.popitem(last=False)


def clear() -> None:
    """Forget every kept history (benchmarks measure refreshes with nothing kept)."""
    with _LOCK:
        _KEPT.clear()
