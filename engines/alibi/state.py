"""The Alibi referee: hands, the box, laid sets, seen cards, and whose decision it is.

A game moves through phases. In "turns" the player to move may lay sets, then asks (which ends
the turn) or accuses. After every round, in "passing", each player whose hand has more cards than
the round number chooses which to pass, in turn order; the passes are applied to everyone at once
after the last choice (a hand of at most r cards passes whole, which is no choice). In the variant
"solutions", an accusation (or the round limit) leads to "solutions", where the other players
write theirs, before the end.

Seats sit clockwise in index order: the left neighbour of seat s is s + 1 (mod n), turns and
passes go left, and the deal starts left of the dealer.

`legal_actions` lists every legal lay, every question about a type, group or detail, every
single-card question (when allowed), and:

- passes: every choice when there are at most `PASSES_LISTED` of them, otherwise the cyclic
  windows of r consecutive cards of the hand in id order (one per card);
- accusations and solutions: over the cards the player has never held and that are not in a laid
  set (per type), every combination when there are at most `ACCUSATIONS_LISTED`, otherwise the
  "diagonal" combinations (the i-th candidate of each type, cycling), so that each candidate card
  is named at least once.

`apply` checks legality structurally, so it accepts every legal action, listed or not: questions
about any list of distinct cards, any pass of the right size from the hand, any accusation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from math import comb, prod
from typing import TYPE_CHECKING, TypeAlias

from engines.actions import Action
from engines.alibi import actions as act
from engines.alibi import observations as seen
from engines.alibi.material import TYPES
from engines.state import LogEntry, State
from engines.values import JsonValue, Seat, is_int, one_of

if TYPE_CHECKING:
    from engines.alibi.game import Alibi

PASSES_LISTED = 2000
ACCUSATIONS_LISTED = 24


def set_points(round_number: int, kind: str) -> int:
    """The points of a set of the card type `kind` laid in `round_number` (rules: 6/7, then
    4/5, then 3)."""
    if round_number >= 3:
        return 3
    first, second = _EARLY_SET_POINTS.get(kind, (7, 5))
    return first if round_number == 1 else second


_EARLY_SET_POINTS = {"suspect": (6, 4)}
"""A set's points in rounds 1 and 2 by card type, where they are not 7 and 5."""


