"""A configured game: `Game`, the factory of its states and the parser of its actions, with
its `Option`s and `Metadata`.

The core every engine builds on is split by job: `engines.values` (plain JSON, read at the
boundary and quoted in messages), `engines.observations` (what a seat sees: observations, their
typed kinds, information sets), `engines.actions` (what a seat does), `engines.state` (the whole
truth of a game in progress), `engines.deal` (chance nodes) and this module, which builds on
them all. A game is a `Game` (the configuration, validated once) that makes `State`s; each
applied `Action` emits `Observation`s, each addressed to the seats that see it; a seat's
`InformationSet` is the game's configuration, the seat, and the observations addressed to it,
in order. Nothing else reaches the solver or the bots.
"""

from __future__ import annotations

import dataclasses
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np

from engines import registry
from engines.actions import Action, Domain
from engines.deal import Dealer, Dealing, Rolling, replay_deal
from engines.errors import (
    ConfigError,
    IllegalAction,
    IncompleteInformationSet,
    InvalidAction,
    InvalidInformationSet,
    InvalidObservation,
    InvalidState,
    NotToMove,
    SleuthError,
)
from engines.notation import TypedNotation
from engines.observations import InformationSet, Kinds, Observation, ObservationKind, typed
from engines.state import DEALING_KEYS, STATE_KEYS, State, first_difference, rng_from_json
from engines.values import (
    JsonReader,
    JsonValue,
    Seat,
    freeze,
    is_int,
    load_json,
    one_of,
    quote,
    same_json,
    thaw,
)


