"""Noir's knowledge models, one per role (rules/noir.md, "Inference").

The inspector's hidden world is the killer's current identity (variable "killer"); the killer's
is the inspector's identity (variable "inspector", the single value "-" until he has chosen).
Every constraint says the identity lies, or does not lie, in a set of suspects, and is tagged
with the observation that says so. A world is consistent exactly when some deal of the decks
makes the engine replay everything the seat saw (tests/test_noir_solver.py checks this against
a model-free count of deals). Probabilities weight each consistent identity by the deals
that give it (`prior_weight`): uniform for the inspector, who sees every card drawn but the
killer's current identity; for the killer, the orders of the inspector's deck, which with
separate decks favour a card a failed disguise proved he holds.

Inspector's model (the killer's identity K), with t* the last successful disguise:
- every kill: K is not the victim (the dead never come back);
- the hand and every card he drew: K is not one of them (one deck); with separate decks only
  cards drawn before t* (a disguise fails onto a card the inspector holds, but he may draw
  the killer's new identity later), or all of them before any disguise (the killer's first
  identity is not in the inspector's deck);
- exonerated cards likewise (they came from the hand);
- every disguise: K is neither the announced former identity nor a card drawn by a failed one;
- since t* (from the start if none): each kill's victim was adjacent to K on the grid as it
  fell; each canvas answer ("!" adjacent, "?" not) on the grid of that moment; each failed
  arrest rules that suspect out, a successful one names K.

Killer's model (the inspector's identity I), once chosen:
- every kill: I is not the victim, except a kill that ended the game by catching him (then I
  is the victim, said by the end of the game);
- I is none of the killer's identities (his first is not in the inspector's deck; each later
  one was drawn while the inspector held I), nor, with one deck, a card a failed disguise drew;
- exonerated cards and agents used for an arrest with a citizen were in the hand, not I;
- each arrest named I or a neighbour of I on the grid of that moment;
- each canvas answer on a killed innocent: adjacent to the victim or not, on the grid as it fell;
- separate decks: a failed disguise onto an alive, not innocent, unspent card says the
  inspector held it; a successful one says he did not. Whether his hand can hold all that
  with I among his first four cards is an assignment of cards to the places of his deck,
  decided per candidate (`_inspector_slots`); a candidate it rules out is tagged with the
  first observation from which it fails.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, auto

from engines.errors import ConfigError, IncompleteInformationSet, InvalidInformationSet
from engines.noir import (
    Grid,
    Noir,
    NoirState,
    Shift,
    adjacent,
    allowed_shifts,
    collapsed,
    neighbours,
    shifted,
)
from engines.noir import observations as seen
from engines.noir.grid import LINES, block
from engines.noir.material import HAND, INSPECTOR, KILLER, suspects
from engines.noir.notation import Record
from engines.observations import InformationSet, Observation, ObservationKind
from engines.state import State
from engines.values import JsonValue, quote
from solver.deduction import Deduction
from solver.hints import Answer, Hint, percent, plural
from solver.model import Clause, Constraint, Fact, Lit, Model, Var, World, member
from solver.sampling import EnumeratedWorlds
from solver.validation import Checker

MODEL_HINTS = True
"""The hints read any deduction's odds, counted or weighed by an opponent model
(`solver.hints(info, model=...)`): `posterior` reads either."""
ANSWER_KINDS = frozenset({"KillerIs", "InspectorIs"})
"""The facts that make up the hidden answer (whose odds moving is news)."""

KILLER_VAR, INSPECTOR_VAR = "killer", "inspector"
UNCHOSEN = "-"
"""The inspector's identity before he has chosen it."""


@dataclass(frozen=True)
class Moment:
    """One observation with its index and the grid as it stood when it was made."""

    index: int
    obs: Observation
    grid: Grid


def moments(observations: Sequence[Observation]) -> list[Moment]:
    """The observations with the grid of their moment (a kill's grid is before its collapse)."""
    grid: Grid = ()
    found = []
    for index, obs in enumerate(observations):
        if isinstance(obs, seen.Layout):
            grid = obs.rows
        found.append(Moment(index, obs, grid))
        if isinstance(obs, seen.Shifted | seen.Collapsed):
            grid = obs.rows
    return found


def current_grid(observations: Sequence[Observation]) -> Grid:
    grid: Grid = ()
    for obs in observations:
        if isinstance(obs, seen.GridShown):
            grid = obs.rows
    return grid


def _names(info: InformationSet) -> tuple[str, ...]:
    return suspects(dict(info.options)["grid"])


def _separate(info: InformationSet) -> bool:
    return dict(info.options)["deck"] == "separate"


def _not(var: str, value: str, source: int | None) -> Clause:
    return Clause(negative=(Lit(var, value),), source=source)


def last_disguise(observations: Sequence[Observation]) -> int | None:
    """Index of the killer's last successful disguise: what the inspector knew before is void."""
    return max(
        (i for i, obs in enumerate(observations) if isinstance(obs, seen.Disguised)), default=None
    )


def chosen_at(observations: Sequence[Observation]) -> int | None:
    return next(
        (i for i, obs in enumerate(observations) if isinstance(obs, seen.ChoseIdentity)), None
    )


def killer_fact(name: str) -> Fact:
    return Fact("KillerIs", (name,), KILLER_VAR, frozenset({name}), f"the killer is {name}")


def inspector_fact(name: str) -> Fact:
    return Fact("InspectorIs", (name,), INSPECTOR_VAR, frozenset({name}),
                f"the inspector is {name}")  # fmt: skip


