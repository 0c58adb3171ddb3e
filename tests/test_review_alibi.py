"""Alibi's review (solver/search/alibi_review.py): every decision with a choice is valued in
one unit beside the solver's move, the solver's own seat is graded best or good, and the
values are those the solver's own numbers give (a question's bits are `best_questions`' gain,
an accusation's chance its cards' chances, waiting the bar)."""

from __future__ import annotations

import random

import pytest

import engines
import opponents
import solver
from engines import Action, InformationSet, State
from engines.alibi import actions as act
from solver.deduction import deduce
from solver.games import alibi as knowledge
from solver.games.alibi.chain import STEPS, HistoryChain
from solver.games.alibi.hinting import Samples, best_questions
from solver.games.alibi.model import IN_BOX
from solver.games.alibi.position import parse
from solver.review import review
from solver.search import Turn
from solver.search import alibi as search
from solver.search import alibi_review as valuing
from solver.search.alibi_review import BITS, CARDS, WIDE, question_bits
from solver.search.grading import CHANCE

GAME = engines.make("alibi", players=3, deck="small")


def played(kinds: dict[int, str], seed: int) -> State:
    """A whole small game with bot kind kinds[seat] (heuristic where unnamed)."""
    bots = {s: opponents.make(kinds.get(s, "heuristic"), GAME, s, seed=seed * 10 + s)
            for s in GAME.seats}  # fmt: skip
    state = GAME.new_game(seed=seed)
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
    return state


def seat_positions(state: State, seat: int) -> list[tuple[InformationSet, Action]]:
    """What `seat` knew before each of its moves, and the move."""
    return [(info, a) for s, info, a in GAME.decisions(state) if s == seat]


def test_a_random_seat_has_every_decision_valued() -> None:
    state = played({0: "random"}, seed=3)
    solver.forget()
    found = review(state, 0)
    unvalued = [d for d in found.decisions if d.unvalued]
    assert len(found.decisions) >= 8 and not unvalued
    assert {d.unit for d in found.graded} >= {BITS.unit, CARDS.unit}
    assert all(d.loss is not None and d.loss >= 0 for d in found.graded)
    assert found.accuracy is not None and found.accuracy < 0.5  # a random player is found out


def test_the_solvers_own_seat_is_graded_best_or_good() -> None:
    graded = []
    for seed in (0, 2, 3):
        state = played({0: "solver"}, seed)
        solver.forget()
        graded += review(state, 0).graded
    good = sum(d.grade in ("best", "good") for d in graded)
    assert len(graded) >= 25 and good >= 0.9 * len(graded)


def asking_position() -> InformationSet:
    """The solver seat's third question of a small game: the box is still open."""
    state = played({0: "solver"}, seed=2)
    asks = [info for info, a in seat_positions(state, 0) if isinstance(a, act.Ask)]
    return asks[2]


def test_a_questions_bits_are_best_questions_gain_on_the_same_samples() -> None:
    info = asking_position()
    d = deduce(info, about=lambda fact: fact.kind == IN_BOX)
    drawn = Samples(parse(info), d, 200, random.Random(5))
    top = best_questions(info, d, top=3, drawn=drawn)
    for question in top:
        assert question_bits(drawn, question.ask) == pytest.approx(question.gain, abs=1e-12)


def test_the_judge_values_questions_on_its_own_samples_and_leaves_the_memory() -> None:
    info = asking_position()
    legal = GAME.legal_actions_for(info)
    rng, memory = random.Random(0), {}
    advice = search.advise(Turn(info, legal, rng, memory))
    assert isinstance(advice.move, act.Ask)
    kept, after_advice = dict(memory), rng.getstate()
    # the samples the judge draws: WIDE of them, seeded by the turn's RNG after the advice
    again = random.Random()
    again.setstate(after_advice)
    d = deduce(info, about=lambda fact: fact.kind == IN_BOX)
    wide = Samples(parse(info), d, WIDE, random.Random(again.randrange(1 << 30)))
    best = best_questions(info, d, top=3, drawn=wide)[0]
    judged = valuing.judge(Turn(info, legal, rng, memory), advice, best.ask)
    assert judged is not None and judged.grading == BITS
    assert judged.made.value == pytest.approx(best.gain, abs=1e-12)
    assert judged.best.action == advice.move
    assert judged.best.value == pytest.approx(question_bits(wide, advice.move), abs=1e-12)
    # the solver's memory (its samples for the pass) is untouched; the judge keeps its own
    # samples beside it for the turn's other moves
    assert {k: v for k, v in memory.items() if k != valuing.TABLE} == kept
    assert valuing.judge(Turn(info, legal, rng, memory), advice, best.ask) == judged


