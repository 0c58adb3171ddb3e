"""Soak harness: random legal games with every invariant checked, and random mutations of JSON
states, hand-built actions and information sets, counting every failure a caller could meet.

    python benchmarks/soak.py                                  # every engine, the issue's counts
    python benchmarks/soak.py --game noir --games 2000 --mutations 500 --workers 2
    python benchmarks/soak.py --only json actions             # some phases only

A *failure* is any of:
- an exception that is not a `SleuthError` (a bare KeyError, TypeError, AssertionError...);
- an invariant break: a legal move, or a mutated state or action the engine accepted, after
  which `state.check_invariants()` fails or the JSON no longer round-trips exactly;
- an accepted mutated state that the rules could not have reached: a seat's record that the
  game could not produce, or one that contradicts the state's own hidden truth;
- a refused action that changed the state;
- a hang: a `deduce` + `hints` call that outlives the solver's time limit (a hard alarm stops
  it at `HANG_SECONDS`, so the harness itself never hangs).

The mutations are drawn by hypothesis (generation only, no shrinking: the harness counts, it
does not stop at the first failure). Each failure is kept with what reproduces it: the game's
options and seed, the step, and the mutated input (cut to a few hundred characters).
The run prints its seed first (`--seed N` replays it) and the peak memory last; the exit
status is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import resource
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

import engines
import solver
from engines import Action, Game, InformationSet, Observation, SleuthError, State
from solver.cpsat import Compiled
from solver.games import knowledge_for
from solver.model import Model, member
from solver.validation import validate

PHASES = ("games", "json", "actions", "info")
HANG_SECONDS = 120.0
"""The hard ceiling of one deduce + hints call; far above the solver's own time limit."""
KEPT_FAILURES = 12
ROUND_TRIP_EVERY = 50
MAX_MOVES = 100_000
"""A random game still running after this many moves counts as a hang. Alibi without a round
limit ends only on an accusation, which random players rarely make: about 6 games in 100,000
run past 10,000 moves (one ended after 12,606, in round 3,133)."""
MOVES_AFTER_ACCEPT = 20
"""Random legal moves played on from an accepted mutated state, invariants checked after each."""

# Option values the games accept besides their declared ones (checked options have no list).
EXTRA_OPTION_VALUES: dict[str, dict[str, list[Any]]] = {
    "alibi": {
        "players": [3, 4, 5, 6],
        "round_limit": [None, 1, 5, 20],
        "solution_points": [1, 5],
    },
    "blue-lion": {"target": [3, 7, 12], "turn_limit": [None, 30, 200]},
    "city-killer": {"residents": [6, 12, 20], "pool": [20, 54]},
    "noir": {"turn_limit": [40, 500]},
    "serial-killer": {"players": [3, 4, 5], "genres": [2, 7], "traits_per_genre": [3, 6]},
}
PINNED_OPTIONS: dict[str, dict[str, Any]] = {
    # the solver does not model Serial Killer's hidden genres yet (it refuses them by name), so
    # a record with them would read as one the game cannot produce
    "serial-killer": {"genre_public": True},
}
INFO_OPTIONS: dict[str, list[dict[str, Any]]] = {
    # information sets go to the solver: keep Alibi to the configurations it answers quickly
    "alibi": [{"players": 3, "deck": "small"}, {"players": 4, "deck": "small"}, {"players": 4}],
    "blue-lion": [{}],
    "city-killer": [{}, {"residents": 6, "pool": 18}, {"liar_model": "random"}],
    "noir": [{}, {"deck": "separate"}, {"grid": 4}, {"grid": 3}],
    "serial-killer": [{}, {"players": 3}, {"genres": 2, "traits_per_genre": 3}],
}


# --- tallies ----------------------------------------------------------------------------------
@dataclass
class Tally:
    """What one phase of one engine did: how many tries, how each ended, what failed."""

    tries: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    failure_count: int = 0
    durations: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, outcome: str) -> None:
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1

    def fail(self, what: str) -> None:
        self.failure_count += 1
        self.count("FAILED")
        if len(self.failures) < KEPT_FAILURES:
            self.failures.append(what)

    def merge(self, other: Tally) -> None:
        self.tries += other.tries
        for key, value in other.outcomes.items():
            self.outcomes[key] = self.outcomes.get(key, 0) + value
        self.failure_count += other.failure_count
        self.failures += other.failures[: KEPT_FAILURES - len(self.failures)]
        self.durations += other.durations
        self.seconds = max(self.seconds, other.seconds)


