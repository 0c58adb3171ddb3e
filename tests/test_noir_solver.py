"""Noir's knowledge models against a model-free search of every deal the engine accepts.

The ground truth never looks at the solver's model: it replays each game's observations with the
engine itself, branching over every hidden draw the seat did not see (the killer's first card
and each successful disguise for the inspector; the inspector's hand, identity and draws for the
killer), and keeps the branches whose observations match, observation for observation. The
opponent's identities reached at the end of each turn are the consistent worlds of that prefix.

Two reductions keep it small, neither from the model: a branch is identified by what the rest of
the replay depends on (the killer's identity; the inspector's identity and hand), and for the
killer's view the inspector's cards that no observation of the killer names, other than his
identity, are interchangeable (nothing the killer sees depends on which of them he holds), so
only the first of them is tried at each draw.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

import engines
import solver
from engines import InformationSet, Observation
from engines.noir import Disguise, Draw, Noir, NoirState
from engines.noir.rules import HAND
from solver.cpsat import Compiled
from solver.games import noir as knowledge
from solver.model import Clause, Count, Model

ACTIONS = {"kill", "shift", "disguise", "chose-identity", "draw", "exonerate", "arrest",
           "citizen-arrest"}  # fmt: skip
CONFIGS = [
    ({"grid": 3}, 90),
    ({"grid": 3, "deck": "separate", "citizen_arrest": True}, 90),
    ({"grid": 4, "reverse_shift_ban": False}, 60),
    ({"grid": 4, "deck": "separate", "kills_to_win": 14}, 60),
]


# --- the model-free ground truth --------------------------------------------------------------
def turns(info: InformationSet) -> list[int]:
    """The length of each prefix that ends a turn's observations (setup first)."""
    starts = [i for i, obs in enumerate(info.observations) if obs.kind in ACTIONS]
    return [*starts, len(info.observations)]


def to_top(state: NoirState, card: str, killer: bool) -> bool:
    """Make `card` the next card of a deck (False if it is not among the undrawn ones)."""
    own = killer and state._killer_deck is not None
    deck = list(state._killer_deck if own else state._deck)
    top = state._killer_top if own else state._deck_top
    if card not in deck[top:]:
        return False
    j = deck.index(card, top)
    deck[top], deck[j] = deck[j], deck[top]
    if own:
        state._killer_deck = tuple(deck)
    else:
        state._deck = tuple(deck)
    return True


def undrawn(state: NoirState, killer: bool) -> list[str]:
    if killer and state._killer_deck is not None:
        return list(state._killer_deck[state._killer_top :])
    return list(state._deck[state._deck_top :])


