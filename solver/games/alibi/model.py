"""Alibi's declarative model: time-indexed card locations, passes and "seen" marks.

Variables (a world gives each one value):

- `box:<type>`: the type's card in the box;
- `at:<card>@<e>`: where the card is at epoch e (a seat, or "box"), for every epoch it is in play;
- `pass:<card>@<r>`: who passed the card after round r ("-" when it stayed);
- `seen:<card>:<seat>@<e>`: whether the seat has held the card by epoch e (only where a "seen"
  answer asks).

Only the box and the epoch-0 locations plus the pass choices are free; every other variable is a
function of them (the rules' constraints below pin it), so worlds and histories correspond one
to one and counting worlds counts histories.

A name is written by `box_var`, `at_var`, `pass_var` and `seen_var` and read back only by
`var_key`, whose typed key (`BoxVar`, `AtVar`, `PassVar`, `SeenVar`) code matches on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias

from engines import InformationSet
from engines.alibi import TYPES, load_deck
from solver.games.alibi.position import Position, Trajectory, parse
from solver.model import Clause, Count, Fact, Lit, Model, Rules, Value, Var, World, member

BOX = "box"
STAY = "-"


def box_var(kind: str) -> str:
    return f"box:{kind}"


def at_var(card: str, epoch: int) -> str:
    return f"at:{card}@{epoch}"


def pass_var(card: str, round_number: int) -> str:
    return f"pass:{card}@{round_number}"


def seen_var(card: str, seat: int, epoch: int) -> str:
    return f"seen:{card}:{seat}@{epoch}"


@dataclass(frozen=True)
class BoxVar:
    """`box:<type>`, read: the type's card in the box."""

    type: str


@dataclass(frozen=True)
class AtVar:
    """`at:<card>@<e>`, read: where the card is at epoch e."""

    card: str
    epoch: int


@dataclass(frozen=True)
class PassVar:
    """`pass:<card>@<r>`, read: who passed the card after round r."""

    card: str
    round: int


@dataclass(frozen=True)
class SeenVar:
    """`seen:<card>:<seat>@<e>`, read: whether the seat has held the card by epoch e."""

    card: str
    seat: int
    epoch: int


VarKey: TypeAlias = BoxVar | AtVar | PassVar | SeenVar
"""A variable's name, read: what code that is handed a fact's `var` dispatches on."""


@lru_cache(maxsize=1 << 16)
def var_key(name: str) -> VarKey:
    """The key a variable's name spells (the inverse of `box_var`, `at_var`, `pass_var`
    and `seen_var`; cached: the same facts' names are read again and again)."""
    prefix, _, rest = name.partition(":")
    card, _, when = rest.partition("@")
    match prefix:
        case "box":
            return BoxVar(rest)
        case "at":
            return AtVar(card, int(when))
        case "pass":
            return PassVar(card, int(when))
        case "seen":
            card, _, seat = card.partition(":")
            return SeenVar(card, int(seat), int(when))
    raise ValueError(f"{name!r} is no variable of Alibi's model")


def place(pos: Position, loc: int) -> Value:
    """A location code as a model value: a seat number, or "box"."""
    return BOX if loc == pos.box else loc


def build(info: InformationSet) -> Model:
    """The model of `info`: rules (source None), then each observation's constraints."""
    return build_from(parse(info))


def build_from(pos: Position) -> Model:
    base = rules(pos.deck.scale, pos.players, tuple(pos.last))
    model = Model(pos.info, list(base.variables), list(base.constraints), base=base)
    model.constraints += _observed(pos, model)
    model.facts = facts(pos)
    model.branching = branching(pos.deck.scale, tuple(pos.last))
    return model


@lru_cache(maxsize=8)
def branching(deck: str, last: tuple[int, ...]) -> tuple[str, ...]:
    """The box, then each card's whole trajectory in turn: the rules are listed epoch by epoch
    (so that they extend), but CP-SAT finds a history far faster deciding a card at a time."""
    cards = load_deck(deck).cards
    names = [box_var(kind) for kind in TYPES]
    for data, end in zip(cards, last, strict=True):
        names.append(at_var(data.id, 0))
        for e in range(1, end + 1):
            names += [at_var(data.id, e), pass_var(data.id, e)]
    return tuple(names)


