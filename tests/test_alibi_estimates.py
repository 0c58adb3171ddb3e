"""Alibi's estimated probabilities say what they are: their error bars cover the exact value at
about the stated rate, a possible card never shows 0%, every estimated number in a hint or the
heat map is labelled, and `Deduction.sample` says what it returns.

The chain is forced on small-deck positions (where exact counts exist to compare with) by
replacing the exact counter with one that always gives up.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import numpy as np
import pytest
from rich.console import Console

import engines
import solver
from engines import InformationSet
from engines.alibi import Accuse
from sleuth.views import alibi as view
from solver.deduction import Deduction
from solver.games import alibi as knowledge
from solver.games.alibi import history_of, witnesses
from solver.games.alibi.chain import HistoryChain, _draws, card_id
from solver.games.alibi.counting import _literals, count_histories
from solver.games.alibi.model import build, paths_of
from solver.games.alibi.position import parse
from solver.sampling import Estimate, estimate, estimate_from_runs
from tests.test_alibi_solver import positions

GAME = engines.make("alibi", players=3, deck="small")
CHAIN_LIMIT = 49_999  # deduce remembers deductions by (info, limit): keep the chain's apart
BARE_ZERO = re.compile(r"(?<![\d<>])0%")


# --- the error estimate on series whose truth is known ---------------------------------------
def two_state_series(runs: int, length: int, p: float, stay: float, seed: int) -> np.ndarray:
    """Correlated 0/1 series with P(1) = p: each step keeps the last value with probability
    `stay`, else redraws it (autocorrelation `stay` per step)."""
    rng = np.random.default_rng(seed)
    series = np.empty((runs, length), dtype=bool)
    series[:, 0] = rng.random(runs) < p
    for t in range(1, length):
        redraw = rng.random(runs) >= stay
        series[:, t] = np.where(redraw, rng.random(runs) < p, series[:, t - 1])
    return series


def test_batch_means_error_covers_a_correlated_series_where_an_independent_one_does_not() -> None:
    p, series = 0.3, two_state_series(400, 1_500, 0.3, stay=0.75, seed=1)
    found = [estimate_from_runs(row, [0]) for row in series]
    covered = np.mean([abs(e.value - p) <= e.margin for e in found])
    naive = np.mean(
        [abs(e.value - p) <= 1.96 * (e.value * (1 - e.value) / 1_500) ** 0.5 for e in found]
    )
    assert 0.9 <= covered <= 0.99, covered
    assert naive < 0.75, "the series is correlated enough to tell the two apart"
    sizes = [e.effective_size for e in found if e.effective_size is not None]
    assert 100 < np.median(sizes) < 400, "about 1,500 / 7 (autocorrelation time 1.75 / 0.25)"


def test_runs_that_disagree_widen_the_error_bar() -> None:
    hits = np.array([True] * 1_500 + [False] * 1_500)
    agreed = estimate_from_runs(np.tile([True, False], 1_500), [0, 1_500])
    split = estimate_from_runs(hits, [0, 1_500])
    assert split.value == agreed.value == 0.5
    assert split.margin >= 0.49 > 5 * agreed.margin


def test_a_fact_no_record_shows_is_not_reached_and_never_zero() -> None:
    never = estimate_from_runs(np.zeros(3_000, dtype=bool), [0, 1_500])
    always = estimate_from_runs(np.ones(3_000, dtype=bool), [0])
    assert not never.reached and 0 < never.value < 0.001
    assert not always.reached and 0.999 < always.value < 1
    assert "not reached by the estimate" in str(never) and "0%" not in str(never)
    assert "estimated" in str(always) and "not certain" in str(always)


def test_estimates_print_with_their_label_and_margin() -> None:
    assert str(Estimate(0.23)) == "23%"
    assert str(Estimate(0.23, 0.02, exact=False)) == "estimated 23% ± 4%"
    assert Estimate(0.23, 0.0001, exact=False).short() == "23% ± 1%"


# --- the chain against exact counts -----------------------------------------------------------
def test_chain_error_bars_cover_exact_probabilities_at_about_the_stated_rate() -> None:
    """95% margins on every fact between 0 and 1 of small-deck positions after a pass: most
    cover the exact value (0.91-0.94 measured on 70 positions; independent-draw margins
    cover about 0.7), and they stay narrow enough to be worth showing."""
    covered, margins, unreached = [], [], 0
    for k, (info, state) in enumerate(positions(12, seed=700, rounds=3)):
        pos, model = parse(info), build(info)
        counted = count_histories(pos, model, max_states=10**6, seconds=120)
        if pos.epoch < 1 or counted is None:
            continue
        chain = HistoryChain(pos, model, history_of(state)[1], seed=k)
        for fact in model.facts:
            if 0 < counted.count(fact) < counted.total():
                found = chain.estimate(fact)
                if not found.reached:
                    unreached += 1
                    continue
                covered.append(abs(found.value - counted.probability(fact)) <= found.margin)
                margins.append(found.margin)
    assert len(covered) > 300
    assert np.mean(covered) >= 0.85, np.mean(covered)
    assert np.median(margins) < 0.1 and unreached <= len(covered) // 50


def test_a_rerun_is_an_independent_chain_of_the_same_position() -> None:
    """`HistoryChain.rerun`: records of its own (not the first chain's), the same for a seed,
    every box the first chain's run starts held reached again, and estimates that agree with
    the exact counts as the first chain's do."""
    ((info, state),) = positions(1, seed=703, rounds=3)
    pos, model = parse(info), build(info)
    counted = count_histories(pos, model, max_states=10**6, seconds=120)
    assert counted is not None
    first = HistoryChain(pos, model, history_of(state)[1], seed=0)
    first.restart(list(first.records[-1]), 2_000)  # a second run, as `explore` makes
    again = first.rerun(seed=5)
    assert again.records != first.records and again.starts == 2
    assert first.rerun(seed=5).records == again.records
    for fact in model.facts:
        if 0 < counted.count(fact) < counted.total():
            found = again.estimate(fact)
            assert abs(found.value - counted.probability(fact)) <= max(3 * found.margin, 0.05)


def test_a_card_the_chain_never_boxed_is_labelled_not_reached() -> None:
    """A run that never leaves one region (seed 325's game, chain seed 1, a short run of
    10,000 steps, no restarts): cards that can be in the box but are in no record get a
    labelled floor, not 0%."""
    ((info, state),) = positions(1, seed=325, rounds=4)
    pos, model = parse(info), build(info)
    counted = count_histories(pos, model, max_states=10**6, seconds=120)
    assert counted is not None
    chain = HistoryChain(pos, model, history_of(state)[1], seed=1, steps=10_000)
    missed = [
        f
        for f in model.facts
        if f.kind == "InBox" and 0 < counted.count(f) < counted.total()
        if chain.estimate(f).value < 0.5 and not chain.estimate(f).reached
    ]
    assert missed, "the position no longer shows the case (pick another)"
    for fact in missed:
        found = chain.estimate(fact)
        assert chain.probability(fact) == found.value > 0  # a floor, never 0
        assert not BARE_ZERO.search(str(found)) and "not reached" in str(found)


def test_a_walk_from_a_history_the_records_missed_witnesses_only_possible_literals() -> None:
    """`HistoryChain.walk` (what `deduce` does with each history CP-SAT finds): from a history
    boxing a card no record boxes, every literal it returns is one the exact counter
    witnesses, the missed box card among them; the chain's records and state are as they
    were, and the same start walks the same way."""
    ((info, state),) = positions(1, seed=325, rounds=4)
    pos, model = parse(info), build(info)
    counted = count_histories(pos, model, max_states=10**6, seconds=120)
    assert counted is not None
    chain = HistoryChain(pos, model, history_of(state)[1], seed=1, steps=10_000)
    seen = chain.witnessed()
    missed = [
        (f.var, value)
        for f in model.facts
        if f.kind == "InBox" and counted.count(f) > 0
        for value in f.values
        if (f.var, value) not in seen
    ]
    assert missed, "the position no longer shows the case (pick another)"
    start = next(
        paths
        for paths in counted.sample_many(500, random.Random(0))
        if any(missed[0] in _literals(pos, c, [path]) for c, path in enumerate(paths))
    )
    records, paths, rng = list(chain.records), list(chain.paths), chain.rng.getstate()
    held = chain.as_carried().boxed  # the box cards runs held, which `explore` restarts by
    found = chain.walk(start, 2_000)
    assert missed[0] in found and found <= set(counted.witnessed())
    assert len(found - seen) > 1  # more than the start's own rare literal
    assert chain.records == records and chain.paths == paths and chain.rng.getstate() == rng
    assert chain.as_carried().boxed == held  # a walk records nothing: no box counts as held
    kept = witnesses.kept(pos)  # each checked against the position as it is read
    assert kept and all(history != tuple(start) for history in kept)
    assert chain.walk(start, 2_000) == found


# --- through deduce and the hints, with the chain forced --------------------------------------
@pytest.fixture
def chain_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(knowledge, "count_histories", lambda pos, model, **_: None)
    yield


def estimated_positions(games: int = 4) -> list[InformationSet]:
    """Seat 0's information sets in rounds 2 to 4 of a few small-deck games, two a game."""
    found = []
    for seed in range(games):
        rng, state = random.Random(seed), GAME.new_game(seed)
        seen = []
        while not state.is_over and state.round <= 4:
            if state.round >= 2 and state.phase != "passing":
                seen.append(state.information_set(0))
            actions = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
            state.apply(rng.choice(actions))
        found += seen[len(seen) // 3 :: len(seen) // 3][:2]
    return found


def test_no_possible_card_shows_zero_and_every_estimated_hint_says_so(chain_only: None) -> None:
    infos = estimated_positions()
    assert len(infos) >= 6
    for info in infos:
        d = solver.deduce(info, enumeration_limit=CHAIN_LIMIT)
        assert not d.exact
        for fact in d.facts:
            if fact.kind == "InBox" and d.possible(fact):
                chance = estimate(d, fact)
                assert d.probability(fact) > 0 and chance.value > 0, fact
                assert not BARE_ZERO.search(str(chance)), (fact, chance)
        hints = solver.hints(info, d)
        for hint in hints:
            assert not BARE_ZERO.search(hint.text), hint.text
            numbered = re.search(r"\d%|bits", hint.text) and hint.kind != "certain"
            if numbered and hint.probability != 1.0:
                assert "estimate" in hint.text, hint.text
        assert any("± " in h.text for h in hints if h.kind == "likely")


def test_heat_map_marks_estimated_chances_and_never_shows_zero(chain_only: None) -> None:
    info = estimated_positions()[-1]
    d = solver.deduce(info, enumeration_limit=CHAIN_LIMIT)
    console = Console(width=100, record=True)
    console.print(view.heat_map(GAME, info, d))
    text = console.export_text()
    assert "(estimated)" in text and "95% margin" in text
    cells = re.findall(r"\S*\d%", text.split("% chance in the box")[0])
    assert cells and all(cell.startswith("~") for cell in cells), cells
    assert not BARE_ZERO.search(text)


def test_exact_heat_map_has_no_estimate_marks() -> None:
    info = estimated_positions()[-1]
    d = solver.deduce(info)
    assert d.exact
    console = Console(width=100, record=True)
    console.print(view.heat_map(GAME, info, d))
    text = console.export_text()
    assert "estimated" not in text and "~" not in text


# --- sample() ---------------------------------------------------------------------------------
def test_sample_says_what_it_returns_and_does_it(chain_only: None) -> None:
    """Exact: independent draws; estimated: the chain's records, as the docstring says."""
    doc = Deduction.sample.__doc__ or ""
    assert "independent" in doc and "correlated" in doc and "effective_size" in doc
    info = estimated_positions()[-1]
    d = solver.deduce(info, enumeration_limit=CHAIN_LIMIT)
    chain = d.worlds
    assert isinstance(chain, HistoryChain)
    drawn = d.sample(50, seed=3)
    assert drawn == d.sample(50, seed=3)
    records = set(chain.records)
    assert all(tuple(paths_of(chain.pos, world)) in records for world in drawn)
    sizes = [estimate(d, f).effective_size for f in d.facts if f.kind == "InBox"]
    measured = [size for size in sizes if size is not None]
    assert measured and max(measured) <= len(chain.records)


def test_deduction_estimate_is_labelled_and_counts_are_refused_when_estimated(
    chain_only: None,
) -> None:
    info = estimated_positions(games=1)[0]
    d = solver.deduce(info, enumeration_limit=CHAIN_LIMIT)
    fact = next(f for f in d.facts if f.kind == "InBox" and d.possible(f) and not d.is_certain(f))
    found = d.estimate(fact)
    assert isinstance(found, solver.Estimate) and not found.exact
    assert found.value == pytest.approx(d.probability(fact)) and str(found).startswith("estimated")
    with pytest.raises(solver.NotCounted, match="estimated"):
        d.count(fact)
    with pytest.raises(solver.NotCounted):
        d.total()


def test_deduction_estimate_is_exact_when_the_worlds_are_counted() -> None:
    info = estimated_positions(games=1)[0]
    d = solver.deduce(info)
    assert d.exact
    for fact in d.facts[:40]:
        found = d.estimate(fact)
        assert found.exact and found.error == 0 and found.value == d.probability(fact)


# --- location estimates pulled toward their prior share --------------------------------------
def test_draws_are_about_the_effective_size_of_a_slow_two_state_series() -> None:
    """A series that redraws with probability 0.01 per record (p = 0.5) is worth about
    1,500 * 0.01 / 1.99, 7.5 independent draws; one that never changes, one."""
    found = [
        _draws(row.astype(np.int64), [0]) for row in two_state_series(200, 1_500, 0.5, 0.99, 2)
    ]
    assert 5 < np.median(found) < 11, np.median(found)
    assert _draws(np.zeros(1_500, dtype=np.int64), [0]) == 1.0
    rng = np.random.default_rng(3)
    independent = _draws(rng.integers(0, 3, 1_500), [0])
    assert 600 < independent < 900, "about half the records: the count is conservative"
    assert _draws(np.arange(1_500) % 2, [0]) <= 1_500


def test_short_chain_location_estimates_are_closer_to_exact_when_pulled() -> None:
    """Chains too short to move cards between hands much: their Holds shares sit near 0 and
    1; pulled toward the card's share of places they are closer to the exact chances (mean
    squared error), and stay within (0, 1) with an error bar."""
    raw_errors, pulled_errors = [], []
    for k, (info, state) in enumerate(positions(24, seed=900, rounds=4)):
        pos, model = parse(info), build(info)
        counted = count_histories(pos, model, max_states=10**6, seconds=120)
        if pos.epoch < 1 or counted is None:
            continue
        chain = HistoryChain(pos, model, history_of(state)[1], seed=k, steps=1_500)
        for fact in model.facts:
            if fact.kind != "Holds" or not 0 < counted.count(fact) < counted.total():
                continue
            hits = chain._makes(fact, pos.index[card_id(fact.args[1])])
            raw = estimate_from_runs(hits, chain._starts).value
            pulled = chain.estimate(fact)
            assert 0 < pulled.value < 1 and pulled.error > 0
            exact = counted.probability(fact)
            raw_errors.append((raw - exact) ** 2)
            pulled_errors.append((pulled.value - exact) ** 2)
    assert len(pulled_errors) > 200
    assert np.mean(pulled_errors) < 0.7 * np.mean(raw_errors), "0.46 measured"
