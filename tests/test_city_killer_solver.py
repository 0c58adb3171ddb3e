"""City Killer's knowledge model against the model-free brute force, then its interface.

The full comparison (300+ positions, both liar models, small and full configurations) is in
benchmarks/city_killer.py (`--brute-force 320`); here a sample keeps the test quick.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import engines
import solver
from engines import InvalidInformationSet, Observation
from engines.city_killer import CityKiller, CityKillerState
from engines.city_killer.material import GROUPS
from engines.city_killer.pool_file import EXAMPLE
from sleuth.assist import Session
from sleuth.assist.transcribe import typed_lines
from solver.games.city_killer import allies_fact, killer_fact, posterior
from solver.search import city_killer as search_city_killer
from solver.validation import validate
from tests.city_killer_brute_force import brute_force

INFORMATIVE = ("interrogate", "ask", "surveil", "police", "diner", "murder", "play profile",
               "play confession", "answer", "fire", "proceed")  # fmt: skip


def position(
    seed: int, small: bool, liar_model: str, ally_prior: str = "uniform"
) -> CityKillerState:
    """A random position of a game whose moves lean towards questions and surveillance."""
    rng = random.Random(seed)
    options: dict[str, object] = {"liar_model": liar_model, "ally_prior": ally_prior}
    if small:
        options.update(residents=6, pool=rng.choice([6, 18, 54]))
    for key, values in (
        ("surveillance_scope", ["full", "motive_only"]),
        ("use_figurant", [True, False]),
        ("question_attributes", ["looks", "group"]),
    ):
        if rng.random() < 0.3:
            options[key] = rng.choice(values)
    return _played_on(engines.make("city-killer", **options).new_game(seed), rng, 20)


def pool_file_position(seed: int, liar_model: str) -> CityKillerState:
    """A random position of a game of 8 residents drawn from the example pool file."""
    rng = random.Random(seed)
    game = engines.make("city-killer", pool_file=str(EXAMPLE), residents=8,
                        liar_model=liar_model, question_attributes="profession")  # fmt: skip
    return _played_on(game.new_game(seed), rng, 40)


def _played_on(state: engines.State, rng: random.Random, least: int) -> CityKillerState:
    """`state` after `least` to 219 random moves (fewer when the game ends first), four in
    five of them `INFORMATIVE` where there are any."""
    assert isinstance(state, CityKillerState)
    for _ in range(rng.randrange(least, 220)):
        if state.is_over:
            break
        legal = state.legal_actions()
        good = [a for a in legal if str(a).startswith(INFORMATIVE)]
        state.apply(rng.choice(good if good and rng.random() < 0.8 else legal))
    return state


def mismatches(state: CityKillerState, seat: str) -> list[str]:
    """Every fact where the solver and the brute force disagree (possible or probability)."""
    liar_model = state.game.options["liar_model"]
    info = state.information_set(seat)
    try:
        validate(info)
    except engines.IncompleteInformationSet:  # it waits for the other seat: ask the mover
        assert state.to_move is not None and state.to_move != seat
        info = state.information_set(state.to_move)
    deduction = solver.deduce(info)
    worlds = brute_force(state, liar_model)
    total = sum(worlds.values())
    found = []
    for fact in deduction.facts:
        axis = "KMGF".index(fact.var)
        weight = sum(
            w for world, w in worlds.items() if (world[axis] in fact.values) != fact.negated
        )
        if (
            deduction.possible(fact) != (weight > 0)
            or abs(deduction.probability(fact) - weight / total) > 1e-9
        ):
            found.append(f"{fact}: solver {deduction.probability(fact)}, brute {weight / total}")
    assert deduction.total() == len(worlds)
    return found


@pytest.mark.parametrize("liar_model", ["free", "random"])
def test_solver_matches_brute_force_on_small_games(liar_model: str) -> None:
    answers = 0
    for seed in range(14):
        state = position(seed, small=True, liar_model=liar_model)
        answers += sum(obs.kind == "answer" for obs in state.public_observations())
        assert mismatches(state, random.Random(seed).choice(["detective", "killer"])) == []
    assert answers >= 5  # the sample exercises the liar constraints


@pytest.mark.parametrize("liar_model", ["free", "random"])
def test_solver_matches_brute_force_on_full_games(liar_model: str) -> None:
    for seed in (100, 101):
        state = position(seed, small=False, liar_model=liar_model)
        assert mismatches(state, "detective") == []


@pytest.mark.parametrize("liar_model", ["free", "random"])
def test_the_strategic_ally_prior_matches_brute_force(liar_model: str) -> None:
    tokens = 0
    for seed in range(6):
        state = position(200 + seed, small=seed % 2 == 0, liar_model=liar_model,
                         ally_prior="strategic")  # fmt: skip
        tokens += len(state.revealed_tokens)
        assert mismatches(state, "detective") == []
    assert tokens  # the sample conditions the prior on stack tokens seen


def test_the_strategic_ally_prior_leans_to_larger_groups_and_rules_nothing_out() -> None:
    state = position(7, small=False, liar_model="free")
    info = state.information_set("detective")
    uniform = solver.deduce(info)
    game = engines.make("city-killer", ally_prior="strategic")
    strategic_info = engines.InformationSet(
        info.game, game.option_items(), info.seat, info.observations
    )
    strategic = solver.deduce(strategic_info)
    assert [uniform.possible(f) for f in uniform.facts] == [
        strategic.possible(f) for f in strategic.facts
    ]
    sizes = {g: sum(state.resident(n).group == g for n in state.residents) for g in GROUPS}
    seen = set(state.revealed_tokens)
    open_groups = sorted((g for g in GROUPS if g not in seen), key=sizes.__getitem__)
    small, large = allies_fact(open_groups[0]), allies_fact(open_groups[-1])
    assert sizes[open_groups[0]] < sizes[open_groups[-1]]
    assert strategic.probability(large) / strategic.probability(small) > (
        uniform.probability(large) / uniform.probability(small)
    )


@pytest.mark.parametrize("liar_model", ["free", "random"])
def test_a_pool_file_matches_brute_force(liar_model: str) -> None:
    answers = 0
    for seed in range(4):
        state = pool_file_position(300 + seed, liar_model)
        answers += sum(obs.kind == "answer" for obs in state.public_observations())
        assert mismatches(state, "detective") == []
    assert answers


def test_the_killer_sees_the_detectives_posterior() -> None:
    state = position(5, small=False, liar_model="free")
    detective = posterior(state.information_set("detective"))
    killer = posterior(state.information_set("killer"))
    assert (detective.p == killer.p).all()
    assert detective.killer[detective.residents.index(state._identity)] > 0


def test_the_truth_is_always_possible_and_explained_facts_are_certain() -> None:
    for seed in range(6):
        state = position(seed, small=False, liar_model="random")
        deduction = solver.deduce(state.information_set("detective"))
        truth = {fact for fact in deduction.facts if fact.holds(state)}
        assert all(deduction.possible(fact) for fact in truth)
        for fact in deduction.certain()[:2]:
            deduction.explain(fact)  # raises unless certain


def test_validation_names_the_bad_field() -> None:
    info = position(1, small=True, liar_model="free").information_set("detective")
    index = next(i for i, obs in enumerate(info.observations) if obs.kind == "row")
    bad = Observation.of("murder", victim="Nobody", district=[1, 1], scene=1, round=1,
                         alone=True, intimidated=False, history=[])  # fmt: skip
    broken = engines.InformationSet(
        info.game, info.options, info.seat,
        (*info.observations[: index + 1], bad),
    )  # fmt: skip
    with pytest.raises(InvalidInformationSet, match="victim"):
        solver.deduce(broken)


def test_hints_for_both_seats() -> None:
    state = position(3, small=False, liar_model="free")
    for seat, heading in (("detective", "Suspects ("), ("killer", "The detective's suspects (")):
        found = solver.hints(state.information_set(seat))
        assert any(hint.text.startswith(heading) for hint in found)
    texts = [hint.text for hint in solver.hints(state.information_set("killer"))]
    assert any(text.startswith("Exposure") for text in texts)


def test_ruled_out_residents_are_explained_minimally() -> None:
    from solver.games.city_killer import explain_excluded, factors, record

    checked = 0
    for seed in range(8):
        state = position(seed, small=False, liar_model="free")
        info = state.information_set("detective")
        rec = record(info)
        deduction = solver.deduce(info)
        for i, name in enumerate(rec.residents):
            sources = explain_excluded(rec, 0, i)
            assert (sources is None) == deduction.possible(killer_fact(name))
            if not sources:
                continue
            checked += 1
            for dropped in [None, *sources]:
                kept = [f for s, f in factors(rec) if s is None or (s in sources and s != dropped)]
                alive = (np.prod(np.broadcast_arrays(*kept), axis=0)[i] > 0).any()
                assert alive == (dropped is not None)  # all of them force it, each is needed
    assert checked


def test_intimidations_owed_never_exceed_the_residents_left_to_flip() -> None:
    """Positions where every living resident was intimidated or beside the pawn while an
    intimidation was still owed: the killer goes on to the murder."""
    for seed in (1001, 1056):
        state = position(seed, small=True, liar_model="free")
        assert state.is_over or state.legal_actions()


def test_validation_follows_the_victims() -> None:
    """A murder must cite the earlier victims as its history, and its scene number."""
    for seed in range(30):
        state = position(seed, small=False, liar_model="free")
        info = state.information_set("detective")
        murders = [i for i, obs in enumerate(info.observations) if obs.kind == "murder"]
        if len(murders) >= 2:
            break
    else:
        raise AssertionError("no sample position has two murders")
    second = info.observations[murders[1]]
    wrong = Observation("murder", tuple((k, () if k == "history" else v) for k, v in second.fields))
    observations = list(info.observations)
    observations[murders[1]] = wrong
    broken = engines.InformationSet(info.game, info.options, info.seat, tuple(observations))
    with pytest.raises(InvalidInformationSet, match="history"):
        solver.deduce(broken)


def test_the_detectives_moves_are_told_in_table_words_and_typed_as_told() -> None:
    """A question or a surveillance is advised in words, with the notation to type (no bits
    but in `why`), and the notation is a move the detective may make then."""
    from solver.games.city_killer import narrowing, question_words

    assert question_words("height", "short") == "short"
    assert question_words("height", "medium") == "of medium height"
    assert question_words("group", "press") == "in the press group"
    assert question_words("profession", "actress") == "an actress"
    assert narrowing(36.0, 1.0) == (
        "it should narrow the likely killer-motive pairs from about 36 to about 18"
    )
    advised = 0
    for seed in range(12):
        state = position(seed, small=False, liar_model="free")
        if state.is_over or state.to_move != "detective":
            continue
        info = state.information_set("detective")
        legal = {str(action) for action in state.legal_actions()}
        for hint in solver.hints(info):
            assert "bits" not in hint.text, hint.text
            if hint.kind == "suggestion" and hint.because:  # the solver's move, as notation
                move = hint.text.split(": ", 1)[0]
                assert move[:1].lower() + move[1:] in legal, (move, sorted(legal))
            if hint.text.startswith(("Ask ", "Put ")) and "(type: " in hint.text:
                typed = hint.text.rsplit("(type: ", 1)[1].rstrip(")")
                assert any("bits" in reason for reason in hint.because)
                if typed.split()[0] in {action.split()[0] for action in legal}:
                    assert typed in legal, (typed, sorted(legal))
                    advised += 1
    assert advised >= 1


def test_hints_at_a_record_cut_inside_a_move_stand_without_the_search(tmp_path) -> None:
    """A session typed up to the killer's murder with its outcome not yet entered: the view
    stands in for the outcome (its `keep ?` crashed the search's hint), so the hints stand
    and the search names no move there."""
    game = engines.make("city-killer")
    lines = typed_lines(game, game.random_game(5).information_set("killer"))
    cut = next(i for i, line in enumerate(lines) if line.startswith("killer: murder "))
    session = Session.new("city-killer", dir=tmp_path, name="cut", seat="killer")
    for line in lines[: cut + 1]:
        session.add(line)
    info = session.information_set()
    assert isinstance(game, CityKiller) and game.awaits_outcome(info)
    assert search_city_killer.hints(info) == []
    assert session.hints("advice")
    session.close()
