"""Blue Lion's recap: every tile's two faces; the players could know every back."""

from __future__ import annotations

import solver
from engines import InformationSet
from engines.blue_lion import BlueLion, BlueLionState
from sleuth.recap import Certainty


def reveal(game: BlueLion, state: BlueLionState) -> list[str]:
    tiles = [f"{t}:{state.up[t]} (back {state.back(t)})" for t in sorted(state.up)]
    return ["the tiles: " + ", ".join(tiles)]


def certainty(game: BlueLion) -> Certainty:
    return Certainty("every tile's back", _knows_every_back, monotone=True)


def _knows_every_back(info: InformationSet) -> bool:
    d = solver.deduce(info)
    return all(d.probability(f) in (0.0, 1.0) for f in d.facts)
