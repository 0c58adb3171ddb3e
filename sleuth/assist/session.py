"""The table-side notebook, with no terminal in it: a log of typed entries, replayed into an
information set, read by the solver.

A `Session` is event-sourced: every change (add, insert, edit, delete, undo) is appended to
the session's log in SQLite and committed before the caller can show anything, and the
entries are the log folded (sleuth.assist.log). Each entry's text is read by the game's
notation (`Game.parse_entry`) with the observations before it as context, so editing an early
entry re-reads everything after it.

What the record says is one of:
- `empty`: nothing typed yet;
- `waiting`: a true beginning of a game that still owes an observation (a tile laid, not yet
  its reveal); deductions are for the longest complete beginning;
- `ok`: complete and consistent; deductions are for the whole record;
- `conflict`: the entries contradict each other; the entries are kept, the conflict names the
  entries involved and which of them alone could be the typo, and deductions are for the
  longest consistent beginning.
A change that no game could produce (a name that is not one, a hand of the wrong size, an
entry the seat cannot have seen) is refused with one line, and the session is unchanged.

Several front ends may hold one session at once (a terminal, browser tabs): each change is
stored only if the session's `version` (changes stored) is still the one it was made on, else
it is refused with StaleSession; `sync()` catches up with changes made elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import engines
import solver
from engines import (
    ConfigError,
    Game,
    IncompleteInformationSet,
    InformationSet,
    InvalidInformationSet,
    InvalidObservation,
    Observation,
    Seat,
)
from engines.values import JsonValue
from sleuth.assist.levels import DEFAULT_LEVEL, check_level, hints_at
from sleuth.assist.log import apply_event, fold
from sleuth.assist.store import Event, SessionError, SessionRecord, Store
from solver.diagnosis import diagnose
from solver.hints import certainty, model_readers, reads_models
from solver.opponent_models import COUNTING, RANDOM, check_reader, model_names
from solver.validation import validate


@dataclass(frozen=True)
class Entry:
    """One typed line: its number in the log (from 1), the text as typed, and what it records.

    `first` is the index of its first observation in the session's information set.
    """

    number: int
    text: str
    observations: tuple[Observation, ...]
    first: int

    @property
    def sources(self) -> range:
        return range(self.first, self.first + len(self.observations))


@dataclass(frozen=True)
class Conflict:
    """Entries (numbers from 1) that contradict each other, every one needed; `repairs` are
    those that alone could be wrong (without that entry the rest is consistent), the likeliest
    typo first (`rank_repairs`); `read_with` the earlier entries that decided how they read
    (Noir: the setup and shifts that made the grid they were read on), any of which may be
    mistyped instead; `own` the entries among them that record the seat's own certain
    knowledge (its hand, its own moves and answers), the least likely typos."""

    entries: tuple[int, ...]
    repairs: tuple[int, ...]
    read_with: tuple[int, ...] = ()
    own: tuple[int, ...] = ()

    def __str__(self) -> str:
        listed = _numbers(self.entries)
        said = f"entries {listed} contradict each other"
        if len(self.entries) == 1:
            said = f"entry {listed} contradicts the rules"
        if self.read_with:
            said += f" as read on the position entries {_numbers(self.read_with)} set"
        if not self.repairs:
            blame = "no single entry alone explains it"
            if self.read_with:
                blame += ", unless one of those is mistyped"
            return f"{said}; {blame}"
        if len(self.repairs) == 1:
            blamed = f"entry {self.repairs[0]} is probably mistyped"
        else:
            blamed = "the likeliest typo first: " + ", ".join(
                f"entry {n}{' (your own)' if n in self.own else ''}" for n in self.repairs
            )
        if self.read_with:
            blamed += " (or one of those)"
        return f"{said}; {blamed}"


@dataclass(frozen=True)
class Reading:
    """What the solver makes of the record now (see the module docstring for `status`).

    `usable` is the information set deductions are shown for: the whole record when `ok`, else
    its longest complete and consistent beginning (`entries` entries long), or None.
    """

    status: str
    usable: InformationSet | None
    entries: int
    deduction: solver.Deduction | None
    waiting_for: str | None = None
    conflict: Conflict | None = None


class Session:
    """A notebook for one seat of one physical game. Build with `Session.new` or `Session.open`."""

    def __init__(self, store: Store, record: SessionRecord, events: Sequence[Event]) -> None:
        self._store = store
        self.name = record.name
        self.game: Game = engines.make(record.game, **dict(record.options))
        self.seat: Seat = self.game.check_seat(record.seat)
        self._load(record, events)

    def _load(self, record: SessionRecord, events: Sequence[Event]) -> None:
        self._level = check_level(record.level)
        stored = self._store.setting(record.name, MODEL_SETTING)
        self._model = stored if stored in model_names(self.game.name) else COUNTING
        self._version = len(events)
        self._history = fold(events)
        self._entries = self._read(self._history[-1], [])
        self._record = self._info(self._entries)  # one object per change: validated once
        self._reading: Reading | None = None
        self._earlier: Reading | None = None  # the reading before the latest change
        self._hints_for: Reading | None = None  # the reading `_hints` were computed for
        self._hints: dict[str, list[solver.Hint]] = {}
        self._changes_for: Reading | None = None
        self._changes: list[solver.Hint] = []

    # --- making and finding sessions -------------------------------------------------------
    @classmethod
    def new(
        cls,
        game: str,
        seat: object = None,
        *,
        dir: Path | str | None = None,
        name: str | None = None,
        level: str = DEFAULT_LEVEL,
        model: str = COUNTING,
        entries: Sequence[str] = (),
        **options: JsonValue,
    ) -> Session:
        """A new session, stored at once, with `entries` typed into it (the setup a picker
        made: `sleuth.assist.setup`).

        `seat` defaults to the game's first seat, and may be given as typed ("0", "Killer");
        `options` configure the game (players=4,
        ...); `name` defaults to the game's name and a number; `model` reads the odds under a
        model of the other players (`Session.model`).

        Raises:
            ConfigError: an unknown game, option or seat.
            SessionError: the name is taken or not allowed, or the directory cannot be used.
            InvalidObservation, InvalidInformationSet: an entry this seat cannot have seen
                there; nothing is stored then.
        """
        made = engines.make(game, **options)
        chosen = made.seats[0] if seat is None else _seat_of(made, seat)
        check_level(level)
        check_session_model(made, model, chosen)
        _check_entries(made, chosen, entries)
        store = Store(dir)
        name = name if name is not None else _free_name(store, made.name)
        store.create(name, made.name, made.option_items(), chosen, level)
        if model != COUNTING:
            store.set_setting(name, MODEL_SETTING, model)
        record, events = store.load(name)
        session = cls(store, record, events)
        for text in entries:
            session.add(text)
        return session

    @classmethod
    def open(cls, name: str, dir: Path | str | None = None) -> Session:
        """The stored session `name`, as it was after its last committed change.

        Raises:
            SessionError: no session has that name here (the message lists those there are).
        """
        store = Store(dir)
        record, events = store.load(name)
        return cls(store, record, events)

    @staticmethod
    def stored(dir: Path | str | None = None) -> list[SessionRecord]:
        """The sessions stored in `dir` (default: the user's data directory), oldest first."""
        store = Store(dir)
        try:
            return store.sessions()
        finally:
            store.close()

    def close(self) -> None:
        self._store.close()

    @property
    def version(self) -> int:
        """The number of changes this object has seen stored; a change is made on it."""
        return self._version

    def stored_version(self) -> int:
        """The number of changes stored now by any front end (one query, nothing read): a page
        compares it with `version` to notice a change made elsewhere."""
        return self._store.version(self.name)

    def sync(self) -> bool:
        """Catch up with changes stored elsewhere (another process or object) since this one
        last looked; whether there were any. The hint level is read again too."""
        if self._store.version(self.name) == self._version:
            return False
        record, events = self._store.load(self.name)
        self._load(record, events)
        return True

    # --- the log ---------------------------------------------------------------------------
    @property
    def entries(self) -> list[Entry]:
        return list(self._entries)

    def add(self, text: str) -> Entry:
        """Append an entry. Raises InvalidObservation (or InvalidInformationSet) and changes
        nothing when it is not something this seat can have seen here."""
        self._change(Event("add", None, text))
        return self._entries[-1]

    def insert(self, number: int, text: str) -> Entry:
        """Insert an entry before entry `number` (a forgotten line); later entries move down."""
        self._change(Event("insert", number, text))
        return self._entries[number - 1]

    def edit(self, number: int, text: str) -> Entry:
        """Replace entry `number` (a typo); everything after it is read again."""
        self._change(Event("edit", number, text))
        return self._entries[number - 1]

    def delete(self, number: int) -> None:
        self._change(Event("delete", number))

    def undo(self) -> None:
        """Take back the latest change not yet taken back (SessionError when there is none)."""
        self._change(Event("undo"))

    def _change(self, event: Event) -> None:
        """Check `event` against the whole record, store it, then make it current."""
        history = apply_event(self._history, event)
        changed = len(self._entries) if event.position is None else event.position - 1
        entries = self._read(history[-1], self._entries[:changed])
        record = self._info(entries)
        try:
            validate(record)
        except IncompleteInformationSet:
            pass  # a beginning still owed something: kept, and the reading says what
        except InvalidInformationSet as error:
            raise InvalidInformationSet(
                f"{_what(event)} would make the record impossible: {error}"
            ) from None
        self._store.append(self.name, event, self._version)
        self._earlier = self._reading or self._earlier
        self._history, self._entries, self._record, self._reading = history, entries, record, None
        self._version += 1

    def _read(self, texts: Sequence[str], known: Sequence[Entry]) -> list[Entry]:
        """Entries for `texts`, reusing the `known` entries up to the first text that differs
        (a change passes those before the entry it touches) and reading the rest again."""
        same = 0
        while same < min(len(texts), len(known)) and texts[same] == known[same].text:
            same += 1
        entries = list(known[:same])
        observations = [obs for entry in entries for obs in entry.observations]
        for number, text in enumerate(texts[same:], start=same + 1):
            try:
                found = self.game.parse_entry(text, self.seat, tuple(observations))
            except InvalidObservation as error:
                if number == same + 1:  # the entry being typed
                    raise
                raise InvalidObservation(
                    f"entry {number} ({text!r}) would no longer read: {error}"
                ) from None
            entries.append(Entry(number, text, found, len(observations)))
            observations.extend(found)
        return entries

    def _info(self, entries: Sequence[Entry]) -> InformationSet:
        return InformationSet(
            self.game.name,
            self.game.option_items(),
            self.seat,
            tuple(obs for entry in entries for obs in entry.observations),
        )

    # --- what it all means -----------------------------------------------------------------
    def information_set(self) -> InformationSet:
        """Every entry's observations, in order (possibly incomplete or contradictory)."""
        return self._record

    def export(self) -> str:
        """The information set as JSON (`InformationSet.from_json` reads it)."""
        return self.information_set().to_json()

    @property
    def level(self) -> str:
        return self._level

    @level.setter
    def level(self, level: str) -> None:
        self._store.set_level(self.name, check_level(level))
        self._level = level

    @property
    def model(self) -> str:
        """How the odds read the other players' choices: "counting" (every consistent deal
        alike), "random" or a bot's name (`solver.deduce(info, model=...)`)."""
        return self._model

    @model.setter
    def model(self, model: str) -> None:
        self._store.set_setting(
            self.name, MODEL_SETTING, check_session_model(self.game, model, self.seat)
        )
        self._model = model
        self._reading = self._earlier = self._hints_for = self._changes_for = None

    @property
    def models(self) -> tuple[str, ...]:
        """The models this session's odds can be read under: none to choose from where the
        game's hints read the counting odds only, or the seat's odds are another's view."""
        try:
            check_session_model(self.game, RANDOM, self.seat)
        except SessionError:
            return ()
        return model_names(self.game.name)

    def reading(self) -> Reading:
        """What the record says now (computed once per change)."""
        if self._reading is None:
            self._reading = self._read_record()
        return self._reading

    @property
    def conflict(self) -> Conflict | None:
        return self.reading().conflict

    def deduction(self) -> solver.Deduction | None:
        """The deduction for `reading().usable`, or None before the record can be read."""
        return self.reading().deduction

    def hints(self, level: str | None = None) -> list[solver.Hint]:
        """Hints at `level` (default: the session's) for the usable record, best first;
        computed once per reading and level, since a page shown again after a refused line
        (or reloaded) asks for the same hints, which can take a few hundred milliseconds."""
        reading = self.reading()
        if reading.usable is None or reading.deduction is None:
            return []
        level = check_level(level or self._level)
        if self._hints_for is not reading:
            self._hints_for, self._hints = reading, {}
        if level not in self._hints:
            changes = self.changes()
            self._hints[level] = hints_at(level, reading.usable, reading.deduction, changes)
        return list(self._hints[level])

    def changes(self) -> list[solver.Hint]:
        """What the last entry of the usable record changed (solver.changes: facts settled,
        the answer's odds moved), at every level; computed once per reading."""
        reading = self.reading()
        if reading.usable is None or reading.deduction is None:
            return []
        if self._changes_for is not reading:
            before = self._before(reading)
            found = [] if before is None else solver.changes(reading.deduction, before)
            self._changes_for, self._changes = reading, found
        return list(self._changes)

    def _before(self, reading: Reading) -> solver.Deduction | None:
        """The deduction hints compare `reading`'s with to say what its last entry changed:
        that of the longest complete beginning before it (an entry that waits for another,
        such as a flip for its reveal, is read with it); the reading before the latest change
        when it is that record, else deduced again. None when there is none."""
        kept = self._earlier
        for count in range(reading.entries - 1, 0, -1):
            prior = self._info(self._entries[:count])
            if (
                kept is not None
                and kept.usable is not None
                and kept.deduction is not None
                and (kept.usable.observations == prior.observations)
            ):
                return kept.deduction
            try:
                validate(prior)
                return solver.deduce(prior, model=self._model)
            except IncompleteInformationSet:
                continue
            except (InvalidInformationSet, solver.Inconsistent):
                return None
        return None

    def explain(self, fact: solver.Fact) -> list[int]:
        """The numbers of the entries that together force `fact` (minimal).

        Raises:
            NotCertain: `fact` is not certain (or nothing can be read yet).
        """
        deduction = self.deduction()
        if deduction is None:
            raise solver.NotCertain("nothing is certain before the record can be read")
        sources = deduction.explain_sources(fact)
        return sorted({self._entry_of(source) for source in sources})

    def why(self, hint: solver.Hint) -> list[int]:
        """The entries that force what `hint` says is certain (its fact, or the negation of a
        fact it rules out); `explain` of that fact.

        Raises:
            NotCertain: the hint is not a certainty (a chance, a move to make).
        """
        fact = certainty(hint)
        if fact is None:
            raise solver.NotCertain(f"{hint.text!r} is not a certain fact, so nothing forces it")
        return self.explain(fact)

    def _entry_of(self, source: int) -> int:
        for entry in self._entries:
            if source in entry.sources:
                return entry.number
        raise SessionError(f"observation {source} is in no entry")  # an internal mismatch

    def _read_record(self) -> Reading:
        if not self._entries:
            return Reading("empty", None, 0, None)
        info = self.information_set()
        try:
            validate(info)
        except IncompleteInformationSet as waiting:
            return self._prefix_reading("waiting", len(self._entries) - 1, waiting.waiting_for)
        except InvalidInformationSet as error:  # only a record stored by an older version
            return self._prefix_reading("invalid", len(self._entries) - 1, str(error))
        try:
            return Reading("ok", info, len(self._entries), solver.deduce(info, model=self._model))
        except solver.Inconsistent:
            found = diagnose(info, [entry.sources for entry in self._entries])
            assert found is not None, "deduce and diagnose disagree about consistency"
            own = tuple(
                entry.number
                for entry in self._entries
                if entry.number - 1 in found.conflict and _own(entry, self.seat)
            )
            conflict = Conflict(
                tuple(n + 1 for n in found.conflict),
                rank_repairs([n + 1 for n in found.repairs], own),
                tuple(n + 1 for n in found.read_with),
                own,
            )
            prefix = self._prefix_reading("conflict", max(found.conflict), None)
            return Reading(
                "conflict", prefix.usable, prefix.entries, prefix.deduction, None, conflict
            )

    def _prefix_reading(self, status: str, longest: int, waiting_for: str | None) -> Reading:
        """`status`, with deductions for the longest complete, consistent beginning of at most
        `longest` entries."""
        for count in range(longest, 0, -1):
            prefix = self._info(self._entries[:count])
            try:
                validate(prefix)
                deduction = solver.deduce(prefix, model=self._model)
            except (InvalidInformationSet, solver.Inconsistent):
                continue
            return Reading(status, prefix, count, deduction, waiting_for)
        return Reading(status, None, 0, None, waiting_for)


MODEL_SETTING = "model"
"""The session setting that names its opponent model (`Store.setting`)."""


def check_session_model(game: Game, model: object, seat: Seat) -> str:
    """`model`, once it is a model the game's notebook can read its odds under for `seat`.

    Raises:
        SessionError: an unknown model; a model for a game whose hints read none (the
            message names the models, or the games that read one), or for a seat whose odds
            are another seat's view (City Killer's killer).
    """
    allowed = model_names(game.name)
    if model not in allowed:
        raise SessionError(f"unknown opponent model {model!r}; models: {', '.join(allowed)}")
    assert isinstance(model, str)
    if model != COUNTING and not reads_models(game.name):
        raise SessionError(
            f"{game.name}: the notebook reads the counting odds only; games whose odds read a "
            f"model: {', '.join(model_readers())}"
        )
    if model != COUNTING:
        try:
            check_reader(game.name, seat)
        except ConfigError as error:
            raise SessionError(str(error)) from None
    return model


def _check_entries(game: Game, seat: Seat, texts: Sequence[str]) -> None:
    """Refuse entries that would not all be stored, before the session is made."""
    observations: list[Observation] = []
    for number, text in enumerate(texts, start=1):
        try:
            observations += game.parse_entry(text, seat, tuple(observations))
        except InvalidObservation as error:
            raise InvalidObservation(f"entry {number} ({text[:80]!r}): {error}") from None
    if observations:
        info = InformationSet(game.name, game.option_items(), seat, tuple(observations))
        try:
            validate(info)
        except IncompleteInformationSet:
            pass
        except InvalidInformationSet as error:
            raise InvalidInformationSet(f"the setup is impossible: {error}") from None


_OWN_FIELDS = ("seat", "giver", "target", "player")
"""The fields that name whose move, deal, pass or answer an observation records: when one
names the session's seat, the entry records what the seat did or holds itself."""


def _own(entry: Entry, seat: Seat) -> bool:
    """Whether `entry` records the seat's own certain knowledge: its deal or hand, its own move
    or pass, its own answer to a question (not what others said or did)."""
    return any(obs.get(name) == seat for obs in entry.observations for name in _OWN_FIELDS)


def rank_repairs(repairs: Sequence[int], own: Sequence[int]) -> tuple[int, ...]:
    """The entries that alone could be the typo, likeliest first: what others said or did
    before the seat's own certain knowledge, and the latest typed first among each (the
    record read without contradiction until the last of them)."""
    return tuple(sorted(repairs, key=lambda n: (n in own, -n)))


def _seat_of(game: Game, seat: object) -> Seat:
    """`seat` as given in code (0, "killer") or as typed ("0", " Killer ").

    Raises:
        ConfigError: not a seat of `game`; the message lists the seats.
    """
    if isinstance(seat, str):
        return game.seat_from_text(seat)
    return game.check_seat(seat)


def _free_name(store: Store, game: str) -> str:
    taken = store.names()
    number = 1
    while f"{game}-{number}" in taken:
        number += 1
    return f"{game}-{number}"


def _what(event: Event) -> str:
    if event.op == "add":
        return "this entry"
    if event.op == "undo":
        return "undoing"
    verb = {"insert": "inserting before", "edit": "editing", "delete": "deleting"}[event.op]
    return f"{verb} entry {event.position}"


def _numbers(numbers: Sequence[int]) -> str:
    texts = [str(n) for n in numbers]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]
