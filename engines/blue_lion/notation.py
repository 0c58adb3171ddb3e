"""Blue Lion's typed notation: what a player at a real table types, read into observations.

Both players see everything, so a line says what happened and the rest is derived by replaying
the record so far with the rules: whose move it is, which tile a reveal belongs to, and every
score and the end (which follow from the line and its faces). Only the faces a tile shows,
who starts and the moves themselves must be typed.

    toss LFZFBL            the toss, t1..t6 in order (or `toss t1 L t2 F ...`, `toss t1:L`)
    first lupin            who lays the first tile
    lay t3 left flip       a move, in the game's action notation (`fujiko: move t5` names
                           the mover too, checked); a move that turns a tile over may end
                           with the face it showed: `flip t3 Z`
    reveal t3 Z            the face a tile showed when turned over (`reveal Z`)
    score FBF t4 t2 t6     a combination the last move made (`score` alone: the next one)
    end fujiko             the game is over, and who won (`end` alone)
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Callable, Collection, Sequence
from itertools import permutations
from typing import TYPE_CHECKING

from engines.blue_lion import observations as seen
from engines.blue_lion.actions import ENDS, BlueLionAction, parse
from engines.blue_lion.material import ICONS, PAIRS, PATTERNS, SEATS, TILES
from engines.blue_lion.state import BlueLionState
from engines.errors import IllegalAction, InvalidAction, InvalidObservation
from engines.notation import (
    AmbiguousName,
    Fold,
    GameNotation,
    Vocabulary,
    read_int,
    respell,
    tokens,
)
from engines.observations import Observation
from engines.values import Seat, quote

if TYPE_CHECKING:
    from engines.blue_lion.game import BlueLion

FACE_NAMES: dict[str, str] = {
    "Lupin": "L",
    "Fujiko": "F",
    "Zenigata": "Z",
    "Blue-Lion": "B",
    **{icon: icon for icon in ICONS},
}
FACES = Vocabulary("face", [*ICONS, *(name for name in FACE_NAMES if name not in ICONS)])
TILE_NAMES = Vocabulary("tile", TILES)
SEAT_NAMES = Vocabulary("seat", SEATS)
VERBS = ("lay", "pass", "move", "swap", "flip", "return")
KINDS = ("toss", "first", "reveal", "score", "end")
ENTRY_WORDS = Vocabulary("keyword", [*KINDS, *VERBS, *SEATS])
MOVE_WORDS = Vocabulary("move", VERBS)
REASONS = {"target": "target", "turn-limit": "turn limit"}
REASON_NAMES = Vocabulary("reason", REASONS)
COMBINATIONS = ", ".join("-".join(faces) for faces in PATTERNS)
Owed = seen.Score | seen.End
"""What the game shows after a move, which a person may type to confirm."""
Check = Callable[[Sequence[str], Owed], None]

HELP: tuple[tuple[str, str], ...] = (
    (
        "toss LFZFBL",
        "the toss: the face each tile landed showing, t1 to t6 in order (L Lupin, F Fujiko, "
        "Z Zenigata, B the Blue Lion); also tile by tile: toss t1 L t2 F (or t1:L)",
    ),
    ("first lupin", "who lays the first tile (lupin or fujiko)"),
    (
        "lay t3 left flip",
        "a move as the game writes it: lay TILE [left|right] [flip], pass, move TILE, "
        "swap TILE TILE, flip TILE, return TILE left|right [flip]; the player to move is "
        "filled in (or name them: fujiko: move t5)",
    ),
    (
        "reveal t3 Z",
        "the face a tile showed when turned over (reveal Z: the tile just turned); or add "
        "the face to the move itself: flip t3 Z, lay t3 left flip Z",
    ),
    (
        "score FBF t4 t2 t6",
        f"a combination the last move made ({COMBINATIONS}); it follows from the line, so "
        "`score` alone records the next one, and anything typed is checked",
    ),
    ("end fujiko", "the game is over and who won; `end` alone fills in the winner"),
)


# --- the record so far ------------------------------------------------------------------------
class Record(Fold):
    """The public game the observations so far describe, replayed by the rules.

    Backs nobody has seen are stand-ins: each flip is replayed with the face its reveal
    recorded, so scores and the end come out exactly as the game shows them, whatever the
    hidden backs are. Read one observation at a time (`add`), so a growing record is
    replayed once.
    """

    def __init__(self, game: BlueLion) -> None:
        self.game = game
        self.count = 0
        self.toss: dict[str, str] = {}
        self.seen: dict[str, list[str]] = {tile: [] for tile in TILES}
        self.first: str | None = None
        self.state: BlueLionState | None = None
        self.flipping: tuple[Observation, BlueLionAction] | None = None
        """A move that turned a tile over, recorded before the reveal it owes."""
        self.owed: list[Observation] = []
        """What the game showed after the last move and the record does not have yet."""

    @property
    def flipped(self) -> str | None:
        """The tile whose reveal the record owes, if any."""
        return None if self.flipping is None else self.flipping[1].flipped_tile

    def add(self, obs: Observation) -> None:
        """Take in the next observation of the record.

        Raises:
            InvalidObservation: it is not what the game shows there.
        """
        try:
            self._read(obs)
        except (InvalidAction, IllegalAction) as error:
            raise self._refuse(obs, str(error)) from None
        self.count += 1

    def _read(self, obs: Observation) -> None:
        if not _well_formed(obs):
            raise InvalidObservation(
                f"observation {self.count} before this entry is not one of blue-lion: {quote(obs)}"
            )
        if isinstance(obs, seen.FaceShown):
            self.seen.setdefault(obs.tile, []).append(obs.face)
        if self.state is None:
            self._read_setup(obs)
        elif self.owed:
            if obs != self.owed[0]:
                raise self._refuse(obs, f"the game shows {self.game.describe(self.owed[0])}")
            self.owed.pop(0)
        elif self.flipping is not None:
            self._read_reveal(obs, *self.flipping)
        elif isinstance(obs, seen.Act):
            self._read_act(obs)
        else:
            raise self._refuse(obs, "only a move comes next")

    def _read_setup(self, obs: Observation) -> None:
        if len(self.toss) < len(TILES):
            tile = TILES[len(self.toss)]
            if not isinstance(obs, seen.Toss) or obs.tile != tile:
                raise self._refuse(obs, f"the toss of {tile} comes next")
            self.toss[tile] = obs.face
        elif isinstance(obs, seen.First):
            self.first = obs.seat
            self.state = _table(self.game, self.toss, self.first)
        else:
            raise self._refuse(obs, "who starts comes next")

    def _read_act(self, obs: seen.Act) -> None:
        assert self.state is not None
        action = parse(obs.action)
        if obs.seat != self.state.to_move:
            raise self._refuse(obs, f"it is {self.state.to_move}'s move")
        if action.flipped_tile is not None:
            _probe(self.state, action, None)
            self.flipping = (obs, action)
        else:
            self._play(action, None)
            self.owed.pop(0)

    def _read_reveal(self, obs: Observation, act: Observation, action: BlueLionAction) -> None:
        tile = action.flipped_tile
        assert tile is not None and self.state is not None
        if not isinstance(obs, seen.Reveal) or obs.tile != tile:
            raise self._refuse(obs, f"the face {tile} showed when turned over comes next")
        face = obs.face
        if face == self.state.up[tile]:
            raise self._refuse(obs, f"a turned tile shows its other face, not {face}")
        self.flipping = None
        self._play(action, face)
        if self.owed[:2] != [act, obs]:
            raise self._refuse(obs, "the game shows something else")  # pragma: no cover
        del self.owed[:2]

    def _play(self, action: BlueLionAction, face: str | None) -> None:
        """Apply `action` (turning its tile to `face`); what the game shows is owed."""
        assert self.state is not None
        shown = self.state.observation_count
        _turn_to(self.state, action, face)
        self.state.apply(action)
        self.owed = [obs for obs, _ in self.state.recorded(shown)]

    def _refuse(self, obs: Observation, why: str) -> InvalidObservation:
        return InvalidObservation(
            f"observation {self.count} before this entry ({self.game.describe(obs)}) does not "
            f"follow the record: {why}"
        )


def _well_formed(obs: object) -> bool:
    """An observation whose fields `describe` and the replay can read (the replay checks
    the rest, scores and the end included, against what the game shows)."""
    match obs:
        case seen.FaceShown(tile=tile, face=face):
            return _is_one(tile, TILES) and _is_one(face, ICONS)
        case seen.First(seat=seat):
            return _is_one(seat, SEATS)
        case seen.Act(seat=seat, action=action):
            return _is_one(seat, SEATS) and type(action) is str
        case seen.Score(faces=faces, tiles=tiles, seat=seat):
            return (
                _is_one(faces, PATTERNS)
                and type(tiles) is tuple
                and len(tiles) == 3
                and all(_is_one(tile, TILES) for tile in tiles)
                and _is_one(seat, SEATS)
            )
        case seen.End(winners=winners):
            return type(winners) is tuple and all(_is_one(seat, SEATS) for seat in winners)
    return False


def _is_one(value: object, allowed: Collection[str]) -> bool:
    return type(value) is str and value in allowed


def _table(game: BlueLion, toss: dict[str, str], first: str) -> BlueLionState:
    """The tossed line before the first move, with stand-in backs (never read)."""
    pairs = {tile: frozenset((face, _other(face))) for tile, face in toss.items()}
    return BlueLionState(game, random.Random(0), pairs, toss, first)


def _other(face: str) -> str:
    return next(icon for icon in ICONS if icon != face)


def _turn_to(state: BlueLionState, action: BlueLionAction, face: str | None) -> None:
    """Give the tile `action` turns over the back `face` (a stand-in when None)."""
    tile = action.flipped_tile
    if tile is not None:
        up = state.up[tile]
        state._pairs = {**state._pairs, tile: frozenset((up, face or _other(up)))}


def _probe(state: BlueLionState, action: BlueLionAction, face: str | None) -> None:
    """Raise IllegalAction unless `action` is legal now (on a copy)."""
    copy = state.clone()
    _turn_to(copy, action, face)
    copy.apply(action)


# --- reading a line ---------------------------------------------------------------------------
class Notation(GameNotation["BlueLion"]):
    """Reads typed lines for one configured game, keeping the last record replayed."""

    FORMS = HELP

    def record(self, before: tuple[Observation, ...]) -> Record:
        """The record `before` describes; a record that grows is replayed once."""
        return self.resumed(before, lambda: Record(self.game))

    def words(self) -> list[str]:
        """Every word of the notation, for Tab completion."""
        return [*KINDS, *VERBS, *SEATS, *TILES, *ENDS, *FACE_NAMES, *REASONS]

    def parse(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        """The observations `text` records after `before` (see the module docstring); both
        seats see the same, so `seat` changes nothing."""
        words = tokens(text.replace(":", " "))
        if not words:
            raise InvalidObservation(f"{quote(text)} says nothing; type what you saw")
        head = _head(words[0])
        record = self.record(before)
        if head == "toss":
            return _toss(words[1:], record)
        if head == "first":
            return (_first(words[1:], record),)
        if head == "reveal":
            return (_reveal(words[1:], record),)
        if head == "score":
            return (_owed(seen.Score, words[1:], record, _check_score),)
        if head == "end":
            return (_owed(seen.End, words[1:], record, _check_end),)
        return _move(words, record)


def _head(word: str) -> str:
    """The kind of entry (or move, or player) the first word names."""
    try:
        return ENTRY_WORDS.read(word)
    except AmbiguousName:
        raise
    except InvalidObservation:
        close = ENTRY_WORDS.suggestion(word)
        raise InvalidObservation(
            f"{quote(word)} does not start an entry{close if 'did you mean' in close else ''}; "
            f"an entry starts with one of {', '.join(ENTRY_WORDS.names)}"
        ) from None


def _toss(args: Sequence[str], record: Record) -> tuple[Observation, ...]:
    if record.state is not None or len(record.toss) == len(TILES):
        raise InvalidObservation("the toss is over: all six tiles landed already")
    left = TILES[len(record.toss) :]
    if not args:
        raise InvalidObservation(f"a toss gives faces: toss {'LFZFBL'[: len(left)]}")
    if any(word[:1].lower() == "t" for word in args):
        faces = _tile_faces(args, left)
    else:
        faces = dict(zip(left, _faces_in_order(args, left), strict=True))
    if not _possible(record.toss | faces):
        shown = " ".join(f"{tile}:{face}" for tile, face in (record.toss | faces).items())
        raise InvalidObservation(
            f"no toss shows {shown}: each icon is on three tiles, and the six tiles carry "
            "the six pairs of icons"
        )
    return tuple(seen.Toss(tile, face) for tile, face in faces.items())


def _tile_faces(args: Sequence[str], left: Sequence[str]) -> dict[str, str]:
    """`t1 L t2 F ...`: the next tiles of the toss, each with its face, in tile order."""
    if len(args) % 2:
        raise InvalidObservation(
            f"tile by tile, a toss names a tile and its face each time (toss t1 L t2 F), "
            f"not {quote(' '.join(args))}"
        )
    tiles = TILE_NAMES.read_all(args[0::2])
    faces = dict(zip(tiles, (read_face(word) for word in args[1::2]), strict=True))
    wanted = list(left[: len(tiles)])
    if sorted(tiles) != wanted:
        raise InvalidObservation(
            f"the tiles are tossed in order: next come {' '.join(wanted)}, "
            f"not {' '.join(sorted(tiles))}"
        )
    return {tile: faces[tile] for tile in wanted}


def _faces_in_order(args: Sequence[str], left: Sequence[str]) -> list[str]:
    """`LFZFBL` (or `L F Z ...`, or names): one face for each tile still to toss."""
    faces: list[str] = []
    for word in args:
        if re.fullmatch(r"[lfzbLFZB]+", word):
            faces += [letter.upper() for letter in word]
        else:
            faces.append(read_face(word))
    if len(faces) != len(left):
        raise InvalidObservation(
            f"the toss needs one face for each of {' '.join(left)} in order, so "
            f"{len(left)} faces, not {len(faces)} in {quote(' '.join(args))} "
            f"(e.g. toss {'LFZFBL'[: len(left)]})"
        )
    return faces


def _possible(toss: dict[str, str]) -> bool:
    """Some way to put the six pairs on the six tiles shows every face tossed."""
    return any(
        all(toss[tile] in pair for tile, pair in zip(TILES, perm, strict=True) if tile in toss)
        for perm in permutations(PAIRS)
    )


def read_face(word: str) -> str:
    """The icon a face names: its letter (L, F, Z, B) or its name (Lupin, Blue-Lion)."""
    return FACE_NAMES[FACES.read(word)]


def _first(args: Sequence[str], record: Record) -> Observation:
    if len(record.toss) < len(TILES):
        raise InvalidObservation(
            f"first comes after the toss; the toss of {TILES[len(record.toss)]} is missing"
        )
    if record.state is not None:
        raise InvalidObservation(f"{record.first} started already")
    chosen = record.game.options["first_player"]
    if len(args) > 1 or (not args and chosen == "random"):
        raise InvalidObservation(
            f"first names who starts: first lupin or first fujiko, not {quote(' '.join(args))}"
        )
    seat = SEAT_NAMES.read(args[0]) if args else chosen
    if chosen not in ("random", seat):
        raise InvalidObservation(f"{chosen} starts: the option first_player is {chosen!r}")
    return seen.First(seat)


def _reveal(args: Sequence[str], record: Record) -> Observation:
    tile = record.flipped
    if tile is None:
        raise InvalidObservation(
            _waiting(record)
            or "no tile was just turned over: a reveal follows lay/return ... flip or flip TILE"
        )
    if len(args) not in (1, 2) or (len(args) == 2 and TILE_NAMES.read(args[0]) != tile):
        raise InvalidObservation(
            f"{tile} was just turned over: reveal {tile} FACE (or reveal FACE), "
            f"not {quote(' '.join(args))}"
        )
    return _revealed(record, tile, read_face(args[-1]))


def _revealed(record: Record, tile: str, face: str) -> Observation:
    """The reveal of `tile` showing `face`, refused when the tile cannot show it."""
    assert record.state is not None
    up = record.state.up[tile]
    shown = set(record.seen[tile])
    if face == up:
        raise InvalidObservation(
            f"{tile} showed {face} before it was turned over: turned, it shows its other face"
        )
    if len(shown) == 2 and face not in shown:
        (back,) = shown - {up}
        raise InvalidObservation(
            f"{tile} has shown {' and '.join(sorted(shown))}, so turned over it shows {back}, "
            f"not {face}"
        )
    return seen.Reveal(tile, face)


def _waiting(record: Record) -> str | None:
    """What the record owes before anything else can be typed, said as the line to type."""
    if record.state is None:
        if len(record.toss) < len(TILES):
            next_tile = TILES[len(record.toss)]
            return f"the toss of {next_tile} comes first (toss {next_tile} FACE)"
        return "who starts comes first (first lupin or first fujiko)"
    tile = record.flipped
    if tile is not None:
        return f"first type the face {tile} showed when turned over (reveal {tile} FACE)"
    if record.owed:
        shown = record.owed[0]
        return f"first type what the game shows: {record.game.describe(shown)} " + (
            f"({record.game.observation_text(shown)})"
        )
    return None


def _owed(kind: type[Owed], args: Sequence[str], record: Record, check: Check) -> Observation:
    """The score or end the game shows next, checked against what was typed of it."""
    expected = record.owed[0] if record.owed else None
    if isinstance(expected, kind):
        check(args, expected)
        return expected
    waiting = _waiting(record)
    if waiting is not None:
        raise InvalidObservation(waiting)
    if kind is seen.Score:
        raise InvalidObservation("nothing scored: the last move made no combination")
    raise InvalidObservation("the game is not over: nobody has won yet")


def _check_score(args: Sequence[str], expected: Owed) -> None:
    assert isinstance(expected, seen.Score)
    tiles: list[str] = []
    for word in args:
        if word[:1].lower() == "t":
            tiles.append(TILE_NAMES.read(word))
        elif re.fullmatch(r"[lfzbLFZB-]+", word):
            _same(word, "-".join(_pattern(word)), "-".join(expected.faces), "the combination")
        elif word.isdigit():
            _same(word, read_int(word, "points", 1, 3), expected.points, "the points")
        else:
            _same(word, SEAT_NAMES.read(word), expected.seat, "who scores")
    left, centre, right = expected.tiles
    if tiles and tiles not in ([centre], [left, centre, right], [right, centre, left]):
        raise InvalidObservation(
            f"the combination made is {expected.text()[6:]} (centre {centre}), "
            f"not {' '.join(tiles)}"
        )


def _pattern(word: str) -> str:
    faces = word.replace("-", "").upper()
    if faces not in PATTERNS:
        raise InvalidObservation(f"{quote(word)} is not a combination; they are {COMBINATIONS}")
    return faces


def _check_end(args: Sequence[str], expected: Owed) -> None:
    assert isinstance(expected, seen.End)
    typed = " ".join(args).lower().replace("turn limit", "turn-limit").split()
    winners = [word for word in typed if not _is_reason(word)]
    reasons = [REASONS[REASON_NAMES.read(word)] for word in typed if _is_reason(word)]
    if winners:
        _same(
            " ".join(winners),
            set(SEAT_NAMES.read_all(winners)),
            set(expected.winners),
            "who won",
        )
    for reason in reasons:
        _same(reason, reason, expected.reason, "why the game ended")


def _is_reason(word: str) -> bool:
    return word in ("target", "turn-limit", "turn", "limit")


def _same(typed: str, value: object, expected: object, what: str) -> None:
    if value != expected:
        shown = " and ".join(sorted(expected)) if isinstance(expected, set) else expected
        raise InvalidObservation(f"{what}: the record shows {shown}, not {quote(typed)}")


def _move(words: Sequence[str], record: Record) -> tuple[Observation, ...]:
    """A move, perhaps after its player's name, perhaps followed by the face it turned up."""
    named = _head(words[0])
    if named in SEATS:
        if len(words) == 1:
            raise InvalidObservation(f"after a player comes their move: {named}: move t5")
        words = [MOVE_WORDS.read(words[1]), *words[2:]]
    else:
        words = [named, *words[1:]]
    state = _mover_state(record)
    if named in SEATS and named != state.to_move:
        raise InvalidObservation(f"it is {state.to_move}'s move, not {named}'s")
    try:
        action, face = _action_and_face(words)
    except InvalidObservation as error:
        raise InvalidObservation(f"{error}{_did_you_mean(words, state)}") from None
    tile = action.flipped_tile
    reveal = () if face is None or tile is None else (_revealed(record, tile, face),)
    try:
        _probe(state, action, face)
    except IllegalAction as error:
        raise InvalidObservation(str(error)) from None
    return (seen.Act(str(state.to_move), str(action)), *reveal)


