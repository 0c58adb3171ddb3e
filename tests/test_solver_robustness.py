"""The solver's boundary and plumbing (issue 8): no hang, no bare error, no query that changes
a Deduction, caches safe for threads, and malformed information sets refused by name."""

from __future__ import annotations

import contextlib
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
import solver
import solver.cpsat
import solver.deduction
from engines import InformationSet, InvalidInformationSet, Observation, SleuthError
from solver.errors import SolverTimeout

BLUE_LION = engines.make("blue-lion")
ALIBI = engines.make("alibi", players=3, deck="small")


def played(game: engines.Game, seed: int, moves: int, seat: engines.Seat) -> InformationSet:
    """`seat`'s information set after up to `moves` random moves (accusations left out)."""
    state, rng = game.new_game(seed), random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        actions = [a for a in state.legal_actions() if type(a).__name__ != "Accuse"]
        state.apply(rng.choice(actions))
    return state.information_set(seat)


def with_observation(info: InformationSet, index: int, obs: Observation) -> InformationSet:
    observations = list(info.observations)
    observations[index] = obs
    return InformationSet(info.game, info.options, info.seat, tuple(observations))


def changed(obs: Observation, **fields: object) -> Observation:
    return Observation(obs.kind, tuple((k, fields.get(k, v)) for k, v in obs.fields))


# --- no hang (defect 1) ---------------------------------------------------------------------
PASSED_TWICE = Path(__file__).parent / "data" / "alibi_card_passed_twice.json"
"""Seat 1's information set after seat 0 passed `Pass((c, c))` in round 2 (3 players, small
deck, seed 2), as the engine once accepted: deduce ran over 900 s in `minimal_core`."""


def test_a_card_passed_twice_is_refused_before_any_solve() -> None:
    info = InformationSet.from_json(PASSED_TWICE.read_text())
    with pytest.raises(InvalidInformationSet, match=r"observation 19 \(pass\): cards cannot be"):
        solver.deduce(info)


def test_even_unvalidated_the_solver_stops_at_its_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    info = InformationSet.from_json(PASSED_TWICE.read_text())
    monkeypatch.setattr(solver.deduction, "validate", lambda info: info)
    monkeypatch.setattr(solver.cpsat, "SOLVE_SECONDS", 0.5)
    monkeypatch.setattr(solver.cpsat, "QUERY_SECONDS", 1.0)
    with pytest.raises(SolverTimeout, match="alibi information set of seat 1") as error:
        solver.deduce(info)
    assert isinstance(error.value, SleuthError)


def test_a_time_out_names_what_was_being_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    info = played(BLUE_LION, 0, 0, "lupin")
    d = solver.deduce(info, enumeration_limit=0)
    monkeypatch.setattr(solver.cpsat, "QUERY_SECONDS", 0.0)  # the deadline has passed
    with pytest.raises(SolverTimeout, match=r"blue-lion information set of seat 'lupin'.*force"):
        d._compiled.minimal_core(d._compiled.fact_literals(d.facts[0]))


def test_an_enumeration_cut_short_by_its_limit_is_an_error_not_a_short_list() -> None:
    from solver.cpsat import Compiled

    model = solver.deduce(played(BLUE_LION, 0, 0, "lupin")).model
    with pytest.raises(SolverTimeout, match="listing the consistent worlds"):
        Compiled(model, {"max_time_in_seconds": 1e-9}).enumerate(100)


# --- plumbing (defect 8) --------------------------------------------------------------------
def model_size(d: solver.Deduction) -> tuple[int, int, str]:
    proto = d._compiled.cp.proto
    return len(proto.variables), len(proto.constraints), str(proto)