# --- the inspector's model ------------------------------------------------------------------
def killer_constraints(info: InformationSet) -> list[Constraint]:
    """What `info`'s observations say about the killer's current identity.

    Works on either seat's information set: on the killer's, it is what the public record
    tells the inspector (his hand and draws are not in it).
    """
    names, separate = _names(info), _separate(info)
    since = last_disguise(info.observations)
    found: list[Constraint] = []
    for moment in moments(info.observations):
        i, obs, grid = moment.index, moment.obs, moment.grid
        recent = since is None or i > since
        # He may draw a later identity of the killer from his own deck, never the first one.
        held_before = not separate or since is None or i < since
        match obs:
            case seen.Killed(suspect=victim):
                found.append(_not(KILLER_VAR, victim, i))
                if recent:
                    found.append(member(KILLER_VAR, neighbours(grid, victim), i))
            case seen.Hand(cards=cards):
                found += [_not(KILLER_VAR, card, i) for card in cards]
            case seen.Drew(suspect=card) | seen.Exonerated(suspect=card) if held_before:
                found.append(_not(KILLER_VAR, card, i))
            case seen.Disguised(former=card) | seen.DisguiseFailed(drawn=card):
                found.append(_not(KILLER_VAR, card, i))
            case seen.Canvas(seat=seat, suspect=card, adjacent=answer) if seat == KILLER and recent:
                near = [s for s in names if adjacent(grid, s, card) == answer]
                found.append(member(KILLER_VAR, near, i))
            case seen.Arrested() | seen.CitizenArrested() if recent:
                if obs.success:
                    found.append(member(KILLER_VAR, [obs.suspect], i))
                else:
                    found.append(_not(KILLER_VAR, obs.suspect, i))
    return found


# --- the killer's model ---------------------------------------------------------------------
def inspector_constraints(info: InformationSet, capacity: bool = True) -> list[Constraint]:
    """What the killer's observations say about the inspector's identity (once chosen).

    On the inspector's own information set (with `capacity` False) it is what the public
    record tells the killer about him, short of the killer's own draws.
    """
    observations = info.observations
    if chosen_at(observations) is None:
        return []
    names, separate = _names(info), _separate(info)
    ending = observations[-1]
    caught = isinstance(ending, seen.End) and ending.reason == seen.CAUGHT
    kills = [(i, obs.suspect) for i, obs in enumerate(observations) if isinstance(obs, seen.Killed)]
    found: list[Constraint] = []
    for moment in moments(observations):
        i, obs, grid = moment.index, moment.obs, moment.grid
        match obs:
            case seen.Killed(suspect=victim):
                if not (caught and i == kills[-1][0]):
                    found.append(_not(INSPECTOR_VAR, victim, i))
            case seen.End() if caught:
                found.append(member(INSPECTOR_VAR, [kills[-1][1]], i))
            case seen.IdentityTold(seat=seat, suspect=card) if seat == KILLER:
                found.append(_not(INSPECTOR_VAR, card, i))
            case seen.DisguiseFailed(drawn=card) if not separate:
                found.append(_not(INSPECTOR_VAR, card, i))
            case seen.Exonerated(suspect=card):
                found.append(_not(INSPECTOR_VAR, card, i))
            case seen.CitizenArrested(agent=agent):
                found.append(_not(INSPECTOR_VAR, agent, i))
            case seen.Arrested(suspect=suspect):
                found.append(member(INSPECTOR_VAR, block(grid, suspect), i))
            case seen.Canvas(seat=seat, suspect=card, adjacent=answer) if seat == INSPECTOR:
                near = [s for s in names if adjacent(grid, s, card) == answer]
                found.append(member(INSPECTOR_VAR, near, i))
    if capacity:
        found += _hand_capacity(info, found)
    return found


@dataclass(frozen=True)
class DeckBounds:
    """Where each card of the inspector's deck may lie, as far as the killer's record says.

    `cards` is the deck (the killer's known cards left out), `lo[c] <= place < hi[c]` for every
    card: a card he used (exonerated, an agent) or was seen to hold (separate decks: a failed
    disguise onto it) lies among the places drawn by then, and a card a successful disguise
    drew (separate decks) among those drawn after.
    """

    cards: tuple[str, ...]
    lo: Mapping[str, int]
    hi: Mapping[str, int]

    def with_identity(self, identity: str | None) -> DeckBounds | None:
        """The bounds with `identity` among his first four cards (None if not in his deck)."""
        if identity is None:
            return self
        if identity not in self.hi:
            return None
        return DeckBounds(self.cards, self.lo, {**self.hi, identity: min(self.hi[identity], HAND)})


def _deck_bounds(info: InformationSet, upto: int | None = None) -> DeckBounds | None:
    """The bounds the first `upto` observations (all when None) put on the inspector's deck, or
    None when a card he used or held cannot be in it."""
    observations = info.observations[:upto]
    names, separate = _names(info), _separate(info)
    mine = _killer_identities(info.observations)
    if not separate:
        mine += [o.drawn for o in info.observations if isinstance(o, seen.DisguiseFailed)]
    cards = tuple(n for n in names if n not in (mine[:1] if separate else mine))
    lo = dict.fromkeys(cards, 0)
    hi = dict.fromkeys(cards, len(cards))
    drawn = HAND
    dead: set[str] = set()
    innocent: set[str] = set()
    spent: set[str] = set()
    first = True
    for obs in observations:
        match obs:
            case seen.DrawMade():
                drawn += 1
            case seen.Killed(suspect=victim):
                dead.add(victim)
            case seen.Exonerated(suspect=card):
                hi[card] = min(hi.get(card, 0), drawn)
                innocent.add(card)
            case seen.CitizenArrested(agent=card):
                hi[card] = min(hi.get(card, 0), drawn)
                spent.add(card)
            case seen.Disguised(former=former):
                innocent.add(former)
            case seen.DisguiseFailed(drawn=card) if (
                separate and card not in dead | innocent | spent
            ):
                hi[card] = min(hi.get(card, 0), drawn)  # the inspector held it
            case seen.IdentityTold(seat=seat, suspect=card) if seat == KILLER:
                if separate and not first:
                    lo[card] = max(lo.get(card, 0), drawn)  # he did not hold it
                first = False
    if set(hi) != set(cards) or set(lo) != set(cards):
        return None  # a card he used or held is not in his deck
    return DeckBounds(cards, lo, hi)


