"""City Killer's detective under an opponent model of the killer: the hints' table of odds is
the modelled deduction's, cell by cell; the search and the bot read it; the killer's seat,
whose odds are the detective's view, refuses a model everywhere a person can ask for one."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import engines
import opponents
import solver
from engines import ConfigError, InformationSet
from engines.city_killer.material import MOTIVES
from solver import Fact
from solver import deduction as deduction_module
from solver.games.city_killer import killer_fact, motive_fact, posterior, posterior_of
from solver.opponent_models import FLOOR, ModelledWorlds, modelled_worlds

SAMPLES = 50
"""States weighed per modelled deduction here (the library's bound is 300): enough to move
the odds, few enough for the suite."""


@pytest.fixture(autouse=True)
def _fewer_samples(monkeypatch: pytest.MonkeyPatch) -> None:
    solver.forget()
    fewer = functools.partial(modelled_worlds, samples=SAMPLES)
    monkeypatch.setattr(deduction_module, "modelled_worlds", fewer)


@functools.cache
def _detective(seed: int, moves: int) -> InformationSet:
    game = engines.make("city-killer")
    return game.random_game(seed=seed, moves=moves).information_set("detective")


def _value(var: str, value: str) -> Fact:
    return Fact("value", (var, value), var, frozenset({value}), f"{var} is {value}")


def test_a_modelled_world_set_reads_a_whole_table_as_it_reads_each_fact() -> None:
    """`ModelledWorlds.joint`: each cell's weighted share when every world was weighed; else
    the counted table fitted to the estimated odds of each value, so the table's margins are
    `probability`'s, and no cell the counting allows is ruled out."""
    worlds: list[dict[str, object]] = [
        {"X": "a", "Y": "u"}, {"X": "a", "Y": "v"}, {"X": "b", "Y": "u"}, {"X": "c", "Y": "v"}
    ]  # fmt: skip
    axes = [[_value("X", x) for x in "abc"], [_value("Y", y) for y in "uv"]]
    logs = [0.0, 0.5, 1.0, 2.0]
    exact = ModelledWorlds(worlds, logs)
    weights = np.exp(logs)
    expected = np.zeros((3, 2))
    for w, world in zip(weights, worlds, strict=True):
        expected["abc".index(str(world["X"])), "uv".index(str(world["Y"]))] += w
    flat = np.full((3, 2), 1 / 6)
    assert np.allclose(exact.joint(flat, axes), expected / expected.sum())

    counted = np.array([[0.3, 0.2], [0.2, 0.1], [0.1, 0.1]])
    odds = {"X": {"a": 0.5, "b": 0.3, "c": 0.2}, "Y": {"u": 0.6, "v": 0.4}}
    drawn = ModelledWorlds(worlds, logs, lambda fact: odds[fact.var][str(fact.args[1])])
    table = drawn.joint(counted, axes)
    assert np.allclose(table.sum(axis=1), [drawn.probability(f) for f in axes[0]])
    assert np.allclose(table.sum(axis=0), [drawn.probability(f) for f in axes[1]])
    assert table.min() > 0  # a model weighs; it never rules a counted cell out


def test_the_detectives_table_under_a_model_agrees_with_the_deductions_odds() -> None:
    """Each killer's and motive's odds in the hints' table are the modelled deduction's own
    estimates of those facts (renormalised where an estimate fell below its floor); the
    counted table is unchanged; a resident the logic rules out stays out."""
    info = _detective(1, 40)
    counted = solver.deduce(info)
    assert np.allclose(posterior_of(info, counted).p, posterior(info).p)
    found = solver.deduce(info, model="random")
    table = posterior_of(info, found)
    assert abs(table.p.sum() - 1) < 1e-9
    for margin, facts in ((table.killer, [killer_fact(n) for n in table.residents]),
                          (table.motive, [motive_fact(m) for m in MOTIVES])):  # fmt: skip
        floors = [counted.probability(f) * FLOOR for f in facts]
        estimates = np.maximum([found.probability(f) for f in facts], floors)
        assert np.allclose(margin, estimates / estimates.sum(), atol=1e-9)
        assert [p > 0 for p in margin] == [counted.possible(f) for f in facts]
    moved = max(
        abs(p - counted.probability(killer_fact(n)))
        for p, n in zip(table.killer, table.residents, strict=True)
    )
    assert moved > 0.01  # the random killer's choices say something here


def test_the_detectives_hints_read_the_model_and_say_they_are_estimated() -> None:
    info = _detective(1, 40)
    counted = [h.text for h in solver.hints(info, search=False)]
    modelled = [h.text for h in solver.hints(info, search=False, model="random")]
    assert counted != modelled
    suspects = next(t for t in modelled if t.startswith("Suspects"))
    assert "estimated, read as random killers" in suspects
    assert not any("estimated" in t for t in counted)


def test_the_detectives_search_and_bot_read_a_model() -> None:
    """The solver's `model` knob: the bot's move is the advice under that model, legal, the
    same for a seed."""
    game = engines.make("city-killer")
    state = game.random_game(seed=3, moves=14)
    while state.to_move != "detective" or len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    info = state.information_set("detective")
    bot = opponents.make("solver", game, "detective", seed=5, model="random")
    move = bot.act(info)
    assert move in state.legal_actions()
    assert solver.advise(info, seed=5, model="random").move == move
    with pytest.raises(ConfigError, match="unknown opponent model"):
        opponents.make("solver", game, "detective", seed=5, model="psychic")


def test_the_killer_refuses_a_model_wherever_it_is_asked_for(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """His odds are what the detective can know: hints, the solver, the bot and the notebook
    all refuse a model for his seat, saying to read the counting odds."""
    from sleuth.assist import Session, SessionError

    game = engines.make("city-killer")
    info = game.random_game(seed=2, moves=10).information_set("killer")
    with pytest.raises(ConfigError, match="use model 'counting'"):
        solver.hints(info, model="random")
    with pytest.raises(ConfigError, match="use model 'counting'"):
        opponents.make("solver", game, "killer", seed=1, model="random")
    with pytest.raises(SessionError, match="use model 'counting'"):
        Session.new("city-killer", "killer", dir=tmp_path, name="k", model="random")
    session = Session.new("city-killer", "killer", dir=tmp_path, name="k2")
    with pytest.raises(SessionError, match="use model 'counting'"):
        session.model = "random"
    assert Session.open("k2", tmp_path).model == "counting"
    assert session.models == ()  # the page offers him no model to read under
    detective = Session.new("city-killer", "detective", dir=tmp_path, name="d", model="random")
    assert Session.open("d", tmp_path).model == "random"
    assert detective.model == "random"
    assert "heuristic" in detective.models
