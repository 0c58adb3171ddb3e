"""Serial Killer bots: a notepad heuristic and a solver bot that buys by expected information
per point against the race."""

from __future__ import annotations

import random
import time
from math import log2, prod
from typing import Any

from engines import Action, ConfigError, InformationSet, Seat
from engines.serial_killer import (
    WEAPON_MAX,
    Briefing,
    Declare,
    Discard,
    First,
    Investigate,
    Lab,
    Move,
    Pass,
    Place,
    SerialKiller,
    SerialKillerState,
    Skip,
    Weapon,
    replay,
)
from opponents.base import Bot, SeatedBot, check_options, check_time_budget
from solver import Hint
from solver.games.serial_killer.advice import information
from solver.games.serial_killer.counting import CountedWorlds
from solver.games.serial_killer.position import Position, parse
from solver.games.serial_killer.race import own_candidates, roll_chance

SAFE_ROLL = 0.9
"""The chance of out-rolling ferocity a bot keeps for its declaration when it spends."""
LATER = 10
"""About how much ferocity grows in a round (unbought dice, the hunted bonus)."""
ENDGAME = 10
"""Drawable cards left above which the solver only pushes the weapon track (the others'
draws reach the lab and their hands, seen later at once), and below which it looks, draws and
pushes the decks towards the final round."""
PUSH = 2.0
"""What a draw is worth late in the game: it brings the final round nearer, where everything
drawn can be seen at once (the lab and the hands) and the best-informed declaration wins."""
LOOK_BUDGET = 14
"""Points kept back before the final round for the looks that follow the last draw (a lab
view and a briefing or two)."""
LOOK = 0.2
"""How much a look (briefing, lab view) is worth before the final round, against after it,
when it shows cards that can no longer change place."""
RESERVE_ROLL = 0.9
"""The chance of out-rolling next round's ferocity that the solver's reserve keeps."""


def notepad(info: InformationSet) -> list[Hint]:
    """Per genre, the traits crossed off (seen in a draw, a briefing or the lab), and the
    profile's trait once only one is left."""
    if not info.observations:
        return []
    game = info.make_game()
    assert isinstance(game, SerialKiller)
    try:
        position = parse(info)
    except Exception:  # a record the notepad cannot read is the solver's to explain
        return []
    found = []
    for genre, cards in own_candidates(position).items():
        crossed = [c for c in game.parts.by_genre[genre].cards if c not in cards]
        if len(cards) == 1:
            text = f"{genre}: {cards[0]} ({game.parts.trait_name(cards[0])}) is the profile's"
            found.append(Hint(text, None, 1.0, (), "notepad", 1.0))
        elif crossed:
            text = f"{genre}: crossed off {', '.join(crossed)}; left {', '.join(cards)}"
            found.append(Hint(text, None, None, (), "notepad", 0.5))
    return found


def _view(info: InformationSet, game: SerialKiller) -> SerialKillerState:
    assert isinstance(info.seat, int)
    return replay(game, info.observations, info.seat)


def notepad_candidates(view: SerialKillerState, seat: int) -> dict[str, list[str]]:
    """Per genre, the traits `seat` has not seen (drawn, briefed, in the lab): what a notepad
    leaves (the same as the solver's candidates; it needs no genre on the card backs)."""
    seen = view.seen_by(seat)
    return {
        genre.id: [card for card in genre.cards if card not in seen] or list(genre.cards)
        for genre in view.game.parts.genres
    }


def _profile(candidates: dict[str, list[str]], rng: random.Random) -> tuple[str, ...]:
    return tuple(rng.choice(cards) for cards in candidates.values())


def _cards_left(view: SerialKillerState) -> int:
    """Drawable cards left in all decks."""
    return sum(view.deck_size(g) - 1 for g in view.game.parts.genre_ids)


def _affordable(view: SerialKillerState, seat: int, action: Action) -> bool:
    """Whether buying keeps a good chance of out-rolling next round's ferocity."""
    after = view.dice_for(seat) - view.cost(seat, action) // view.game.options["points_per_die"]
    return roll_chance(after, view.ferocity + 3) >= SAFE_ROLL


