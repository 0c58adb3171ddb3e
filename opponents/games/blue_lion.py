"""Blue Lion bots: a greedy heuristic and an expectiminimax solver over the posterior."""

from __future__ import annotations

import random
from collections.abc import Iterable

from engines import Action, InformationSet, Seat
from engines.blue_lion import ICONS, TILES, BlueLion, BlueLionState
from engines.blue_lion.material import ICON_NAMES
from opponents.base import BotKind, SearchingBot, SeatedBot
from solver import Hint
from solver.games.blue_lion import back_fact, events
from solver.search import check_knobs
from solver.search.blue_lion import KNOBS, MAX_NODES, choose


def net_gain(before: BlueLionState, after: BlueLionState, seat: Seat) -> int:
    """Points `seat` gained minus points its opponent gained between two positions."""
    return sum(
        (after.scores[s] - before.scores[s]) * (1 if s == seat else -1) for s in before.scores
    )


class HeuristicBot(SeatedBot):
    """Greedy on the points of its own move, as a player without a notebook would be.

    A blind flip is valued as if its back were any of the three other icons alike (no
    deduction from the faces seen); ties are broken at random.
    """

    game: BlueLion

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        state = self.game.public_state(info)
        scored = [(self._value(state, action), action) for action in legal]
        best = max(value for value, _ in scored)
        return self.rng.choice([action for value, action in scored if value == best])

    def _value(self, state: BlueLionState, action: Action) -> float:
        tile = getattr(action, "flipped_tile", None)
        if tile is None:
            after = state.clone()
            after.apply_trusted(action)
            return net_gain(state, after, self.seat)
        up = state.up[tile]
        total = 0.0
        for back in (icon for icon in ICONS if icon != up):
            after = state.with_pairs({**state.pairs(), tile: frozenset((up, back))})
            after.apply_trusted(action)
            total += net_gain(state, after, self.seat)
        return total / 3


# --- the notepad ------------------------------------------------------------------------------
Sources = tuple[int, ...]
"""Indices of the observations a line of the notepad comes from."""


def faces_seen(info: InformationSet) -> dict[str, dict[str, int]]:
    """Each tile's faces seen so far, each with the observation that first showed it."""
    seen: dict[str, dict[str, int]] = {tile: {} for tile in TILES}
    for tile, shown in events(info).items():
        for index, face in shown:
            seen[tile].setdefault(face, index)
    return seen


def crossed_backs(info: InformationSet) -> dict[str, dict[str, tuple[str, Sources]]]:
    """The backs pen and paper cross off, per tile showing one face: {icon: (why, sources)}.

    Two direct rules, no chains: the pair of a tile whose both faces were seen is on no other
    tile, and an icon seen on three tiles is on no other (each icon is on three tiles).
    """
    seen, shown_now = faces_seen(info), events(info)
    known = {tile: faces for tile, faces in seen.items() if len(faces) == 2}
    on_three: dict[str, list[str]] = {
        icon: [tile for tile in TILES if icon in seen[tile]] for icon in ICONS
    }
    crossed: dict[str, dict[str, tuple[str, Sources]]] = {}
    for tile in TILES:
        if tile in known or not shown_now.get(tile):
            continue
        now, up = shown_now[tile][-1]
        crossed[tile] = {}
        for icon in ICONS:
            owner = next((t for t, faces in known.items() if set(faces) == {up, icon}), None)
            if owner is not None:
                why = f"{owner} carries {ICON_NAMES[up]}-{ICON_NAMES[icon]} (both its faces seen)"
                crossed[tile][icon] = (why, (now, *known[owner].values()))
            elif icon != up and len(on_three[icon]) == 3:
                why = f"{ICON_NAMES[icon]} is on three tiles already ({', '.join(on_three[icon])})"
                crossed[tile][icon] = (why, tuple(seen[t][icon] for t in on_three[icon]))
    return crossed


def notepad(info: InformationSet) -> list[Hint]:
    """What a careful person with pen and paper knows of the backs, as hints: first each back
    known (both faces seen, or the other icons crossed off), then each back crossed off, by
    tile, each with the sentences of the observations it comes from."""
    game = info.make_game()
    seen, shown_now = faces_seen(info), events(info)

    def because(sources: Iterable[int]) -> tuple[str, ...]:
        return tuple(game.describe(info.observations[i]) for i in sorted(set(sources)))

    known, out = [], []
    for tile, faces in seen.items():
        if len(faces) == 2:
            up = shown_now[tile][-1][1]
            (back,) = set(faces) - {up}
            text = f"{tile}'s back is {ICON_NAMES[back]}: both its faces have been seen"
            known.append(
                Hint(text, back_fact(tile, up, back), 1.0, because(faces.values()), "notepad", 1.0)
            )
    for tile, crossed in crossed_backs(info).items():
        up = shown_now[tile][-1][1]
        left = [icon for icon in ICONS if icon != up and icon not in crossed]
        if len(left) == 1:
            every = [i for _, found in crossed.values() for i in found]
            text = f"{tile}'s back is {ICON_NAMES[left[0]]}: the other icons are crossed off"
            known.append(
                Hint(text, back_fact(tile, up, left[0]), 1.0, because(every), "notepad", 1.0)
            )
        for icon, (why, sources) in crossed.items():
            text = f"{tile}'s back is not {ICON_NAMES[icon]}: {why}"
            out.append(Hint(text, back_fact(tile, up, icon), 0.0, because(sources), "notepad"))
    return known + out


class SolverBot(SearchingBot):
    """Expectiminimax over the exact posterior of the backs (`solver.search.blue_lion`, the
    search `solver.advise` reads its advice from), deepened while work allows.

    The search is bounded by work, so a seed gives the same move on any machine: it deepens
    up to `max_depth` while the next depth fits in `max_nodes` positions in all. `time_budget`
    (seconds, off by default) is only a safety ceiling: when set, the search also stops before
    a depth it would not finish in time, which makes the move depend on the machine's speed.
    `model` weighs the worlds by a model of the opponent ("random" or a bot's name:
    `solver.deduce(info, model=...)`); "counting" (the default) weighs every consistent world
    alike. Both seats see the whole record, so no model tells the worlds apart and a model
    only adds its cost.
    """

    game: BlueLion
    OPTIONS = tuple(KNOBS)

    def __init__(
        self,
        game: BlueLion,
        seat: Seat,
        rng: random.Random,
        time_budget: float | None = None,
        max_depth: int = 3,
        max_nodes: int = MAX_NODES,
        model: str = "counting",
    ) -> None:
        super().__init__(game, seat, rng, time_budget)
        knobs = {
            "time_budget": time_budget,
            "max_depth": max_depth,
            "max_nodes": max_nodes,
            "model": model,
        }
        self.knobs = check_knobs(game.name, KNOBS, knobs)
        self.max_depth, self.max_nodes = max_depth, max_nodes
        self.last_depth = 0
        """The deepest search the last move completed."""
        self.nodes = 0
        """Positions the last move's search visited (its work)."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        move, search, _, _ = choose(info, self.rng, **self.knobs)
        self.nodes, self.last_depth = search.nodes, search.depth
        return move


BOTS: dict[str, BotKind] = {"heuristic": HeuristicBot, "solver": SolverBot}
