"""Alibi's layer-at-a-time counter against plain enumeration and the dictionary program.

`layers.count_layers` counts modulo primes and rebuilds counts with the Chinese remainder
theorem, finishes a pool of alike cards in closed form and samples with floating-point weights
checked exactly near boundaries: each of these is checked here on problems small enough to
enumerate, and the whole counter against `counting.layered` (the program the counter replaced,
still the chain's) on real small-deck positions.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from math import prod

import numpy as np
import pytest

import engines
from engines.alibi import Accuse
from solver.games.alibi import counting, layers
from solver.games.alibi.position import parse

Problem = tuple[list[int], list[list[tuple[int, ...]]], int]  # targets, options, pool


def enumerate_counts(targets: list[int], options: list[list[tuple[int, ...]]]) -> Counter:
    """Every choice of one option per card meeting the targets, by plain enumeration."""
    found: Counter = Counter()
    for choice in product(*(range(len(o)) for o in options)):
        made = [0] * len(targets)
        for found_options, j in zip(options, choice, strict=True):
            for k in found_options[j]:
                made[k] += 1
        if made == targets:
            found[choice] += 1
    return found


def exact_weights(found: Counter, options: list[list[tuple[int, ...]]]) -> list[list[int]]:
    weights = [[0] * len(o) for o in options]
    for choice in found:
        for card, j in enumerate(choice):
            weights[card][j] += 1
    return weights


def met(options: list[list[tuple[int, ...]]], width: int, rng: random.Random) -> list[int]:
    """Targets some random choice meets (so that at least one history exists)."""
    targets = [0] * width
    for found in options:
        for k in rng.choice(found):
            targets[k] += 1
    return targets


def deal_problem(rng: random.Random) -> Problem:
    """A small deal: cards to seats or (most of them) to their type's box slot, the first
    cards named by answers about a seat; the unnamed rest are alike, a pool that peels."""
    seats, cards, answers = rng.randint(2, 3), rng.randint(4, 7), rng.randint(0, 2)
    named = rng.randint(0, cards - 2)
    answered = [(rng.randrange(seats), seats + 2 + a) for a in range(answers)]
    options = []
    for c in range(cards):
        found = [(s,) for s in range(seats)]
        if c < named:
            found = [
                (s, *(k for at, k in answered if at == s and rng.random() < 0.7)) for (s,) in found
            ]
        if rng.random() < 0.7:
            found.append((seats + c % 2,))
        options.append(found)
    return met(options, seats + 2 + answers, rng), options, cards - named


def two_passes(seats: int = 3) -> list[tuple[int, ...]]:
    """A card's options over a deal (coordinates 0..2) and two rounds of passes to the left
    (3..5 and 6..8, by the passer): it stays, goes in one pass or in both."""
    deal, first, second = 0, seats, 2 * seats
    found = []
    for s in range(seats):
        found += [(deal + s,), (deal + s, first + s), (deal + s, second + s)]
        found.append((deal + s, first + s, second + (s - 1) % seats))
    return found


def pass_problem(rng: random.Random) -> Problem:
    """Alike cards over two rounds of passes: no coordinate peels at first, so the pool
    enumerates some option counts."""
    options = [two_passes() for _ in range(rng.randint(2, 4))]
    return met(options, 9, rng), options, len(options)


@pytest.mark.parametrize("make", [deal_problem, pass_problem])
@pytest.mark.parametrize("pooled", [False, True])
def test_counts_and_weights_equal_enumeration(make, pooled: bool) -> None:
    rng = random.Random(7)
    closed = 0
    for _ in range(25):
        targets, options, pool = make(rng)
        found = enumerate_counts(targets, options)
        counted = layers.count_layers(targets, options, 10**6, pool=pool if pooled else 0)
        assert counted is not None
        closed += counted._closing is not None
        assert counted.total == sum(found.values())
        assert counted.weights == exact_weights(found, options)
    assert closed >= 20 if pooled else closed == 0


def test_a_pool_that_does_not_peel_sums_its_enumerated_splits() -> None:
    options = [two_passes() for _ in range(4)]
    targets = [2, 1, 1, 1, 1, 0, 1, 0, 1]
    counted = layers.count_layers(targets, options, 10**6, pool=4)
    assert counted is not None and counted._closing is not None
    assert len(counted._closing.pool.combos) > 1
    found = enumerate_counts(targets, options)
    assert counted.total == sum(found.values()) > 1
    assert counted.weights == exact_weights(found, options)


def test_no_history_gives_none() -> None:
    assert layers.count_layers([3], [[(0,)], [(0,)]], 10**6) is None
    assert layers.count_layers([2, 0], [[(0,), (1,)], [(0,), (1,)]], 10**6, pool=2) is not None
    assert layers.count_layers([1, 2], [[(0,), (1,)], [(0,), (1,)]], 10**6, pool=2) is None
    settled_too_many = [[(0,)], [(0,), (1,)], [(0,), (1,)]]
    assert layers.count_layers([0, 2], settled_too_many, 10**6, pool=2) is None
    assert layers.count_layers([1, 1], settled_too_many, 10**6, pool=2) is None
    for targets, total in (([1, 2], 1), ([2, 1], 2)):
        counted = layers.count_layers(targets, settled_too_many, 10**6, pool=2)
        assert counted is not None and counted.total == total


def test_recombination_is_exact_beyond_int64() -> None:
    rng = random.Random(3)
    for bound in (1, 2**31, 2**62, 2**200, 2**490):
        primes = layers.moduli(bound)
        assert primes is not None and prod(primes) > bound
        assert prod(primes[:-1]) <= bound, "the fewest primes that suffice"
        values = [rng.randrange(bound + 1) for _ in range(20)] + [0, bound]
        residues = np.array([[v % p for p in primes] for v in values], dtype=np.int64)
        assert layers.recombine(residues, primes) == values
    assert layers.moduli(2**500) is None, "beyond the primes' reach the counter gives up"


def test_the_moduli_are_distinct_primes_below_2_31() -> None:
    assert len(set(layers.PRIMES)) == len(layers.PRIMES)
    for p in layers.PRIMES:
        assert p < 2**31
        assert all(pow(a, p - 1, p) == 1 for a in (2, 3, 5, 7, 11, 13, 61))
        assert all(p % d for d in range(2, 1 << 16) if d * d <= p)


def test_large_counts_equal_the_dictionary_program() -> None:
    """Many alike cards over three seats and a box: counts far past int64, against the
    dictionary program's Python integers, with and without the pool."""
    cards, seats = 60, 3
    options = [[(s,) for s in range(seats)] + [(seats + c % 2,)] for c in range(cards)]
    targets = [19, 19, 20, 1, 1]
    old = counting.layered(targets, [[((j,), o) for j, o in enumerate(f)] for f in options], 10**6)
    assert old is not None
    expected = old[2][0][next(iter(old[1][0]))]
    assert expected > 2**64
    for pool in (0, cards):
        counted = layers.count_layers(targets, options, 10**6, pool=pool)
        assert counted is not None and counted.total == expected


