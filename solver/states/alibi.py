"""Alibi's sampled states: the box, the deal and the passes are a world of the Deduction (exact,
or a record of its Markov chain beyond exact counting)."""

from __future__ import annotations

import random

from engines import InformationSet, State
from engines.alibi import Alibi
from engines.alibi import observations as seen
from engines.alibi.material import TYPES
from solver.deduction import Deduction
from solver.games.alibi.model import BOX, at_var, box_var
from solver.games.alibi.position import parse


def sample(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    """The box, the dealt hands and every completed pass from a world of the Deduction;
    the pending choices of others (a pass chosen this round, a written solution) uniform
    among the legal ones, as the prior treats them."""
    game = Alibi.of(info)
    pos, n = parse(info), game.players
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    ids = pos.ids

    def at(card: str, epoch: int) -> object:
        return world.get(at_var(card, epoch))

    hands = [[card for card in ids if at(card, 0) == seat] for seat in range(n)]
    box = [str(world[box_var(kind)]) for kind in TYPES]
    assert all(at(card, 0) == BOX for card in box)
    passes: list[list[list[str]]] = []
    for epoch in range(1, pos.epoch + 1):
        passes.append(
            [
                [c for c in ids if at(c, epoch - 1) == s and at(c, epoch) == (s + 1) % n]
                for s in range(n)
            ]
        )
    now = [
        sorted(c for c in ids if at(c, pos.epoch) == s and int(pos.index[c]) not in pos.laid_by)
        for s in range(n)
    ]
    pending: list[list[str]] = [[] for _ in range(n)]
    solutions: dict[str, list[str]] = {
        str(obs.seat): list(obs.cards)
        for obs in info.observations
        if isinstance(obs, seen.SolutionShown)
    }  # revealed at the end
    for obs in info.observations:
        match obs:
            case seen.PassChosenCards():
                pass  # the seat's own choice: `reconstruct` replays its cards
            case seen.PassChosen(seat=seat, count=count):
                hand = now[seat]
                pending[seat] = sorted(rng.sample(hand, min(count, len(hand))))
            case seen.SolutionWritten(seat=seat) if str(seat) not in solutions:
                solutions[str(seat)] = [rng.choice(game.deck.of_type(k)) for k in TYPES]
    if any(pending):
        passes.append(pending)
    hidden = {"box": box, "hands": hands, "passes": passes, "solutions": solutions}
    return game.reconstruct(info, hidden)
