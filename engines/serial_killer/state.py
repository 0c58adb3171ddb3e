"""The state of a game of Serial Killer and its rules (rules/serial_killer.md §3-§6).

Hidden fields: `_decks` (order and identity of undrawn cards; the last card of each is the
profile), `_hands`, the identity of each lab card, and sealed declarations. Everything else
is public and printed in the observations.

Chance (the 15 dice, relocation, pollution, declaration dice) is drawn by `_dice`,
`_total` and `_relocation` through `State._chance_draw`: from the state's RNG, or as chance
nodes when chance is explicit (the declaration dice are one node, their sum); a view rebuilt
from an information set replays the outcomes its observations recorded instead (`_script`),
so one set of rules serves both.

Listed actions: every buy and pass, every discard; declarations over the cards the player
has never seen, every combination when there are at most `DECLARATIONS_LISTED`, otherwise
the "diagonal" ones (the i-th candidate of each genre, cycling). `apply` accepts every legal
declaration, listed or not.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, product
from math import prod
from typing import TYPE_CHECKING

from engines.actions import Action
from engines.errors import IllegalAction
from engines.serial_killer import actions as act
from engines.serial_killer import observations as seen
from engines.serial_killer.material import CENTRAL_PARK
from engines.state import State
from engines.values import JsonValue, Seat

if TYPE_CHECKING:
    from engines.serial_killer.game import SerialKiller

DICE = 15
FACES = 6
HAND_LIMIT = 4
WEAPON_MAX = 10
DISTRICTS = tuple(range(1, 8))
FACE_OUTCOMES = tuple(range(1, FACES + 1))
DECLARATIONS_LISTED = 64
LAB_CHOICES_LISTED = 64
"""Subsets of rotated lab positions listed one by one; past it, the empty set, each single
position and all of them (every subset is still legal)."""


@functools.lru_cache(maxsize=256)
def dice_totals(n: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Each possible sum of `n` six-sided dice with its probability (exact counts / 6**n)."""
    ways = [1]
    for _ in range(n):
        ways = [sum(ways[max(0, t - FACES) : t]) for t in range(1, len(ways) + FACES)]
    return tuple(range(n, n + len(ways))), tuple(w / FACES**n for w in ways)


