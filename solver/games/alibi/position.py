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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from types import MappingProxyType

from engines import IncompleteInformationSet, InformationSet, InvalidInformationSet, Observation
from engines.alibi import SCOPES, TYPES, Deck, hand_sizes, load_deck, parse_subject
from engines.alibi import observations as seen
from engines.values import quote
from solver.validation import Checker

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


@dataclass(frozen=True, eq=False)
class Position:
    """The parsed information set: deck, seats, known locations, counts and answers.

    Read-only (its containers are tuples, frozensets and read-only mappings): `parse` hands the
    same Position to every caller and thread that parses the same information set.
    """

    info: InformationSet
    deck: Deck
    players: int
    me: int
    epoch: int  # the current epoch
    seen_sets: bool  # whether "seen" counts cards laid in sets
    last: tuple[int, ...]  # last epoch each card is in play
    laid_by: Mapping[int, tuple[int, int, int]]  # card: seat, epoch, source
    known: Mapping[tuple[int, int], tuple[int, int]]  # (card, epoch): location, source
    known_again: tuple[tuple[int, int, int, int], ...]  # card, epoch, location, source
    mine: tuple[frozenset[int], ...]  # my hand at each epoch
    sizes: Mapping[int, tuple[tuple[int, ...], int]]  # epoch: sizes, source
    passes: Mapping[tuple[int, int], tuple[int, int]]  # (round, giver): count, source
    deal_source: int
    answers: tuple[Answer, ...]
    box_seen: tuple[tuple[int, ...], int] | None  # the opened box, and its observation

    @property
    def box(self) -> int:
        """The location code of the box (players are 0..n-1)."""
        return self.players

    @cached_property
    def ids(self) -> tuple[str, ...]:
        return self.deck.ids

    @cached_property
    def index(self) -> Mapping[str, int]:
        return MappingProxyType({card: i for i, card in enumerate(self.ids)})

    @cached_property
    def kind(self) -> tuple[int, ...]:
        """Each card's type, as an index into TYPES."""
        return tuple(TYPES.index(card.type) for card in self.deck.cards)

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
    def forced(self) -> Mapping[tuple[int, int], bool]:
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
        return MappingProxyType(found)

    def steps(self, card: int, epoch: int, before: int | None) -> list[int]:
        """Where `card` may be at `epoch` when it was at `before` (None at the deal): allowed
        by my knowledge, and reachable by staying or being passed left."""
        if self.box_seen is not None and card in self.box_seen[0]:
            return []  # it was in the box all along
        return _steps(self.players, self.me, self.forced, self.allowed(card, epoch), epoch, before)

    def trajectory_count(self, card: int) -> int:
        """How many trajectories `trajectories(card)` would list, without listing them."""
        return _counted(self.signature(card))

    def trajectories(self, card: int) -> list[Trajectory]:
        """Every trajectory of `card` allowed by my knowledge and the passing rule."""
        return list(_listed(self.signature(card)))

    def trajectory_set(self, card: int) -> frozenset[Trajectory]:
        """`trajectories(card)` as a set, for membership tests."""
        return _listed_set(self.signature(card))

    def signature(self, card: int) -> tuple:
        """All that `trajectories(card)` depends on: positions of one game share most cards'
        signatures (an answer changes none), so listings are shared between refreshes, and
        two cards with one signature may take each other's trajectories."""
        shown = self.box_seen is not None and card in self.box_seen[0]
        allowed = tuple(self.allowed(card, e) for e in range(self.last[card] + 1))
        forced = self._forced_until[self.last[card]]
        return (self.players, self.me, self.may_be_boxed(card), shown, allowed, forced)

    @cached_property
    def _forced_until(self) -> tuple[frozenset[tuple[tuple[int, int], bool]], ...]:
        """The forced passes of rounds up to each epoch (all a card in play until then meets):
        a laid card's signature stays the same in later epochs."""
        items = self.forced.items()
        return tuple(
            frozenset(item for item in items if item[0][0] <= e) for e in range(self.epoch + 1)
        )

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