def _inspector_slots(
    info: InformationSet, identity: str | None, upto: int | None = None
) -> list[str] | None:
    """The inspector's deck, top first, in an order the killer's observations allow, or None.

    His deck's places are drawn in order (four at setup, one per draw); the cards must keep
    within their `DeckBounds`, `identity` among the first four. Cards the killer drew from a
    shared deck have no place. Earliest deadline first finds an order whenever one exists.
    Only the first `upto` observations count (all when None).
    """
    found = _deck_bounds(info, upto)
    bounds = None if found is None else found.with_identity(identity)
    if bounds is None:
        return None
    cards, lo, hi = bounds.cards, bounds.lo, bounds.hi
    order: list[str] = []
    waiting = sorted(cards, key=lambda c: (lo[c], hi[c], c))
    ready: list[str] = []
    for place in range(len(cards)):
        while waiting and lo[waiting[0]] <= place:
            ready.append(waiting.pop(0))
        if not ready:
            return None
        card = min(ready, key=lambda c: (hi[c], c))
        if hi[card] <= place:
            return None
        ready.remove(card)
        order.append(card)
    return order


def deck_orders(info: InformationSet, identity: str | None) -> int:
    """How many orders of the inspector's deck the killer's record allows with `identity`.

    This is the prior weight of `identity` (every order of a shuffled deck is equally likely,
    and his choice among his four cards is not weighted): a failed disguise onto an alive card
    proves he holds it, so that card is likelier his identity than one that must share his
    first four places with it.
    """
    found = _deck_bounds(info)
    bounds = None if found is None else found.with_identity(identity)
    return 0 if bounds is None else count_orders(bounds)


def count_orders(bounds: DeckBounds) -> int:
    """The orders of `bounds.cards` that keep each card within its bounds, exactly.

    With deadlines alone the count is a product: sorted by deadline, the i-th card (from 0) has
    hi - i places left. A lower bound lo is a difference, [place < hi] - [place < lo], so the
    count is a signed sum over which cards take their lower bound as a deadline. Cards with a
    lower bound and no deadline of their own are summed by a sweep over deadlines that counts
    only how many cards are placed; the few with both are enumerated.
    """
    cards, lo, hi = bounds.cards, bounds.lo, bounds.hi
    if any(lo[c] >= hi[c] for c in cards):
        return 0
    size = len(cards)
    fixed = [hi[c] for c in cards if lo[c] == 0 and hi[c] < size]
    open_ended = [lo[c] for c in cards if lo[c] > 0 and hi[c] == size]
    both = [c for c in cards if lo[c] > 0 and hi[c] < size]
    total = 0
    for picks in itertools.product((False, True), repeat=len(both)):
        deadlines = fixed + [lo[c] if low else hi[c] for c, low in zip(both, picks, strict=True)]
        sign = -1 if sum(picks) % 2 else 1
        total += sign * _signed_sweep(size, deadlines, open_ended)
    return total


def _signed_sweep(size: int, deadlines: Sequence[int], lower: Sequence[int]) -> int:
    """Sum over subsets S of the `lower` cards of (-1)^|S| times the number of orders of `size`
    cards in which `deadlines` and the lower bounds of S (as deadlines) hold; the rest of the
    cards may lie anywhere."""
    ways = {0: 1}  # cards placed so far -> signed count
    due = Counter(deadlines)
    for value in sorted(set(deadlines) | set(lower)):
        after: dict[int, int] = {}
        for placed, weight in ways.items():
            for j in range(due[value]):
                weight *= max(0, value - placed - j)
            if weight:
                after[placed + due[value]] = after.get(placed + due[value], 0) + weight
        for _ in range(lower.count(value)):
            branched: dict[int, int] = {}
            for placed, weight in after.items():
                branched[placed] = branched.get(placed, 0) + weight
                taken = -weight * max(0, value - placed)
                if taken:
                    branched[placed + 1] = branched.get(placed + 1, 0) + taken
            after = branched
        ways = after
    return sum(weight * math.factorial(size - placed) for placed, weight in ways.items())


def _hand_capacity(info: InformationSet, direct: Sequence[Constraint]) -> list[Constraint]:
    """Rule out identities his hand could not have held with what was seen."""
    found: list[Constraint] = []
    chosen = chosen_at(info.observations)
    assert chosen is not None
    for name in _names(info):
        if not all(c.holds({INSPECTOR_VAR: name}) for c in direct):
            continue
        if _inspector_slots(info, name) is not None:
            continue
        first = next(
            j for j in range(chosen, len(info.observations))
            if _inspector_slots(info, name, j + 1) is None
        )  # fmt: skip
        found.append(_not(INSPECTOR_VAR, name, first))
    return found


# --- the prior ------------------------------------------------------------------------------
class WeightedWorlds(EnumeratedWorlds):
    """The consistent identities, each weighted by its prior: the deck orders that give it.

    Counts are exact integers, up to a factor common to every world of one information set
    (the undrawn rest of the killer's own deck, for instance), so ratios are exact posteriors.
    """

    def __init__(self, var: str, weights: Mapping[str, int]) -> None:
        super().__init__([{var: value} for value in weights])
        self.var = var
        self.weights = dict(weights)

    def total(self) -> int:
        return sum(self.weights.values())

    def count(self, fact: Fact) -> int:
        return sum(w for value, w in self.weights.items() if fact.holds_in({self.var: value}))

    def probability(self, fact: Fact) -> float:
        return self.count(fact) / self.total()

    def sample(self, n: int, rng: random.Random) -> list[World]:
        values = list(self.weights)
        cumulative = list(itertools.accumulate(self.weights[v] for v in values))
        total = cumulative[-1]
        picks = (bisect.bisect_right(cumulative, rng.randrange(total)) for _ in range(n))
        return [{self.var: values[i]} for i in picks]


def prior_weight(info: InformationSet, identity: str) -> int:
    """The deck orders (with his choice of identity) that make `identity` the opponent's.

    Inspector's view: every card either deck gave is seen except the killer's current
    identity, so each consistent identity leaves the same number of orders: weight 1. Killer's
    view: the inspector's deck is counted by `deck_orders`, which sees whether the identity is
    also a card the record proves he held.
    """
    if info.seat == INSPECTOR or identity == UNCHOSEN:
        return 1
    return deck_orders(info, identity)


