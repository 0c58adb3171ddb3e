"""Serial Killer's `careful` bot: legal and deterministic, and following its documented rules
where they are sharp (guesses among candidates and when, its share of the draws)."""

from __future__ import annotations

import pytest

import engines
import opponents
from engines import ConfigError
from engines.serial_killer import Declare, Investigate, SerialKiller, SerialKillerState, replay
from opponents.games import serial_killer_careful as careful
from opponents.games.serial_killer_careful import CarefulBot, Notes

SMALL = SerialKiller(players=3, genres=3, traits_per_genre=4)
FULL = SerialKiller(players=4)


def games(game: SerialKiller, seeds: range, lineup: list[str]):
    """Every (seed, state, mover, information set, action) of the games; the state is the
    game's one object, the action applied to it after it is yielded."""
    for seed in seeds:
        state = game.new_game(seed)
        assert isinstance(state, SerialKillerState)
        bots = [opponents.make(name, game, s, seed=seed + s) for s, name in enumerate(lineup)]
        while not state.is_over:
            mover = state.to_move
            assert isinstance(mover, int)
            info = state.information_set(mover)
            action = bots[mover].act(info)
            yield seed, state, mover, info, action
            state.apply(action)


def final_states(game: SerialKiller, seeds: range, lineup: list[str]) -> list[str]:
    """Each game's last state, as JSON."""
    found: dict[int, SerialKillerState] = {}
    for seed, state, *_ in games(game, seeds, lineup):
        found[seed] = state
    return [state.to_json() for state in found.values()]


@pytest.mark.parametrize("game", [SMALL, FULL], ids=["3x4", "default"])
def test_careful_games_are_legal_and_the_same_for_a_seed(game: SerialKiller) -> None:
    lineup = ["careful", "heuristic", "careful", "careful"][: game.players]
    first = final_states(game, range(2), lineup)
    assert len(first) == 2 and first == final_states(game, range(2), lineup)


def test_guesses_are_candidates_made_when_the_roll_fades_or_the_rivals_have_declared() -> None:
    """Before the final round a declaration is a guess among the candidates, made only when
    the roll is fading or every rival has declared (the docstring's rule)."""
    guesses = 0
    for _, state, mover, info, action in games(FULL, range(4), ["careful"] * 4):
        if not isinstance(action, Declare):
            continue
        notes = Notes(replay(FULL, info.observations, mover), mover, info.observations)
        assert all(card in notes.candidates[card.split(".")[0]] for card in action.profile)
        if state.final_round:
            continue
        guesses += 1
        fading = notes.roll(notes.points, state.ferocity + careful.GROWTH) < careful.FADE
        alone = all(seq is not None for j, seq in enumerate(state.seq) if j != mover)
        assert fading or alone
    assert guesses


def test_the_careful_table_draws_its_share() -> None:
    """Rule 5: nobody waits for the others to draw; over three full 4-player games each seat
    draws at least a sixth of the cards (a free rider draws next to none)."""
    drawn = [0] * 4
    for _, _, mover, _, action in games(FULL, range(3), ["careful"] * 4):
        if isinstance(action, Investigate):
            drawn[mover] += 1
    assert min(drawn) >= sum(drawn) / 6, drawn


def test_careful_is_serial_killers_alone() -> None:
    with pytest.raises(ConfigError, match="no careful bot for noir; its bots: random, heur"):
        opponents.make("careful", engines.make("noir"), "killer")
    with pytest.raises(ConfigError, match="takes no options"):
        opponents.make("careful", FULL, 0, time_budget=1.0)
    assert isinstance(opponents.make("careful", FULL, 0), CarefulBot)
