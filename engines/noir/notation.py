"""Noir's typed notation: what a person at a real table types for what their seat saw.

One line per thing seen, in the words of the game ("kill Ada", "inspector shift row 1 right",
"canvas !"). What follows from the lines before is left out and derived here: the rows after a
shift or a collapse, the kill count, who answers a canvas and about which card, who shifted
(the seat to move), the outcome of what the typing seat can tell for itself (the killer knows
whether an arrest caught him, either seat knows its own canvas answer). Suspects may be
shortened to a unique prefix ("a" for Ada); rows of the grid are separated by "/".

Each line is checked against the rules and what the seat can see: the killer never sees the
inspector's hand, identity or drawn card, a grid holds each suspect of the game once, a hand
holds four cards, and a line must wait for what the game still owes (a canvas after an
exoneration, a collapse after a kill that empties a line) before the next action.

`Record` folds a seat's observations into the public course of the game and that seat's own
cards; the solver's validator uses it too, to tell a record that merely stops early (the game
still owes it an observation) from a wrong one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from engines.errors import InvalidObservation
from engines.noir import observations as seen
from engines.noir.grid import LINES, Grid, adjacent, block, collapsed, neighbours, shifted
from engines.noir.material import HAND, INSPECTOR, KILLER, SEATS
from engines.noir.observations import END_REASONS  # sleuth.web.taps reads it from here
from engines.notation import Fold, GameNotation, Vocabulary, read_int, tokens
from engines.observations import Observation, ObservationKind
from engines.values import Seat, quote

if TYPE_CHECKING:
    from engines.noir.game import Noir

Kind = type[ObservationKind]
"""The kind of observation a typed line records, by its class (a disguise's is the base of
its two shapes, `DisguiseTried`)."""
_ALIASES = {"grid": "setup", "choose": "chose-identity", "!": "canvas", "?": "canvas"}
ANSWERS = {"!": True, "yes": True, "?": False, "no": False}
DISGUISES = ("innocent", "failed", "as")
OWED_FORMS: dict[Kind, str] = {
    seen.IdentityTold: "identity NAME",
    seen.Hand: "hand NAME NAME NAME NAME",
    seen.Drew: "drew NAME",
    seen.Canvas: "canvas ! or canvas ?",
    seen.Collapsed: "collapse",
    seen.End: "end",
}
"""How a person types each kind of observation the game may owe."""


@dataclass(frozen=True)
class Owed:
    """An observation the game owes the seat before anything else happens: its `kind`, the
    fields known in advance, and `waiting_for`, what it is in words."""

    kind: Kind
    waiting_for: str
    seat: str = ""
    suspect: str = ""
    rows: Grid = ()
    answer: bool | None = None  # a canvas answer the seat knows itself


@dataclass
class Record(Fold):
    """The public course of a game and the seat's own cards, folded from its observations."""

    game: Noir
    seat: str
    observed: int = 0  # how many observations are folded in
    grid: Grid = ()
    dead: list[str] = field(default_factory=list)
    innocent: set[str] = field(default_factory=set)
    hand: list[str] = field(default_factory=list)  # the inspector's own cards in hand
    held: set[str] = field(default_factory=set)  # every card the inspector has held
    dealt: set[str] = field(default_factory=set)  # the inspector's four first cards
    me: str | None = None  # the seat's own identity
    turns: int = 0
    chosen: bool = False
    drawn: bool = False
    draws: int = 0
    disguises: int = 0
    citizen_arrests: int = 0
    protected: tuple[str, int, str] | None = None  # the last shift, not to be undone
    owed: list[Owed] = field(default_factory=list)
    reasons: tuple[str, ...] = ()  # the ways the game may have ended by now
    over: bool = False

    @classmethod
    def of(cls, game: Noir, seat: str, observations: Sequence[Observation]) -> Record:
        return cls(game, seat).added(observations)

    # --- what the record says now --------------------------------------------------------
    @property
    def to_move(self) -> str:
        return SEATS[self.turns % 2]

    @property
    def kills(self) -> int:
        return len(self.dead)

    def waiting_for(self) -> str | None:
        """What the game owes before the next action, if anything."""
        return self.owed[0].waiting_for if self.owed else None

    def deck_left(self, seat: str) -> int:
        """Cards left in the deck `seat` draws from (every draw is public)."""
        names = len(self.game.suspects)
        if self.game.options["deck"] == "separate":
            return names - 1 - self.disguises if seat == KILLER else names - 1 - HAND - self.draws
        return names - 1 - HAND - self.draws - self.disguises

    # --- folding ---------------------------------------------------------------------------
    def add(self, obs: Observation) -> None:
        """Fold one more observation in (checked elsewhere: the parser or the validator).

        Raises:
            KeyError: a kind of Noir observation without that kind's fields.
        """
        if obs.kind in seen.KINDS and not isinstance(obs, ObservationKind):
            raise KeyError(f"{obs.kind}: not the fields of a Noir {obs.kind}")
        if self.owed and isinstance(obs, self.owed[0].kind):
            self.owed.pop(0)
        self.observed += 1
        match obs:
            case seen.Layout(rows=rows):
                self.grid = rows
                self.owed = [_setup_owed(self.seat)]
            case seen.Shifted(rows=rows) | seen.Collapsed(rows=rows):
                self.grid = rows
            case seen.IdentityTold(seat=seat, suspect=suspect):
                self._identity(seat, suspect)
            case seen.Hand(cards=cards):
                self.hand = list(cards)
                self.held.update(self.hand)
                self.dealt.update(self.hand)
            case seen.Drew(suspect=card):
                self.hand.append(card)
                self.held.add(card)
            case seen.End():
                self.over = True
        if isinstance(obs, seen.ActionSeen):
            self._action(obs)

    def _identity(self, seat: str, suspect: str) -> None:
        if seat != self.seat:
            return
        self.me = suspect
        if self.seat == INSPECTOR and self.me in self.hand:
            self.hand.remove(self.me)

    def _action(self, obs: seen.ActionSeen) -> None:
        """An action: its own effects, what the game now owes, and the end of the turn."""
        caught: bool | None = False
        self.reasons = ()
        match obs:
            case seen.Killed(suspect=victim):
                caught = self._kill(victim)
            case seen.Shifted():
                self._shift(obs)
            case seen.DisguiseTried():
                self.disguises += 1
                if isinstance(obs, seen.Disguised):
                    self.innocent.add(obs.former)
                    if self.seat == KILLER:
                        self.owed.append(Owed(seen.IdentityTold, "your new identity", KILLER))
            case seen.ChoseIdentity():
                self.chosen = True
                if self.seat == INSPECTOR:
                    self.owed.append(Owed(seen.IdentityTold, "your chosen identity", INSPECTOR))
            case seen.DrawMade():
                self.drawn = True
                self.draws += 1
                if self.seat == INSPECTOR:
                    self.owed.append(Owed(seen.Drew, "the card you drew", INSPECTOR))
            case seen.Exonerated(suspect=card):
                self._exonerate(card)
            case seen.CitizenArrested(agent=agent):
                self.citizen_arrests += 1
                if agent in self.hand:
                    self.hand.remove(agent)
        if isinstance(obs, seen.TurnEnding):
            if not isinstance(obs, seen.Shifted):
                self.protected = None
            self.turns += 1
            self._ending(obs, caught)

    def _kill(self, victim: str) -> bool | None:
        """The canvas and the collapse a kill brings; whether it caught the inspector (None
        when the seat cannot tell)."""
        if victim in self.innocent and self.game.options["kill_canvas"]:
            answer = self._adjacent_to_me(victim) if self.seat == INSPECTOR else None
            self.owed.append(Owed(seen.Canvas, f"the inspector's canvas on {victim}", INSPECTOR,
                                  victim, answer=answer))  # fmt: skip
        self.dead.append(victim)
        self._owe_collapse(f"the collapse after the kill of {victim}")
        if not self.chosen or victim in self.innocent:
            return False
        return victim == self.me if self.seat == INSPECTOR else None

    def _shift(self, obs: seen.Shifted) -> None:
        self._owe_collapse(f"the collapse after the shift of {obs.line} {obs.index}")
        ban = self.game.options["reverse_shift_ban"] and not self.owed
        self.protected = (obs.line, obs.index, obs.direction) if ban else None

    def _owe_collapse(self, what: str) -> None:
        rows, columns = len(self.grid), len(self.grid[0])
        dead_on_grid = rows * columns - (len(self.game.suspects) - self.kills)
        if dead_on_grid < min(rows, columns):
            return  # too few dead cards left on the grid to fill a line (the common case)
        smaller = _collapsed(self.grid, frozenset(self.dead))
        if smaller != self.grid:
            self.owed.append(Owed(seen.Collapsed, what, rows=smaller))

    def _exonerate(self, card: str) -> None:
        self.innocent.add(card)
        self.drawn = False
        if card in self.hand:
            self.hand.remove(card)
        answer = self._adjacent_to_me(card) if self.seat == KILLER else None
        self.owed.append(Owed(seen.Canvas, f"the killer's canvas on {card}", KILLER, card,
                              answer=answer))  # fmt: skip

    def _adjacent_to_me(self, card: str) -> bool | None:
        """The canvas answer on `card` the seat knows itself (None before it has an identity)."""
        return None if self.me is None else adjacent(self.grid, self.me, card)

    def _ending(self, obs: seen.TurnEnding, caught: bool | None) -> None:
        """The ways the game may have ended with this action, and whether it surely did."""
        reasons: list[str] = []
        if caught is not False:
            reasons.append("inspector-killed")
        if isinstance(obs, seen.Killed) and self.kills >= self.game.kills_to_win and not caught:
            reasons.append("kills")
        if isinstance(obs, seen.AnyArrest) and obs.success:
            reasons.append(obs.kind)  # the word for an arrest's end is its kind's name
        forced = caught is True or bool(reasons and reasons[-1] != "inspector-killed")
        if not forced and self.turns >= self.game.options["turn_limit"]:
            reasons.append("turn-limit")
            forced = True
        self.reasons = tuple(reasons)
        if forced:
            self.owed.append(Owed(seen.End, "the end of the game"))


