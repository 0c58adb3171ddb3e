"""Alibi's knowledge model (rules/alibi.md, "Inference").

Hidden: the box and every card's location at every epoch (so the deal and each pass choice).
`model` states the rules and each observation as constraints; `counting` counts consistent
histories exactly with a dynamic program over cards where that is within reach, and `chain`
estimates probabilities with a Metropolis chain over histories where it is not; `witnesses`
keeps the histories CP-SAT found between refreshes of one game, so that the next refresh needs
fewer solves to decide what is possible; `hinting` builds the hints from a deduction and finds the
most informative next question.
"""

from __future__ import annotations

import threading
import time

from ortools.sat.python import cp_model_helper

from engines import InformationSet, State
from engines.alibi import AlibiState
from engines.alibi.observations import Deal, PassedCards
from solver.cpsat import Compiled
from solver.games.alibi import chain as chains
from solver.games.alibi import witnesses
from solver.games.alibi.chain import Carried, HistoryChain
from solver.games.alibi.counting import CountedHistories, count_histories
from solver.games.alibi.hinting import answer, forget_explanations, hints, plainly_known
from solver.games.alibi.model import (
    BOX,
    BOX_GROUP,
    IN_BOX,
    AtVar,
    PassVar,
    SeenVar,
    VarKey,
    at_var,
    build,
    paths_of,
    var_key,
    world_from,
)
from solver.games.alibi.position import Position, Trajectory, parse, validate
from solver.model import Model, World

__all__ = [
    "ANSWER_KINDS",
    "CPSAT_PARAMETERS",
    "answer",
    "build",
    "forget",
    "hints",
    "history_of",
    "known_world",
    "near_world",
    "plainly_known",
    "query_variables",
    "validate",
    "world_of",
    "world_set",
]


ANSWER_KINDS = frozenset({IN_BOX, BOX_GROUP})
"""The facts that make up the hidden answer (whose odds moving is news)."""
CPSAT_PARAMETERS = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "linearization_level": 0,
    "symmetry_level": 0,
    "search_branching": cp_model_helper.SatParameters.PARTIAL_FIXED_SEARCH,
}
"""The model is a plain clause-and-cardinality problem that CP-SAT's SAT core solves at once;
presolve, probing and LP relaxations cost several times the search on every query. The first
solve of a position follows the model's `branching` (each card's whole trajectory in turn)
for `GUIDED_WORK`, then searches on its own (`Compiled.solve(guided=True)`)."""


def history_of(state: AlibiState) -> tuple[Position, list[Trajectory]]:
    """The true trajectories of every card in a full-truth state (from its complete log)."""
    pos = parse(state.information_set(0))
    at = [pos.box] * len(pos.ids)
    for seat in range(pos.players):
        for obs in state.information_set(seat).observations:
            if isinstance(obs, Deal):
                for card in obs.cards:
                    at[pos.index[card]] = seat
    paths = [[loc] for loc in at]
    for e in range(1, pos.epoch + 1):
        moved = {}
        for obs, _ in state.recorded():
            if isinstance(obs, PassedCards) and obs.round == e and obs.cards:
                moved.update({pos.index[card]: obs.receiver for card in obs.cards})
        for c, path in enumerate(paths):
            if pos.alive(c, e):
                path.append(moved.get(c, path[-1]))
    return pos, [tuple(path) for path in paths]


def world_of(state: State) -> World:
    assert isinstance(state, AlibiState)
    pos, paths = history_of(state)
    return world_from(pos, paths)


def query_variables(model: Model) -> set[str]:
    """The variables facts ask about; the solver decides the rest only on demand."""
    return {fact.var for fact in model.facts}


def forget() -> None:
    """Drop what Alibi remembers between refreshes: explanations, kept histories and chains,
    parsed positions."""
    forget_explanations()
    witnesses.clear()
    chains.forget()
    parse.cache_clear()


def known_world(model: Model, compiled: Compiled) -> World | None:
    """A consistent world of `model` without a solve: a record of the chain of the position
    before that still fits (`chain.carry` checks what the new observations add), or of the
    same position's chain."""
    pos = parse(model.info)
    carried = _carried(pos)
    if carried is None or not carried.runs:
        return None
    return world_from(pos, list(carried.runs[-1][-1]), model)