def brute_force(game: Noir, info: InformationSet) -> dict[int, set[str]]:
    """For each turn-ending prefix length, the opponent identities some accepted deal gives."""
    seat, obs = info.seat, info.observations
    ends = turns(info)
    names = list(game.suspects)
    separate = game.options["deck"] == "separate"
    rows = obs[0]["rows"]
    worlds: dict[int, set[str]] = {end: set() for end in ends}
    seen: set[tuple] = set()
    named = set()
    for o in obs:  # the cards the killer's observations name as the inspector's or his own
        if o.kind in ("exonerate", "identity"):
            named.add(o["suspect"])
        elif o.kind == "citizen-arrest":
            named.add(o["agent"])
        elif o.kind == "disguise" and not o["success"]:
            named.add(o["drawn"])

    def world(state: NoirState) -> str:
        if seat == "inspector":
            return state._killer
        return state._inspector or knowledge.UNCHOSEN

    def matches(state: NoirState, start: int, end: int, logged: int) -> bool:
        """Whether what `state` logged from `logged` on, as the seat saw it, is obs[start:end]."""
        new = tuple(o for o, to in state._log[logged:] if to is None or seat in to)
        return new == obs[start:end]

    def options(state: NoirState, identity: str) -> list[str]:
        """Cards the inspector may draw next, one for all the interchangeable ones."""
        left = undrawn(state, killer=False)
        plain = [c for c in left if c not in named and c != identity]
        return [c for c in left if c in named or c == identity] + plain[:1]

    def walk(state: NoirState, turn: int, identity: str) -> None:
        key = (turn, state._killer, state._inspector, tuple(sorted(state._hand)), identity)
        if key in seen:
            return
        seen.add(key)
        worlds[ends[turn]].add(world(state))
        if turn + 1 == len(ends):
            return
        start, end = ends[turn], ends[turn + 1]
        action = game._action_of(obs[start], identity)
        for child in children(state, action, start, end, identity):
            logged = len(child._log)
            try:
                child.apply(action)
            except engines.IllegalAction:
                continue
            if matches(child, start, end, logged):
                walk(child, turn + 1, identity)

    def children(state: NoirState, action, start: int, end: int, identity: str) -> Iterator:
        following = obs[start + 1 : end]
        if isinstance(action, Disguise):
            shown = obs[start]["drawn"] if not obs[start]["success"] else None
            mine = [o["suspect"] for o in following if o.kind == "identity"]
            # The inspector does not see the killer's new card: try every one.
            cards = [shown or mine[0]] if shown or mine else undrawn(state, killer=True)
            for card in cards:
                child = state.clone()
                if to_top(child, card, killer=True):
                    yield child
        elif isinstance(action, Draw):
            drew = [o["suspect"] for o in following if o.kind == "drew"]
            for card in drew or options(state, identity):
                child = state.clone()
                if to_top(child, card, killer=False):
                    yield child
        else:
            yield state.clone()

    def start(deck: list[str], killer_deck: list[str] | None, identity: str) -> None:
        state = game.arrange(random.Random(0), rows, deck, killer_deck)
        if matches(state, 0, ends[0], 0):
            walk(state, 0, identity)

    setup = obs[: ends[0]]
    if seat == "inspector":
        mine = [o["suspect"] for o in obs if o.kind == "identity"]
        identity = mine[0] if mine else ""
        hand = list(next(o for o in setup if o.kind == "hand")["cards"])
        for first in names:
            if first in hand:
                continue
            if separate:
                rest = [n for n in names if n != first and n not in hand]
                start(hand + rest, [first, *(n for n in names if n != first)], identity)
            else:
                deck = [first, *hand, *(n for n in names if n != first and n not in hand)]
                start(deck, None, identity)
        return worlds
    first = next(o for o in setup if o.kind == "identity")["suspect"]
    pool = [n for n in names if n != first]
    for identity in pool:
        others = [c for c in pool if c != identity]
        special = [c for c in others if c in named]
        plain = [c for c in others if c not in named]
        for k in range(HAND):
            for chosen in itertools.combinations(special, HAND - 1 - k):
                if k > len(plain):
                    continue
                hand = [identity, *chosen, *plain[:k]]
                rest = [n for n in pool if n not in hand]
                if separate:
                    start(hand + rest, [first, *pool], identity)
                else:
                    start([first, *hand, *rest], None, identity)
    return worlds


# --- the positions met ------------------------------------------------------------------------
def constraint_key(model: Model) -> frozenset:
    """A model's content without the observation tags (what its answers depend on)."""

    def key(c: Count | Clause) -> tuple:
        if isinstance(c, Count):
            return ("count", frozenset(c.terms), c.op, c.bound)
        return ("clause", frozenset(c.positive), frozenset(c.negative))

    return frozenset(key(c) for c in model.constraints)


def positions() -> list[tuple[InformationSet, NoirState, set[str]]]:
    """Every information set of both seats met at the end of a turn in random games, with the
    true state and the ground truth; one per distinct (truth, model content)."""
    found, keys = [], set()
    for options, games in CONFIGS:
        game = engines.make("noir", **options)
        for seed in range(games):
            state, rng, states = game.new_game(seed), random.Random(seed), []
            while True:
                states.append(state.clone())
                if state.is_over:
                    break
                state.apply(rng.choice(state.legal_actions()))
            for seat in game.seats:
                final = state.information_set(seat)
                truth = brute_force(game, final)
                for past in states:
                    info = past.information_set(seat)
                    if len(info.observations) not in truth:
                        continue  # mid-turn (between drawing and exonerating): not a turn's end
                    model = knowledge.build(info)
                    known = frozenset(truth[len(info.observations)])
                    key = (game.name, tuple(options.items()), seat, known, constraint_key(model),
                           model.variables[0].domain)  # fmt: skip
                    if key not in keys:
                        keys.add(key)
                        found.append((info, past, set(known)))
    return found