def _mover_state(record: Record) -> BlueLionState:
    waiting = _waiting(record)
    if waiting is not None:
        raise InvalidObservation(waiting)
    assert record.state is not None
    if record.state.is_over:
        raise InvalidObservation("the game is over: no more moves")
    return record.state


def _action_and_face(words: Sequence[str]) -> tuple[BlueLionAction, str | None]:
    """The move `words` write, and the face it turned up when they end with one."""
    text = " ".join(words)
    try:
        return parse(text), None
    except InvalidAction as error:
        problem = InvalidObservation(str(error))
        face = _face_or_none(words[-1]) if len(words) > 2 else None
        if face is None:
            raise problem from None
    try:
        action = parse(" ".join(words[:-1]))
    except InvalidAction:
        raise problem from None
    if action.flipped_tile is None:
        raise InvalidObservation(
            f"{action} turns no tile over, so no face follows it: {quote(text)}"
        )
    return action, face


MOVE_SPELLINGS = (*VERBS, *TILES, "left", "right", "flip", *FACE_NAMES)
"""Every word a move (and the face it turned up) is written with."""


def _did_you_mean(words: Sequence[str], state: BlueLionState) -> str:
    """ "; did you mean lay t4 right?": the move the words make once respelt, when it is
    legal now; else the legal moves closest to what was typed."""
    legal = [str(action) for action in state.legal_actions()]
    fixed = respell(words, MOVE_SPELLINGS)
    if fixed is not None:
        moves = [fixed] + ([fixed[:-1]] if len(fixed) > 2 and _face_or_none(fixed[-1]) else [])
        for move in map(" ".join, moves):  # the move alone, or the move and the face shown
            try:
                if str(parse(move)) in legal:
                    return f"; did you mean {' '.join(fixed)}?"
            except InvalidAction:
                pass
    close = difflib.get_close_matches(" ".join(words).lower(), legal, n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else ""


def _face_or_none(word: str) -> str | None:
    try:
        return read_face(word)
    except InvalidObservation:
        return None