def near_world(model: Model) -> World | None:
    """When no kept record fits (a new round, or answers no record agrees with): the last
    record of the kept chain, its variables up to that chain's epoch. The passes and answers
    since change few cards' places, so CP-SAT, trying it first, finds a consistent history
    sooner: over 87 first solves of new rounds in 10 4-player games, a median of 24 ms and at
    most 0.16 s (without it, 39 ms and up to 0.97 s).

    Records are not carried into a new round: the cards the seat received must have been in
    the giver's hand, and a round's pass moves as many cards as its number, so by round 4
    hardly one record in a thousand of the round before agrees (measured: none of 1,500-3,100
    in most new rounds of two 4-player games)."""
    pos = parse(model.info)
    before = chains.previous(pos)
    if before is None or not before.records:
        return None
    last = before.pos.epoch
    paths = [path[: pos.last[c] + 1] for c, path in enumerate(before.records[-1])]
    return {
        name: value
        for name, value in world_from(pos, paths, model).items()
        if _epoch(var_key(name)) <= last
    }


def _epoch(key: VarKey) -> int:
    """The epoch a variable is about (the box: before any)."""
    match key:
        case AtVar(epoch=epoch) | SeenVar(epoch=epoch):
            return epoch
        case PassVar(round=round_number):
            return round_number
    return 0


def _carried(pos: Position) -> Carried | None:
    """The records of the kept chain that fit `pos` (all of them for the same position),
    by run; computed once per position (`known_world`, then `world_set`)."""
    before = chains.previous(pos)
    if before is None:
        return None
    if before.pos.info == pos.info:
        return before.as_carried()
    key = (id(before), pos.info)
    with _CARRIED_LOCK:
        if key in _CARRIED:
            return _CARRIED[key]
    carried = chains.carry(before, pos)
    with _CARRIED_LOCK:
        _CARRIED[key] = carried
        while len(_CARRIED) > 2:
            del _CARRIED[next(iter(_CARRIED))]
    return carried


_CARRIED: dict[tuple[int, InformationSet], Carried | None] = {}
"""The last two positions' carried records (a module cache guarded by `_CARRIED_LOCK`, keyed
by the kept chain's identity and the position; its values are only read once made)."""
_CARRIED_LOCK = threading.Lock()


def world_set(model: Model, compiled: Compiled) -> CountedHistories | HistoryChain:
    """Exact counts when the dynamic program stays small (and, with a caller's deadline,
    finishes before it), else the chain's estimate."""
    pos = parse(model.info)
    budget = compiled.deadline  # a caller's budget bounds the counting too (else only work)
    seconds = None if budget is None else max(0.0, budget - time.monotonic())
    counted = count_histories(pos, model, seconds=seconds)
    if counted is not None:
        return counted
    before = chains.previous(pos)
    if before is not None and before.pos.info == pos.info:
        return before  # the same position again (a bot right after the hints, or advice)
    carried = _carried(pos)
    _rule_out_moves(pos, compiled)
    start = compiled.witness if compiled.witness is not None else compiled.solve()[0]
    assert start is not None, "deduce checks consistency first"
    paths, steps, burn = paths_of(pos, start), chains.STEPS, None
    if carried is not None and sum(map(len, carried.runs)) >= chains.CARRIED_ENOUGH:
        paths, steps, burn = list(carried.runs[-1][-1]), chains.CARRIED_STEPS, 0
    chain = HistoryChain(
        pos, model, paths, steps=steps, deadline=compiled.deadline, carried=carried, burn=burn
    )
    chain.explore(compiled)
    if compiled.deadline is None or time.monotonic() < compiled.deadline:
        chains.remember(chain)  # a run cut short by a budget is never carried on; one that
        # finished before it is the run without one (a seed's refreshes stay the same)
    return chain


def _rule_out_moves(pos: Position, compiled: Compiled) -> None:
    """Places a card cannot be now, from where it could not be an epoch before (a card stays
    or moves one seat left, and the box never changes): `compiled.impossible` then spares
    `deduce` the solves about them. Sound because every world of this model is, on the
    earlier epochs' variables, a world of the model compiled before it."""
    if not compiled.extended or pos.epoch == 0:
        return
    impossible, e, n = compiled.impossible, pos.epoch, pos.players
    for c, card in enumerate(pos.ids):
        if pos.last[c] < e:
            continue
        before, now = at_var(card, e - 1), at_var(card, e)
        if (before, BOX) in impossible:
            impossible.add((now, BOX))
        for seat in range(n):
            if (before, seat) in impossible and (before, (seat - 1) % n) in impossible:
                impossible.add((now, seat))