def _steps(
    players: int,
    me: int,
    forced: Mapping[tuple[int, int], bool],
    here: frozenset[int] | None,
    epoch: int,
    before: int | None,
) -> list[int]:
    """`Position.steps` for a card that may be at `here` (None: anywhere but with me)."""
    if before is None:
        options: Iterable[int] = range(players)
    else:
        pinned = forced.get((epoch, before))
        left = (before + 1) % players
        options = (before, left) if pinned is None else (left if pinned else before,)
    if here is None:
        return [loc for loc in options if loc != me]
    return [loc for loc in options if loc in here]


@lru_cache(maxsize=1_024)
def _listed(signature: tuple) -> tuple[Trajectory, ...]:
    """The trajectories of a card with this signature (`Position.signature`), listed once
    (what `Position.steps` allows, step by step): the box's first, then the walks."""
    players, me, boxable, shown, allowed, forced = signature
    found: tuple[Trajectory, ...] = ((players,) * len(allowed),) if boxable else ()
    if shown:
        return found
    return found + _walks(players, me, allowed, forced)


@lru_cache(maxsize=4_096)
def _walks(
    players: int,
    me: int,
    allowed: tuple[frozenset[int] | None, ...],
    forced: frozenset[tuple[tuple[int, int], bool]],
) -> tuple[Trajectory, ...]:
    """The trajectories through seats `allowed` lets a card take, in depth-first order: the
    walks one epoch shorter (kept, so that the next epoch's listing of a card extends the one
    before), each followed by its steps."""
    last = len(allowed) - 1
    passes = dict(forced)
    if last == 0:
        return tuple((loc,) for loc in _steps(players, me, passes, allowed[0], 0, None))
    earlier = frozenset(item for item in forced if item[0][0] < last)
    here = allowed[last]
    return tuple(
        (*walk, loc)
        for walk in _walks(players, me, allowed[:-1], earlier)
        for loc in _steps(players, me, passes, here, last, walk[-1])
    )


@lru_cache(maxsize=4_096)
def _counted(signature: tuple) -> int:
    """`len(_listed(signature))`, counted epoch by epoch without listing."""
    players, me, boxable, shown, allowed, forced = signature
    if shown:
        return int(boxable)
    passes = dict(forced)
    ways = dict.fromkeys(_steps(players, me, passes, allowed[0], 0, None), 1)
    for e in range(1, len(allowed)):
        after: dict[int, int] = defaultdict(int)
        for loc, count in ways.items():
            for nxt in _steps(players, me, passes, allowed[e], e, loc):
                after[nxt] += count
        ways = after
    return sum(ways.values()) + boxable


@lru_cache(maxsize=1_024)
def _listed_set(signature: tuple) -> frozenset[Trajectory]:
    return frozenset(_listed(signature))


@lru_cache(maxsize=16)
def parse(info: InformationSet) -> Position:
    """The position `info` describes (observations in order, tagged by their index).

    Cached (lru_cache, which is safe for threads); the Position is read-only, so sharing it
    is safe. `info` must have passed `validate`.
    """
    return _Parser(info).position()


