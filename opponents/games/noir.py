"""Noir bots for both roles: a notebook heuristic and an expectimax solver over the Deduction.

Both read only their information set. The solver's worlds are the opponent's identities the
Deduction allows, each with its exact probability (there are at most 25, so all are searched
rather than sampled). Its search looks one reply deep: each of its own actions, then the
opponent's reply in every world, the opponent modelled as acting on what the public record
tells him about us; leaves are valued by the chance of winning on the move after.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engines import Action, InformationSet, Seat
from engines.noir import Grid, Noir
from engines.noir import actions as act
from engines.noir import observations as seen
from engines.noir.grid import adjacent, block, neighbours
from engines.noir.material import INSPECTOR, KILLER
from opponents.base import BotKind, SearchingBot, SeatedBot
from opponents.policy import coin
from solver import Hint
from solver.games.noir import (
    INSPECTOR_VAR,
    KILLER_VAR,
    Moment,
    chosen_at,
    current_grid,
    dead_cards,
    inspector_constraints,
    inspector_fact,
    inspector_hand,
    killer_constraints,
    killer_fact,
    last_disguise,
    moments,
    own_identity,
)
from solver.model import Clause, Constraint, Fact
from solver.search import check_knobs
from solver.search.noir import KNOBS, choose, innocent_cards


# --- the notepad ------------------------------------------------------------------------------
def notepad(info: InformationSet) -> list[Hint]:
    """What a careful person with pen and paper has crossed off, as hints: who the opponent
    may still be, the heuristic bot's tip (the inspector: beside the last card a canvas
    answered "!" for; the killer: at or beside the inspector's last arrest), then each suspect
    crossed off, with the sentences of the observations that crossed it off.

    The crossings are the direct eliminations of the knowledge model (a kill, a card held or
    exonerated, a disguise, a failed arrest since the killer's last disguise); the solver's
    adjacency reasoning is not on the notepad.
    """
    if not info.observations:
        return []
    game = Noir.of(info)
    if info.seat == INSPECTOR:
        crossed = crossings(killer_constraints(info), KILLER_VAR)
        tip = _canvas_tip(info)
        who, fact_of = "killer", killer_fact
    else:
        if chosen_at(info.observations) is None:
            return []
        crossed = crossings(inspector_constraints(info, capacity=False), INSPECTOR_VAR)
        tip = _arrest_tip(info)
        who, fact_of = "inspector", inspector_fact
    sources = {i: info.observations[i] for found in crossed.values() for i in found}

    def because(indices: Sequence[int]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(game.describe(sources[i]) for i in sorted(indices)))

    left = [name for name in game.suspects if name not in crossed]
    found = [_summary(who, left, fact_of, because(list(sources)))]
    if tip is not None:
        moment, card, near = tip
        shown = [name for name in near if name in left]
        found.append(Hint(f"{_tip_text(who, card)}: one of {', '.join(shown) or 'none'}",
                          None, None, (game.describe(moment.obs),), "summary", 1.5))  # fmt: skip
    for name in sorted(crossed, key=lambda n: (_rank(info, crossed[n]), game.suspects.index(n))):
        reason = _reason(info, info.seat, crossed[name][0])
        found.append(Hint(f"{name} is not the {who} ({reason})", fact_of(name), 0.0,
                          because(crossed[name]), "notepad", 0.0,
                          (f"Not the {who} ({reason})", name)))  # fmt: skip
    return found


def crossings(constraints: Sequence[Constraint], var: str) -> dict[str, list[int]]:
    """Each value of `var` a constraint rules out by itself, with the indices of the
    observations that do so."""
    found: dict[str, list[int]] = {}
    for constraint in constraints:
        if not isinstance(constraint, Clause) or constraint.positive:
            continue
        if len(constraint.negative) == 1 and constraint.source is not None:
            lit = constraint.negative[0]
            if lit.var == var:
                found.setdefault(str(lit.value), []).append(constraint.source)
    return found


def _summary(who: str, left: Sequence[str], fact_of: Callable[[str], Fact],
             because: tuple[str, ...]) -> Hint:  # fmt: skip
    if not left:
        return Hint(f"Every suspect is crossed off as the {who}: an entry is wrong",
                    None, None, because, "notepad", 2.0)  # fmt: skip
    if len(left) == 1:
        text = f"{left[0]} is the {who}: every other suspect is crossed off"
        return Hint(text, fact_of(left[0]), 1.0, because, "notepad", 2.0)
    return Hint(f"The {who} is one of {len(left)} not crossed off: {', '.join(left)}",
                None, None, (), "summary", 2.0)  # fmt: skip


Tip = tuple[Moment, str, list[str]]
"""A heuristic bot's tip: the observation it reads (with its grid), the card it is about, and
the suspects it points to."""


def _canvas_tip(info: InformationSet) -> Tip | None:
    """The heuristic inspector's tip: the last canvas since the killer's last disguise, when it
    answered "!": the killer was beside that card."""
    since = last_disguise(info.observations)
    canvases = [(m, m.obs) for m in moments(info.observations)
                if (since is None or m.index > since)
                and isinstance(m.obs, seen.Canvas) and m.obs.seat == KILLER]  # fmt: skip
    if not canvases or not canvases[-1][1].adjacent:
        return None
    last, canvas = canvases[-1]
    return last, canvas.suspect, neighbours(last.grid, canvas.suspect)


def _arrest_tip(info: InformationSet) -> Tip | None:
    """The heuristic killer's tip: the inspector was at or beside his last arrest."""
    arrests = [(m, m.obs) for m in moments(info.observations) if isinstance(m.obs, seen.Arrested)]
    if not arrests:
        return None
    last, arrest = arrests[-1]
    return last, arrest.suspect, block(last.grid, arrest.suspect)


def _tip_text(who: str, card: str) -> str:
    if who == "killer":
        return f'The killer was beside {card} when the canvas said "!"'
    return f"The inspector was {card} or beside {card} when he arrested {card}"


def _reason(info: InformationSet, seat: Seat, index: int) -> str:
    """Why a suspect is crossed off, by the observation that crossed it off."""
    match info.observations[index]:
        case seen.Disguised():
            return "the killer's former identity"
        case seen.DisguiseTried():
            return "drawn by a failed disguise"
        case seen.IdentityTold():
            return "one of your identities" if seat == KILLER else "your identity"
        case seen.CitizenArrested() if seat == KILLER:
            return "an agent he used"
        case seen.Arrested() | seen.CitizenArrested():
            return "a failed arrest"
        case seen.Hand() | seen.Drew():
            return "one of your cards"
        case seen.Exonerated():
            return "exonerated"
        case seen.Killed():
            return "dead"
        case other:
            return other.kind


def _rank(info: InformationSet, indices: Sequence[int]) -> int:
    """Crossings a glance at the grid does not give come first: the dead come last."""
    return 1 if all(isinstance(info.observations[i], seen.Killed) for i in indices) else 0


# --- heuristic ------------------------------------------------------------------------------
class HeuristicInspector(SeatedBot):
    """Exonerates his cards; arrests when the last canvas said "!" about a card next to him.

    His notebook holds direct eliminations only: the killer is alive, not innocent, none of his
    own cards, not a suspect he arrested since the last disguise, and beside the last card a
    canvas answered "!" for.
    """

    game: Noir

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        if all(isinstance(a, act.Identity | act.Exonerate) for a in legal):
            return self.rng.choice(legal)  # choosing an identity, or which card to exonerate
        arrests = [a for a in legal if isinstance(a, act.Arrest)]
        target = self._tip(info)
        if target:
            chosen = [a for a in arrests if a.suspect in target]
            if chosen:
                return self.rng.choice(chosen)
        for kind in (act.Draw, act.Exonerate):
            moves = [a for a in legal if isinstance(a, kind)]
            if moves:
                return self.rng.choice(moves)
        candidates = self._notebook(info)
        return self.rng.choice([a for a in arrests if a.suspect in candidates] or legal)

    def _notebook(self, info: InformationSet) -> set[str]:
        since = last_disguise(info.observations) or -1
        mine = {*inspector_hand(info), own_identity(info)}
        for obs in info.observations:
            match obs:
                case seen.Hand(cards=cards):
                    mine |= set(cards)
                case seen.Drew(suspect=card):
                    mine.add(card)
        arrested = {o.suspect for i, o in enumerate(info.observations)
                    if isinstance(o, seen.Arrested) and i > since}  # fmt: skip
        grid = current_grid(info.observations)
        alive = {n for row in grid for n in row} - dead_cards(info)
        return alive - innocent_cards(info) - mine - arrested

    def _tip(self, info: InformationSet) -> set[str]:
        """Suspects beside the last card a canvas said "!" for, if that card is next to him."""
        since = last_disguise(info.observations) or -1
        canvases = [m.obs for m in moments(info.observations) if m.index > since
                    and isinstance(m.obs, seen.Canvas) and m.obs.seat == KILLER]  # fmt: skip
        me = own_identity(info)
        if not canvases or not canvases[-1].adjacent or me is None:
            return set()
        card = canvases[-1].suspect
        grid = current_grid(info.observations)
        if card != me and not adjacent(grid, card, me):
            return set()
        return set(neighbours(grid, card)) & self._notebook(info)


class HeuristicKiller(SeatedBot):
    """Kills a neighbour, preferring one beside the inspector's last arrest (he is there);
    disguises now and then, and when an arrest came close."""

    game: Noir

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        kills = [a for a in legal if isinstance(a, act.Kill)]
        disguise = [a for a in legal if isinstance(a, act.Disguise)]
        me, grid = own_identity(info), current_grid(info.observations)
        arrests = [o.suspect for o in info.observations if isinstance(o, seen.Arrested)]
        close = bool(arrests) and me is not None and adjacent_or_same(grid, arrests[-1], me)
        if disguise and close and isinstance(info.observations[-1], seen.Arrested):
            return disguise[0]
        if disguise and (not kills or coin(self.rng, 0.1)):
            return disguise[0]
        if kills:
            near = [a for a in kills if arrests and a.suspect in block(grid, arrests[-1])]
            return self.rng.choice(near or kills)
        return self.rng.choice(legal)


# --- solver ---------------------------------------------------------------------------------
class SolverBot(SearchingBot):
    """Expectimax one reply deep over the opponent's identities, with the Deduction's exact
    probabilities (`solver.search.noir`, the search `solver.advise` reads its advice from).

    Its work is bounded by the game, not the clock: every legal action is scored, once, so a
    seed gives the same move on any machine. `time_budget` (seconds, off by default) is only a
    safety ceiling, and then the one source of non-determinism: past it, the actions not yet
    scored (shifts come last) are skipped. `model` reads the odds under a model of the
    opponent ("random" or a bot's name: `solver.deduce(info, model=...)`), about a second
    a move; "counting" (the default) reads every consistent world as its deal.
    """

    game: Noir
    OPTIONS = tuple(KNOBS)

    scored: int = 0
    """Actions the last move scored (its work; fewer than legal only past the ceiling)."""

    def __init__(
        self,
        game: Noir,
        seat: Seat,
        rng: random.Random,
        time_budget: float | None = None,
        model: str = "counting",
    ) -> None:
        super().__init__(game, seat, rng, time_budget)
        self.knobs = check_knobs(game.name, KNOBS, {"time_budget": time_budget, "model": model})
        self.model = model
        """How its odds read the opponent's choices (`solver.deduce(info, model=...)`)."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        move, scored = choose(info, legal, self.rng, self.time_budget, self.model)
        self.scored = len(scored) if len(legal) > 1 else 0
        return move


def adjacent_or_same(grid: Grid, a: str, b: str) -> bool:
    return a == b or adjacent(grid, a, b)


BOTS: dict[str, BotKind] = {
    "heuristic": {KILLER: HeuristicKiller, INSPECTOR: HeuristicInspector},
    "solver": SolverBot,
}
