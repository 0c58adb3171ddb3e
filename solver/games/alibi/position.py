"""What one Alibi information set says, in the shape the model, counter and chain all use.

Time runs in *epochs*: epoch 0 is the deal, epoch e the hands right after the passes of round e,
so round r is played in epoch r - 1. A card's *trajectory* is its location at every epoch it is
still in play (a player, or BOX for the whole game); a laid card's trajectory ends at the epoch
it was laid in, in its layer's hand. Trajectories of all cards determine the whole hidden history
(deal, box and every pass choice), so consistent histories and consistent trajectory tuples are
the same thing, and the rules' prior makes each equally likely (rules/alibi.md, "Inference").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from engines import InformationSet
from engines.alibi import TYPES, Deck, load_deck

Trajectory = tuple[int, ...]


@dataclass(frozen=True)
class Answer:
    """One public answer: `cards` (deck indices) counted in `target`'s scope at `epoch`."""

    source: int
    target: int
    scope: str
    cards: tuple[int, ...]
    epoch: int
    value: int


@dataclass
class Position:
    """The parsed information set: deck, seats, known locations, counts and answers."""

    info: InformationSet
    deck: Deck
    players: int
    me: int
    epoch: int  # the current epoch
    seen_sets: bool  # whether "seen" counts cards laid in sets
    last: list[int] = field(default_factory=list)  # last epoch each card is in play
    laid_by: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # card: seat, epoch, src
    known: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (c, e): loc, src
    known_again: list[tuple[int, int, int, int]] = field(default_factory=list)  # c, e, loc, src
    mine: list[set[int]] = field(default_factory=list)  # my hand at each epoch
    sizes: dict[int, tuple[tuple[int, ...], int]] = field(default_factory=dict)  # e: sizes, src
    passes: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # r, giver: k, src
    deal_source: int = 0
    answers: list[Answer] = field(default_factory=list)
    box_seen: tuple[tuple[int, ...], int] | None = None  # the opened box, and its observation

    def learn(self, card: int, epoch: int, loc: int, source: int) -> None:
        """Record that observation `source` shows `card` at `loc` in `epoch`. The first
        observation to show it keeps it in `known`; later ones go to `known_again`, so each
        observation keeps its own constraint however many observations follow it."""
        if (card, epoch) in self.known:
            self.known_again.append((card, epoch, loc, source))
        else:
            self.known[(card, epoch)] = (loc, source)

    @property
    def box(self) -> int:
        """The location code of the box (players are 0..n-1)."""
        return self.players

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return self.deck.ids

    @cached_property
    def index(self) -> dict[str, int]:
        return {card: i for i, card in enumerate(self.ids)}

    @cached_property
    def kind(self) -> list[int]:
        """Each card's type, as an index into TYPES."""
        return [TYPES.index(card.type) for card in self.deck.cards]

    def alive(self, card: int, epoch: int) -> bool:
        return epoch <= self.last[card]

    def allowed(self, card: int, epoch: int) -> frozenset[int] | None:
        """The locations `card` may have at `epoch` by my direct knowledge (None: any but mine)."""
        if (card, epoch) in self.known:
            return frozenset({self.known[(card, epoch)][0]})
        if card in self.mine[epoch]:
            return frozenset({self.me})
        return None

    def may_be_boxed(self, card: int) -> bool:
        if self.box_seen is not None:
            return card in self.box_seen[0]
        return card not in self.laid_by and all(
            self.allowed(card, e) is None for e in range(self.last[card] + 1)
        )

    def counted(self, answer: Answer, trajectory: Trajectory) -> bool:
        """Whether a card with `trajectory` counts toward `answer` (the card is in its list)."""
        if answer.scope == "hand":
            return len(trajectory) > answer.epoch and trajectory[answer.epoch] == answer.target
        return answer.target in trajectory[: answer.epoch + 1]

    @cached_property
    def forced(self) -> dict[tuple[int, int], bool]:
        """Passes that leave no choice, by (round, giver): True when the giver's whole hand
        goes (a short hand), False when nothing goes (an empty one)."""
        laid: dict[tuple[int, int], int] = defaultdict(int)  # (epoch, seat): cards laid
        for seat, e, _ in self.laid_by.values():
            laid[(e, seat)] += 1
        found = {}
        for r in range(1, self.epoch + 1):
            for p in range(self.players):
                held = self.sizes[r - 1][0][p] - laid[(r - 1, p)]
                count = self.passes.get((r, p), (0, 0))[0]
                if count in (0, held):
                    found[(r, p)] = count > 0
        return found

    def steps(self, card: int, epoch: int, before: int | None) -> list[int]:
        """Where `card` may be at `epoch` when it was at `before` (None at the deal): allowed
        by my knowledge, and reachable by staying or being passed left."""
        if self.box_seen is not None and card in self.box_seen[0]:
            return []  # it was in the box all along
        if before is None:
            options: Iterable[int] = range(self.players)
        else:
            forced = self.forced.get((epoch, before))
            left = (before + 1) % self.players
            options = (before, left) if forced is None else (left if forced else before,)
        allowed = self.allowed(card, epoch)
        if allowed is None:
            return [loc for loc in options if loc != self.me]
        return [loc for loc in options if loc in allowed]

    def trajectory_count(self, card: int) -> int:
        """How many trajectories `trajectories(card)` would list, without listing them."""
        ways = dict.fromkeys(self.steps(card, 0, None), 1)
        for e in range(1, self.last[card] + 1):
            after: dict[int, int] = defaultdict(int)
            for loc, count in ways.items():
                for nxt in self.steps(card, e, loc):
                    after[nxt] += count
            ways = after
        return sum(ways.values()) + self.may_be_boxed(card)

    def trajectories(self, card: int) -> list[Trajectory]:
        """Every trajectory of `card` allowed by my knowledge and the passing rule."""
        found = []
        if self.may_be_boxed(card):
            found.append((self.box,) * (self.last[card] + 1))

        def extend(prefix: list[int]) -> None:
            e = len(prefix)
            if e > self.last[card]:
                found.append(tuple(prefix))
                return
            for loc in self.steps(card, e, prefix[-1] if prefix else None):
                extend([*prefix, loc])

        extend([])
        return found

    def valid(self, card: int, path: Trajectory) -> bool:
        """Whether `path` is one of `trajectories(card)`, checked without listing them."""
        if len(path) != self.last[card] + 1:
            return False
        if path[0] == self.box:
            return all(loc == self.box for loc in path) and self.may_be_boxed(card)
        before = None
        for e, loc in enumerate(path):
            if loc not in self.steps(card, e, before):
                return False
            before = loc
        return True

    def moves(self, trajectory: Trajectory) -> list[tuple[int, int]]:
        """The passes a trajectory makes: (round, giver) for each step to the left."""
        return [
            (e, trajectory[e - 1])
            for e in range(1, len(trajectory))
            if trajectory[e] != trajectory[e - 1]
        ]


