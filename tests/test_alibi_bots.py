"""Alibi bots: positions built so that the right move is known, and the bot must find it.

Positions are reached by replaying games of seeded heuristic bots (3 players, small deck) to
a given step; each test first checks that the position is what it claims (the box certain to
the solver, or to the notepad), so that a change in the replay cannot make the test vacuous.
"""

from __future__ import annotations

import gc
import random
import time
import weakref

import pytest

import engines
import opponents
import solver
from engines import ConfigError, InformationSet
from engines.alibi import TYPES, AlibiState
from engines.alibi import actions as act
from opponents.games.alibi import SolverBot, crossed_off
from solver.cpsat import Compiled
from solver.errors import SolverTimeout
from solver.games.alibi.hinting import Samples, best_questions
from solver.search import alibi as search_alibi
from solver.search.alibi import LAG, Choice, choose, collector_paused

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
    assert action == act.Accuse(state.box())
    heuristic = opponents.make("heuristic", GAME, state.to_move, seed=0).act(info)
    assert isinstance(heuristic, act.Ask), "the notepad cannot see it yet, so it asks"


def test_heuristic_bot_accuses_when_its_notepad_leaves_one_card_per_type() -> None:
    state = replayed(seed=9, steps=25)
    info = mover_info(state)
    assert all(len(cards) == 1 for cards in notepad_left(info))
    action = opponents.make("heuristic", GAME, state.to_move, seed=0).act(info)
    assert action == act.Accuse(state.box())
    solver_action = opponents.make("solver", GAME, state.to_move, seed=0).act(info)
    assert solver_action == act.Accuse(state.box())


def test_heuristic_bot_asks_another_player_about_a_group_it_has_not_settled() -> None:
    checked = 0
    for seed, steps in ((5, 26), (3, 20), (7, 12)):
        state = replayed(seed, steps)
        info = mover_info(state)
        if any(isinstance(a, act.Pass | act.Lay) for a in state.legal_actions()):
            continue
        left = notepad_left(info)
        action = opponents.make("heuristic", GAME, state.to_move, seed=seed).act(info)
        assert isinstance(action, act.Ask) and action.target != state.to_move
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
            lays = [a for a in state.legal_actions() if isinstance(a, act.Lay)]
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
    assert not any(isinstance(a, act.Pass | act.Lay) for a in state.legal_actions()), (
        "a question turn"
    )
    made = out_of_time(info, {})
    assert made.why == "out of time" and made.deduction is None
    assert isinstance(made.move, act.Ask) and made.move in state.legal_actions()
    group = made.move.subject.value
    assert isinstance(group, str)
    assert len(notepad_left(info)[TYPES.index(GAME.deck.type_of_group(group))]) > 1
    state = replayed(seed=9, steps=25)
    assert out_of_time(mover_info(state), {}).move == act.Accuse(state.box()), "the notepad's box"


def test_solver_bot_out_of_time_asks_the_best_question_of_its_last_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Out of time with time left (the deduction's half of the budget spent), the bot scores
    the questions on the samples of its last turn; with none left, it asks the notepad's."""
    state = replayed(seed=3, steps=20)
    info = mover_info(state)
    memory: dict = {}
    made = choose(info, state.legal_actions(), random.Random(0), memory)
    assert made.why == "ask" and isinstance(memory.get("drawn"), Samples)

    def deadline_passed(*args: object, **kwargs: object) -> None:
        raise SolverTimeout("alibi: the deadline passed while building the model")

    monkeypatch.setattr(search_alibi, "deduce", deadline_passed)
    late = choose(info, state.legal_actions(), random.Random(0), memory, 60.0)
    assert late.why == "out of time" and late.drawn is memory["drawn"]
    assert late.move == best_questions(info, None, top=1, drawn=memory["drawn"])[0].ask
    later = out_of_time(info, memory)
    cleared = search_alibi.publicly_cleared(info)
    assert later.why == "out of time" and later.drawn is None
    assert later.move == search_alibi.Notepad(info, GAME, cleared).move != late.move


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


FULL = engines.make("alibi", players=4)


def full_game_position(seed: int, rounds: int) -> AlibiState:
    """A full-size 4-player game of random moves (no accusations) before `rounds`' end, at a
    question turn: past exact counting, so the solver bot runs the chain and CP-SAT."""
    state, rng = FULL.new_game(seed), random.Random(seed)
    while state.round < rounds or not any(isinstance(a, act.Ask) for a in state.legal_actions()):
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, act.Accuse)]))
    assert isinstance(state, AlibiState)
    return state