@lru_cache(maxsize=4096)
def _collapsed(grid: Grid, dead: frozenset[str]) -> Grid:
    """`collapsed`, cached: re-reading a record folds the same grids again and again."""
    return collapsed(grid, dead)


def _setup_owed(seat: str) -> Owed:
    if seat == KILLER:
        return Owed(seen.IdentityTold, "your secret identity", KILLER)
    return Owed(seen.Hand, "your four cards", INSPECTOR)


# --- reading a typed line -----------------------------------------------------------------------
@dataclass
class Line:
    """One typed line being read: its words after the kind, the seat typing, the record."""

    text: str
    seat: str
    said: str | None  # the seat named at the start of the line, if any
    kind: Kind
    words: list[str]
    record: Record
    names: Vocabulary

    def bad(self, why: str) -> InvalidObservation:
        return InvalidObservation(f"noir: {quote(self.text)}: {why}")

    def name(self, typed: str) -> str:
        return self.names.read(typed)

    def expect(self, low: int, high: int, form: str) -> None:
        if not low <= len(self.words) <= high:
            raise self.bad(f"the form is {form!r}")

    def actor(self, who: str) -> None:
        """Refuse a line that names a seat other than `who`, the one doing it."""
        if self.said is not None and self.said != who:
            raise self.bad(f"only the {who} does that ({self.kind.KIND})")

    def private_to(self, who: str, what: str) -> None:
        """Refuse what only `who` sees when another seat types it."""
        if self.seat != who:
            raise self.bad(f"the {self.seat} does not see {what}")


