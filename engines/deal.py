"""Chance nodes: each random draw of a deal, or of play, is one node with its outcomes listed.

A game writes its deal once, as `Game._deal(dealer, rng)`, drawing from a `Dealer`.
`new_game(seed)` runs it with draws sampled from `random.Random(seed)`; `Game.initial_state()`
gives a `Dealing`, a chance node per draw for adapters (OpenSpiel's explicit chance), which
replays the deal with the outcomes given so far and stops at the first draw not yet made.
The `Dealer`'s `sample` and `shuffle` draw in the same order and from the same lists as
`random.Random.sample` and `shuffle`, so a seed deals what it dealt before.

A game that also draws during play (`Game.chance_in_play`: Serial Killer's dice) draws with
`State._chance_draw`; with explicit chance an action whose draw has no outcome yet turns the state
into a `Rolling`, a chance node that re-applies the action with the outcomes given so far.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from engines.actions import Action
from engines.errors import IllegalAction
from engines.state import PendingDraw, State, Step
from engines.values import JsonValue, Seat, quote, thaw

if TYPE_CHECKING:
    from engines.game import Game

T = TypeVar("T")
SeenBy = tuple[Seat, ...] | None
Sampler = Callable[[random.Random], Any]


class Dealer:
    """Where a deal draws from: `pick` chooses one of the listed outcomes (all equally
    likely); `drawn` keeps each outcome with the seats that see it (None: every seat)."""

    def __init__(self, pick: Callable[[tuple[Any, ...], Sampler | None], Any]) -> None:
        self._pick = pick
        self.drawn: list[tuple[JsonValue, SeenBy]] = []

    def choice(
        self, outcomes: Sequence[T], seen_by: SeenBy = None, sample: Sampler | None = None
    ) -> T:
        """One of `outcomes` (distinct), each with the same probability; `new_game` draws
        it with `sample(rng)` when given, else as `outcomes[rng.randrange(len(outcomes))]`."""
        outcome: T = self._pick(tuple(outcomes), sample)
        self.drawn.append((outcome, seen_by))
        return outcome

    def sample(
        self,
        population: Sequence[T],
        seen_by: SeenBy = None,
        places: Sequence[SeenBy] | None = None,
        count: int | None = None,
    ) -> list[T]:
        """`count` items of `population` (all of them by default) in a random order, drawn
        first to last as `random.Random.sample(population, count)` draws them from a small
        population; the draw for place i is seen by `places[i]` when given, else by `seen_by`."""
        pool, n, result = list(population), len(population), []
        k = n if count is None else count
        if n > _set_size(k):  # Python draws indices until a new one comes up
            chosen: list[int] = []

            def fresh(rng: random.Random) -> T:
                j = rng.randrange(n)
                while j in chosen:
                    j = rng.randrange(n)
                return pool[j]

            for i in range(k):
                left = [item for j, item in enumerate(pool) if j not in chosen]
                item = self.choice(left, seen_by if places is None else places[i], fresh)
                chosen.append(pool.index(item))
                result.append(item)
            return result
        for i in range(k):
            item = self.choice(pool[: n - i], seen_by if places is None else places[i])
            j = pool.index(item)
            result.append(item)
            pool[j] = pool[n - i - 1]
        return result

    def shuffle(self, items: Sequence[T], seen_by: Sequence[SeenBy] | None = None) -> list[T]:
        """`items` shuffled as `random.Random.shuffle` does it, last place first; the card
        drawn for place i is seen by `seen_by[i]` (everyone when not given)."""
        x = list(items)
        repeated = len(set(x)) != len(x)
        for i in reversed(range(1, len(x))):
            seen = None if seen_by is None else seen_by[i]
            if repeated:  # equal cards: the outcome is the place swapped in, 0 to i
                j = self.choice(range(i + 1), seen)
            else:
                j = x.index(self.choice(x[: i + 1], seen))
            x[i], x[j] = x[j], x[i]
        return x


def _set_size(k: int) -> int:
    """Above this population size `random.Random.sample(population, k)` picks by a set of
    indices drawn until new, not from a shrinking pool (CPython's threshold)."""
    size = 21
    if k > 5:
        size += 4 ** math.ceil(math.log(k * 3, 4))
    return size


class _Pending(Exception):
    """The replayed deal reached a draw that has no outcome yet."""

    def __init__(self, outcomes: tuple[Any, ...]) -> None:
        self.outcomes = outcomes


def _among(outcome: object, outcomes: Sequence[object]) -> bool:
    return any(type(o) is type(outcome) and o == outcome for o in outcomes)


def replay_deal(
    game: Game, drawn: Sequence[JsonValue]
) -> tuple[Dealer, State | None, tuple[Any, ...]]:
    """Run the deal with the outcomes `drawn`: the dealer, then the dealt state (None while
    draws are missing) and the outcomes of the next draw.

    Raises:
        IllegalAction: an outcome is not one of its draw's, or there are more than the deal draws.
    """
    given = iter(drawn)

    def pick(outcomes: tuple[Any, ...], sample: Sampler | None) -> Any:
        outcome = next(given, _Pending)
        if outcome is _Pending:
            raise _Pending(outcomes)
        if not _among(outcome, outcomes):
            allowed = ", ".join(map(repr, outcomes[:12])) + (", ..." if len(outcomes) > 12 else "")
            raise IllegalAction(
                f"{game.name}: {quote(outcome)} is not an outcome of draw {len(dealer.drawn)}; "
                f"allowed: {allowed}"
            )
        return outcome

    dealer = Dealer(pick)
    try:
        dealt = game._deal(dealer, random.Random(0))
    except _Pending as pending:
        return dealer, None, pending.outcomes
    if next(given, _Pending) is not _Pending:
        raise IllegalAction(f"{game.name}: the deal draws only {len(dealer.drawn)} times")
    return dealer, dealt, ()


class _ChanceNode(State):
    """A state at which only chance acts: nobody moves, nobody has won, and an action is
    refused with what it waits for (`_waits_for`)."""

    _waits_for = "chance draws now"

    @property
    def is_chance(self) -> bool:
        return True

    @property
    def is_over(self) -> bool:
        return False

    @property
    def to_move(self) -> Seat | None:
        return None

    @property
    def winners(self) -> tuple[Seat, ...]:
        return ()

    def _legal_actions(self) -> list[Any]:
        return []

    def _apply(self, action: Any) -> None:
        raise IllegalAction(f"{self.game.name}: {self._waits_for}; apply chance first")

    def apply(self, action: Any) -> None:
        self._apply(action)


class Dealing(_ChanceNode):
    """A game whose deal is not complete: a chance node. After its last draw it turns
    into the dealt game's own state (see `State._become`).

    Raises (on construction):
        IllegalAction: `outcomes` are not the beginning of a deal.
    """

    _waits_for = "the deal is not complete"

    def __init__(self, game: Game, outcomes: Sequence[JsonValue] = ()) -> None:
        super().__init__(game, random.Random(0))
        self._drawn: list[JsonValue] = list(outcomes)
        self._outcomes: tuple[Any, ...] = ()
        self._seen: list[SeenBy] = []
        self._sync()

    def _sync(self) -> None:
        """Replay the deal with the draws made; stop at the next one, or become the game."""
        dealer, dealt, self._outcomes = replay_deal(self.game, self._drawn)
        if dealt is None:
            self._seen = [seats for _, seats in dealer.drawn]
            return
        assert dealt._setup is not None
        dealt._setup = dealt._setup.dealt(self._drawn)
        dealt._chance = list(dealer.drawn)
        dealt._given = []  # play's draws are chance nodes too
        self._become(dealt)

    def chance_outcomes(self) -> list[tuple[JsonValue, float]]:
        p = 1.0 / len(self._outcomes)
        return [(outcome, p) for outcome in self._outcomes]

    def apply_chance(self, outcome: JsonValue) -> None:
        if not _among(outcome, self._outcomes):
            replay_deal(self.game, [*self._drawn, outcome])  # raises, saying what is allowed
        self._drawn.append(outcome)
        self._sync()

    def history(self) -> list[Step]:
        return [Step(None, o, seen) for o, seen in zip(self._drawn, self._seen, strict=True)]

    def undo(self) -> None:
        if not self._drawn:
            raise IllegalAction(f"{self.game.name}: nothing to undo; the game is at its start")
        self._become(Dealing(self.game, self._drawn[:-1]))

    def _to_dict(self) -> dict[str, JsonValue]:
        return {"deal": [thaw(o) for o in self._drawn]}

    def check_invariants(self) -> None:
        """A deal in progress is any prefix of a deal; `apply_chance` checked each draw."""

    def to_json(self) -> str:
        game = self.game
        return json.dumps(
            {
                "game": game.name,
                "version": game.metadata.version,
                "options": [[key, thaw(value)] for key, value in game.option_items()],
                "deal": [thaw(o) for o in self._drawn],
            },
            sort_keys=True,
        )


class Rolling(_ChanceNode):
    """An action whose draws are not all made: a chance node. It keeps the state before the
    action and re-applies the action with the outcomes given so far, until the action needs
    no more; then it turns into the state after the action (see `State._become`).

    Its history, information sets and JSON are those of the action applied up to the draw:
    the JSON lists the action, and `draws` stops short of the pending draw.
    """

    def __init__(self, before: State, action: Action, mover: Seat) -> None:
        super().__init__(before.game, before._rng)
        self._before, self._action, self._mover = before, action, mover
        self._outcomes: tuple[Any, ...] = ()
        self._weights: Sequence[float] | None = None
        self._partial: State = before

    @staticmethod
    def start(state: State, action: Action, mover: Seat) -> None:
        """Apply `action` to `state` (explicit chance): in place, or `state` becomes a
        `Rolling` at the first draw with no outcome."""
        before = state.clone()
        try:
            state._apply(action)
        except PendingDraw as pending:
            partial = State.__new__(type(state))
            partial.__dict__ = state.__dict__
            rolling = Rolling(before, action, mover)
            rolling._pend(partial, pending)
            state._become(rolling)
            return
        state._record_move(action, mover, len(before._log))

    def _pend(self, partial: State, pending: PendingDraw) -> None:
        self._partial = partial
        if pending.weights is None:
            self._outcomes, self._weights = pending.outcomes, None
        else:  # outcomes that cannot happen are no chance outcomes
            kept = [(o, w) for o, w in zip(pending.outcomes, pending.weights, strict=True) if w > 0]
            self._outcomes = tuple(o for o, _ in kept)
            self._weights = tuple(w for _, w in kept)
        before = self._before
        self._setup, self._chance = before._setup, before._chance
        self._actions = [*before._actions, self._action]
        self._movers = [*before._movers, self._mover]
        self._marks = [*before._marks, len(before._log)]
        self._log, self._draws = partial._log, partial._draws
        self._given = []

    def chance_outcomes(self) -> list[tuple[JsonValue, float]]:
        if self._weights is None:
            p = 1.0 / len(self._outcomes)
            return [(outcome, p) for outcome in self._outcomes]
        return list(zip(self._outcomes, self._weights, strict=True))

    def apply_chance(self, outcome: JsonValue) -> None:
        if not _among(outcome, self._outcomes):
            allowed = ", ".join(map(repr, self._outcomes[:12]))
            raise IllegalAction(
                f"{self.game.name}: {quote(outcome)} is not an outcome of this draw; "
                f"allowed: {allowed}" + (", ..." if len(self._outcomes) > 12 else "")
            )
        before = self._before
        drawn = [o for _, o, _ in self._draws[len(before._draws) :]]
        state = before.clone()
        state._given = [*drawn, outcome]
        try:
            state._apply(self._action)
        except PendingDraw as pending:
            self._pend(state, pending)
            return
        state._record_move(self._action, self._mover, len(before._log))
        self._become(state)

    def _to_dict(self) -> dict[str, JsonValue]:
        return {"before": self._before._to_dict(), "drawing_for": str(self._action)}

    def check_invariants(self) -> None:
        self._before.check_invariants()

    def clone(self) -> Rolling:
        other = Rolling.__new__(Rolling)
        other.__dict__.update(self.__dict__)
        other._before = self._before.clone()
        other._partial = self._partial.clone()
        other._log, other._draws = other._partial._log, other._partial._draws
        other._actions, other._movers = list(self._actions), list(self._movers)
        other._marks = list(self._marks)
        other._given = []
        return other


def draw_inline(state: State, rng: random.Random) -> None:
    """From now on `state` draws play's chance from `rng` itself, as `new_game` play does,
    instead of stopping at chance nodes (a search's simulations and rollouts: a `Rolling`
    clones the state before every action and re-applies it once per outcome, most of a
    simulation's time in a game of dice). The state's draws so far are kept in its history;
    its JSON stops listing play's draws."""
    if state.is_chance:
        raise IllegalAction(f"{state.game.name}: chance draws now; apply chance first")
    state._given = None
    state._rng, state._rng_shared = rng, False
