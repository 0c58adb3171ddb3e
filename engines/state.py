"""The whole truth of a game in progress: its `Setup` plus the actions applied since, the
observations it emitted to each seat, and the chance it drew. `State` checks each move once
(game over, whose turn, legality) and leaves each game a few private hooks, as OpenSpiel and
pgx do."""

from __future__ import annotations

import dataclasses
import json
import random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeAlias, TypeVar

from engines import registry
from engines.actions import Action
from engines.errors import IllegalAction, InvalidState
from engines.observations import InformationSet, Observation, PublicInformationSet
from engines.values import JsonReader, JsonValue, Seat, one_of, quote, thaw

if TYPE_CHECKING:
    from engines.game import Game

T = TypeVar("T")
LogEntry: TypeAlias = "tuple[Observation, tuple[Seat, ...] | None]"


@dataclass(frozen=True)
class Setup:
    """How a state began: the arguments `arrange` was given (as JSON text, so nothing can
    change them) and the state of the RNG it was given. Clones share it.

    A state is its setup plus the actions applied since, so JSON stores both and loading
    replays them: a loaded state is always one the rules reach.
    """

    arguments: str
    rng: tuple[Any, ...]
    deal: tuple[JsonValue, ...] | None = None
    """The chance outcomes the game's deal drew to make these arguments (None when the
    arguments were given to `arrange` directly or replaced by a determinization)."""

    @classmethod
    def record(cls, rng: random.Random, **arguments: JsonValue) -> Setup:
        """The setup of a game `arrange` starts with `arguments` (JSON-able) and `rng`."""
        return cls(json.dumps(arguments, sort_keys=True), rng.getstate())

    def replaced(self, **arguments: JsonValue) -> Setup:
        """The same setup with some arguments changed (a determinization's hidden cards)."""
        return Setup(json.dumps({**self._arguments, **arguments}, sort_keys=True), self.rng)

    @cached_property
    def _arguments(self) -> dict[str, JsonValue]:
        """The arguments parsed once, only read (search replaces them once a sample)."""
        return self.to_dict()

    def dealt(self, outcomes: Sequence[JsonValue]) -> Setup:
        """The same setup, recorded as made by the deal that drew `outcomes`."""
        return dataclasses.replace(self, deal=tuple(outcomes))

    def to_dict(self) -> dict[str, JsonValue]:
        """The arguments, without the RNG."""
        arguments: dict[str, JsonValue] = json.loads(self.arguments)
        return arguments

    def to_json_value(self) -> dict[str, JsonValue]:
        """The arguments and, under "rng", the generator's state."""
        deal = {} if self.deal is None else {"deal": [thaw(o) for o in self.deal]}
        return {**self.to_dict(), "rng": rng_state_to_json(self.rng), **deal}


STATE_KEYS = ("game", "version", "options", "setup", "actions", "state", "rng", "log")
DEALING_KEYS = ("game", "version", "options", "deal")


def first_difference(given: JsonValue, expected: JsonValue, path: str) -> str | None:
    """The path of the first place where decoded JSON `given` differs from `expected` (types
    compared too: True is not 1), said with both values; None when they are the same."""
    if type(given) is type(expected):
        if isinstance(given, dict):
            for key in sorted(given.keys() | expected.keys()):
                if key not in given or key not in expected:
                    return f"{path}.{key} is {'missing' if key not in given else 'unexpected'}"
                found = first_difference(given[key], expected[key], f"{path}.{key}")
                if found is not None:
                    return found
            return None
        if isinstance(given, list):
            for i, (a, b) in enumerate(zip(given, expected, strict=False)):
                found = first_difference(a, b, f"{path}[{i}]")
                if found is not None:
                    return found
            if len(given) == len(expected):
                return None
            return f"{path} has {len(given)} items, not {len(expected)}"
        if given == expected:
            return None
    return f"{path} is {quote(given)}, not {quote(expected)}"


