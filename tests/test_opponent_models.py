"""Odds under an opponent model (`solver.deduce(info, model=...)`): exact against a brute-force
sum over every world and every recorded choice, estimates within their margins, the logic's
certain and possible facts untouched, and clear refusals."""

from __future__ import annotations

import math
import random
from collections import defaultdict

import pytest

import engines
import opponents
import solver
from engines import ConfigError, InformationSet, State
from engines.serial_killer import Declare
from solver import Estimate, Fact
from solver.games.serial_killer.counting import delta_var, tok_var
from solver.games.serial_killer.position import token_name
from solver.opponent_models import ModelledWorlds
from solver.states import serial_killer as sk_states
from tests.serial_killer_brute_force import histories, positions

MODELS = ("random", "heuristic")


def _positions(count: int, most_worlds: int) -> list[InformationSet]:
    """Small Serial Killer positions with few worlds where another seat has discarded."""
    found = []
    for info in positions(200, seed=11):
        if len(found) == count:
            break
        others = [obs.kind for obs in info.observations if obs.get("seat") != info.seat]
        if "lab_place" in others and solver.deduce(info).total() <= most_worlds:
            found.append(info)
    return found


def _state(info: InformationSet, start: dict[str, list[str]], discards: dict[int, str]) -> State:
    """The whole state of a brute-force history: its deck orders and the others' discards."""
    world: dict[str, object] = {}
    for genre, cards in start.items():
        for depth, card in enumerate(cards):
            world[tok_var((genre, depth))] = card
    for position, card in discards.items():
        genre = card.partition(".")[0]
        world[delta_var(position)] = token_name((genre, start[genre].index(card)))
    return sk_states._state_of(info, world, random.Random(0))


def _weighted_truth(info: InformationSet, model: str) -> dict[tuple[object, ...], float]:
    """Each fact's chance, summed over every brute-force world, each weighed by the model's
    chance of every move the other seats made in it (of a declaration before the end, whose
    profile nobody else sees: its chance of declaring at all)."""
    game = info.make_game()
    bots = {seat: opponents.make(model, game, seat, seed=0) for seat in game.seats}
    policies: dict[tuple[object, InformationSet], dict[object, float]] = {}
    ended = any(obs.kind == "end" for obs in info.observations)
    mass: dict[tuple[object, ...], float] = defaultdict(float)
    total = 0.0
    for profile, place, start, discards in histories(info):
        weight = 1.0
        for seat, seen, action in game.decisions(_state(info, start, discards)):
            if seat == info.seat:
                continue
            if (seat, seen) not in policies:
                policies[seat, seen] = dict(bots[seat].policy(seen))
            policy = policies[seat, seen]
            if isinstance(action, Declare) and not ended:  # the profile is secret: any will do
                chance = sum(p for a, p in policy.items() if isinstance(a, Declare))
            else:
                chance = policy.get(action, 0.0)
            weight *= max(chance, 1e-6)
        total += weight
        for genre, card in profile.items():
            mass["Profile", genre, card] += weight
        for card, where in place.items():
            mass["At", card, where] += weight
    return {key: value / total for key, value in mass.items()}


@pytest.mark.parametrize("model", MODELS)
def test_serial_killer_odds_under_a_model_equal_the_brute_force_sum(model: str) -> None:
    """Every state listed (small positions), each weighed by the model: exactly the sum over
    the brute force's worlds. Serial Killer's rivals draw, brief and declare on what the
    record shows, so here the weights move no odds: the check is of the weighing itself
    (declarations whose profile is secret, discards that are part of a world)."""
    checked = []
    for info in _positions(4, most_worlds=300):
        truth = _weighted_truth(info, model)
        d = solver.deduce(info, model=model)
        for fact in d.facts:
            key = (fact.kind, *fact.args)
            assert d.estimate(fact).exact
            assert d.probability(fact) == pytest.approx(truth.get(key, 0.0), abs=1e-9), fact
        checked += [obs.kind for obs in info.observations if obs.get("seat") != info.seat]
    assert "lab_place" in checked and "draw" in checked