def rules(deck: str, players: int, last: tuple[int, ...]) -> Rules:
    """The variables and rules of every position of this shape (deck, seats, and the last
    epoch of each card): positions within a round share them, so they are built once.

    They are listed epoch by epoch, so the rules of a round extend those of the round before
    (`Rules.parent`): when those are still kept, only the new epoch is built (and compiled)."""
    key = (deck, players, last)
    with _RULES_LOCK:
        found = _RULES.get(key)
        if found is not None:
            _RULES.move_to_end(key)
            return found
    epoch = max(last)
    parent = None
    if epoch > 0:
        with _RULES_LOCK:
            parent = _RULES.get((deck, players, tuple(min(end, epoch - 1) for end in last)))
    if parent is None:
        parts = [_epoch_rules(deck, players, last, e) for e in range(epoch + 1)]
        variables = tuple(v for part in parts for v in part[0])
        constraints = tuple(c for part in parts for c in part[1])
    else:
        more, added = _epoch_rules(deck, players, last, epoch)
        variables, constraints = parent.variables + more, parent.constraints + added
    found = Rules(variables, constraints, parent)
    with _RULES_LOCK:
        _RULES[key] = found
        while len(_RULES) > RULES_KEPT:
            _RULES.popitem(last=False)
    return found


_RULES: OrderedDict[tuple[str, int, tuple[int, ...]], Rules] = OrderedDict()
"""The rules built for the last few shapes (a module cache, oldest first, guarded by
`_RULES_LOCK`; Rules are immutable)."""
_RULES_LOCK = threading.Lock()
RULES_KEPT = 8


def _epoch_rules(
    deck: str, players: int, last: tuple[int, ...], e: int
) -> tuple[tuple[Var, ...], tuple[Clause | Count, ...]]:
    """The variables and rules of epoch `e` (epoch 0 starts with the box)."""
    cards = load_deck(deck).cards
    seats: tuple[Value, ...] = tuple(range(players))
    variables: list[Var] = []
    if e == 0:
        variables += [
            Var(box_var(kind), tuple(c.id for c in cards if c.type == kind)) for kind in TYPES
        ]
    constraints: list[Clause | Count] = []
    for data, end in zip(cards, last, strict=True):
        if e > end:
            continue
        card = data.id
        variables.append(Var(at_var(card, e), (*seats, BOX)))
        here, boxed = Lit(at_var(card, e), BOX), Lit(box_var(data.type), card)
        constraints += [Clause((boxed,), (here,)), Clause((here,), (boxed,))]
        if e == 0:
            continue
        variables.append(Var(pass_var(card, e), (STAY, *seats)))
        moved = pass_var(card, e)
        for p in range(players):
            before, stays = Lit(at_var(card, e - 1), p), Lit(at_var(card, e), p)
            left = Lit(at_var(card, e), (p + 1) % players)
            constraints += [
                Clause((stays, left), (before,)),
                Clause((before,), (Lit(moved, p),)),
                Clause((left,), (Lit(moved, p),)),
                Clause((Lit(moved, p),), (before, left)),
            ]
    return tuple(variables), tuple(constraints)


def _observed(pos: Position, model: Model) -> list[Clause | Count]:
    """The constraints each observation adds, tagged with its index."""
    n, ids = pos.players, pos.ids
    found: list[Clause | Count] = []
    for (card, e), (loc, source) in sorted(pos.known.items()):
        found.append(member(at_var(ids[card], e), [loc], source))
    for card, e, loc, source in pos.known_again:
        found.append(member(at_var(ids[card], e), [loc], source))
    mine = [card for (card, e), (loc, _) in pos.known.items() if e == 0 and loc == pos.me]
    found.append(
        Count(tuple(Lit(at_var(card, 0), pos.me) for card in ids), "==", len(mine), pos.deal_source)
    )
    deck = pos.deck.scale
    for e, (sizes, source) in sorted(pos.sizes.items()):
        alive = tuple(c for c in range(len(ids)) if pos.alive(c, e))
        for p in range(n):
            found.append(Count(_terms(deck, at_var, e, p, alive), "==", sizes[p], source))
    for (r, giver), (count, source) in sorted(pos.passes.items()):
        alive = tuple(c for c in range(len(ids)) if pos.alive(c, r))
        found.append(Count(_terms(deck, pass_var, r, giver, alive), "==", count, source))
    seen_made: set[str] = set()
    for answer in pos.answers:
        counted: list[Lit] = []
        for c in answer.cards:
            if answer.scope == "hand":
                counted.append(Lit(at_var(ids[c], answer.epoch), answer.target))
                continue
            name = seen_var(ids[c], answer.target, answer.epoch)
            counted.append(Lit(name, 1))
            if name not in seen_made:
                seen_made.add(name)
                model.variables.append(Var(name, (0, 1)))
                until = min(answer.epoch, pos.last[c])
                found += _seen_rules(deck, ids[c], answer.target, until, name)
        found.append(Count(tuple(counted), "==", answer.value, answer.source))
    if pos.box_seen is not None:
        cards, source = pos.box_seen
        for c in cards:
            found.append(member(box_var(TYPES[pos.kind[c]]), [ids[c]], source))
    return found