class _Parser:
    """Reads the observations in order into the parts of a Position."""

    def __init__(self, info: InformationSet) -> None:
        self.info = info
        options = dict(info.options)
        self.deck = load_deck(options.get("deck", "full"))
        self.index = {card: i for i, card in enumerate(self.deck.ids)}
        me = info.seat
        assert isinstance(me, int)
        self.me = me
        self.epoch = sum(
            1 for obs in info.observations if isinstance(obs, seen.Hands) and obs.round > 0
        )
        self.seen_sets = bool(options.get("seen_includes_sets", True))
        self.last = [self.epoch] * len(self.deck.ids)
        self.mine: list[frozenset[int]] = [frozenset()] * (self.epoch + 1)
        self.laid_by: dict[int, tuple[int, int, int]] = {}
        self.known: dict[tuple[int, int], tuple[int, int]] = {}
        self.known_again: list[tuple[int, int, int, int]] = []
        self.sizes: dict[int, tuple[tuple[int, ...], int]] = {}
        self.passes: dict[tuple[int, int], tuple[int, int]] = {}
        self.answers: list[Answer] = []
        self.deal_source = 0
        self.box_seen: tuple[tuple[int, ...], int] | None = None
        self.hand: set[int] = set()
        self.laid_by_me: set[int] = set()  # cards I laid in the current epoch
        self.current = 0

    def learn(self, card: int, epoch: int, loc: int, source: int) -> None:
        """Record that observation `source` shows `card` at `loc` in `epoch`. The first
        observation to show it keeps it in `known`; later ones go to `known_again`, so each
        observation keeps its own constraint however many observations follow it."""
        if (card, epoch) in self.known:
            self.known_again.append((card, epoch, loc, source))
        else:
            self.known[(card, epoch)] = (loc, source)

    def close(self, upto: int) -> None:
        """Record my hands of the epochs before `upto` (called before their passes apply)."""
        while self.current < upto:
            self.mine[self.current] = frozenset(self.hand | self.laid_by_me)
            self.current, self.laid_by_me = self.current + 1, set()

    def indices(self, cards: tuple[str, ...]) -> list[int]:
        return [self.index[card] for card in cards]

    def read(self, i: int, obs: Observation) -> None:
        me = self.me
        match obs:
            case seen.Deal(cards=dealt):
                cards = self.indices(dealt)
                self.deal_source = i
                self.hand |= set(cards)
                for card in cards:
                    self.learn(card, 0, me, i)
            case seen.Hands(round=r, sizes=sizes):
                self.close(r)
                self.sizes[r] = (tuple(sizes), i)
            case seen.Laid(seat=seat, cards=laid):
                cards = self.indices(laid)
                for card in cards:
                    self.laid_by[card] = (seat, self.current, i)
                    self.last[card] = self.current
                    self.learn(card, self.current, seat, i)
                if seat == me:
                    self.hand -= set(cards)
                    self.laid_by_me |= set(cards)
            case seen.Passed(round=r, giver=giver, receiver=receiver, count=count):
                cards = self.indices(obs.cards) if isinstance(obs, seen.PassedCards) else []
                self.close(r)
                self.passes[(r, giver)] = (count, i)
                for card in cards:
                    self.learn(card, r - 1, giver, i)
                    self.learn(card, r, receiver, i)
                if giver == me:
                    self.hand -= set(cards)
                if receiver == me:
                    self.hand |= set(cards)
            case seen.Answered(target=target, scope=scope, cards=asked, answer=value):
                cards = self.indices(asked)
                self.answers.append(Answer(i, target, scope, tuple(cards), self.current, value))
            case seen.BoxOpened(cards=shown):
                self.box_seen = (tuple(self.indices(shown)), i)

    def position(self) -> Position:
        info = self.info
        match info.observations[0]:
            case seen.Seating(players=players):
                pass
            case first:
                raise InvalidInformationSet(
                    f"alibi: an information set starts with the seating, not {quote(first.kind)}"
                )
        for i, obs in enumerate(info.observations):
            self.read(i, obs)
        self.close(self.epoch)
        self.mine[self.epoch] = frozenset(self.hand | self.laid_by_me)
        pos = Position(
            info,
            self.deck,
            players,
            self.me,
            self.epoch,
            self.seen_sets,
            tuple(self.last),
            MappingProxyType(self.laid_by),
            MappingProxyType(self.known),
            tuple(self.known_again),
            tuple(self.mine),
            MappingProxyType(self.sizes),
            MappingProxyType(self.passes),
            self.deal_source,
            tuple(self.answers),
            self.box_seen,
        )
        answers = tuple(_counted_cards(pos, answer) for answer in pos.answers)
        return replace(pos, answers=answers)