def positive_int(value: JsonValue) -> bool:
    """An option check: a whole number above zero (True is not 1 here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class Option:
    """A declared configuration switch of a game: its default and the values it allows."""

    name: str
    default: JsonValue
    allowed: tuple[JsonValue, ...] | None = None
    check: Callable[[JsonValue], bool] | None = None
    describe_allowed: str = ""
    doc: str = ""

    def validate(self, game: str, value: JsonValue) -> JsonValue:
        # Typed membership: `1 in (False, True)` is true in Python, but 1 is not a switch.
        if one_of(value, self.allowed or ()):
            return value
        if self.check is not None and self.check(value):
            return value
        raise ConfigError(
            f"{game}: option {self.name!r} cannot be {value!r}; allowed: {self.allowed_text()}"
        )

    def allowed_text(self) -> str:
        if self.describe_allowed:
            return self.describe_allowed
        return ", ".join(repr(value) for value in self.allowed or ())


@dataclass(frozen=True)
class Metadata:
    """What a game declares about itself, once (OpenSpiel's GameType, pgx's version)."""

    name: str
    title: str
    seats: str
    hidden: str
    version: int
    max_length: str = ""


StateT = TypeVar("StateT", bound="State")
ObservationT = TypeVar("ObservationT", bound=Observation)


class Game(ABC, Generic[StateT]):
    """A configured game: the factory of its states (`StateT`) and the parser of actions.

    Subclasses (`class Noir(Game[NoirState])`) declare `metadata`, `options`,
    `observation_kinds` and `notation_class`, and implement `seats`, `_deal`,
    `_arrange_from_dict`, `_parse_action` and `_action_domains` (each kind describes itself).
    """

    metadata: ClassVar[Metadata]
    options_spec: ClassVar[tuple[Option, ...]] = ()
    observation_kinds: ClassVar[Kinds] = {}
    """The game's typed observation kinds by name (`kinds_by_name`): what an information set
    reads its plain observations as."""

    def __init__(self, **options: JsonValue) -> None:
        specs = {spec.name: spec for spec in self.options_spec}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            allowed = ", ".join(specs) or "none"
            raise ConfigError(
                f"{self.name}: unknown option {unknown[0]!r}; the options are: {allowed}"
            )
        self.options: dict[str, JsonValue] = {
            name: spec.validate(self.name, options.get(name, spec.default))
            for name, spec in specs.items()
        }
        self._check_options()

    def _check_options(self) -> None:
        """Hook: reject combinations of options that are each valid alone."""

    @property
    def name(self) -> str:
        return self.metadata.name

    @property
    @abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """The seats in order."""

    def option_items(self) -> tuple[tuple[str, JsonValue], ...]:
        return self._option_items

    @cached_property
    def _option_items(self) -> tuple[tuple[str, JsonValue], ...]:
        """Made once (every information set carries them); options never change after
        `__init__` checks them."""
        return tuple(sorted((key, freeze(value)) for key, value in self.options.items()))

    def new_game(self, seed: int | None = None) -> StateT:
        """A new game; all chance comes from `random.Random(seed)` (the `_deal`'s draws
        sampled from it)."""
        return self._new_dealt(seed)

    def random_game(self, seed: int, moves: int | None = None) -> StateT:
        """A game of random legal moves: `new_game(seed)`, then moves drawn by
        `random.Random(seed)` until the end, or until `moves` were made (what tests,
        benchmarks and examples play to have a game to look at)."""
        state, rng = self.new_game(seed), random.Random(seed)
        made = 0
        while not state.is_over and (moves is None or made < moves):
            state.apply(rng.choice(state.legal_actions()))
            made += 1
        return state

    @classmethod
    def of(cls, info: InformationSet) -> Self:
        """The game `info` belongs to (made once per name and options), as this class.

        Raises:
            InvalidInformationSet: `info` is another game's.
        """
        game = registry.cached_game(info.game, info.options)
        if not isinstance(game, cls):
            raise InvalidInformationSet(
                f"an information set of {info.game!r}, not of {cls.metadata.name!r}"
            )
        return game

    def parse_action(self, text: str) -> Action:
        """The action printed as `text`.

        Raises:
            InvalidAction: `text` is not a string, or no action of this game is written so;
                the message quotes it (cut to about 80 characters) and says what is allowed.
        """
        if not isinstance(text, str):
            raise InvalidAction(
                f"{self.name}: an action is text, not {type(text).__name__} {quote(text)}"
            )
        return self._parse_action(text)

    @abstractmethod
    def _parse_action(self, text: str) -> Action:
        """Hook: the action printed as the string `text`, or InvalidAction quoting it."""

    @abstractmethod
    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        """Hook: every action class of this game, with the values each field may take."""

    def _action_problem(self, action: Action) -> str | None:
        """Hook: what is wrong with valid fields together (a row shifted up), or None."""
        return None

    @cached_property
    def _domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        domains = self._action_domains()
        for kind, fields in domains.items():
            assert dataclasses.is_dataclass(kind), kind
            assert set(fields) == {field.name for field in dataclasses.fields(kind)}, kind
        return domains

    def check_action(self, action: object) -> None:
        """Check an action built in code field by field, as the parser would have.

        `State.apply` calls it first, so a hand-built action never reaches the rules with a
        wrong type, an unknown card or a repeated one.

        Raises:
            InvalidAction: `action` is not an action of this game, or a field holds a value
                it may not; the message names the field and what is allowed.
        """
        domains = self._domains.get(type(action)) if isinstance(action, Action) else None
        if domains is None:
            kinds = ", ".join(kind.__name__ for kind in self._domains)
            what = "an action of another game" if isinstance(action, Action) else "not an action"
            raise InvalidAction(
                f"{self.name}: {quote(action)} is {what}; the actions of {self.name} are "
                f"{kinds} (or write one as text for game.parse_action)"
            )
        for name, domain in domains.items():
            value = getattr(action, name)
            if not domain.accepts(value):
                raise InvalidAction(
                    f"{self.name}: {type(action).__name__}.{name} cannot be {quote(value)}; "
                    f"allowed: {domain.allowed}"
                )
        assert isinstance(action, Action)
        problem = self._action_problem(action)
        if problem is not None:
            raise InvalidAction(f"{self.name}: {quote(action)}: {problem}")

    def check_seat(self, seat: object) -> Seat:
        """`seat` itself when it is a seat of this game (by type too: True is not seat 1).

        Raises:
            ConfigError: it is not; the message lists the seats.
        """
        if not one_of(seat, self.seats):
            raise ConfigError(
                f"{self.name}: no seat {quote(seat)}; the seats are "
                f"{', '.join(map(repr, self.seats))}"
            )
        assert isinstance(seat, int | str)
        return seat

    def describe(self, observation: Observation) -> str:
        """One plain English sentence saying what `observation` records (one of another kind,
        or whose fields are not its kind's, is shown as it is)."""
        kind = typed(observation, self.observation_kinds)
        if isinstance(kind, ObservationKind):
            return self._describe(kind)
        return f"{kind.kind}: {dict(kind.fields)}"

    def _describe(self, kind: ObservationKind) -> str:
        """Hook: a kind of this game in words (its own `describe` unless the game has more
        to say, as Alibi's deck names its groups)."""
        return kind.describe()

    # --- typed observations (the assistant's notation) -----------------------------------
    def parse_entry(
        self, text: object, seat: object, before: Sequence[Observation] = ()
    ) -> tuple[Observation, ...]:
        """The observations one typed line records, as `seat` saw them.

        `before` is what the seat observed earlier; a line may leave out what follows from
        it (the grid after a shift, the round of an answer). One line may record several
        observations (a whole toss), so this returns a tuple.

        Raises:
            InvalidObservation: not text, empty, not this game's notation, a name that is not
                one (with "did you mean"), or something `seat` cannot have seen; or `before`
                is not a sequence of Observations this game could have made.
            ConfigError: `seat` is not a seat of this game.
        """
        seat = self.check_seat(seat)
        before = self._observations_before(before)
        if not isinstance(text, str):
            raise InvalidObservation(
                f"{self.name}: an entry is text, not {type(text).__name__} {quote(text)}"
            )
        if not text.strip():
            raise InvalidObservation(f"{self.name}: the entry is empty; type what you saw")
        return self._notation.parse(text.strip(), seat, before)

    def _observations_before(self, before: object) -> tuple[Observation, ...]:
        """`before` as a tuple, checked here so that no game's reader meets a wrong type."""
        if isinstance(before, InformationSet):
            raise InvalidObservation(
                f"{self.name}: `before` is the observations of an information set, not the "
                "set itself: pass info.observations"
            )
        if not isinstance(before, list | tuple):
            raise InvalidObservation(
                f"{self.name}: `before` is a list or tuple of engines.Observation, not "
                f"{type(before).__name__} {quote(before)}"
            )
        for i, item in enumerate(before):
            if not isinstance(item, Observation):
                raise InvalidObservation(
                    f"{self.name}: before[{i}] is {type(item).__name__} {quote(item)}, not an "
                    "engines.Observation"
                )
        return tuple(typed(item, self.observation_kinds) for item in before)

    def parse_observation(
        self, text: object, seat: object, before: Sequence[Observation] = ()
    ) -> Observation:
        """`parse_entry` for a line that records exactly one observation."""
        found = self.parse_entry(text, seat, before)
        if len(found) != 1:
            raise InvalidObservation(
                f"{self.name}: {quote(text)} records {len(found)} observations, not one"
            )
        return found[0]

    def observation_text(self, observation: Observation) -> str:
        """`observation` as a person types it; `parse_entry` reads it back (given the
        observations before it).

        Raises:
            InvalidObservation: not an observation of this game, or one whose fields are not
                its kind's.
        """
        kind = typed(observation, self.observation_kinds)
        if isinstance(kind, ObservationKind):
            try:
                return self._observation_text(kind)
            except (InvalidAction, TypeError, ValueError) as error:
                raise InvalidObservation(
                    f"{self.name}: not a {self.name} observation: {quote(observation)} ({error})"
                ) from None
        shapes = self.observation_kinds.get(kind.kind, ())
        if shapes:
            fields = " or ".join(", ".join(shape.field_names()) for shape in shapes)
            raise InvalidObservation(
                f"{self.name}: not a {self.name} observation: {quote(observation)} (a "
                f"{kind.kind} has the fields {fields})"
            )
        raise InvalidObservation(
            f"{self.name}: no typed form for {quote(kind.kind)}; the kinds are "
            f"{', '.join(sorted(self.observation_kinds))}"
        )

    def notation_help(self) -> list[tuple[str, str]]:
        """Each form a person can type, with an example, and what it records."""
        return [] if self.notation_class is None else self._notation.forms()

    def notation_words(self) -> list[str]:
        """The words of the notation (kinds, names) that Tab completes."""
        return [] if self.notation_class is None else self._notation.words()

    notation_class: ClassVar[type[TypedNotation] | None] = None
    """The game's typed notation (`engines.notation.TypedNotation`), made once per game."""

    @cached_property
    def _notation(self) -> TypedNotation:
        if self.notation_class is None:
            raise ConfigError(f"{self.name}: observations cannot be typed for this game yet")
        return self.notation_class(self)

    def _observation_text(self, kind: ObservationKind) -> str:
        """Hook: the typed form of a kind of this game (its own `text` unless an option
        changes it, as City Killer's building layout does)."""
        return kind.text()

    @abstractmethod
    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> State:
        """Hook: `arrange(rng, ...)` with the arguments `Setup.to_dict` wrote, each read with
        `read` (which raises InvalidState naming the field); `arrange` refuses impossible
        setups (call it through `_arranged`)."""

    def _arranged(self, arrange: Callable[[], StateT], read: JsonReader) -> StateT:
        """`arrange()`, its refusal of an impossible setup said as a refusal of the JSON."""
        try:
            return arrange()
        except InvalidState as error:
            raise InvalidState(f"{read.what}: setup is not a possible start: {error}") from None

    def state_from_json(self, text: str) -> State:
        """The state `State.to_json` wrote, rebuilt by replaying its setup and actions.

        Every rule is checked by the replay itself, so a loaded state is one the rules reach;
        the derived fields ("state", "rng", "log") must then be exactly the replayed ones.

        Raises:
            InvalidState: `text` is not JSON; or not a state of this game, its version, its
                options; or a field is missing, unknown or holds a value it may not (the
                message names it and what is allowed); or the setup is impossible, an action
                cannot be replayed (the message names its index), or the derived fields differ
                from the replayed state's (the message names the first difference).
        """
        what = f"{self.name} state"
        read = JsonReader(InvalidState, what)
        data = load_json(text, InvalidState, what)
        if isinstance(data, dict) and "deal" in data and "setup" not in data:
            return self._dealing_from_json(read.mapping(data, "the state", DEALING_KEYS), read)
        draws = None
        if isinstance(data, dict) and "draws" in data:
            data = dict(data)
            draws = read.array(data.pop("draws"), "draws")
            if not self.chance_in_play:
                read.fail("draws", draws, f"nothing: {self.name} draws nothing during play")
        data = read.mapping(data, "the state", STATE_KEYS)
        if not same_json(data["game"], self.name):
            read.fail("game", data["game"], repr(self.name))
        if not same_json(data["version"], self.metadata.version):
            raise InvalidState(
                f"{what}: version {quote(data['version'])} cannot be read; this version of "
                f"sleuth reads {self.name} states of version {self.metadata.version}"
            )
        options = [[key, thaw(value)] for key, value in self.option_items()]
        if not same_json(data["options"], options):
            raise InvalidState(
                f"{what}: made with the options {quote(data['options'])}, not this game's "
                f"{quote(options)}; load it with engines.make({self.name!r}, **those options)"
            )
        state = self._replay(data["setup"], data["actions"], read, draws)
        for key, value in state._derived().items():
            # Equal texts are equal values, types included (True is "true", 1.0 is "1.0").
            expected = json.dumps(value, sort_keys=True)
            if json.dumps(data[key], sort_keys=True) != expected:
                difference = first_difference(data[key], json.loads(expected), key)
                raise InvalidState(
                    f"{what}: the state does not follow from its setup and actions: "
                    f"{difference or key}"
                )
        state.check_invariants()
        return state

    def _dealing_from_json(self, data: dict[str, JsonValue], read: JsonReader) -> State:
        """A state in the middle of its deal, from the draws made so far."""
        if not same_json(data["game"], self.name):
            read.fail("game", data["game"], repr(self.name))
        options = [[key, thaw(value)] for key, value in self.option_items()]
        if not same_json(data["version"], self.metadata.version) or not same_json(
            data["options"], options
        ):
            read.fail("version/options", [data["version"], data["options"]], "this game's")
        if not self.explicit_chance:
            read.fail("deal", data["deal"], f"nothing: {self.name}'s deal has no chance nodes")
        outcomes = read.array(data["deal"], "deal")
        drawn = [freeze(read.plain(o, f"deal[{i}]")) for i, o in enumerate(outcomes)]
        try:
            return Dealing(self, drawn)
        except IllegalAction as error:
            raise InvalidState(f"{read.what}: deal cannot be replayed: {error}") from None

    def _replay(
        self,
        setup: JsonValue,
        actions: JsonValue,
        read: JsonReader,
        draws: Sequence[JsonValue] | None = None,
    ) -> State:
        """The state `setup` starts, after each of `actions` (notation) applied by the rules;
        with `draws`, play's chance outcomes are those (explicit chance) instead of the RNG's,
        and a last action whose draws they do not complete leaves a chance node."""
        if setup is None:
            raise InvalidState(
                f"{read.what}: setup cannot be null; only a state played from a start can be "
                "loaded (a view made from an information set has no setup)"
            )
        if not isinstance(setup, dict) or "rng" not in setup:
            read.fail("setup", setup, "an object of the arguments of arrange and 'rng'")
        rng = rng_from_json(setup["rng"], read, "setup.rng")
        state = self._arrange_from_dict(
            {key: value for key, value in setup.items() if key not in ("rng", "deal")}, rng, read
        )
        if "deal" in setup:
            self._adopt_deal(state, read.array(setup["deal"], "setup.deal"), read)
        if draws is not None:
            state._given = [freeze(read.plain(o, f"draws[{i}]")) for i, o in enumerate(draws)]
        for i, notation in enumerate(read.array(actions, "actions")):
            try:
                action = self.parse_action(read.text(notation, f"actions[{i}]"))
                state.apply(action)
            except (InvalidAction, IllegalAction) as error:
                raise InvalidState(
                    f"{read.what}: actions[{i}] {quote(notation)} cannot be replayed: {error}"
                ) from None
        if state._given:
            raise InvalidState(
                f"{read.what}: draws has {len(state._given)} outcomes more than the actions draw"
            )
        return state

    def _adopt_deal(self, state: State, outcomes: list[JsonValue], read: JsonReader) -> None:
        """Record on `state` (just arranged from its setup) the deal that made it, after
        checking that those draws deal exactly that setup."""
        if not self.explicit_chance:
            read.fail("setup.deal", outcomes, f"nothing: {self.name}'s deal has no chance nodes")
        drawn = [freeze(read.plain(o, f"setup.deal[{i}]")) for i, o in enumerate(outcomes)]
        try:
            dealer, dealt, _ = replay_deal(self, drawn)
        except IllegalAction as error:
            raise InvalidState(f"{read.what}: setup.deal cannot be replayed: {error}") from None
        if dealt is None:
            raise InvalidState(f"{read.what}: setup.deal stops before the deal is complete")
        assert dealt._setup is not None and state._setup is not None
        if dealt._setup.arguments != state._setup.arguments:
            raise InvalidState(f"{read.what}: setup.deal does not deal the setup it is stored with")
        state._setup = state._setup.dealt([outcome for outcome, _ in dealer.drawn])
        state._chance = list(dealer.drawn)

    def decisions(self, state: State) -> list[tuple[Seat, InformationSet, Action]]:
        """Every move made so far in `state` (a game of this one): the seat that made it,
        what that seat knew then, and the move (what a review reads), read off the state's
        log as it stood at each move (nothing is replayed).

        Raises:
            InvalidState: `state` is a view made from an information set (it has no setup),
                or not a state of this game.
        """
        theirs = (state.game.name, state.game.option_items())
        if theirs != (self.name, self.option_items()):
            raise InvalidState(
                f"{self.name}: that is a state of {state.game!r}, not of this game ({self!r})"
            )
        if state._setup is None:
            raise InvalidState(
                f"{self.name} state: a view made from an information set has no setup, so no "
                "record of the moves made; only a state played from a start has one"
            )
        moves = zip(state._movers, state._marks, state._actions, strict=True)
        return [(seat, state._information_set_at(seat, mark), a) for seat, mark, a in moves]

    def moves_in(self, info: InformationSet) -> list[tuple[InformationSet, Action]]:
        """The seat's own moves read back from its record `info` alone, each with the record
        before it: what `decisions` gives for that seat, for a review whose record is only
        what the seat saw (the notebook of `sleuth assist`), with no State to replay.

        Each move is read from the observation that begins it (the hook `_move_at`), then
        checked on a view of the record before it: the seat is to move there and the move is
        legal, so a record of moves its seat could not have made is refused rather than
        misread (the rest of the record is the solver's validation's to check). Two moves
        that would leave the same record would read as one; each game's reader says why its
        moves do not (every move is shown to its seat in full).

        Raises:
            InvalidInformationSet: `info` is no information set of this game (another game,
                other options, no seat of it); or an observation records a move of the seat
                that is not one: unreadable, made out of turn, or illegal there (the message
                names the observation). IncompleteInformationSet (a kind of it) when the
                record stops inside one of the seat's moves, before what the move chose.
        """
        self._check_record(info)
        moves: list[tuple[InformationSet, Action]] = []
        for index in range(len(info.observations)):
            action = self._read_move(info, index)
            if action is not None:
                before = record_before(info, index)
                self._check_move(before, action)
                moves.append((before, action))
        return moves

    def _check_record(self, info: object) -> None:
        """Refuse a record that is not an information set of this game and one of its seats."""
        if not isinstance(info, InformationSet):
            raise InvalidInformationSet(
                f"{self.name}: moves are read from an InformationSet, not "
                f"{type(info).__name__} {quote(info)}"
            )
        if info.game != self.name:
            raise InvalidInformationSet(
                f"{self.name}: that is a record of {quote(info.game)}, not of {self.name}"
            )
        if dict(info.options) != dict(self.option_items()):
            raise InvalidInformationSet(
                f"{self.name}: the record's options {quote(dict(info.options))} are not this "
                f"game's ({self!r})"
            )
        if not one_of(info.seat, self.seats):
            raise InvalidInformationSet(
                f"{self.name}: the record's seat {quote(info.seat)} is no seat of this game; "
                f"the seats are {', '.join(map(repr, self.seats))}"
            )

    def _read_move(self, info: InformationSet, index: int) -> Action | None:
        """`_move_at`, its refusal of a move's text said as a refusal of the record."""
        try:
            return self._move_at(info, index)
        except InvalidAction as error:
            raise InvalidInformationSet(
                f"{self.name}: observation {index} ({info.observations[index].kind}) records "
                f"no move of this game: {error}"
            ) from None

    def _move_at(self, info: InformationSet, index: int) -> Action | None:
        """Hook: the move of `info.seat` whose first observation is `info.observations[index]`,
        or None when that observation begins none of its moves. By default found by trial
        (`matched_move`); a game whose observations name each move reads it instead, which
        is exact where a view stands in for what the seat cannot see, and linear."""
        return matched_move(self, info, index)

    def _check_move(self, before: InformationSet, action: Action) -> None:
        """Refuse a move read from a record that its seat cannot have made after `before`."""
        index, seat = len(before.observations), before.seat
        where = f"{self.name}: observation {index} records {action} by seat {seat!r}"
        try:
            self.check_action(action)
            view = self.seat_view(before)
        except SleuthError as error:
            raise InvalidInformationSet(f"{where}, but {error}") from None
        if not one_of(view.to_move, (seat,)):
            mover = "nobody (the game is over)" if view.to_move is None else repr(view.to_move)
            raise InvalidInformationSet(f"{where}, but the record before it has {mover} to move")
        reason = view._illegal_reason(action)
        if reason is not None:
            raise InvalidInformationSet(f"{where}, which the rules forbid there: {reason}")

    def legal_actions_for(self, info: InformationSet) -> list[Action]:
        """The legal actions of the seat to move, from what that seat knows alone.

        Legality never depends on what the mover cannot see, so bots can list their moves
        from an information set.

        Raises:
            ConfigError: `info.seat` is not a seat of this game.
            NotToMove: it is not that seat's turn, or the game is over.
        """
        seat = self.check_seat(info.seat)
        view = self.seat_view(info)
        if view.to_move is None:
            raise NotToMove(f"{self.name}: the game is over; seat {seat!r} has no move")
        if not one_of(view.to_move, (seat,)):
            raise NotToMove(f"{self.name}: it is seat {view.to_move!r}'s turn, not {seat!r}'s")
        return view.legal_actions()

    def seat_view(self, info: InformationSet) -> StateT:
        """Hook: a state agreeing with `info` on all that the seat's own legal actions depend
        on (the public record and the seat's own cards); the rest may be anything."""
        raise NotImplementedError(f"{self.name} cannot list legal actions from an information set")

    def action_from_json(self, text: str) -> Action:
        """The action `Action.to_json` wrote; InvalidAction if it is not one of this game."""
        return self.parse_action(load_json(text, InvalidAction, f"{self.name} action"))

    def seat_from_text(self, text: str) -> Seat:
        """The seat a person named (`"lupin"`, `"2"`); raises `ConfigError` listing the seats."""
        if isinstance(text, str):
            for seat in self.seats:
                if str(seat) == text.strip().lower():
                    return seat
        raise ConfigError(
            f"{self.name}: no seat {quote(text)}; the seats are {', '.join(map(str, self.seats))}"
        )

    def __repr__(self) -> str:
        args = "".join(f", {key}={value!r}" for key, value in self.options.items())
        return f"engines.make({self.name!r}{args})"

    # --- explicit chance (engines/deal.py) ------------------------------------------------
    explicit_chance: ClassVar[bool] = False
    """Whether the game's deal is written as `_deal`, so that `initial_state()` exposes
    each draw as a chance node (OpenSpiel's explicit stochastic games)."""

    def _deal(self, dealer: Dealer, rng: random.Random) -> StateT:
        """Hook: the game's deal, every random draw taken from `dealer` (each draw is one
        chance node), then `arrange`d with `rng` for play. `new_game(seed)` runs it with
        draws sampled from `random.Random(seed)`; `initial_state()` replays it one given
        outcome at a time."""
        raise ConfigError(f"{self.name}: the deal is not yet written as chance nodes")

    def _new_dealt(self, seed: int | None) -> StateT:
        """`new_game(seed)` for a game with a `_deal`: each draw picks uniformly among the
        listed outcomes with `rng.randrange`, as `random.Random`'s choice, shuffle and
        sample do, so seeds deal what they dealt before the deal was explicit."""
        rng = random.Random(seed)

        def pick(outcomes: tuple[Any, ...], sample: Callable[[random.Random], Any] | None) -> Any:
            return sample(rng) if sample is not None else outcomes[rng.randrange(len(outcomes))]

        dealer = Dealer(pick)
        state = self._deal(dealer, rng)
        assert state._setup is not None
        state._setup = state._setup.dealt([outcome for outcome, _ in dealer.drawn])
        state._chance = list(dealer.drawn)
        return state

    def initial_state(self) -> State:
        """The game before its deal: a chance node (`state.is_chance`) whose outcomes are
        applied with `apply_chance`; after the last draw it is the dealt game itself.

        Raises:
            ConfigError: this game's deal is not yet written as chance nodes.
        """
        if not self.explicit_chance:
            raise ConfigError(f"{self.name}: the deal is not yet written as chance nodes")
        return Dealing(self)

    def _dealing(self, drawn: Sequence[JsonValue]) -> State:
        """The deal's chance node after the outcomes `drawn` (what `State.undo` returns to)."""
        return Dealing(self, drawn)

    def _apply_rolling(self, state: State, action: Action, mover: Seat) -> None:
        """Apply `action` to `state` with explicit chance: in place, or `state` becomes the
        chance node (`engines.deal.Rolling`) of its first draw with no outcome yet. Here, not
        in `State`, because the chance nodes are states: `engines.deal` builds on `State`."""
        Rolling.start(state, action, mover)

    @cached_property
    def chance_outcome_space(self) -> tuple[JsonValue, ...]:
        """Every outcome any chance node can have, in a fixed order (their ids)."""
        return self._chance_outcome_space()

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        """Hook: every chance outcome of the deal, each once."""
        raise ConfigError(f"{self.name}: the deal is not yet written as chance nodes")

    @cached_property
    def _chance_index(self) -> dict[tuple[type, JsonValue], int]:
        return {(type(o), o): i for i, o in enumerate(self.chance_outcome_space)}

    @property
    def max_chance_outcomes(self) -> int:
        return len(self.chance_outcome_space)

    def chance_outcome_id(self, outcome: JsonValue) -> int:
        """The id of a chance outcome; InvalidAction if no chance node of this game has it."""
        found = self._chance_index.get((type(outcome), outcome))
        if found is None:
            raise InvalidAction(f"{self.name}: {quote(outcome)} is no chance outcome of this game")
        return found

    def chance_outcome_from_id(self, outcome_id: int) -> JsonValue:
        space = self.chance_outcome_space
        if not is_int(outcome_id) or not 0 <= outcome_id < len(space):
            raise InvalidAction(
                f"{self.name}: chance outcome id {quote(outcome_id)} is not 0 to {len(space) - 1}"
            )
        return space[outcome_id]

    @cached_property
    def deal_length(self) -> int:
        """The number of draws in a deal (every deal of a game draws as often)."""
        dealer = Dealer(lambda outcomes, sample: outcomes[0])
        self._deal(dealer, random.Random(0))
        return len(dealer.drawn)

    @cached_property
    def max_chance_nodes(self) -> int:
        """The most chance nodes a game has: its deal's, and those of play (bounded only
        when `max_game_length` is: options without that bound count the deal's alone)."""
        return self.deal_length + self._max_play_draws()

    chance_in_play: ClassVar[bool] = False
    """Whether chance also draws during play (Serial Killer's dice), as chance nodes at the
    moment of the draw (`State._chance_draw`, `engines.deal.Rolling`)."""

    def _max_play_draws(self) -> int:
        """Hook: the most draws a game's play can make (0 for games that draw only at the deal)."""
        return 0

    # --- a fixed action space ---------------------------------------------------------------
    def _action_universe(self) -> Sequence[Action]:
        """Hook: every action of this game, each once, in a fixed order: action `i` has the
        id `i`. A game whose actions are too many to list spells them as several choices
        instead (override `_action_ids`, `_action_from_ids` and `_num_distinct_actions`)."""
        raise ConfigError(f"{self.name}: the actions are not yet numbered")

    @cached_property
    def _universe(self) -> tuple[tuple[Action, ...], dict[Action, int]]:
        actions = tuple(self._action_universe())
        return actions, {action: i for i, action in enumerate(actions)}

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """Hook: the seats that see `action` (by `seat`) in full; None when all do."""
        return None

    def _num_distinct_actions(self) -> int:
        return len(self._universe[0])

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        found = self._universe[1].get(action)
        if found is None:
            raise InvalidAction(f"{self.name}: {action} has no id (it is never legal)")
        return (found,)

    def _action_from_ids(self, ids: tuple[int, ...]) -> Action:
        if len(ids) != 1:
            raise InvalidAction(f"{self.name}: every action is one id, not {len(ids)}")
        return self._universe[0][ids[0]]

    @cached_property
    def num_distinct_actions(self) -> int:
        """How many action ids there are: every id is 0 to this minus one, for given options."""
        return self._num_distinct_actions()

    max_action_choices: int = 1
    """The most ids one action is spelled with (1 unless the game factors its actions)."""

    def action_ids(self, action: Action) -> tuple[int, ...]:
        """The ids that spell `action`: one id, or for a game whose actions are too many to
        number (Alibi's passes and accusations) one small choice after another.

        Raises:
            InvalidAction: `action` is not an action of this game, or never legal.
        """
        self.check_action(action)
        return self._action_ids(action)

    def action_from_ids(self, ids: Sequence[int]) -> Action:
        """The action `action_ids` spells as `ids`; InvalidAction if they spell none."""
        ids = tuple(ids)
        top = self.num_distinct_actions
        if not ids or not all(is_int(i) and 0 <= i < top for i in ids):
            raise InvalidAction(
                f"{self.name}: action ids are one or more whole numbers from 0 to {top - 1}, "
                f"not {quote(ids)}"
            )
        return self._action_from_ids(ids)

    def action_id(self, action: Action) -> int:
        """The one id of `action`; InvalidAction if it is spelled by several (`action_ids`)."""
        ids = self.action_ids(action)
        if len(ids) != 1:
            raise InvalidAction(
                f"{self.name}: {action} is spelled by {len(ids)} choices {ids}; use action_ids"
            )
        return ids[0]

    def action_from_id(self, action_id: int) -> Action:
        return self.action_from_ids((action_id,))

    def choice_text(self, choice: int) -> str:
        """What one id means, for a person (an action, or a part of a spelled one)."""
        return str(self.action_from_id(choice))

    # --- seats, returns, bounds --------------------------------------------------------------
    @cached_property
    def _seat_indices(self) -> dict[tuple[type, Seat], int]:
        return {(type(seat), seat): i for i, seat in enumerate(self.seats)}

    def seat_index(self, seat: Seat) -> int:
        """The seat's place in `seats` (0 for the first): the integer adapters use.

        Raises:
            ConfigError: `seat` is not a seat of this game.
        """
        found = self._seat_indices.get((type(seat), seat))
        return self.seats.index(self.check_seat(seat)) if found is None else found

    @property
    def min_utility(self) -> float:
        """The lowest value of `State.returns()` (a loss)."""
        return -1.0

    @property
    def max_utility(self) -> float:
        """The highest value of `State.returns()` (a win alone)."""
        return float(len(self.seats) - 1)

    @cached_property
    def zero_sum(self) -> bool:
        """Whether the returns always sum to 0 (not when a game may end with nobody winning)."""
        return not type(self.new_game(0)).may_end_unwon

    @property
    def max_game_length(self) -> int | None:
        """The most actions a game can last (None: no bound, so adapters refuse the options)."""
        return None

    # --- tensors ------------------------------------------------------------------------------
    @cached_property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of `info.to_array()` for every information set of this game."""
        return self._observation_shape()

    def _observation_shape(self) -> tuple[int, ...]:
        """Hook: the shape of `_encode`'s output."""
        raise ConfigError(f"{self.name}: information sets cannot yet be made tensors")

    def _encode(self, info: InformationSet) -> Sequence[float]:
        """Hook: `info` as numbers (flat), from what the seat knows alone (public and its own)."""
        raise ConfigError(f"{self.name}: information sets cannot yet be made tensors")

    def observation_tensor(self, info: InformationSet) -> Any:
        """`info` as a float32 numpy array of `observation_shape` (all zeros before the deal
        is complete, when a seat has observed nothing)."""
        if not info.observations:
            return np.zeros(self.observation_shape, dtype=np.float32)
        return np.asarray(self._encode(info), dtype=np.float32).reshape(self.observation_shape)


# --- a seat's moves read from its record (Game.moves_in) ----------------------------------------
def record_before(info: InformationSet, index: int) -> InformationSet:
    """`info` cut before its observation `index` (its addressees too, when known): what the
    seat knew when it made the move that observation begins."""
    addressees = None if info.addressees is None else info.addressees[:index]
    return InformationSet(info.game, info.options, info.seat, info.observations[:index], addressees)


def next_observation(
    info: InformationSet, index: int, kind: type[ObservationT], what: str
) -> ObservationT:
    """The observation after `index`, where a move of the seat's shows it `what` it chose
    (the move's public record does not say).

    Raises:
        IncompleteInformationSet: the record stops before it.
        InvalidInformationSet: the observation there is of another kind.
    """
    game, observations = info.game, info.observations
    begun = f"{game}: observation {index} ({observations[index].kind}) begins a move of seat "
    if index + 1 == len(observations):
        raise IncompleteInformationSet(
            f"{begun}{info.seat!r}, and the record stops before {what}", waiting_for=what
        )
    found = observations[index + 1]
    if not isinstance(found, kind):
        raise InvalidInformationSet(
            f"{begun}{info.seat!r}, so observation {index + 1} is {what}, not {quote(found)}"
        )
    return found


def matched_move(game: Game, info: InformationSet, index: int) -> Action | None:
    """The move of `info.seat` that observation `index` begins, found by trial (the default
    `Game._move_at`): where the seat is to move on a view of the record before `index`, the
    legal action that, applied to a clone of that view, shows the seat observations agreeing
    longest with the record's next ones (the first listed, at a tie; none when no action's
    first observation is the record's). Longest, not all: a view guesses what the seat
    cannot see, so a move may show it a face that differs (a blind flip in Blue Lion), while
    a choice the seat alone sees may show only after its public record. A record before
    `index` that no view can be made of (one cut inside a move) begins no move.

    Exact where views apply every legal move (Blue Lion's, City Killer's); views that stand
    in for hidden cards cannot always (Noir's, Serial Killer's, Alibi's), and every game of
    this version reads its moves instead, which is linear."""
    seat, rest = info.seat, info.observations[index:]
    if index == 0:
        return None  # a seat sees its deal before it moves
    try:
        view = game.seat_view(record_before(info, index))
    except SleuthError:
        return None  # the view's refusal of a record cut inside a move
    if not one_of(view.to_move, (seat,)):
        return None
    best, agreed = None, 0
    for action in view.legal_actions():
        trial = view.clone()  # a view may be kept for the next record (City Killer's)
        done = len(trial.information_set(seat).observations)
        trial.apply_trusted(action)
        shown = trial.information_set(seat).observations[done:]
        same = _agreeing(shown, rest)
        if same > agreed:
            best, agreed = action, same
    return best


def _agreeing(shown: Sequence[Observation], recorded: Sequence[Observation]) -> int:
    """How many observations `shown` and `recorded` begin with alike."""
    count = 0
    for ours, theirs in zip(shown, recorded, strict=False):
        if ours != theirs:
            break
        count += 1
    return count
