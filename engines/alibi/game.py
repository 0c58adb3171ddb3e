"""Alibi, configured: options, setup (box, deal), notation and the words for observations."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engines.actions import Action, Domain, cards_domain, choice_domain
from engines.alibi import actions as act
from engines.alibi import observations as seen
from engines.alibi.material import SCALES, TYPES, Deck, hand_sizes, load_deck
from engines.alibi.notation import Notation
from engines.alibi.questions import (
    SCOPES,
    Subject,
    is_subject,
    listed_subjects,
    parse_subject,
)
from engines.alibi.state import AlibiState
from engines.deal import Dealer, SeenBy
from engines.errors import (
    ConfigError,
    IllegalAction,
    InvalidAction,
    InvalidInformationSet,
    InvalidState,
)
from engines.game import Game, Metadata, Option, positive_int
from engines.observations import InformationSet, Observation
from engines.state import Setup
from engines.values import JsonReader, JsonValue, Seat, quote


def _seat_number(value: JsonValue) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 6


def _player_count(value: JsonValue) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 3 <= value <= 6


def _bool(value: JsonValue) -> bool:
    """Only True and False: `1 in (False, True)` would let 1 through as True."""
    return isinstance(value, bool)


def deal(cards: Sequence[str], players: int, dealer: int) -> list[list[str]]:
    """Deal `cards` one at a time, clockwise from the dealer's left (card k to seat d+1+k)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for k, card in enumerate(cards):
        hands[(dealer + 1 + k) % players].append(card)
    return hands