def test_estimates_under_a_model_fall_within_their_margins() -> None:
    """The estimator against known odds: worlds drawn from one distribution and weighed to
    another, the control variate starting from the first's exact odds. Over many draws the
    true value lies within the 95% margin about 95% of the time."""
    rng = random.Random(4)
    fact = Fact("Is", ("a",), "x", frozenset({"a"}), "x is a")
    q = {"a": 0.5, "b": 0.3, "c": 0.2}  # the counting posterior the worlds are drawn from
    likelihood = {"a": 0.2, "b": 1.0, "c": 0.5}  # the model's chance of the moves made
    truth = q["a"] * likelihood["a"] / sum(q[v] * likelihood[v] for v in q)
    covered = 0
    for _ in range(400):
        values = rng.choices(list(q), weights=list(q.values()), k=300)
        worlds = [{"x": v} for v in values]
        logs = [math.log(likelihood[v]) for v in values]
        modelled = ModelledWorlds(worlds, logs, counted=lambda f: q["a"])
        estimate = modelled.estimate(fact)
        assert not estimate.exact and 100 < (estimate.effective_size or 0) < 300
        covered += abs(estimate.value - truth) <= estimate.margin
    assert 0.92 <= covered / 400 <= 0.98


def test_a_modelled_world_set_listing_every_state_is_exact() -> None:
    worlds = [{"x": "a"}, {"x": "b"}, {"x": "a"}]
    modelled = ModelledWorlds(worlds, [math.log(0.5), math.log(1.0), math.log(0.25)])
    fact = Fact("Is", ("a",), "x", frozenset({"a"}), "x is a")
    assert modelled.estimate(fact) == Estimate(0.75 / 1.75)
    with pytest.raises(solver.NotCounted):
        modelled.total()


def test_a_model_that_weighs_every_world_alike_gives_the_counting_odds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A random Serial Killer seat has as many moves in every world, so the random model
    weighs every drawn state alike: the estimate is the counting's exact odds."""
    monkeypatch.setattr(sk_states, "LISTED", 0)
    for info in _positions(2, most_worlds=2_000):
        counted, d = solver.deduce(info), solver.deduce(info, model="random")
        for fact in d.facts:
            assert d.probability(fact) == pytest.approx(counted.probability(fact), abs=1e-12)


@pytest.mark.parametrize("game_name", ["serial-killer", "noir"])
def test_a_model_never_changes_what_is_certain_or_possible(game_name: str) -> None:
    options = {"players": 4} if game_name == "serial-killer" else {}
    game = engines.make(game_name, **options)
    state = game.random_game(seed=3, moves=30)
    info = state.information_set(game.seats[0])
    counted, d = solver.deduce(info), solver.deduce(info, model="random")
    assert d.certain() == counted.certain()
    assert d.impossible() == counted.impossible()
    for fact in counted.certain():
        assert d.probability(fact) == 1.0
    for fact in counted.impossible():
        assert d.probability(fact) == 0.0


def test_a_modelled_deduction_is_the_same_on_every_call() -> None:
    game = engines.make("noir")
    info = game.random_game(seed=5, moves=20).information_set(game.seats[0])
    first = solver.deduce(info, model="random")
    solver.forget()
    again = solver.deduce(info, model="random")
    assert [first.probability(f) for f in first.facts] == [
        again.probability(f) for f in again.facts
    ]


def _noir_positions() -> list[InformationSet]:
    """Noir after 20 random moves of seeds 0-5 (the games still running), seats alternating."""
    game = engines.make("noir")
    found = []
    for seed in range(6):
        state = game.random_game(seed=seed, moves=20)
        if not state.is_over:
            found.append(state.information_set(game.seats[seed % 2]))
    return found


def test_noir_odds_move_with_what_the_random_inspector_chose() -> None:
    """Noir's random players have more or fewer moves depending on their hidden cards, so a
    random model weighs Noir's worlds unequally at some positions, with an effective sample
    size and a margin on each estimate."""
    moved = False
    for info in _noir_positions():
        d = solver.deduce(info, model="random")
        size = d.worlds.effective_size  # type: ignore[attr-defined]
        assert 1 <= size <= 300
        counted = solver.deduce(info)
        for fact in d.facts:
            if d.possible(fact) and not d.is_certain(fact):
                estimate = d.estimate(fact)
                assert not estimate.exact and math.isfinite(estimate.error)
                moved |= abs(estimate.value - counted.probability(fact)) > 0.01
    assert moved


def test_an_unknown_model_is_refused_naming_the_models() -> None:
    game = engines.make("noir")
    info = game.random_game(seed=1, moves=4).information_set(game.seats[0])
    with pytest.raises(ConfigError, match="models: counting, random, heuristic, solver"):
        solver.deduce(info, model="oracle")
    with pytest.raises(ConfigError, match="unknown opponent model"):
        solver.deduce(info, model=3)  # type: ignore[arg-type]