def cut(text: object, limit: int = 300) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


def describe_error(error: BaseException) -> str:
    return f"{type(error).__name__}: {cut(error, 200)}"


# --- games and positions ----------------------------------------------------------------------
def random_options(name: str, rng: random.Random) -> dict[str, Any]:
    """Options for one game, each switch drawn from the values it allows."""
    options: dict[str, Any] = {}
    extra = EXTRA_OPTION_VALUES.get(name, {})
    for spec in engines.game_class(name).options_spec:
        values = list(spec.allowed or ()) + extra.get(spec.name, [])
        options[spec.name] = rng.choice(values) if values else spec.default
    options.update(PINNED_OPTIONS.get(name, {}))
    if name == "alibi" and isinstance(options.get("dealer"), int):
        options["dealer"] = rng.randrange(options["players"])
    return options


def make_game(name: str, options: dict[str, Any]) -> Game:
    try:
        return engines.make(name, **options)
    except engines.ConfigError:  # a combination the game refuses: its defaults then
        return engines.make(name)


def check_round_trip(game: Game, state: State) -> str | None:
    """Why the state's JSON or its information sets do not round-trip, or None."""
    text = state.to_json()
    again = game.state_from_json(text)
    if again.to_json() != text:
        return "state JSON does not round-trip"
    for seat in game.seats:
        info = state.information_set(seat)
        if InformationSet.from_json(info.to_json()) != info:
            return f"{seat}'s information set does not round-trip"
    return None


def unreachable_because(state: State) -> str | None:
    """Why the rules could not have reached `state`, as far as its seats' records show, or None.

    Each seat's information set must be one the game could produce (the solver's validation),
    and the state's own truth must be one of the worlds that information set allows (CP-SAT,
    with the true world pinned). A loaded state whose record contradicts its hidden cards, or
    an edited log, fails here even when every field is well-formed.

    A hidden quantity the game has not decided yet is left free: its truth is no value of its
    variable (City Killer's identity and allies are '' until the killer chooses them).
    """
    knowledge = knowledge_for(state.game.name)
    truth = knowledge.world_of(state)
    for seat in state.game.seats:
        info = state.information_set(seat)
        try:
            validate(info)
        except engines.IncompleteInformationSet as error:
            if state.to_move == seat:  # nobody else is about to show it what it waits for
                return f"{seat}'s record stops where it is to move: {describe_error(error)}"
            info = complete_beginning(info)  # another seat's choice will end the wait
            if info is None:
                return f"{seat}'s record has no complete beginning: {describe_error(error)}"
        except SleuthError as error:
            return f"{seat}'s record is not one the game produces: {describe_error(error)}"
        model = knowledge.build(info)
        domains = {variable.name: variable.domain for variable in model.variables}
        decided = [member(n, [v]) for n, v in truth.items() if v in domains.get(n, ())]
        pinned = Model(
            info, list(model.variables), list(model.constraints) + decided, base=model.base
        )
        if Compiled(pinned).solve()[0] is None:
            return f"{seat}'s observations contradict the state's hidden truth"
    return None


def complete_beginning(info: InformationSet) -> InformationSet | None:
    """The longest beginning of `info` that validates as complete, or None: a record that
    waits on another seat's choice (a City Killer question the killer is to answer) is a true
    beginning, and its complete part must still fit the state's truth."""
    observations = info.observations
    for end in range(len(observations) - 1, 0, -1):
        beginning = dataclasses.replace(info, observations=observations[:end])
        with contextlib.suppress(engines.IncompleteInformationSet):
            validate(beginning)
            return beginning
    return None


def check_accepted(tally: Tally, state: State, rng: random.Random, where: str) -> None:
    """A mutated input the engine accepted must have left a state the rules reach: invariants
    hold, JSON round-trips, every seat's record fits the truth, and play goes on cleanly."""
    try:
        state.check_invariants()
        if why := check_round_trip(state.game, state):
            raise AssertionError(why)
        if why := unreachable_because(state):
            tally.fail(f"accepted an unreachable state ({why}): {where}")
            return
        play_on(state, rng, MOVES_AFTER_ACCEPT)
        tally.count("accepted")
    except Exception as error:
        tally.fail(f"accepted, then broke: {where} -> {describe_error(error)}")


