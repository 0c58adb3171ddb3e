"""Information sets written out as the lines a person would type into the notebook.

Used to type a recorded game into a session (tests, benchmarks, and the transcript in the
docs), and as the reference of what the notation must read back.
"""

from __future__ import annotations

import random

from engines import Game, InformationSet, State


def typed_lines(game: Game, info: InformationSet) -> list[str]:
    """One line per observation of `info`, in its typed notation."""
    return [game.observation_text(obs) for obs in info.observations]


def random_game(game: Game, seed: int, max_moves: int = 100_000) -> State:
    """A whole game of random legal moves (the recorded games tests and benchmarks type in)."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(max_moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state