_KIND_WORDS = Vocabulary("kind", seen.KINDS)


def _kind(word: str) -> Kind:
    """The kind a word names: a kind or its abbreviation, or an alias typed in full."""
    alias = _ALIASES.get(word.lower())
    return LINE_KINDS[alias if alias is not None else _KIND_WORDS.read(word)]


def _check_order(line: Line) -> None:
    """Refuse a line out of its place: before the setup, after the end, while the game owes
    something else, or an action out of turn."""
    record, kind = line.record, line.kind
    if not record.observed and kind is not seen.Layout:
        raise line.bad("the record starts with the grid: setup NAME NAME ... / NAME ...")
    if record.observed and kind is seen.Layout:
        raise line.bad("the grid is laid out once, at the start")
    if record.over:
        raise line.bad("the game is over; nothing follows its end")
    owed = record.owed[0] if record.owed else None
    if owed is not None and kind is not owed.kind:
        raise line.bad(f"first comes {owed.waiting_for}: {OWED_FORMS[owed.kind]}")
    if owed is None and kind in (seen.Canvas, seen.Collapsed, seen.Drew):
        raise line.bad(f"no {kind.KIND} is due now")
    if issubclass(kind, seen.ActionSeen):
        _check_turn(line)


def _check_private(line: Line) -> None:
    """Refuse what only another seat sees: the inspector's hand and draws, the other seat's
    identity."""
    if line.kind in (seen.Hand, seen.Drew):
        line.private_to(INSPECTOR, "the inspector's cards")
    if line.kind is seen.IdentityTold and line.said not in (None, line.seat):
        raise line.bad(f"the {line.seat} does not see the {line.said}'s identity")


