"""Alibi's solver answers against a model-free brute force on the small deck with 3 players.

The oracle (tests/alibi_brute_force.py) replays the observations over every box, deal and pass
choice, never looking at the solver's model: a history survives when every lay, pass, hand size
and answer it implies matches what the seat saw. Its counts must equal the solver's exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import pairwise
from math import comb, prod

import pytest

import engines
import solver
from engines import InformationSet, Observation
from engines.alibi import TYPES, Accuse, AlibiState, Lay
from solver.errors import SolverTimeout
from solver.games.alibi import history_of
from solver.games.alibi import model as alibi_model
from solver.games.alibi.chain import HistoryChain
from solver.games.alibi.counting import count_histories
from solver.games.alibi.model import build
from solver.games.alibi.position import parse
from solver.model import Fact
from tests.alibi_brute_force import Tally, brute_force

GAME = engines.make("alibi", players=3, deck="small")
UNSEEN_SETS = engines.make("alibi", players=3, deck="small", seen_includes_sets=False)
DECK = GAME.deck
Positions = list[tuple[InformationSet, AlibiState]]
FIRST_GAME = 1000  # the seed of the first of the 200 games compared


def positions(games: int, seed: int = 0, rounds: int = 3) -> Positions:
    """One information set from each random game, at a random moment of its first rounds.

    Players lay a set half the times they can (so that "seen" questions meet laid sets), rarely
    accuse, and otherwise act uniformly at random. Every fourth game uses the option that keeps
    laid sets out of "seen".
    """
    found = []
    for game_seed in range(seed, seed + games):
        rng = random.Random(game_seed)
        state = (UNSEEN_SETS if game_seed % 4 == 3 else GAME).new_game(game_seed)
        stop = rng.randrange(1, 12 * rounds)
        for _ in range(stop):
            if state.is_over or (state.phase == "passing" and state.round >= rounds):
                break
            actions = state.legal_actions()
            lays = [a for a in actions if isinstance(a, Lay)]
            if lays and rng.random() < 0.5:
                actions = lays
            elif rng.random() < 0.97:
                actions = [a for a in actions if not isinstance(a, Accuse | Lay)]
            state.apply(rng.choice(actions))
        found.append((state.information_set(rng.randrange(3)), state))
    return found


@cache
def two_hundred_games() -> Positions:
    """The positions the solver is checked on (shared by the tests that describe them)."""
    return positions(200, seed=FIRST_GAME)


def histories_with(tally: Tally, fact: Fact) -> int:
    """How many of the brute force's histories make a positive fact true, by its kind and args
    (the brute force knows nothing of the solver's variables)."""
    if fact.kind == "InBox":
        return tally.boxed[fact.args[0]]
    if fact.kind == "Holds":
        return tally.held[(fact.args[0], fact.args[1])]
    assert fact.kind == "BoxGroup", fact.kind
    return sum(tally.boxed[card] for card in DECK.of_group(fact.args[1]))


def true_in(fact: Fact, state: AlibiState) -> bool:
    """Whether a fact holds in the real game, read from the engine's hidden state."""
    if fact.kind == "InBox":
        found = fact.args[0] in state.box()
    elif fact.kind == "Holds":
        found = fact.args[1] in state.hand(fact.args[0])
    else:
        found = any(card in state.box() for card in DECK.of_group(fact.args[1]))
    return found != fact.negated


def compare(info: InformationSet, state: AlibiState) -> list[tuple]:
    """Every disagreement between the solver and brute force on one position, and every
    certain or impossible fact the real game contradicts.

    The brute force must keep the real history: the check that it follows the engine.
    """
    truth = brute_force(info)
    assert all(truth.boxed[card] for card in state.box()), "the real box was dropped"
    assert all(truth.held[(s, c)] for s in range(3) for c in state.hand(s)), "real hands dropped"
    total = truth.total
    d = solver.deduce(info)
    wrong = []
    if d.exact and d.total() != total:
        wrong.append(("total", d.total(), total))
    for fact in d.facts:
        hits = histories_with(truth, fact)
        if (d.possible(fact), d.is_certain(fact)) != (hits > 0, hits == total):
            wrong.append((fact, d.possible(fact), d.is_certain(fact), hits, total))
        elif d.exact and Fraction(d.count(fact), d.total()) != Fraction(hits, total):
            wrong.append((fact, d.count(fact), d.total(), hits, total))
        if d.is_certain(fact) and not true_in(fact, state):
            wrong.append(("certain but false in the real game", fact))
        if not d.possible(fact) and true_in(fact, state):
            wrong.append(("impossible but true in the real game", fact))
    return wrong


POSITIONS = positions(8, rounds=2)


def test_positions_include_passes_seen_questions_and_lays() -> None:
    found = two_hundred_games()
    passes = Counter(parse(info).epoch for info, _ in found)
    observed = [obs for info, _ in found for obs in info.observations]
    scopes = Counter(obs["scope"] for obs in observed if obs.kind == "answer")
    laid = [info for info, _ in found if any(obs.kind == "lay" for obs in info.observations)]
    unseen_sets = [info for info in laid if not dict(info.options)["seen_includes_sets"]]
    assert passes[0] >= 20 and passes[1] >= 20 and passes[2] >= 100, passes
    assert scopes["seen"] >= 500 and scopes["hand"] >= 500, scopes
    assert len(laid) >= 40 and len(unseen_sets) >= 5, (len(laid), len(unseen_sets))


def test_every_variable_name_reads_back_as_the_key_it_was_written_from() -> None:
    kinds: Counter[str] = Counter()
    for info, _ in POSITIONS:
        for variable in build(info).variables:
            match alibi_model.var_key(variable.name):
                case alibi_model.BoxVar(kind):
                    written = alibi_model.box_var(kind)
                case alibi_model.AtVar(card, epoch):
                    written = alibi_model.at_var(card, epoch)
                case alibi_model.PassVar(card, round_number):
                    written = alibi_model.pass_var(card, round_number)
                case alibi_model.SeenVar(card, seat, epoch):
                    written = alibi_model.seen_var(card, seat, epoch)
            assert written == variable.name
            kinds[variable.name.partition(":")[0]] += 1
    assert set(kinds) == {"box", "at", "pass", "seen"}, kinds
    with pytest.raises(ValueError, match="no variable"):
        alibi_model.var_key("hand:car-trunk")


def test_brute_force_counts_deals_by_formula() -> None:
    """The oracle itself, against arithmetic: right after the deal every box and split of the
    other cards is possible, and once the box is opened only the splits remain."""
    state = GAME.new_game(0)
    me = state.to_move
    mine = set(state.hand(me))
    boxes = prod(sum(card not in mine for card in DECK.of_type(kind)) for kind in TYPES)
    other = (me + 1) % 3
    splits = comb(len(DECK.ids) - 4 - len(mine), len(state.hand(other)))
    assert brute_force(state.information_set(me)).total == boxes * splits
    state.apply(next(a for a in state.legal_actions() if isinstance(a, Accuse)))
    assert brute_force(state.information_set(me)).total == splits


def test_solver_equals_brute_force_on_200_games() -> None:
    wrong = {
        FIRST_GAME + i: found
        for i, (info, state) in enumerate(two_hundred_games())
        if (found := compare(info, state))
    }
    assert not wrong, "\n".join(f"game {g}: {len(w)} wrong, first {w[0]}" for g, w in wrong.items())


def test_true_history_is_a_consistent_world() -> None:
    for info, state in POSITIONS:
        _pos, paths = history_of(state)
        model = build(info)
        from solver.games.alibi.model import world_from

        world = world_from(parse(info), paths, model)
        assert [c for c in model.constraints if not c.holds(world)] == []


def assert_forces_minimally(d: solver.Deduction, core: list[int], fact: Fact) -> None:
    """The observations `core` force `fact`, and none of them can be dropped."""
    compiled = d._compiled
    against = compiled.fact_literals(~fact)
    assert compiled.solve(core, against)[0] is None
    for k in core:
        assert compiled.solve([s for s in core if s != k], against)[0] is not None


def test_explanations_force_the_fact_and_are_minimal() -> None:
    explained = 0
    for info, _ in POSITIONS[:10]:
        d = solver.deduce(info)
        for fact in [f for f in d.certain() if f.kind in ("InBox", "BoxGroup")][:3] + [
            ~f for f in d.impossible() if f.kind == "InBox"
        ][:3]:
            assert_forces_minimally(d, d.explain_sources(fact), fact)
            explained += 1
    assert explained > 10


def test_contradictory_answer_raises_inconsistent_with_minimal_conflict() -> None:
    info, _ = POSITIONS[5]
    me = info.seat
    dealt = next(o for o in info.observations if o.kind == "deal")["cards"]
    lie = Observation.of(
        "answer",
        asker=me,
        target=(me + 1) % 3,
        scope="hand",
        subject=f"cards:{dealt[0]}",
        cards=[dealt[0]],
        answer=1,
        round=1,
        turn=1,
    )
    bad = InformationSet(info.game, info.options, me, (*info.observations[:3], lie))
    with pytest.raises(solver.Inconsistent) as error:
        solver.deduce(bad)
    assert error.value.conflict == [bad.observations[1], lie]


def uniform_position() -> tuple[InformationSet, object]:
    """A position with few consistent histories, for chi-square tests of the samplers: a game
    after its first passes, plus true answers about single cards until few histories remain."""
    info, state = next((i, s) for i, s in positions(30, seed=500, rounds=2) if parse(i).epoch == 1)
    for card in DECK.ids:
        counted = count_histories(parse(info), build(info), max_states=10**6, seconds=120)
        if counted.total() <= 120:
            return info, state
        target = (info.seat + 1 + DECK.ids.index(card) % 2) % 3
        info = info.extended(
            Observation.of(
                "answer",
                asker=info.seat,
                target=target,
                scope="seen",
                subject=f"cards:{card}",
                cards=[card],
                answer=state.answer(target, "seen", [card]),
                round=2,
                turn=99,
            )
        )
    raise AssertionError("no small position found")


def chi_square(draws: list[tuple], total: int) -> float:
    counts = Counter(draws)
    expected = len(draws) / total
    return sum((counts[k] - expected) ** 2 / expected for k in counts) + expected * (
        total - len(counts)
    )


def test_exact_sampler_is_uniform() -> None:
    info, _ = uniform_position()
    counted = count_histories(parse(info), build(info), max_states=10**6, seconds=120)
    rng = random.Random(3)
    draws = [tuple(counted.sample_paths(rng)) for _ in range(40 * counted.total())]
    dof = counted.total() - 1
    assert chi_square(draws, counted.total()) < dof + 4 * (2 * dof) ** 0.5


def test_chain_is_uniform_over_consistent_histories() -> None:
    info, state = uniform_position()
    pos, model = parse(info), build(info)
    counted = count_histories(pos, model, max_states=10**6, seconds=120)
    _, start = history_of(state)
    chain = HistoryChain(pos, model, start, seed=1, steps=400_000)
    draws = chain.records[:: max(1, len(chain.records) // 1000)]
    assert len(set(draws)) == counted.total(), "the chain reaches every history"
    dof = counted.total() - 1
    # thinned draws are nearly independent; allow a generous band for what correlation is left
    assert chi_square(draws, counted.total()) < 2 * (dof + 4 * (2 * dof) ** 0.5)


def test_chain_estimates_are_close_to_exact_counts() -> None:
    """On positions after two passes, with the default number of steps: the chain's InBox
    probabilities are close to the exact ones (the error is mostly Monte Carlo noise)."""
    errors = []
    for info, state in positions(12, seed=700, rounds=3):
        pos, model = parse(info), build(info)
        counted = count_histories(pos, model, max_states=10**6, seconds=120)
        if pos.epoch < 2 or counted is None:
            continue
        _, start = history_of(state)
        chain = HistoryChain(pos, model, start, seed=2)
        errors += [
            abs(chain.probability(f) - counted.probability(f))
            for f in model.facts
            if f.kind == "InBox" and counted.count(f)
        ]
    assert len(errors) > 50
    assert sum(errors) / len(errors) < 0.025 and max(errors) < 0.1


def test_a_passed_deadline_leaves_certainty_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot out of time gets what the deduction has: a short chain, and the facts CP-SAT
    had no time to decide settled later by a solve each, so certain and possible stay exact.
    With no consistent world known yet, a passed deadline stops the first solve too; before
    the model is built, the deduction itself."""
    import time

    import solver.deduction

    state = engines.make("alibi", players=4).new_game(5)
    rng = random.Random(5)
    while state.round < 4:
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    before = state.information_set(0)
    solver.forget()
    with pytest.raises(SolverTimeout, match="deadline passed"):
        solver.deduce(before, about=lambda f: f.kind == "InBox", deadline=time.monotonic())
    solver.deduce(before, about=lambda f: f.kind == "InBox")  # its chain is kept: the next
    # position's first world is known, and which cards' holders are impossible is not
    while len((info := state.information_set(0)).observations) == len(before.observations):
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    added = info.observations[len(before.observations) :]
    assert all(obs.kind in ("answer", "lay") for obs in added), "the same epoch"
    with pytest.raises(SolverTimeout, match="deadline passed while validating"):
        solver.deduce(info, deadline=time.monotonic())
    monkeypatch.setattr(solver.deduction, "_in_time", lambda *args: None)  # the deadline
    hurried = solver.deduce(info, deadline=time.monotonic())  # passes once it is compiled
    full = solver.deduce(info)  # after: a remembered full deduction would serve both
    assert not hurried.exact and len(hurried.worlds.records) < len(full.worlds.records)
    asked = [f for f in full.facts if f.kind in ("InBox", "Holds")]
    assert any(not hurried.settled(f) for f in asked)
    for fact in asked:
        assert hurried.possible(fact) == full.possible(fact)
        assert hurried.is_certain(fact) == full.is_certain(fact)


def one_seat_game(seed: int, rounds: int = 3) -> list[tuple[InformationSet, AlibiState]]:
    """Seat 0's information set after each new observation of one random small game."""
    rng, state = random.Random(seed), GAME.new_game(seed)
    found: list[tuple[InformationSet, AlibiState]] = []
    while not state.is_over and state.round <= rounds:
        info = state.information_set(0)
        if not found or len(info.observations) > len(found[-1][0].observations):
            found.append((info, state.clone()))
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    return [(info, s) for info, s in found if info.observations[-1].kind != "pass"]


def test_a_model_compiled_from_the_one_before_answers_as_a_fresh_one() -> None:
    """Compiled(previous=...) adds only a new round's rules and new observations: the
    possible literals and the conflicts are those of a fresh compilation, although the grown
    one asks nothing about the literals proven impossible before (and those a card cannot
    reach an epoch later)."""
    from solver.cpsat import Compiled
    from solver.games.alibi import CPSAT_PARAMETERS, _rule_out_moves

    before, extended, spared = None, 0, 0
    for info, _ in one_seat_game(3):
        model = build(info)
        fresh = Compiled(model, CPSAT_PARAMETERS)
        grown = Compiled(model, CPSAT_PARAMETERS, before)
        extended += grown.extended
        _rule_out_moves(parse(info), grown)
        spared += len(grown.impossible) > 0
        start = fresh.solve()[0]
        assert start is not None and grown.solve()[0] is not None
        assert fresh.possible_literals([start])[0] == grown.possible_literals([start])[0]
        before = grown
    assert extended >= 10 and spared >= 10


def test_records_carried_to_the_next_position_are_exactly_those_that_fit() -> None:
    """After a new answer or set in the same epoch, the chain before keeps the records
    consistent with the new position (each is checked here as a whole history): all of them
    in a run where at most `CARRIED_KEPT` fit, else about that many of them, evenly spaced.
    The columns it had read go with them, and the next chain's columns, those and its own
    records' read after them, map every record to its own trajectory and list only those."""
    from solver.games.alibi import chain as chains
    from solver.games.alibi.witnesses import fits

    checked = 0
    for seed in (4, 5, 6):
        infos = one_seat_game(seed)
        for (before, state), (after, _) in pairwise(infos):
            pos, now = parse(before), parse(after)
            if now.epoch != pos.epoch:
                continue
            _, start = history_of(state)
            chain = HistoryChain(pos, build(before), start, steps=3_000)
            for card in range(len(pos.ids)):
                chain._paths_of(card)  # read, as a refresh reads them: carried with the records
            carried = chains.carry(chain, now)
            if carried is None:
                continue
            kept = {r for run in carried.runs for r in run}
            for record in set(chain.records):
                assert (record in kept) <= fits(now, record)
            assert all(fits(now, record) for record in kept)
            fitting = [r for r in chain.records if fits(now, r)]  # one run: steps < RECORDS
            if len(fitting) >= chains.CARRIED_RUN:
                (run,) = carried.runs
                every = -(-len(fitting) // chains.CARRIED_KEPT)
                assert run == fitting[::every] and len(run) <= chains.CARRIED_KEPT
            boxed = {
                c for r in chain.records if fits(now, r) for c, p in enumerate(r) if p[0] == now.box
            }
            assert carried.boxed == boxed
            if carried.runs:  # the next chain's columns: carried ones, then its own records'
                nxt = HistoryChain(now, build(after), list(carried.runs[-1][-1]), steps=600,
                                   carried=carried, burn=0)  # fmt: skip
                for card in range(len(now.ids)):
                    codes, paths = nxt._paths_of(card)
                    assert all(paths[k] is r[card] for k, r in zip(codes, nxt.records, strict=True))
                    assert set(codes.tolist()) == set(range(len(paths))), "each one held"
            checked += len(kept) > 0
    assert checked >= 3


def test_chain_moves_draw_partners_that_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A partner drawn among kin, or a rebox partner that may be boxed, always makes
    trajectories my knowledge allows (so the chain skips that check for them), through runs,
    block steps, walks and restarts; with them a late position's chain accepts about one
    move in three (one in thirty when partners were drawn from all cards), and stays uniform
    (`test_chain_is_uniform_over_consistent_histories`)."""
    from solver.games.alibi import chain as chains

    game = engines.make("alibi", players=4)
    rng, state = random.Random(11), game.new_game(11)
    while state.round < 12:
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)]))
    info = state.information_set(0)
    pos, model = parse(info), build(info)
    chain = HistoryChain(pos, model, history_of(state)[1], seed=3, steps=12_000)
    assert chain.accepted / chain.proposed > 0.2, chain.accepted / chain.proposed
    chain.walk(list(chain.records[len(chain.records) // 2]), 2_000)
    chain.restart(list(chain.records[0]), 2_000)
    for _ in range(5):
        chain._block()
    assert all(pos.valid(card, path) for card, path in enumerate(chain.paths))
    proposed = 0
    for move in (chains.KIN_HEAD, chains.KIN_TAIL, chains.SWAP, chains.ROTATE, chains.REBOX):
        monkeypatch.setattr(chains, "MOVES", (move,))
        for _ in range(300):
            new = chain._propose()
            assert chain._fitted
            for card, path in (new or {}).items():
                assert pos.valid(card, path), (move, card, path)
            proposed += new is not None
            if new is not None and rng.random() < 0.2:
                chain._move(new)  # fits the knowledge; answers are not this test's concern
    assert proposed > 500
    monkeypatch.setattr(chains, "MOVES", (chains.HEAD,))
    chain._propose()
    assert not chain._fitted


def test_a_new_round_starts_its_first_solve_from_the_round_before() -> None:
    """At a new round no kept record fits, so `near_world` hands CP-SAT the last record of the
    round before (its variables up to that round): the first solve from it finds a consistent
    history, the true one itself when that is the hint, and leaves no hint behind."""
    from solver.cpsat import Compiled
    from solver.games.alibi import CPSAT_PARAMETERS, near_world
    from solver.games.alibi import chain as chains
    from solver.games.alibi.model import paths_of, world_from
    from solver.games.alibi.witnesses import fits

    rounds = 0
    for seed in (4, 5):
        chains.forget()
        for (before, state), (after, now_state) in pairwise(one_seat_game(seed)):
            pos, now = parse(before), parse(after)
            _, start = history_of(state)
            chains.remember(HistoryChain(pos, build(before), start, steps=1_000))
            if now.epoch == pos.epoch:
                continue
            model = build(after)
            near = near_world(model)
            assert near is not None and set(near) <= {v.name for v in model.variables}
            assert {f"at:{card}@{pos.epoch}" for card in pos.ids} <= set(near)
            assert not any(name.endswith(f"@{now.epoch}") for name in near)
            compiled = Compiled(model, CPSAT_PARAMETERS)
            world = compiled.solve(guided=True, near=near)[0]
            assert world is not None and fits(now, paths_of(now, world))
            assert not compiled.cp.proto.solution_hint.vars
            truth = world_from(now, history_of(now_state)[1], model)
            assert compiled.solve(guided=True, near=truth)[0] == truth
            rounds += 1
    chains.forget()
    assert rounds >= 4


def test_deciding_what_is_possible_tries_the_search_order_on_every_solve(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guided solve that finds nothing within its work does not turn the rest of a
    `possible_literals` query unguided (most of its solves find worlds), and the literals
    found are the same either way; a core search still gives the order up after one failure."""
    from solver import cpsat
    from solver.games.alibi import CPSAT_PARAMETERS

    info, _ = next((i, s) for i, s in positions(6, seed=40, rounds=3) if parse(i).epoch >= 2)
    model = build(info)
    guided: list[float | None] = []
    solver_for = cpsat.Compiled._solver

    def counting(self, deadline, task, ordered=False, work=None, cap=None):  # type: ignore[no-untyped-def]
        guided.append(cap)
        return solver_for(self, deadline, task, ordered, work, cap)

    monkeypatch.setattr(cpsat.Compiled, "_solver", counting)
    monkeypatch.setattr(cpsat, "GUIDED_WORK", 1e-9)  # every guided solve runs out at once
    compiled = cpsat.Compiled(model, CPSAT_PARAMETERS)
    world = compiled.solve()[0]
    assert world is not None
    guided.clear()
    possible, undecided = compiled.possible_literals([world])
    tries = sum(cap == 1e-9 for cap in guided)
    solves = len(guided) - tries
    assert not undecided and solves >= 2 and tries >= solves  # the order tried each time
    fresh = cpsat.Compiled(
        model, {k: v for k, v in CPSAT_PARAMETERS.items() if k != "search_branching"}
    )
    assert fresh.possible_literals([world])[0] == possible
    guided.clear()
    core = compiled.shrink_core([compiled.literal[next(iter(compiled.impossible))]])
    assert core.done and sum(cap == 1e-9 for cap in guided) == 1


def test_satisfiable_answers_as_solve_and_worlds_give_every_variable_a_value() -> None:
    """`Compiled.satisfiable` (no world read) says what `solve` says, with the same core, and
    the world `solve` reads off the solution vector gives each model variable one of its
    values, the true history's where the history is forced."""
    from solver.cpsat import Compiled
    from solver.games.alibi import CPSAT_PARAMETERS

    asked = 0
    for info, _ in positions(6, seed=40, rounds=3):
        model = build(info)
        compiled = Compiled(model, CPSAT_PARAMETERS)
        world = compiled.solve()[0]
        assert world is not None and set(world) == {v.name for v in model.variables}
        assert all(world[v.name] in v.domain for v in model.variables)
        for fact in model.facts:
            literals = compiled.fact_literals(~fact)
            feasible, core = compiled.satisfiable(None, literals)
            found, found_core = compiled.solve(None, literals)
            assert feasible == (found is not None) and core == found_core
            asked += not feasible
    assert asked >= 3
