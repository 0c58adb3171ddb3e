"""City Killer's recap: the killer's four secrets (identity, motive, allies, figurant) and the
accusation against them; the detective could know the killer and his motive."""

from __future__ import annotations

import solver
from engines import InformationSet
from engines.city_killer import DETECTIVE, CityKiller, CityKillerState
from sleuth.recap import Certainty
from solver.games.city_killer import ANSWER_KINDS


def reveal(game: CityKiller, state: CityKillerState) -> list[str]:
    identity, figurant, motive, allies = state.secrets()
    card = state.resident(identity)
    lines = [
        f"the killer was {identity} ({card.sex}, {card.age}, {card.build}, {card.height}; "
        f"group {card.group})",
        f"his motive was {motive}",
        f"his allies were the group {allies}",
        f"the figurant was {figurant or 'nobody (no figurant)'}",
    ]
    if state.accusation is not None:
        who, why = state.accusation
        right = "right" if who == identity else "wrong"
        motive_right = "right" if why == motive else "wrong"
        lines.append(f"the detective accused {who} ({right}) of {why} ({motive_right})")
    return lines


def certainty(game: CityKiller) -> Certainty:
    return Certainty(
        "the killer and his motive", _knows_killer_and_motive, monotone=True, seats=(DETECTIVE,)
    )


def _knows_killer_and_motive(info: InformationSet) -> bool:
    d = solver.deduce(info, about=lambda fact: fact.kind in ANSWER_KINDS)
    certain = {fact.kind for fact in d.facts if d.probability(fact) == 1.0}
    return certain >= ANSWER_KINDS