def test_explanations_leave_a_remembered_deduction_unchanged() -> None:
    info = played(BLUE_LION, 3, 8, "lupin")
    d = solver.deduce(info)
    assert solver.deduce(info) is d  # remembered, so shared
    before, answers = model_size(d), [d.explain_sources(f) for f in d.certain()]
    assert answers
    for _ in range(100 // len(answers) + 1):
        assert [d.explain_sources(f) for f in d.certain()] == answers
    assert model_size(d) == before


def test_possible_on_undecided_facts_leaves_the_model_unchanged() -> None:
    info = played(ALIBI, 1, 6, 0)
    d = solver.deduce(info, about=lambda fact: False)  # every fact asks CP-SAT
    before = model_size(d)
    facts = d.facts[:50]
    first = [d.possible(fact) for fact in facts]
    assert [d.possible(fact) for fact in facts] == first
    assert model_size(d) == before


def test_a_possibility_query_past_its_work_ceiling_leaves_facts_to_decide_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hard position whose possibility query reaches `QUERY_WORK` still deduces: the facts
    it left open are decided one at a time, with the same answers as a full deduction."""
    import solver.cpsat

    info = played(engines.make("alibi", players=4), 2, 30, 0)
    solver.forget()
    full = solver.deduce(info)
    solver.forget()
    monkeypatch.setattr(solver.cpsat, "QUERY_WORK", 1e-9)
    starved = solver.deduce(info)
    assert not any(starved.settled(fact) for fact in starved.facts)
    certain, impossible = full.certain(), full.impossible()
    assert certain and impossible
    for fact in [*full.facts[::8], *certain[:10], *impossible[:10]]:
        assert starved.possible(fact) == full.possible(fact)
        assert starved.is_certain(fact) == full.is_certain(fact)
    solver.forget()


def test_enumeration_counts_the_same_worlds_after_queries() -> None:
    info = played(BLUE_LION, 0, 0, "lupin")
    d = solver.deduce(info)
    compiled = d._compiled
    worlds = compiled.enumerate(100)
    assert worlds is not None and len(worlds) == d.total() == 16
    for fact in d.facts:
        compiled.solve(None, compiled.fact_literals(fact))
    assert compiled.enumerate(100) == worlds


def test_enumeration_stops_past_its_limit() -> None:
    d = solver.deduce(played(BLUE_LION, 0, 0, "lupin"))
    assert d._compiled.enumerate(15) is None
    assert len(d._compiled.enumerate(16) or []) == 16


def answers(d: solver.Deduction) -> tuple[object, ...]:
    return tuple((str(f), d.possible(f), d.is_certain(f)) for f in d.facts)


def test_threads_deducing_at_once_answer_as_one_thread_does() -> None:
    infos = [played(BLUE_LION, seed, 10, "lupin") for seed in range(4)]
    infos += [played(ALIBI, seed, 4, seed % 3) for seed in range(4)]
    alone = [answers(solver.deduction._deduce(info, 50_000, None)) for info in infos]
    solver.deduction._RECENT.clear()
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda info: answers(solver.deduce(info)), infos * 2))
    assert together == alone * 2


def test_one_remembered_deduction_queried_from_two_threads() -> None:
    d = solver.deduce(played(BLUE_LION, 5, 9, "fujiko"))
    before = model_size(d)
    expected = [d.explain_sources(f) for f in d.certain()]
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(lambda _: [d.explain_sources(f) for f in d.certain()], range(6)))
    assert found == [expected] * 6
    assert model_size(d) == before


def test_parsed_alibi_positions_are_read_only() -> None:
    from solver.games.alibi.position import parse

    pos = parse(played(ALIBI, 1, 6, 0))
    with pytest.raises(AttributeError):
        pos.epoch = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        pos.known[(0, 0)] = (0, 0)  # type: ignore[index]
    assert isinstance(pos.mine[0], frozenset) and isinstance(pos.last, tuple)


# --- the oracle without its test dependency (item 11) ---------------------------------------
def test_the_oracle_without_python_constraint_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from solver import oracle

    monkeypatch.setitem(sys.modules, "constraint", None)  # makes `import constraint` fail
    model = solver.deduce(played(BLUE_LION, 0, 0, "lupin")).model
    with pytest.raises(SleuthError, match=r"pip install 'sleuth\[test\]'"):
        oracle.worlds(model)


# --- malformed information sets (defect 6) --------------------------------------------------
def malformed() -> list[tuple[str, object]]:
    lion = played(BLUE_LION, 2, 10, "lupin")
    alibi = played(ALIBI, 2, 12, 1)
    act = next(i for i, o in enumerate(lion.observations) if o.kind == "act")
    deal = alibi.observations[1]
    answer = next(i for i, o in enumerate(alibi.observations) if o.kind == "answer")
    passed = next(
        i for i, o in enumerate(alibi.observations) if o.kind == "pass" and o.get("cards")
    )
    card = alibi.observations[passed]["cards"][0]
    options, small4 = alibi.options, (("deck", "small"), ("players", 4))
    return [
        ("not an information set", lion.to_json()),
        ("unknown game", InformationSet("chess", (), 0, ())),
        ("empty blue lion", InformationSet("blue-lion", lion.options, "lupin", ())),
        ("empty alibi", InformationSet("alibi", options, 0, ())),
        ("seat True", InformationSet("alibi", options, True, alibi.observations)),
        ("wrong seat", InformationSet("blue-lion", lion.options, 0, lion.observations)),
        ("observations a list", InformationSet("alibi", options, 1, [*alibi.observations])),
        ("unknown face", edit(lion, 0, face="Q")),
        ("unknown tile", edit(lion, 0, tile="t9")),
        ("unknown action", edit(lion, act, action="x")),
        ("act out of place", edit(lion, act, seat=lion.observations[act + 1].get("seat"))),
        ("unknown card", edit(alibi, 1, cards=("joker", *deal["cards"][1:]))),
        ("card twice", edit(alibi, passed, cards=(card, card))),
        ("wrong count", edit(alibi, passed, cards=())),
        ("answer out of range", edit(alibi, answer, answer=99)),
        ("answer a string", edit(alibi, answer, answer="1")),
        ("options disagree", InformationSet("alibi", small4, 1, alibi.observations)),
        ("full deck", InformationSet("alibi", (("players", 3),), 1, alibi.observations)),
        ("bad option", InformationSet("alibi", (("players", 9),), 1, alibi.observations)),
        ("a list field", with_observation(alibi, 1, Observation("deal", (("cards", [card]),)))),
    ]


def edit(info: InformationSet, index: int, **fields: object) -> InformationSet:
    return with_observation(info, index, changed(info.observations[index], **fields))


@pytest.mark.parametrize(("what", "info"), malformed(), ids=[what for what, _ in malformed()])
def test_malformed_information_sets_are_refused_by_name(what: str, info: object) -> None:
    for call in (solver.deduce, solver.hints):
        with pytest.raises(InvalidInformationSet):
            call(info)  # type: ignore[operator]


# --- every mutation is answered or refused (defects 1, 2, 6) -------------------------------
def real_information_sets() -> list[InformationSet]:
    found = [played(BLUE_LION, seed, seed * 3, ("lupin", "fujiko")[seed % 2]) for seed in range(6)]
    found += [played(ALIBI, seed, 3 + seed * 4, seed % 3) for seed in range(6)]
    return found


REAL = real_information_sets()
VALUES: list[object] = [None, True, 0, 1, -1, 2, 99, "", "L", "Z", "t1", "lupin", 1.5, (), ("L",)]


@st.composite
def mutated(draw: st.DrawFn) -> InformationSet:
    info = draw(st.sampled_from(REAL))
    observations = list(info.observations)
    seat, options = info.seat, info.options
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["drop", "duplicate", "swap", "field", "seat", "option"]))
        i = draw(st.integers(0, len(observations) - 1)) if observations else 0
        if how == "drop" and observations:
            del observations[i]
        elif how == "duplicate" and observations:
            observations.insert(draw(st.integers(0, len(observations))), observations[i])
        elif how == "swap" and observations:
            j = draw(st.integers(0, len(observations) - 1))
            observations[i], observations[j] = observations[j], observations[i]
        elif how == "field" and observations and observations[i].fields:
            obs = observations[i]
            name = draw(st.sampled_from([name for name, _ in obs.fields]))
            others = [v for o in observations for k, v in o.fields if k == name]
            value = draw(st.sampled_from(VALUES + others))
            observations[i] = changed(obs, **{name: value})
        elif how == "seat":
            seat = draw(st.sampled_from([0, 1, 2, 3, True, "lupin", "fujiko", "x"]))
        elif how == "option":
            key = draw(st.sampled_from(["players", "deck", "target", "first_player"]))
            value = draw(st.sampled_from([3, 4, "small", "full", True, 5, "lupin"]))
            options = tuple(sorted({**dict(options), key: value}.items()))
    return InformationSet(info.game, options, seat, tuple(observations))


def deduce_and_hint(info: InformationSet) -> None:
    with contextlib.suppress(SleuthError):
        solver.hints(info)


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated())
def test_mutated_information_sets_are_answered_or_refused(info: InformationSet) -> None:
    """deduce and hints return or raise a SleuthError (SolverTimeout included: a hang would be
    one), never a bare KeyError, StopIteration, AssertionError, TypeError or ValueError."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver.cpsat, "SOLVE_SECONDS", 10.0)
        patch.setattr(solver.cpsat, "QUERY_SECONDS", 20.0)
        deduce_and_hint(info)


# --- found by benchmarks/soak.py: records the game cannot produce, which crashed the chain ------
def alibi_mid_game(seed: int = 144, steps: int = 72) -> InformationSet:
    game = engines.make("alibi", players=4, deck="small")
    return game.random_game(seed, steps).information_set(1)


def without(info: InformationSet, index: int) -> InformationSet:
    kept = info.observations[:index] + info.observations[index + 1 :]
    return InformationSet(info.game, info.options, info.seat, kept)


def test_a_pass_left_out_of_the_record_is_refused() -> None:
    info = alibi_mid_game()
    passes = [i for i, obs in enumerate(info.observations) if obs.kind == "pass"]
    assert len(passes) >= 8
    for index in passes:
        with pytest.raises(InvalidInformationSet, match="is a pass missing"):
            solver.deduce(without(info, index))


def test_passes_without_the_hand_sizes_after_them_are_refused() -> None:
    info = alibi_mid_game()
    last = max(i for i, obs in enumerate(info.observations) if obs.kind == "hands")
    assert info.observations[last - 1].kind == "pass"
    with pytest.raises(InvalidInformationSet, match="followed by the hand sizes"):
        solver.deduce(without(info, last))
