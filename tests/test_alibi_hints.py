"""Alibi hints along whole games: explanations stay right when they are remembered from an
earlier position (and the memory is safe to share between threads), and the estimate never
gives 0% to a card that can be in the box."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from pathlib import Path

import pytest

import engines
import solver
from engines import InformationSet
from engines.alibi import Accuse
from solver.games import alibi as knowledge
from solver.games.alibi.hinting import _EXPLAINED, EXPLAIN_SOLVES, explain, forget_explanations
from tests.test_alibi_solver import assert_forces_minimally

GAME = engines.make("alibi", players=3, deck="small")
CHAIN_LIMIT = 49_999  # deduce remembers deductions by (info, limit): keep the chain's apart


def positions_of_one_seat(seed: int, steps: int = 60) -> list:
    """Seat 0's information sets along one random game without accusations, in order."""
    rng, state = random.Random(seed), GAME.new_game(seed)
    found = []
    for _ in range(steps):
        if state.is_over:
            break
        found.append(state.information_set(0))
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    return found


def test_remembered_explanations_still_force_their_fact_and_are_minimal() -> None:
    _EXPLAINED.clear()
    remembered_count = verified = 0
    for seed in range(2):
        for info in positions_of_one_seat(seed)[::3]:
            d = solver.deduce(info)
            decided = [
                f
                for f in d.facts
                if f.kind in ("InBox", "BoxGroup")
                if d.is_certain(f) or not d.possible(f)
            ]
            for fact in decided:
                target = fact if d.is_certain(fact) else ~fact
                remembered = (info.game, info.options, info.seat, target) in _EXPLAINED
                core = explain(d, target)
                remembered_count += remembered
                if not remembered or remembered_count % 3:  # every third, to keep it quick
                    continue
                assert_forces_minimally(d, core, target)
                verified += 1
    assert verified > 20


def test_explanations_found_a_few_solves_at_a_time_across_positions_force_minimally() -> None:
    """A refresh spends a few solves on explanations and the next resumes the search: the
    result is the one-go explanation when it stays at one position, and forces its fact
    minimally at the position where it ends when it began earlier."""
    forget_explanations()
    resumed = 0
    for seed in (3, 4):
        infos = positions_of_one_seat(seed)[::4]
        for before, info in pairwise(infos):
            d, later = solver.deduce(before), solver.deduce(info)
            for fact in (f for f in d.facts if f.kind == "InBox" and d.is_certain(f)):
                search = d.explain_search(fact, solves=2)
                one_go = d.explain_sources(fact)
                stepped = search
                while not stepped.done:
                    stepped = d.explain_search(fact, stepped, solves=1)
                assert stepped.necessary == one_go
                if search.done:
                    continue
                while not search.done:
                    search = later.explain_search(fact, search, solves=1)
                assert_forces_minimally(later, search.necessary, fact)
                resumed += 1
    assert resumed >= 3, "searches must span positions"


def test_a_refresh_spends_at_most_its_solves_on_new_explanations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hints explain what they can within `EXPLAIN_SOLVES` and the next refreshes finish it:
    along a game, every certain fact gets its reasons a few refreshes after it is certain."""
    forget_explanations()
    from solver.cpsat import Compiled

    made: list[int] = []
    shrink = Compiled.shrink_core

    def counted(self: Compiled, *args: object, **kwargs: object) -> object:
        found = shrink(self, *args, **kwargs)  # type: ignore[arg-type]
        start = args[1] if len(args) > 1 else kwargs.get("start")
        made[-1] += found.solves - (start.solves if start is not None else 0)  # type: ignore[union-attr]
        return found

    monkeypatch.setattr(Compiled, "shrink_core", counted)
    unexplained = 0
    for info in positions_of_one_seat(5):
        made.append(0)
        shown = [h for h in solver.hints(info) if h.kind == "certain"]
        assert made[-1] <= EXPLAIN_SOLVES
        unexplained = sum(not h.because for h in shown)
    assert shown and sum(made) > 10 and unexplained == 0


def test_every_possible_box_card_gets_a_probability_above_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the chain estimating (the exact counter forced to give up), as beyond exact reach."""
    monkeypatch.setattr(knowledge, "count_histories", lambda pos, model, **_: None)
    for seed in (11, 12):
        for info in positions_of_one_seat(seed, steps=80)[::16]:
            d = solver.deduce(info, enumeration_limit=CHAIN_LIMIT)
            assert not d.exact
            for fact in d.facts:
                if fact.kind == "InBox" and d.possible(fact):
                    assert d.probability(fact) > 0, fact


def test_explanations_handed_out_are_copies_and_threads_share_them_safely() -> None:
    """One thread per seat of one position (a Deduction's CP-SAT model is not shared between
    threads), every thread explaining and rereading into the one memory."""
    _EXPLAINED.clear()
    rng, state = random.Random(3), GAME.new_game(3)
    for _ in range(30):
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    jobs = []
    for seat in GAME.seats:
        d = solver.deduce(state.information_set(seat))
        jobs.append([(d, ~f) for f in d.facts if f.kind == "InBox" and not d.possible(f)][:3])
    assert all(jobs)
    serial = [[explain(d, f) for d, f in job] for job in jobs]
    serial[0][0].append(999)
    assert explain(*jobs[0][0]) == serial[0][0][:-1], "the memory kept a caller's change"
    serial[0][0].pop()
    _EXPLAINED.clear()

    def explain_all(job: list) -> list:
        return [explain(d, f) for _ in range(3) for d, f in job]

    with ThreadPoolExecutor(len(jobs)) as pool:
        threaded = list(pool.map(explain_all, jobs))
    assert threaded == [found * 3 for found in serial]
    assert len(_EXPLAINED) == sum(len(job) for job in jobs)


def test_hints_read_a_round_with_more_answers_than_players() -> None:
    """A mutated record the solver answers (tests/test_solver_robustness.py found it): a round
    counting more answers than players. The hints ask whose turn it is, and the seat's view
    raised IndexError; now every seat has asked, and the round passes."""
    path = Path(__file__).parent / "data" / "alibi_round_with_more_answers_than_players.json"
    info = InformationSet.from_json(path.read_text())
    assert solver.hints(info, solver.deduce(info))