class HeuristicBot(SeatedBot):
    """Plays like a careful person with a notepad: draws where it has most unknowns, briefs
    when it can, keeps its points above ferocity, and declares once the weapon track allows
    and its profile is certain or the decks are nearly out."""

    game: SerialKiller

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        view = _view(info, self.game)
        me = self.seat
        assert isinstance(me, int)
        candidates = notepad_candidates(view, me)
        unknown = {g: len(c) for g, c in candidates.items()}
        if isinstance(legal[0], Place):
            best = max(view.deck_district, key=lambda g: (unknown[g], self.rng.random()))
            return Place(view.deck_district[best])
        if isinstance(legal[0], Discard):
            return self.rng.choice(legal)
        if any(isinstance(a, Declare) for a in legal) and not any(
            isinstance(a, Investigate | Weapon | Move) for a in legal
        ):
            ready = all(n == 1 for n in unknown.values()) or _cards_left(view) <= 2
            if ready or not any(isinstance(a, Skip) for a in legal):
                return Declare(_profile(candidates, self.rng))
            return Skip()
        return self._buy(view, legal, unknown, me)

    def _buy(
        self, view: SerialKillerState, legal: list[Action], unknown: dict[str, int], me: int
    ) -> Action:
        ready = all(n == 1 for n in unknown.values()) or _cards_left(view) <= 2
        if ready and view.weapon >= WEAPON_MAX and not view.bought[me]:
            return Pass()  # stay eligible to declare this round
        buys = [a for a in legal if not isinstance(a, Pass | Declare) and _affordable(view, me, a)]
        here = view.deck_at.get(view.pawn[me] or 0)
        draws = sorted((a for a in buys if isinstance(a, Investigate)), key=lambda a: a.face)
        if draws and here is not None and unknown[here] > 1:
            return draws[0]
        briefs = [a for a in buys if isinstance(a, Briefing)]
        if briefs:
            return max(briefs, key=lambda a: len(view.hand_genres[a.target or 0]))
        if ready and view.weapon < WEAPON_MAX:
            weapon = [a for a in buys if isinstance(a, Weapon)]
            if weapon:
                return weapon[0]
        moves = [a for a in buys if isinstance(a, Move) and a.district in view.deck_at]
        open_moves = [
            a
            for a in moves
            if view.deck_size(view.deck_at[a.district]) > 1
            and unknown[view.deck_at[a.district]] > 1
        ]
        if open_moves:
            return max(open_moves, key=lambda a: (unknown[view.deck_at[a.district]], -a.district))
        labs = [a for a in buys if isinstance(a, Lab) and not a.positions]
        if labs and len(view.lab_genres) > 0 and self.rng.random() < 0.5:
            return labs[0]
        weapon = [a for a in buys if isinstance(a, Weapon)]
        if weapon and view.weapon < WEAPON_MAX:
            return weapon[0]
        return Pass()


