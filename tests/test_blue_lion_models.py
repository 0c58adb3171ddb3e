"""Blue Lion under an opponent model (`solver.deduce(info, model=...)`): the hints, the search
and the solver bot weigh each consistent world as the modelled deduction does.

Both seats see the whole record in Blue Lion, so what the opponent chose says nothing of the
backs: every real model weighs every world alike, and its odds are the counting's. That is
checked against a brute-force sum over the listed states; a stand-in likelihood that does
tell the worlds apart then shows that the weights reach the hints and the search.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterator

import pytest

import engines
import opponents
import solver
from engines import Action, ConfigError, InformationSet, State
from engines.blue_lion import PAIRS, PATTERNS, TILES, BlueLionState
from engines.blue_lion import observations as seen
from solver.games.blue_lion import outcomes, position
from solver.opponent_models import ModelledWorlds, OpponentModel, model_names
from solver.states import listed_states
from solver.wording import percent

GAME = engines.make("blue-lion")
MODELS = ("random", "heuristic")
SMALL = [(2, 3), (2, 7), (5, 3), (5, 7), (7, 5)]
"""(seed, moves) of `random_game` positions with 2-12 worlds where a blind flip may score."""

LogWeight = Callable[[State], float]


def _info(seed: int, moves: int, to_move: bool = True) -> InformationSet:
    state = GAME.random_game(seed=seed, moves=moves)
    seat = state.to_move if to_move else next(s for s in GAME.seats if s != state.to_move)
    return state.information_set(seat)


def _model_weight(model: str, info: InformationSet) -> LogWeight:
    return OpponentModel(model, info).log_likelihood


def _stand_in(state: State) -> float:
    """A likelihood that tells the worlds apart (no real model does here): it favours some
    pairs on some tiles."""
    assert isinstance(state, BlueLionState)
    pairs = state.pairs()
    return sum(0.4 * (k + 1) * PAIRS.index(pairs[tile]) for k, tile in enumerate(TILES))


@pytest.fixture
def stand_in_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The model "random" with the stand-in likelihood, on a solver that remembers nothing
    from before or after (its deductions are kept by model name)."""
    solver.forget()
    monkeypatch.setattr(OpponentModel, "log_likelihood", lambda self, state: _stand_in(state))
    yield "random"
    solver.forget()


class Brute:
    """The chances of `info` summed directly over its listed states, each weighed by
    exp(`log_weight`)."""

    def __init__(self, info: InformationSet, log_weight: LogWeight) -> None:
        listed = listed_states(info) or []
        self.states = [state for state in listed if isinstance(state, BlueLionState)]
        assert self.states and len(self.states) == len(listed)
        logs = [log_weight(state) for state in self.states]
        top = max(logs)
        self.weights = [math.exp(w - top) for w in logs]
        self.total = math.fsum(self.weights)

    def back(self, tile: str, pair: frozenset[str]) -> float:
        """The chance that `tile` carries `pair`."""
        drawn = zip(self.weights, self.states, strict=True)
        return math.fsum(w for w, state in drawn if state.pairs()[tile] == pair) / self.total

    def effects(self, action: Action) -> tuple[dict[str, float], float]:
        """Each score `action` may make, as the hints say it, with its chance; and the
        expected net points for the seat to move."""
        made: dict[str, float] = defaultdict(float)
        expected = 0.0
        for weight, state in zip(self.weights, self.states, strict=True):
            child = state.clone()
            child.apply(action)
            for seat, points in child.scores.items():
                sign = 1 if seat == state.to_move else -1
                expected += weight * sign * (points - state.scores[seat]) / self.total
            for obs, _to in child.recorded(state.observation_count):
                if isinstance(obs, seen.Score):
                    pattern = PATTERNS[obs.faces]
                    made[f"{pattern.name} ({obs.seat.capitalize()} +{pattern.points})"] += weight
        return {text: weight / self.total for text, weight in made.items()}, expected


def _assert_hints_match(info: InformationSet, model: str, brute: Brute) -> bool:
    """The hints under `model` give `brute`'s chances (each blind flip's outcomes, each back,
    each score a move may make); whether some chance differs from the counting's."""
    deduction = solver.deduce(info, model=model)
    counting = Brute(info, lambda state: 0.0)
    moved = False
    state, worlds = position(info, deduction)
    for action in state.legal_actions():
        tile = getattr(action, "flipped_tile", None)
        if tile is None:
            continue
        for chance, _child, group in outcomes(state, worlds, action):
            pair = group[0][tile]
            assert chance == pytest.approx(brute.back(tile, pair), abs=1e-9)
            moved |= abs(chance - counting.back(tile, pair)) > 1e-6
    for fact in deduction.facts:
        tile, icon = fact.args
        pair = frozenset((state.up[str(tile)], str(icon)))
        assert deduction.probability(fact) == pytest.approx(brute.back(str(tile), pair), abs=1e-9)
    names = {str(a): a for a in state.legal_actions()}
    for hint in solver.hints(info, search=False, model=model):
        if hint.kind not in ("move", "danger", "risk"):
            continue
        found = re.search(r"(?:^|: |careful: )([a-z0-9 ]+?) (?:scores for|risks) ", hint.text)
        assert found is not None and found.group(1) in names, hint.text
        made, expected = brute.effects(names[found.group(1)])
        assert f"expected {expected:+.2f} net" in hint.text
        assert all(f"{text} {percent(p)}" in hint.text for text, p in made.items()), hint.text
    return moved