@lru_cache(maxsize=16)
def parse(info: InformationSet) -> Position:
    """The position `info` describes (observations in order, tagged by their index)."""
    options = dict(info.options)
    deck = load_deck(options.get("deck", "full"))
    me = info.seat
    assert isinstance(me, int)
    seating = next(obs for obs in info.observations if obs.kind == "seating")
    epoch = sum(1 for obs in info.observations if obs.kind == "hands" and obs["round"] > 0)
    seen_sets = options.get("seen_includes_sets", True)
    pos = Position(info, deck, seating["players"], me, epoch, seen_sets)
    index = pos.index
    pos.last = [epoch] * len(deck.ids)
    pos.mine = [set() for _ in range(epoch + 1)]
    hand: set[int] = set()
    laid_by_me: set[int] = set()  # cards I laid in the current epoch
    current = 0

    def close(upto: int) -> None:
        """Record my hands of the epochs before `upto` (called before their passes apply)."""
        nonlocal current, laid_by_me
        while current < upto:
            pos.mine[current] = hand | laid_by_me
            current, laid_by_me = current + 1, set()

    for i, obs in enumerate(info.observations):
        kind = obs.kind
        cards = [index[card] for card in obs.get("cards") or ()]
        if kind == "deal":
            pos.deal_source = i
            hand |= set(cards)
            for card in cards:
                pos.learn(card, 0, me, i)
        elif kind == "hands":
            close(obs["round"])
            pos.sizes[obs["round"]] = (tuple(obs["sizes"]), i)
        elif kind == "lay":
            for card in cards:
                pos.laid_by[card] = (obs["seat"], current, i)
                pos.last[card] = current
                pos.learn(card, current, obs["seat"], i)
            if obs["seat"] == me:
                hand -= set(cards)
                laid_by_me |= set(cards)
        elif kind == "pass":
            r, giver, receiver = obs["round"], obs["giver"], obs["receiver"]
            close(r)
            pos.passes[(r, giver)] = (obs["count"], i)
            for card in cards:
                pos.learn(card, r - 1, giver, i)
                pos.learn(card, r, receiver, i)
            if giver == me:
                hand -= set(cards)
            if receiver == me:
                hand |= set(cards)
        elif kind == "answer":
            pos.answers.append(
                Answer(i, obs["target"], obs["scope"], tuple(cards), current, obs["answer"])
            )
        elif kind == "box":
            pos.box_seen = (tuple(cards), i)
    close(epoch)
    pos.mine[epoch] = hand | laid_by_me
    pos.answers = [_counted_cards(pos, answer) for answer in pos.answers]
    return pos


def _counted_cards(pos: Position, answer: Answer) -> Answer:
    """The answer over the cards that can count, the others being known not to.

    A card laid before the question is in no hand; for "seen" it still counts for its layer when
    the option says laid sets count (its trajectory ends in the layer's hand), and not otherwise.
    """
    kept = []
    for card in answer.cards:
        laid = pos.laid_by.get(card)
        before = laid is not None and laid[2] < answer.source
        if answer.scope == "hand":
            if pos.alive(card, answer.epoch) and not before:
                kept.append(card)
        elif not (before and not pos.seen_sets and laid[0] == answer.target):
            kept.append(card)
    return Answer(
        answer.source, answer.target, answer.scope, tuple(kept), answer.epoch, answer.value
    )
