"""Noir's recap: both identities and the inspector's hand; each player could know the other's
identity (not for good: a disguise can make it doubtful again)."""

from __future__ import annotations

import solver
from engines import InformationSet
from engines.noir import Noir, NoirState
from engines.noir.material import KILLER
from sleuth.recap import Certainty
from solver.games.noir import chosen_at, posterior


def reveal(game: Noir, state: NoirState) -> list[str]:
    hand = ", ".join(state.inspector_hand())
    return [
        f"the killer was {state.killer()}",
        f"the inspector was {state.inspector() or '(not chosen)'}; his hand: {hand}",
    ]


def certainty(game: Noir) -> Certainty:
    return Certainty("the opponent's identity", _knows_the_opponent, monotone=False)


def _knows_the_opponent(info: InformationSet) -> bool:
    if info.seat == KILLER and chosen_at(info.observations) is None:
        return False  # the inspector has no identity yet
    return len(posterior(solver.deduce(info))) == 1
