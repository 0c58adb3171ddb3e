"""Information sets written out as the lines a person would type into the notebook.

Used to type a recorded game into a session (tests, benchmarks, and the transcript in the
docs), and as the reference of what the notation must read back.
"""

from __future__ import annotations

import opponents
from engines import Game, IncompleteInformationSet, InformationSet, Seat
from solver.validation import validate


def typed_lines(game: Game, info: InformationSet) -> list[str]:
    """One line per observation of `info`, in its typed notation."""
    return [game.observation_text(obs) for obs in info.observations]


def seat_positions(game: Game, seat: Seat, seed: int, bot_seed: int) -> list[InformationSet]:
    """`seat`'s information set after every move of a game of `random` bots (the k-th seat's
    seeded `bot_seed + k`): the positions tests and benchmarks read hints at. A record cut
    inside a move (City Killer's question before its answer) is no entry's end: skipped."""
    state = game.new_game(seed=seed)
    bots = {
        s: opponents.make("random", game, s, seed=bot_seed + k) for k, s in enumerate(game.seats)
    }
    found = []
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
        info = state.information_set(seat)
        try:
            validate(info)
        except IncompleteInformationSet:
            continue
        found.append(info)
    return found