def _check_turn(line: Line) -> None:
    record, kind = line.record, line.kind
    actor = KILLER if kind in (seen.Killed, seen.DisguiseTried) else INSPECTOR
    if kind is seen.Shifted:
        actor = line.said or record.to_move
    line.actor(actor)
    if record.to_move != actor:
        raise line.bad(f"it is the {record.to_move}'s turn")
    if record.turns == 0 and kind is not seen.Killed:
        raise line.bad("the killer's first turn is a kill")
    if record.turns == 1 and kind is not seen.ChoseIdentity:
        raise line.bad("the inspector's first turn is choosing his identity (chose-identity)")
    if record.turns > 1 and kind is seen.ChoseIdentity:
        raise line.bad("the inspector chose his identity already")
    if record.drawn and kind is not seen.Exonerated:
        raise line.bad("the inspector drew: now he exonerates a card (exonerate NAME)")


# --- one reader per kind ----------------------------------------------------------------------
def _setup(line: Line) -> tuple[Observation, ...]:
    size = line.record.game.options["grid"]
    rows = _rows(line, size)
    if len(rows) != size or any(len(row) != size for row in rows):
        shape = ", ".join(str(len(row)) for row in rows)
        raise line.bad(
            f"the grid is {size} rows of {size} suspects separated by '/'; got rows of {shape}"
        )
    names = line.names.read_all([word for row in rows for word in row])
    grid = tuple(tuple(names[r * size : (r + 1) * size]) for r in range(size))
    return (seen.Layout(grid),)


def _rows(line: Line, size: int) -> list[list[str]]:
    """The typed rows: split at "/", or, with no "/", `size` names at a time."""
    if "/" not in line.words:
        words = line.words
        if len(words) != size * size:
            raise line.bad(f"the grid is {size * size} suspects, {size} rows separated by '/'")
        return [words[r * size : (r + 1) * size] for r in range(size)]
    rows: list[list[str]] = [[]]
    for word in line.words:
        if word == "/":
            rows.append([])
        else:
            rows[-1].append(word)
    return rows


def _identity(line: Line) -> tuple[Observation, ...]:
    line.expect(1, 1, "identity NAME")
    record, name = line.record, line.name(line.words[0])
    owed = record.owed[0] if record.owed else None
    if owed is not None and owed.kind is seen.IdentityTold:
        if name in record.dead:
            raise line.bad(f"{name} is dead")
        if line.seat == INSPECTOR and name not in record.hand:
            raise line.bad(f"{name} is not in your hand ({', '.join(record.hand)})")
        return (seen.IdentityTold(line.seat, name),)
    if line.seat == INSPECTOR and record.turns == 1 and record.to_move == INSPECTOR:
        return _chose(line, name)
    raise line.bad(
        "your identity is told at the start and, for the killer, after a successful disguise"
    )