def test_where_the_posterior_is_a_chain_the_judge_values_on_a_chain_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The advice chose its question on the chain's records, so valuing on them would flatter
    it: the judge's samples come from `HistoryChain.rerun` (VALUATION_STEPS, a seed from the
    turn's RNG after the advice), and a question's bits are `best_questions`' on those."""
    monkeypatch.setattr(knowledge, "count_histories", lambda pos, model, **_: None)
    solver.forget()
    info = asking_position()
    legal = GAME.legal_actions_for(info)
    rng, memory = random.Random(0), {}
    advice = search.advise(Turn(info, legal, rng, memory))
    assert isinstance(advice.move, act.Ask)
    after_advice = rng.getstate()
    d = deduce(info, about=lambda fact: fact.kind == IN_BOX)
    chain = d.worlds
    assert isinstance(chain, HistoryChain)
    reruns: list[tuple[int, int]] = []
    rerun = HistoryChain.rerun

    def counted(self: HistoryChain, seed: int, steps: int = STEPS) -> HistoryChain:
        reruns.append((seed, steps))
        return rerun(self, seed, steps)

    monkeypatch.setattr(HistoryChain, "rerun", counted)
    again = random.Random()
    again.setstate(after_advice)
    seed = again.randrange(1 << 30)
    own = rerun(chain, seed, valuing.VALUATION_STEPS)
    wide = Samples(parse(info), d, WIDE, random.Random(again.randrange(1 << 30)), own)
    best = best_questions(info, d, top=3, drawn=wide)[0]
    judged = valuing.judge(Turn(info, legal, rng, memory), advice, best.ask)
    assert reruns == [(seed, valuing.VALUATION_STEPS)]
    assert judged is not None and judged.made.value == pytest.approx(best.gain, abs=1e-12)
    assert judged.best.value == pytest.approx(question_bits(wide, advice.move), abs=1e-12)
    solver.forget()


def test_asking_when_the_box_is_certain_loses_the_chance_waiting_gives_up() -> None:
    state = played({0: "solver"}, seed=2)
    info, accused = seat_positions(state, 0)[-1]
    assert isinstance(accused, act.Accuse)
    legal = GAME.legal_actions_for(info)
    advice = search.advise(Turn(info, legal, random.Random(0), {}))
    assert advice.move == accused and advice.value == 1.0  # certain
    ask = next(a for a in legal if isinstance(a, act.Ask))
    judged = valuing.judge(Turn(info, legal, random.Random(0), {}), advice, ask)
    assert judged is not None and judged.grading == CHANCE
    assert judged.best.value == pytest.approx(1.0)
    assert 0 <= judged.made.value <= search.PATIENCE  # waiting: the bar
    wrong = act.Accuse((*accused.cards[:3], next(c for c in GAME.deck.of_type("feeling")
                                                 if c != accused.cards[3])))  # fmt: skip
    judged = valuing.judge(Turn(info, legal, random.Random(0), {}), advice, wrong)
    assert judged is not None and judged.made.value == 0.0 and judged.loss == 1.0


def test_a_pass_is_valued_by_the_cards_the_neighbour_had_not_seen() -> None:
    state = played({0: "solver"}, seed=2)
    passes = [(i, a) for i, a in seat_positions(state, 0) if isinstance(a, act.Pass)]
    info, passed = passes[-2]
    legal = GAME.legal_actions_for(info)
    advice = search.advise(Turn(info, legal, random.Random(0), {}))
    values = []
    for move in random.Random(1).sample(legal, min(12, len(legal))):
        judged = valuing.judge(Turn(info, legal, random.Random(0), {}), advice, move)
        assert judged is not None and judged.grading == CARDS
        assert -len(passed.cards) <= judged.made.value <= judged.best.value + CARDS.good
        values.append(judged.made.value)
    assert len(set(values)) > 1  # late in the game the neighbour has seen some cards