CPSAT_PARAMETERS = None
"""The solver's own parameters: Noir's models are small and solve at once either way."""


def query_variables(model: Model) -> None:
    """None: the two identities are all there is to decide."""
    return None


def world_set(model: Model, compiled: object) -> WeightedWorlds:
    """Every consistent identity of the opponent with its prior weight (`prior_weight`)."""
    var = model.variables[0]
    weights = {}
    for value in var.domain:
        if model.consistent({var.name: value}):
            assert isinstance(value, str)
            weight = prior_weight(model.info, value)
            if weight:
                weights[value] = weight
    return WeightedWorlds(var.name, weights)


# --- validation -----------------------------------------------------------------------------
Check = Callable[[JsonValue], str]
"""A field's check: "" when the value is allowed, otherwise what is allowed."""


class OnGrid(Enum):
    """A field's check against the game's suspects, which the grid option sets: the validator
    runs it, not a `Check` fixed in the table."""

    NAME = auto()
    """One suspect."""
    HAND = auto()
    """The inspector's four different suspects."""
    GRID = auto()
    """Rows of equal length of different suspects."""


ANY_SEAT = (KILLER, INSPECTOR)


def _seat(*allowed: str) -> Check:
    return lambda v: "" if isinstance(v, str) and v in allowed else " or ".join(map(repr, allowed))


def _flag(value: JsonValue) -> str:
    return "" if type(value) is bool else "true or false"


def _outcome(success: bool) -> Check:
    """A disguise's `success`, which its shape fixes (the former identity, or the card drawn)."""
    shape = "names the identity given up" if success else "names the card drawn"
    return lambda v: "" if v is success else f"{success} (a disguise that {shape})"


def _count(value: JsonValue) -> str:
    return "" if type(value) is int and value >= 1 else "a positive integer"


def _text(value: JsonValue) -> str:
    return "" if isinstance(value, str) else "a string"


def _line(value: JsonValue) -> str:
    return "" if isinstance(value, str) and value in LINES else "'row' or 'column'"


def _direction(value: JsonValue) -> str:
    words = [w for pair in LINES.values() for w in pair]
    return "" if isinstance(value, str) and value in words else " or ".join(words)


def _winners(value: JsonValue) -> str:
    ok = isinstance(value, tuple) and value and all(isinstance(v, str) for v in value)
    return "" if ok and set(value) <= set(ANY_SEAT) else "a list of seats (killer, inspector)"


SCHEMAS: dict[type[ObservationKind], dict[str, Check | OnGrid]] = {
    seen.Layout: {"rows": OnGrid.GRID},
    seen.IdentityTold: {"seat": _seat(*ANY_SEAT), "suspect": OnGrid.NAME},
    seen.Hand: {"seat": _seat(INSPECTOR), "cards": OnGrid.HAND},
    seen.ChoseIdentity: {"seat": _seat(INSPECTOR)},
    seen.Killed: {"seat": _seat(KILLER), "suspect": OnGrid.NAME, "kills": _count},
    seen.Canvas: {"seat": _seat(*ANY_SEAT), "suspect": OnGrid.NAME, "adjacent": _flag},
    seen.Shifted: {"seat": _seat(*ANY_SEAT), "line": _line, "index": _count,
                   "direction": _direction, "rows": OnGrid.GRID},
    seen.Collapsed: {"rows": OnGrid.GRID},
    seen.Disguised: {"seat": _seat(KILLER), "success": _outcome(True),
                     "former": OnGrid.NAME},
    seen.DisguiseFailed: {"seat": _seat(KILLER), "success": _outcome(False),
                          "drawn": OnGrid.NAME},
    seen.DrawMade: {"seat": _seat(INSPECTOR)},
    seen.Drew: {"seat": _seat(INSPECTOR), "suspect": OnGrid.NAME},
    seen.Exonerated: {"seat": _seat(INSPECTOR), "suspect": OnGrid.NAME},
    seen.Arrested: {"seat": _seat(INSPECTOR), "suspect": OnGrid.NAME, "success": _flag},
    seen.CitizenArrested: {"seat": _seat(INSPECTOR), "suspect": OnGrid.NAME,
                           "agent": OnGrid.NAME, "success": _flag},
    seen.End: {"winners": _winners, "reason": _text},
}  # fmt: skip
"""What each field of each observation kind may hold, in the kind's field order (the two
shapes of a disguise are two kinds, each with its own `success`)."""


def validate(info: InformationSet) -> None:
    """Check that `info` is an information set a Noir game with its options could produce.

    Checks the seat, the options, and every observation's kind, fields and values (suspects of
    this grid, grids of them, the seats allowed to see it, kinds the options allow, and what
    the public record fixes: the grid after a shift or a collapse, the kill count). Whether the
    observations agree about hidden cards is left to the solver (`solver.Inconsistent`).

    A record that stops where the game still owes the seat an observation (the canvas after
    an exoneration, the collapse after a kill, the card just drawn, the end of a game that is
    over) is a true beginning, not a wrong record: it raises IncompleteInformationSet.

    Raises:
        IncompleteInformationSet: the record stops early; `waiting_for` says what is owed.
        InvalidInformationSet: naming the observation's index, the field and what is allowed.
    """
    if not isinstance(info, InformationSet):
        raise InvalidInformationSet(f"not an information set: {quote(info)}")
    options = _validated_options(info)
    if info.seat not in ANY_SEAT:
        raise InvalidInformationSet(
            f"noir: no seat {quote(info.seat)}; the seats are 'killer' and 'inspector'"
        )
    if not isinstance(info.observations, tuple) or not info.observations:
        raise InvalidInformationSet(
            f"noir: the observations must be a non-empty tuple of Observation, starting with "
            f"the setup; got {quote(info.observations)}"
        )
    _Validator(info, options).run()