@lru_cache(maxsize=4_096)
def _seen_rules(deck: str, card: str, seat: int, until: int, name: str) -> tuple[Clause, ...]:
    """`name` is 1 exactly when the card sat in `seat`'s hand at some epoch up to `until`
    (cached: every later position of the game states the same rules again)."""
    held = [Lit(at_var(card, e), seat) for e in range(until + 1)]
    mark = Lit(name, 1)
    return (*(Clause((mark,), (lit,)) for lit in held), Clause(tuple(held), (mark,)))


@lru_cache(maxsize=1_024)
def _terms(
    deck: str, variable: Callable[[str, int], str], e: int, value: int, cards: tuple[int, ...]
) -> tuple[Lit, ...]:
    """The literals `variable(card, e) == value` of `cards` (a hand size or a pass count:
    every later position of the game counts the same terms again, so they are cached)."""
    ids = load_deck(deck).ids
    return tuple(Lit(variable(ids[c], e), value) for c in cards)


# --- facts ----------------------------------------------------------------------------------
IN_BOX, HOLDS, BOX_GROUP = "InBox", "Holds", "BoxGroup"
"""The kinds of Alibi's facts: a card is in the box, a player holds a card, the box's card of
a type is of a group."""


def in_box(pos: Position, card: int) -> Fact:
    data = pos.deck.cards[card]
    return Fact(
        IN_BOX, (data.id,), box_var(data.type), frozenset({data.id}), f"{data.name} is in the box"
    )


def holds(pos: Position, seat: int, card: int) -> Fact:
    data = pos.deck.cards[card]
    return Fact(
        HOLDS,
        (seat, data.id),
        at_var(data.id, pos.epoch),
        frozenset({seat}),
        f"player {seat} holds {data.name}",
    )


def box_group(pos: Position, group: str) -> Fact:
    kind = pos.deck.type_of_group(group)
    return Fact(
        BOX_GROUP,
        (kind, group),
        box_var(kind),
        frozenset(pos.deck.of_group(group)),
        f"the box's {kind} is a {pos.deck.group_names[group]} card",
    )


def facts(pos: Position) -> list[Fact]:
    """InBox for every card, Holds now for every seat and card in a hand or the box (a card
    laid in a set is held by nobody), the box's groups."""
    found = [in_box(pos, c) for c in range(len(pos.ids))]
    found += [
        holds(pos, p, c)
        for c in range(len(pos.ids))
        if c not in pos.laid_by
        for p in range(pos.players)
    ]
    return found + [box_group(pos, group) for group in pos.deck.groups]


# --- worlds ---------------------------------------------------------------------------------
def world_from(pos: Position, paths: list[Trajectory], model: Model | None = None) -> World:
    """The world of one history: every variable of `model` (without one: box, at and pass)."""
    world: dict[str, Value] = {}
    for c, path in enumerate(paths):
        card = pos.ids[c]
        if path[0] == pos.box:
            world[box_var(TYPES[pos.kind[c]])] = card
        for e, loc in enumerate(path):
            world[at_var(card, e)] = place(pos, loc)
            if e:
                world[pass_var(card, e)] = path[e - 1] if loc != path[e - 1] else STAY
    if model is not None:
        for variable in model.variables:
            match var_key(variable.name):
                case SeenVar(card, seat, epoch):
                    world[variable.name] = int(seat in paths[pos.index[card]][: epoch + 1])
    return world


def location(pos: Position, value: Value) -> int:
    """A model value as a location code (the inverse of `place`)."""
    if value == BOX:
        return pos.box
    assert isinstance(value, int)
    return value


def paths_of(pos: Position, world: World) -> list[Trajectory]:
    """The trajectories a world describes (the inverse of `world_from`)."""
    return [
        tuple(location(pos, world[at_var(card, e)]) for e in range(pos.last[c] + 1))
        for c, card in enumerate(pos.ids)
    ]