class ChanceExhausted(Exception):
    """A view replaying a record ran out of recorded chance outcomes: the record stops
    before the game rolled (`what`)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(frozen=True)
class Recorded:
    """A chance outcome a view replays, with the observation that recorded it: `dice` dice
    (`outcome` their faces) or a relocation (`dice` None, `outcome` the district alone)."""

    source: str
    dice: int | None
    outcome: tuple[int, ...]

    @property
    def what(self) -> str:
        return "a relocation" if self.dice is None else f"{self.dice} dice"


class SerialKillerState(State):
    game: SerialKiller
    may_end_unwon = True  # the killer wins when no declaration is right

    def __init__(
        self,
        game: SerialKiller,
        rng: random.Random,
        decks: dict[str, list[str]],
        districts: dict[str, int],
        first_player: int,
    ) -> None:
        super().__init__(game, rng)
        n = game.players
        self._decks = {genre: list(cards) for genre, cards in decks.items()}
        self.deck_district = dict(districts)  # genre -> district (public)
        self.deck_at = {d: g for g, d in districts.items()}
        self.points_left = [game.options["start_points"]] * n
        self.pawn: list[int | None] = [None] * n
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._seen: list[set[str]] = [set() for _ in range(n)]  # cards each seat has seen
        self.hand_genres: list[list[str]] = [[] for _ in range(n)]  # public
        self.caught = [False] * n
        self.crossed = [False] * n  # F has reached the player at some R5 (crossing mode)
        self._declarations: list[tuple[str, ...] | None] = [None] * n
        self.seq: list[int | None] = [None] * n
        self.locked = [False] * n
        self._lab: list[str] = []
        self.lab_genres: list[str] = []
        self.lab_owner: list[int] = []
        self.rotated: list[bool] = []
        self.ferocity = game.options["start_ferocity"]
        self.weapon = 0
        self.first_player = first_player
        self.round = 0
        self.seq_counter = 0
        self.final_round = False
        self.pool = [0] * FACES  # unbought dice per face 1..6
        self.passed = [False] * n
        self.bought = [False] * n
        self.fp_claim: int | None = None
        self.phase = "place"  # place, buy, discard, declare, over
        self.current = first_player
        self.pick_buys = 0  # dice bought in the current pick
        self.queue: list[int] = []  # pawns still to place, or declarers still to decide
        self.end_reason = ""
        self._winners: tuple[int, ...] = ()
        self._script: list[Recorded] | None = None  # a view's recorded chance outcomes
        self.waiting_for = ""  # a view whose record stops before a chance outcome: which
        self.queue = self.order()

    # --- chance ---------------------------------------------------------------------------
    def _dice(self, n: int, what: str = "the dice") -> list[int]:
        """`n` dice, each a chance node (`State._chance_draw`: the RNG's `randint(1, 6)`)."""
        if self._script is not None:
            return list(self._recorded(what, n).outcome)
        return [int(self._chance_draw(FACE_OUTCOMES)) for _ in range(n)]

    def _total(self, n: int) -> int:
        """The sum of `n` declaration dice, one chance node (nobody sees the faces)."""
        if self._script is not None:
            return sum(self._dice(n, "the declaration dice"))
        outcomes, weights = dice_totals(n)

        def roll(rng: random.Random) -> int:
            return sum(rng.randint(1, FACES) for _ in range(n))

        return int(self._chance_draw(outcomes, weights=weights, sample=roll))

    def _recorded(self, what: str, dice: int | None) -> Recorded:
        """A view's next recorded chance outcome, which must be what the rules roll now:
        `dice` dice, or a relocation (None).

        Raises:
            ChanceExhausted: the record stops before this roll.
            IllegalAction: the record shows another roll here.
        """
        assert self._script is not None
        if not self._script:
            raise ChanceExhausted(what)
        recorded: Recorded = self._script.pop(0)
        if recorded.dice != dice:
            rolled = "a relocation" if dice is None else f"{dice} dice"
            raise IllegalAction(
                f"the rules roll {what} here ({rolled}); {recorded.source} records {recorded.what}"
            )
        return recorded

    def _relocation(self) -> int:
        """A relocation die: Central Park with probability `central_park_prob`, else 1-6."""
        if self._script is not None:
            (district,) = self._recorded("a relocation", None).outcome
            return district
        p = self.game.options["central_park_prob"]

        def relocate(rng: random.Random) -> int:
            return CENTRAL_PARK if rng.random() < p else rng.randint(1, 6)

        weights = [(1 - p) / 6 if d != CENTRAL_PARK else p for d in DISTRICTS]
        return int(self._chance_draw(DISTRICTS, weights=weights, sample=relocate))

    # --- views ------------------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        return None if self.phase == "over" else self.current

    @property
    def winners(self) -> tuple[Seat, ...]:
        return self._winners

    def order(self) -> list[int]:
        """Seats in turn order from the first player."""
        n = self.game.players
        return [(self.first_player + k) % n for k in range(n)]

    def deck_size(self, genre: str) -> int:
        return len(self._decks[genre])

    def cards_left(self) -> int:
        """Drawable cards left in all decks (each deck's bottom card is never drawn); with
        the default end trigger the final round begins when it reaches 0 (§6)."""
        return sum(len(deck) - 1 for deck in self._decks.values())

    def deck(self, genre: str) -> list[str]:
        """The cards of `genre`'s deck, top first, its undrawable bottom card last (the
        truth)."""
        return list(self._decks[genre])

    def hand(self, seat: int) -> list[str]:
        """The cards `seat` holds (the truth; bots and the solver never call this)."""
        return list(self._hands[seat])

    def profile(self) -> tuple[str, ...]:
        """The killer's profile: the bottom card of every deck, in genre order (the truth)."""
        return tuple(self._decks[genre][-1] for genre in self.game.parts.genre_ids)

    def lab_cards(self) -> list[str]:
        return list(self._lab)

    def declaration(self, seat: int) -> tuple[str, ...] | None:
        return self._declarations[seat]

    def points(self, seat: Seat) -> float:
        assert isinstance(seat, int)
        return float(self.points_left[seat])

    def summary(self, seat: Seat) -> dict[str, object]:
        assert isinstance(seat, int)
        found: dict[str, object] = {"declared": self.seq[seat] is not None}
        if self.phase == "over" and self._declarations[seat] is not None:
            found["correct"] = self._declarations[seat] == self.profile()
        found["killer_won"] = self.phase == "over" and not self._winners
        found["nobody_reached"] = self.end_reason == "nobody can reach the ferocity"
        found["rounds"] = self.round
        return found

    def dice_for(self, seat: int) -> int:
        """How many dice `seat` rolls to declare now."""
        options = self.game.options
        return options["declare_base"] + self.points_left[seat] // options["points_per_die"]

    def can_reach(self, seat: int) -> bool:
        """Whether `seat`'s best roll could still reach ferocity (§6, collective loss)."""
        return FACES * self.dice_for(seat) >= self.ferocity

    def crowded(self) -> list[int]:
        counts = Counter(d for d in self.pawn if d is not None)
        return sorted(d for d, k in counts.items() if k >= 2)

    def __repr__(self) -> str:
        return (
            f"<SerialKillerState round={self.round} phase={self.phase} F={self.ferocity} "
            f"W={self.weapon} P={self.points_left} to_move={self.to_move}>"
        )

    # --- costs and legality -----------------------------------------------------------------
    def cost(self, seat: int, action: Action) -> int:
        """What `action` costs `seat` now (§4 Cost)."""
        options = self.game.options
        face = act.face_of(action)
        assert face is not None
        if options["cost_model"] == "face":
            cost = face
        else:
            cost = 1 + (face - 3 if isinstance(action, act.Investigate) else 0)
        if self.caught[seat]:
            cost += options["surcharge"]
        if isinstance(action, act.Lab):
            cost += options["pollution_cost"] * len(action.positions)
        return cost

    def may_declare_now(self, seat: int) -> bool:
        """Eligibility (§6): W at 10, not declared, not locked out, bought nothing this round
        (waived in the final round unless the option enforces it)."""
        if self.weapon < WEAPON_MAX or self.seq[seat] is not None or self.locked[seat]:
            return False
        waived = self.final_round and not self.game.options["final_round_requires_no_purchase"]
        return waived or not self.bought[seat]

    def _buy_problem(self, seat: int, action: Action) -> str | None:
        """Why `seat` may not buy `action` now, or None when it may."""
        face = act.face_of(action)
        assert face is not None
        if self.pool[face - 1] == 0:
            return f"no {face} is left in the pool"
        problem = self._bought_action_problem(seat, action, face)
        if problem is not None:
            return problem
        if self.points_left[seat] < self.cost(seat, action):
            return f"it costs {self.cost(seat, action)} and you have {self.points_left[seat]}"
        return None

    def _bought_action_problem(self, seat: int, action: Action, face: int) -> str | None:
        """Why the action bought with a die of `face` may not be taken now, whatever it
        costs, or None when it may."""
        if isinstance(action, act.Investigate):
            return self._investigate_problem(seat, face)
        if isinstance(action, act.Weapon):
            if self.weapon >= WEAPON_MAX and not self.game.options["allow_dead_buys"]:
                return "the weapon track is at 10; the option forbids buys with no effect"
        elif isinstance(action, act.Move):
            if action.district == self.pawn[seat]:
                return f"your pawn is already in district {action.district}"
        elif isinstance(action, act.Briefing):
            return self._briefing_problem(seat, action)
        elif isinstance(action, act.Lab):
            return self._lab_problem(action)
        return None

    def _investigate_problem(self, seat: int, face: int) -> str | None:
        """Why `seat` may not investigate with a die of `face`: only a 3 unless substitution
        allows it, and only from a deck in its district with a drawable card."""
        options = self.game.options
        if face > 3 and not (options["substitution"] == "always" or self.pool[2] == 0):
            return f"a {face} may stand in for Investigate only when no 3 is left"
        genre = self.deck_at.get(self.pawn[seat] or 0)
        if genre is None:
            return "there is no deck in your district"
        if len(self._decks[genre]) < 2:
            return f"the {genre} deck in your district has only its undrawable card left"
        return None

    def _briefing_problem(self, seat: int, action: act.Briefing) -> str | None:
        """Why `seat` may not take the briefing: it must name no target when it shows every
        co-located hand (and some pawn must share the district), else a co-located player."""
        others = self.colocated(seat)
        if self.game.options["briefing_scope"] == "all":
            if action.target is not None:
                return "a briefing shows every co-located hand: buy 4 briefing, no target"
            if not others:
                return "no other pawn is in your district"
        elif action.target is None:
            return "a briefing names the player whose hand you see"
        elif action.target not in others:
            return f"player {action.target} is not in your district"
        return None

    def _lab_problem(self, action: act.Lab) -> str | None:
        """Why the lab positions may not be paid for: the lab is empty, a position is not
        rotated, or (lab_view all-or-nothing) some but not all rotated positions are named."""
        if not self._lab:
            return "the lab is empty"
        rotated = {p + 1 for p, turned in enumerate(self.rotated) if turned}
        if not set(action.positions) <= rotated:
            return f"only rotated positions are paid for; rotated now: {sorted(rotated)}"
        if (
            self.game.options["lab_view"] == "all-or-nothing"
            and action.positions
            and (set(action.positions) != rotated)
        ):
            return "the option lets you pay for all rotated positions or none"
        return None

    def colocated(self, seat: int) -> list[int]:
        """The other players whose pawns share `seat`'s district (those it may brief)."""
        here = self.pawn[seat]
        return [j for j, d in enumerate(self.pawn) if j != seat and d == here]

    def _buys(self, seat: int) -> list[Action]:
        options = self.game.options
        candidates: list[Action] = [act.Weapon()]
        candidates += [act.Move(d) for d in DISTRICTS]
        candidates += [act.Investigate(face) for face in range(3, 7)]
        if options["briefing_scope"] == "all":
            candidates.append(act.Briefing(None))
        else:
            candidates += [act.Briefing(j) for j in range(self.game.players) if j != seat]
        candidates.append(act.First())
        if self._lab:
            candidates += [act.Lab(s) for s in self._lab_choices()]
        return [a for a in candidates if self._buy_problem(seat, a) is None]

    def _lab_choices(self) -> list[tuple[int, ...]]:
        rotated = [p + 1 for p, turned in enumerate(self.rotated) if turned]
        if self.game.options["lab_view"] == "all-or-nothing":
            return [()] + ([tuple(rotated)] if rotated else [])
        if 2 ** len(rotated) <= LAB_CHOICES_LISTED:
            return [c for r in range(len(rotated) + 1) for c in combinations(rotated, r)]
        return [(), *((p,) for p in rotated), tuple(rotated)]

    def _legal_actions(self) -> list[Action]:
        seat = self.current
        if self.phase == "place":
            return [act.Place(d) for d in DISTRICTS]
        if self.phase == "discard":
            return [act.Discard(card) for card in sorted(self._hands[seat])]
        if self.phase == "declare":
            declares: list[Action] = [act.Declare(p) for p in self._listed_profiles(seat)]
            return declares if self._must_attempt(seat) else [act.Skip(), *declares]
        actions: list[Action] = [act.End() if self.pick_buys else act.Pass()]
        if self.pick_buys:
            actions.append(act.Pass())
        actions += self._buys(seat)
        if self._may_declare_at_pick(seat):
            actions += [act.Declare(p) for p in self._listed_profiles(seat)]
        return actions

    def _may_declare_at_pick(self, seat: int) -> bool:
        return (
            self.game.options["declare_timing"] == "pick"
            and not self.pick_buys
            and self.may_declare_now(seat)
        )

    def _must_attempt(self, seat: int) -> bool:
        return self.final_round

    def seen_by(self, seat: int) -> set[str]:
        """Every card `seat` has seen (drawn, briefed, viewed in the lab)."""
        return set(self._seen[seat])

    def _listed_profiles(self, seat: int) -> list[tuple[str, ...]]:
        seen_cards = self._seen[seat]
        candidates = [
            [c for c in genre.cards if c not in seen_cards] or list(genre.cards)
            for genre in self.game.parts.genres
        ]
        if prod(len(c) for c in candidates) <= DECLARATIONS_LISTED:
            return [tuple(p) for p in product(*candidates)]
        width = max(len(c) for c in candidates)
        return [tuple(c[i % len(c)] for c in candidates) for i in range(width)]

    def _illegal_reason(self, action: Action) -> str | None:
        seat = self.current
        phase = self.phase
        if phase == "place":
            return (
                None if isinstance(action, act.Place) else f"{action} is not legal: place your pawn"
            )
        if phase == "discard":
            if not isinstance(action, act.Discard):
                return f"{action} is not legal: your hand holds 5 cards, discard one of them"
            if action.card not in self._hands[seat]:
                return f"{action} is not legal: you do not hold {action.card}"
            return None
        if phase == "declare":
            if isinstance(action, act.Declare):
                return None
            if isinstance(action, act.Skip) and not self._must_attempt(seat):
                return None
            return f"{action} is not legal: declare a profile" + (
                "" if self._must_attempt(seat) else " or skip"
            )
        if isinstance(action, act.Pass):
            return None
        if isinstance(action, act.End):
            return None if self.pick_buys else "end is not legal: you have bought nothing yet"
        if isinstance(action, act.Declare):
            if self._may_declare_at_pick(seat):
                return None
            return f"{action} is not legal now: declarations are not possible at this pick"
        if isinstance(action, act.Place | act.Discard | act.Skip):
            return f"{action} is not legal now: it is your pick (buy a die or pass)"
        problem = self._buy_problem(seat, action)
        return None if problem is None else f"{action} is not legal: {problem}"

    # --- applying ---------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        seat = self.current
        if isinstance(action, act.Place):
            self._place(seat, action.district)
        elif isinstance(action, act.Discard):
            self._discard(seat, action.card)
        elif isinstance(action, act.Declare | act.Skip) and self.phase == "declare":
            if isinstance(action, act.Declare):
                self._attempt(seat, action.profile)
            else:
                self._emit(seen.Skipped(seat))
            self._next_declarer()
        elif isinstance(action, act.Declare):  # at a pick (option declare_timing "pick")
            self._attempt(seat, action.profile)
            self._pass(seat, silent=True)
        elif isinstance(action, act.Pass):
            self._pass(seat)
        elif isinstance(action, act.End):
            self._end_pick()
        else:
            self._buy(seat, action)

    def _place(self, seat: int, district: int) -> None:
        self.pawn[seat] = district
        self._emit(seen.Placed(seat, district))
        self.queue.pop(0)
        self._queue_moves(or_else=self._start_round)

    def _queue_moves(self, or_else: Callable[[], None]) -> None:
        """The first seat of `queue` (pawns to place, declarers to decide) moves; with the
        queue empty, `or_else` follows."""
        if self.queue:
            self.current = self.queue[0]
        else:
            or_else()

    def _start_round(self) -> None:
        options = self.game.options
        self.round += 1
        faces = self._dice(DICE, "the roll")
        self.pool = [faces.count(f) for f in range(1, FACES + 1)]
        bonus = options["uniform_roll_bonus"] if max(self.pool) == DICE else 0
        self.ferocity += bonus
        self._emit(seen.Roll(self.round, tuple(self.pool), bonus))
        low = any(k <= options["sopralluogo_low"] for k in self.pool)
        high = any(k > options["sopralluogo_high"] for k in self.pool)
        both = options["sopralluogo_trigger"] == "both"
        if (low and high) if both else (low or high):
            for seat in self.order():
                self.pawn[seat] = district = self._relocation()
                self._emit(seen.Relocated(seat, district))
        n = self.game.players
        self.passed, self.bought, self.fp_claim = [False] * n, [False] * n, None
        self.phase, self.pick_buys = "buy", 0
        for seat in range(n):  # declared players pass for good (§4 R3)
            if self.seq[seat] is not None and not options["declared_players_act"]:
                self.passed[seat] = True
        self.current = self.first_player
        if self.passed[self.current]:
            self._advance()

    def _advance(self) -> None:
        """The next pick: the next player in seat order who has not passed."""
        n = self.game.players
        self.pick_buys = 0
        for step in range(1, n + 1):
            seat = (self.current + step) % n
            if not self.passed[seat]:
                self.current = seat
                return
        self._declaration_step()

    def _pass(self, seat: int, silent: bool = False) -> None:
        self.passed[seat] = True
        if not silent:
            self._emit(seen.Passed(seat))
        self._advance()

    def _end_pick(self) -> None:
        self._emit(seen.PickEnded(self.current))
        self._advance()

    def _buy(self, seat: int, action: Action) -> None:
        face = act.face_of(action)
        assert face is not None
        cost = self.cost(seat, action)
        self.pool[face - 1] -= 1
        self.points_left[seat] -= cost
        self.bought[seat] = True
        self.pick_buys += 1
        base = (seat, face, type(action).__name__.lower(), cost, self.points_left[seat])
        bought: seen.Buy
        private: list[seen.SeeHand | seen.SeeLab] = []
        if isinstance(action, act.Weapon):
            self.weapon = min(self.weapon + 1, WEAPON_MAX)
            bought = seen.BuyWeapon(*base, self.weapon)
        elif isinstance(action, act.Move):
            self.pawn[seat] = action.district
            bought = seen.BuyMove(*base, action.district)
        elif isinstance(action, act.First):
            self.fp_claim = seat
            if self.game.options["first_player_timing"] == "immediate":
                self.first_player = seat
            bought = seen.Buy(*base)
        elif isinstance(action, act.Briefing):
            targets = [action.target] if action.target is not None else self.colocated(seat)
            bought = seen.BuyBriefing(*base, tuple(targets))
            for target in targets:
                self._seen[seat].update(self._hands[target])
                private.append(seen.SeeHand(seat, target, tuple(sorted(self._hands[target]))))
        elif isinstance(action, act.Lab):
            shown = [p + 1 for p, turned in enumerate(self.rotated) if not turned]
            viewed = sorted({*shown, *action.positions})
            bought = seen.BuyLab(*base, tuple(viewed))
            self._seen[seat].update(self._lab[p - 1] for p in viewed)
            private.append(seen.SeeLab(seat, tuple((p, self._lab[p - 1]) for p in viewed)))
        else:  # Investigate: the draw follows
            bought = seen.Buy(*base)
        self._emit(bought)
        for obs in private:
            self._emit(obs, to=[seat])
        if isinstance(action, act.Investigate):
            self._investigate(seat)
        if self._unreachable():  # checked after every payment (§6)
            return
        if len(self._hands[seat]) > HAND_LIMIT:
            self.phase = "discard"
        else:
            self._next_pick(seat)

    def _next_pick(self, seat: int) -> None:
        """After a buy is resolved: the same pick goes on, or the next one."""
        if self.pick_buys < self.game.options["dice_per_pick"] and self._buys(seat):
            return  # the same pick goes on (option dice_per_pick)
        self._advance()

    def _investigate(self, seat: int) -> None:
        genre = self.deck_at[self.pawn[seat] or 0]
        card = self._decks[genre].pop(0)
        self._hands[seat].append(card)
        self.hand_genres[seat].append(genre)
        district = self.pawn[seat]
        assert district is not None
        self._emit(seen.Draw(seat, district, genre, len(self._decks[genre])))
        self._emit(seen.SeeDraw(seat, card), to=[seat])
        self._seen[seat].add(card)
        sizes = [len(cards) for cards in self._decks.values()]
        trigger = all if self.game.options["end_trigger"] == "all" else any
        if trigger(size == 1 for size in sizes):
            self.final_round = True

    def _discard(self, seat: int, card: str) -> None:
        genre = self.game.parts.genre_of(card)
        self._hands[seat].remove(card)
        self.hand_genres[seat].remove(genre)
        self._lab.append(card)
        self.lab_genres.append(genre)
        self.lab_owner.append(seat)
        self.rotated.append(False)
        position = len(self._lab)
        if self.game.options["genre_public"]:
            self._emit(seen.LabPlaceGenre(seat, position, genre))
        else:
            self._emit(seen.LabPlace(seat, position))
        self._emit(seen.SeeDiscard(seat, card, position), to=[seat])
        self._pollute()
        self.phase = "buy"
        self._next_pick(seat)

    def _pollute(self) -> None:
        (die,) = self._dice(1, "the pollution die")
        rotated = None
        if die == 1:
            if self.game.options["pollution_target"] == "placed":
                candidates = [len(self._lab) - 1] if not self.rotated[-1] else []
            else:
                candidates = [p for p, turned in enumerate(self.rotated) if not turned][:1]
            if candidates:
                self.rotated[candidates[0]] = True
                rotated = candidates[0] + 1
        self._emit(seen.Pollution(die, rotated))

    def _attempt(self, seat: int, profile: tuple[str, ...]) -> None:
        self._emit(seen.Declaration(seat, tuple(profile)), to=[seat])
        count = self.dice_for(seat)
        total = self._total(count)
        success = total >= self.ferocity
        seq = None
        if success:
            self.seq_counter += 1
            seq = self.seq[seat] = self.seq_counter
            self._declarations[seat] = tuple(profile)
        elif self.game.options["failed_test_lockout"]:
            self.locked[seat] = True
        self._emit(seen.Attempt(seat, count, total, self.ferocity, success, seq))

    def _declaration_step(self) -> None:
        """R4: the eligible players in turn order, then the end of the round."""
        self.phase = "declare"
        timing = self.game.options["declare_timing"]
        self.queue = [
            s
            for s in self.order()
            if self.may_declare_now(s) and (timing == "r4" or self.final_round)
        ]
        self._queue_moves(or_else=self._end_round)

    def _next_declarer(self) -> None:
        self.queue.pop(0)
        self._queue_moves(or_else=self._end_round)

    def _end_round(self) -> None:
        options = self.game.options
        if self.final_round:
            self._finish("the decks are exhausted")
            return
        unused = sum(face * k for face, k in zip(range(1, FACES + 1), self.pool, strict=True))
        self.ferocity += unused // 10
        crowded = self.crowded()
        hunted = 0
        if crowded:
            count = len(crowded) if options["hunted_mode"] == "per-district" else 1
            hunted = options["hunted_bonus"] * count
        self.ferocity += hunted
        n = self.game.players
        for seat in range(n):
            reached = (
                self.ferocity > self.points_left[seat]
                if options["caught_mode"] == "above"
                else self.ferocity >= self.points_left[seat]
            )
            if options["caught_mode"] == "crossing":
                self.caught[seat] = reached and not self.crossed[seat]
            else:
                self.caught[seat] = reached
            self.crossed[seat] = self.crossed[seat] or reached
        if self.fp_claim is not None:
            self.first_player = self.fp_claim
        elif options["rotate_first_player"]:
            self.first_player = (self.first_player + 1) % n
        self._emit(
            seen.RoundEnd(
                self.round, unused, hunted, self.ferocity, tuple(self.caught), self.first_player
            )
        )
        if self._unreachable():
            return
        everyone = all(s is not None for s in self.seq)
        # with every player declared and none allowed to act, no round could change anything
        if everyone and (options["end_when_all_declared"] or not options["declared_players_act"]):
            self._finish("every player has declared")
        elif options["max_rounds"] is not None and self.round >= options["max_rounds"]:
            self._finish("the round cap", judge=False)
        else:
            self._start_round()

    def _unreachable(self) -> bool:
        """The collective loss (§6): end now if no player (of the scope) can reach F."""
        options = self.game.options
        seats = list(range(self.game.players))
        if options["unreachable_scope"] == "undeclared":
            seats = [s for s in seats if self.seq[s] is None]
            if not seats:
                return False
        if any(self.can_reach(s) for s in seats):
            return False
        judge = options["unreachable_outcome"] == "reveal"
        self._finish("nobody can reach the ferocity", judge=judge)
        return True

    def _finish(self, reason: str, judge: bool = True) -> None:
        profile = self.profile()
        declared = sorted((q, s) for s, q in enumerate(self.seq) if q is not None)
        winners: tuple[int, ...] = ()
        if judge:
            right = [s for _, s in declared if self._declarations[s] == profile]
            winners = tuple(right[:1])
        self.phase, self._winners, self.end_reason = "over", winners, reason
        declarations = tuple((s, q, tuple(self._declarations[s] or ())) for q, s in declared)
        self._emit(seen.GameEnd(reason, tuple(profile), declarations, winners))

    # --- serialisation and checks -----------------------------------------------------------
    def _to_dict(self) -> dict[str, JsonValue]:
        return {
            "decks": {g: list(cards) for g, cards in self._decks.items()},
            "deck_district": dict(self.deck_district),
            "points": list(self.points_left),
            "pawns": list(self.pawn),
            "hands": [list(h) for h in self._hands],
            "caught": list(self.caught),
            "crossed": list(self.crossed),
            "declarations": [None if d is None else list(d) for d in self._declarations],
            "seq": list(self.seq),
            "locked": list(self.locked),
            "lab": [
                [c, r, o] for c, r, o in zip(self._lab, self.rotated, self.lab_owner, strict=True)
            ],
            "ferocity": self.ferocity,
            "weapon": self.weapon,
            "first_player": self.first_player,
            "round": self.round,
            "seq_counter": self.seq_counter,
            "final_round": self.final_round,
            "pool": list(self.pool),
            "passed": list(self.passed),
            "bought": list(self.bought),
            "fp_claim": self.fp_claim,
            "phase": self.phase,
            "current": self.current,
            "pick_buys": self.pick_buys,
            "queue": list(self.queue),
            "winners": list(self._winners),
        }

    def _broken_invariants(self) -> list[str]:
        parts = self.game.parts
        broken = []
        cards = [c for d in self._decks.values() for c in d]
        cards += [c for h in self._hands for c in h] + self._lab
        if self._script is None and sorted(cards) != sorted(parts.ids):
            broken.append(f"the {len(parts.ids)} cards are not each in one place")
        if any(len(h) > HAND_LIMIT + (self.phase in ("discard", "over")) for h in self._hands):
            broken.append("a hand holds more than the hand limit")
        if any(p < 0 for p in self.points_left):
            broken.append("a player's points are negative")
        if any(len(d) < 1 for d in self._decks.values()):
            broken.append("a deck lost its undrawable bottom card")
        if not 0 <= self.weapon <= WEAPON_MAX:
            broken.append("the weapon track is off its 0-10 scale")
        if sum(self.pool) > DICE:
            broken.append("the pool holds more than 15 dice")
        return broken
