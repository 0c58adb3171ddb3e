"""City Killer bots for both roles.

`heuristic` plays a sensible plan without deduction: the detective walks to crowded districts,
asks looks questions in a fixed order and accuses the resident who fits most answers taken as
honest (with the motive most murders fit); the killer intimidates and kills legal victims at
random and lies at random when he may.

`solver` is the search of solver.search.city_killer (the one `solver.advise` explains), read
off the exact posterior: the detective chooses questions, surveillance and moves by expected
information gain about (K, M) in bits and accuses the argmax of P(K, M); the killer chooses
victims, intimidations, lies and counters that keep the detective's posterior on his true
(identity, motive) low.

Both read only their information set (the engine's view of it lists the legal moves). Work
is bounded by the position (questions x residents, districts in reach), so a bot is
deterministic for its seed; `time_budget` (seconds, off by default) is only a ceiling checked
between candidates, and the one source of non-determinism when set.
"""

from __future__ import annotations

import random

from engines import Action, InformationSet, Seat
from engines.city_killer import DETECTIVE, KILLER, CityKiller, CityKillerState
from engines.city_killer import actions as act
from engines.city_killer.material import MOTIVES, District, distance
from engines.city_killer.observations import CitySetup
from opponents.base import BotKind, SearchingBot, SeatedBot
from solver import Hint
from solver.games.city_killer import record
from solver.opponent_models import COUNTING, check_reader
from solver.search import check_knobs
from solver.search.city_killer import KNOBS, Decisions, choose

LOOKS_ORDER = (
    ("sex", "male"),
    ("age", "young"),
    ("age", "old"),
    ("build", "slim"),
    ("build", "heavy"),
    ("height", "short"),
    ("height", "tall"),
)
"""The heuristic detective's questions, in the order he asks them."""


class CityKillerBot(SeatedBot, Decisions):
    """The shared frame dispatch (solver.search.city_killer.Decisions)."""

    game: CityKiller

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        return self.decide(info, legal)