def _chose_identity(line: Line) -> tuple[Observation, ...]:
    line.expect(0, 1, "chose-identity [NAME]")
    if not line.words:
        return (seen.ChoseIdentity(INSPECTOR),)
    line.private_to(INSPECTOR, "which card the inspector chose")
    return _chose(line, line.name(line.words[0]))


def _chose(line: Line, name: str) -> tuple[Observation, ...]:
    """The inspector chose `name`: the public choice and his own identity."""
    record = line.record
    if name not in record.hand or name in record.dead:
        alive = [card for card in record.hand if card not in record.dead]
        raise line.bad(f"{name} is not an alive card of your hand ({', '.join(alive)})")
    return seen.ChoseIdentity(INSPECTOR), seen.IdentityTold(INSPECTOR, name)


def _hand(line: Line) -> tuple[Observation, ...]:
    line.private_to(INSPECTOR, "the inspector's hand")
    line.actor(INSPECTOR)
    if len(line.words) != HAND:
        raise line.bad(f"a hand is {HAND} cards (hand NAME NAME NAME NAME), not {len(line.words)}")
    return (seen.Hand(INSPECTOR, tuple(line.names.read_all(line.words))),)


def _kill(line: Line) -> tuple[Observation, ...]:
    line.expect(1, 1, "kill NAME")
    record, victim = line.record, line.name(line.words[0])
    _alive_on_grid(line, victim)
    if (
        line.seat == KILLER
        and record.me is not None
        and victim not in neighbours(record.grid, record.me)
    ):
        raise line.bad(f"{victim} is not adjacent to your identity {record.me}")
    return (seen.Killed(KILLER, victim, record.kills + 1),)


def _alive_on_grid(line: Line, name: str) -> None:
    if name in line.record.dead:
        raise line.bad(f"{name} is dead")
    if not any(name in row for row in line.record.grid):
        raise line.bad(f"{name} is not on the grid")


def _canvas(line: Line) -> tuple[Observation, ...]:
    owed = line.record.owed[0]
    line.actor(owed.seat)
    line.expect(0, 2, "canvas [NAME] !|?")
    words = list(line.words)
    if words and words[-1].lower() not in ANSWERS:
        if len(words) == 2:
            raise line.bad(f"the answer is '!' (adjacent) or '?' (not), not {words[-1]!r}")
        words.append("")
    if len(words) == 2:
        named = line.name(words[0])
        if named != owed.suspect:
            raise line.bad(f"the canvas due is on {owed.suspect}, not {named}")
    answer = ANSWERS.get(words[-1].lower()) if words else None
    if answer is None:
        answer = owed.answer
    if answer is None:
        raise line.bad(f"say the answer on {owed.suspect}: canvas ! (adjacent) or canvas ?")
    if owed.answer is not None and answer != owed.answer:
        truth = "is" if owed.answer else "is not"
        raise line.bad(f"your identity {truth} adjacent to {owed.suspect}")
    return (seen.Canvas(owed.seat, owed.suspect, answer),)


_LINE_WORDS = Vocabulary("line", tuple(LINES))


def _shift(line: Line) -> tuple[Observation, ...]:
    line.expect(3, 3, "[SEAT] shift row|column N left|right|up|down")
    record = line.record
    which = _LINE_WORDS.read(line.words[0])  # row or column
    count = len(record.grid) if which == "row" else len(record.grid[0])
    across = len(record.grid[0]) if which == "row" else len(record.grid)
    index = read_int(line.words[1], f"the {which}", 1, count)
    direction = Vocabulary("direction", LINES[which]).read(line.words[2])
    if across < 2:
        raise line.bad(f"a {which} of one card cannot shift")
    if _undoes(record, (which, index, direction), across):
        raise line.bad("it would undo the previous shift, and the reverse-shift ban is on")
    rows = shifted(record.grid, which, index - 1, direction)
    return (seen.Shifted(line.said or record.to_move, which, index, direction, rows),)


