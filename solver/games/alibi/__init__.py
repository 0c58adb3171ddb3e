"""Alibi's knowledge model (rules/alibi.md, "Inference").

Hidden: the box and every card's location at every epoch (so the deal and each pass choice).
`model` states the rules and each observation as constraints; `counting` counts consistent
histories exactly with a dynamic program over cards where that is within reach, and `chain`
estimates probabilities with a Metropolis chain over histories where it is not; `advice` turns
a deduction into hints and the most informative next question.
"""

from __future__ import annotations

from engines import State
from engines.alibi import AlibiState
from solver.games.alibi.model import build, world_from
from solver.games.alibi.position import Position, Trajectory, parse
from solver.model import World

__all__ = ["build", "history_of", "world_of"]


def history_of(state: AlibiState) -> tuple[Position, list[Trajectory]]:
    """The true trajectories of every card in a full-truth state (from its complete log)."""
    pos = parse(state.information_set(0))
    at = [pos.box] * len(pos.ids)
    for seat in state.game.seats:
        for obs in state.information_set(seat).observations:
            if obs.kind == "deal":
                for card in obs["cards"]:
                    at[pos.index[card]] = seat
    paths = [[loc] for loc in at]
    for e in range(1, pos.epoch + 1):
        moved = {}
        for obs, _ in state._log:
            if obs.kind == "pass" and obs["round"] == e and obs.get("cards"):
                moved.update({pos.index[card]: obs["receiver"] for card in obs["cards"]})
        for c, path in enumerate(paths):
            if pos.alive(c, e):
                path.append(moved.get(c, path[-1]))
    return pos, [tuple(path) for path in paths]


def world_of(state: State) -> World:
    assert isinstance(state, AlibiState)
    pos, paths = history_of(state)
    return world_from(pos, paths)
