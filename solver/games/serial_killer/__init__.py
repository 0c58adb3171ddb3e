"""Serial Killer's knowledge model (rules/serial_killer.md §8).

Hidden: per genre, the bijection from deck tokens to traits, and which token each other
player's overflow discard put in the lab. `model` states them for CP-SAT (certainty,
explanations); `counting` counts the worlds exactly genre by genre (the genres are
independent given the public record); `race` reads the opponents' progress from who saw
what; `hinting` builds the hints from it all.
"""

from __future__ import annotations

from engines import State
from engines.serial_killer import SerialKillerState
from solver.cpsat import Compiled
from solver.games.serial_killer.counting import CountedWorlds, at_var, delta_var, tok_var
from solver.games.serial_killer.hinting import answer, hints
from solver.games.serial_killer.model import PROFILE, build
from solver.games.serial_killer.position import parse, token_name
from solver.games.serial_killer.validation import validate
from solver.model import Model, Value, World

__all__ = [
    "ANSWER_KINDS",
    "CPSAT_PARAMETERS",
    "MODEL_HINTS",
    "answer",
    "build",
    "counted",
    "hints",
    "query_variables",
    "validate",
    "world_of",
    "world_set",
]

MODEL_HINTS = True
"""The hints read any deduction's odds, counted or weighed by an opponent model
(`solver.hints(info, model=...)`): `hinting.chance_in` and `hinting.standings` read either."""
ANSWER_KINDS = frozenset({PROFILE})
"""The facts that make up the hidden answer (whose odds moving is news)."""
CPSAT_PARAMETERS = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "linearization_level": 0,
    "symmetry_level": 0,
}
"""Clauses and cardinalities that CP-SAT's SAT core solves at once; presolve and its
relatives would cost more than the search on every query."""


def counted(model: Model) -> CountedWorlds:
    """The exact counts without a solve: they witness every possible literal, and a record
    with no consistent world counts none (then CP-SAT finds the conflict)."""
    return CountedWorlds(parse(model.info))


def world_set(model: Model, compiled: Compiled) -> CountedWorlds:
    """Exact counts, genre by genre."""
    return CountedWorlds(parse(model.info))


def query_variables(model: Model) -> set[str]:
    """Every variable: the counted worlds witness each one's possible values (so no samples
    are drawn to witness them, and one solve proves the rest impossible)."""
    return {variable.name for variable in model.variables}


def world_of(state: State) -> World:
    """The true world: each token's trait, each lab card's token, each card's place."""
    assert isinstance(state, SerialKillerState)
    setup = state._setup
    assert setup is not None
    decks: dict[str, list[str]] = setup.to_dict()["decks"]
    token_of = {card: (g, k) for g, cards in decks.items() for k, card in enumerate(cards)}
    world: dict[str, Value] = {}
    for card, token in token_of.items():
        world[tok_var(token)] = card
    for p, card in enumerate(state.lab_cards(), 1):
        world[delta_var(p)] = token_name(token_of[card])
        world[at_var(card)] = f"lab:{p}"
    for seat in state.game.seats:
        assert isinstance(seat, int)
        for card in state.hand(seat):
            world[at_var(card)] = f"hand:{seat}"
    for g in state.game.parts.genre_ids:
        remaining = state.deck(g)
        for card in remaining[:-1]:
            world[at_var(card)] = "deck"
        world[at_var(remaining[-1])] = "profile"
    return world