def _counted_cards(pos: Position, answer: Answer) -> Answer:
    """The answer over the cards that can count, the others being known not to.

    A card laid before the question is in no hand; for "seen" it still counts for its layer when
    the option says laid sets count (its trajectory ends in the layer's hand), and not otherwise.
    """
    kept = []
    for card in answer.cards:
        layer, _, laid_at = pos.laid_by.get(card, (None, None, answer.source))
        before = laid_at < answer.source
        if answer.scope == "hand":
            if pos.alive(card, answer.epoch) and not before:
                kept.append(card)
        elif not (before and not pos.seen_sets and layer == answer.target):
            kept.append(card)
    return Answer(
        answer.source, answer.target, answer.scope, tuple(kept), answer.epoch, answer.value
    )


# --- validation -----------------------------------------------------------------------------
MOST_POINTS = 10**6
"""A bound on any seat's points, far above what a game scores."""
HEAD = (seen.Seating, seen.Deal, seen.Hands)
HEAD_WAITING = ("the seating", "the seat's deal", "the hand sizes after the deal")


def validate(info: InformationSet) -> None:
    """Refuse what this game could not show a seat: unknown kinds or fields, cards or groups
    not in the deck of the options, seats out of range, counts and answers out of range, cards
    named twice, passes to anyone but the left neighbour, hand sizes that lose or make cards,
    and observations out of their order (seating, my deal, the hands of round 0, then rounds
    each closed by their hands).

    A true beginning of such a record that stops where the game still owes an observation
    (before the deal or its hand sizes, or between the passes and the hand sizes after them)
    is incomplete rather than wrong.

    Raises:
        IncompleteInformationSet: the record is such a beginning; `waiting_for` says what the
            game owes it.
        InvalidInformationSet: naming the observation, the field and what is allowed.
    """
    _Validator(info).run()


