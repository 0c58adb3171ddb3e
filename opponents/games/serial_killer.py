"""Serial Killer bots: a notepad heuristic and a solver bot that buys by expected information
per point against the race."""

from __future__ import annotations

import random

from engines import Action, ConfigError, InformationSet, Seat
from engines.serial_killer import WEAPON_MAX, SerialKiller, SerialKillerState, replay
from engines.serial_killer import actions as act
from opponents.base import BotKind, GuessingBot, SearchingBot
from opponents.games.serial_killer_careful import CarefulBot
from opponents.games.serial_killer_notepad import guess, notepad_candidates
from opponents.policy import Guess, coin
from solver import Hint
from solver.games.serial_killer.position import parse
from solver.games.serial_killer.race import own_candidates, roll_chance
from solver.search import Turn
from solver.search import serial_killer as search

SAFE_ROLL = 0.9
"""The chance of out-rolling ferocity a bot keeps for its declaration when it spends."""
LATER = 10
"""About how much ferocity grows in a round (unbought dice, the hunted bonus)."""
FADING = 0.5
LAST_CHANCE = 0.2
"""A heuristic declares its best guess when its roll would be less likely than FADING after
another round's growth but is still at least LAST_CHANCE now: waiting cannot help it, and a
roll that can no longer succeed leaves the game to end with everyone losing."""


def notepad(info: InformationSet) -> list[Hint]:
    """Per genre, the traits crossed off (seen in a draw, a briefing or the lab), and the
    profile's trait once only one is left."""
    if not info.observations:
        return []
    game = SerialKiller.of(info)
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


def _affordable(view: SerialKillerState, seat: int, action: Action) -> bool:
    """Whether buying keeps a good chance of out-rolling next round's ferocity."""
    after = view.dice_for(seat) - view.cost(seat, action) // view.game.options["points_per_die"]
    return roll_chance(after, view.ferocity + 3) >= SAFE_ROLL


class HeuristicBot(GuessingBot):
    """Plays like a careful person with a notepad: draws where it has most unknowns, briefs
    when it can, keeps its points above ferocity, and declares once the weapon track allows
    and its profile is certain or the decks are nearly out."""

    game: SerialKiller

    def _decide(self, info: InformationSet, legal: list[Action]) -> Action | Guess:
        view = _view(info, self.game)
        me = self.seat
        assert isinstance(me, int)
        candidates = notepad_candidates(view, me)
        unknown = {g: len(c) for g, c in candidates.items()}
        if isinstance(legal[0], act.Place):
            most = max(unknown[g] for g in view.deck_district)
            best = self.rng.choice([g for g in view.deck_district if unknown[g] == most])
            return act.Place(view.deck_district[best])
        if isinstance(legal[0], act.Discard):
            return self.rng.choice(legal)
        if any(isinstance(a, act.Declare) for a in legal) and not any(
            isinstance(a, act.Investigate | act.Weapon | act.Move) for a in legal
        ):
            ready = self._ready(view, unknown, me)
            if ready or not any(isinstance(a, act.Skip) for a in legal):
                return guess(candidates)
            return act.Skip()
        return self._buy(view, legal, unknown, me)

    @staticmethod
    def _ready(view: SerialKillerState, unknown: dict[str, int], me: int) -> bool:
        """Ready to declare: the profile is certain, the decks are nearly out, or the roll
        is likely now and would not be a round later (waiting only loses)."""
        if all(n == 1 for n in unknown.values()) or view.cards_left() <= 2:
            return True
        dice = view.dice_for(me)
        return (
            roll_chance(dice, view.ferocity) >= LAST_CHANCE
            and roll_chance(dice, view.ferocity + LATER) < FADING
        )

    def _buy(
        self, view: SerialKillerState, legal: list[Action], unknown: dict[str, int], me: int
    ) -> Action:
        """What to spend on, the first that applies: nothing when ready to declare this
        round; a draw from an open deck underfoot; the briefing of the largest hand; a weapon
        die when ready but the track is short; a move to an open deck; a lab view (half the
        time); a weapon die; else pass. Only what keeps the declaration's roll safe."""
        ready = self._ready(view, unknown, me)
        stop = next((a for a in legal if isinstance(a, act.Pass | act.End)), act.Pass())
        if ready and view.weapon >= WEAPON_MAX and not view.bought[me]:
            return stop  # stay eligible to declare this round
        buys = [a for a in legal if act.face_of(a) is not None and _affordable(view, me, a)]
        learn = _draw_here(view, buys, unknown, me) or _largest_briefing(view, buys)
        if learn is not None:
            return learn
        weapon = next((a for a in buys if isinstance(a, act.Weapon)), None)
        if ready and view.weapon < WEAPON_MAX and weapon is not None:
            return weapon
        look = _open_move(view, buys, unknown) or self._free_lab_view(view, buys)
        if look is not None:
            return look
        if weapon is not None and view.weapon < WEAPON_MAX:
            return weapon
        return stop  # a pass, or the end of a pick of several dice

    def _free_lab_view(self, view: SerialKillerState, buys: list[Action]) -> act.Lab | None:
        """Half the time (a coin drawn only when it applies), a lab view paying for no
        turned card, when the lab holds cards."""
        labs = [a for a in buys if isinstance(a, act.Lab) and not a.positions]
        if labs and len(view.lab_genres) > 0 and coin(self.rng, 0.5):
            return labs[0]
        return None


