"""Alibi bots: positions built so that the right move is known, and the bot must find it.

Positions are reached by replaying games of seeded heuristic bots (3 players, small deck) to
a given step; each test first checks that the position is what it claims (the box certain to
the solver, or to the notepad), so that a change in the replay cannot make the test vacuous.
"""

from __future__ import annotations

import random

import pytest

import engines
import opponents
import solver
from engines import ConfigError, InformationSet
from engines.alibi import TYPES, Accuse, AlibiState, Ask, Lay, Pass
from opponents.games.alibi import crossed_off
from solver.errors import SolverTimeout
from solver.games.alibi.advice import Samples, best_questions
from solver.search import alibi as search_alibi
from solver.search.alibi import Choice, choose

GAME = engines.make("alibi", players=3, deck="small")


def replayed(seed: int, steps: int) -> AlibiState:
    """Game `seed` after `steps` moves of seeded heuristic bots."""
    state = GAME.new_game(seed)
    assert isinstance(state, AlibiState)
    bots = {s: opponents.make("heuristic", GAME, s, seed=seed * 10 + s) for s in GAME.seats}
    for _ in range(steps):
        mover = state.to_move
        assert mover is not None
        state.apply(bots[mover].act(state.information_set(mover)))
    return state


def mover_info(state: AlibiState) -> InformationSet:
    assert state.to_move is not None
    return state.information_set(state.to_move)


def notepad_left(info: InformationSet) -> list[list[str]]:
    """Per type, the cards the notepad has not crossed off."""
    crossed = crossed_off(info)
    return [[c for c in GAME.deck.of_type(kind) if c not in crossed] for kind in TYPES]


def box_certain(info: InformationSet) -> bool:
    d = solver.deduce(info, about=lambda fact: fact.kind == "InBox")
    return sum(fact.kind == "InBox" for fact in d.certain()) == len(TYPES)


def test_solver_bot_accuses_when_only_deduction_makes_the_box_certain() -> None:
    state = replayed(seed=5, steps=26)
    info = mover_info(state)
    assert box_certain(info), "the position must make the box certain to the solver"
    assert any(len(cards) > 1 for cards in notepad_left(info)), "but not to the notepad"
    action = opponents.make("solver", GAME, state.to_move, seed=0).act(info)
    assert action == Accuse(state.box())
    heuristic = opponents.make("heuristic", GAME, state.to_move, seed=0).act(info)
    assert isinstance(heuristic, Ask), "the notepad cannot see it yet, so it asks"


def test_heuristic_bot_accuses_when_its_notepad_leaves_one_card_per_type() -> None:
    state = replayed(seed=9, steps=25)
    info = mover_info(state)
    assert all(len(cards) == 1 for cards in notepad_left(info))
    action = opponents.make("heuristic", GAME, state.to_move, seed=0).act(info)
    assert action == Accuse(state.box())
    solver_action = opponents.make("solver", GAME, state.to_move, seed=0).act(info)
    assert solver_action == Accuse(state.box())


def test_heuristic_bot_asks_another_player_about_a_group_it_has_not_settled() -> None:
    checked = 0
    for seed, steps in ((5, 26), (3, 20), (7, 12)):
        state = replayed(seed, steps)
        info = mover_info(state)
        if any(isinstance(a, Pass | Lay) for a in state.legal_actions()):
            continue
        left = notepad_left(info)
        action = opponents.make("heuristic", GAME, state.to_move, seed=seed).act(info)
        assert isinstance(action, Ask) and action.target != state.to_move
        assert action.scope == "seen" and action.subject.kind == "group"
        group = action.subject.value
        assert isinstance(group, str)
        kind = GAME.deck.type_of_group(group)
        assert len(left[TYPES.index(kind)]) > 1, f"asked about settled {kind}s"
        assert any(c in left[TYPES.index(kind)] for c in GAME.deck.of_group(group))
        checked += 1
    assert checked >= 2, "the replays must reach question turns"


def test_heuristic_bot_lays_a_set_it_holds() -> None:
    for seed in range(12):
        state = replayed(seed, 0)
        bots = {s: opponents.make("random", GAME, s, seed=seed) for s in GAME.seats}
        while (mover := state.to_move) is not None:
            lays = [a for a in state.legal_actions() if isinstance(a, Lay)]
            if lays:
                info = state.information_set(mover)
                assert opponents.make("heuristic", GAME, mover, seed=0).act(info) in lays
                return
            state.apply(bots[mover].act(state.information_set(mover)))
    pytest.fail("no game of the first twelve seeds lets a player lay a set")


def test_solver_bot_is_deterministic_for_a_seed() -> None:
    state = replayed(seed=3, steps=20)
    info = mover_info(state)
    bots = [opponents.make("solver", GAME, state.to_move, seed=4) for _ in "ab"]
    assert len({bot.act(info) for bot in bots}) == 1
    assert bots[0].samples == bots[1].samples > 0, "the same work: posterior samples drawn"


def test_solver_bot_rejects_bad_options() -> None:
    with pytest.raises(ConfigError, match="time_budget"):
        opponents.make("solver", GAME, 0, time_budget=0)


def out_of_time(info: InformationSet, memory: dict) -> Choice:
    """The solver's choice with a budget that has passed before its deduction starts."""
    solver.forget()  # nothing remembered: the deduction needs its first solve
    return choose(info, GAME.legal_actions_for(info), random.Random(0), memory, 1e-9)


def test_solver_bot_out_of_time_plays_the_notepad_move() -> None:
    state = replayed(seed=3, steps=20)
    info = mover_info(state)
    assert not any(isinstance(a, Pass | Lay) for a in state.legal_actions()), "a question turn"
    made = out_of_time(info, {})
    assert made.why == "out of time" and made.deduction is None
    assert isinstance(made.move, Ask) and made.move in state.legal_actions()
    group = made.move.subject.value
    assert isinstance(group, str)
    assert len(notepad_left(info)[TYPES.index(GAME.deck.type_of_group(group))]) > 1
    state = replayed(seed=9, steps=25)
    assert out_of_time(mover_info(state), {}).move == Accuse(state.box()), "the notepad's box"


def test_solver_bot_out_of_time_asks_the_best_question_of_its_last_samples() -> None:
    state = replayed(seed=3, steps=20)
    info = mover_info(state)
    memory: dict = {}
    made = choose(info, state.legal_actions(), random.Random(0), memory)
    assert made.why == "ask" and isinstance(memory.get("drawn"), Samples)
    late = out_of_time(info, memory)
    assert late.why == "out of time" and late.drawn is memory["drawn"]
    assert late.move == best_questions(info, None, top=1, drawn=memory["drawn"])[0].ask


def test_solver_bot_without_budget_plays_on_when_cp_sat_reaches_its_ceiling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CP-SAT's ceiling is deterministic time, so reaching it with no budget is part of the
    seed's game: the bot plays the out-of-time move instead of stopping the game."""

    def ceiling(*args: object, **kwargs: object) -> None:
        raise SolverTimeout("CP-SAT reached its time limit of 30 units of deterministic time")

    state = replayed(seed=3, steps=20)
    info = mover_info(state)
    monkeypatch.setattr(search_alibi, "deduce", ceiling)
    made = choose(info, state.legal_actions(), random.Random(0), {})
    assert made.why == "out of time" and made.move in state.legal_actions()