def _validated_options(info: InformationSet) -> dict[str, JsonValue]:
    """The options as a complete dict, or InvalidInformationSet naming what is wrong."""
    try:
        options = dict(info.options)
    except (TypeError, ValueError):
        raise InvalidInformationSet(
            f"noir: options must be (name, value) pairs, not {quote(info.options)}"
        ) from None
    if info.game != "noir":
        raise InvalidInformationSet(f"not a Noir information set: game {quote(info.game)}")
    try:
        game = info.make_game()
    except ConfigError as error:
        raise InvalidInformationSet(f"noir: {error}") from None
    expected = dict(game.option_items())
    if set(options) != set(expected):
        missing = sorted(set(expected) - set(options))
        raise InvalidInformationSet(
            f"noir: the options must name every option ({', '.join(expected)}); missing: "
            f"{', '.join(missing)}"
        )
    return options


class _Validator:
    """One pass over the observations, following the public record as the engine does."""

    def __init__(self, info: InformationSet, options: Mapping[str, JsonValue]) -> None:
        self.info, self.options = info, options
        self.names = suspects(options["grid"])
        self.grid: Grid = ()
        self.dead: set[str] = set()
        self.hand: list[str] = []
        self.kills = 0
        game = Noir.of(info)
        self.record = Record(game, str(info.seat))
        self.check = Checker(info, seen.KINDS)

    def fail(self, index: int, why: str) -> InvalidInformationSet:
        obs = self.info.observations[index]
        shown = quote(obs.kind if isinstance(obs, Observation) else obs)
        return InvalidInformationSet(f"noir: observation {index} ({shown}): {why}")

    def run(self) -> None:
        last = len(self.info.observations) - 1
        for index, obs in enumerate(self.info.observations):
            if not isinstance(obs, Observation):
                raise self.fail(index, "not an Observation")
            self.check_fields(index, obs)
            self.check_place(index, obs, last)
            self.follow(index, obs)
            self.check_owed(index, obs)
            self.record.add(obs)
        waiting_for = self.record.waiting_for()
        if waiting_for is not None:
            raise IncompleteInformationSet(
                f"noir: the record stops before {waiting_for}", waiting_for
            )

    def check_owed(self, index: int, obs: Observation) -> None:
        """What the game owed after the observations before (a canvas, a collapse, the end)
        must come next, and as the game fixes it."""
        if not self.record.owed:
            return
        owed = self.record.owed[0]
        if not isinstance(obs, owed.kind):
            raise self.fail(index, f"{owed.waiting_for} ({owed.kind.KIND}) comes first")
        if isinstance(obs, seen.IdentityTold | seen.Canvas | seen.Drew) and obs.seat != owed.seat:
            raise self.fail(index, f"field 'seat' must be {owed.seat!r}: {owed.waiting_for}")
        if isinstance(obs, seen.Canvas) and obs.suspect != owed.suspect:
            raise self.fail(index, f"field 'suspect' must be {owed.suspect!r}")

    def check_fields(self, index: int, obs: Observation) -> None:
        fields = obs.fields
        if not isinstance(fields, tuple) or not all(
            isinstance(f, tuple) and len(f) == 2 and isinstance(f[0], str) for f in fields
        ):
            raise self.fail(index, f"fields must be (name, value) pairs, not {quote(fields)}")
        self.check.shape(index)
        assert isinstance(obs, ObservationKind)  # the shape is one of `seen.KINDS`
        for name, check in SCHEMAS[type(obs)].items():
            value = obs[name]
            why = self.check_value(check, value)
            if why:
                raise self.fail(index, f"field {name!r} is {quote(value)}; allowed: {why}")

    def check_value(self, check: Check | OnGrid, value: JsonValue) -> str:
        match check:
            case OnGrid.NAME:
                ok = isinstance(value, str) and value in self.names
                return "" if ok else self.suspect_text()
            case OnGrid.HAND:
                ok = isinstance(value, tuple) and len(value) == HAND and len(set(value)) == HAND
                ok = ok and all(isinstance(v, str) and v in self.names for v in value)
                return "" if ok else f"{HAND} different suspects ({self.suspect_text()})"
            case OnGrid.GRID:
                return self.grid_problem(value)
            case _:
                return check(value)

    def suspect_text(self) -> str:
        return f"a suspect of this grid ({', '.join(self.names)})"

    def grid_problem(self, value: JsonValue) -> str:
        allowed = f"rows of equal length of different suspects ({', '.join(self.names)})"
        if not isinstance(value, tuple) or not value:
            return allowed
        if not all(isinstance(row, tuple) and row and len(row) == len(value[0]) for row in value):
            return allowed
        cards = [card for row in value for card in row]
        if len(set(cards)) != len(cards) or not all(
            isinstance(card, str) and card in self.names for card in cards
        ):
            return allowed
        return ""

    def check_place(self, index: int, obs: Observation, last: int) -> None:
        """Where the observation may stand, and who may see it."""
        seat = self.info.seat
        told = obs.seat if isinstance(obs, seen.IdentityTold) else None  # whose identity
        if (index == 0) != isinstance(obs, seen.Layout):
            raise self.fail(index, "the setup comes first, and only there")
        if index == 1 and not (
            (told == KILLER == seat) or (isinstance(obs, seen.Hand) and seat == INSPECTOR)
        ):
            wanted = "the killer's identity" if seat == KILLER else "the inspector's hand"
            raise self.fail(index, f"the {seat}'s second observation is {wanted}")
        private = isinstance(obs, seen.Private) or told == INSPECTOR
        if (private and seat != INSPECTOR) or told == KILLER != seat:
            raise self.fail(index, f"the {seat} does not see this")
        match obs:
            case seen.Hand() if index != 1:
                raise self.fail(index, "the inspector's hand is dealt once, at setup")
            case seen.End() if index != last:
                raise self.fail(index, "nothing follows the end of the game")
            case seen.CitizenArrested() if not self.options["citizen_arrest"]:
                raise self.fail(index, "the option citizen_arrest is off")
            case seen.Canvas(seat=asked) if asked == INSPECTOR and not self.options["kill_canvas"]:
                raise self.fail(index, "the option kill_canvas is off: no canvas on a kill")
            case seen.End(reason=reason) if reason == seen.CAUGHT and not self.kills:
                raise self.fail(index, "the inspector was killed, but no kill was seen")
            case seen.End():
                self.check_end(index, obs)

    def check_end(self, index: int, obs: seen.End) -> None:
        """The reason is one the engine gives, and the winners the ones it names for it."""
        word = seen.end_word(str(obs.reason))
        if word is None:
            reasons = ", ".join(map(repr, seen.END_REASONS.values()))
            raise self.fail(index, f"field 'reason' cannot be {quote(obs.reason)}: {reasons}")
        if tuple(obs.winners) != seen.END_WINNERS[word]:
            raise self.fail(
                index, f"field 'winners' must be {list(seen.END_WINNERS[word])} when {obs.reason}"
            )

    def follow(self, index: int, obs: Observation) -> None:
        """Keep the public record (grid, dead, kills) and the inspector's own hand."""
        match obs:
            case seen.Layout(rows=rows):
                if sorted(c for row in rows for c in row) != sorted(self.names) or len(rows) != len(
                    rows[0]
                ):
                    raise self.fail(
                        index, f"field 'rows' must lay out every suspect of {self.names}"
                    )
                self.grid = rows
            case seen.Shifted():
                self.follow_shift(index, obs)
            case seen.Collapsed(rows=rows):
                if rows != collapsed(self.grid, self.dead) or rows == self.grid:
                    raise self.fail(
                        index, "field 'rows' is not the grid without its all-dead lines"
                    )
                self.grid = rows
            case seen.Killed(suspect=victim, kills=kills):
                self.kills += 1
                self.dead.add(victim)
                if kills != self.kills:
                    raise self.fail(index, f"field 'kills' must count the kills: {self.kills}")
            case seen.DisguiseFailed(drawn=card) if self.options["deck"] == "shared":
                if card not in self.dead:
                    raise self.fail(
                        index, "with one deck a disguise fails only onto a dead suspect"
                    )
            case seen.Hand(cards=cards):
                self.hand = list(cards)
            case seen.Drew(suspect=card):
                self.hand.append(card)
            case seen.Exonerated() | seen.IdentityTold() | seen.CitizenArrested() if (
                self.info.seat == INSPECTOR
            ):
                self.follow_hand(index, obs)

    def follow_hand(
        self, index: int, obs: seen.Exonerated | seen.IdentityTold | seen.CitizenArrested
    ) -> None:
        """A card leaves the inspector's hand: exonerated, chosen, or spent as an agent."""
        card = obs.agent if isinstance(obs, seen.CitizenArrested) else obs.suspect
        if card in self.hand:
            self.hand.remove(card)
        elif isinstance(obs, seen.CitizenArrested) or obs.seat == INSPECTOR:
            raise self.fail(index, f"{card} is not in the hand ({', '.join(self.hand)})")

    def follow_shift(self, index: int, obs: seen.Shifted) -> None:
        line, number, direction = obs.line, obs.index, obs.direction
        lines = len(self.grid) if line == "row" else len(self.grid[0])
        if number > lines:
            raise self.fail(index, f"field 'index' is {number}; the grid has {lines} {line}s")
        if direction not in LINES[line]:
            raise self.fail(index, f"a {line} shifts {' or '.join(LINES[line])}")
        if obs.rows != shifted(self.grid, line, number - 1, direction):
            raise self.fail(index, "field 'rows' is not the grid after that shift")
        self.grid = obs.rows