class AlibiState(State):
    """Hidden fields: `_hands`, `_seen`, `_box`, the pending `_chosen` passes and `_solutions`."""

    game: Alibi

    def __init__(
        self,
        game: Alibi,
        rng: random.Random,
        hands: Sequence[Sequence[str]],
        box: Sequence[str],
        dealer: int,
    ) -> None:
        super().__init__(game, rng)
        n = game.players
        self._hands: list[list[str]] = [sorted(hand) for hand in hands]
        self._seen: list[set[str]] = [set(hand) for hand in hands]
        self._box: tuple[str, ...] = tuple(box)  # one card per type, in type order
        self.dealer = dealer
        dealt = sum(len(hand) for hand in hands)
        self.start = (dealer + dealt + 1) % n  # left of the player who got the last card
        self.laid: list[list[str]] = [[] for _ in range(n)]  # groups, in the order laid
        self.scores: list[int] = [0] * n  # set points
        self.round = 1
        self.turn = 1  # the number of the current turn in the whole game
        self.played = 0  # turns completed in this round
        self.current = self.start
        self.phase = "turns"  # turns, passing, solutions, over
        self.passers: list[int] = []  # still to choose their pass, in order
        self._chosen: dict[int, tuple[str, ...]] = {}
        self.accuser: int | None = None
        self.accusation: tuple[str, ...] | None = None
        self.writers: list[int] = []  # still to write a solution, in order
        self._solutions: dict[int, tuple[str, ...]] = {}
        self._winners: tuple[int, ...] = ()

    # --- views ---------------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        if self.phase == "turns":
            return self.current
        if self.phase == "passing":  # a seat's view may be waiting on passes it cannot see
            return self.passers[0] if self.passers else None
        if self.phase == "solutions":
            return self.writers[0] if self.writers else None
        return None

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self._winners

    @property
    def hand_sizes(self) -> list[int]:
        return [len(hand) for hand in self._hands]

    def hand(self, seat: int) -> list[str]:
        """The cards `seat` holds now (the truth; bots and the solver never call this)."""
        return list(self._hands[seat])

    def box(self) -> tuple[str, ...]:
        """The box, one card per type in type order (the truth)."""
        return self._box

    def seen(self, seat: int) -> set[str]:
        """The cards a `seen` question about `seat` counts (the option decides on laid sets)."""
        if self.game.options["seen_includes_sets"]:
            return set(self._seen[seat])
        laid = {card for group in self.laid[seat] for card in self.game.deck.of_group(group)}
        return self._seen[seat] - laid

    def answer(self, target: int, scope: str, cards: Sequence[str]) -> int:
        pool = set(self._hands[target]) if scope == "hand" else self.seen(target)
        return sum(card in pool for card in cards)

    def points(self, seat: Seat) -> int:
        """Set points, plus the written solution's points once the game is over (variant)."""
        assert isinstance(seat, int)
        if self.phase == "over" and self.game.options["end_variant"] == "solutions":
            return self.scores[seat] + self.game.options["solution_points"] * self._correct(seat)
        return self.scores[seat]

    def _correct(self, seat: int) -> int:
        return sum(a == b for a, b in zip(self._solutions[seat], self._box, strict=True))

    def left(self, seat: int) -> int:
        return (seat + 1) % self.game.players

    def _order_from(self, first: int) -> list[int]:
        n = self.game.players
        return [(first + i) % n for i in range(n)]

    def __repr__(self) -> str:
        return (
            f"<AlibiState round={self.round} phase={self.phase} hands={self.hand_sizes} "
            f"scores={self.scores} to_move={self.to_move}>"
        )

    # --- legality ------------------------------------------------------------------------
    def _illegal_reason(self, action: Action) -> str | None:
        """Why `action` breaks the rules now, or None: checked by structure, since passes and
        card-list questions are too many to list."""
        seat, deck = self.to_move, self.game.deck
        assert isinstance(seat, int)
        if self.phase == "passing":
            r = self.round
            if not isinstance(action, act.Pass):
                return f"{action} is not legal now: player {seat} must choose {r} cards to pass"
            if len(action.cards) != r:
                return f"{action} is not legal: after round {r} each player passes {r} cards"
            # Distinct known cards: `Game.check_action` has seen to that.
            missing = [card for card in action.cards if card not in self._hands[seat]]
            if missing:
                return f"{action} is not legal: player {seat} does not hold {missing[0]}"
            return None
        if self.phase == "solutions":
            if not isinstance(action, act.Solution):
                return f"{action} is not legal now: player {seat} must write a solution"
            return None
        if isinstance(action, act.Pass | act.Solution):
            verb = "pass" if isinstance(action, act.Pass) else "write a solution"
            return f"{action} is not legal now: players {verb} only when the game calls for it"
        if isinstance(action, act.Lay):
            if not set(deck.of_group(action.group)) <= set(self._hands[seat]):
                return f"{action} is not legal: player {seat} does not hold all three cards"
            return None
        if isinstance(action, act.Ask):
            return self._why_not_ask(action, seat)
        return None

    def _why_not_ask(self, action: act.Ask, seat: int) -> str | None:
        if action.target == seat:
            return f"{action} is not legal: player {seat} cannot ask themselves"
        subject = action.subject
        cards = subject.cards(self.game.deck)
        if len(cards) == 1 and self.game.options["single_card_questions"] == "forbidden":
            return f"{action} is not legal: single-card questions are forbidden in this game"
        return None

    def _legal_actions(self) -> list[Action]:
        seat = self.to_move
        assert isinstance(seat, int)
        if self.phase == "passing":
            return list(self._listed_passes(seat))
        if self.phase == "solutions":
            return [act.Solution(cards) for cards in self._listed_solutions(seat)]
        hand = set(self._hands[seat])
        deck = self.game.deck
        actions: list[Action] = [
            act.Lay(group) for group in deck.groups if set(deck.of_group(group)) <= hand
        ]
        actions += self.game.listed_asks(seat)
        actions += [act.Accuse(cards) for cards in self._listed_solutions(seat)]
        return actions

    def _listed_passes(self, seat: int) -> Iterator[act.Pass]:
        hand, r = self._hands[seat], self.round
        if comb(len(hand), r) <= PASSES_LISTED:
            yield from (act.Pass(cards) for cards in combinations(hand, r))
        else:
            yield from (act.Pass(tuple((hand * 2)[i : i + r])) for i in range(len(hand)))

    def _listed_solutions(self, seat: int) -> list[tuple[str, str, str, str]]:
        """Accusations or solutions to list: see the module docstring."""
        deck = self.game.deck
        laid = {card for groups in self.laid for group in groups for card in deck.of_group(group)}
        known = self._seen[seat] | laid
        candidates = [[c for c in deck.of_type(kind) if c not in known] for kind in TYPES]
        if prod(len(c) for c in candidates) <= ACCUSATIONS_LISTED:
            chosen = list(product(*candidates))
        else:
            width = max(len(c) for c in candidates)
            chosen = [tuple(c[i % len(c)] for c in candidates) for i in range(width)]
        return [(s, p, w, f) for s, p, w, f in chosen]

    # --- applying ------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        seat = self.to_move
        assert isinstance(seat, int)
        if isinstance(action, act.Lay):
            self._lay(seat, action.group)
        elif isinstance(action, act.Ask):
            self._ask(seat, action)
        elif isinstance(action, act.Accuse):
            self._accuse(seat, action.cards)
        elif isinstance(action, act.Pass):
            self._choose_pass(seat, action.cards)
        elif isinstance(action, act.Solution):
            self._write(seat, action.cards)

    def _lay(self, seat: int, group: str) -> None:
        deck = self.game.deck
        cards = deck.of_group(group)
        self._hands[seat] = [card for card in self._hands[seat] if card not in cards]
        points = set_points(self.round, deck.type_of_group(group))
        self.laid[seat].append(group)
        self.scores[seat] += points
        self._emit(seen.Laid(seat, group, cards, points, self.round, self.turn))

    def _ask(self, seat: int, action: act.Ask) -> None:
        cards = action.subject.cards(self.game.deck)
        answer = self.answer(action.target, action.scope, cards)
        self._emit(
            seen.Answered(
                seat,
                action.target,
                action.scope,
                str(action.subject),
                cards,
                answer,
                self.round,
                self.turn,
            )
        )
        self._end_turn()

    def _accuse(self, seat: int, cards: tuple[str, ...]) -> None:
        self.accuser, self.accusation = seat, cards
        self._emit(seen.Accused(seat, cards, self.round, self.turn))
        if self.game.options["end_variant"] == "solutions":
            self._solutions[seat] = cards
            self._start_solutions([s for s in self._order_from(seat) if s != seat])
        else:
            self._finish("accusation")

    def _end_turn(self) -> None:
        self.played += 1
        self.turn += 1
        self.current = self.left(self.current)
        if self.played < self.game.players:
            return
        limit = self.game.options["round_limit"]
        if limit is not None and self.round >= limit:
            if self.game.options["end_variant"] == "solutions":
                self._start_solutions(self._order_from(self.start))
            else:
                self._finish("round limit")
            return
        self.phase = "passing"
        self.passers = [s for s in self._order_from(self.start) if len(self._hands[s]) > self.round]
        if not self.passers:
            self._do_passes()

    def _choose_pass(self, seat: int, cards: tuple[str, ...]) -> None:
        self._chosen[seat] = cards
        self._emit(seen.PassChosenCards(seat, self.round, len(cards), cards), to=[seat])
        others = [s for s in self.game.seats if s != seat]
        self._emit(seen.PassChosen(seat, self.round, len(cards)), to=others)
        self.passers.pop(0)
        if not self.passers:
            self._do_passes()

    def _do_passes(self) -> None:
        """Everyone passes left at once: chosen cards, or the whole of a short hand."""
        r = self.round
        given = [self._chosen.get(s, tuple(self._hands[s])) for s in range(self.game.players)]
        for seat, cards in enumerate(given):
            self._hands[seat] = [card for card in self._hands[seat] if card not in cards]
        for seat, cards in enumerate(given):
            receiver = self.left(seat)
            self._hands[receiver] = sorted(self._hands[receiver] + list(cards))
            self._seen[receiver].update(cards)
            if not cards:
                continue
            pair = [seat, receiver]
            self._emit(seen.PassedCards(seat, receiver, r, len(cards), cards), to=pair)
            others = [s for s in self.game.seats if s not in pair]
            if others:
                self._emit(seen.Passed(seat, receiver, r, len(cards)), to=others)
        self._emit(seen.Hands(r, tuple(self.hand_sizes)))
        self._chosen = {}
        self.round += 1
        self.played = 0
        self.current = self.start
        self.phase = "turns"

    def _start_solutions(self, writers: list[int]) -> None:
        self.phase = "solutions"
        self.writers = writers

    def _write(self, seat: int, cards: tuple[str, ...]) -> None:
        self._solutions[seat] = cards
        self._emit(seen.SolutionWrittenCards(seat, cards), to=[seat])
        others = [s for s in self.game.seats if s != seat]
        self._emit(seen.SolutionWritten(seat), to=others)
        self.writers.pop(0)
        if not self.writers:
            self._finish("accusation" if self.accuser is not None else "round limit")

    def _finish(self, reason: str) -> None:
        """Open the box and name the winners (rules: "Accusation and end")."""
        self.phase = "over"
        self._emit(seen.BoxOpened(self._box))
        seats = list(range(self.game.players))
        totals = [self.points(seat) for seat in seats]
        if self.game.options["end_variant"] == "solutions":
            for seat in seats:
                correct, points = self._correct(seat), totals[seat] - self.scores[seat]
                self._emit(seen.SolutionShown(seat, self._solutions[seat], correct, points))
        right = self.accusation == self._box and self.accuser is not None
        if self.game.options["end_variant"] == "first-accuser" and right:
            assert self.accuser is not None
            self._winners = (self.accuser,)
        else:
            eligible = seats
            wrong = self.accuser is not None and self.game.options["end_variant"] == "first-accuser"
            if wrong and not self.game.options["wrong_accuser_can_win"]:
                eligible = [seat for seat in seats if seat != self.accuser]
            best = max(totals[seat] for seat in eligible)
            self._winners = tuple(seat for seat in eligible if totals[seat] == best)
        self._emit(seen.End(reason, self._winners, tuple(self.scores), tuple(totals)))

    def summary(self, seat: Seat) -> dict[str, object]:
        """The seat's accusation, if it made one: in which round, and whether it was right."""
        if self.accuser != seat:
            return {}
        return {"accused_in_round": self.round, "accused_right": self.accusation == self._box}

    # --- cloning, JSON ---------------------------------------------------------------------

    def _to_dict(self) -> dict[str, JsonValue]:
        return {
            "hands": self._hands,
            "seen": [sorted(cards) for cards in self._seen],
            "box": list(self._box),
            "dealer": self.dealer,
            "start": self.start,
            "laid": self.laid,
            "scores": self.scores,
            "round": self.round,
            "turn": self.turn,
            "played": self.played,
            "current": self.current,
            "phase": self.phase,
            "passers": self.passers,
            "chosen": sorted([seat, list(cards)] for seat, cards in self._chosen.items()),
            "accuser": self.accuser,
            "accusation": None if self.accusation is None else list(self.accusation),
            "writers": self.writers,
            "solutions": sorted([seat, list(cards)] for seat, cards in self._solutions.items()),
            "winners": list(self._winners),
        }

    # --- invariants ------------------------------------------------------------------------
    def _broken_invariants(self) -> list[str]:
        broken = self._broken_cards() + self._broken_course()
        sizes, points, answers = self._summarise_log(self._tally, self._nothing_recorded())
        if sizes is None or list(sizes) != self.hand_sizes:
            broken.append(f"the hand sizes {self.hand_sizes} are not those recorded, {sizes}")
        if list(points) != self.scores:
            broken.append(f"the set scores {self.scores} are not those recorded, {list(points)}")
        if answers + 1 != self.turn:
            broken.append(f"turn {self.turn} does not follow the {answers} questions answered")
        return broken

    def _broken_cards(self) -> list[str]:
        """Every card in exactly one place; nobody has seen a card of the box."""
        deck, broken = self.game.deck, []
        laid = [card for groups in self.laid for g in groups for card in deck.of_group(g)]
        places = [card for hand in self._hands for card in hand] + laid + list(self._box)
        if len(places) != len(deck.ids) or set(places) != set(deck.ids):
            broken.append("every card is in a hand, a laid set or the box, exactly once")
        if tuple(deck.by_id[card].type for card in self._box) != TYPES:
            broken.append(f"the box holds one card of each type, in the order {TYPES}")
        box = set(self._box)
        for seat, hand in enumerate(self._hands):
            if hand != sorted(hand) or not self._seen[seat].issuperset(hand):
                broken.append(f"player {seat}'s hand is sorted and seen by them")
            if self._seen[seat] & box:
                broken.append(f"player {seat} has seen a card of the box")
        for seat, cards in self._chosen.items():
            if seat not in self.passers and set(cards) <= set(self._hands[seat]):
                continue
            broken.append(f"player {seat} chose to pass cards of their hand, once")
        return broken

    def _broken_course(self) -> list[str]:
        """The round, the turn and whose decision it is, phase by phase."""
        options, n, broken = self.game.options, self.game.players, []
        phase, limit = self.phase, options["round_limit"]
        dealt = len(self.game.deck.ids) - len(TYPES)
        if self.start != (self.dealer + dealt + 1) % n:
            broken.append("the player left of the last card dealt starts")
        if limit is not None and self.round > limit:
            broken.append(f"the game ends after round {limit}")
        if self.turn != (self.round - 1) * n + self.played + 1:
            broken.append(f"turn {self.turn} is not turn {self.played + 1} of round {self.round}")
        if phase == "turns" and (
            self.played >= n or self.current != (self.start + self.played) % n
        ):
            broken.append("turns go left from the starting player, once each per round")
        if phase != "passing" and (self.passers or self._chosen):
            broken.append("cards are chosen to pass only after a round")
        if phase == "passing":
            order = self._order_from(self.start)
            due = [s for s in order if len(self._hands[s]) > self.round and s not in self._chosen]
            if self.played != n or self.passers != due:
                broken.append("after the round each long hand chooses its pass, in turn order")
        if (self.accuser is None) != (self.accusation is None):
            broken.append("an accusation has an accuser")
        if phase in ("turns", "passing") and self.accuser is not None:
            broken.append("an accusation ends the turns")
        broken += self._broken_solutions()
        return broken

    def _broken_solutions(self) -> list[str]:
        """Written solutions exist only in their variant, one per seat by the end."""
        variant = self.game.options["end_variant"] == "solutions"
        seats, broken = set(self.game.seats), []
        if not variant and (self._solutions or self.writers):
            broken.append("solutions are written only in the variant 'solutions'")
        if self.phase != "solutions" and self.writers:
            broken.append("players write solutions only in the solutions phase")
        if set(self.writers) & set(self._solutions):
            broken.append("each player writes one solution")
        if variant and self.phase == "over" and set(self._solutions) != seats:
            broken.append("at the end every player has written a solution")
        if (
            self.accuser is not None
            and variant
            and self._solutions.get(self.accuser) != self.accusation
        ):
            broken.append("the accuser's accusation is his solution")
        return broken

    def _nothing_recorded(self) -> Tally:
        return None, (0,) * self.game.players, 0

    def _tally(self, tally: Tally, entry: LogEntry) -> Tally:
        """Hand sizes since the last public count, set points and questions, recorded."""
        sizes, points, answers = tally
        obs, to = entry
        n = self.game.players
        if to is not None:
            return tally
        match obs:
            case seen.Hands(sizes=recorded):
                valid = isinstance(recorded, tuple) and len(recorded) == n
                return (recorded if valid else None), points, answers
            case seen.Answered():
                return sizes, points, answers + 1
            case seen.Laid(seat=seat, points=gained) if one_of(seat, range(n)) and is_int(gained):
                scores = tuple(p + gained * (s == seat) for s, p in enumerate(points))
                if sizes is not None:
                    sizes = tuple(size - 3 * (s == seat) for s, size in enumerate(sizes))
                return sizes, scores, answers
        return tally


Tally: TypeAlias = tuple[tuple[int, ...] | None, tuple[int, ...], int]