def test_solver_bot_keeps_a_short_budget_as_a_hard_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Late in a full game a move takes the solver bot several times 50 ms of work; with
    `time_budget=0.05` it stops and plays what it has. Its CPU time is at most its wall time,
    which the deadline bounds, so CPU time tells whether it stopped however loaded the machine
    (wall time would count the other processes). A bot never searches explanations."""

    def no_explanations(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver bot searched an explanation")

    monkeypatch.setattr(Compiled, "shrink_core", no_explanations)
    state = full_game_position(seed=4, rounds=9)
    info = mover_info(state)
    solver.forget()
    used = time.process_time()
    free = choose(info, state.legal_actions(), random.Random(0), {})
    unbounded = time.process_time() - used
    assert unbounded > 0.3 and free.why in ("ask", "odds", "certain")
    for budget in (0.05, 0.02):
        solver.forget()
        used, began = time.process_time(), time.monotonic()
        made = choose(info, state.legal_actions(), random.Random(0), {}, budget)
        elapsed = time.monotonic() - began
        assert time.process_time() - used < budget + 0.06
        assert made.move in state.legal_actions()
        # a search that ended within its budget was cut nowhere: the unbounded move
        assert made.hurried or (elapsed < budget and made.move == free.move)


def test_solver_bot_with_a_budget_it_never_reaches_plays_as_without_one() -> None:
    """Time is only a safety limit: while no deadline passes, the moves (and the chain each
    deduction keeps for the next, which a budgeted deduction keeps too then) are those of the
    bot without a budget."""
    played: dict[float | None, list] = {}
    for budget in (None, 60.0):
        solver.forget()
        state = full_game_position(seed=6, rounds=3)
        seat = state.to_move
        assert seat is not None
        bot = opponents.make("solver", FULL, seat, seed=1, time_budget=budget)
        others = {s: opponents.make("heuristic", FULL, s, seed=s) for s in FULL.seats}
        moves = []
        while len(moves) < 6 and (mover := state.to_move) is not None:
            action = (bot if mover == seat else others[mover]).act(state.information_set(mover))
            if mover == seat:
                assert isinstance(bot, SolverBot) and not bot.hurried
                moves.append((action, bot.why, bot.samples))
            state.apply(action)
        played[budget] = moves
    assert played[None] == played[60.0]
    assert {why for _, why, _ in played[None]} >= {"ask", "pass"}


def test_a_budgeted_move_moves_garbage_collection_after_it() -> None:
    """With a budget the collector is paused during the move, and what the move left as
    cyclic garbage is collected before it returns (the youngest generation, and the older
    ones when the collector fell behind); without one, or when the caller paused the
    collector, nothing changes."""

    class Node:
        pass

    assert gc.isenabled()
    with collector_paused(0.1):
        assert not gc.isenabled()
        node = Node()
        node.loop = node  # type: ignore[attr-defined]
        ref = weakref.ref(node)
        del node
        assert ref() is not None, "no collection runs in a budgeted move"
    assert gc.isenabled() and ref() is None
    every = gc.get_threshold()[1]
    for _ in range(3 * LAG * every):  # moves with next to no allocation between them: the
        with collector_paused(0.1):  # collector's own schedule never comes round, so the
            pass  # moves catch up on the older generations
    assert gc.get_count()[1] <= LAG * every + 1
    with collector_paused(None):
        assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused(0.1):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("kind", ["heuristic", "solver"])
def test_bots_write_a_solution_in_the_variant_solutions(kind: str) -> None:
    """In the variant "solutions" every bot writes one card of each type when the game ends
    (they asked instead, an illegal move, before): the heuristic its notepad's first card
    left of each type, the solver the likeliest of each type."""
    game = engines.make("alibi", players=3, deck="small", end_variant="solutions")
    for seed in range(2):
        state = game.new_game(seed=seed)
        bots = {s: opponents.make(kind, game, s, seed=seed) for s in game.seats}
        while not state.is_over:
            seat = state.to_move
            state.apply(bots[seat].act(state.information_set(seat)))
        written = [o for o in state.information_set(0).observations if o.kind == "solution"]
        assert len(written) == 3 and all(len(o["cards"]) == len(TYPES) for o in written)
    if kind == "solver":
        advice = solver.advise(_writing_position(game), seed=0)
        assert str(advice.move).startswith("solution ") and "likeliest" in advice.text


def _writing_position(game: engines.Game) -> InformationSet:
    """Seat 0's information set when it must write its solution (bots play the game)."""
    for seed in range(20):
        state = game.new_game(seed=seed)
        bots = {s: opponents.make("heuristic", game, s, seed=seed) for s in game.seats}
        while not state.is_over:
            seat = state.to_move
            info = state.information_set(seat)
            if seat == 0 and str(state.legal_actions()[0]).startswith("solution "):
                return info
            state.apply(bots[seat].act(info))
    raise AssertionError("no game left seat 0 a solution to write")