# --- the module's interface -----------------------------------------------------------------
def build(info: InformationSet) -> Model:
    model = Model(info, read_with=_read_on_grid(info.observations))
    names = _names(info)
    if info.seat == INSPECTOR:
        model.variables = [Var(KILLER_VAR, names)]
        model.constraints = killer_constraints(info)
        model.facts = [killer_fact(name) for name in names]
    else:
        chosen = chosen_at(info.observations) is not None
        model.variables = [Var(INSPECTOR_VAR, names if chosen else (UNCHOSEN,))]
        model.constraints = inspector_constraints(info)
        model.facts = [inspector_fact(name) for name in names]
    return model


GRID_READINGS = seen.Killed | seen.Canvas | seen.Arrested
"""Observations whose constraints depend on where suspects stood (neighbours, adjacency, the
arrest block): a mistyped shift before one of them changes what it says."""


def _read_on_grid(observations: Sequence[Observation]) -> dict[int, tuple[int, ...]]:
    """For each observation read on the grid, the observations that made that grid."""
    shaping: list[int] = []
    found: dict[int, tuple[int, ...]] = {}
    for index, obs in enumerate(observations):
        if isinstance(obs, GRID_READINGS) and shaping:
            found[index] = tuple(shaping)
        if isinstance(obs, seen.GridShown):
            shaping.append(index)
    return found


def world_of(state: State) -> World:
    assert isinstance(state, NoirState)
    return {KILLER_VAR: state._killer, INSPECTOR_VAR: state._inspector or UNCHOSEN}


def hidden_for(info: InformationSet, identity: str) -> dict[str, JsonValue]:
    """A hidden part for `Noir.reconstruct` in which the opponent's identity is `identity`.

    Inspector's view: the killer's identities are the announced former ones and `identity`, so
    every card ever drawn is known. Killer's view: the inspector's cards are put in deck order
    by `_inspector_slots`. Raises ValueError when `identity` is impossible for that reason.
    """
    names, separate = _names(info), _separate(info)
    if info.seat == INSPECTOR:
        formers = [o.former for o in info.observations if isinstance(o, seen.Disguised)]
        identities = iter([*formers, identity])
        first = next(identities)
        killers: list[str] = [first]
        mine: list[str] = []
        for obs in info.observations:
            match obs:
                case seen.Hand(cards=cards):
                    mine += cards
                case seen.Drew(suspect=card):
                    mine.append(card)
                case seen.Disguised():
                    killers.append(next(identities))
                case seen.DisguiseFailed(drawn=card):
                    killers.append(card)
        if separate:
            return {
                "deck": _completed(mine, [n for n in names if n != first]),
                "killer_deck": _completed(killers, names),
            }
        return {"deck": _completed(_interleaved(info, killers, mine), names)}
    chosen = chosen_at(info.observations) is not None
    slots = _inspector_slots(info, identity if chosen else None)
    if slots is None:
        raise ValueError(f"the inspector's hand cannot hold what was seen with {identity}")
    draws = [
        obs.suspect if isinstance(obs, seen.IdentityTold) else obs.drawn
        for obs in info.observations
        if (isinstance(obs, seen.IdentityTold) and obs.seat == KILLER)
        or isinstance(obs, seen.DisguiseFailed)
    ]
    hidden: dict[str, JsonValue] = {"inspector_identity": identity} if chosen else {}
    if separate:
        hidden["deck"] = slots
        hidden["killer_deck"] = _completed(draws, names)
    else:
        hidden["deck"] = _completed(_interleaved(info, draws, slots), names)
    return hidden


