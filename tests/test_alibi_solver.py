"""Alibi's solver answers against a model-free brute force on the small deck with 3 players.

The oracle replays the observations over every box, deal and pass choice (hands as bitmasks),
never looking at the solver's model: a history survives when every lay, pass, hand size and
answer it implies matches what the seat saw. Its counts must equal the solver's exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest

import engines
import solver
from engines import InformationSet, Observation
from engines.alibi import TYPES, Accuse
from solver.games.alibi import history_of
from solver.games.alibi.chain import HistoryChain
from solver.games.alibi.counting import count_histories
from solver.games.alibi.model import at_var, box_var, build
from solver.games.alibi.position import parse

GAME = engines.make("alibi", players=3, deck="small")
DECK = GAME.deck
BIT = {card: 1 << i for i, card in enumerate(DECK.ids)}
NOW = 0  # the epoch of the position being checked


def mask(cards: object) -> int:
    return sum(BIT[card] for card in cards or ())


def brute_force(info: InformationSet) -> Counter:
    """How many histories are consistent with `info` ("total"), and how many put each card in
    the box (box:T, card) and in each place now (at:card@now, place)."""
    obs = info.observations
    me = info.seat
    mine = next(o for o in obs if o.kind == "deal")
    sizes = next(o for o in obs if o.kind == "hands")["sizes"]
    unknown = [card for card in DECK.ids if card not in mine["cards"]]
    leaves: list[tuple[int, ...]] = []
    for box in product(*([c for c in DECK.of_type(kind) if c in unknown] for kind in TYPES)):
        rest = [card for card in unknown if card not in box]
        others = [seat for seat in range(3) if seat != me]
        for first in combinations(rest, sizes[others[0]]):
            second = [card for card in rest if card not in first]
            hands = [0, 0, 0]
            hands[me], hands[others[0]], hands[others[1]] = (
                mask(mine["cards"]), mask(first), mask(second))
            _replay(obs, 0, hands, list(hands), mask(box), [list(hands)], leaves)
    return _tally(np.array(leaves, dtype=np.int64), len(leaves))


def _tally(leaves: np.ndarray, total: int) -> Counter:
    """Count the literals the surviving histories (rows: three hands and the box) make true."""
    found: Counter = Counter(total=total)
    if not total:
        return found
    for i, card in enumerate(DECK.ids):
        bits = (leaves >> i) & 1
        found[(box_var(DECK.by_id[card].type), card)] = int(bits[:, 3].sum())
        for place, column in ((0, 0), (1, 1), (2, 2), ("box", 3)):
            found[(at_var(card, NOW), place)] = int(bits[:, column].sum())
    return found


def _replay(obs: tuple[Observation, ...], i: int, hands: list[int], seen: list[int],
            box: int, history: list[list[int]], found: list) -> None:
    while i < len(obs):
        o = obs[i]
        if o.kind == "lay":
            cards = mask(o["cards"])
            if hands[o["seat"]] & cards != cards:
                return
            hands = list(hands)
            hands[o["seat"]] &= ~cards
        elif o.kind == "answer":
            cards, target = mask(o["cards"]), o["target"]
            pool = hands[target] if o["scope"] == "hand" else seen[target]
            if bin(pool & cards).count("1") != o["answer"]:
                return
        elif o.kind == "pass":
            j = i
            while j < len(obs) and obs[j].kind == "pass":
                j += 1
            choices = []
            for giver in range(3):
                told = next((p for p in obs[i:j] if p["giver"] == giver), None)
                if told is None:
                    choices.append([0])
                elif told.get("cards"):
                    choices.append([mask(told["cards"])])
                else:
                    held = [c for c in DECK.ids if hands[giver] & BIT[c]]
                    choices.append([mask(c) for c in combinations(held, told["count"])])
            for given in product(*choices):
                if any(hands[g] & given[g] != given[g] for g in range(3)):
                    continue
                after = [(hands[s] & ~given[s]) | given[(s - 1) % 3] for s in range(3)]
                now_seen = [seen[s] | after[s] for s in range(3)]
                _replay(obs, j, after, now_seen, box, [*history, after], found)
            return
        elif o.kind == "hands":
            if [bin(h).count("1") for h in hands] != list(o["sizes"]):
                return
        elif o.kind == "box" and mask(o["cards"]) != box:
            return
        i += 1
    found.append((*hands, box))


def positions(games: int, seed: int = 0, rounds: int = 4) -> list[tuple[InformationSet, object]]:
    """One information set from each random game, at a random moment of its first rounds."""
    found = []
    for game_seed in range(seed, seed + games):
        rng = random.Random(game_seed)
        state = GAME.new_game(game_seed)
        stop = rng.randrange(1, 12 * rounds)
        for _ in range(stop):
            if state.is_over or (state.phase == "passing" and state.round >= rounds):
                break
            actions = state.legal_actions()
            accuse = [a for a in actions if isinstance(a, Accuse)]
            if accuse and rng.random() < 0.97:
                actions = [a for a in actions if not isinstance(a, Accuse)]
            state.apply(rng.choice(actions))
        found.append((state.information_set(rng.randrange(3)), state))
    return found


def compare(info: InformationSet, state: object) -> list[tuple]:
    """Every disagreement between the solver and brute force on one position."""
    global NOW
    NOW = parse(info).epoch
    truth = brute_force(info)
    total = truth["total"]
    d = solver.deduce(info)
    assert d.exact
    wrong = []
    if d.total() != total:
        wrong.append(("total", d.total(), total))
    for fact in d.facts:
        hits = sum(truth[(fact.var, value)] for value in fact.values)
        got = (d.possible(fact), d.is_certain(fact), d.count(fact))
        if got != (hits > 0, hits == total, hits):
            wrong.append((fact, got, hits))
        elif Fraction(d.count(fact), d.total()) != Fraction(hits, total):
            wrong.append((fact, "probability"))
        if d.is_certain(fact):
            assert fact.holds(state), f"certain {fact} is false in the real game"
    return wrong


POSITIONS = positions(8, rounds=2)


def test_positions_include_passes_seen_questions_and_lays() -> None:
    kinds = Counter(o.kind for info, _ in POSITIONS for o in info.observations)
    scopes = Counter(o["scope"] for info, _ in POSITIONS for o in info.observations
                     if o.kind == "answer")
    assert kinds["pass"] > 10 and scopes["seen"] > 5 and scopes["hand"] > 5


def test_solver_equals_brute_force() -> None:
    assert [w for info, state in POSITIONS[:3] for w in compare(info, state)] == []


@pytest.mark.slow
def test_solver_equals_brute_force_on_200_games() -> None:
    found = positions(200, seed=1000, rounds=2)
    assert [w for info, state in found for w in compare(info, state)] == []


def test_true_history_is_a_consistent_world() -> None:
    for info, state in POSITIONS:
        _pos, paths = history_of(state)
        model = build(info)
        from solver.games.alibi.model import world_from

        world = world_from(parse(info), paths, model)
        assert [c for c in model.constraints if not c.holds(world)] == []


def test_explanations_force_the_fact_and_are_minimal() -> None:
    explained = 0
    for info, _ in POSITIONS[:10]:
        d = solver.deduce(info)
        compiled = d._compiled
        for fact in [f for f in d.certain() if f.kind in ("InBox", "BoxGroup")][:3] + [
            ~f for f in d.impossible() if f.kind == "InBox"
        ][:3]:
            core = d.explain_sources(fact)
            guard = compiled.guard(compiled.fact_literals(~fact))
            assert compiled.solve(core, [guard])[0] is None
            for k in core:
                assert compiled.solve([s for s in core if s != k], [guard])[0] is not None
            explained += 1
    assert explained > 10


def test_contradictory_answer_raises_inconsistent_with_minimal_conflict() -> None:
    info, _ = POSITIONS[5]
    me = info.seat
    dealt = next(o for o in info.observations if o.kind == "deal")["cards"]
    lie = Observation.of("answer", asker=me, target=(me + 1) % 3, scope="hand",
                         subject=f"cards:{dealt[0]}", cards=[dealt[0]], answer=1, round=1,
                         turn=1)
    bad = InformationSet(info.game, info.options, me,
                         (*info.observations[:3], lie))
    with pytest.raises(solver.Inconsistent) as error:
        solver.deduce(bad)
    assert error.value.conflict == [bad.observations[1], lie]


def uniform_position() -> tuple[InformationSet, object]:
    """A position with few consistent histories, for chi-square tests of the samplers: a game
    after its first passes, plus true answers about single cards until few histories remain."""
    info, state = next((i, s) for i, s in positions(30, seed=500, rounds=2)
                       if parse(i).epoch == 1)
    for card in DECK.ids:
        counted = count_histories(parse(info), build(info), max_states=10**6, seconds=120)
        if counted.total() <= 120:
            return info, state
        target = (info.seat + 1 + DECK.ids.index(card) % 2) % 3
        info = info.extended(Observation.of(
            "answer", asker=info.seat, target=target, scope="seen", subject=f"cards:{card}",
            cards=[card], answer=state.answer(target, "seen", [card]), round=2, turn=99))
    raise AssertionError("no small position found")


def chi_square(draws: list[tuple], total: int) -> float:
    counts = Counter(draws)
    expected = len(draws) / total
    return sum((counts[k] - expected) ** 2 / expected for k in counts) + expected * (
        total - len(counts))


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
