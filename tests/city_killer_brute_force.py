"""A model-free brute force for City Killer's knowledge model: every world (K, M, G, F) is
judged by the engine's own rules, replaying the public record of a game.

The game is replayed once with its true setup; before each action that the hidden world can
make illegal or that reports on it (a murder, the Bomb, an answer, a Profile naming, a
surveillance result, a Confession), the state is kept. A candidate world is then put into
each kept state (its identity, motive, allies and figurant) and the engine is asked whether
that action was legal, and what surveillance and Confession would have said. Group tokens
drawn from the stack were never the allies' (the engine keeps the allies out of the stack).
Under the liar model "random" each answer given by a liar of that world halves its weight.
Under the ally prior "strategic" a world weighs, for its allies g, the chance that the killer
kept g: summed over every 3 tokens he may have drawn (g among them, none seen in the stack
since), g's share of 1 + residents in play against the other two's.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from engines import InvalidState
from engines.city_killer import CityKillerState
from engines.city_killer import actions as act
from engines.city_killer.frames import AnswerQuestion, KillerTurn, NameMotive
from engines.city_killer.material import GROUPS, MOTIVES
from engines.values import JsonReader
from solver.games.city_killer import NONE

_READ = JsonReader(InvalidState, "brute force")


@dataclass
class Event:
    """One action whose legality or report depends on the hidden world, with the state
    just before it."""

    before: CityKillerState
    action: object
    surveillance: tuple[str, bool] | None
    confession: tuple[bool, str | None] | None


def events(state: CityKillerState) -> tuple[list[Event], list[str]]:
    """The events of `state`'s game and the stack tokens it revealed."""
    game = state.game
    assert state._setup is not None
    rng = random.Random()
    rng.setstate(state._setup.rng)
    replay = game._arrange_from_dict(state._setup.to_dict(), rng, _READ)
    found = []
    for action in state._actions:
        before = replay.clone()
        frame = replay.frames[-1]
        start = len(replay._log)
        replay.apply(action)
        new = [obs for obs, to in replay._log[start:] if to is None]
        watch = next(((o["name"], o["answer"]) for o in new if o.kind == "surveillance"), None)
        confession = next((o["group"] for o in new if o.kind == "confession"), False)
        relevant = (
            watch is not None
            or confession is not False
            or (
                isinstance(frame, KillerTurn)
                and isinstance(action, act.Named)
                and action.verb == "murder"
            )
            or (isinstance(action, act.Play) and action.card == "bomb")
            or isinstance(frame, AnswerQuestion | NameMotive)
        )
        if relevant:
            told = None if confession is False else (True, confession)
            found.append(Event(before, action, watch, told))
    return found, list(replay.revealed_tokens)


def _world_state(event: Event, k: str, m: str, g: str, f: str | None) -> CityKillerState:
    state = event.before
    state._identity, state._motive, state._allies, state._figurant = k, m, g, f
    return state


def judge(event: Event, k: str, m: str, g: str, f: str | None) -> float:
    """The factor this event gives the world: 0 impossible, 1 or (a liar's answer) 0.5."""
    state = _world_state(event, k, m, g, f)
    action = event.action
    frame = state.frames[-1]
    if isinstance(action, act.Named) and action.verb == "murder" and isinstance(frame, KillerTurn):
        return float(state.legal_victim(action.name))
    if isinstance(action, act.Play) and action.card == "bomb":
        return float(k not in state.at(_district(action.args[0])))
    if isinstance(frame, AnswerQuestion) and isinstance(action, act.Answer):
        if action not in state._legal_answer(frame):
            return 0.0
        return 0.5 if state.is_liar(frame.name) else 1.0
    if isinstance(frame, NameMotive) and isinstance(action, act.Reveal):
        return float(action in state._legal_profile(frame))
    factor = 1.0
    if event.surveillance is not None:
        name, answer = event.surveillance
        truth = _watch(state, name)
        factor *= float(truth == answer)
    if event.confession is not None:
        group = None if f is None else state.resident(f).group
        factor *= float(group == event.confession[1])
    return factor


def _watch(state: CityKillerState, name: str) -> bool:
    """What surveillance of `name` says in `state`, as the engine computes it."""
    if state.game.options["surveillance_scope"] == "full":
        return state.legal_victim(name, killing=False)
    fits = state.game.predicates.fits
    return name != state._identity and fits(state._motive, state.scene_of(name))


def _district(text: str) -> tuple[int, int]:
    row, col = text.split(",")
    return int(row), int(col)


def strategic_prior(state: CityKillerState, g: str, revealed: list[str]) -> float:
    """The chance (times C(9, 3)) that the killer drew 3 tokens unseen in the stack and kept g."""
    appeal = {h: 1 + sum(state.resident(n).group == h for n in state.residents) for h in GROUPS}
    chance = 0.0
    for drawn in itertools.combinations(GROUPS, 3):
        if g in drawn and not set(drawn) & set(revealed):
            chance += appeal[g] / sum(appeal[h] for h in drawn)
    return chance


def brute_force(state: CityKillerState, liar_model: str) -> dict[tuple[str, str, str, str], float]:
    """Every world with a positive weight (not normalised), keyed (K, M, G, F)."""
    found, revealed = events(state)
    names = state.residents
    strategic = state.game.options["ally_prior"] == "strategic"
    prior = {g: strategic_prior(state, g, revealed) if strategic else 1.0 for g in GROUPS}
    figurants: list[str | None] = list(names) if state.game.options["use_figurant"] else [None]
    weights = {}
    for k, m, g, f in itertools.product(names, MOTIVES, GROUPS, figurants):
        if f == k or g in revealed:
            continue
        weight = prior[g]
        for event in found:
            factor = judge(event, k, m, g, f)
            if factor == 0.0:
                weight = 0.0
                break
            if liar_model == "random":
                weight *= factor
        if weight > 0:
            weights[(k, m, g, f or NONE)] = weight
    for event in found:  # the kept states go back to the truth (they are copies anyway)
        _world_state(event, state._identity, state._motive, state._allies, state._figurant)
    return weights