def _completed(prefix: Sequence[str], names: Iterable[str]) -> list[str]:
    """`prefix` followed by the other `names`: the undrawn rest of a deck, in any order."""
    return [*prefix, *(name for name in names if name not in prefix)]


def _interleaved(
    info: InformationSet, killers: Sequence[str], inspectors: Sequence[str]
) -> list[str]:
    """One shared deck: each seat's draws in the order the observations drew them."""
    deck = [killers[0], *inspectors[:HAND]]
    mine, theirs = iter(killers[1:]), iter(inspectors[HAND:])
    for obs in info.observations:
        if isinstance(obs, seen.DrawMade):
            deck.append(next(theirs))
        elif isinstance(obs, seen.DisguiseTried):
            deck.append(next(mine))
    return deck


# --- hints ----------------------------------------------------------------------------------
def own_identity(info: InformationSet) -> str | None:
    """The seat's own identity now (None for an inspector who has not chosen yet)."""
    return next(
        (o.suspect for o in reversed(info.observations)
         if isinstance(o, seen.IdentityTold) and o.seat == info.seat),
        None,
    )  # fmt: skip


def inspector_hand(info: InformationSet) -> list[str]:
    """The inspector's cards in hand now, from his own information set."""
    hand: list[str] = []
    for obs in info.observations:
        match obs:
            case seen.Hand(cards=cards):
                hand = list(cards)
            case seen.Drew(suspect=card):
                hand.append(card)
            case seen.Exonerated(suspect=card) | seen.IdentityTold(suspect=card) if card in hand:
                hand.remove(card)
            case seen.CitizenArrested(agent=agent):
                hand.remove(agent)
    return hand


def _killer_identities(observations: Sequence[Observation]) -> list[str]:
    """The killer's identities, first to current, as his own record tells them."""
    return [
        o.suspect for o in observations if isinstance(o, seen.IdentityTold) and o.seat == KILLER
    ]


def dead_cards(info: InformationSet) -> set[str]:
    return {obs.suspect for obs in info.observations if isinstance(obs, seen.Killed)}


def public_killer_candidates(info: InformationSet) -> list[str]:
    """The killer's identities the public record allows: what the inspector knows of him,
    short of his own hand (used by the killer to judge how well hidden he is)."""
    found = killer_constraints(info)
    return [n for n in _names(info) if all(c.holds({KILLER_VAR: n}) for c in found)]


def public_inspector_candidates(info: InformationSet) -> list[str]:
    """The inspector's identities the public record allows (what the killer knows of him)."""
    found = inspector_constraints(info, capacity=False)
    return [n for n in _names(info) if all(c.holds({INSPECTOR_VAR: n}) for c in found)]


def posterior(deduction: Deduction) -> dict[str, float]:
    """Each possible identity of the opponent and its probability, likeliest first (its
    counted weight, or its chance under an opponent model: `solver.deduce(model=...)`)."""
    worlds = deduction.worlds
    if isinstance(worlds, WeightedWorlds):  # this module's `world_set` made it
        total = worlds.total()
        chances = {name: n / total for name, n in worlds.weights.items()}
    else:
        chances = {
            str(fact.args[0]): p
            for fact in deduction.facts
            if fact.kind in ("KillerIs", "InspectorIs") and (p := deduction.probability(fact))
        }
    return dict(sorted(chances.items(), key=lambda x: (-x[1], x[0])))


def entropy(probabilities: Iterable[float]) -> float:
    return -sum(p * math.log2(p) for p in probabilities if p > 0)


def hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    if info.seat == INSPECTOR:
        return _identity_hints(deduction, killer_fact, "killer") + _inspector_moves(info, deduction)
    if chosen_at(info.observations) is None:
        return [Hint("The inspector has not chosen his identity yet: nothing to deduce",
                     kind="likely", score=1.0)]  # fmt: skip
    return _identity_hints(deduction, inspector_fact, "inspector") + _killer_moves(info, deduction)


def answer(info: InformationSet, deduction: Deduction) -> Answer | None:
    """The opponent's identity once it is certain, and the plan: arrest (or kill) him now if
    he is within reach, else the shifts that bring him there."""
    if info.seat == KILLER and chosen_at(info.observations) is None:
        return None
    chances = posterior(deduction)
    if len(chances) != 1:
        return None
    name = next(iter(chances))
    fact = killer_fact(name) if info.seat == INSPECTOR else inspector_fact(name)
    because = tuple(deduction.describe(deduction.explain(fact)))
    hint = Hint(f"{_sentence(fact.text)} (certain)", fact, 1.0, because, "answer", 3.0)
    return Answer(hint, _plan(info, name))


def _plan(info: InformationSet, target: str) -> str | None:
    """How the seat reaches `target` (the opponent, known): the arrest or the kill when he is
    within reach, else the shifts of its next turn that bring him there."""
    me = own_identity(info)
    game = Noir.of(info)
    state = game.public_state(info)
    if me is None or state.is_over:
        return None
    verb = "arrest" if info.seat == INSPECTOR else "kill"
    when = "now" if state.to_move == info.seat else "at your turn"
    if target in _reach(info, state.grid, me):
        return f"{verb.capitalize()} {target} {when}: {target} is next to you ({me})"
    ways = reaching_shifts(info, target)
    if not ways:
        return (
            f"No single shift brings {target} next to you ({me}): shift towards {target}, "
            f"then {verb} {target} once next to you"
        )
    listed = " (or ".join(str(way) for way in ways[:3]) + ")" * (min(len(ways), 3) - 1)
    return f"{_sentence(when)}, {listed} brings {target} next to you ({me}); then {verb} {target}"