def test_the_city_killer_killer_reads_no_model() -> None:
    """The killer's odds are the detective's view of the public record, not his own."""
    game = engines.make("city-killer")
    info = game.random_game(seed=2, moves=10).information_set("killer")
    with pytest.raises(ConfigError, match="use model 'counting'"):
        solver.deduce(info, model="random")
    solver.deduce(info, model="counting")


def test_hints_read_a_model_where_the_game_writes_them_for_one() -> None:
    """Noir's hints read the modelled odds; Alibi's read the counting only, and say which
    games read a model."""
    moved = False
    for info in _noir_positions():
        counted = [h.text for h in solver.hints(info, search=False)]
        modelled = [h.text for h in solver.hints(info, search=False, model="random")]
        assert modelled
        moved |= counted != modelled
    assert moved
    game = engines.make("alibi", players=4)
    info = game.random_game(seed=3, moves=6).information_set(0)
    modelled_deduction = solver.deduce(info, model="random")
    assert modelled_deduction.opponent_model == "random"
    with pytest.raises(ConfigError, match=r"games whose hints read a model: .*noir"):
        solver.hints(info, modelled_deduction)
    with pytest.raises(ConfigError, match="unknown opponent model"):
        solver.hints(info, model="oracle")


def test_a_position_past_exact_counting_reads_no_model() -> None:
    """Alibi's late odds are a chain's estimate: odds under a model start from exact ones."""
    game = engines.make("alibi", players=4)
    state = game.random_game(seed=2, moves=60)
    info = state.information_set(0)
    assert not solver.deduce(info).exact
    with pytest.raises(ConfigError, match="start from exact ones"):
        solver.deduce(info, model="random")


def test_the_noir_solver_reads_its_odds_under_a_model() -> None:
    """The solver bot's `model` option: its move is the advice under that model, legal."""
    game = engines.make("noir")
    state = game.random_game(seed=4, moves=12)
    seat = state.to_move
    info = state.information_set(seat)
    bot = opponents.make("solver", game, seat, seed=3, model="random")
    move = bot.act(info)
    assert move in state.legal_actions()
    assert solver.advise(info, seed=3, model="random").move == move
    with pytest.raises(ConfigError, match="unknown opponent model"):
        opponents.make("solver", game, seat, seed=3, model="psychic")
    alibi = engines.make("alibi", players=4).random_game(seed=1, moves=6)
    with pytest.raises(ConfigError, match="has no option 'model'"):
        solver.advise(alibi.information_set(alibi.to_move), model="random")


def _noir_session(tmp_path, model: str = "counting"):  # type: ignore[no-untyped-def]
    from sleuth.assist import Session
    from sleuth.assist.transcribe import typed_lines

    game = engines.make("noir")
    state = game.random_game(seed=2, moves=20)
    session = Session.new("noir", "killer", dir=tmp_path, name="n", model=model)
    for line in typed_lines(game, state.information_set("killer")):
        session.add(line)
    return session


def test_the_notebook_reads_its_odds_under_the_sessions_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A Noir session's model changes its odds, is kept with the session, and is refused by
    name for a game whose notebook reads the counting odds only."""
    from rich.console import Console

    from sleuth.assist import Session, SessionError
    from sleuth.assist.terminal import Notebook

    session = _noir_session(tmp_path)
    counted = [h.text for h in session.hints()]
    session.model = "random"
    assert session.deduction().opponent_model == "random"  # type: ignore[union-attr]
    assert [h.text for h in session.hints()] != counted
    assert Session.open("n", tmp_path).model == "random"
    console = Console(record=True, width=200)
    Notebook(console, Session.open("n", tmp_path), lambda prompt: "", board=False).command(
        "model counting"
    )
    assert "odds read under: counting" in console.export_text()
    assert Session.open("n", tmp_path).model == "counting"
    with pytest.raises(SessionError, match="models: counting, random, heuristic, solver"):
        session.model = "psychic"
    alibi = Session.new("alibi", dir=tmp_path, name="a", players=4)
    with pytest.raises(SessionError, match=r"games whose odds read a model: .*noir"):
        alibi.model = "random"
    with pytest.raises(SessionError, match=r"games whose odds read a model: .*noir"):
        Session.new("alibi", dir=tmp_path, name="b", model="random", players=4)