class Alibi(Game[AlibiState]):
    """Find the four cards in the box by asking how many cards of a kind others hold or saw."""

    metadata = Metadata(
        name="alibi",
        title="Alibi",
        seats="0..n-1, clockwise (the left of seat s is s + 1)",
        hidden="the box, the other players' hands, and what others passed among themselves",
        version=2,
        max_length="round_limit rounds (default 20)",
    )
    observation_kinds = seen.KINDS
    notation_class = Notation
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
    def _asks(self) -> tuple[tuple[act.Ask, ...], ...]:
        single = self.options["single_card_questions"] == "allowed"
        subjects = listed_subjects(self.deck, single)
        return tuple(
            tuple(
                act.Ask(target, scope, subject)
                for target in range(self.players)
                if target != seat
                for scope in SCOPES
                for subject in subjects
            )
            for seat in range(self.players)
        )

    def listed_asks(self, seat: int) -> tuple[act.Ask, ...]:
        """The questions `legal_actions` lists for `seat` (made once per game)."""
        return self._asks[seat]

    # --- setup ---------------------------------------------------------------------------
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
        keys: list[object] = [act.Lay(group) for group in deck.groups]
        keys += [
            act.Ask(target, scope, subject)
            for target in range(n)
            for scope in SCOPES
            for subject in listed_subjects(deck, single)
        ]
        keys += [
            (block, card) for block in (act.Pass, act.Accuse, act.Solution) for card in deck.ids
        ]
        return {key: i for i, key in enumerate(keys)}, keys

    def _num_distinct_actions(self) -> int:
        return len(self._numbering[1])

    def _action_ids(self, action: Action) -> tuple[int, ...]:
        index = self._numbering[0]
        if isinstance(action, act.Pass | act.Accuse | act.Solution):
            order = self.deck.ids.index
            return tuple(index[(type(action), card)] for card in sorted(action.cards, key=order))
        found = index.get(action)
        if found is None:
            raise InvalidAction(f"alibi: {action} has no id (only listed questions have ids)")
        return (found,)

    def _action_from_ids(self, ids: tuple[int, ...]) -> Action:
        keys = self._numbering[1]
        first = keys[ids[0]]
        if isinstance(first, act.Lay | act.Ask):
            if len(ids) > 1:
                raise InvalidAction(f"alibi: {first} is one id, not {len(ids)}")
            return first
        parts = [keys[i] for i in ids]
        kind = first[0]  # type: ignore[index]
        if not all(isinstance(part, tuple) and part[0] is kind for part in parts):
            raise InvalidAction(f"alibi: the ids {ids} mix kinds of action")
        cards = tuple(part[1] for part in parts)  # type: ignore[index]
        if kind is act.Pass:
            return act.Pass(cards)
        found = act.one_per_type(list(cards), self.deck)
        if found is None:
            raise InvalidAction(f"alibi: the ids {ids} do not spell one card of each type")
        return act.Accuse(found) if kind is act.Accuse else act.Solution(found)

    def choice_text(self, choice: int) -> str:
        key = self._numbering[1][choice]
        if isinstance(key, tuple):
            return f"{key[0].__name__.lower()} {key[1]} (one card of it)"
        return str(key)

    def _action_seen_by(self, action: Action, seat: Seat) -> tuple[Seat, ...] | None:
        """A pass is seen by its giver and receiver; a written solution by its writer."""
        assert isinstance(seat, int)
        if isinstance(action, act.Pass):
            return (seat, (seat + 1) % self.players)
        return (seat,) if isinstance(action, act.Solution) else None

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
            match obs:
                case seen.Hands(sizes=counted):
                    sizes = list(counted)
                case seen.Laid(seat=layer):
                    sizes[layer] -= 3
                case seen.PassedCards(giver=giver, cards=cards) if giver == me:
                    passed |= set(cards)
                case seen.BoxOpened(cards=cards):
                    box = set(cards)
        hand, seen_cards = set(view._hands[me]), view._seen[me]
        laid = {card for groups in view.laid for g in groups for card in deck.of_group(g)}
        out: list[float] = []
        for card in deck.ids:
            out += [float(card in group) for group in (hand, seen_cards, passed, laid, box)]
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
        state._emit(seen.Seating(self.players, dealer, state.start))
        for seat in range(self.players):
            state._emit(seen.Deal(seat, tuple(sorted(hands[seat]))), to=[seat])
        state._emit(seen.Hands(0, tuple(state.hand_sizes)))
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
        seating = next(obs for obs in info.observations if isinstance(obs, seen.Seating))
        try:
            state = self.arrange(random.Random(0), hidden["hands"], hidden["box"], seating.dealer)
            for obs in info.observations:
                replayed = self._replayed(obs, hidden)
                if replayed is not None:
                    actor, action = replayed
                    if state.to_move != actor:
                        raise InvalidState(f"{self.describe(obs)}, out of turn in this guess")
                    state.apply(action)
        except (IllegalAction, KeyError, IndexError, TypeError) as error:
            raise InvalidState(f"the guess contradicts the information set: {error}") from None
        if state.information_set(info.seat) != info:
            raise InvalidState("the guess contradicts something the seat saw")
        return state

    def _replayed(
        self, obs: Observation, hidden: Mapping[str, Any]
    ) -> tuple[int, act.AlibiAction] | None:
        """Who acted and the action an observation records, with hidden choices taken from
        the guess."""
        match obs:
            case seen.Answered(asker=asker, target=target, scope=scope, subject=subject):
                return asker, act.Ask(target, scope, parse_subject(subject, self.deck))
            case seen.Laid(seat=seat, group=group):
                return seat, act.Lay(group)
            case seen.Accused(seat=seat, cards=cards):
                return seat, act.Accuse(tuple(cards))  # type: ignore[arg-type]
            case seen.PassChosen(seat=seat, round=passed_after):
                chosen = obs.cards if isinstance(obs, seen.PassChosenCards) else None
                return seat, act.Pass(tuple(chosen or hidden["passes"][passed_after - 1][seat]))
            case seen.SolutionWritten(seat=seat):
                given = dict(hidden.get("solutions", {}))
                solutions = {int(s): cards for s, cards in given.items()}
                written = obs.cards if isinstance(obs, seen.SolutionWrittenCards) else None
                return seat, act.Solution(tuple(written or solutions[seat]))
        return None

    def seat_view(self, info: InformationSet) -> AlibiState:
        """A state agreeing with `info` on all that the seat's own legal actions depend on: the
        public course of the game and the seat's hand and seen cards (other hands stay empty)."""
        me, n = info.seat, self.players
        assert isinstance(me, int)
        seating = next(obs for obs in info.observations if isinstance(obs, seen.Seating))
        view = AlibiState(self, random.Random(0), [[] for _ in range(n)], (), seating.dealer)
        view.start = seating.start
        hand: set[str] = set()
        sizes: list[int] = []
        answered, chosen, written, over = Counter[int](), set(), set(), False
        for obs in info.observations:
            match obs:
                case seen.Deal(cards=cards):
                    hand.update(cards)
                    view._seen[me].update(cards)
                case seen.PassedCards(receiver=receiver, cards=cards) if receiver == me:
                    hand.update(cards)
                    view._seen[me].update(cards)
                case seen.PassedCards(giver=giver, cards=cards) if giver == me:
                    hand.difference_update(cards)
                case seen.Hands(round=counted_after, sizes=counted):
                    sizes, view.round = list(counted), counted_after + 1
                case seen.Laid(seat=seat, group=group, cards=cards, points=points):
                    sizes[seat] -= 3
                    view.laid[seat].append(group)
                    view.scores[seat] += points
                    if seat == me:
                        hand.difference_update(cards)
                case seen.Answered(round=asked_in):
                    answered[asked_in] += 1
                case seen.PassChosen(seat=seat, round=passed_after):
                    chosen.add((passed_after, seat))
                case seen.Accused(seat=seat, cards=cards):
                    view.accuser, view.accusation = seat, tuple(cards)
                case seen.SolutionWritten(seat=seat):
                    written.add(seat)
                case seen.End():
                    over = True
        view._hands[me] = sorted(hand)
        view.played = answered[view.round]
        view.turn = 1 + sum(answered.values())
        self._set_turn(view, sizes, chosen, written, over)
        return view

    def _set_turn(
        self,
        view: AlibiState,
        sizes: list[int],
        chosen: set[tuple[int, int]],
        written: set[int],
        over: bool,
    ) -> None:
        """The phase of a view and who is to move in it, from the record's hand sizes, the
        passes chosen in each round, the solutions written and whether the game is over."""
        n = self.players
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

    def _move_at(self, info: InformationSet, index: int) -> Action | None:
        """Each move is shown first by an observation naming its seat and what it did; a
        seat sees its own pass and written solution with their cards (others without)."""
        obs, me = info.observations[index], info.seat
        match obs:
            case seen.Laid(seat=seat, group=group) if seat == me:
                return act.Lay(group)
            case seen.Answered(asker=asker, target=target, scope=scope) if asker == me:
                return act.Ask(target, scope, self._subject_asked(obs, index))
            case seen.Accused(seat=seat, cards=cards) if seat == me:
                return act.Accuse(self._one_per_type(cards, index))
            case seen.PassChosenCards(seat=seat, cards=cards) if seat == me:
                return act.Pass(cards)
            case seen.SolutionWrittenCards(seat=seat, cards=cards) if seat == me:
                return act.Solution(self._one_per_type(cards, index))
            case seen.PassChosen(seat=seat) | seen.SolutionWritten(seat=seat) if seat == me:
                raise InvalidInformationSet(
                    f"alibi: observation {index} ({obs.kind}) is seat {me}'s own, so it shows "
                    "the cards, and it does not: the record is not that seat's"
                )
        return None

    def _one_per_type(self, cards: Sequence[str], index: int) -> tuple[str, str, str, str]:
        """The four cards of an accusation or a solution, in type order."""
        found = act.one_per_type(list(cards), self.deck)
        if found is None:
            raise InvalidInformationSet(
                f"alibi: observation {index} names {quote(cards)}, not one card of each type"
            )
        return found

    def _subject_asked(self, obs: seen.Answered, index: int) -> Subject:
        """The subject an answer records (as `str(Subject)` wrote it)."""
        try:
            return parse_subject(str(obs.subject), self.deck)
        except ValueError as error:
            raise InvalidInformationSet(
                f"alibi: observation {index} (answer) asks of no subject: {error}"
            ) from None

    # --- notation and words --------------------------------------------------------------
    def _parse_action(self, text: str) -> act.AlibiAction:
        return act.parse(text, self.deck, self.players)

    def _action_domains(self) -> Mapping[type[Action], Mapping[str, Domain]]:
        deck = self.deck
        card = choice_domain(deck.ids, f"a card id of the {deck.scale} deck")
        four = cards_domain(card, (4,))
        solution = Domain(
            lambda cards: four.accepts(cards) and tuple(deck.by_id[c].type for c in cards) == TYPES,
            f"a tuple of four card ids, one of each type in the order {', '.join(TYPES)}",
        )
        return {
            act.Lay: {"group": choice_domain(deck.groups, f"a group: {', '.join(deck.groups)}")},
            act.Ask: {
                "target": choice_domain(self.seats, f"a seat from 0 to {self.players - 1}"),
                "scope": choice_domain(SCOPES),
                "subject": Domain(
                    lambda subject: is_subject(subject, deck),
                    "a Subject of this deck, as parse_subject('type:weapon', deck) gives",
                ),
            },
            act.Pass: {"cards": cards_domain(card, range(1, len(deck.ids) + 1))},
            act.Accuse: {"cards": solution},
            act.Solution: {"cards": solution},
        }

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
