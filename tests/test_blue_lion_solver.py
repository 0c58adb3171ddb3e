"""Blue Lion's solver answers against ground truth.

Two independent oracles: python-constraint enumerating the solver's own model, and a
model-free enumeration of the 720 ways to put the six pairs on the six tiles, keeping those
that show every face seen. The solver's model depends only on the toss and reveal observations,
so positions are deduplicated by what was seen and what shows now.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping
from fractions import Fraction

import pytest

import engines
import solver
from engines import InformationSet, Observation
from engines.blue_lion import PAIRS, TILES
from engines.blue_lion.material import other_face
from solver import oracle
from solver.games import blue_lion as knowledge

GAME = engines.make("blue-lion")


def seen_faces(observations: tuple[Observation, ...]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {tile: set() for tile in TILES}
    for obs in observations:
        if obs.kind in ("toss", "reveal"):
            seen[obs["tile"]].add(obs["face"])
    return seen


def brute_force(
    observations: tuple[Observation, ...], enabled: set[int] | None = None
) -> list[dict[str, str]]:
    """Model-free ground truth: every pair assignment under which the tile's toss and flips
    show the faces seen. A tile lands on one face of its pair and each flip shows the other,
    so its k-th event (toss or reveal) shows the toss face when k is even. With `enabled`,
    only those observations are seen; the others still happened, unseen."""
    shown: dict[str, list[tuple[int, str]]] = {tile: [] for tile in TILES}
    for index, obs in enumerate(observations):
        if obs.kind in ("toss", "reveal"):
            shown[obs["tile"]].append((index, obs["face"]))

    def explains(tile: str, pair: frozenset[str]) -> bool:
        return any(
            all(
                face == (up if k % 2 == 0 else other_face(pair, up))
                for k, (index, face) in enumerate(shown[tile])
                if enabled is None or index in enabled
            )
            for up in pair
        )

    return [
        {knowledge.variable(t): knowledge.PAIR_NAME[p] for t, p in zip(TILES, perm, strict=True)}
        for perm in itertools.permutations(PAIRS)
        if all(explains(t, p) for t, p in zip(TILES, perm, strict=True))
    ]


def pairs_only(world: Mapping[str, object]) -> list[tuple[str, object]]:
    """A world's pair variables (the face variables are fixed by the observations)."""
    return sorted((name, value) for name, value in world.items() if name.startswith("pair:"))


def positions_met(games: int, seed: int = 0) -> list[tuple[InformationSet, engines.State]]:
    """Information sets of random games, one per distinct set of faces seen.

    Two information sets with the same faces seen give the same model; they differ at most in
    which face shows now, which only relabels the `Back` facts. Each position is checked on
    every (tile, pair) literal, which covers the facts of every face showing.
    """
    found, keys = [], set()
    for game_seed in range(seed, seed + games):
        state, rng = GAME.new_game(game_seed), random.Random(game_seed)
        while True:
            info = state.information_set(state.to_move or "lupin")
            seen = seen_faces(info.observations)
            key = tuple(sorted((t, tuple(sorted(f))) for t, f in seen.items()))
            if key not in keys:
                keys.add(key)
                found.append((info, state.clone()))
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    return found


POSITIONS = positions_met(300)


def test_positions_cover_many_knowledge_states() -> None:
    assert len(POSITIONS) > 500
    assert {len(brute_force(info.observations)) for info, _ in POSITIONS} >= {1, 2, 4, 16}


def test_solver_equals_brute_force_on_every_position() -> None:
    mismatches = []
    for info, state in POSITIONS:
        truth = brute_force(info.observations)
        d = solver.deduce(info)
        by_constraint = oracle.worlds(d.model)
        assert sorted(map(pairs_only, by_constraint)) == sorted(map(pairs_only, truth))
        if d.total() != len(truth):
            mismatches.append((info, "total"))
        literals = [
            solver.Fact("Pair", (t, name), knowledge.variable(t), frozenset({name}), f"{t}={name}")
            for t in TILES
            for name in knowledge.PAIR_NAMES
        ]
        for fact in d.facts + literals:
            hits = sum(fact.holds_in(world) for world in truth)
            answers = (d.possible(fact), d.is_certain(fact), d.count(fact), d.probability(fact))
            expected = (hits > 0, hits == len(truth), hits, hits / len(truth))
            if answers != expected or Fraction(d.count(fact), d.total()) != oracle.probability(
                truth, fact
            ):
                mismatches.append((info, fact, answers, expected))
            if d.is_certain(fact):
                assert fact.holds(state), f"certain {fact} is false in the real game"
            if not d.possible(fact):
                assert not fact.holds(state)
        certain = {f for f in d.facts if all(f.holds_in(w) for w in truth)}
        assert set(d.certain()) == certain
        assert set(d.impossible()) == {f for f in d.facts if not any(f.holds_in(w) for w in truth)}
    assert mismatches == []


def test_backbone_by_solution_elimination_equals_brute_force() -> None:
    """The CP-SAT backbone (used when worlds are too many to list) on the same positions."""
    for info, _ in POSITIONS[::7]:
        truth = brute_force(info.observations)
        d = solver.deduce(info, enumeration_limit=0)
        assert not d.exact
        for fact in d.facts:
            assert d.possible(fact) == any(fact.holds_in(w) for w in truth)
            assert d.is_certain(fact) == all(fact.holds_in(w) for w in truth)


