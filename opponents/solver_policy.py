"""The `solver` bot's policy: a softmax over its own valuation of every legal move.

The solver plays its best move, but as a model of a player a distribution with all its mass
there would call every other move impossible, and inference under it would rule out each world
in which someone played otherwise. So each legal move weighs `exp(-loss / TEMPERATURE)`, where
`loss` is how much worse than the solver's move the review values it (`solver.review.judging`:
the same valuation that grades a player's moves), in mistakes: the loss divided by its
grading's mistake threshold, so that every game and unit reads alike. A move the review cannot
value (a step the search weighs no alternative to) counts as `UNVALUED` mistakes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from engines import Action, InformationSet
from opponents.policy import Policy
from solver.review import judging
from solver.search import Turn, check_knobs, search_for

TEMPERATURE = 0.25
"""Mistakes per factor e: a move one mistake worse than the solver's is e^-4 (about 1.8%) as
likely, an inaccuracy (about a third of a mistake) a quarter as likely, a good move (a tenth)
two thirds as likely. A first choice, before issue 38 fits it to how players play."""

UNVALUED = 1.0
"""The loss, in mistakes, of a move the review cannot value."""


def solver_policy(
    info: InformationSet, legal: Sequence[Action], rng: random.Random, knobs: Mapping[str, object]
) -> Policy:
    """Each move's probability at `info` under the solver's valuation, its search seeded by
    `rng` and bounded by `knobs` (as `solver.advise`): the moves of `legal` and those the
    search named (an Alibi question may ask of any cards, which no list of moves holds)."""
    module = search_for(info.game)
    _, judge = judging(module)
    turn = Turn(info, legal, rng, {})
    advice = module.advise(turn, **check_knobs(info.game, module.KNOBS, dict(knobs)))
    named = [c.action for c in advice.candidates]  # Alibi's lists ask of any cards
    losses: dict[Action, float] = {}
    for action in dict.fromkeys([*legal, *named]):
        if action == advice.move:
            losses[action] = 0.0
            continue
        judged = judge(turn, advice, action)
        losses[action] = UNVALUED if judged is None else judged.loss / judged.grading.mistake
    weights = {action: math.exp(-loss / TEMPERATURE) for action, loss in losses.items()}
    total = sum(weights.values())
    return {action: weight / total for action, weight in weights.items()}