def _undoes(record: Record, shift: tuple[str, int, str], length: int) -> bool:
    """Whether `shift` restores the grid the protected shift changed."""
    last = record.protected
    if last is None or last[:2] != shift[:2]:
        return False
    return length == 2 or last[2] != shift[2]


def _collapse(line: Line) -> tuple[Observation, ...]:
    line.expect(0, 0, "collapse")
    return (seen.Collapsed(line.record.owed[0].rows),)


def _disguise(line: Line) -> tuple[Observation, ...]:
    line.expect(1, 2, "disguise innocent NAME | disguise failed NAME | disguise as NAME")
    line.actor(KILLER)
    record = line.record
    how = Vocabulary("way a disguise goes", DISGUISES).read(line.words[0])
    if record.deck_left(KILLER) < 1:
        raise line.bad("the killer's deck is empty: no disguise")
    if len(line.words) == 1:
        if how != "innocent" or line.seat != KILLER or record.me is None:
            raise line.bad(f"name the card: disguise {how} NAME")
        line.words.append(record.me)
    name = line.name(line.words[1])
    if how == "failed":
        return _failed_disguise(line, name)
    former = name if how == "innocent" else record.me
    if how == "as":
        line.private_to(KILLER, "the killer's new identity")
        if name in record.dead or name in record.innocent or name == record.me:
            raise line.bad(f"{name} cannot be a new identity: dead, innocent or yours")
    if line.seat == KILLER and former != record.me:
        raise line.bad(f"your identity, the one made innocent, is {record.me}, not {former}")
    _alive_on_grid(line, str(former))
    found: list[Observation] = [seen.Disguised(KILLER, True, str(former))]
    if how == "as":
        found.append(seen.IdentityTold(KILLER, name))
    return tuple(found)


def _failed_disguise(line: Line, drawn: str) -> tuple[Observation, ...]:
    record = line.record
    if record.game.options["deck"] == "shared" and drawn not in record.dead:
        raise line.bad(f"with one deck a disguise fails only onto a dead card; {drawn} is alive")
    if line.seat == INSPECTOR:
        spoiled = {*record.dead, *record.innocent, *record.held}
        if drawn not in spoiled:
            raise line.bad(f"a disguise onto {drawn} (alive, not innocent, not yours) succeeds")
    return (seen.DisguiseFailed(KILLER, False, drawn),)


def _draw(line: Line) -> tuple[Observation, ...]:
    line.expect(0, 1, "draw [NAME]")
    if line.record.deck_left(INSPECTOR) < 1:
        raise line.bad("the deck is empty: exonerate a card of the hand directly")
    found: list[Observation] = [seen.DrawMade(INSPECTOR)]
    if line.words:
        line.private_to(INSPECTOR, "the card the inspector drew")
        found.append(_drawn(line, line.name(line.words[0])))
    return tuple(found)


def _drew(line: Line) -> tuple[Observation, ...]:
    line.expect(1, 1, "drew NAME")
    line.actor(INSPECTOR)
    return (_drawn(line, line.name(line.words[0])),)


def _drawn(line: Line, card: str) -> Observation:
    if card in line.record.held:
        raise line.bad(f"you held {card} already; each card is drawn once")
    return seen.Drew(INSPECTOR, card)


def _exonerate(line: Line) -> tuple[Observation, ...]:
    line.expect(1, 1, "exonerate NAME")
    record, card = line.record, line.name(line.words[0])
    if not record.drawn and record.deck_left(INSPECTOR):
        raise line.bad("the deck has cards: the inspector draws first (draw), then exonerates")
    if line.seat == INSPECTOR and card not in record.hand:
        raise line.bad(f"{card} is not in your hand ({', '.join(record.hand) or 'empty'})")
    return (seen.Exonerated(INSPECTOR, card),)


