"""Serial Killer's search: every legal buy scored by what it adds to the chance of winning,
the profile's odds against the race, and the advice read off it.

The objective is `J = right x roll`: the chance that a declaration is right (the product over
genres of 1 / candidates) times the exact chance of out-rolling ferocity when it is made. A
buy that is expected to rule out `e_g` candidates of genre g (the counted worlds say where
each unseen trait lies) multiplies `right` by about `prod k_g / (k_g - e_g)`; each point it
costs lowers the final roll, priced at the slope of `log roll` against the forecast final
ferocity (never below what a point buys later). A buy is made when its log-gain beats its
price, and never below the points kept for the roll. While the rivals are drawing, the seat
neither draws nor looks: what they draw reaches their hands and the lab, to be seen later all
at once and for less, and the points it keeps are its roll. A draw is worth a step towards
the end besides its card when the decks stand still (ferocity grows every round they do).
The weapon track comes first when the decks could run out before it reaches 10.

Once the rivals have little left to draw with (or have all declared, or the final round has
begun), the finish planner (serial_killer_finish.py) takes over: the looks, the draws that
empty the decks and the weapon dice still needed, each buy valued by the best plan it leaves.
A look still waits for a rival that will draw again (its hand, and the lab where every
overflow lands, would change). A plan that leaves the decks to the rivals counts on them to
declare: each is expected to try its roll as the seat would, while it is likely and fading.

The declaration is the gamble: declared, the player buys nothing more. With every rival
declared, the solver's declaration ends the game, so the finish planner declares as soon as
its best plan of more looking is worth less than the gamble; with rivals in play the seat
waits for the final round (where it must) unless its roll is about to fade for good. Every
legal action is scored once, so a seed gives the same move on any machine; `time_budget`
(off by default) is only a safety ceiling.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import cached_property
from math import log, prod

from engines import Action, InformationSet, Observation
from engines.serial_killer import COLOURS, WEAPON_MAX, SerialKiller, SerialKillerState, replay
from engines.serial_killer import actions as act
from engines.serial_killer import observations as seen
from solver.games.serial_killer.counting import CountedWorlds
from solver.games.serial_killer.hinting import information
from solver.games.serial_killer.position import Position, parse, public_view
from solver.games.serial_killer.race import own_candidates, progress, roll_chance
from solver.hints import Hint, percent
from solver.search import Advice, Candidate, Turn
from solver.search import serial_killer_finish as endgame
from solver.search.grading import CHANCE, Grading, Judged, by_candidates

KNOBS: dict[str, object] = {"time_budget": None}
GROWTH = 8
"""About how much ferocity grows in a round (a tenth of the unbought dice, the hunted bonus
most rounds): what waiting a round costs the roll."""
KEEP = 0.85
"""The chance of out-rolling the forecast final ferocity that the points kept back assure:
no buy goes below them."""
LATER_PRICE = 0.1
"""The least a point is worth in log J while the game goes on: what it buys late (a look at
the lab or a hand then rules out about a third of a nat per point)."""
MIN_PRICE = 0.01
"""The least a point is worth when the end is at hand (the final round, or every rival
declared)."""
URGENT_WEAPON = 4.0
"""A weapon die's log-gain when the decks could run out before the track reaches 10: then
nobody could declare, and the killer wins."""
TABLE_DRAWS = 7
"""About how many cards the whole table draws in a round while the rivals still draw."""
FINISH_AT = 3
"""The seat plans the finish once the rivals have fewer draws than this left in them."""
PACE = 4
"""The seat waits for the rivals' draws only while they drew, this round and the last, at
least 1/PACE of the cards left (about the pace that empties the decks before ferocity
outgrows the rolls)."""
HOPELESS = 1e-6
"""A finish plan worth less than this cannot win: the seat then empties the decks, so that
the game is judged rather than lost by everyone."""
FULL_DECK = 1.0
"""A draw's worth for the cards still under it (in a full deck, the ones the rivals leave and
the seat must draw in the end anyway)."""
SUBSTITUTE_MAX = 4
"""The dearest die drawn with while the game goes on (a 5 or a 6 costs two points more than a
3 for the same card)."""
WEAPON_DICE = 3
"""The weapon dice a round can be counted on for, when the track must still reach 10."""
LAST_KEEP = 0.2
"""The roll (against ferocity now) a draw that keeps the game going may spend down to."""
RIVAL_SPEND = 6
"""Points a rival spends for each card drawn (with its moves and looks), to forecast how many
cards the rivals will still draw."""
RIVAL_ROUNDS = 12
"""The rounds ahead a rival's declaration is followed (ferocity outgrows any roll by then)."""
LOOK_AT = 0.5
"""A rival with this many draws left in it (half a card: the forecast is rough, and a rival
that still draws spoils a look bought now) still changes its hand and the lab: looking at
them waits (in the finish too) until it has stopped."""
PUSH = 1.0
"""A draw's worth beyond its card: it brings the end (and the judging) a step nearer."""
STALL = 1.5
"""At a standstill (rivals who could draw have not, this round or the last), a draw is worth
at least this many times its price: ferocity grows every round the decks stand still."""
DRAW_COST = 3.5
"""Points a draw costs on average (a 3, or a higher die standing in)."""
JUDGED = 0.5
"""With rivals in play, a guess is declared only when it is at least this likely to be
judged without the seat (the rivals empty the decks or all declare): declared, it buys
nothing more, so a game nobody else can end runs on until nobody can reach ferocity."""
TIE = 1e-6
"""Random noise that breaks ties between placements worth the same."""
FADE = 0.5
LAST_GUESS = 0.25
"""With rivals still in play, a guess is declared once next round's roll would be less
likely than FADE while this round's is still at least LAST_GUESS: ferocity jumps by several
points a round, so a narrower window is easily stepped over, and a roll that can no longer
succeed leaves only the collective loss."""