def play_on(state: State, rng: random.Random, moves: int) -> None:
    """Play random legal moves, checking invariants after each (raises on a break)."""
    for _ in range(moves):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
        state.check_invariants()


# --- phase 1: random legal games --------------------------------------------------------------
def soak_games(name: str, first_seed: int, count: int) -> Tally:
    """`count` random legal games with random options, invariants checked after every move.

    JSON round-trips (the state and every seat's information set) are checked at the end of
    one game in `ROUND_TRIP_EVERY`: on a long Alibi game they cost a second, a hundred times
    the game itself, and the conformance tests already check them after every move.
    """
    tally, began = Tally(), time.perf_counter()
    for seed in range(first_seed, first_seed + count):
        rng = random.Random(seed)
        options = random_options(name, rng)
        where = f"{name} {options} seed {seed}"
        tally.tries += 1
        try:
            game = make_game(name, options)
            state = game.new_game(seed=seed)
            state.check_invariants()
            steps = 0
            while not state.is_over and steps < MAX_MOVES:
                state.apply(rng.choice(state.legal_actions()))
                state.check_invariants()
                steps += 1
            if not state.is_over:
                tally.fail(f"{where}: did not end within {MAX_MOVES} moves")
                continue
            if not state.winners and not state.may_end_unwon:
                tally.fail(f"{where}: ended without naming its winners")
                continue
            if seed % ROUND_TRIP_EVERY == 0:
                if why := check_round_trip(game, state):
                    tally.fail(f"{where} at the end: {why}")
                    continue
                tally.count("round-tripped")
            tally.count("played")
            tally.durations.append(steps)
        except Exception as error:  # everything counts here, SleuthError included
            tally.fail(f"{where}: {describe_error(error)}")
    tally.seconds = time.perf_counter() - began
    return tally