def test_exact_choice_decides_by_exact_counts_near_a_boundary() -> None:
    rng = random.Random(0)
    third = (1 << 53) // 3  # the 53-bit point just below one third
    assert layers._exact_choice([1, 2], 0, rng) == 0
    assert layers._exact_choice([1, 2], (1 << 53) - 1, rng) == 1
    assert layers._exact_choice([1, 2], third - 1, rng) == 0
    assert layers._exact_choice([1, 2], third + 1, rng) == 1
    drawn = Counter(layers._exact_choice([1, 2], third, random.Random(s)) for s in range(400))
    assert drawn[0] and drawn[1], "the boundary lies within the point: more bits decide"
    assert layers._exact_choice([0, 5, 0, 5], 0, rng) == 1, "never an option of no ways"


def test_samples_are_uniform_over_the_histories() -> None:
    options = [two_passes() for _ in range(4)]
    targets = [2, 1, 1, 1, 1, 0, 1, 0, 1]
    found = enumerate_counts(targets, options)
    for pool in (0, 4):
        counted = layers.count_layers(targets, options, 10**6, pool=pool)
        assert counted is not None
        draws = Counter(map(tuple, counted.sample(60 * len(found), random.Random(pool)).tolist()))
        assert set(draws) == set(found), "every history and only histories are drawn"
        expected = 60
        chi = sum((draws[c] - expected) ** 2 / expected for c in found)
        dof = len(found) - 1
        assert chi < dof + 4 * (2 * dof) ** 0.5


def small_positions(games: int) -> list:
    game = engines.make("alibi", players=3, deck="small")
    found = []
    for seed in range(games):
        rng, state = random.Random(seed), game.new_game(seed)
        for _ in range(rng.randrange(5, 40)):
            if state.is_over:
                break
            actions = [a for a in state.legal_actions() if not isinstance(a, Accuse)]
            state.apply(rng.choice(actions))
        found.append(state.information_set(rng.randrange(3)))
    return found


def test_counter_equals_the_dictionary_program_on_small_deck_positions() -> None:
    compared = pooled = 0
    for info in small_positions(25):
        pos = parse(info)
        targets, options = counting.features(pos)
        old = counting.layered(targets, options, 10**6, 60)
        counted = counting.count_histories(pos, None, max_states=10**6)  # type: ignore[arg-type]
        if old is None:
            assert counted is None
            continue
        taken, forward, back, moves = old
        assert counted is not None and counted.total() == back[0][next(iter(forward[0]))]
        for card, found in enumerate(taken):
            weights = [0] * len(found)
            for state, ways in forward[card].items():
                for j, then in moves[card][state]:
                    weights[j] += ways * back[card + 1].get(then, 0)
            assert counted.weights[card] == weights, card
        compared += 1
        pooled += counted._counted._closing is not None
    assert compared >= 20 and pooled >= 10, (compared, pooled)


def test_a_pools_splits_exact_ways_sum_to_its_ways_from_each_state() -> None:
    """What a sample near a boundary between splits decides by: each split's exact ways
    from a state, which must add up to the pool's ways from it."""
    options = [[(0,), (1,)]] + [two_passes() for _ in range(4)]
    counted = layers.count_layers([3, 1, 1, 1, 1, 0, 1, 0, 1], options, 10**6, pool=4)
    assert counted is not None and counted._closing is not None
    closing = counted._closing
    assert len(closing.splits) > 1
    states = np.arange(closing.states)
    for state in states.tolist():
        ways = closing._exact(states, state)
        assert len(ways) == len(closing.splits)
        assert (
            sum(ways) == layers.recombine(closing.ways[:, state : state + 1].T, closing.primes)[0]
        )
    assert sum(sum(closing._exact(states, s)) for s in states.tolist()) > 0