# --- the heuristic detective -------------------------------------------------------------------
class HeuristicDetective(CityKillerBot):
    def _on_start(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return act.Placed("start", (2, 2))

    def _on_detective(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        if act.Verb("interrogate") in legal:
            return act.Verb("interrogate")
        diner = [a for a in self._pick(legal, act.Ask) if a.verb == "diner"]
        if diner:
            return min(diner, key=lambda a: self._order(info, a))
        target = crowded(state)
        steps = self._pick(legal, act.Placed)
        if target is not None and steps and state.pawn != target:
            best = min(steps, key=lambda a: distance(a.district, target, state.adjacency))
            if distance(best.district, target, state.adjacency) < distance(
                state.pawn or target, target, state.adjacency
            ):
                return best
        return act.Verb("end")

    def _order(self, info: InformationSet, ask: act.Ask) -> tuple[int, int, str]:
        """Questions asked least so far first, in the fixed order; never one twice to a
        resident."""
        answers = record(info).answers
        if any((r, a, v) == (ask.name, ask.attr, ask.value) for _, r, a, v, _ in answers):
            return (len(answers) + 1, 0, ask.name)
        question = (ask.attr, ask.value)
        rank = LOOKS_ORDER.index(question) if question in LOOKS_ORDER else len(LOOKS_ORDER)
        asked = sum((a, v) == question for _, _, a, v, _ in answers)
        return (asked, rank, ask.name)

    def _on_interrogation(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        asks = [a for a in self._pick(legal, act.Ask) if (a.attr, a.value) in LOOKS_ORDER]
        if not asks:
            return act.Verb("done")
        return min(asks, key=lambda a: self._order(info, a))

    def _on_testimony(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return min(self._pick(legal, act.Ask), key=lambda a: self._order(info, a))

    def _on_hand(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        return self._pick(legal, act.Discard)[-1]

    def _on_accuse(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        rec = record(info)
        living = state.living

        def fitted(name: str) -> int:
            return sum(
                (state.resident(name).attribute(attr) == value) == answer
                for _, r, attr, value, answer in rec.answers
                if r != name
            )

        cleared = {name for _, name, _, _, answer in rec.watches if answer}
        suspects = [n for n in living if n not in cleared] or living
        best = max(fitted(n) for n in suspects)
        who = self.rng.choice([n for n in suspects if fitted(n) == best])
        ruled = {named for _, named in rec.profiles}
        counts = {m: sum(m in fit for _, _, fit in rec.murders) for m in MOTIVES if m not in ruled}
        top = max(counts.values())
        motive = self.rng.choice([m for m in counts if counts[m] == top])
        return act.Accuse(who, motive)


def crowded(state: CityKillerState) -> District | None:
    """The district with the most questionable residents (nearest first on ties)."""
    if state.pawn is None:
        return None
    counts: dict[District, int] = {}
    for name in state.living:
        if state.questionable(name):
            counts[state.pos[name]] = counts.get(state.pos[name], 0) + 1
    if not counts:
        return None
    pawn = state.pawn
    return max(counts, key=lambda d: (counts[d], -distance(pawn, d, state.adjacency), d))


# --- the heuristic killer ------------------------------------------------------------------------
class HeuristicKiller(CityKillerBot):
    def _on_killer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        named = [a for a in self._pick(legal, act.Named) if a.verb in ("intimidate", "murder")]
        return self.rng.choice(named) if named else act.Verb("refuse")

    def _on_answer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return self.rng.choice(self._pick(legal, act.Answer))

    def _on_keep(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


# --- the solver bots -----------------------------------------------------------------------------
class SolverBot(SearchingBot):
    """The solver's move (solver.search.city_killer), which `solver.advise` explains. `model`
    reads the detective's odds under a model of the killer ("random" or a bot's name:
    `solver.deduce(info, model=...)`), seconds a move; "counting" (the default) reads every
    consistent world as the record weighs it. The killer's seat takes no model."""

    game: CityKiller
    OPTIONS = tuple(KNOBS)

    def __init__(
        self,
        game: CityKiller,
        seat: Seat,
        rng: random.Random,
        time_budget: float | None = None,
        model: str = COUNTING,
    ) -> None:
        super().__init__(game, seat, rng, time_budget)
        check_knobs(game.name, KNOBS, {"time_budget": time_budget, "model": model})
        if model != COUNTING:
            check_reader(game.name, seat)
        self.model = model
        """How the detective's odds read the killer's choices."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        return choose(info, legal, self.rng, self.time_budget, self.game, self.model)[0]


BOTS: dict[str, BotKind] = {
    "heuristic": {KILLER: HeuristicKiller, DETECTIVE: HeuristicDetective},
    "solver": SolverBot,
}


def notepad(info: InformationSet) -> list[Hint]:
    """What pen and paper cross off: the dead, the residents surveillance cleared ("yes": he
    could be killed, so he is not the killer), and the motives a murder's victim does not fit."""
    if not info.observations or not isinstance(info.observations[0], CitySetup):
        return []
    rec = record(info)
    found = []
    cleared = {name for _, name in rec.dead}
    cleared |= {name for _, name, blocked, _, answer in rec.watches if answer}
    dead = sorted(name for _, name in rec.dead)
    watched = sorted(cleared - set(dead))
    crossed = [f"{', '.join(dead)} (dead)"] if dead else []
    crossed += [f"{', '.join(watched)} (surveillance said he could be killed)"] if watched else []
    if crossed:
        found.append(Hint(f"Not the killer: {'; '.join(crossed)}", None, None, (), "notepad", 1.0))
    motives = set(MOTIVES)
    for _, _, fit in rec.murders:
        motives &= fit
    motives -= {named for _, named in rec.profiles}
    found.append(
        Hint(
            f"Motives still open: {', '.join(m for m in MOTIVES if m in motives)}",
            None,
            None,
            (),
            "summary",
            1.2,
        )
    )
    return found