# --- (a) counting: today's hints and moves ---------------------------------------------------
TODAY_HINTS = {
    (1, 3): [
        "Play lay t3 left flip: gains +0.25: lead +0.25 expected after 3 moves (now +0)",
        "t1's back is the Blue Lion: 50% (else Lupin 25%, Fujiko 25%)",
        "t4's back is Zenigata: 50% (else Lupin 25%, Fujiko 25%)",
        "t2's back is Zenigata: 38% (else the Blue Lion 38%, Lupin 25%)",
        "t3's back is Zenigata: 38% (else the Blue Lion 38%, Fujiko 25%)",
        "t5's back is Zenigata: 38% (else the Blue Lion 38%, Lupin 25%)",
        "t6's back is Zenigata: 38% (else the Blue Lion 38%, Fujiko 25%)",
    ],
    (5, 7): [
        "Play flip t1: gains +1.00: lead +1.00 expected after 3 moves (now +0)",
        "flip t1 scores for you: Fujiko steals a diamond (Fujiko +2) 50%; expected +1.00 net",
        "t1's back is Fujiko: 50% (else Zenigata 50%)",
        "t3's back is Fujiko: 50% (else Zenigata 50%)",
        "careful: flip t3 risks Fujiko is interrogated (Lupin +1) 50%; expected -0.50 net for you",
    ],
}
"""The hints of the seat to move, as they were before the hints read a model."""
TODAY_MOVES = {
    (1, 3): "lay t3 left flip",
    (2, 6): "flip t4",
    (5, 10): "flip t3",
    (7, 16): "flip t6",
}
"""The solver bot's move (seed 3) at the seat to move, as it was before it took a model."""


@pytest.mark.parametrize(("seed", "moves"), list(TODAY_HINTS))
def test_counting_hints_are_todays(seed: int, moves: int) -> None:
    info = _info(seed, moves)
    assert [h.text for h in solver.hints(info)] == TODAY_HINTS[seed, moves]
    assert [h.text for h in solver.hints(info, model="counting")] == TODAY_HINTS[seed, moves]


def test_counting_solver_moves_are_todays() -> None:
    for (seed, moves), move in TODAY_MOVES.items():
        info = _info(seed, moves)
        for options in ({}, {"model": "counting"}):
            bot = opponents.make("solver", GAME, info.seat, seed=3, **options)
            assert str(bot.act(info)) == move


# --- (b) the chances under a model, against a brute-force sum --------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_a_model_reads_the_brute_force_odds(model: str) -> None:
    """Hints and search chances under a real model are the brute-force weighted sums: every
    world weighs the same, since the opponent saw nothing the reader did not."""
    for seed, moves in SMALL:
        for to_move in (True, False):
            info = _info(seed, moves, to_move)
            brute = Brute(info, _model_weight(model, info))
            assert len(set(brute.weights)) == 1
            assert not _assert_hints_match(info, model, brute)


def test_weights_that_tell_worlds_apart_reach_the_hints(stand_in_model: str) -> None:
    """Where the weights differ, the hints' chances are their brute-force sums, and some
    blind flip's chance is not the counting's."""
    moved = []
    for seed, moves in SMALL:
        info = _info(seed, moves)
        weighed = solver.deduce(info, model=stand_in_model).worlds
        assert isinstance(weighed, ModelledWorlds) and len(set(weighed.ratios)) > 1
        moved.append(_assert_hints_match(info, stand_in_model, Brute(info, _stand_in)))
    assert any(moved)


def test_weights_that_tell_worlds_apart_reach_the_search(stand_in_model: str) -> None:
    """One move deep, the search's value of a blind flip is the weighted lead after it."""
    checked = 0
    for seed, moves in SMALL:
        info = _info(seed, moves)
        brute = Brute(info, _stand_in)
        advice = solver.advise(info, seed=0, max_depth=1, model=stand_in_model)
        for candidate in advice.candidates:
            if getattr(candidate.action, "flipped_tile", None) is None:
                continue
            leads = []
            for state in brute.states:
                child = state.clone()
                child.apply(candidate.action)
                if child.is_over or child.main_done:
                    break
                mine = child.scores[str(info.seat)]
                leads.append(2 * mine - sum(child.scores.values()))
            else:
                value = math.fsum(w * v for w, v in zip(brute.weights, leads, strict=True))
                assert candidate.value == pytest.approx(value / brute.total, abs=1e-9)
                checked += 1
    assert checked


# --- (c) the bot under a model ----------------------------------------------------------------
@pytest.mark.parametrize("model", MODELS)
def test_the_solver_under_a_model_is_legal_and_seeded(model: str) -> None:
    for seed, moves in [(1, 3), (5, 7)]:
        state = GAME.random_game(seed=seed, moves=moves)
        info = state.information_set(state.to_move)
        made = [
            opponents.make("solver", GAME, state.to_move, seed=7, model=model).act(info)
            for _ in range(2)
        ]
        assert made[0] == made[1] and made[0] in state.legal_actions()
        assert solver.advise(info, seed=7, model=model).move == made[0]


# --- (d) refusals ------------------------------------------------------------------------------
def test_an_unknown_model_is_refused_naming_the_models() -> None:
    info = _info(1, 3)
    allowed = model_names("blue-lion")
    attempts: list[Callable[[], object]] = [
        lambda: opponents.make("solver", GAME, info.seat, seed=1, model="psychic"),
        lambda: solver.advise(info, model="psychic"),
        lambda: solver.hints(info, model="psychic"),
    ]
    for attempt in attempts:
        with pytest.raises(ConfigError, match="unknown opponent model 'psychic'") as raised:
            attempt()
        assert all(name in str(raised.value) for name in allowed)