def rng_to_json(rng: random.Random) -> list[JsonValue]:
    return rng_state_to_json(rng.getstate())


def rng_state_to_json(state: tuple[Any, ...]) -> list[JsonValue]:
    """A generator's state (`random.Random.getstate`) as JSON: [version, words, gauss]."""
    version, words, gauss = state
    return [version, list(words), gauss]


def rng_from_json(value: JsonValue, read: JsonReader, path: str = "rng") -> random.Random:
    """The generator `rng_to_json` wrote: [3, 624 words and a position, the spare gauss]."""
    version, words, gauss = read.array(value, path, 3)
    read.choice(version, f"{path}[0]", (3,))
    words = read.array(words, f"{path}[1]", 625)
    if not all(type(word) is int and 0 <= word < 2**32 for word in words):
        read.fail(f"{path}[1]", words, "624 whole numbers from 0 to 2**32 - 1, then 0 to 624")
    read.number(words[-1], f"{path}[1][624]", 0, 624)
    if not (gauss is None or type(gauss) is float):
        read.fail(f"{path}[2]", gauss, "null or a number")
    rng = random.Random()
    try:
        rng.setstate((version, tuple(words), gauss))
    except (ValueError, TypeError, OverflowError) as error:
        read.fail(path, value, f"a state of Python's random.Random ({error})")
    return rng


_CONTAINERS = frozenset({list, dict, set, deque})
_CORE_FIELDS = frozenset({"_log", "_actions", "_movers", "_marks", "_chance", "_draws", "_given"})
"""What `State._copy_core_into` copies itself (the log only grows, so its entries are shared)."""