def _arrest(line: Line) -> tuple[Observation, ...]:
    line.expect(1, 2, "arrest NAME [missed|caught]")
    record, suspect = line.record, line.name(line.words[0])
    _alive_on_grid(line, suspect)
    if line.seat == INSPECTOR and suspect not in block(record.grid, str(record.me)):
        raise line.bad(f"{suspect} is neither your identity {record.me} nor adjacent to it")
    success = _outcome(line, suspect, line.words[1:])
    return (seen.Arrested(INSPECTOR, suspect, success),)


def _citizen_arrest(line: Line) -> tuple[Observation, ...]:
    form = "citizen-arrest NAME with AGENT [missed|caught]"
    words = [word for word in line.words if word.lower() != "with"]
    if not 2 <= len(words) <= 3:
        raise line.bad(f"the form is {form!r}")
    record = line.record
    if not record.game.options["citizen_arrest"]:
        raise line.bad("the variant 'arrest with a citizen' is off in this game")
    if record.citizen_arrests >= 3:
        raise line.bad("an arrest with a citizen is allowed 3 times, all used")
    suspect, agent = line.name(words[0]), line.name(words[1])
    _alive_on_grid(line, suspect)
    if line.seat == INSPECTOR and agent not in record.hand:
        raise line.bad(f"{agent} is not an agent in your hand ({', '.join(record.hand)})")
    if suspect not in neighbours(record.grid, agent):
        raise line.bad(f"{suspect} is not adjacent to the agent {agent}")
    success = _outcome(line, suspect, words[2:])
    return (seen.CitizenArrested(INSPECTOR, suspect, agent, success),)


def _outcome(line: Line, suspect: str, words: Sequence[str]) -> bool:
    """Whether the arrest caught the killer: typed, or known to the killer himself."""
    typed = Vocabulary("outcome", seen.OUTCOMES).read(words[0]) == "caught" if words else None
    if line.seat == INSPECTOR:
        # the killer is never a card the inspector was dealt, nor, with one deck, any card
        # he has held (a separate deck may give the killer a card he drew later)
        record = line.record
        surely = record.held if record.game.options["deck"] == "shared" else record.dealt
        if typed and suspect in surely:
            raise line.bad(
                f"{suspect} has been in your hand, so is not the killer: the arrest missed"
            )
        return bool(typed)
    truth = suspect == line.record.me
    if typed is not None and typed != truth:
        raise line.bad(f"your identity is {line.record.me}: the arrest {seen.OUTCOMES[truth]} you")
    return truth


def _end(line: Line) -> tuple[Observation, ...]:
    line.expect(0, 1, f"end [{'|'.join(END_REASONS)}]")
    record = line.record
    possible = record.reasons if record.owed or "inspector-killed" in record.reasons else ()
    if line.words:
        word = Vocabulary("way the game ends", tuple(END_REASONS)).read(line.words[0])
        if word not in possible:
            raise line.bad(f"the game cannot have ended by {word} now{_ways(possible)}")
    elif len(possible) == 1:
        word = possible[0]
    elif not possible:
        raise line.bad("nothing has ended the game now; it goes on")
    else:
        raise line.bad(f"say how it ended: end {'|'.join(possible)}")
    reason = END_REASONS[word].format(kills=record.kills)
    return (seen.End(seen.END_WINNERS[word], reason),)


def _ways(possible: Sequence[str]) -> str:
    return f"; it may have ended by {' or '.join(possible)}" if possible else "; it goes on"


_READERS: dict[Kind, Callable[[Line], tuple[Observation, ...]]] = {
    seen.Layout: _setup,
    seen.IdentityTold: _identity,
    seen.Hand: _hand,
    seen.ChoseIdentity: _chose_identity,
    seen.Killed: _kill,
    seen.Canvas: _canvas,
    seen.Shifted: _shift,
    seen.Collapsed: _collapse,
    seen.DisguiseTried: _disguise,
    seen.DrawMade: _draw,
    seen.Drew: _drew,
    seen.Exonerated: _exonerate,
    seen.Arrested: _arrest,
    seen.CitizenArrested: _citizen_arrest,
    seen.End: _end,
}
LINE_KINDS: dict[str, Kind] = {kind.KIND: kind for kind in _READERS}
"""Each kind's word and the class of what a line of that kind records."""