class _Validator:
    """One pass over the observations, keeping what the order checks need."""

    def __init__(self, info: InformationSet) -> None:
        self.info = info
        self.check = Checker(info, seen.KINDS)
        options = dict(info.options)
        self.deck = load_deck(options.get("deck", "full"))
        self.players = int(options.get("players", 4))
        self.seats = tuple(range(self.players))
        self.me = int(info.seat)  # the shared checks made it a seat number
        self.epoch = -1  # the last epoch whose hands were seen (-1: none yet)
        self.laid: set[str] = set()
        self.passed: set[tuple[int, int]] = set()
        self.dealer = 0  # set by the seating
        self.dealt = 0  # the size of the seat's deal, set by the deal
        # what changes hand sizes between two "hands" observations, which must add up
        self.sizes: tuple[int, ...] | None = None  # the last hand sizes seen
        self.laid_now = [0] * self.players  # cards each seat laid since then
        self.given_now = [0] * self.players  # cards each seat passed since then

    def run(self) -> None:
        observations = self.info.observations
        head = [obs.kind for obs in observations[: len(HEAD)]]
        if head != [kind.KIND for kind in HEAD[: len(head)]]:
            raise InvalidInformationSet(
                "alibi: an information set starts with the seating, the seat's deal and the "
                f"hand sizes, not {quote(head)}"
            )
        for index, obs in enumerate(observations):
            self.check.shape(index)  # from here on `obs` is one of the typed kinds
            if any(self.given_now) and not isinstance(obs, seen.Passed | seen.Hands):
                self._passes_unfinished(index)
            match obs:
                case seen.Seating():
                    self._seating(index)
                case seen.Deal():
                    self._deal(index)
                case seen.Hands(sizes=sizes):
                    self._hands(index, sizes)
                case seen.Laid():
                    self._lay(index)
                case seen.Answered():
                    self._answer(index)
                case seen.Accused():
                    self._accuse(index)
                case seen.PassChosen():
                    self._choose_pass(index, obs)
                case seen.Passed():
                    self._pass(index, obs)
                case seen.SolutionWritten():
                    self._choose_solution(index, obs)
                case seen.BoxOpened():
                    self._four(index)
                case seen.SolutionShown():
                    self._solution(index)
                case seen.End():
                    self._end(index)
        if len(observations) < len(HEAD):
            waiting = HEAD_WAITING[len(observations)]
            raise IncompleteInformationSet(f"alibi: the record waits for {waiting}", waiting)
        if any(self.given_now):  # the game owes the new hand sizes after the passes
            waiting = f"the hand sizes after the passes of round {self.epoch + 1}"
            raise IncompleteInformationSet(
                f"alibi: the passes of round {self.epoch + 1} must be followed by the hand "
                f"sizes after them; the record waits for {waiting}",
                waiting,
            )

    def _passes_unfinished(self, index: int) -> None:
        """Only more passes, then the hand sizes, may follow a pass."""
        self.check.refuse(
            index,
            f"the passes of round {self.epoch + 1} must be followed by the hand sizes after "
            "them (a 'hands' observation)",
        )

    def _seat(self, index: int, field: str) -> int:
        return self.check.number(index, field, 0, self.players - 1)

    def _cards(self, index: int, sizes: set[int] | None = None) -> tuple[str, ...]:
        cards = self.check.items(index, "cards", self.deck.ids, sizes, f"{self.deck.scale} cards")
        return tuple(str(card) for card in cards)

    def _round(self, index: int) -> None:
        """Turns and passes belong to the round after the last hand sizes seen."""
        self.check.choice(index, "round", (self.epoch + 1,))

    def _seating(self, index: int) -> None:
        if index:
            self.check.refuse(index, "the seating comes first and once")
        self.check.choice(index, "players", (self.players,))
        dealer = self._seat(index, "dealer")
        chosen = dict(self.info.options).get("dealer", "random")
        if chosen != "random":
            self.check.choice(index, "dealer", (chosen,))
        self.dealer = dealer
        self._seat(index, "start")

    def _deal(self, index: int) -> None:
        if index != 1:
            self.check.refuse(index, "the deal comes once, right after the seating")
        self.check.choice(index, "seat", (self.info.seat,))
        size = hand_sizes(len(self.deck.ids) - len(TYPES), self.players, self.dealer)
        self.dealt = len(self._cards(index, {size[self.me]}))

    def _hands(self, index: int, sizes: tuple[int, ...]) -> None:
        self.check.choice(index, "round", (self.epoch + 1,))
        total = len(self.deck.ids) - len(TYPES) - len(self.laid)
        if not (
            isinstance(sizes, tuple)
            and len(sizes) == self.players
            and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in sizes)
            and sum(sizes) == total
        ):
            self.check.fail(
                index, "sizes", sizes, f"{self.players} hand sizes adding up to {total}"
            )
        if self.epoch == -1:
            if sizes[self.me] != self.dealt:
                self.check.fail(index, "sizes", sizes, f"hand {self.me} of {self.dealt} cards")
        else:
            self._sizes_follow(index, sizes)
        self.sizes = tuple(sizes)
        self.laid_now = [0] * self.players
        self.given_now = [0] * self.players
        self.epoch += 1

    def _sizes_follow(self, index: int, sizes: tuple[int, ...]) -> None:
        """Each hand after a passing step is the one before, less the sets its holder laid and
        the cards it passed, plus the cards its right neighbour passed: a pass left out of the
        record (or one too many) shows here."""
        assert self.sizes is not None
        n = self.players
        expected = tuple(
            self.sizes[s] - self.laid_now[s] - self.given_now[s] + self.given_now[(s - 1) % n]
            for s in range(n)
        )
        if tuple(sizes) != expected:
            self.check.fail(
                index,
                "sizes",
                sizes,
                f"{expected}: the sizes before, less the sets laid and the cards passed, plus "
                "the cards received, as recorded (is a pass missing?)",
            )

    def _lay(self, index: int) -> None:
        self.laid_now[self._seat(index, "seat")] += 3
        group = self.check.choice(index, "group", self.deck.groups)
        cards = self._cards(index, {3})
        if cards != self.deck.of_group(str(group)):
            self.check.fail(index, "cards", cards, f"the cards of {group}")
        if self.laid & set(cards):
            self.check.refuse(index, f"{group} was laid before")
        self.laid |= set(cards)
        self.check.number(index, "points", 0, 7)
        self._round(index)
        self.check.number(index, "turn", 0, 10**6)

    def _answer(self, index: int) -> None:
        asker = self._seat(index, "asker")
        target = self._seat(index, "target")
        if asker == target:
            self.check.fail(index, "target", target, "another seat than the asker")
        self.check.choice(index, "scope", SCOPES)
        text = self.check.text(index, "subject")
        try:
            subject = parse_subject(text, self.deck)
        except ValueError as error:
            self.check.fail(index, "subject", text, str(error))
        cards = self._cards(index)
        if cards != subject.cards(self.deck):
            self.check.fail(index, "cards", cards, f"the cards of {text}")
        self.check.number(index, "answer", 0, len(cards))
        self._round(index)
        self.check.number(index, "turn", 0, 10**6)

    def _accuse(self, index: int) -> None:
        self._seat(index, "seat")
        self._four(index)
        self._round(index)
        self.check.number(index, "turn", 0, 10**6)

    def _four(self, index: int) -> None:
        """One card of each type, in type order (an accusation, a solution, the box)."""
        cards = self._cards(index, {len(TYPES)})
        if tuple(self.deck.by_id[card].type for card in cards) != TYPES:
            self.check.fail(index, "cards", cards, f"one card of each type, in order {TYPES}")

    def _choose_pass(self, index: int, obs: seen.PassChosen) -> None:
        seat = self._seat(index, "seat")
        self._round(index)
        count = self.check.number(index, "count", 0, self.epoch + 1)
        self._passed_cards(index, count, seat == self.me, obs)

    def _pass(self, index: int, obs: seen.Passed) -> None:
        giver = self._seat(index, "giver")
        self.check.choice(index, "receiver", ((giver + 1) % self.players,))
        self._round(index)
        count = self.check.number(index, "count", 1, self.epoch + 1)
        if (self.epoch + 1, giver) in self.passed:
            self.check.refuse(index, f"player {giver} passes once a round")
        self.passed.add((self.epoch + 1, giver))
        self.given_now[giver] += count
        mine = self.me in (giver, (giver + 1) % self.players)
        self._passed_cards(index, count, mine, obs)

    def _passed_cards(
        self, index: int, count: int, mine: bool, obs: seen.PassChosen | seen.Passed
    ) -> None:
        """The seat sees the cards of the passes it gives or receives, and only those."""
        if not isinstance(obs, seen.PassChosenCards | seen.PassedCards):
            if mine and count:
                self.check.refuse(index, "the seat sees the cards it passes or receives")
            return
        if not mine:
            self.check.refuse(index, "the cards of others' passes are not seen")
        if count and obs.cards is None:
            self.check.refuse(index, "the seat sees the cards it passes or receives")
        if count:
            self._cards(index, {count})

    def _choose_solution(self, index: int, obs: seen.SolutionWritten) -> None:
        seat = self._seat(index, "seat")
        if seat == self.me:
            self._four(index)
        elif isinstance(obs, seen.SolutionWrittenCards) and obs.cards is not None:
            self.check.refuse(index, "others' written solutions are not seen")

    def _solution(self, index: int) -> None:
        self._seat(index, "seat")
        self._four(index)
        self.check.number(index, "correct", 0, len(TYPES))
        self.check.number(index, "points", 0, MOST_POINTS)

    def _end(self, index: int) -> None:
        self.check.choice(index, "reason", ("accusation", "round limit"))
        winners = self.check.items(index, "winners", self.seats, range(1, self.players + 1))
        self.check.numbers(index, "set_points", 0, MOST_POINTS, self.players)
        totals = self.check.numbers(index, "totals", 0, MOST_POINTS, self.players)
        if self.info.make_game().options["end_variant"] == "first-accuser":
            return  # the winner may be the right accuser, whatever the totals
        best = tuple(seat for seat in self.seats if totals[seat] == max(totals))
        if tuple(sorted(winners)) != best:  # type: ignore[type-var]
            self.check.fail(index, "winners", winners, f"the seats with the best total: {best}")
