"""The soak harness (benchmarks/soak.py) on a few games and mutations per engine: it must run,
find nothing, and count what it tried, so that its long runs stay trustworthy.

Besides the pinned seed 0, each run mutates at a fresh seed, printed with the command that
replays it, so that CI keeps exploring new inputs."""

from __future__ import annotations

import random

import pytest

import engines
from tests import benchmark_scripts

soak = benchmark_scripts.load("soak", "soak")

FRESH_SEED = random.SystemRandom().randrange(1, 10**6)
FRESH_MUTATIONS = 200
"""Mutations per kind per engine at the fresh seed (3,000 in all, about 55 s of CPU)."""


@pytest.mark.parametrize("name", engines.names())
def test_random_games_keep_their_invariants(name: str) -> None:
    tally = soak.soak_games(name, first_seed=0, count=50)
    assert tally.failures == [] and tally.outcomes.get("played") == 50
    assert tally.outcomes.get("round-tripped") == 1  # seed 0, one game in ROUND_TRIP_EVERY


@pytest.mark.parametrize("phase", ["json", "actions", "info"])
@pytest.mark.parametrize("name", engines.names())
def test_mutations_raise_only_sleuth_errors(name: str, phase: str) -> None:
    run = {"json": soak.soak_json, "actions": soak.soak_actions, "info": soak.soak_info}[phase]
    tally = run(name, 25, 0)
    assert tally.failures == [] and tally.tries == 25
    assert sum(tally.outcomes.values()) == 25


@pytest.mark.parametrize("phase", ["json", "actions", "info"])
@pytest.mark.parametrize("name", engines.names())
def test_mutations_at_a_fresh_seed_raise_only_sleuth_errors(name: str, phase: str) -> None:
    replay = (
        f"soak seed {FRESH_SEED}; replay with: python benchmarks/soak.py --game {name} "
        f"--only {phase} --mutations {FRESH_MUTATIONS} --workers 1 --seed {FRESH_SEED}"
    )
    print(replay)
    run = {"json": soak.soak_json, "actions": soak.soak_actions, "info": soak.soak_info}[phase]
    tally = run(name, FRESH_MUTATIONS, FRESH_SEED * 1000)  # the harness's first worker's seed
    assert tally.failures == [], f"{replay}\n" + "\n".join(tally.failures)
    assert tally.tries == FRESH_MUTATIONS


def test_a_broken_invariant_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(state: engines.State) -> None:
        raise engines.InvalidState("broken on purpose")

    monkeypatch.setattr(engines.State, "check_invariants", broken)
    tally = soak.soak_games("blue-lion", first_seed=0, count=3)
    assert tally.failure_count == 3 and "broken on purpose" in tally.failures[0]


def test_a_bare_exception_from_the_solver_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(info: object, *args: object, **kwargs: object) -> None:
        raise KeyError("a bare error")

    monkeypatch.setattr(soak.solver, "deduce", crash)
    tally = soak.soak_info("noir", 5, 0)
    assert tally.failure_count == 5 and "KeyError" in tally.failures[0]


def test_a_record_waiting_on_another_seats_choice_is_reachable() -> None:
    """City Killer with the killer to pick the witness (or the answer): the detective's record
    is a true beginning (it waits for that choice), which the check of accepted states took for
    an unreachable state (soak seed 31, 10,000 JSON mutations)."""
    from solver.validation import validate

    state = engines.make("city-killer").random_game(0, 11)
    assert state.to_move == "killer"
    with pytest.raises(engines.IncompleteInformationSet, match="the record stops before"):
        validate(state.information_set("detective"))
    assert soak.unreachable_because(state) is None
    cut = soak.complete_beginning(state.information_set("detective"))
    assert cut is not None and len(cut.observations) < len(
        state.information_set("detective").observations
    )