def forced_by(info: InformationSet, enabled: list[int], fact: solver.Fact) -> bool:
    return all(fact.holds_in(world) for world in brute_force(info.observations, set(enabled)))


def test_explanations_force_the_fact_and_are_minimal() -> None:
    explained = 0
    for info, _ in POSITIONS[::8]:
        d = solver.deduce(info)
        for fact in d.certain():
            because = d.explain_sources(fact)
            assert forced_by(info, because, fact), f"{because} do not force {fact}"
            for i in range(len(because)):
                fewer = because[:i] + because[i + 1 :]
                assert not forced_by(info, fewer, fact), f"{because[i]} is not needed for {fact}"
            assert d.explain(fact) == [info.observations[i] for i in because]
            explained += 1
    assert explained > 100


def test_explaining_an_uncertain_fact_is_refused() -> None:
    info = GAME.new_game(0).information_set("lupin")
    d = solver.deduce(info)
    uncertain = next(f for f in d.facts if not d.is_certain(f))
    with pytest.raises(solver.NotCertain, match="not certain"):
        d.explain(uncertain)


def test_contradictory_observations_raise_inconsistent_with_the_minimal_conflict() -> None:
    info = GAME.new_game(0).information_set("lupin")
    showing_lupin = [o for o in info.observations if o.kind == "toss" and o["face"] == "L"]
    others = [o["tile"] for o in info.observations if o.kind == "toss" and o["face"] != "L"]
    lupins_needed = 4 - len(showing_lupin)
    fabricated = tuple(
        Observation.of("reveal", tile=tile, face="L") for tile in others[:lupins_needed]
    )
    bad = info.extended(*fabricated)
    with pytest.raises(solver.Inconsistent) as error:
        solver.deduce(bad)
    assert_minimal_conflict(bad, error.value.conflict)
    assert str(error.value).startswith("these observations contradict each other: t")


def assert_minimal_conflict(info: InformationSet, conflict: list[Observation]) -> None:
    """The conflict is contradictory by the brute force, and every member is needed."""
    indices = [info.observations.index(obs) for obs in conflict]
    assert conflict and len(set(indices)) == len(conflict)
    assert brute_force(info.observations, set(indices)) == [], "the conflict is contradictory"
    for i in range(len(indices)):
        assert brute_force(info.observations, set(indices[:i] + indices[i + 1 :])), (
            "every member is needed"
        )


def flipped_to_the_face_already_up() -> InformationSet:
    """`lay t1 flip`, then a reveal of t1 showing its toss face (issue 8, defect 2)."""
    state = engines.make("blue-lion", first_player="lupin").new_game(0)
    state.apply(GAME.parse_action("lay t1 flip"))
    info = state.information_set("lupin")
    toss = info.observations[0]
    reveal = next(i for i, obs in enumerate(info.observations) if obs.kind == "reveal")
    observations = list(info.observations)
    observations[reveal] = Observation.of("reveal", tile="t1", face=toss["face"])
    return InformationSet(info.game, info.options, info.seat, tuple(observations))


def test_a_flip_showing_the_face_already_up_is_a_contradiction() -> None:
    info = flipped_to_the_face_already_up()
    assert brute_force(info.observations) == []
    with pytest.raises(solver.Inconsistent) as error:
        solver.deduce(info)
    assert error.value.conflict == [info.observations[0], info.observations[-1]] or (
        [o.kind for o in error.value.conflict] == ["toss", "reveal"]
    )
    assert_minimal_conflict(info, error.value.conflict)
    with pytest.raises(solver.Inconsistent):
        solver.hints(info)


def test_a_flip_shows_the_other_face_so_the_pair_is_known() -> None:
    state = engines.make("blue-lion", first_player="lupin").new_game(0)
    state.apply(GAME.parse_action("lay t1 flip"))
    info = state.information_set("fujiko")
    d = solver.deduce(info)
    assert d.total() == len(brute_force(info.observations))
    assert {world[knowledge.variable("t1")] for world in d.worlds.worlds} == {
        knowledge.PAIR_NAME[state._pairs["t1"]]
    }


def test_samples_are_consistent_and_uniform() -> None:
    info = GAME.new_game(0).information_set("lupin")
    d = solver.deduce(info)
    truth = brute_force(info.observations)
    draws = d.sample(4000, seed=1)
    counts = {tuple(pairs_only(w)): 0 for w in truth}
    for world in draws:
        counts[tuple(pairs_only(world))] += 1
    expected = len(draws) / len(truth)
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    assert len(truth) == 16 and chi_square < 37.7  # 99.9% quantile, 15 degrees of freedom


def test_a_pattern_made_twice_at_once_reads_as_one_outcome_never_over_100_percent() -> None:
    """A swap that makes the same pattern on two tiles scores it twice in one outcome: the
    hint says "x2" at that outcome's chance (it read 200% before)."""
    game = engines.make("blue-lion")
    texts = [h.text for s in game.seats
             for h in solver.hints(game.random_game(seed=2, moves=6).information_set(s),
                                   search=False)]  # fmt: skip
    assert any("x2 100%" in text for text in texts), texts
    for text in texts:
        assert all(int(p) <= 100 for p in re.findall(r"(\d+)%", text)), text
