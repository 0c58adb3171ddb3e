"""The Blue Lion referee: the line, the faces, the scores, and whose turn it is.

A turn is one main action (lay or pass in phase 1; move, swap, flip or the single pass in
phase 2) followed, when the previous player scored, by one `Return` per tile set aside on that
previous turn. Combinations created by the main action score and their centre tiles are set
aside for the next player to return; returns never score.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engines.actions import Action
from engines.blue_lion import actions as act
from engines.blue_lion import observations as seen
from engines.blue_lion.material import (
    ICONS,
    PAIRS,
    SEATS,
    TILES,
    Combination,
    centres,
    combinations_in,
    combinations_shown,
    other_face,
    swap_pairs,
)
from engines.state import LogEntry, State
from engines.values import JsonValue, Seat

if TYPE_CHECKING:
    from engines.blue_lion.game import BlueLion


def opponent(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


class BlueLionState(State):
    """Public fields are what both players see; `_pairs` (each tile's two icons) is hidden."""

    game: BlueLion

    def __init__(
        self,
        game: BlueLion,
        rng: random.Random,
        pairs: Mapping[str, frozenset[str]],
        up: Mapping[str, str],
        first: str,
    ) -> None:
        super().__init__(game, rng)
        self._pairs: dict[str, frozenset[str]] = dict(pairs)
        self.up: dict[str, str] = dict(up)
        self.pool: list[str] = sorted(up)  # tiles not yet laid (phase 1)
        self.line: list[str] = []
        self.aside: list[str] = []  # set aside by this turn's action; returned next turn
        self.returning: list[str] = []  # set aside last turn; this player must return them
        self.scores: dict[str, int] = {seat: 0 for seat in SEATS}
        self.current: str = first
        self.main_done = False  # the current player has made the turn's main action
        self.passed = False  # somebody has passed: nobody may pass again
        self.last_main: act.BlueLionAction | None = None  # the previous turn's main action
        self.turns = 0  # completed turns
        self._winners: tuple[str, ...] = ()
        self.over = False

    # --- views ---------------------------------------------------------------------------
    @property
    def phase(self) -> int:
        return 1 if self.pool else 2

    @property
    def to_move(self) -> Seat | None:
        return None if self.over else self.current

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self._winners

    def points(self, seat: Seat) -> float:
        return float(self.scores[str(self.game.check_seat(seat))])

    def pairs(self) -> dict[str, frozenset[str]]:
        """Each tile's two icons (the truth: the whole world, for the solver's tests and the
        bots' imagined states)."""
        return dict(self._pairs)

    def back(self, tile: str) -> str:
        """The hidden back of `tile` (the truth; bots and the solver never call this)."""
        return _BACKS[self._pairs[tile], self.up[tile]]

    def combinations(self) -> set[Combination]:
        return combinations_in(self.line, self.up)

    def line_text(self) -> str:
        """The line as people read it: `t4:L t1:B t6:L`, then any set-aside tiles."""
        text = " ".join(f"{tile}:{self.up[tile]}" for tile in self.line) or "(empty line)"
        if self.pool:
            text += "   not laid: " + " ".join(f"{t}:{self.up[t]}" for t in self.pool)
        waiting = self.returning + self.aside
        if waiting:
            text += "   set aside: " + " ".join(f"{t}:{self.up[t]}" for t in waiting)
        return text

    def __repr__(self) -> str:
        return f"<BlueLionState {self.line_text()} scores={self.scores} to_move={self.to_move}>"

    # --- legality ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over  # `to_move` is None exactly then

    def legal_actions(self) -> list[Action]:
        return [] if self.over else self._legal_actions()

    def _legal_actions(self) -> list[Action]:
        # Copies of lists kept by what they depend on, of the shared instances below (actions
        # are immutable): a rollout lists the legal actions at every step, and building them
        # (dataclasses first, then filtered lists) dominated that.
        if self.main_done:
            return list(_returns(tuple(self.returning)))
        may_pass = not self.passed and (
            bool(self.pool) or self.game.options["passing"] == "any-time"
        )
        if self.pool:
            return list(_lays(tuple(self.pool), not self.line, may_pass))
        return list(
            _phase_two(tuple(self.line), self.game.options["swap_zone"], self.last_main, may_pass)
        )

    def _why_illegal(self, action: Action) -> str:
        if self.main_done and not isinstance(action, act.Return):
            tiles = " ".join(self.returning)
            return f"{action} is not legal now: {self.current} must first return {tiles}"
        if isinstance(action, act.Return) and not self.main_done:
            return f"{action} is not legal now: nothing is waiting to be returned"
        if isinstance(action, act.Pass):
            if self.passed:
                return "pass is not legal: somebody has passed, and only one pass is allowed"
            return "pass is not legal in phase 2 (the 'passing' option is 'phase-1')"
        if action == self.last_main:
            return f"{action} is not legal: it would undo the previous player's move"
        phase_one = isinstance(action, act.Lay)
        if phase_one != (self.phase == 1):
            allowed = "lay or pass" if self.phase == 1 else "move, swap or flip"
            return f"{action} is not legal in phase {self.phase}: {allowed}"
        return f"{action} is not legal now; the legal moves are: " + ", ".join(
            str(a) for a in self._legal_actions()
        )

    # --- applying ------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        # The listed instance of the action, its kind and each seat's record of it, found by
        # identity (hashing a dataclass costs more than the rest of a step): see _LISTED.
        listed = _LISTED.get(id(action))
        if listed is None:
            assert isinstance(action, _ACTION_TYPES)
            listed = _LISTED[id(_CANONICAL[action])]
        action, records, kind = listed
        actor = self.current
        self._log.append((records[actor], None))
        if kind == _RETURN:
            assert isinstance(action, act.Return)
            self.returning.remove(action.tile)
            self._place(action.tile, action.end, action.flip)
        else:
            line = self.line
            before = tuple(line), "".join(map(self.up.__getitem__, line))
            self._main(action, kind)
            self.main_done = True
            self.last_main = action  # the listed instance, so legality compares by identity
            if kind != _PASS_KIND and (kind != _LAY or self.game.options["phase1_scoring"]):
                # What the action created: what shows after, less what showed before (most
                # lines show nothing: their faces say so without building combinations).
                shown = "".join(map(self.up.__getitem__, line))
                if centres(shown):
                    created = combinations_shown(line, shown) - combinations_shown(*before)
                    self._score(created, actor)
        if not self.over and not self.returning:
            self._end_turn()

    def _main(self, action: act.BlueLionAction, kind: int) -> None:
        line = self.line
        if kind == _LAY:
            assert isinstance(action, act.Lay)
            self.pool.remove(action.tile)
            self._place(action.tile, action.end or "right", action.flip)
        elif kind == _PASS_KIND:
            self.passed = True
        elif kind == _MOVE:
            assert isinstance(action, act.MoveEnd)
            if line[0] == action.tile:
                line.append(line.pop(0))
            else:
                line.insert(0, line.pop())
        elif kind == _SWAP:
            assert isinstance(action, act.Swap)
            i, j = line.index(action.first), line.index(action.second)
            line[i], line[j] = line[j], line[i]
        else:
            assert isinstance(action, act.Flip)
            self._flip(action.tile)

    def _place(self, tile: str, end: str, flip: bool) -> None:
        """Put `tile` at an end, turning it over blind first if asked (the end is chosen first)."""
        if flip:
            self._flip(tile)
        if end == "left":
            self.line.insert(0, tile)
        else:
            self.line.append(tile)

    def _flip(self, tile: str) -> None:
        face = self.up[tile] = _BACKS[self._pairs[tile], self.up[tile]]
        self._log.append((_REVEALS[tile, face], None))

    def _score(self, created: set[Combination], actor: str) -> None:
        """Score what the main action created, set the centres aside, and check for a winner
        (only scoring changes the scores, so nothing created cannot reach the target)."""
        if not created:
            return
        for combination in sorted(created, key=lambda c: self.line.index(c.centre)):
            who = combination.beneficiary(actor)
            self.scores[who] += combination.pattern.points
            tiles = (combination.left, combination.centre, combination.right)
            self._emit(seen.Score(combination.faces, tiles, who, combination.pattern.points))
        for combination in created:
            self.line.remove(combination.centre)
            self.aside.append(combination.centre)
        self.aside.sort()
        target = self.game.options["target"]
        reached = [seat for seat in SEATS if self.scores[seat] >= target]
        if reached:
            best = max(self.scores.values())
            leaders = [seat for seat in SEATS if self.scores[seat] == best]
            self._finish((actor,) if len(leaders) == 2 else tuple(leaders), "target")

    def _end_turn(self) -> None:
        self.returning, self.aside = self.aside, []
        self.current = _OPPONENT[self.current]
        self.main_done = False
        self.turns += 1
        limit = self.game.options["turn_limit"]
        if limit is not None and self.turns >= limit:
            best = max(self.scores.values())
            self._finish(tuple(s for s in SEATS if self.scores[s] == best), "turn limit")

    def _finish(self, winners: tuple[str, ...], reason: str) -> None:
        self.over = True
        self._winners = winners
        self._emit(seen.End(winners, reason))

    # --- hidden worlds, cloning, JSON ------------------------------------------------------
    def with_pairs(self, pairs: Mapping[str, frozenset[str]]) -> BlueLionState:
        """A clone whose hidden tile pairs are `pairs` (a determinization for search).

        The caller guarantees `pairs` agrees with every face seen so far.
        """
        clone = self.clone()
        clone._pairs = dict(pairs)
        if self._setup is not None:
            clone._setup = self._setup.replaced(
                pairs={tile: sorted(pair) for tile, pair in pairs.items()}
            )
        return clone

    def _to_dict(self) -> dict[str, JsonValue]:
        return {
            "pairs": {tile: sorted(pair) for tile, pair in self._pairs.items()},
            "up": self.up,
            "pool": self.pool,
            "line": self.line,
            "aside": self.aside,
            "returning": self.returning,
            "scores": self.scores,
            "current": self.current,
            "main_done": self.main_done,
            "passed": self.passed,
            "last_main": None if self.last_main is None else str(self.last_main),
            "turns": self.turns,
            "winners": list(self._winners),
            "over": self.over,
        }

    # --- invariants ------------------------------------------------------------------------
    def _broken_invariants(self) -> list[str]:
        broken = []
        places = self.pool + self.line + self.aside + self.returning
        if len(places) != len(TILES) or set(places) != set(TILES):
            broken.append(f"each tile is in exactly one place, not {places}")
        if len(set(self._pairs.values())) != len(PAIRS) or not set(self._pairs.values()) <= _PAIRS:
            broken.append("the six tiles carry the six pairs of icons, each once")
        if any(self.up[tile] not in self._pairs[tile] for tile in TILES):
            broken.append("each tile shows one of its two faces")
        if self.pool != sorted(self.pool) or self.aside != sorted(self.aside):
            broken.append("tiles not laid and tiles set aside are kept in order")
        if self.returning != sorted(self.returning):
            broken.append("tiles to return are kept in order")
        broken += self._broken_turn()
        broken += self._broken_record()
        return broken

    def _broken_turn(self) -> list[str]:
        """Whose turn it is, and how far: returns come after the main action, and only then."""
        broken = []
        options = self.game.options
        limit, target = options["turn_limit"], options["target"]
        if not self.over:
            if self.main_done and not self.returning:
                broken.append("a player stays after the main action only to return tiles")
            if self.aside and not self.main_done:
                broken.append("tiles are set aside only by the main action of this turn")
            if self.returning and self.turns == 0:
                broken.append("nothing is returned on the first turn")
            if max(self.scores.values()) >= target:
                broken.append(f"a score of {target} ends the game")
            if limit is not None and self.turns >= limit:
                broken.append(f"the game ends after {limit} turns")
        elif max(self.scores.values()) < target and (limit is None or self.turns < limit):
            broken.append("the game ended without the target score or the turn limit")
        if self.last_main is None and (self.turns or self.main_done):
            broken.append("after the first main action, the previous one is known")
        if self.pool and isinstance(self.last_main, act.MoveEnd | act.Swap | act.Flip):
            broken.append("phase 2 moves come only once every tile is laid")
        return broken

    def _broken_record(self) -> list[str]:
        """The scores, the single pass and whose turn, against the public record."""
        log = self._log
        start = log[len(TILES)][0] if len(log) > len(TILES) else None
        first = start.seat if isinstance(start, seen.First) else None
        if first not in SEATS:
            return ["the record starts with the toss of each tile and who plays first"]
        broken = []
        lupin, fujiko, passes = self._summarise_log(_tally, (0, 0, 0))
        points = {SEATS[0]: lupin, SEATS[1]: fujiko}
        if points != self.scores:
            broken.append(f"the scores {self.scores} are not those recorded, {points}")
        if passes != self.passed or passes > 1:
            broken.append("somebody passed exactly when the record shows one pass")
        expected = first if self.turns % 2 == 0 else opponent(first)
        if not self.over and self.current != expected:
            broken.append(f"after {self.turns} turns from {first}, it is {expected}'s turn")
        return broken


_PAIRS = frozenset(PAIRS)
_ACTION_TYPES = (act.Lay, act.Pass, act.MoveEnd, act.Swap, act.Flip, act.Return)
_FLIPPED = (False, True)
_FIRST_LAYS = {tile: tuple(act.Lay(tile, None, flip) for flip in _FLIPPED) for tile in TILES}
_LAYS = {
    tile: tuple(act.Lay(tile, e, flip) for e in act.ENDS for flip in _FLIPPED) for tile in TILES
}
_RETURNS = {
    tile: tuple(act.Return(tile, e, flip) for e in act.ENDS for flip in _FLIPPED) for tile in TILES
}
_MOVES = {tile: act.MoveEnd(tile) for tile in TILES}
_FLIPS = {tile: act.Flip(tile) for tile in TILES}
_SWAPS = {(a, b): act.Swap(a, b) for a in TILES for b in TILES if a < b}
_SWAPS.update({(b, a): swap for (a, b), swap in _SWAPS.items()})  # one instance per swap
_PASS = act.Pass()
_LISTED_ACTIONS: tuple[act.BlueLionAction, ...] = (
    *(lay for lays in (*_FIRST_LAYS.values(), *_LAYS.values()) for lay in lays),
    *(ret for rets in _RETURNS.values() for ret in rets),
    *_MOVES.values(),
    *_SWAPS.values(),
    *_FLIPS.values(),
    _PASS,
)
_CANONICAL: dict[Action, act.BlueLionAction] = {action: action for action in _LISTED_ACTIONS}
"""The one instance of each action that `_legal_actions` lists."""
_LAY, _RETURN, _PASS_KIND, _MOVE, _SWAP, _FLIP = range(6)
_KINDS = {
    act.Lay: _LAY,
    act.Return: _RETURN,
    act.Pass: _PASS_KIND,
    act.MoveEnd: _MOVE,
    act.Swap: _SWAP,
    act.Flip: _FLIP,
}
_LISTED: dict[int, tuple[act.BlueLionAction, dict[str, seen.Act], int]] = {
    id(action): (
        action,
        {seat: seen.Act(seat, str(action)) for seat in SEATS},
        _KINDS[type(action)],
    )
    for action in _LISTED_ACTIONS
}
"""By the id of each listed instance (they live as long as the module, so no other object
has their id): the instance, each seat's record of playing it (observations are immutable,
so shared) and its kind."""


def listed(action: Action) -> bool:
    """Whether `action` is an instance `legal_actions` lists (one that is known by identity)."""
    return id(action) in _LISTED


_BACKS = {(pair, face): other_face(pair, face) for pair in PAIRS for face in pair}
_REVEALS = {(tile, face): seen.Reveal(tile, face) for tile in TILES for face in ICONS}
"""Each tile's record of being turned over to each face (shared, like the records above)."""
_OPPONENT = {SEATS[0]: SEATS[1], SEATS[1]: SEATS[0]}


@functools.cache
def _returns(returning: tuple[str, ...]) -> tuple[act.Return, ...]:
    """The returns of the tiles set aside last turn, in order."""
    return tuple(action for tile in returning for action in _RETURNS[tile])


@functools.cache
def _lays(pool: tuple[str, ...], first: bool, may_pass: bool) -> tuple[act.BlueLionAction, ...]:
    """The lays of the tiles not yet laid, in order (`first`: onto the empty line), then
    the pass if it may be used."""
    lays = _FIRST_LAYS if first else _LAYS
    return (*(lay for tile in pool for lay in lays[tile]), *((_PASS,) if may_pass else ()))


def _phase_two(
    line: tuple[str, ...], zone: str, last: act.BlueLionAction | None, may_pass: bool
) -> tuple[act.BlueLionAction, ...]:
    """The phase-2 moves on `line` but the previous player's move `last` (a listed
    instance, compared by identity), then the pass if it may be used; kept by the id of
    `last`, which lives as long as the module."""
    key = (line, zone, id(last), may_pass)
    found = _PHASE_TWO.get(key)
    if found is None:
        moves = [action for action in _moves(line, zone) if action is not last]
        found = (*moves, *((_PASS,) if may_pass else ()))
        if last is None or id(last) in _LISTED:
            _PHASE_TWO[key] = found
    return found


_PHASE_TWO: dict[tuple[tuple[str, ...], str, int, bool], tuple[act.BlueLionAction, ...]] = {}


@functools.cache
def _moves(line: tuple[str, ...], zone: str) -> tuple[act.BlueLionAction, ...]:
    """The phase-2 moves on `line` (before leaving out the previous player's move)."""
    moves: list[act.BlueLionAction] = [_MOVES[line[0]], _MOVES[line[-1]]] if len(line) >= 2 else []
    moves += [_SWAPS[line[i], line[i + 1]] for i in swap_pairs(len(line), zone)]
    return (*moves, *(_FLIPS[tile] for tile in line))


def _tally(tally: tuple[int, int, int], entry: LogEntry) -> tuple[int, int, int]:
    """Points recorded for lupin and fujiko, and passes recorded, after one more entry."""
    lupin, fujiko, passes = tally
    obs = entry[0]
    match obs:
        case seen.Score(seat=seat, points=gained):
            gained = gained if type(gained) is int else 0
            return (
                lupin + gained * (seat == SEATS[0]),
                fujiko + gained * (seat == SEATS[1]),
                passes,
            )
        case seen.Act(action="pass"):
            return (lupin, fujiko, passes + 1)
    return tally