def _draw_here(
    view: SerialKillerState, buys: list[Action], unknown: dict[str, int], me: int
) -> act.Investigate | None:
    """The cheapest draw from the deck underfoot, when its genre has traits left to learn."""
    here = view.deck_at.get(view.pawn[me] or 0)
    draws = sorted((a for a in buys if isinstance(a, act.Investigate)), key=lambda a: a.face)
    if draws and here is not None and unknown[here] > 1:
        return draws[0]
    return None


def _largest_briefing(view: SerialKillerState, buys: list[Action]) -> act.Briefing | None:
    """The briefing of the rival holding the most cards (the first of those, on a tie)."""
    briefs = [a for a in buys if isinstance(a, act.Briefing)]
    if briefs:
        return max(briefs, key=lambda a: len(view.hand_genres[a.target or 0]))
    return None


def _open_move(
    view: SerialKillerState, buys: list[Action], unknown: dict[str, int]
) -> act.Move | None:
    """A move to the deck with the most traits left to learn (of those with more than one
    card and more than one trait left; the lowest district on a tie)."""
    moves = [a for a in buys if isinstance(a, act.Move) and a.district in view.deck_at]
    open_moves = [
        a
        for a in moves
        if view.deck_size(view.deck_at[a.district]) > 1 and unknown[view.deck_at[a.district]] > 1
    ]
    if open_moves:
        return max(open_moves, key=lambda a: (unknown[view.deck_at[a.district]], -a.district))
    return None


class SolverBot(SearchingBot):
    """Exact deduction against the race: the search `solver.advise` reads its advice from
    (solver/search/serial_killer.py), so the bot's move and the advice are one computation."""

    game: SerialKiller

    def __init__(
        self, game: SerialKiller, seat: Seat, rng: random.Random, time_budget: float | None = None
    ) -> None:
        if not game.options["genre_public"]:
            raise ConfigError(
                "serial-killer: the solver bot counts worlds genre by genre, which needs the card "
                "backs to show their genre (option genre_public True); try 'heuristic'"
            )
        super().__init__(game, seat, rng, time_budget)

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        return search.advise(Turn(info, legal, self.rng, {}), self.time_budget).move


BOTS: dict[str, BotKind] = {
    "heuristic": HeuristicBot,
    "careful": CarefulBot,
    "solver": SolverBot,
}
