"""City Killer's review (solver/search/city_killer_review.py): every move of a decision the
search weighs is valued in that decision's unit, a move the search scored as the advice scores
it, and the solver's own moves grade best or good."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engines
import solver
from engines import Action, InformationSet, Seat, State
from engines.city_killer import DETECTIVE, KILLER
from engines.city_killer import actions as act
from engines.city_killer.material import MOTIVES
from solver.games.city_killer import Posterior, posterior
from solver.review import review
from solver.search import Advice, Turn
from solver.search import city_killer as search
from solver.search import city_killer_review as valuing
from tests.conformance import bots_game


def played(kinds: dict[Seat, str], seed: int) -> State:
    """A whole game with bot kind kinds[seat] in each seat (heuristic where unnamed)."""
    game = engines.make("city-killer")
    return bots_game(game, {game.seats.index(s): kind for s, kind in kinds.items()}, seed)


def advised(info: InformationSet) -> tuple[Turn, Advice]:
    """The turn at `info` and the advice there, as the review makes them (seed 0)."""
    legal = info.make_game().legal_actions_for(info)
    turn = Turn(info, legal, random.Random(0), {})
    return turn, search.advise(turn)


def test_the_review_reads_the_judge_and_grading_of_the_searchs_companion() -> None:
    from solver.review import judging

    grading, judge = judging(search)
    assert judge is valuing.judge and grading is valuing.BITS


@pytest.mark.parametrize(("seat", "seed"), [(DETECTIVE, 1), (KILLER, 2)])
def test_a_random_seat_is_valued_at_every_decision_the_search_weighs(seat: str, seed: int) -> None:
    state = played({seat: "random"}, seed)
    solver.forget()
    found = review(state, seat)
    weighed = [d for d in found.decisions if not d.quiet]
    assert len(weighed) >= 10
    assert sum(d.grade is not None for d in weighed) >= 0.9 * len(weighed)
    assert found.accuracy is not None and found.accuracy < 0.8  # a random player loses some
    units = {d.unit for d in found.graded}
    expected = {valuing.BITS.unit} if seat == DETECTIVE else {valuing.DANGER.unit}
    assert expected <= units


@pytest.mark.parametrize(("seat", "seed"), [(DETECTIVE, 3), (KILLER, 4)])
def test_the_solvers_own_seat_is_best_or_good(seat: str, seed: int) -> None:
    state = played({seat: "solver"}, seed)
    solver.forget()
    found = review(state, seat)
    assert len(found.graded) >= 10
    assert found.accuracy is not None and found.accuracy >= 0.95


def test_a_scored_move_is_valued_as_the_advice_values_it() -> None:
    """At each decision of a game where the search scored several moves in the unit it grades
    them in (all but intimidation, which the search ranks), the judge gives each scored move
    the advice's value, and the advice's move is the best."""
    state = played({DETECTIVE: "random", KILLER: "random"}, seed=5)
    checked: Counter[Seat] = Counter()
    for seat, info, _ in state.game.decisions(state):
        turn, advice = advised(info)
        if len(turn.legal) < 2 or len(advice.candidates) < 2 or _intimidating(advice):
            continue
        for candidate in advice.candidates:
            judged = valuing.judge(turn, advice, candidate.action)
            assert judged is not None
            assert judged.made.value == pytest.approx(candidate.value, abs=1e-12)
            assert judged.best.value == pytest.approx(advice.value, abs=1e-12)
            checked[seat] += 1
    assert checked[DETECTIVE] >= 50 and checked[KILLER] >= 10


def _intimidating(advice: Advice) -> bool:
    return isinstance(advice.move, act.Named) and advice.move.verb == "intimidate"


def test_moves_the_search_pruned_are_valued_by_its_own_formulas() -> None:
    """Questioning: "done" tells nothing (0 bits) and every question its expected gain;
    the accusation: the chance P(K, M) that it is right, the argmax the solver's."""
    state = played({DETECTIVE: "random"}, seed=1)
    seen = set()
    for seat, info, _ in state.game.decisions(state):
        if seat != DETECTIVE:
            continue
        turn, advice = advised(info)
        if act.Verb("done") in turn.legal and isinstance(advice.move, act.Ask):
            judged = valuing.judge(turn, advice, act.Verb("done"))
            assert judged is not None and judged.grading is valuing.BITS
            assert judged.made.value == 0.0 and judged.best.value == advice.value
            seen.add("done")
        if any(isinstance(a, act.Accuse) for a in turn.legal):
            post = posterior(info)
            named = next(a for a in turn.legal if isinstance(a, act.Accuse) and a != advice.move)
            judged = valuing.judge(turn, advice, named)
            assert judged is not None and judged.grading is valuing.ACCUSATION
            assert judged.best.action == advice.move
            assert judged.made.value == pytest.approx(_chance(post, named))
            assert judged.best.value == pytest.approx(_chance(post, advice.move))
            seen.add("accuse")
    assert seen == {"done", "accuse"}


def test_the_killers_pruned_moves_are_valued_in_the_frames_unit() -> None:
    """Intimidation: a liar counts as one step away and tells nothing (-1), the solver's
    target is the most dangerous, and a card played instead is worth it less `CARD_PRICE`."""
    state = played({KILLER: "random"}, seed=2)
    seen = set()
    for seat, info, _ in state.game.decisions(state):
        turn, advice = advised(info)
        if seat != KILLER or not _intimidating(advice):
            continue
        view = state.game.seat_view(info)
        for action in turn.legal:
            judged = valuing.judge(turn, advice, action)
            assert judged is not None and judged.grading is valuing.DANGER
            assert judged.best.action == advice.move
            if isinstance(action, act.Play):
                assert judged.loss == pytest.approx(valuing.CARD_PRICE)
                seen.add("card")
            elif isinstance(action, act.Named) and view.is_liar(action.name):
                assert judged.made.value == -1.0
                seen.add("liar")
    assert seen == {"card", "liar"}


def _chance(post: Posterior, accusation: Action) -> float:
    """P(K, M) of the accused pair, read off the posterior by hand."""
    assert isinstance(accusation, act.Accuse)
    k, m = post.residents.index(accusation.name), MOTIVES.index(accusation.motive)
    return float(post.joint[k, m])
