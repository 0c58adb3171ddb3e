"""Alibi, configured: options, setup (box, deal), notation and the words for observations."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engines.alibi.actions import (
    Accuse,
    AlibiAction,
    Ask,
    Lay,
    Pass,
    Solution,
    _one_per_type,
    parse,
)
from engines.alibi.deck import SCALES, TYPES, Deck, load_deck
from engines.alibi.notation import HELP, Notation, observation_text
from engines.alibi.questions import (
    SCOPES,
    is_subject,
    listed_subjects,
    parse_subject,
    question_words,
)
from engines.alibi.state import AlibiState
from engines.core import (
    Action,
    ConfigError,
    Domain,
    Game,
    IllegalAction,
    InformationSet,
    InvalidAction,
    InvalidState,
    JsonReader,
    JsonValue,
    Metadata,
    Observation,
    Option,
    Seat,
    Setup,
    cards_domain,
    choice_domain,
    positive_int,
)
from engines.deal import Dealer, SeenBy


def _seat_number(value: JsonValue) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 6


def _player_count(value: JsonValue) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 3 <= value <= 6


def _bool(value: JsonValue) -> bool:
    """Only True and False: `1 in (False, True)` would let 1 through as True."""
    return isinstance(value, bool)


def _cards(count: object) -> str:
    """'card' or '2 cards', after 'the'."""
    return "card" if count == 1 else f"{count} cards"


def _count(count: object) -> str:
    """'1 card' or '2 cards'."""
    return f"{count} card" if count == 1 else f"{count} cards"


def deal(cards: Sequence[str], players: int, dealer: int) -> list[list[str]]:
    """Deal `cards` one at a time, clockwise from the dealer's left (card k to seat d+1+k)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, card in enumerate(cards):
        hands[(dealer + 1 + k) % players].append(card)
    return hands


def hand_sizes(cards: int, players: int, dealer: int) -> list[int]:
    """The hand sizes `deal` gives: the first `cards % players` seats from the dealer's left
    get one card more (3 players, 74 cards: 25/25/24)."""
    return [
        (cards - (seat - dealer - 1) % players + players - 1) // players for seat in range(players)
    ]