# --- hypothesis strategies ------------------------------------------------------------------
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.sampled_from([-1, 0, 1, 2, 3, 999, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def paths(tree: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a node of a JSON tree (keys and indices), the root excluded."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield (*prefix, key)
            yield from paths(value, (*prefix, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield (*prefix, index)
            yield from paths(value, (*prefix, index))


def node(tree: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def vocabulary(state: State) -> list[Any]:
    """Values that make plausible mutations: every scalar in the state's JSON and its actions."""
    found: set[Any] = set()

    def walk(value: Any) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, str | int | float | bool) or value is None:
            found.add(value)

    data = json.loads(state.to_json())
    walk(data["state"])
    for seat in state.game.seats:
        walk([obs.to_dict()["fields"] for obs in state.information_set(seat).observations[-40:]])
    for action in state.legal_actions()[:60]:
        found.add(str(action))
        if dataclasses.is_dataclass(action):
            walk([getattr(action, f.name) for f in dataclasses.fields(action)])
    return sorted(found, key=repr)[:400]


def mutant_value(draw: Callable[[Any], Any], original: Any, words: list[Any]) -> Any:
    """A replacement for `original`: a near value, a value from the game, or any JSON value."""
    kind = draw(st.sampled_from(["near", "word", "any", "list"]))
    if kind == "near" and isinstance(original, int) and not isinstance(original, bool):
        return original + draw(st.sampled_from([-1, 1, -2, 2, 10, -1000, 10**6]))
    if kind == "near" and isinstance(original, list | tuple) and original:
        items = list(original)
        op = draw(st.sampled_from(["drop", "double", "swap", "reverse"]))
        index = draw(st.integers(0, len(items) - 1))
        if op == "drop":
            del items[index]
        elif op == "double":
            items.insert(index, items[index])
        elif op == "swap":
            other = draw(st.integers(0, len(items) - 1))
            items[index], items[other] = items[other], items[index]
        else:
            items.reverse()
        return type(original)(items) if isinstance(original, tuple) else items
    if kind in ("near", "word") and words:
        return draw(st.sampled_from(words))
    if kind == "list" and words:
        return draw(st.lists(st.sampled_from(words), max_size=5))
    return draw(json_values)


def mutate_tree(draw: Callable[[Any], Any], tree: Any, words: list[Any]) -> Any:
    """`tree` with one node replaced, deleted, duplicated, or a key added.

    The 625 words of an RNG state would take most of the picks, so they are picked only one
    time in ten."""
    every = list(paths(tree))
    if draw(st.integers(0, 9)) != 0:
        every = [path for path in every if "rng" not in path[:-1]] or every
    if not every:
        return draw(json_values)
    path = draw(st.sampled_from(every))
    parent, last = node(tree, path[:-1]), path[-1]
    op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add-key"]))
    if op == "delete":
        del parent[last]
    elif op == "add-key" and isinstance(parent, dict):
        parent[draw(st.text(max_size=6))] = draw(json_values)
    else:
        parent[last] = mutant_value(draw, parent[last], words)
    return tree


def judge(
    tally: Tally,
    where: str,
    attempt: Callable[[], State],
    game_seed: int,
    changed: Callable[[], bool] = lambda: False,
) -> None:
    """Count one try: `attempt()` refused with a SleuthError (a failure if the refusal
    `changed` the state), escaping with any other exception (a failure), or accepted, and then
    the state it gave is checked (`check_accepted`)."""
    tally.tries += 1
    try:
        state = attempt()
    except SleuthError:
        if changed():
            tally.fail(f"refusal changed the state: {where}")
        else:
            tally.count("refused")
        return
    except Exception as error:
        tally.fail(f"{where} -> {describe_error(error)}")
        return
    check_accepted(tally, state, random.Random(game_seed), where)


def hypothesis_run(
    test: Callable[[st.DataObject], None], tally: Tally, examples: int, seed: int
) -> Tally:
    """Run `test` on `examples` inputs generated by hypothesis, with no shrinking: the harness
    counts failures instead of stopping at the first. An exception that escapes `test` (the
    harness could not even set up its position) counts as a failure too. The tally, with the
    run's seconds."""
    began = time.perf_counter()

    def counted(data: st.DataObject) -> None:
        try:
            test(data)
        except Exception as error:
            tally.fail(f"while setting up: {describe_error(error)}")

    runner = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )(hypothesis_seed(seed)(given(st.data())(counted)))
    runner()
    tally.seconds = time.perf_counter() - began
    return tally


def draw_position(
    data: st.DataObject, name: str, options_pool: list[dict[str, Any]] | None
) -> tuple[Game, int, int, State]:
    """A random game, seed and moment, drawn by hypothesis."""
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    if options_pool is None:
        options = random_options(name, random.Random(seed))
    else:
        options = data.draw(st.sampled_from(options_pool), label="options")
    game = make_game(name, options)
    steps = data.draw(st.integers(0, 150), label="steps")
    state = game.random_game(seed, steps)
    while state.is_over:  # the game was shorter: an earlier moment, so that every try counts
        steps //= 2
        state = game.random_game(seed, steps)
    return game, seed, steps, state


# --- phase 2: mutated JSON states --------------------------------------------------------------
SECTIONS = ("setup", "actions", "state", "log")
"""The parts of a state's JSON that a mutation picks first (the rest: anywhere)."""


def soak_json(name: str, examples: int, seed: int) -> Tally:
    tally = Tally()

    def test(data: st.DataObject) -> None:
        game, game_seed, steps, state = draw_position(data, name, None)
        text = state.to_json()
        tree = json.loads(text)
        how = data.draw(st.sampled_from(["tree", "tree", "tree", "tree", "truncate", "junk"]))
        if how == "truncate":
            mutated = text[: data.draw(st.integers(0, len(text) - 1))]
        elif how == "junk":
            mutated = data.draw(st.sampled_from(["null", "[]", "{}", "1", '"x"', "", "nan"]))
        else:
            section = data.draw(st.sampled_from([*SECTIONS, "anywhere"]))
            words = vocabulary(state)
            if section == "anywhere" or not tree.get(section):
                tree = mutate_tree(data.draw, tree, words)
            else:
                tree[section] = mutate_tree(data.draw, tree[section], words)
            mutated = json.dumps(tree)
        where = f"{name} {game.options} seed {game_seed} step {steps}: {cut(mutated)}"
        judge(tally, where, lambda: game.state_from_json(mutated), game_seed)

    return hypothesis_run(test, tally, examples, seed)


# --- phase 3: hand-built actions ---------------------------------------------------------------
def action_classes(state: State) -> list[type[Action]]:
    """The game's action classes, found in its actions module."""
    module = sys.modules[type(state).__module__.rsplit(".", 1)[0] + ".actions"]
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Action)
        and value is not Action
        and dataclasses.is_dataclass(value)
    ]


def soak_actions(name: str, examples: int, seed: int) -> Tally:
    tally = Tally()

    def test(data: st.DataObject) -> None:
        game, game_seed, steps, state = draw_position(data, name, None)
        if state.is_over:
            return
        words = vocabulary(state)
        legal = state.legal_actions()
        if data.draw(st.booleans()):
            action: Any = data.draw(st.sampled_from(legal))
        else:
            cls = data.draw(st.sampled_from(action_classes(state)))
            values = {f.name: mutant_value(data.draw, None, words) for f in dataclasses.fields(cls)}
            action = cls(**values)
        for _ in range(data.draw(st.integers(1, 2))):
            fields_ = dataclasses.fields(action)
            if not fields_:
                break
            chosen = data.draw(st.sampled_from(fields_)).name
            value = mutant_value(data.draw, getattr(action, chosen), words)
            action = dataclasses.replace(action, **{chosen: value})
        where = f"{name} {game.options} seed {game_seed} step {steps}: {cut(repr(action))}"
        before = state.to_json()

        def applied() -> State:
            state.apply(action)
            return state

        def changed() -> bool:
            return state.to_json() != before

        judge(tally, where, applied, game_seed, changed)

    return hypothesis_run(test, tally, examples, seed)


# --- phase 4: information sets given to the solver ---------------------------------------------
class Hang(Exception):
    """Raised by the alarm when one deduce + hints call outlives `HANG_SECONDS`."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def mutate_info(data: st.DataObject, info: InformationSet, game: Game, words: list[Any]) -> Any:
    """`info` with one thing changed: an observation dropped, doubled, moved or edited, the
    seat, the options or the game, or the whole structure."""
    observations = list(info.observations)
    op = data.draw(
        st.sampled_from(
            [
                "drop",
                "double",
                "move",
                "field",
                "field",
                "field",
                "seat",
                "options",
                "kind",
                "shape",
            ]
        )
    )
    if op in ("drop", "double", "move", "field", "kind") and not observations:
        op = "seat"
    if op == "drop":
        del observations[data.draw(st.integers(0, len(observations) - 1))]
    elif op == "double":
        index = data.draw(st.integers(0, len(observations) - 1))
        observations.insert(data.draw(st.integers(0, len(observations))), observations[index])
    elif op == "move":
        moved = observations.pop(data.draw(st.integers(0, len(observations) - 1)))
        observations.insert(data.draw(st.integers(0, len(observations))), moved)
    elif op in ("field", "kind"):
        index = data.draw(st.integers(0, len(observations) - 1))
        obs = observations[index]
        if op == "kind" or not obs.fields:
            kinds = sorted({o.kind for o in info.observations} | {"nonsense"})
            observations[index] = Observation(data.draw(st.sampled_from(kinds)), obs.fields)
        else:
            position = data.draw(st.integers(0, len(obs.fields) - 1))
            key, value = obs.fields[position]
            new = mutant_value(data.draw, value, words)
            with contextlib.suppress(TypeError):  # a dict stays, as careless code could build it
                new = engines.values.freeze(new)
            fields_ = list(obs.fields)
            fields_[position] = (key, new)
            observations[index] = Observation(obs.kind, tuple(fields_))
    elif op == "seat":
        seat = data.draw(st.sampled_from([*game.seats, True, -1, 99, "nobody", None]))
        return InformationSet(info.game, info.options, seat, info.observations)
    elif op == "options":
        other = random_options(info.game, random.Random(data.draw(st.integers(0, 10**6))))
        if data.draw(st.booleans()):
            other = {**dict(info.options), "bogus": 1}
        options = tuple(sorted((k, engines.values.freeze(v)) for k, v in other.items()))
        return InformationSet(info.game, options, info.seat, info.observations)
    else:
        shape = data.draw(st.sampled_from(["list", "game", "empty", "not-info"]))
        if shape == "list":
            return InformationSet(info.game, info.options, info.seat, observations)  # type: ignore[arg-type]
        if shape == "game":
            return InformationSet(
                data.draw(st.sampled_from([*engines.names(), "chess"])),
                info.options,
                info.seat,
                info.observations,
            )
        if shape == "empty":
            return InformationSet(info.game, info.options, info.seat, ())
        return data.draw(st.sampled_from([None, "info", 3, info.to_json()]))
    return InformationSet(info.game, info.options, info.seat, tuple(observations))


def soak_info(name: str, examples: int, seed: int) -> Tally:
    tally = Tally()
    signal.signal(signal.SIGALRM, _alarm)

    def test(data: st.DataObject) -> None:
        game, game_seed, steps, state = draw_position(data, name, INFO_OPTIONS.get(name, [{}]))
        seat = data.draw(st.sampled_from(game.seats))
        info = mutate_info(data, state.information_set(seat), game, vocabulary(state))
        where = f"{name} {game.options} seed {game_seed} step {steps} seat {seat}: {cut(info)}"
        tally.tries += 1
        started = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
        try:
            solver.deduce(info)  # type: ignore[arg-type]
            solver.hints(info)  # type: ignore[arg-type]
            outcome = "answered"
        except Hang:
            outcome = "hang"
        except SleuthError as error:
            outcome = type(error).__name__
        except Exception as error:
            outcome = f"{where} -> {describe_error(error)}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = time.perf_counter() - started
        tally.durations.append(elapsed)
        if outcome == "hang":
            tally.fail(f"hang (> {HANG_SECONDS} s): {where}")
        elif " -> " in outcome:
            tally.fail(outcome)
        else:
            tally.count(outcome)

    return hypothesis_run(test, tally, examples, seed)


# --- running and reporting ---------------------------------------------------------------------
def run_phase(phase: str, name: str, count: int, seed: int, workers: int) -> Tally:
    """One phase of one engine, split over `workers` processes."""
    shares = [count // workers + (1 if i < count % workers else 0) for i in range(workers)]
    jobs = []
    first = seed
    for index, share in enumerate(shares):
        if share == 0:
            continue
        if phase == "games":
            jobs.append((soak_games, name, first, share))
            first += share
        else:
            worker = {"json": soak_json, "actions": soak_actions, "info": soak_info}[phase]
            jobs.append((worker, name, share, seed * 1000 + index))
    total = Tally()
    if workers == 1 or len(jobs) == 1:
        results = [job[0](*job[1:]) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_call, jobs))
    for result in results:
        total.merge(result)
    return total


def _call(job: tuple[Any, ...]) -> Tally:
    return job[0](*job[1:])


def report(phase: str, name: str, tally: Tally) -> str:
    """One row of the results table."""
    outcomes = ", ".join(f"{key} {value}" for key, value in sorted(tally.outcomes.items()))
    detail = ""
    if phase == "info" and tally.durations:
        ordered = sorted(tally.durations)
        p99 = ordered[int(0.99 * (len(ordered) - 1))]
        detail = (
            f"deduce+hints median {statistics.median(ordered):.3f} s, p99 {p99:.2f} s, "
            f"max {ordered[-1]:.2f} s"
        )
    elif phase == "games" and tally.durations:
        detail = (
            f"{statistics.mean(tally.durations):.0f} moves a game, "
            f"the longest {max(tally.durations)}"
        )
    cells = [name, phase, tally.tries, tally.failure_count, outcomes, f"{tally.seconds:.0f} s"]
    return "| " + " | ".join(map(str, [*cells, detail])) + " |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", action="append", choices=engines.names(), help="repeatable; default all"
    )
    parser.add_argument("--only", nargs="+", choices=PHASES, default=list(PHASES))
    parser.add_argument("--games", type=int, default=100_000, help="random games per engine")
    parser.add_argument(
        "--mutations", type=int, default=10_000, help="mutations per kind per engine"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.game or engines.names()
    print(f"soak seed {args.seed} (replay: --seed {args.seed})", flush=True)
    print("| engine | phase | tries | failures | outcomes | wall time | detail |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    failed = 0
    kept: list[str] = []
    for name in names:
        for phase in args.only:
            count = args.games if phase == "games" else args.mutations
            began = time.perf_counter()
            tally = run_phase(phase, name, count, args.seed, args.workers)
            tally.seconds = time.perf_counter() - began
            print(report(phase, name, tally), flush=True)
            failed += tally.failure_count
            kept += [f"{name} {phase}: {what}" for what in tally.failures]
    if kept:
        print("\nFailures (first of each phase):")
        for what in kept:
            print(" -", what)
    print(f"\n{failed} failures")
    print(peak_memory())
    return 1 if failed else 0


def peak_memory() -> str:
    """The peak resident memory of this process and of its largest worker (ru_maxrss, which
    Linux counts in KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return f"peak memory: {own / 1024:.0f} MB here, {workers / 1024:.0f} MB in the largest worker"


if __name__ == "__main__":
    sys.exit(main())