@dataclass(frozen=True)
class Scored:
    """A buy's net value (log-gain of `J` less its price in points) and the words for it."""

    value: float
    gain: float
    text: str


class Table:
    """One information set read for the search: the public view, the exact worlds, the
    candidates, the forecast of the race."""

    def __init__(self, info: InformationSet) -> None:
        game = info.make_game()
        assert isinstance(game, SerialKiller) and isinstance(info.seat, int)
        self.game, self.me = game, info.seat
        self.observations = info.observations
        self.view: SerialKillerState = replay(game, info.observations, info.seat)
        self.position: Position = parse(info)
        self.candidates = own_candidates(self.position)

    def forecast(self) -> None:
        """Fix the forecast (points kept, price of a point) at the position as it stands."""
        _ = self.floor, self.last_floor, self.price, self.draw_reserve

    @cached_property
    def worlds(self) -> CountedWorlds:
        return CountedWorlds(self.position)

    @property
    def right(self) -> float:
        return 1 / prod(len(c) for c in self.candidates.values())

    @property
    def cards_left(self) -> int:
        return self.view.cards_left()

    @property
    def rivals_declared(self) -> bool:
        """Every other player has declared: the seat's own declaration ends the game."""
        return all(s is not None for j, s in enumerate(self.view.seq) if j != self.me)

    def dice(self, points: int) -> int:
        options = self.game.options
        return int(options["declare_base"] + points // options["points_per_die"])

    def roll(self, points: int, ferocity: int) -> float:
        return roll_chance(self.dice(max(points, 0)), ferocity)

    @cached_property
    def final_ferocity(self) -> int:
        """The ferocity a declaration will face: now in the final round (no update after
        it) or when every rival has declared; otherwise grown over the rounds forecast."""
        view = self.view
        if view.final_round or self.rivals_declared:
            return int(view.ferocity)
        return int(view.ferocity + GROWTH * self.rounds_left)

    @property
    def rounds_left(self) -> int:
        """About how many rounds the decks last, the table drawing TABLE_DRAWS a round."""
        return math.ceil(self.cards_left / TABLE_DRAWS)

    @cached_property
    def floor(self) -> int:
        """The points no buy goes below: those that out-roll the forecast ferocity with
        chance KEEP (all of them, when even they cannot)."""
        points = self.view.points_left[self.me]
        for kept in range(points + 1):
            if self.roll(kept, self.final_ferocity) >= KEEP:
                return kept
        return points

    @cached_property
    def rival_draws(self) -> float:
        """About how many more cards the undeclared rivals will draw (rival_cards)."""
        return sum(self.rival_cards.values())

    @cached_property
    def rival_cards(self) -> dict[int, float]:
        """Per undeclared rival, about how many more cards it will draw: its points above a
        safe roll (0.9 against ferocity a little higher), at RIVAL_SPEND points a card (they
        look and move as well)."""
        view, found = self.view, {}
        for j in range(self.game.players):
            if j == self.me or view.seq[j] is not None:
                continue
            keep = next(
                (
                    p
                    for p in range(view.points_left[j] + 1)
                    if self.roll(p, view.ferocity + 3) >= 0.9
                ),
                view.points_left[j],
            )
            found[j] = max(view.points_left[j] - keep, 0) / RIVAL_SPEND
        return found

    def still_drawing(self, seat: int | None) -> bool:
        """Whether `seat` (None: any rival) will still draw, so that what a look sees now
        (its hand; the lab, where every overflow lands) will change: a rival with a card's
        worth of points to spare that drew this round or the last."""
        if self.view.final_round or not self.rivals_drew:
            return False
        cards = self.rival_cards
        if seat is None:
            return any(n >= LOOK_AT for n in cards.values())
        return cards.get(seat, 0.0) >= LOOK_AT

    @property
    def rivals_drawing(self) -> bool:
        """The rivals will still draw (they have points above a safe roll, and they have
        drawn lately, at a pace that empties the decks: PACE): their cards can be seen
        later, all at once, in their hands and the lab. Rivals that draw too slowly leave
        the seat most of the decks, whose draws only grow dearer with waiting."""
        if self.view.final_round or self.rival_draws < 1 or not self.rivals_drew:
            return False
        return self.recent_draws is None or self.recent_draws * PACE >= self.cards_left

    @cached_property
    def lately(self) -> tuple[Observation, ...] | None:
        """The rivals' observations of this round and the last (None in the first round,
        which has no round before it)."""
        rolls = [i for i, obs in enumerate(self.observations) if isinstance(obs, seen.Roll)]
        if len(rolls) < 2:
            return None
        return tuple(
            obs
            for obs in self.observations[rolls[-2] :]
            if isinstance(obs, seen.Seated) and obs.seat != self.me
        )

    @cached_property
    def lately_drawn_by(self) -> list[int] | None:
        """The rival that drew each card drawn this round and the last (None in the first
        round)."""
        lately = self.lately
        if lately is None:
            return None
        return [obs.seat for obs in lately if isinstance(obs, seen.Draw)]

    @property
    def recent_draws(self) -> int | None:
        """The cards the rivals drew this round and the last (None in the first round)."""
        drawn = self.lately_drawn_by
        return None if drawn is None else len(drawn)

    @cached_property
    def rival_cover(self) -> float:
        """About how many cards the rivals that drew lately will still draw."""
        return sum(n for j, n in self.rival_cards.items() if j in self.drew_lately)

    @property
    def standstill(self) -> bool:
        """The rivals could draw (points above a safe roll) but have not lately: the decks
        stand still while ferocity grows, so the seat must draw. (Rivals with no points to
        spare are left to declare.)"""
        return not self.rivals_drew and self.rival_draws >= 1

    @cached_property
    def rivals_fill_weapon(self) -> bool:
        """A rival bought a weapon die this round or the last (or it is the first round): the
        track is left to them while it can wait. Rivals that leave it alone leave it to the
        seat, or nobody could ever declare."""
        lately = self.lately
        return lately is None or any(isinstance(obs, seen.BuyWeapon) for obs in lately)

    @cached_property
    def rivals_drew(self) -> bool:
        """A rival drew this round or the last (or it is the first round): they do draw."""
        return bool(self.drew_lately)

    @cached_property
    def drew_lately(self) -> set[int]:
        """The rivals that drew this round or the last (every rival in the first round)."""
        drawn = self.lately_drawn_by
        if drawn is None:
            return {j for j in range(self.game.players) if j != self.me}
        return set(drawn)

    @cached_property
    def rivals_ready(self) -> int:
        """The rounds after this one until the first undeclared rival would declare (its
        roll likely then and fading a round later), as the seat would: the weapon track
        must be at 10 by then, or that rival never can, and the decks must be emptied
        without it. RIVAL_ROUNDS when none will."""
        view, first = self.view, RIVAL_ROUNDS
        for j in range(self.game.players):
            if j == self.me or view.seq[j] is not None:
                continue
            for t in range(first):
                if self.roll(view.points_left[j], view.ferocity + GROWTH * t) < LAST_GUESS:
                    break
                if self.roll(view.points_left[j], view.ferocity + GROWTH * (t + 1)) < FADE:
                    first = t
                    break
        return first

    @cached_property
    def judged(self) -> float:
        """About the chance a declaration by the seat now is ever judged, the seat buying
        nothing more: every rival declared, or the rivals that still draw emptying the
        decks (their forecast draws against the cards left), or every undeclared rival
        declaring in turn (_rivals_declare). Otherwise the game runs on until nobody can
        reach ferocity, and all lose; under the other reading of that loss
        (`unreachable_outcome` "reveal") it judges the declarations made, so every one is."""
        if self.rivals_declared or self.game.options["unreachable_outcome"] == "reveal":
            return 1.0
        left = self.cards_left
        drain = 1.0 if left <= 0 else min(1.0, self.rival_cover / left)
        return 1 - (1 - drain) * (1 - _rivals_declare(self))

    @cached_property
    def draw_reserve(self) -> int:
        """The points kept for the draws the rivals will not make, a move per deck: the game
        is judged once the decks run out or every rival has declared, and a rival whose roll
        has become unlikely will never declare (rolls only get harder), so then the decks
        must run out."""
        if self.view.final_round or not self.rival_stuck:
            return 0
        mine = max(self.cards_left - self.rival_draws, 0.0)
        if mine <= 0:
            return 0
        here = self.view.deck_at.get(self.view.pawn[self.me] or 0)
        decks = [g for g in self.game.parts.genre_ids if self.view.deck_size(g) > 1]
        moves = len([g for g in decks if g != here])
        return math.ceil(mine * DRAW_COST + 2 * min(moves, math.ceil(mine)))

    @cached_property
    def rival_stuck(self) -> bool:
        """Some undeclared rival's roll is now unlikely (below one in two)."""
        view = self.view
        return any(
            view.seq[j] is None and self.roll(view.points_left[j], view.ferocity) < 0.5
            for j in range(self.game.players)
            if j != self.me
        )

    @cached_property
    def last_floor(self) -> int:
        """The points kept when the seat must draw for the game to go on (else ferocity
        grows until nobody can win): a roll that is merely possible (LAST_KEEP) against the
        ferocity now, since waiting would only raise it."""
        points = self.view.points_left[self.me]
        for kept in range(points + 1):
            if self.roll(kept, self.view.ferocity) >= LAST_KEEP:
                return kept
        return points

    @cached_property
    def price(self) -> float:
        """What a point is worth in log J: the slope of log roll against the forecast
        ferocity at the points the seat has (averaged over a few points, as the curve is
        steep in its tail), never below what points buy later."""
        points, f = self.view.points_left[self.me], self.final_ferocity
        low, high = self.roll(max(points - 4, 0), f), self.roll(points + 2, f)
        slope = (log(max(high, 1e-9)) - log(max(low, 1e-9))) / 6
        late = self.view.final_round or self.rivals_declared
        return max(slope, MIN_PRICE if late else LATER_PRICE)

    def gain(self, expected: dict[str, float]) -> float:
        """log of the factor by which `right` grows when `expected[g]` candidates of genre g
        are ruled out."""
        total = 0.0
        for genre, e in expected.items():
            k = len(self.candidates[genre])
            if k > 1 and e > 0:
                total += log(k / max(k - e, 1.0))
        return total

    @cached_property
    def finishing(self) -> bool:
        """The seat plans the rest itself: the final round, every rival declared, or no
        rival with points to draw with."""
        return self.view.final_round or self.rivals_declared or self.rival_draws < FINISH_AT

    def finish(self, lab: tuple[int, ...] | None = None) -> endgame.Finish:
        """The rest of the game as a short list of sources (endgame.Finish); `lab`: the
        rotated positions a lab view pays for (None: all of them)."""
        view, me, options = self.view, self.me, self.game.options
        rotated = tuple(p + 1 for p, turned in enumerate(view.rotated) if turned)
        paid = rotated if lab is None else lab
        looks = []
        if view.lab_genres:
            shown = [p + 1 for p, turned in enumerate(view.rotated) if not turned]
            places = [f"lab:{p}" for p in {*shown, *paid}]
            found = endgame.found_at(self.worlds, self.candidates, places)
            if found:
                cost = 6 + options["pollution_cost"] * len(paid)
                looks.append(endgame.Look("lab", None, found, cost, None))
        for j in range(self.game.players):
            if j == me or not view.hand_genres[j]:
                continue
            found = endgame.found_at(self.worlds, self.candidates, [f"hand:{j}"])
            if found:
                looks.append(endgame.Look("brief", j, found, 4, view.pawn[j]))
        genres = self.game.parts.genre_ids
        return endgame.Finish(
            candidates={g: len(self.candidates[g]) for g in genres},
            deck_left={g: view.deck_size(g) - 1 for g in genres},
            deck_district=dict(view.deck_district),
            looks=tuple(looks),
            weapons=max(WEAPON_MAX - view.weapon, 0),
            points=view.points_left[me],
            ferocity=int(view.ferocity),
            pool=tuple(view.pool),
            pawn=view.pawn[me],
            dice_base=int(options["declare_base"]),
            per_die=int(options["points_per_die"]),
            surcharge=int(options["surcharge"]) if view.caught[me] else 0,
            penalty=int(options["surcharge"]),
            final=bool(view.final_round),
            declare_chance=self.judged,
            eligible=not view.bought[me] and view.weapon >= WEAPON_MAX,
        )

    def look_gain(self, action: Action) -> float:
        """log-gain of a briefing or a lab view, from the counted worlds (in nats)."""
        told = information(self.position, self.worlds, self.view, action, self.candidates)
        return (0.0 if told is None else told[0]) * math.log(2)


def score(table: Table, action: Action) -> Scored:
    """The net value of buying `action` now (positive: worth its points), while the game goes
    on: the final round, and every rival declared, are the finish planner's."""
    view, me = table.view, table.me
    cost = view.cost(me, action)
    refused = _refused(table, action, cost)
    if refused is not None:
        return refused
    price = table.price * cost
    if table.rivals_drawing and isinstance(action, act.Briefing | act.Lab):
        return Scored(
            -price,
            0.0,
            "wait: the rivals are still drawing, and what they draw "
            "reaches their hands and the lab, to be seen at once later",
        )
    if isinstance(action, act.Weapon):
        return _weapon(table, price)
    if isinstance(action, act.First):
        return Scored(-price, 0.0, "the first-player die: no deduction")
    if isinstance(action, act.Investigate):
        return _investigate(table, action, price)
    if isinstance(action, act.Briefing | act.Lab):
        gain = table.look_gain(action)
        what = "the hand" if isinstance(action, act.Briefing) else "the lab"
        return Scored(gain - price, gain, f"{what} may show some of your candidates")
    if isinstance(action, act.Move):
        return _move(table, action, price)
    return Scored(-price, 0.0, "no use")


def _refused(table: Table, action: Action, cost: int) -> Scored | None:
    """The refusal of a buy that spends points the seat keeps (for the roll, or for the last
    draws) or draws dear while a 3 is in the pool; None when none applies."""
    view, me = table.view, table.me
    points = view.points_left[me]
    draws = isinstance(action, act.Investigate | act.Weapon) or (
        isinstance(action, act.Move) and view.deck_at.get(action.district) is not None
    )
    needed = table.draw_reserve > 0 or table.standstill  # else the rivals draw or declare
    floor = table.last_floor if draws and needed else table.floor
    if points - cost < floor and not isinstance(action, act.Weapon):
        return Scored(-1.0, 0.0, f"spends into the {floor} points kept for the roll")
    if not draws and points - cost < table.floor + table.draw_reserve:
        return Scored(
            -1.0, 0.0, f"spends into the {table.draw_reserve} points kept for the last draws"
        )
    if isinstance(action, act.Investigate) and view.pool[2] and action.face > 3:
        return Scored(-1.0, 0.0, "a 3 is in the pool")
    return None


def _weapon(table: Table, price: float) -> Scored:
    """A step of the weapon track: urgent when the rivals cannot fill it in the rounds left,
    cheap when they have left it, else one that can wait."""
    view = table.view
    if view.weapon >= WEAPON_MAX:
        return Scored(-price, 0.0, "the weapon track is already at 10")
    short = WEAPON_MAX - view.weapon
    urgent = short > WEAPON_DICE * min(max(table.rounds_left - 1, 0), table.rivals_ready)
    if not urgent and table.rivals_fill_weapon:
        return Scored(-price, 0.0, "the weapon track can wait: the rivals fill it too")
    if not urgent:
        gain = price + LATER_PRICE  # nobody else does: a point is cheap, a 10 is needed
        return Scored(gain - price, gain, "the weapon track: the rivals have left it")
    gain = URGENT_WEAPON
    return Scored(gain - price, gain, f"weapon track to {view.weapon + 1} of {WEAPON_MAX}")


def _investigate(table: Table, action: act.Investigate, price: float) -> Scored:
    """A draw from the deck where the pawn stands: a candidate of its genre ruled out, a push
    toward the end, and the cards of a deck the rivals leave."""
    view, me = table.view, table.me
    if table.rivals_drawing:
        return Scored(
            -price,
            0.0,
            "wait: the rivals are still drawing, and what they draw is seen later for "
            "less, in their hands and the lab",
        )
    if action.face > SUBSTITUTE_MAX:
        return Scored(-price, 0.0, f"a {action.face} is too dear a draw while the game goes on")
    genre = view.deck_at[view.pawn[me] or 0]
    last = table.cards_left == 1  # this draw starts the final round
    gain = table.gain({genre: 1.0}) + (0.0 if last else PUSH)
    # a full deck is one the rivals leave: its cards fall to me
    size = len(view.game.parts.by_genre[genre].cards)
    gain += FULL_DECK * (view.deck_size(genre) - 2) / max(size - 2, 1)
    if table.standstill:
        gain = max(gain, STALL * price)
    if last and gain <= price:
        return Scored(
            gain - price,
            gain,
            "the last draw: it starts the final round, so look first (the final round's "
            "remaining picks may not offer the dice)",
        )
    name = view.game.parts.by_genre[genre].name
    return Scored(gain - price, gain, f"draws a {name} card: one candidate ruled out")


def _move(table: Table, action: act.Move, price: float) -> Scored:
    """A move by the best buy it opens there (a draw or a briefing, scored as if the pawn
    stood there with the move paid), its own price paid."""
    view, me = table.view, table.me
    table.forecast()  # read with the pawn where it stands, before the move is tried
    saved, points = view.pawn[me], view.points_left[me]
    cost = view.cost(me, action)
    best, why = 0.0, "nothing to do there"
    view.pawn[me] = action.district
    view.points_left[me] = points - cost
    try:
        follow: list[Action] = []
        genre = view.deck_at.get(action.district)
        if genre is not None and view.deck_size(genre) > 1:
            face = 3 if view.pool[2] else next((f for f in (4, 5, 6) if view.pool[f - 1]), 3)
            follow.append(act.Investigate(face))
        for j, where in enumerate(view.pawn):
            if j != me and where == action.district and view.pool[3]:
                target = None if view.game.options["briefing_scope"] == "all" else j
                follow.append(act.Briefing(target))
        for then in follow:
            scored = score(table, then)
            if scored.value > best:
                best, why = scored.value, scored.text
    finally:
        view.pawn[me], view.points_left[me] = saved, points
    return Scored(best - price, best, f"moves, then {why}")


def declare_now(table: Table) -> bool:
    """Whether to declare at this round's declaration step (or stay eligible for it) while
    rivals are in play; the finish planner decides once they have all declared."""
    view, me = table.view, table.me
    points, f = view.points_left[me], view.ferocity
    if table.right * table.roll(points, f) <= 0:
        return False
    if table.judged < JUDGED:
        return False  # declared, the seat buys nothing more, and nobody else ends the game
    if table.right == 1:
        return table.roll(points, f) > 0.05
    later = table.roll(points, f + GROWTH)
    return table.roll(points, f) >= LAST_GUESS and later < FADE


def _rivals_declare(table: Table) -> float:
    """About the chance every undeclared rival still declares, so that a declaration now is
    ever judged: each is taken to play the gamble as the seat does (declare_now), trying its
    roll from this round's declaration step on in every round where it is still likely
    (LAST_GUESS) but would not be a round later (FADE), or every round once the decks are
    nearly out; rolls only get harder, so the rounds are followed until its roll fades."""
    view, chance = table.view, 1.0
    for j in range(table.game.players):
        if j == table.me or view.seq[j] is not None:
            continue
        miss = 1.0
        for t in range(RIVAL_ROUNDS):
            odds = table.roll(view.points_left[j], view.ferocity + GROWTH * t)
            if odds < LAST_GUESS:
                break
            later = table.roll(view.points_left[j], view.ferocity + GROWTH * (t + 1))
            if later < FADE or table.cards_left <= 2:
                miss *= 1 - odds
        chance *= 1 - miss
    return chance


def advise(turn: Turn, time_budget: float | None = None) -> Advice:
    """The solver's move at `info`, every legal move scored, with the race's threats."""
    info, legal, rng = turn.info, turn.legal, turn.rng
    started = time.monotonic()
    table = Table(info)
    legal = list(legal)
    ranked: list[tuple[float, Action, str]]
    first = legal[0]
    if isinstance(first, act.Place):
        ranked = _placements(table, legal, rng)
    elif isinstance(first, act.Discard):
        choice = rng.choice(legal)  # every discard is worth the same: the chosen one first
        ranked = [(0.0, a, "an overflow discard") for a in sorted(legal, key=lambda a: a != choice)]
    elif table.view.phase == "declare":
        ranked = _declaration(table, legal, rng)
    else:
        ranked = _picks(table, legal, rng, started, time_budget)
    ranked.sort(key=lambda item: -item[0])
    threats = tuple(_threats(table))
    candidates = tuple(
        Candidate(a, v, text, None, threats if k == 0 else ())
        for k, (v, a, text) in enumerate(ranked)
    )
    move = candidates[0]
    notes = (_odds(table),)
    details = (
        f"kept {table.floor} points for a roll against ferocity {table.final_ferocity}; "
        f"a point is worth {table.price:.3f} nats of the winning chance",
    )
    return Advice(move.action, move.value, move.text, candidates, threats, notes, details)


def hints(info: InformationSet) -> list[Hint]:
    """At the seat's own pick or declaration step, the move the solver bot makes there and
    why (seed 0, as `solver.advise(info)`), beside the runner-up: the buy, the pass or the
    declaration a strong player would choose, for a person to weigh. It leads what to do
    (`solver.games.serial_killer.hinting` says when to declare, the race and the decks)."""
    view = public_view(info)
    if view.to_move != info.seat or view.phase not in ("buy", "declare"):
        return []
    advice = advise(Turn(info, view.legal_actions(), random.Random(0), {}))
    text = f"{str(advice.move).capitalize()}: {advice.text}"
    runner = next(iter(advice.runners_up), None)
    if runner is not None:
        text += f" (next best: {runner.action}, {runner.text})"
    return [Hint(text, None, None, tuple(advice.reasons()), "suggestion", 2.6)]


def _placements(
    table: Table, legal: list[Action], rng: random.Random
) -> list[tuple[float, Action, str]]:
    """A pawn where the most unknowns of a deck wait and no other pawn stands (two pawns
    in a district add the hunted bonus to ferocity every round), ties at random."""
    view = table.view
    ranked: list[tuple[float, Action, str]] = []
    for action in legal:
        assert isinstance(action, act.Place)
        genre = view.deck_at.get(action.district)
        unknown = len(table.candidates[genre]) if genre is not None else 0
        crowded = any(d == action.district for j, d in enumerate(view.pawn) if j != table.me)
        value = unknown - (1 if crowded else 0) + rng.random() * TIE
        ranked.append((value, action, f"{unknown} unknown traits of its deck"))
    return ranked


def _declaration(
    table: Table, legal: list[Action], rng: random.Random
) -> list[tuple[float, Action, str]]:
    view, me = table.view, table.me
    roll = table.roll(view.points_left[me], view.ferocity)
    chance = table.right * roll
    profile = tuple(rng.choice(cards) for cards in table.candidates.values())
    declare = act.Declare(profile)
    text = f"right {percent(table.right)}, roll {percent(roll)}"
    if not any(isinstance(a, act.Skip) for a in legal):
        return [(chance, declare, f"the final round compels it: {text}")]
    if table.finishing:
        plan = table.finish()
        later = endgame.pass_value(plan)
        now = chance * plan.declare_chance
        if now > 0 and now >= later:
            return [(now, declare, text), (later, act.Skip(), "waiting costs more than the gamble")]
        return [
            (later, act.Skip(), "wait: " + text + "; the plan is worth more"),
            (now, declare, text),
        ]
    if declare_now(table):
        return [(chance, declare, text), (0.0, act.Skip(), "waiting costs more than the gamble")]
    return [(chance, act.Skip(), "wait: " + text), (0.0, declare, text)]


def _picks(
    table: Table,
    legal: list[Action],
    rng: random.Random,
    started: float,
    time_budget: float | None,
) -> list[tuple[float, Action, str]]:
    view, me = table.view, table.me
    stop = act.Pass() if isinstance(legal[0], act.Pass) else legal[0]
    if table.finishing:
        return _finish_picks(table, legal, stop, rng)
    if view.weapon >= WEAPON_MAX and not view.bought[me] and declare_now(table):
        return [(1.0, act.Pass(), "buy nothing this round and declare at its end")]
    ranked: list[tuple[float, Action, str]] = [(0.0, stop, "nothing is worth its points")]
    for action in legal:
        if isinstance(action, act.Pass | act.End | act.Declare):
            continue
        if time_budget is not None and time.monotonic() - started > time_budget:
            break  # a safety ceiling: the scores so far decide
        scored = score(table, action)
        ranked.append((scored.value + rng.random() * 1e-9, action, scored.text))
    return ranked


def _finish_picks(
    table: Table, legal: list[Action], stop: Action, rng: random.Random
) -> list[tuple[float, Action, str]]:
    """Every buy valued by the best plan left after it (endgame.Finish), against passing."""
    view, me = table.view, table.me
    plans = [table.finish()]
    rotated = tuple(p + 1 for p, turned in enumerate(view.rotated) if turned)
    if rotated:
        plans.append(table.finish(()))
    waiting = max(endgame.pass_value(plan) for plan in plans)
    ranked: list[tuple[float, Action, str]] = [
        (waiting, stop, f"the rest of the plan can wait: a win {percent(waiting)} likely")
    ]
    for action in legal:
        if isinstance(action, act.Pass | act.End | act.Declare):
            continue
        cost = view.cost(me, action)
        if isinstance(action, act.Weapon) and view.weapon < WEAPON_MAX:
            # every plan needs the track at 10, and a weapon die costs a point
            ranked.append((1.0 + waiting, action, f"weapon track to {view.weapon + 1}"))
            continue
        if isinstance(action, act.Briefing | act.Lab) and table.still_drawing(
            action.target if isinstance(action, act.Briefing) else None
        ):
            continue  # what it would see is still changing: looked at later, all at once
        if isinstance(action, act.Lab):
            value = endgame.value_of(table.finish(action.positions), action, cost)
        else:
            value = max(endgame.value_of(plan, action, cost) for plan in plans)
        if value <= 0:
            continue
        ranked.append(
            (value + rng.random() * 1e-12, action, f"the plan after it wins {percent(value)}")
        )
    if not view.final_round and max(value for value, _, _ in ranked) < HOPELESS:
        ranked += _drain_anyway(table, legal, rng)
    return ranked


def _drain_anyway(
    table: Table, legal: list[Action], rng: random.Random
) -> list[tuple[float, Action, str]]:
    """When no plan can win, the draws that bring the end nearer (a move to a deck with cards
    left when the seat's own is out), the cheapest first: a game that ends is judged
    (a rival's declaration, or the final round's compulsory attempts), one that runs on
    ends with everyone losing."""
    view = table.view
    here = view.deck_at.get(view.pawn[table.me] or 0)
    open_here = here is not None and view.deck_size(here) > 1
    found: list[tuple[float, Action, str]] = []
    for action in legal:
        if isinstance(action, act.Investigate):
            value = HOPELESS * (1 + 1 / action.face)
        elif isinstance(action, act.Move) and not open_here:
            there = view.deck_at.get(action.district)
            if there is None or view.deck_size(there) < 2:
                continue
            value = HOPELESS
        else:
            continue
        found.append((value + rng.random() * 1e-15, action, "no plan can win: empty the decks"))
    return found


def _threats(table: Table) -> list[str]:
    """The rivals closest to a right declaration, with their chance of one now."""
    view = table.view
    rows = []
    for seat in range(view.game.players):
        if seat == table.me:
            continue
        if view.seq[seat] is not None:
            rows.append((-1.0, f"{COLOURS[seat]} has declared ({view.seq[seat]})"))
            continue
        mine = progress(table.position, table.worlds, seat)
        left = sum(mine.candidates.values()) - len(mine.candidates)
        roll = roll_chance(view.dice_for(seat), view.ferocity)
        rows.append(
            (
                mine.chance * roll,
                f"{COLOURS[seat]}: {left:.1f} traits to rule out, a declaration now right "
                f"{percent(mine.chance)}, roll {percent(roll)}",
            )
        )
    rows.sort(key=lambda row: -row[0])
    return [text for _, text in rows]


def _odds(table: Table) -> str:
    view, me = table.view, table.me
    roll = table.roll(view.points_left[me], view.ferocity)
    return (
        f"a declaration now is right {percent(table.right)}; {table.dice(view.points_left[me])} "
        f"dice out-roll ferocity {view.ferocity} {percent(roll)}"
    )


NATS = Grading(
    "nats", 0.05, 0.15, 0.5, "the gain in log J (J: the chance of winning) less the points' price"
)
"""While the game goes on, a buy is scored by how far it moves log J against its price."""
GRADING = CHANCE
"""Once the seat plans its finish (or declares), moves are scored by J itself."""


def lost(turn: Turn) -> bool:
    """Whether the seat can no longer win, whatever it plays: it has not declared, and its
    best roll, every point it has kept, cannot reach ferocity (the rule of the collective
    loss, §6). Points only fall and ferocity only rises, so no later roll can either, and
    only a declaration wins. A review grades none of its decisions from there on."""
    view = public_view(turn.info)
    me = turn.info.seat
    assert isinstance(me, int)
    return view.seq[me] is None and not view.can_reach(me)


def judge(turn: Turn, advice: Advice, action: Action) -> Judged | None:
    """A decision valued for a review: in J once the seat plans its finish or declares, else
    in nats of J. A declaration of another profile than the advice's is worth the same when
    every trait of it is still a candidate (they are all equally likely), and nothing when one
    was crossed off."""
    table = Table(turn.info)
    late = table.view.phase == "declare" or table.finishing
    grading = CHANCE if late else NATS
    if table.view.phase == "declare" and not table.finishing:
        return _declaring(table, advice, action)
    if isinstance(action, act.Declare) and all(c.action != action for c in advice.candidates):
        declared = next((c for c in advice.candidates if isinstance(c.action, act.Declare)), None)
        if declared is None:
            return None
        best = max(advice.candidates, key=lambda c: c.value)
        possible = _possible(table, action.profile)
        value = declared.value if possible else 0.0
        why = declared.text if possible else "a trait already crossed off: it cannot be right"
        return Judged(Candidate(action, value, why), best, grading)
    judged = by_candidates(advice, action, grading)
    if judged is None and table.finishing and act.face_of(action) is not None:
        return _unplanned(table, advice, action)
    return judged


def _possible(table: Table, profile: tuple[str, ...]) -> bool:
    """Whether every trait of `profile` is still one of the seat's candidates."""
    candidates = table.candidates.values()
    return all(trait in cards for trait, cards in zip(profile, candidates, strict=True))


def _declaring(table: Table, advice: Advice, action: Action) -> Judged | None:
    """A declaration step while the rivals play on, where the search decides by rule
    (`declare_now`), not by a value of waiting: the solver's own choice (or another profile of
    candidates when it declares) is graded best; the other choice is left unvalued, as nothing
    here prices what waiting keeps."""
    chosen = advice.chosen
    same = action == advice.move or (
        isinstance(action, act.Declare)
        and isinstance(advice.move, act.Declare)
        and _possible(table, action.profile)
    )
    if not same:
        return None
    made = Candidate(action, chosen.value, chosen.text)
    return Judged(made, made, CHANCE)


def _unplanned(table: Table, advice: Advice, action: Action) -> Judged | None:
    """A buy the finish planner left out (it serves no plan, or it looks at what is still
    changing): valued by the best plan left after it, as the planner values the others."""
    if len(advice.candidates) < 2:
        return None
    view = table.view
    cost = view.cost(table.me, action)
    if isinstance(action, act.Lab):
        value = endgame.value_of(table.finish(action.positions), action, cost)
    else:
        value = endgame.value_of(table.finish(), action, cost)
    best = max(advice.candidates, key=lambda c: c.value)
    made = Candidate(action, value, f"the plan after it wins {percent(value)}")
    return Judged(made, best, CHANCE)