class Alibi(Game):
    """Find the four cards in the box by asking how many cards of a kind others hold or saw."""

    metadata = Metadata(
        name="alibi",
        title="Alibi",
        seats="0..n-1, clockwise (the left of seat s is s + 1)",
        hidden="the box, the other players' hands, and what others passed among themselves",
        version=2,
        max_length="round_limit rounds (default 20)",
    )
    options_spec = (
        Option(
            "players",
            4,
            check=_player_count,
            describe_allowed="3, 4, 5 or 6",
            doc="number of players",
        ),
        Option(
            "dealer",
            "random",
            ("random",),
            check=_seat_number,
            describe_allowed="'random' or a seat number below players",
            doc="(chosen) who deals; the deal starts at the dealer's left",
        ),
        Option(
            "single_card_questions",
            "allowed",
            ("allowed", "forbidden"),
            doc="whether a subject may name one card (a card list or a place/weapon/feeling "
            "detail, which is one card)",
        ),
        Option(
            "seen_includes_sets",
            True,
            check=_bool,
            describe_allowed="True or False",
            doc="whether 'seen' counts the cards the player has laid in sets",
        ),
        Option(
            "wrong_accuser_can_win",
            False,
            check=_bool,
            describe_allowed="True or False",
            doc="whether a wrong accuser's sets count for the win",
        ),
        Option(
            "round_limit",
            20,
            (None,),
            check=positive_int,
            describe_allowed="a positive integer or None",
            doc="rounds after which the game ends as if wrongly accused, with no accuser",
        ),
        Option(
            "end_variant",
            "first-accuser",
            ("first-accuser", "solutions"),
            doc="'solutions': when the game ends, every player writes a solution",
        ),
        Option(
            "solution_points",
            5,
            check=positive_int,
            describe_allowed="a positive integer",
            doc="(chosen) points per correct card of a written solution",
        ),
        Option(
            "deck",
            "full",
            SCALES,
            doc="'small': two groups per type (24 cards), for brute-force checks",
        ),
    )

    def _check_options(self) -> None:
        dealer = self.options["dealer"]
        if dealer != "random" and dealer >= self.players:
            raise ConfigError(
                f"alibi: option 'dealer' cannot be {dealer!r} with {self.players} players; "
                f"allowed: 'random' or 0 to {self.players - 1}"
            )

    @property
    def players(self) -> int:
        return self.options["players"]

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(range(self.players))

    @cached_property
    def deck(self) -> Deck:
        return load_deck(self.options["deck"])

    @cached_property
    def _asks(self) -> tuple[tuple[Ask, ...], ...]:
        single = self.options["single_card_questions"] == "allowed"
        subjects = listed_subjects(self.deck, single)
        return tuple(
            tuple(
                Ask(target, scope, subject)
                for target in range(self.players)
                if target != seat
                for scope in SCOPES
                for subject in subjects
            )
            for seat in range(self.players)
        )

    def listed_asks(self, seat: int) -> tuple[Ask, ...]:
        """The questions `legal_actions` lists for `seat` (made once per game)."""
        return self._asks[seat]

    # --- setup ---------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> AlibiState:
        state = self._new_dealt(seed)
        assert isinstance(state, AlibiState)
        return state

    # --- the deal as chance nodes, the action ids, the tensor (engines/deal.py) -----------
    explicit_chance = True

    def _deal(self, dealer: Dealer, rng: random.Random) -> AlibiState:
        """The dealer (when random), the box's card of each type (seen by nobody), then the
        shuffle of the rest, each card seen by the seat it is dealt to."""
        first, n = self.options["dealer"], self.players
        if first == "random":
            first = dealer.choice(range(n))
        box = [dealer.choice(self.deck.of_type(kind), seen_by=()) for kind in TYPES]
        rest = [card for card in self.deck.ids if card not in box]
        owners: list[SeenBy] = [((first + 1 + k) % n,) for k in range(len(rest))]
        rest = dealer.shuffle(rest, owners)
        return self.arrange(rng, deal(rest, n, first), box, first)

    def _chance_outcome_space(self) -> tuple[JsonValue, ...]:
        return (*range(self.players), *self.deck.ids)

    # The ids: the lays, then the listed questions (every target, scope and listed subject),
    # then three blocks of one id per card: a card passed, a card of an accusation, a card
    # of a written solution. A pass or an accusation is spelled card by card in deck order
    # (a pass of r cards is r ids); card lists of two or more cards are legal questions but
    # have no id, as `legal_actions` does not list them.
    max_action_choices = 78

    @cached_property
    def _numbering(self) -> tuple[dict[object, int], list[object]]:
        deck, n = self.deck, self.players
        single = self.options["single_card_questions"] == "allowed"
        keys: list[object] = [Lay(group) for group in deck.groups]
        keys += [
            Ask(target, scope, subject)
            for target in range(n)
            for scope in SCOPES
            for subject in listed_subjects(deck, single)
        ]
        keys += [(block, card) for block in (Pass, Accuse, Solution) for card in deck.ids]
        return {key: i for i, key in enumerate(keys)}, keys

    def _num_distinct_actions(self) -> int:
        return len(self._numbering[1])

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        index = self._numbering[0]
        if isinstance(action, Pass | Accuse | Solution):
            order = self.deck.ids.index
            return tuple(index[(type(action), card)] for card in sorted(action.cards, key=order))
        found = index.get(action)
        if found is None:
            raise InvalidAction(f"alibi: {action} has no id (only listed questions have ids)")
        return (found,)

    def _action_from_ids(self, ids: tuple[int, ...]) -> Action:
        keys = self._numbering[1]
        first = keys[ids[0]]
        if isinstance(first, Lay | Ask):
            if len(ids) > 1:
                raise InvalidAction(f"alibi: {first} is one id, not {len(ids)}")
            return first
        parts = [keys[i] for i in ids]
        kind = first[0]  # type: ignore[index]
        if not all(isinstance(part, tuple) and part[0] is kind for part in parts):
            raise InvalidAction(f"alibi: the ids {ids} mix kinds of action")
        cards = tuple(part[1] for part in parts)  # type: ignore[index]
        if kind is Pass:
            return Pass(cards)
        found = _one_per_type(list(cards), self.deck)
        if found is None:
            raise InvalidAction(f"alibi: the ids {ids} do not spell one card of each type")
        return Accuse(found) if kind is Accuse else Solution(found)

    def choice_text(self, choice: int) -> str:
        key = self._numbering[1][choice]
        if isinstance(key, tuple):
            return f"{key[0].__name__.lower()} {key[1]} (one card of it)"
        return str(key)

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """A pass is seen by its giver and receiver; a written solution by its writer."""
        assert isinstance(seat, int)
        if isinstance(action, Pass):
            return (seat, (seat + 1) % self.players)
        return (seat,) if isinstance(action, Solution) else None

    @property
    def max_game_length(self) -> int | None:
        """Per round a turn and a pass per player; a lay per group; a solution per player."""
        limit, n = self.options["round_limit"], self.players
        return None if limit is None else limit * 2 * n + len(self.deck.groups) + n

    def _observation_shape(self) -> tuple[int, ...]:
        n = self.players
        return (len(self.deck.ids) * 5 + n * 5 + 4 + 2,)

    def _encode(self, info: InformationSet) -> list[float]:
        """Per card: in my hand, seen by me, passed by me, laid, in the opened box; per
        seat: hand size, set points, to move, me, accuser; then the phase and the round."""
        view = self.seat_view(info)
        me, n, deck = info.seat, self.players, self.deck
        assert isinstance(me, int)
        sizes, passed, box = [0] * n, set(), set()
        for obs in info.observations:
            if obs.kind == "hands":
                sizes = list(obs["sizes"])
            elif obs.kind == "lay":
                sizes[obs["seat"]] -= 3
            elif obs.kind == "pass" and obs["giver"] == me:
                passed |= set(obs["cards"])
            elif obs.kind == "box":
                box = set(obs["cards"])
        hand, seen = set(view._hands[me]), view._seen[me]
        laid = {card for groups in view.laid for g in groups for card in deck.of_group(g)}
        out: list[float] = []
        for card in deck.ids:
            out += [float(card in group) for group in (hand, seen, passed, laid, box)]
        total = len(deck.ids)
        out += [size / total for size in sizes]
        out += [score / 10 for score in view.scores]
        out += [float(view.to_move == seat) for seat in range(n)]
        out += [float(me == seat) for seat in range(n)]
        out += [float(view.accuser == seat) for seat in range(n)]
        out += [float(view.phase == phase) for phase in ("turns", "passing", "solutions", "over")]
        limit = self.options["round_limit"]
        out += [view.round / limit if limit else 0.0, view.turn / (limit * n if limit else 100)]
        return out

    def arrange(
        self,
        rng: random.Random,
        hands: Sequence[Sequence[str]],
        box: Sequence[str],
        dealer: int,
    ) -> AlibiState:
        """A new game with the dealt hands and the box given (for tests and teaching).

        Raises:
            InvalidState: the box is not one card per type in type order, the cards are not the
                deck's, or the hand sizes are not those of a deal from the dealer's left.
        """
        deck = self.deck
        if tuple(deck.by_id[card].type for card in box) != TYPES:
            raise InvalidState(f"the box must hold one card of each type, in order {TYPES}")
        if sorted([*box, *(c for hand in hands for c in hand)]) != sorted(deck.ids):
            raise InvalidState("the hands and the box must hold every card of the deck once")
        sizes = hand_sizes(len(deck.ids) - len(TYPES), self.players, dealer)
        if [len(hand) for hand in hands] != sizes:
            raise InvalidState(f"dealing from the left of player {dealer} gives hands of {sizes}")
        state = AlibiState(self, rng, hands, box, dealer)
        state._setup = Setup.record(
            rng, hands=[list(hand) for hand in hands], box=list(box), dealer=dealer
        )
        state._emit(
            Observation.of("seating", players=self.players, dealer=dealer, start=state.start)
        )
        for seat in range(self.players):
            state._emit(Observation.of("deal", seat=seat, cards=sorted(hands[seat])), to=[seat])
        state._emit(Observation.of("hands", round=0, sizes=state.hand_sizes))
        return state

    def reconstruct(self, info: InformationSet, hidden: Mapping[str, Any]) -> AlibiState:
        """The state `info` describes, given a guess of everything its seat did not see.

        `hidden` holds "box" (four card ids in type order), "hands" (each seat's dealt hand, in
        seat order), "passes" (one list per completed or pending passing step, each holding the
        cards every seat passed, in seat order; a short hand's whole-hand pass may be given or
        left empty) and, in the variant "solutions", "solutions" (seat number -> four cards)
        for the solutions written so far.

        Raises:
            InvalidState: the guess contradicts `info` (a card the seat saw elsewhere, an answer
                that would differ, an action that would be illegal).
        """
        seating = next(obs for obs in info.observations if obs.kind == "seating")
        try:
            state = self.arrange(
                random.Random(0), hidden["hands"], hidden["box"], seating["dealer"]
            )
            for obs in info.observations:
                action = self._replayed(obs, hidden)
                if action is not None:
                    if state.to_move != obs.get("seat", obs.get("asker")):
                        raise InvalidState(f"{self.describe(obs)}, out of turn in this guess")
                    state.apply(action)
        except (IllegalAction, KeyError, IndexError, TypeError) as error:
            raise InvalidState(f"the guess contradicts the information set: {error}") from None
        if state.information_set(info.seat) != info:
            raise InvalidState("the guess contradicts something the seat saw")
        return state

    def _replayed(self, obs: Observation, hidden: Mapping[str, Any]) -> AlibiAction | None:
        """The action an observation records, with hidden choices taken from the guess."""
        if obs.kind == "answer":
            return Ask(obs["target"], obs["scope"], parse_subject(obs["subject"], self.deck))
        if obs.kind == "lay":
            return Lay(obs["group"])
        if obs.kind == "accuse":
            return Accuse(tuple(obs["cards"]))
        if obs.kind == "choose_pass":
            cards = obs.get("cards") or hidden["passes"][obs["round"] - 1][obs["seat"]]
            return Pass(tuple(cards))
        if obs.kind == "choose_solution":
            solutions = {int(s): cards for s, cards in dict(hidden.get("solutions", {})).items()}
            return Solution(tuple(obs.get("cards") or solutions[obs["seat"]]))
        return None

    def seat_view(self, info: InformationSet) -> AlibiState:
        """A state agreeing with `info` on all that the seat's own legal actions depend on: the
        public course of the game and the seat's hand and seen cards (other hands stay empty)."""
        me, n = info.seat, self.players
        assert isinstance(me, int)
        seating = next(obs for obs in info.observations if obs.kind == "seating")
        view = AlibiState(self, random.Random(0), [[] for _ in range(n)], (), seating["dealer"])
        view.start = seating["start"]
        hand: set[str] = set()
        sizes: list[int] = []
        answered, chosen, written, over = Counter[int](), set(), set(), False
        for obs in info.observations:
            kind, cards = obs.kind, set(obs.get("cards") or ())
            if kind == "deal" or (kind == "pass" and obs["receiver"] == me):
                hand |= cards
                view._seen[me] |= cards
            elif kind == "pass" and obs["giver"] == me:
                hand -= cards
            elif kind == "hands":
                sizes, view.round = list(obs["sizes"]), obs["round"] + 1
            elif kind == "lay":
                sizes[obs["seat"]] -= 3
                view.laid[obs["seat"]].append(obs["group"])
                view.scores[obs["seat"]] += obs["points"]
                if obs["seat"] == me:
                    hand -= cards
            elif kind == "answer":
                answered[obs["round"]] += 1
            elif kind == "choose_pass":
                chosen.add((obs["round"], obs["seat"]))
            elif kind == "accuse":
                view.accuser, view.accusation = obs["seat"], tuple(obs["cards"])
            elif kind == "choose_solution":
                written.add(obs["seat"])
            over = over or kind == "end"
        view._hands[me] = sorted(hand)
        view.played = answered[view.round]
        view.turn = 1 + sum(answered.values())
        order = view._order_from(view.start)
        limit = self.options["round_limit"]
        if over:
            view.phase = "over"
        elif view.accuser is not None:
            view.phase = "solutions"
            first = view._order_from(view.accuser)[1:]
            view.writers = [s for s in first if s not in written]
        elif view.played >= n and limit is not None and view.round >= limit:
            view.phase = "solutions"
            view.writers = [s for s in order if s not in written]
        elif view.played >= n:  # every seat has asked (a record may count more answers)
            view.phase = "passing"
            view.passers = [
                s for s in order if sizes[s] > view.round and (view.round, s) not in chosen
            ]
        else:
            view.current = order[view.played]
        return view

    # --- notation and words --------------------------------------------------------------
    def _parse_action(self, text: str) -> AlibiAction:
        return parse(text, self.deck, self.players)

    @cached_property
    def _notation(self) -> Notation:
        return Notation(self)

    def _parse_entry(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        assert isinstance(seat, int)
        return self._notation.parse(text, seat, before)

    def _observation_text(self, observation: Observation) -> str:
        return observation_text(observation)

    def _notation_help(self) -> list[tuple[str, str]]:
        return list(HELP)

    def _notation_words(self) -> list[str]:
        return self._notation.words()

    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        deck = self.deck
        card = choice_domain(deck.ids, f"a card id of the {deck.scale} deck")
        four = cards_domain(card, (4,))
        solution = Domain(
            lambda cards: four.accepts(cards) and tuple(deck.by_id[c].type for c in cards) == TYPES,
            f"a tuple of four card ids, one of each type in the order {', '.join(TYPES)}",
        )
        return {
            Lay: {"group": choice_domain(deck.groups, f"a group: {', '.join(deck.groups)}")},
            Ask: {
                "target": choice_domain(self.seats, f"a seat from 0 to {self.players - 1}"),
                "scope": choice_domain(SCOPES),
                "subject": Domain(
                    lambda subject: is_subject(subject, deck),
                    "a Subject of this deck, as parse_subject('type:weapon', deck) gives",
                ),
            },
            Pass: {"cards": cards_domain(card, range(1, len(deck.ids) + 1))},
            Accuse: {"cards": solution},
            Solution: {"cards": solution},
        }

    def describe(self, observation: Observation) -> str:
        kind, get = observation.kind, observation.get
        cards = ", ".join(get("cards") or ())
        if kind == "seating":
            return (
                f"{get('players')} players sit clockwise 0 to {get('players') - 1}; player "
                f"{get('dealer')} dealt and player {get('start')} starts"
            )
        if kind == "deal":
            return f"player {get('seat')} was dealt {cards}"
        if kind == "hands":
            when = "the deal" if get("round") == 0 else f"the passes of round {get('round')}"
            sizes = get("sizes")
            return (
                f"after {when}, players 0 to {len(sizes) - 1} hold "
                f"{', '.join(map(str, sizes[:-1]))} and {sizes[-1]} cards"
            )
        if kind == "lay":
            name = self.deck.group_names[get("group")]
            return (
                f"player {get('seat')} laid the {name} set ({cards}) in round {get('round')} "
                f"for {get('points')} points"
            )
        if kind == "answer":
            subject = parse_subject(get("subject"), self.deck)
            question = question_words(get("scope"), subject, self.deck)
            return (
                f"player {get('target')} answered {get('answer')} to player {get('asker')}'s "
                f"'{question}' in round {get('round')}"
            )
        if kind == "choose_pass":
            which = f": {cards}" if cards else ""
            return (
                f"player {get('seat')} chose the {_cards(get('count'))} to pass after round "
                f"{get('round')}{which}"
            )
        if kind == "pass":
            which = f": {cards}" if cards else ""
            return (
                f"player {get('giver')} passed {_count(get('count'))} to player "
                f"{get('receiver')} after round {get('round')}{which}"
            )
        if kind == "accuse":
            return f"player {get('seat')} accused {cards} in round {get('round')}"
        if kind == "choose_solution":
            return f"player {get('seat')} wrote a solution" + (f": {cards}" if cards else "")
        if kind == "box":
            return f"the box held {cards}"
        if kind == "solution":
            return (
                f"player {get('seat')}'s solution {cards} had {get('correct')} correct cards, "
                f"worth {get('points')} points"
            )
        if kind == "end":
            seats = [str(seat) for seat in get("winners")]
            if len(seats) == 1:
                return f"the game ended ({get('reason')}): player {seats[0]} won"
            together = f"{', '.join(seats[:-1])} and {seats[-1]}"
            return f"the game ended ({get('reason')}): players {together} shared the win"
        return f"{kind}: {dict(observation.fields)}"

    def _arrange_from_dict(
        self, setup: dict[str, JsonValue], rng: random.Random, read: JsonReader
    ) -> AlibiState:
        setup = read.mapping(setup, "setup", ("hands", "box", "dealer"))
        ids = self.deck.ids
        hands = [
            read.choices(hand, f"setup.hands[{seat}]", ids)
            for seat, hand in enumerate(read.array(setup["hands"], "setup.hands", self.players))
        ]
        box = read.choices(setup["box"], "setup.box", ids)
        dealer = read.choice(setup["dealer"], "setup.dealer", self.seats)
        return self._arranged(lambda: self.arrange(rng, hands, box, dealer), read)
