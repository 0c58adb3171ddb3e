"""Serial Killer's `careful` bot: the game as a sensible person with a notepad plays it.

It is the benchmark's second opponent class (besides the naive `heuristic`): it does its share
of the drawing, so a table of careful players keeps the decks moving, and it looks and declares
at sensible times. It reads only the public record and its own notes (no solver); it knows
too little at the end to win often (issue 36 measures it), as a notepad alone does."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from engines import Action, InformationSet, Observation
from engines.serial_killer import WEAPON_MAX, SerialKiller, SerialKillerState, replay
from engines.serial_killer import actions as act
from engines.serial_killer.observations import Draw, SeeHand, SeeLab
from opponents.base import GuessingBot
from opponents.games.serial_killer_notepad import guess, notepad_candidates
from opponents.policy import Guess
from solver.games.serial_killer.race import roll_chance

KEEP = 0.85
"""The chance of out-rolling the forecast final ferocity that the points kept back assure."""
GROWTH = 7
"""About how much ferocity grows in a round (a tenth of the unbought dice, the hunted bonus
most rounds)."""
PACE = 5
"""Cards the table draws in a round before it has drawn any (the forecast's first guess)."""
WEAPON_PER_ROUND = 2
"""The weapon dice a round can be counted on for, when the track must still reach 10."""
ENDGAME = 6
"""Cards left in the decks at which looking (the lab, the rivals' hands) begins: earlier,
what the rivals still draw would soon make a look stale."""
BRIEF_AT = 2
LAB_AT = 2
"""The fewest cards not yet seen that make a briefing, or a lab view, worth buying."""
LAB_EARLY = 4
"""Before ENDGAME, a lab view waits for this many cards not seen: the lab only grows (its
cards never leave it), so a look now is not wasted, only dearer per card."""
FADE = 0.5
LAST_CHANCE = 0.2
"""An uncertain profile is declared before the final round when the roll is still at least
LAST_CHANCE now but would be below FADE after another round's growth."""
LAST_DRAWS = 0.3
"""From ENDGAME cards left, a draw (or the move to one) may spend down to a roll this likely
against the ferocity at the end (a round's growth on, none for the last card): waiting only
raises it, and a game whose decks never empty is lost by everyone."""
CHEAPEST_DRAW = 4
"""The dearest die a careful player draws with before the final round (a 5 or a 6 costs one
or two points more than a 4 for the same card)."""


@dataclass(frozen=True)
class Notes:
    """What the careful player's notepad holds at a decision: the public table as its seat
    sees it, and the cards it has not seen, per genre and per place."""

    view: SerialKillerState
    me: int
    observations: tuple[Observation, ...]

    @cached_property
    def candidates(self) -> dict[str, list[str]]:
        """Per genre, the traits not seen yet: the profile is one of them."""
        return notepad_candidates(self.view, self.me)

    @property
    def right(self) -> float:
        """The chance that a declaration of one candidate per genre is right."""
        return 1 / math.prod(len(cards) for cards in self.candidates.values())

    @property
    def points(self) -> int:
        return int(self.view.points_left[self.me])

    def roll(self, points: int, ferocity: float) -> float:
        options = self.view.game.options
        dice = options["declare_base"] + max(points, 0) // options["points_per_die"]
        return roll_chance(dice, int(ferocity))

    @cached_property
    def rounds_left(self) -> int:
        """Rounds until the decks run out, at the pace the table has drawn so far."""
        return math.ceil(self.view.cards_left() / self.pace)

    @cached_property
    def pace(self) -> float:
        """Cards the table has drawn a round so far (PACE before a round has ended)."""
        drawn = sum(1 for obs in self.observations if isinstance(obs, Draw))
        rounds = max(self.view.round - 1, 0)
        return max(drawn / rounds if rounds and drawn else PACE, 1.0)

    @property
    def rounds_after_draw(self) -> int:
        """The rounds the decks would last after one more draw, this one included."""
        return 1 + math.ceil((self.view.cards_left() - 1) / self.pace)

    @cached_property
    def final_ferocity(self) -> float:
        view = self.view
        if view.final_round:
            return view.ferocity
        return view.ferocity + GROWTH * self.rounds_left

    @cached_property
    def reserve(self) -> int:
        """The points no buy goes below: a roll at least KEEP likely against the forecast
        final ferocity (all the points, when even they are not enough)."""
        for kept in range(self.points + 1):
            if self.roll(kept, self.final_ferocity) >= KEEP:
                return kept
        return self.points

    @property
    def spare(self) -> int:
        return self.points - self.reserve

    @cached_property
    def draw_spare(self) -> int:
        """The points a draw may spend: the spare ones, or near the end (ENDGAME cards left)
        those above a roll LAST_DRAWS likely against the ferocity at the end (now, for the
        draw that empties the decks: the final round adds none)."""
        view = self.view
        if view.cards_left() > ENDGAME:
            return self.spare
        end = view.ferocity + (0 if view.final_round or view.cards_left() == 1 else GROWTH)
        kept = next(
            (p for p in range(self.points + 1) if self.roll(p, end) >= LAST_DRAWS),
            self.points,
        )
        return self.points - kept

    def unseen_in_hand(self, seat: int) -> int:
        """Cards `seat` has drawn since the player last saw its hand (at most its hand)."""
        return min(self._drawn_since_seen[seat], len(self.view.hand_genres[seat]))

    @cached_property
    def _drawn_since_seen(self) -> list[int]:
        """Per seat, the cards it has drawn since the player last briefed it (one pass over
        the record for every rival)."""
        since = [0] * self.view.game.players
        for obs in self.observations:
            match obs:
                case SeeHand(target=target):
                    since[target] = 0
                case Draw(seat=seat):
                    since[seat] += 1
        return since

    @cached_property
    def unseen_lab_positions(self) -> set[int]:
        """Lab positions (from 1) holding a card others put there that the player never saw."""
        viewed = {
            position
            for obs in self.observations
            if isinstance(obs, SeeLab)
            for position, _ in obs.cards
        }
        return {
            p + 1
            for p, owner in enumerate(self.view.lab_owner)
            if owner != self.me and p + 1 not in viewed
        }

    def lab_view_shows(self, action: act.Lab) -> int:
        """How many cards not seen yet `action` shows (every face-up one, and those paid)."""
        rotated = self.view.rotated
        return sum(
            1 for p in self.unseen_lab_positions if not rotated[p - 1] or p in action.positions
        )

    def can_spend(self, action: Action, margin: int = 0, drawing: bool = False) -> bool:
        """Whether `action`, and `margin` points more, fit in the spare points (the draw
        allowance when `drawing`)."""
        budget = self.draw_spare if drawing else self.spare
        return self.view.cost(self.me, action) + margin <= budget

    def deck_here(self) -> str | None:
        return self.view.deck_at.get(self.view.pawn[self.me] or 0)

    def open_deck(self, genre: str | None) -> bool:
        return genre is not None and self.view.deck_size(genre) > 1


class CarefulBot(GuessingBot):
    """A sensible person's play, rule by rule (each pick takes the first rule that applies):

    1. Place the pawn on a deck no other pawn stands on (crowded districts feed ferocity).
    2. Keep back the points that out-roll the forecast final ferocity (KEEP likely; the
       forecast grows GROWTH a round over the rounds the table's pace leaves); no buy goes
       below them, except a weapon die the track needs in time.
    3. When it would declare at this round's end (below), buy nothing, to be eligible.
    4. The weapon track first when it could not reach 10 before the decks run out at
       WEAPON_PER_ROUND dice a round: otherwise nobody may declare and the killer wins.
    5. Draw from the deck underfoot (a 3, or a 4 standing in), while it has cards and the
       track could still follow the end the draw brings nearer: each player does its share,
       or the decks never empty.
    6. From ENDGAME cards left (and in the final round), look: a briefing of a co-located
       rival holding cards not seen yet, the lab when it shows cards not seen yet (paying
       for the turned ones not seen, as far as the spare points go).
    7. Near the end, move to the rival holding the most cards not seen, to brief it next;
       otherwise to the open deck with the most traits not seen, another pawn's district
       last.
    8. Move the weapon track up when a point is spare; claim the first player (a 5) when the
       decks are nearly out and nobody has this round, to declare first in the final round.
    9. Otherwise pass.

    The profile is certain only once every deck is out, in the final round, where everyone
    must declare in turn order; before it, a declaration is a guess (a candidate per genre,
    at random). The bot guesses when every rival has declared and waiting would not help (its
    roll fading, or the guess an even chance), or when its roll is fading (at least
    LAST_CHANCE now, below FADE a round later). An overflow discard puts a random card in the
    lab.
    """

    game: SerialKiller

    def _decide(self, info: InformationSet, legal: list[Action]) -> Action | Guess:
        assert isinstance(self.seat, int)
        notes = Notes(replay(self.game, info.observations, self.seat), self.seat, info.observations)
        first = legal[0]
        if isinstance(first, act.Place):
            return self._place(notes)
        if isinstance(first, act.Discard):
            return self.rng.choice(legal)
        if notes.view.phase == "declare":
            return self._declaration(notes, legal)
        return self._pick(notes, legal)

    def _place(self, notes: Notes) -> Action:
        view = notes.view
        taken = {d for d in view.pawn if d is not None}
        free = [d for d in view.deck_district.values() if d not in taken]
        return act.Place(self.rng.choice(free or list(view.deck_district.values())))

    def _declaration(self, notes: Notes, legal: list[Action]) -> Action | Guess:
        if not any(isinstance(a, act.Skip) for a in legal) or self._declare_now(notes):
            return guess(notes.candidates)
        return act.Skip()

    def _declare_now(self, notes: Notes) -> bool:
        view, me = notes.view, notes.me
        now = notes.roll(notes.points, view.ferocity)
        later = notes.roll(notes.points, view.ferocity + GROWTH)
        rivals_declared = all(s is not None for j, s in enumerate(view.seq) if j != me)
        if rivals_declared and (later < FADE or notes.right >= 0.5):
            return True  # declaring ends the game; the roll only gets harder
        return now >= LAST_CHANCE and later < FADE

    def _pick(self, notes: Notes, legal: Sequence[Action]) -> Action:
        """Rules 3 to 9 of the class docstring: the first that applies."""
        view, me = notes.view, notes.me
        stop = legal[0]  # pass (or end the pick)
        eligible = view.weapon >= WEAPON_MAX and not view.bought[me] and not view.final_round
        if eligible and self._declare_now(notes):
            return act.Pass()  # stay eligible: declare at this round's end
        buys = [a for a in legal if not isinstance(a, act.Pass | act.Declare) and a != stop]
        weapon = next((a for a in buys if isinstance(a, act.Weapon)), None)
        return (
            _urgent_weapon(notes, weapon)
            or _draw_here(notes, buys)
            or _look_or_move(notes, buys)
            or _spare_weapon(notes, weapon)
            or _claim_first(notes, buys)
            or stop
        )


def _urgent_weapon(notes: Notes, weapon: act.Weapon | None) -> act.Weapon | None:
    """Rule 4: a weapon die, from any of the points, when the track could not reach 10
    before the decks run out at WEAPON_PER_ROUND dice a round."""
    view = notes.view
    short = WEAPON_MAX - view.weapon
    urgent = short > WEAPON_PER_ROUND * max(notes.rounds_left - 1, 0)
    if weapon and short > 0 and urgent and view.cost(notes.me, weapon) <= notes.points:
        return weapon
    return None


def _draw_here(notes: Notes, buys: list[Action]) -> act.Investigate | None:
    """Rule 5: the cheapest draw (up to CHEAPEST_DRAW before the final round) from the open
    deck underfoot, within the draw allowance, unless the track could not follow the end the
    draw brings nearer."""
    view = notes.view
    dear = 6 if view.final_round else CHEAPEST_DRAW
    draws = [
        a
        for a in buys
        if isinstance(a, act.Investigate) and a.face <= dear and notes.can_spend(a, drawing=True)
    ]
    short = WEAPON_MAX - view.weapon
    behind = short > WEAPON_PER_ROUND * (notes.rounds_after_draw - 1)
    if draws and notes.open_deck(notes.deck_here()) and not behind:
        return min(draws, key=lambda a: a.face)
    return None


def _look_or_move(notes: Notes, buys: list[Action]) -> Action | None:
    """Rules 6 and 7: a look (from ENDGAME cards left; before, only a lab view showing
    LAB_EARLY cards not seen), else near the end a move to brief a rival, else a move to an
    open deck when the one underfoot is out."""
    view = notes.view
    endgame = view.final_round or view.cards_left() <= ENDGAME
    look = _look(notes, buys, 1 if endgame else LAB_EARLY)
    if look is not None and (endgame or isinstance(look, act.Lab)):
        return look
    return (_chase(notes, buys) if endgame else None) or _move(notes, buys)


def _spare_weapon(notes: Notes, weapon: act.Weapon | None) -> act.Weapon | None:
    """Rule 8, first half: a weapon die while the track is short and a point is spare."""
    if weapon and notes.view.weapon < WEAPON_MAX and notes.can_spend(weapon):
        return weapon
    return None


def _claim_first(notes: Notes, buys: list[Action]) -> act.First | None:
    """Rule 8, second half: claim the first player (within the spare points) when the decks
    are nearly out (3 cards left), nobody has claimed it this round and this seat is not
    first already."""
    view = notes.view
    claim = next((a for a in buys if isinstance(a, act.First)), None)
    unclaimed = view.fp_claim is None and view.first_player != notes.me
    if claim and unclaimed and view.cards_left() <= 3 and notes.can_spend(claim):
        return claim
    return None


def _look(notes: Notes, buys: list[Action], lab_at: int) -> Action | None:
    """A briefing of the co-located rival holding the most cards not seen (at least
    BRIEF_AT), else a lab view showing at least `lab_at` (and LAB_AT) cards not seen, paying
    for the turned ones not seen as far as the spare points go."""
    briefs = [
        a
        for a in buys
        if isinstance(a, act.Briefing)
        and a.target is not None
        and notes.unseen_in_hand(a.target) >= BRIEF_AT
        and notes.can_spend(a)
    ]
    if briefs:
        return max(briefs, key=lambda a: notes.unseen_in_hand(a.target or 0))
    labs = [a for a in buys if isinstance(a, act.Lab) and notes.can_spend(a)]
    if not labs:
        return None
    best = max(labs, key=lambda a: (notes.lab_view_shows(a), -len(a.positions)))
    wasted = set(best.positions) - notes.unseen_lab_positions
    if notes.lab_view_shows(best) >= max(lab_at, LAB_AT) and not wasted:
        return best
    return None


def _chase(notes: Notes, buys: list[Action]) -> Action | None:
    """A move to the rival holding the most cards not seen (at least BRIEF_AT), when the
    move and the briefing after it both fit in the spare points and a 4 is left."""
    view, me = notes.view, notes.me
    if not view.pool[3]:
        return None
    moves = {a.district: a for a in buys if isinstance(a, act.Move) and notes.can_spend(a, 4)}
    rivals = [
        j
        for j in range(view.game.players)
        if j != me
        and view.pawn[j] != view.pawn[me]
        and view.pawn[j] in moves
        and notes.unseen_in_hand(j) >= BRIEF_AT
    ]
    if not rivals:
        return None
    target = max(rivals, key=lambda j: (notes.unseen_in_hand(j), -j))
    return moves[view.pawn[target] or 0]


def _move(notes: Notes, buys: list[Action]) -> Action | None:
    """To the open deck with the most traits not seen, when the deck underfoot is out (the
    move and a draw there both within the draw allowance)."""
    view, me = notes.view, notes.me
    if notes.open_deck(notes.deck_here()) or view.cards_left() == 0:
        return None
    taken = {d for j, d in enumerate(view.pawn) if j != me and d is not None}
    moves = [
        a
        for a in buys
        if isinstance(a, act.Move)
        and notes.open_deck(view.deck_at.get(a.district))
        and notes.can_spend(a, 3, drawing=True)
    ]
    if not moves:
        return None
    return max(
        moves,
        key=lambda a: (
            a.district not in taken,
            len(notes.candidates[view.deck_at[a.district]]),
            view.deck_size(view.deck_at[a.district]),
            -a.district,
        ),
    )
