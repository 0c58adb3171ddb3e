"""Bots' policies (`SeatedBot.policy`, opponents/policy.py): exact distributions of the moves
the rule-based bots play, enumerated over their random choices."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

import engines
import opponents
from engines import Action, InformationSet
from opponents import policy as policies
from opponents.policy import Guess, UnenumerableBot, coin, enumerate_policy

GAMES = ("alibi", "blue-lion", "city-killer", "noir", "serial-killer")
RULE_BOTS = ("random", "heuristic", "careful")


def kinds(game: str) -> list[str]:
    return [kind for kind in RULE_BOTS if kind != "careful" or game == "serial-killer"]


def test_branches_multiply_and_add_up_to_exact_probabilities() -> None:
    def move(rng: random.Random) -> tuple[str, bool]:
        letter = rng.choice("abc")
        return (letter, coin(rng, 0.25) if letter != "c" else False)

    expected = {("a", True): 1, ("a", False): 3, ("b", True): 1, ("b", False): 3, ("c", False): 4}
    assert enumerate_policy(move) == pytest.approx({k: n / 12 for k, n in expected.items()})


def test_a_guess_counts_every_combination_of_its_picks() -> None:
    guess = Guess((("x", "y"), ("p", "q", "r")), lambda picks: "".join(picks))
    found = enumerate_policy(lambda rng: guess if coin(rng, 0.5) else "skip")
    assert found["skip"] == pytest.approx(0.5)
    assert {k: Fraction(v).limit_denominator(100) for k, v in found.items() if k != "skip"} == {
        x + p: Fraction(1, 12) for x in "xy" for p in "pqr"
    }
    assert guess.draw(random.Random(0)) in found


def test_randomness_the_script_cannot_branch_on_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(UnenumerableBot, match=r"random\(\)"):
        enumerate_policy(lambda rng: "a" if rng.random() < 0.5 else "b")
    with pytest.raises(UnenumerableBot, match="randrange"):
        enumerate_policy(lambda rng: rng.sample(["a", "b"], 1)[0])
    monkeypatch.setattr(policies, "MAX_BRANCHES", 10)
    with pytest.raises(UnenumerableBot, match="more than 10"):
        enumerate_policy(lambda rng: rng.choice(range(11)))


def decisions(game: engines.Game, kind: str, seed: int, limit: int) -> list[InformationSet]:
    """The information set of each decision of a game `kind` bots play (at most `limit`)."""
    bots = {s: opponents.make(kind, game, s, seed=seed + k) for k, s in enumerate(game.seats)}
    state, found = game.new_game(seed=seed), []
    while (mover := state.to_move) is not None and len(found) < limit:
        info = state.information_set(mover)
        found.append(info)
        state.apply(bots[mover].act(info))
    return found


@pytest.mark.parametrize("name", GAMES)
def test_a_rule_bot_plays_only_what_its_policy_allows(name: str) -> None:
    """Along a game of each rule-based bot: the policy is a distribution over legal actions,
    the same on every call, drawing nothing from the bot's own RNG; the bot's move, whatever
    its seed, is in it."""
    game = engines.make(name)
    for kind in kinds(name):
        for info in decisions(game, kind, seed=11, limit=60)[::3]:
            bot = opponents.make(kind, game, info.seat, seed=5)
            found = bot.policy(info)
            legal = set(game.legal_actions_for(info))
            assert set(found) <= legal and all(p > 0 for p in found.values())
            assert sum(found.values()) == pytest.approx(1.0)
            assert bot.policy(info) == found
            assert bot.act(info) == opponents.make(kind, game, info.seat, seed=5).act(info)
            for seed in range(4):
                assert opponents.make(kind, game, info.seat, seed=seed).act(info) in found


@pytest.mark.parametrize("name", GAMES)
def test_a_rule_bot_moves_as_often_as_its_policy_says(name: str) -> None:
    """At positions where the heuristic has a real choice, 300 seeds' moves fit the policy
    (chi-square, generous bound: a wrong enumeration is off by far more)."""
    game = engines.make(name)
    tested = 0
    for info in decisions(game, "heuristic", seed=21, limit=150):
        found = opponents.make("heuristic", game, info.seat, seed=0).policy(info)
        if not 2 <= len(found) <= 8 or min(found.values()) < 0.05:
            continue
        counts: dict[Action, int] = dict.fromkeys(found, 0)
        draws = 300
        for seed in range(draws):
            counts[opponents.make("heuristic", game, info.seat, seed=seed).act(info)] += 1
        dof = len(found) - 1
        chi = sum((counts[a] - draws * p) ** 2 / (draws * p) for a, p in found.items())
        assert chi < dof + 6 * (2 * dof) ** 0.5, (info.seat, found, counts)
        tested += 1
        if tested == 3:
            break
    assert tested >= 1, f"no position of {name} where the heuristic has a real choice"


@pytest.mark.parametrize("name", GAMES)
def test_the_solver_policy_is_a_softmax_peaked_on_its_own_move(name: str) -> None:
    """The solver bot's policy gives every listed legal move a chance, its own move the
    largest, the same on every call and to every bot of its seed, without touching the RNG
    its moves draw from; the odds of two moves are e to the difference of their losses (in
    mistakes, as the review values them) over the temperature."""
    game = engines.make(name)
    infos = [i for i in decisions(game, "heuristic", seed=31, limit=40)[5:]
             if len(game.legal_actions_for(i)) > 1][:2]  # fmt: skip
    assert infos
    for info in infos:
        bot = opponents.make("solver", game, info.seat, seed=3)
        found = bot.policy(info)
        assert set(game.legal_actions_for(info)) <= set(found)
        assert sum(found.values()) == pytest.approx(1.0) and min(found.values()) > 0
        own = opponents.make("solver", game, info.seat, seed=3).act(info)
        assert found[own] == max(found.values())
        assert bot.act(info) == own and bot.policy(info) == found
        assert opponents.make("solver", game, info.seat, seed=3).policy(info) == found
        _check_odds(info, found, own)


def _check_odds(info: InformationSet, found: dict[Action, float], own: Action) -> None:
    """p(a) / p(own) == exp(-loss(a) / TEMPERATURE), the loss valued again on the bot's seed
    (3) as the review values it."""
    from opponents.solver_policy import TEMPERATURE, UNVALUED
    from solver.review import judging
    from solver.search import Turn, check_knobs, search_for

    module = search_for(info.game)
    _, judge = judging(module)
    turn = Turn(info, info.make_game().legal_actions_for(info), random.Random(3), {})
    advice = module.advise(turn, **check_knobs(info.game, module.KNOBS, {}))
    for action in list(found)[:5]:
        if action == own:
            continue
        judged = judge(turn, advice, action)
        loss = UNVALUED if judged is None else judged.loss / judged.grading.mistake
        assert found[action] / found[own] == pytest.approx(math.exp(-loss / TEMPERATURE))


def test_the_ismcts_bot_says_it_gives_no_policy() -> None:
    game = engines.make("noir", grid=3)
    state = game.new_game(seed=1)
    bot = opponents.make("ismcts", game, state.to_move, seed=0)
    with pytest.raises(UnenumerableBot, match="ismcts bot gives no policy"):
        bot.policy(state.information_set(state.to_move))
