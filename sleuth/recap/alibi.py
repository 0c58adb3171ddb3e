"""Alibi's recap: the box and every hand; each player could know the box."""

from __future__ import annotations

import solver
from engines import InformationSet
from engines.alibi import Alibi, AlibiState
from sleuth.recap import Certainty
from solver.games.alibi.model import IN_BOX
from solver.search.alibi import best_box


def reveal(game: Alibi, state: AlibiState) -> list[str]:
    box = ", ".join(game.deck.by_id[c].name for c in state.box())
    hands = [
        f"player {seat} held {len(state.hand(seat))}: " + ", ".join(state.hand(seat))
        for seat in range(game.players)
    ]
    return [f"the box: {box}", *hands]


def certainty(game: Alibi) -> Certainty:
    return Certainty("the box", _knows_the_box, monotone=True)


def _knows_the_box(info: InformationSet) -> bool:
    d = solver.deduce(info, about=lambda fact: fact.kind == IN_BOX)
    return best_box(info.make_game(), d)[2]  # type: ignore[arg-type]