POSITIONS = positions()


def test_positions_cover_both_roles_and_many_knowledge_states() -> None:
    seats = {info.seat for info, _, _ in POSITIONS}
    sizes = {len(truth) for _, _, truth in POSITIONS}
    separate = [i for i, _, _ in POSITIONS if dict(i.options)["deck"] == "separate"]
    assert seats == {"killer", "inspector"} and len(POSITIONS) > 1500
    assert {1, 2, 3, 4, 5} <= sizes and max(sizes) >= 10
    assert len(separate) > 500


def test_solver_equals_brute_force_on_every_position() -> None:
    mismatches = []
    for info, state, truth in POSITIONS:
        d = solver.deduce(info)
        if d.total() != len(truth):
            mismatches.append((info.seat, "total", d.total(), len(truth)))
        for fact in d.facts:
            hits = sum(fact.holds_in({fact.var: value}) for value in truth)
            answers = (d.possible(fact), d.is_certain(fact), d.probability(fact))
            expected = (hits > 0, hits == len(truth), hits / len(truth))
            if answers != expected:
                mismatches.append((info.seat, str(fact), answers, expected))
            if d.is_certain(fact):
                assert fact.holds(state), f"certain {fact} is false in the real game"
            if not d.possible(fact):
                assert not fact.holds(state)
    assert mismatches == []


def test_every_consistent_identity_completes_to_a_deal_the_engine_accepts() -> None:
    for info, _, truth in POSITIONS[::5]:
        game = info.make_game()
        for value in truth - {knowledge.UNCHOSEN}:
            game.reconstruct(info, knowledge.hidden_for(info, value))


# --- explanations and contradictions ------------------------------------------------------------
def forced(model: Model, sources: list[int], fact: solver.Fact) -> bool:
    """Whether the constraints of `sources` (and the rules) leave only worlds where `fact` holds."""
    domain = model.variables[0]
    return all(
        fact.holds_in({domain.name: v})
        for v in domain.domain
        if model.consistent({domain.name: v}, sources)
    )


def test_explanations_force_the_fact_and_are_minimal() -> None:
    explained = 0
    for info, _, _ in POSITIONS[::16]:
        d = solver.deduce(info)
        facts = d.certain() + [~f for f in d.impossible()][:3]
        for fact in facts:
            sources = d.explain_sources(fact)
            assert forced(d.model, sources, fact), f"{sources} do not force {fact}"
            for i in range(len(sources)):
                fewer = sources[:i] + sources[i + 1 :]
                assert not forced(d.model, fewer, fact), f"{sources[i]} is not needed for {fact}"
            assert d.explain(fact) == [info.observations[i] for i in sources]
            explained += 1
    assert explained > 150


def test_contradictory_observations_raise_inconsistent_with_the_minimal_conflict() -> None:
    for info, _, truth in POSITIONS[::40]:
        if info.seat != "inspector" or not truth:
            continue
        arrests = tuple(
            Observation.of("arrest", seat="inspector", suspect=name, success=False)
            for name in sorted(truth)
        )
        bad = info.extended(*arrests)
        with pytest.raises(solver.Inconsistent) as error:
            solver.deduce(bad)
        model = knowledge.build(bad)
        indices = Compiled(model).minimal_core()
        assert error.value.conflict == [bad.observations[i] for i in indices]
        everything = model.variables[0].domain
        assert not any(model.consistent({"killer": v}, indices) for v in everything)
        for i in range(len(indices)):
            fewer = indices[:i] + indices[i + 1 :]
            assert any(model.consistent({"killer": v}, fewer) for v in everything)
        assert str(error.value).startswith("these observations contradict each other: ")
