"""Hints: a Deduction turned into ranked sentences a person can act on, with their reasons.

Hints are ranked by what a player needs now, section by section (SECTIONS): the hidden answer
once it is certain, with the plan towards winning with it; what the last entry changed (told
by `solver.changes`, which needs the deduction before it); what to do; the other certain facts
and the odds; the notepad's crossings-off. Within a section, the game's own score decides.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import engines
from engines import ConfigError, InformationSet, Seat, game_module
from solver.deduction import deduce
from solver.games import knowledge_for
from solver.model import Fact
from solver.opponent_models import COUNTING, check_model, check_reader
from solver.validation import validate
from solver.wording import percent as percent
from solver.wording import plural as plural

if TYPE_CHECKING:
    from solver.deduction import Deduction


@dataclass(frozen=True)
class Hint:
    """One hint: a line a player can act on. `because` holds the reasons in words (often
    observations)."""

    text: str
    fact: Fact | None = None
    probability: float | None = None
    because: tuple[str, ...] = ()
    kind: str = "deduction"
    score: float = 0.0  # rank within its section: higher first
    fold: tuple[str, str] | None = None
    """(heading, item) of a hint shown folded with the others of its heading on one line
    ("Not the killer (dead): Emil, Uma"): the notepad's crossings; see `folded`."""

    def __str__(self) -> str:
        if not self.because:
            return self.text
        return f"{self.text} (because {'; '.join(self.because)})"


@dataclass(frozen=True)
class Answer:
    """A game's hidden answer for a seat (the box, the killer, the backs, the profile), told
    by its knowledge module's `answer(info, deduction)` once it is certain: the hint that says
    so (kind "answer"), and the plan towards winning with it, when the game knows one."""

    hint: Hint
    plan: str | None = None


SECTIONS: dict[str, int] = {
    "answer": 0,
    "new": 1,
    "shift": 1,
    "move": 2,
    "question": 2,
    "suggestion": 2,
    "danger": 3,
    "likely": 3,
    "risk": 3,
    "where": 3,
    "certain": 3,
    "deduction": 3,
    "notepad": 5,
    "summary": 5,
}
"""The order hints are shown in, by kind: the certain answer, what changed, what to do, the
certain facts and the odds (by score: certainties score higher), the notepad. A kind not
listed ranks with the certain facts."""


PLANS = ("move", "suggestion")
"""The kinds of a search's own hints (the move its bot makes at the seat's turn) that stand
as the plan of a certain answer whose game names none."""


def ranked(found: list[Hint]) -> list[Hint]:
    """`found` in the order a player needs them: by section, then by score."""
    return sorted(found, key=lambda h: (SECTIONS.get(h.kind, SECTIONS["certain"]), -h.score))


def reads_models(game: str) -> bool:
    """Whether `game`'s hints read the odds of any deduction, counted or weighed by an
    opponent model (its knowledge module's MODEL_HINTS)."""
    return bool(getattr(knowledge_for(game), "MODEL_HINTS", False))


def model_readers() -> list[str]:
    """The games whose hints read an opponent model's odds (`reads_models`)."""
    return [name for name in engines.names() if reads_models(name)]


def check_hint_model(game: str, model: object, seat: Seat | None = None) -> str:
    """`model`, once the hints of `game` (for `seat`, if given) can read their odds under it.

    Raises:
        ConfigError: an unknown model (the message lists them); a model for a game whose hints
            read the counting odds only (the message names the games that read one), or for a
            seat whose odds are another seat's view (City Killer's killer).
    """
    check_model(game, model)
    assert isinstance(model, str)  # check_model refuses anything else
    if model != COUNTING and not reads_models(game):
        raise ConfigError(
            f"{game}: its hints read the counting odds only, and these weigh the worlds by an "
            f"opponent model; games whose hints read a model: {', '.join(model_readers())}"
        )
    if model != COUNTING and seat is not None:
        check_reader(game, seat)
    return model


