"""solver.advise: the solver bot's move with the same seed, its value in words, runners-up and
the opponent's threats, in every game (the 200-position measurements are in
benchmarks/advice.py)."""

from __future__ import annotations

import random

import pytest

import engines
import opponents
import solver
from engines import ConfigError, NotToMove, State

GAMES = {
    "blue-lion": engines.make("blue-lion"),
    "noir": engines.make("noir"),
    "alibi": engines.make("alibi", deck="small", players=3),
    "city-killer": engines.make("city-killer", residents=12),
    "serial-killer": engines.make("serial-killer", players=3, genres=3, traits_per_genre=4),
}


def positions(game: engines.Game, count: int, seed: int) -> list[State]:
    """Positions of games between solver and random bots, one in every few moves."""
    rng, found = random.Random(seed), []
    state = game.new_game(seed=seed)
    bots = {s: opponents.make("random", game, s, seed=seed) for s in game.seats}
    while len(found) < count:
        if state.to_move is None:
            state = game.new_game(seed=rng.randrange(1 << 20))
            continue
        if rng.random() < 0.3:
            found.append(state.clone())
        state.apply(bots[state.to_move].act(state.information_set(state.to_move)))
    return found


@pytest.mark.parametrize("name", GAMES)
def test_the_advised_move_is_the_solver_bots_move(name: str) -> None:
    game = GAMES[name]
    for k, state in enumerate(positions(game, 6, seed=3)):
        info = state.information_set(state.to_move)
        advice = solver.advise(info, seed=k)
        assert advice.move == opponents.make("solver", game, state.to_move, seed=k).act(info)
        assert advice.move in state.legal_actions()
        assert advice.candidates[0].action == advice.move and advice.text
        assert advice.lines()[0].startswith(f"best: {advice.move} (")


def test_blue_lion_names_every_score_the_opponent_makes_next() -> None:
    game = GAMES["blue-lion"]
    scored = 0
    for k, state in enumerate(positions(game, 16, seed=5)):
        mover = state.to_move
        advice = solver.advise(state.information_set(mover), seed=k)
        child = state.clone()
        child.apply(advice.move)
        if child.to_move in (None, mover):
            continue  # the game ended, or the turn goes on (the next hint covers it)
        opponent = child.to_move
        before = child.scores[opponent]
        action = opponents.make("heuristic", game, opponent, seed=k).act(
            child.information_set(opponent)
        )
        child.apply(action)
        if child.scores[opponent] > before:
            scored += 1
            who = opponent.capitalize()
            assert any(t.startswith(f"{who} {action} scores") for t in advice.threats), (
                action,
                advice.threats,
            )
    assert scored, "no position where the opponent scored: pick another seed"


@pytest.mark.parametrize("seat", ["killer", "inspector"])
def test_noir_gives_every_candidate_a_risk(seat: str) -> None:
    game = GAMES["noir"]
    for state in positions(game, 20, seed=2):
        if state.to_move != seat:
            continue
        info = state.information_set(seat)
        advice = solver.advise(info, seed=0)
        assert {c.action for c in advice.candidates} == set(state.legal_actions())
        for candidate in advice.candidates:
            assert candidate.risk is not None and 0 <= candidate.risk <= 1
            assert ("kill" if seat == "inspector" else "arrest") in candidate.text or (
                "beside" in candidate.text
            )


def test_alibi_advises_which_cards_to_pass_and_keeps_the_odds_in_view() -> None:
    game = GAMES["alibi"]
    passes = asks = 0
    for state in positions(game, 40, seed=4):
        info = state.information_set(state.to_move)
        advice = solver.advise(info, seed=0)
        if str(advice.move).startswith("pass"):
            passes += 1
            assert "left neighbour" in advice.text and "seen" in advice.notes[0]
        elif str(advice.move).startswith("ask"):
            asks += 1
            assert "narrows the box from" in advice.text and "possibilities" in advice.text
            assert sum(note.startswith("box ") for note in advice.notes) == 4
            assert "name the box" in advice.threats[0]
    assert passes and asks


def test_advise_refuses_what_it_cannot_advise_on() -> None:
    game = GAMES["blue-lion"]
    state = game.new_game(seed=1)
    other = next(s for s in game.seats if s != state.to_move)
    with pytest.raises(NotToMove):
        solver.advise(state.information_set(other))
    with pytest.raises(ConfigError, match="no option 'depth'"):
        solver.advise(state.information_set(state.to_move), depth=3)
    with pytest.raises(ConfigError, match="seed"):
        solver.advise(state.information_set(state.to_move), seed="x")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="InformationSet"):
        solver.advise("lay t1")  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", ["detective", "killer"])
def test_city_killer_names_the_opponents_next_move(seat: str) -> None:
    """The detective is told whom the killer may kill next and what it leaves of the motives;
    the killer the detective's best accusation (right or wrong) and his best question."""
    game = GAMES["city-killer"]
    seen = 0
    for k, state in enumerate(positions(game, 30, seed=4)):
        if state.to_move != seat or state.pawn is None:
            continue
        advice = solver.advise(state.information_set(seat), seed=k)
        if seat == "detective":
            assert any(t.startswith("the killer may kill ") for t in advice.threats)
            assert all("that leaves the motives" in t for t in advice.threats)
        else:
            accusation = next(t for t in advice.threats if "best accusation" in t)
            right = (state._identity, state._motive)
            named = tuple(accusation.split(": ")[1].split(" (")[0].split())
            assert accusation.endswith("you and your motive") == (named == right)
        seen += 1
    assert seen >= 3