class SolverBot(SeatedBot):
    """Exact deduction against the race.

    Buys: the weapon track first while it is short of 10 (without it nobody can declare);
    then the die with the most expected information about the profile per point (a draw, a
    briefing, a lab view, each weighed by the counted worlds), while it keeps a reserve of
    points that out-rolls the ferocity expected when the decks run out; a move when it
    brings a deck or a hand worth seeing; the first-player die when the final round is near
    (the earliest right declaration wins). Declares when the profile is certain, or when a
    guess is likely and the roll is safe now but will not stay so; in the final round it
    must.
    """

    game: SerialKiller

    def __init__(
        self, game: SerialKiller, seat: Seat, rng: random.Random, time_budget: float | None = None
    ) -> None:
        super().__init__(game, seat, rng)
        self.time_budget = check_time_budget(time_budget)

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        started = time.monotonic()
        view = _view(info, self.game)
        me = self.seat
        assert isinstance(me, int)
        position = parse(info)
        candidates = own_candidates(position)
        if isinstance(legal[0], Place):
            genre = max(view.deck_district, key=lambda g: (len(candidates[g]), self.rng.random()))
            return Place(view.deck_district[genre])
        if isinstance(legal[0], Discard):
            return self.rng.choice(legal)
        right = prod(1 / len(c) for c in candidates.values())
        if any(isinstance(a, Declare) for a in legal) and not any(
            isinstance(a, Investigate | Weapon | Move) for a in legal
        ):
            if self.declares(view, right) or not any(isinstance(a, Skip) for a in legal):
                return Declare(_profile(candidates, self.rng))
            return Skip()
        if view.weapon >= WEAPON_MAX and not view.bought[me] and self.declares(view, right):
            return Pass()  # stay eligible: declare at this round's end
        worlds = CountedWorlds(position)
        reserve = self.reserve(view) + (0 if view.final_round else LOOK_BUDGET)
        patient = not view.final_round and _cards_left(view) > ENDGAME
        best: tuple[float, Action] = (0.0, Pass())
        for action in legal:
            if patient and not isinstance(action, Weapon):
                continue  # early, let the others draw: their cards reach the lab or a hand
            if self.time_budget is not None and time.monotonic() - started > self.time_budget:
                break  # a safety ceiling: the scores so far decide
            if isinstance(action, Pass | Declare):
                continue
            if view.points_left[me] - view.cost(me, action) < reserve:
                continue
            value = self.value(position, worlds, view, action, candidates)
            if value > best[0]:
                best = (value, action)
        return best[1]

    def declares(self, view: SerialKillerState, right: float) -> bool:
        """Whether to declare now: when certain; otherwise at the last round whose roll is
        still likely, since ferocity grows every round (at least a tenth of the unbought
        dice, and the hunted bonus) and a later roll would likely fail."""
        me = self.seat
        assert isinstance(me, int)
        roll = roll_chance(view.dice_for(me), view.ferocity)
        if right == 1:
            return roll > 0.05
        later = roll_chance(view.dice_for(me), view.ferocity + LATER)
        return roll >= 0.5 and later < 0.7

    def reserve(self, view: SerialKillerState) -> int:
        """The points to keep: enough dice to out-roll next round's ferocity (about LATER
        more) with chance 0.9, so that a declaration stays possible."""
        options = self.game.options
        target = view.ferocity + (0 if view.final_round else LATER)
        points = 0
        while (
            roll_chance(options["declare_base"] + points // options["points_per_die"], target)
            < RESERVE_ROLL
        ):
            points += 1
        return points

    def value(
        self,
        position: Position,
        worlds: CountedWorlds,
        view: SerialKillerState,
        action: Action,
        candidates: dict[str, list[str]],
    ) -> float:
        """Bits of the profile per point for buys that show cards; the weapon track while it
        is short; a move by what the draw or the hands there would show, discounted."""
        me = position.seat
        cost = view.cost(me, action)
        if isinstance(action, Weapon):
            return 10.0 if view.weapon < WEAPON_MAX else 0.0
        if isinstance(action, First):
            return 0.0
        drawing = not view.final_round  # before the final round, push the decks out
        if isinstance(action, Move):
            genre = view.deck_at.get(action.district)
            if drawing and genre is not None and view.deck_size(genre) > 1:
                return PUSH / 2
            return LOOK * self._move_value(position, worlds, view, action.district, candidates)
        if isinstance(action, Investigate):
            return PUSH + 1 / cost
        bits = information(position, worlds, view, action, candidates) or 0.0
        return (LOOK if drawing else 1.0) * bits / cost

    def _move_value(
        self,
        position: Position,
        worlds: CountedWorlds,
        view: SerialKillerState,
        district: int,
        candidates: dict[str, list[str]],
    ) -> float:
        """Bits per point of the best buy the move would open (a draw or a briefing there),
        counting the move's own cost."""
        me = position.seat
        move_cost = view.cost(me, Move(district))
        best = 0.0
        genre = view.deck_at.get(district)
        if genre is not None and view.deck_size(genre) > 1 and len(candidates[genre]) > 1:
            k = len(candidates[genre])
            best = max(best, log2(k / (k - 1)) / (3 + move_cost))
        for j, where in enumerate(view.pawn):
            if j != me and where == district:
                brief = (
                    Briefing(j) if view.game.options["briefing_scope"] == "one" else Briefing(None)
                )
                saved = view.pawn[me]
                view.pawn[me] = district
                bits = information(position, worlds, view, brief, candidates) or 0.0
                view.pawn[me] = saved
                best = max(best, bits / (4 + move_cost))
        return best


def make(name: str, game: SerialKiller, seat: Seat, rng: random.Random, **options: Any) -> Bot:
    """The `name` bot; option values are checked by the bot's constructor."""
    if name == "heuristic":
        check_options(name, options, ())
        return HeuristicBot(game, seat, rng)
    check_options(name, options, ("time_budget",))
    if not game.options["genre_public"]:
        raise ConfigError(
            "serial-killer: the solver bot counts worlds genre by genre, which needs the card "
            "backs to show their genre (option genre_public True); try 'heuristic'"
        )
    return SolverBot(game, seat, rng, **options)