def reaching_shifts(info: InformationSet, target: str) -> list[Shift]:
    """The shifts of the seat's next turn after which `target` is within its reach (the
    inspector arrests in his block, the killer kills a neighbour); the opponent's last shift
    may not be undone when it is the seat's turn now."""
    me = own_identity(info)
    game = Noir.of(info)
    state = game.public_state(info)
    if me is None:
        return []
    dead = dead_cards(info)
    protected = state.protected if state.to_move == info.seat else None
    return [
        shift
        for shift in allowed_shifts(state.grid, protected)
        if target in _reach(info, after_shifting(state.grid, shift, dead), me)
    ]


def after_shifting(grid: Grid, shift: Shift, dead: set[str]) -> Grid:
    """The grid after `shift`, the dead collapsed out."""
    return collapsed(shifted(grid, shift.line, shift.index - 1, shift.direction), dead)


def _reach(info: InformationSet, grid: Grid, me: str) -> list[str]:
    """Whom the seat can act on from `me`: the inspector's block, the killer's neighbours."""
    return block(grid, me) if info.seat == INSPECTOR else neighbours(grid, me)


def _sentence(text: str) -> str:
    """`text` with its first letter in capitals (names keep theirs)."""
    return text[:1].upper() + text[1:]


def _identity_hints(deduction: Deduction, fact_of, who: str) -> list[Hint]:
    chances = posterior(deduction)
    if len(chances) == 1:
        return []  # the answer (`answer`) says it
    listed = ", ".join(f"{name} {percent(p)}" for name, p in chances.items())
    best, p = next(iter(chances.items()))
    how = "" if deduction.exact else f" (estimated, read as {deduction.opponent_model} players)"
    text = f"The {who} is one of {len(chances)}{how}: {listed}"
    return [Hint(text, fact_of(best), p, (), "likely", 1.0 + p)]


def _inspector_moves(info: InformationSet, deduction: Deduction) -> list[Hint]:
    me = own_identity(info)
    if me is None:
        return []
    chances = posterior(deduction)
    grid, dead = current_grid(info.observations), dead_cards(info)
    found = []
    danger = sum(p for name, p in chances.items() if adjacent(grid, me, name))
    if danger > 0:
        found.append(Hint(
            f"Danger: {percent(danger)} that the killer is next to you ({me}) and can kill you",
            None, danger, (), "danger", 1.5 + danger,
        ))  # fmt: skip
    else:  # worth knowing, not a warning: ranked with the odds
        text = f"Safe for now: the killer is not next to you ({me})"
        found.append(Hint(text, None, 0.0, (), "likely", 0.5))
    targets = [t for t in block(grid, me) if t not in dead and t != me]
    if targets:
        target = max(targets, key=lambda t: (chances.get(t, 0.0), t))
        p = chances.get(target, 0.0)
        if p > 0:  # an arrest sure to fail is no advice
            found.append(Hint(f"Arrest {target}: {percent(p)} to catch the killer now",
                              killer_fact(target), p, (), "move", 1.5 + 1.5 * p))  # fmt: skip
    gains = [(exoneration_gain(chances, grid, card), card) for card in inspector_hand(info)]
    if gains and len(chances) > 1:
        bits, card = max(gains)
        near = sum(p for name, p in chances.items() if adjacent(grid, name, card))
        after = max(1.0, 2 ** (entropy(chances.values()) - bits))
        if bits >= MEANINGFUL_BITS:
            found.append(Hint(
                f"Exonerate {card}: its canvas narrows the killer from "
                f"{plural(len(chances), 'suspect')} to about {after:.1f} "
                f"({percent(near)} that the killer is beside {card})",
                None, None, (), "move", 1.5 + bits / 2,
            ))  # fmt: skip
    return found


MEANINGFUL_BITS = 0.01
"""Information below this (in bits) is no reason for a move: the hint would say nothing."""


def exoneration_gain(chances: Mapping[str, float], grid: Grid, card: str) -> float:
    """Expected information (bits) of the canvas on `card`: the answer's entropy, as the
    killer's identity fixes it."""
    near = sum(p for name, p in chances.items() if adjacent(grid, name, card))
    return entropy((near, 1 - near))


def cover_after_kill(info: InformationSet, victim: str) -> list[str]:
    """The killer identities the public record would allow after killing `victim` now."""
    grid = current_grid(info.observations)
    return [n for n in public_killer_candidates(info) if adjacent(grid, n, victim)]


def _killer_moves(info: InformationSet, deduction: Deduction) -> list[Hint]:
    me = own_identity(info)
    assert me is not None
    chances = posterior(deduction)
    grid, dead = current_grid(info.observations), dead_cards(info)
    public = public_killer_candidates(info)
    reach = sum(p for name, p in chances.items() if me in block(grid, name))
    found = [Hint(
        f"The public record leaves you hidden among {plural(len(public), 'suspect')}; "
        f"{percent(reach)} that the inspector can arrest you ({me}) now",
        None, reach, (), "danger", 1.5 + reach,
    )]  # fmt: skip
    options = []
    for victim in neighbours(grid, me):
        if victim in dead:
            continue
        cover = len(cover_after_kill(info, victim))
        options.append((chances.get(victim, 0.0), math.log2(max(cover, 1)), victim, cover))
    for p, bits, victim, cover in sorted(options, reverse=True)[:3]:
        found.append(Hint(
            f"Kill {victim}: {percent(p)} that it is the inspector; afterwards you hide among "
            f"{plural(cover, 'suspect')}",
            inspector_fact(victim), p, (), "move", 1.5 + p + bits / 10,
        ))  # fmt: skip
    return found