def fresh(value: Any) -> Any:
    """A copy of a container and of every container inside it; other values are shared."""
    kind = type(value)
    if kind is list:
        if _CONTAINERS.isdisjoint(map(type, value)):
            return value.copy()
        return [fresh(item) if type(item) in _CONTAINERS else item for item in value]
    if kind is dict:
        if _CONTAINERS.isdisjoint(map(type, value.values())):
            return value.copy()
        return {k: fresh(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is set:
        return set(value)
    if kind is deque:
        return deque((fresh(item) for item in value), value.maxlen)
    return value


class PendingDraw(Exception):
    """A draw during play that has no outcome yet (explicit chance): its outcomes, their
    probabilities (None: equally likely) and the seats that will see it."""

    def __init__(
        self,
        outcomes: tuple[Any, ...],
        weights: Sequence[float] | None,
        seen_by: tuple[Seat, ...] | None,
    ) -> None:
        self.outcomes, self.weights, self.seen_by = outcomes, weights, seen_by


class State(ABC):
    """The whole truth of one game in progress. Mutable; `clone()` is cheap for search.

    Hidden data lives in underscore attributes; every seat's view is derived from the
    observation log, never stored apart from it.
    """

    may_end_unwon: ClassVar[bool] = False
    """Whether a game can end with no seat winning (Serial Killer: the killer wins, or all
    players lose together); other games name their winners whenever they end."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self._rng = rng
        self._rng_shared = False
        self._log: list[tuple[Observation, tuple[Seat, ...] | None]] = []
        self._log_summary: tuple[int, object, Any] | None = None
        self._setup: Setup | None = None  # None only for a view made by `Game.seat_view`
        self._actions: list[Action] = []  # applied since the setup, in order
        self._movers: list[Seat] = []  # who applied each of them
        self._marks: list[int] = []  # how long the log was when each was chosen
        self._chance: list[tuple[JsonValue, tuple[Seat, ...] | None]] = []  # the deal's draws
        # Chance during play: each draw with the index of the action it belongs to and the
        # seats that see it; `_given` holds the outcomes still to come when chance is
        # explicit (a state dealt from `Game.initial_state`), None when the RNG draws.
        self._draws: list[tuple[int, JsonValue, tuple[Seat, ...] | None]] = []
        self._given: list[JsonValue] | None = None

    # --- what each game provides -------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> Seat | None:
        """The seat to act, or None when the game is over."""

    @property
    @abstractmethod
    def winners(self) -> tuple[Seat, ...]:
        """The winning seats once the game is over (several on a shared win), else ()."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """Hook: the legal actions of `to_move`; called only while the game is running."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Hook: apply a legal action, emitting its observations."""

    @abstractmethod
    def _to_dict(self) -> dict[str, JsonValue]:
        """Hook: the game-specific part of the JSON, hidden fields included."""

    def clone(self) -> Self:
        """An independent copy, written once for every game: each container the state holds
        (list, dict, set, deque, nested) is copied and everything else is shared, because a
        state's other values are immutable (numbers, strings, tuples, frozen actions and
        observations) or shared on purpose (the game, the setup). A new field needs nothing."""
        other = object.__new__(type(self))
        values = self.__dict__.copy()
        for name, value in values.items():
            if type(value) in _CONTAINERS and name not in _CORE_FIELDS:
                values[name] = fresh(value)
        other.__dict__ = values
        self._copy_core_into(other)
        return other

    def points(self, seat: Seat) -> float:
        """Hook: the seat's score as the game counts it (0 for games without points)."""
        return 0.0

    def summary(self, seat: Seat) -> dict[str, object]:
        """Hook: how the game went for `seat`, for arena reports (nothing by default)."""
        return {}

    def _why_illegal(self, action: Action) -> str:
        """Hook: why a well-formed action is not legal now (a game can be more specific)."""
        return f"{action} is not legal now"

    def _broken_invariants(self) -> list[str]:
        """Hook: each rule invariant this state breaks, in words (none: an empty list).

        Called after every move by the soak benchmark, so it must be cheap next to `apply`.
        """
        return []

    def _summarise_log(self, fold: Callable[[T, LogEntry], T], initial: T) -> T:
        """`fold` over the log, resumed from where the last call stopped.

        The log only grows (entries are never rewritten), so checking invariants after every
        move costs the new entries, not the whole game. `fold` must return a new value.
        """
        log, cached = self._log, self._log_summary
        done, summary = 0, initial
        if cached is not None and 0 < cached[0] <= len(log) and log[cached[0] - 1] is cached[1]:
            done, summary = cached[0], cached[2]
        for entry in log[done:]:
            summary = fold(summary, entry)
        if log:
            self._log_summary = (len(log), log[-1], summary)
        return summary

    # --- the shared checking ------------------------------------------------------------
    def check_invariants(self) -> None:
        """Check what the published rules imply about any reachable state.

        Raises:
            InvalidState: the state breaks an invariant; the message lists each one broken.
        """
        broken = self._broken_core_invariants() or self._broken_invariants()
        if broken:
            raise InvalidState(
                f"{self.game.name}: not a state the rules can reach: {'; '.join(broken)}"
            )

    def _broken_core_invariants(self) -> list[str]:
        """What every game shares: the mover is a seat; a game is over exactly when it has
        winners (unless it `may_end_unwon`), each a seat once."""
        seats, winners, mover = self.game.seats, self.winners, self.to_move
        broken = []
        if mover is not None and not one_of(mover, seats):
            broken.append(f"the seat to move {quote(mover)} is not a seat")
        if (mover is None) != bool(winners) and not (mover is None and self.may_end_unwon):
            broken.append("a game is over exactly when it names its winners")
        if winners and (
            len(set(winners)) != len(winners) or not all(one_of(w, seats) for w in winners)
        ):
            broken.append(f"the winners {quote(winners)} are not distinct seats")
        return broken

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self._legal_actions()

    def apply(self, action: Action) -> None:
        """Apply `action` for the seat to move.

        Raises:
            InvalidAction: `action` is not an action of this game, or one of its fields holds
                a value it may not (see `Game.check_action`).
            IllegalAction: the game is over, or the rules forbid the action now.
            Either way the state is unchanged.
        """
        self.game.check_action(action)
        if self.is_over:
            raise IllegalAction(f"{action} is not possible: the game is over")
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        self.apply_trusted(action)

    def _illegal_reason(self, action: Action) -> str | None:
        """Hook: why `action` breaks the rules now, or None when it is legal.

        By default an action is legal when it is listed; a game whose legal actions are too
        many to list (Alibi's passes and card-list questions) checks them by structure here.
        """
        return None if action in self._legal_actions() else self._why_illegal(action)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action taken from `legal_actions()` without checking it again (for search).

        With explicit chance in play, an action whose draws have no outcome yet leaves a
        chance node (`engines.deal.Rolling`) that turns into the state after the action once
        its outcomes are applied."""
        mover = self.to_move
        assert mover is not None
        if self._given is not None and self.game.chance_in_play:
            self.game._apply_rolling(self, action, mover)
            return
        mark = len(self._log)
        self._apply(action)
        self._record_move(action, mover, mark)

    def _record_move(self, action: Action, mover: Seat, mark: int) -> None:
        """Note a move made: the action, its mover and how long the log was before it (what
        `Game.decisions` reads the mover's knowledge off)."""
        self._actions.append(action)
        self._movers.append(mover)
        self._marks.append(mark)

    def _chance_draw(
        self,
        outcomes: Sequence[JsonValue],
        seen_by: tuple[Seat, ...] | None = None,
        weights: Sequence[float] | None = None,
        sample: Callable[[random.Random], JsonValue] | None = None,
    ) -> JsonValue:
        """One chance draw during play among `outcomes` (distinct), equally likely unless
        `weights` (probabilities, summing to 1) are given. With explicit chance it is the
        next outcome given, or a chance node when none is; otherwise the RNG draws it, with
        `sample` when given (so that a game draws as it drew before the draw was explicit),
        else as `outcomes[rng.randrange(len(outcomes))]`."""
        given = self._given
        if given is None:
            rng = self.rng
            outcome = sample(rng) if sample is not None else outcomes[rng.randrange(len(outcomes))]
        elif given:
            outcome = given.pop(0)
            if not one_of(outcome, outcomes):
                raise IllegalAction(
                    f"{self.game.name}: {quote(outcome)} is not an outcome of this draw; "
                    f"allowed: {quote(list(outcomes))}"
                )
        else:
            raise PendingDraw(tuple(outcomes), weights, seen_by)
        self._draws.append((len(self._actions), outcome, seen_by))
        return outcome

    def apply_text(self, text: str) -> Action:
        """Parse `text` and apply it; returns the action. Raises InvalidAction/IllegalAction."""
        action = self.game.parse_action(text)
        self.apply(action)
        return action

    # --- observations and information sets ---------------------------------------------
    def _emit(self, observation: Observation, to: Iterable[Seat] | None = None) -> None:
        """Record an observation for the seats `to` (everyone when None)."""
        self._log.append((observation, None if to is None else tuple(to)))

    @property
    def observation_count(self) -> int:
        """How many observations the state has recorded, for any seat (the log only grows)."""
        return len(self._log)

    def recorded(self, start: int = 0) -> list[LogEntry]:
        """The observations recorded from index `start` on, each with the seats it is shown
        to (None: everyone): what `information_set` filters, for readers that follow the
        log as it grows."""
        return self._log[start:]

    def public_observations(self) -> tuple[Observation, ...]:
        """The observations every seat sees (what a spectator may be told)."""
        return tuple(obs for obs, to in self._log if to is None)

    def information_set(self, seat: Seat) -> InformationSet:
        """What `seat` knows; ConfigError unless it is a seat of this game (True is not 1)."""
        self.game.check_seat(seat)
        return self._information_set_at(seat, len(self._log))

    def _information_set_at(self, seat: Seat, entries: int) -> InformationSet:
        """What `seat` knew when the log held its first `entries` observations."""
        log = [(obs, to) for obs, to in self._log[:entries] if to is None or seat in to]
        seen = tuple(obs for obs, _ in log)
        addressees = tuple(to for _, to in log)
        return InformationSet(self.game.name, self.game.option_items(), seat, seen, addressees)

    # --- serialisation -------------------------------------------------------------------
    def to_json(self) -> str:
        """The setup and the actions (what `Game.state_from_json` replays), then the current
        state, the RNG and the observation log derived from them, for readers."""
        return json.dumps(
            {
                "game": self.game.name,
                "version": self.game.metadata.version,
                "options": [[key, thaw(value)] for key, value in self.game.option_items()],
                "setup": None if self._setup is None else self._setup.to_json_value(),
                "actions": [str(action) for action in self._actions],
                **self._explicit_draws(),
                **self._derived(),
            },
            sort_keys=True,
        )

    def _explicit_draws(self) -> dict[str, JsonValue]:
        """Play's chance outcomes, for JSON, when they were given (explicit chance) rather
        than drawn from the RNG (which the setup stores)."""
        if self._given is None or not self.game.chance_in_play:
            return {}
        return {"draws": [thaw(outcome) for _, outcome, _ in self._draws]}

    def _derived(self) -> dict[str, JsonValue]:
        """What follows from the setup and the actions: the state, the RNG, the log."""
        return {
            "state": self._to_dict(),
            "rng": rng_to_json(self._rng),
            "log": [[obs.to_dict(), None if to is None else list(to)] for obs, to in self._log],
        }

    @property
    def rng(self) -> random.Random:
        """The chance source for draws during play (setup draws come from `new_game`'s RNG).

        Clones share one generator until either draws from it (copy-on-write), which keeps
        `clone()` cheap for search without letting one copy's draws change another's.
        """
        if self._rng_shared:
            own = random.Random()
            own.setstate(self._rng.getstate())
            self._rng, self._rng_shared = own, False
        return self._rng

    def _copy_core_into(self, other: State) -> None:
        """Give a clone its own log and actions, the same setup, and a copy-on-write share of
        the RNG (for `clone`)."""
        other._rng = self._rng
        other._rng_shared = self._rng_shared = True
        other._log = list(self._log)
        other._setup = self._setup
        other._actions = list(self._actions)
        other._movers = list(self._movers)
        other._marks = list(self._marks)
        other._chance = self._chance  # the deal is over: never changed again
        other._draws = list(self._draws)
        other._given = None if self._given is None else list(self._given)

    # --- explicit chance, history, returns, undo (what adapters need) ------------------------
    @property
    def is_chance(self) -> bool:
        """Whether chance moves next: during the deal (`Game.initial_state`), and with
        explicit chance during play in a game that draws then (`Game.chance_in_play`)."""
        return False

    def chance_outcomes(self) -> list[tuple[JsonValue, float]]:
        """Each outcome of the chance node with its probability (they sum to 1).

        Raises:
            IllegalAction: this is not a chance node.
        """
        raise IllegalAction(f"{self.game.name}: no chance node here; a seat is to move")

    def apply_chance(self, outcome: JsonValue) -> None:
        """Apply one outcome of the chance node. Raises IllegalAction if it is not one."""
        raise IllegalAction(f"{self.game.name}: no chance node here; a seat is to move")

    def history(self) -> list[Step]:
        """Every chance outcome, then every action, applied since the start, each with the
        seats that see it in full."""
        game = self.game
        steps = [Step(None, outcome, seen) for outcome, seen in self._chance]
        draws, d = self._draws, 0
        for i, (seat, action) in enumerate(zip(self._movers, self._actions, strict=True)):
            steps.append(Step(seat, action, game._action_seen_by(action, seat)))
            while d < len(draws) and draws[d][0] == i:
                steps.append(Step(None, draws[d][1], draws[d][2]))
                d += 1
        steps += [Step(None, outcome, seen) for _, outcome, seen in draws[d:]]
        return steps

    def public_information_set(self) -> PublicInformationSet:
        """What every seat (and a spectator) knows: the public observations."""
        return PublicInformationSet(
            self.game.name, self.game.option_items(), self.public_observations()
        )

    def returns(self) -> tuple[float, ...]:
        """Each seat's result in seat order: 0 while the game runs; then, with k winners
        among n seats, n/k - 1 to each winner and -1 to the others (zero-sum: a win alone in
        a two-seat game is +1/-1, a shared win 0/0)."""
        seats, winners = self.game.seats, self.winners
        if not self.is_over:
            return tuple(0.0 for _ in seats)
        share = len(seats) / len(winners) if winners else 0.0
        return tuple(share - 1.0 if one_of(seat, winners) else -1.0 for seat in seats)

    def spelled_actions(self) -> dict[tuple[int, ...], Action]:
        """Each legal action by the ids that spell it (`Game.action_ids`; legal actions are
        valid, so they are not checked again)."""
        ids = self.game._action_ids
        return {ids(action): action for action in self.legal_actions()}

    def legal_choices(self, prefix: Sequence[int] = ()) -> list[int]:
        """The ids that may follow `prefix` in spelling a legal action (`Game.action_ids`),
        sorted; with no prefix, the first id of every legal action."""
        prefix, n = tuple(prefix), len(prefix)
        spelled = self.spelled_actions()
        return sorted({ids[n] for ids in spelled if len(ids) > n and ids[:n] == prefix})

    def _become(self, other: State) -> None:
        """Turn into `other` in place (its class and fields), so that callers holding this
        object see the change, as with OpenSpiel states: a deal's last draw turns a
        `Dealing` into the game's own state, and `undo` may turn it back."""
        self.__class__ = other.__class__
        self.__dict__ = other.__dict__

    def undo(self) -> None:
        """Take back the last action or chance outcome, restoring the exact earlier state
        (its JSON too). It replays the game from its setup, so it costs a whole game. When
        play's draws come from the RNG (`new_game`) an action goes with its draws; with
        explicit chance the last draw is taken back alone, leaving its chance node.

        Raises:
            IllegalAction: nothing was applied since the start (a state made by `arrange`
                starts after its deal), or the state is a view with no setup.
        """
        if self._actions:
            setup = self._setup
            if setup is None:
                raise IllegalAction(f"{self.game.name}: a view made from an information set "
                                    "has no setup to replay, so it cannot undo")  # fmt: skip
            read = JsonReader(InvalidState, f"{self.game.name} state")
            actions = [str(action) for action in self._actions]
            explicit = self._explicit_draws().get("draws")
            if explicit is None:
                # the RNG draws: the last action goes with its draws
                self._become(self.game._replay(setup.to_json_value(), actions[:-1], read))
                return
            last = len(actions) - 1
            if self._draws and self._draws[-1][0] == last:
                explicit = explicit[:-1]  # the last step is a draw of the last action
            else:
                actions = actions[:-1]
            self._become(self.game._replay(setup.to_json_value(), actions, read, explicit))
        elif self._chance:
            self._become(self.game._dealing([outcome for outcome, _ in self._chance[:-1]]))
        else:
            raise IllegalAction(f"{self.game.name}: nothing to undo; the game is at its start")

    # --- copies: deepcopy is clone(), pickle is to_json() -----------------------------------
    def __copy__(self) -> State:
        """A shallow copy (what `copy.copy` gave before pickling was defined)."""
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game's name and options and its JSON (loaded by replaying it)."""
        return (_state_from_pickle, (self.game.name, self.game.option_items(), self.to_json()))


@dataclass(frozen=True)
class Step:
    """One entry of `State.history()`: who moved (None: chance), what (an Action or a
    chance outcome), and the seats that see it in full (None: every seat)."""

    seat: Seat | None
    value: Any
    seen_by: tuple[Seat, ...] | None


def _state_from_pickle(name: str, options: tuple[tuple[str, JsonValue], ...], text: str) -> State:
    return registry.cached_game(name, options).state_from_json(text)