# --- help and words -------------------------------------------------------------------------
HELP: list[tuple[str, str]] = [
    ("setup Ada Bruno Clara Dora Emil / Finn Greta ...",
     "the grid as laid out, row by row, rows separated by '/' (names may be shortened: a b c)"),
    ("identity Ada", "your own secret identity (the killer's at the start or after a disguise)"),
    ("hand Ada Bruno Clara Dora", "inspector: the four cards you drew at the start"),
    ("chose-identity  or  chose-identity Dora",
     "the inspector chose his identity (the inspector adds which card he took)"),
    ("kill Ada", "the killer killed Ada (the kill count is counted for you)"),
    ("canvas Ada !  or  canvas ?",
     "the canvas answer due now: '!' adjacent, '?' not (the card is filled in)"),
    ("inspector shift row 1 right", "a shift; the seat may be left out (the seat to move)"),
    ("killer shift column 3 up", "a column shift (rows and columns count from 1, on the grid now)"),
    ("collapse", "the all-dead rows or columns were removed (the new grid is worked out)"),
    ("disguise innocent Ada", "the killer disguised: his old identity Ada is now innocent"),
    ("disguise failed Ida", "the killer's disguise failed: he drew Ida and kept his identity"),
    ("disguise as Bruno", "killer: you disguised and Bruno is your new identity"),
    ("draw  or  draw Ida", "the inspector drew a card (the inspector adds which one)"),
    ("drew Ida", "inspector: the card you drew"),
    ("exonerate Bruno", "the inspector exonerated Bruno (the canvas answer comes next)"),
    ("arrest Clara  or  arrest Clara caught",
     "an arrest: missed unless 'caught' (the killer's outcome is filled in)"),
    ("citizen-arrest Eve with Finn",
     "variant: an arrest beside the agent Finn ('caught' if it caught the killer)"),
    ("end  or  end kills",
     "the game ended: inspector-killed, kills, arrest, citizen-arrest or turn-limit"),
]  # fmt: skip


class Notation(GameNotation["Noir"]):
    """Noir's typed notation for one configured game."""

    FORMS = HELP

    def __init__(self, game: Noir) -> None:
        super().__init__(game)
        self.suspects = Vocabulary("suspect", game.suspects)

    def parse(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        """The observations `text` records for `seat`, after `before`."""
        game, seat = self.game, str(seat)
        record = self.before_line(
            lambda: self.resumed(tuple(before), lambda: Record(game, seat), seat)
        )
        words = tokens(text.replace("/", " / ").replace("!", " ! ").replace("?", " ? "))
        if not words:
            raise InvalidObservation(
                f"noir: {quote(text)} has no words (commas and semicolons only separate them); "
                f"an entry starts with a seat or one of {', '.join(seen.KINDS)}"
            )
        said = words[0].lower() if words[0].lower() in SEATS else None
        if said is not None:
            words = words[1:]
        if not words:
            raise InvalidObservation(f"noir: {quote(text)}: say what happened after the seat")
        try:
            kind = _kind(words[0])
        except InvalidObservation as error:
            raise InvalidObservation(f"noir: {quote(text)}: {error}") from None
        rest = words if words[0] in ("!", "?") else words[1:]
        line = Line(text, seat, said, kind, rest, record, self.suspects)
        try:
            _check_private(line)
            _check_order(line)
            return _READERS[kind](line)
        except InvalidObservation as error:
            if str(error).startswith("noir: "):
                raise
            raise line.bad(str(error)) from None

    def words(self) -> list[str]:
        """The words Tab completes: kinds, seats, suspects and the other words of the forms."""
        lines = [word for pair in LINES.items() for word in (pair[0], *pair[1])]
        return [*seen.KINDS, "grid", "choose", *SEATS, *self.game.suspects, *lines,
                *seen.OUTCOMES, *DISGUISES, "with", *END_REASONS]  # fmt: skip