def hints(
    info: InformationSet,
    deduction: Deduction | None = None,
    limit: int | None = None,
    plans: bool = True,
    search: bool = True,
    model: str = COUNTING,
) -> list[Hint]:
    """Ranked hints for the seat of `info`: the answer once certain, what to do, the odds,
    what is certain and why. With `plans`, a certain answer's hint also says the plan
    towards winning with it (the move that wins, or the way to it). With `search`, the
    game's search adds the move its bot makes there (seed 0, as `solver.advise`); without
    it, the hints are what the seat knows (what `sleuth demo` shows beside another seed's
    move). `model` reads the odds under a model of the other players (`deduce(info,
    model=...)`; a given `deduction` carries its own), for the games whose hints read any
    deduction's odds (MODEL_HINTS: every game but Alibi).

    Raises:
        ConfigError: an unknown model; or odds under a model for a game whose hints read
            the counting odds only (the message names the games that read a model).
        InvalidInformationSet: `info` is not an information set its game could produce.
        Inconsistent: the observations contradict each other.
        SolverTimeout: CP-SAT reached a time limit (a safety ceiling).
    """
    if deduction is None:
        found = deduce(info, model=model)  # validates
    else:
        found = deduction
        validate(info)
    check_hint_model(info.game, found.opponent_model, info.seat)
    knowledge = knowledge_for(info.game)
    found_hints = knowledge.hints(info, found)
    game_search = game_module(info.game, "solver.search")
    searched = getattr(game_search, "hints", None)  # a search may add the move its bot makes
    moves = [] if searched is None or not search else searched(info)
    found_hints = [*found_hints, *moves]
    told = answer(info, found)
    if told is not None:
        said = certainty(told.hint)
        found_hints = [h for h in found_hints if said is None or certainty(h) != said]
        hint = told.hint
        searched_plan = next((h for h in moves if h.kind in PLANS), None)
        plan = told.plan or (searched_plan and searched_plan.text)
        if plans and plan is not None:
            hint = replace(hint, text=f"{hint.text}. {plan}")
            if not told.plan and searched_plan is not None:  # told as the plan, not twice
                hint = replace(hint, because=hint.because + searched_plan.because)
                found_hints = [h for h in found_hints if h is not searched_plan]
        found_hints.append(hint)
    result = ranked(found_hints)
    return result if limit is None else result[:limit]


def folded(found: Sequence[Hint]) -> list[Hint]:
    """`found` with the hints that share a `fold` heading told on one line, where the first
    of them stood: "heading: item, item" (items joined by "; " when one has a comma), with
    all their reasons. A heading with one hint keeps that hint as it is (its fact, for
    `why`)."""
    groups: dict[str, list[Hint]] = defaultdict(list)
    for hint in found:
        if hint.fold is not None:
            groups[hint.fold[0]].append(hint)
    result = []
    for hint in found:
        if hint.fold is None or len(groups[hint.fold[0]]) == 1:
            result.append(hint)
            continue
        group = groups[hint.fold[0]]
        if hint is not group[0]:
            continue
        items = [h.fold[1] for h in group if h.fold is not None]
        joined = ("; " if any("," in item for item in items) else ", ").join(items)
        chances = {h.probability for h in group}
        because = tuple(dict.fromkeys(reason for h in group for reason in h.because))
        result.append(Hint(f"{hint.fold[0]}: {joined}", None, chances.pop() if len(chances) == 1
                           else None, because, hint.kind, max(h.score for h in group)))  # fmt: skip
    return result


def answer(info: InformationSet, deduction: Deduction) -> Answer | None:
    """The seat's hidden answer once it is certain (None while it is not, or for a seat whose
    game hides no answer from it), as the game's knowledge module tells it."""
    telling = getattr(knowledge_for(info.game), "answer", None)
    return None if telling is None else telling(info, deduction)


def certainty(hint: Hint) -> Fact | None:
    """The fact a hint says is true for certain (its fact, or the negation of a fact it rules
    out), so that one fact is told once; None for a hint that is not a certainty."""
    if hint.fact is None or hint.probability not in (0.0, 1.0):
        return None
    return hint.fact if hint.probability == 1.0 else ~hint.fact
