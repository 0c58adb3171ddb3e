"""City Killer bots for both roles.

`heuristic` plays a sensible plan without deduction: the detective walks to crowded districts,
asks looks questions in a fixed order and accuses the resident who fits most answers taken as
honest (with the motive most murders fit); the killer intimidates and kills legal victims at
random and lies at random when he may.

`solver` reads the exact posterior (solver.games.city_killer): the detective chooses
questions, surveillance and moves by expected information gain about (K, M) in bits, with
movement planned over the city graph, and accuses the argmax of P(K, M); the killer chooses
victims, intimidations, lies and counters that keep the detective's posterior on his true
(identity, motive) low, modelling the detective's inference with the same posterior.

Both read only their information set (the engine's view of it lists the legal moves). Work
is bounded by the position (questions x residents, districts in reach), so a bot is
deterministic for its seed; `time_budget` (seconds, off by default) is only a ceiling checked
between candidates, and the one source of non-determinism when set.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from engines import Action, InformationSet, Seat
from engines.city_killer import (
    KILLER,
    Accuse,
    Answer,
    Ask,
    CityKiller,
    CityKillerState,
    Discard,
    Evidence,
    Grouped,
    Keep,
    Named,
    Placed,
    Play,
    Reveal,
    Verb,
)
from engines.city_killer.rules import (
    MOTIVES,
    District,
    distance,
)
from opponents.base import Bot, SeatedBot, check_options, check_time_budget
from solver import Hint
from solver.games.city_killer import (
    Posterior,
    after_answer,
    answer_gain,
    entropy,
    legal_matrix,
    posterior,
    record,
    scene_now,
    secrets,
    victim_options,
    watch_gain,
)

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
KEEP_ORDER = (
    "bribe",
    "crowd",
    "blackmail",
    "abduction",
    "bomb",
    "message",
    "strike",
    "stubborn-witnesses",
    "false-alarm",
    "graffiti",
    "destroy-evidence",
)
DETECTIVE_WANTS = ("profile", "testimony", "covert-watch", "patrols", "vehicle", "cooperation")
"""Cards the solver detective takes from the row, most useful first."""
ROUTINE = ("displace", "examine", "keep-evidence", "moves", "group", "cooperation")


class CityKillerBot(SeatedBot):
    """The shared frame dispatch: each decision kind has one method, the rest pass."""

    game: CityKiller

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        state = self.game._view(info)
        kind = state.frames[-1]["kind"]
        handler = getattr(self, "_on_" + kind.replace("-", "_"), None)
        if handler is None:
            return self._routine(state, legal)
        chosen: Action = handler(info, state, legal)
        return chosen

    def _routine(self, state: CityKillerState, legal: list[Action]) -> Action:
        """Pass a window, keep the first token, end a group move, move residents at random."""
        for word in ("pass", "proceed", "done", "examine"):
            if Verb(word) in legal:
                return Verb(word)
        return self.rng.choice(legal)

    def _pick(self, legal: Sequence[Action], kind: type) -> list[Any]:
        return [a for a in legal if isinstance(a, kind)]


# --- the heuristic detective -------------------------------------------------------------------
class HeuristicDetective(CityKillerBot):
    def _on_start(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return Placed("start", (2, 2))

    def _on_detective(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        if Verb("interrogate") in legal:
            return Verb("interrogate")
        diner = [a for a in self._pick(legal, Ask) if a.verb == "diner"]
        if diner:
            return min(diner, key=lambda a: self._order(info, a))
        target = crowded(state)
        steps = self._pick(legal, Placed)
        if target is not None and steps and state.pawn != target:
            best = min(steps, key=lambda a: distance(a.district, target, state.adjacency))
            if distance(best.district, target, state.adjacency) < distance(
                state.pawn or target, target, state.adjacency
            ):
                return best
        return Verb("end")

    def _order(self, info: InformationSet, ask: Ask) -> tuple[int, int, str]:
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
        asks = [a for a in self._pick(legal, Ask) if (a.attr, a.value) in LOOKS_ORDER]
        if not asks:
            return Verb("done")
        return min(asks, key=lambda a: self._order(info, a))

    def _on_testimony(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return min(self._pick(legal, Ask), key=lambda a: self._order(info, a))

    def _on_hand(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        return self._pick(legal, Discard)[-1]

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
        return Accuse(who, motive)


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
        named = [a for a in self._pick(legal, Named) if a.verb in ("intimidate", "murder")]
        return self.rng.choice(named) if named else Verb("refuse")

    def _on_answer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return self.rng.choice(self._pick(legal, Answer))

    def _on_keep(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


# --- the solver detective ------------------------------------------------------------------------
class SolverBot(CityKillerBot):
    def __init__(
        self, game: CityKiller, seat: Seat, rng: random.Random, time_budget: float | None = None
    ) -> None:
        super().__init__(game, seat, rng)
        self.time_budget = check_time_budget(time_budget)

    def _posterior(self, info: InformationSet) -> Posterior:
        return posterior(info)


class SolverDetective(SolverBot, HeuristicDetective):
    """Information gain about (K, M) drives every choice; the accusation is argmax P(K, M)."""

    MIN_GAIN = 0.02

    def _on_detective(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        began = time.perf_counter()
        options: list[tuple[float, Action]] = []
        here = state.pawn
        assert here is not None
        if Verb("interrogate") in legal:
            options.append((self._district_gain(state, post, here), Verb("interrogate")))
        for ask in self._pick(legal, Ask):
            options.append((answer_gain(post, ask.name, ask.attr, ask.value), ask))
        for named in self._pick(legal, Named):
            if named.verb == "surveil":
                options.append((self._watch_gain(state, post, named.name), named))
            elif named.verb == "police":
                options.append((0.9 * self._watch_gain(state, post, named.name), named))
            elif named.verb == "hospital":
                options.append((0.05, named))
            if self.time_budget is not None and time.perf_counter() - began > self.time_budget / 2:
                break
        options += self._card_options(state, post, legal)
        steps = self._pick(legal, Placed)
        if steps:
            options.append(self._best_step(state, post, steps))
        if not options:
            return Verb("end")
        value, action = max(options, key=lambda o: (o[0], -len(str(o[1])), str(o[1])))
        return action if value > self.MIN_GAIN else Verb("end")

    def _district_gain(self, state: CityKillerState, post: Posterior, district: District) -> float:
        """What questioning everyone questionable in `district` tells, each at best."""
        total = 0.0
        for name in state.at(district):
            if state.questionable(name):
                total += max(answer_gain(post, name, a, v) for a, v in state._questions())
        return total

    def _watch_gain(self, state: CityKillerState, post: Posterior, name: str) -> float:
        legal = legal_matrix(post, name, scene_now(state, name), state.protected(name, False))
        return watch_gain(post, legal)

    def _best_step(
        self, state: CityKillerState, post: Posterior, steps: list[Placed]
    ) -> tuple[float, Action]:
        """The step towards the district (within two steps) whose questioning tells most;
        worth a little less than asking here, as it may cost the phase's movement."""
        best: tuple[float, Action] = (0.0, Verb("end"))
        for step in steps:
            reach = {step.district, *state.near(step.district)}
            value = max(self._district_gain(state, post, d) for d in reach)
            value *= 0.8 if step.district in reach and state.at(step.district) else 0.6
            if value > best[0]:
                best = (value, step)
        return best

    def _card_options(
        self, state: CityKillerState, post: Posterior, legal: list[Action]
    ) -> list[tuple[float, Action]]:
        options: list[tuple[float, Action]] = []
        for action in self._pick(legal, Play):
            if action.card == "profile":
                options.append((self._profile_gain(post, action.args), action))
            elif action.card == "covert-watch":
                options.append((0.9 * self._watch_gain(state, post, action.args[0]), action))
        for action in self._pick(legal, Evidence):
            card = "?" if action.position == 0 else state.row[action.position - 1]
            if card in DETECTIVE_WANTS and not state._detective_hand:
                options.append((0.3 - 0.01 * DETECTIVE_WANTS.index(card), action))
        return options

    @staticmethod
    def _profile_gain(post: Posterior, pair: Sequence[str]) -> float:
        """Bits about M from Profile on `pair`: the named motive is not his."""
        pm = post.motive
        a, b = (MOTIVES.index(m) for m in pair)
        outcomes = []
        for named in (a, b):
            other = b if named == a else a
            keep = pm.copy()
            keep[named] = 0.0
            keep[[i for i in range(len(MOTIVES)) if i not in (a, b)]] *= 0.5
            keep[other] = pm[other]
            outcomes.append(keep)
        before = entropy(pm)
        after = sum(o.sum() * entropy(o / o.sum()) for o in outcomes if o.sum() > 0)
        return before - after

    def _on_interrogation(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        asks = self._pick(legal, Ask)
        if not asks:
            return Verb("done")
        scored = [(answer_gain(post, a.name, a.attr, a.value), str(a), a) for a in asks]
        gain, _, best = max(scored)
        return best if gain > 1e-6 else Verb("done")

    def _on_testimony(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        return max(
            self._pick(legal, Ask),
            key=lambda a: (answer_gain(post, a.name, a.attr, a.value), str(a)),
        )

    def _on_hand(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        post = self._posterior(info)
        plays = self._card_options(state, post, legal)
        if plays:
            value, action = max(plays, key=lambda o: (o[0], str(o[1])))
            if value > self.MIN_GAIN:
                return action
        return self._pick(legal, Discard)[-1]

    def _on_accuse(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        who, motive, _ = self._posterior(info).best_accusation(state.living)
        return Accuse(who, motive)


# --- the solver killer ----------------------------------------------------------------------------
class SolverKiller(SolverBot, HeuristicKiller):
    """Keeps the detective's posterior on his true (identity, motive) low."""

    def _truth(self, info: InformationSet) -> tuple[str, str]:
        identity, motive, _ = secrets(info)
        return identity, motive

    def _on_allies(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        """The drawn group with the most residents in play: more liars to hide among."""
        counts = {
            a.group: sum(state.resident(n).group == a.group for n in state.residents)
            for a in self._pick(legal, Grouped)
        }
        top = max(counts.values())
        return Grouped("allies", self.rng.choice([g for g in counts if counts[g] == top]))

    def _on_killer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        frame = state.frames[-1]
        if state._left(frame):
            return self._intimidation(state, post, legal)
        murders = {a.name for a in self._pick(legal, Named) if a.verb == "murder"}
        if not murders:
            bombs = [a for a in self._pick(legal, Play) if a.card == "bomb"]
            return bombs[0] if bombs else Verb("refuse")
        options = [(p, name) for p, name in victim_options(state, post) if name in murders]
        low = options[0][0]
        ties = [name for p, name in options if p <= low + 1e-9]
        return Named("murder", self.rng.choice(ties))

    def _intimidation(self, state: CityKillerState, post: Posterior, legal: list[Action]) -> Action:
        """Silence the honest residents the detective would question next: those nearest his
        pawn, the most revealing first."""
        targets = [a for a in self._pick(legal, Named) if a.verb == "intimidate"]
        pawn = state.pawn or (2, 2)
        identity, motive = state._identity, state._motive

        def danger(action: Named) -> tuple[float, float, str]:
            name = action.name
            if state.is_liar(name):
                return (-1.0, 0.0, name)
            truth = state.resident(identity)
            worst = max(
                after_answer(post, identity, motive, name, attr, truth.attribute(attr), True)
                for attr in ("sex", "age", "build", "height")
            )
            near = -distance(state.pos[name], pawn, state.adjacency)
            return (near, worst, name)

        return max(targets, key=danger)

    def _on_answer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        answers = self._pick(legal, Answer)
        if len(answers) == 1:
            frame = state.frames[-1]
            post = self._posterior(info)
            identity, motive = self._truth(info)
            honest = after_answer(
                post, identity, motive, frame["name"], frame["attr"], frame["value"], answers[0].yes
            )
            before = float(post.joint[post.residents.index(identity), MOTIVES.index(motive)])
            if Play("blackmail") in legal and honest > max(2 * before, 0.2):
                return Play("blackmail")
            return answers[0]
        frame = state.frames[-1]
        post = self._posterior(info)
        identity, motive = self._truth(info)
        scored = [
            (
                after_answer(
                    post, identity, motive, frame["name"], frame["attr"], frame["value"], a.yes
                ),
                self.rng.random(),
                a,
            )
            for a in answers
        ]
        return min(scored)[2]

    def _on_keep(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        return min(self._pick(legal, Keep), key=lambda a: KEEP_ORDER.index(a.item))

    def _on_pick(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        named = self._pick(legal, Named)
        liars = [a for a in named if state.is_liar(a.name)]
        return (liars or named)[0]

    def _on_profile(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        return min(
            self._pick(legal, Reveal),
            key=lambda a: (post.motive[MOTIVES.index(a.motive)], a.motive),
        )

    def _on_react(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        if Play("bribe") in legal and state.chain[-1][1] in ("profile", "confession", "testimony"):
            return Play("bribe")
        return Verb("pass")

    def _on_crowd(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        """Move the token when the truthful answer would expose him more than another's."""
        post = self._posterior(info)
        name = state.frames[-1]["name"]
        identity, motive = state._identity, state._motive

        def exposure_after(resident: str) -> float:
            truth = state.legal_victim(resident, killing=False)
            legal_km = legal_matrix(
                post, resident, scene_now(state, resident), state.protected(resident, False)
            )
            joint = post.joint * (legal_km == truth)
            total = joint.sum()
            k, m = post.residents.index(identity), MOTIVES.index(motive)
            return float(joint[k, m] / total) if total > 0 else 1.0

        stay = exposure_after(name)
        moves = [(exposure_after(a.args[0]), a.args[0], a) for a in self._pick(legal, Play)]
        if moves and min(moves)[0] < stay - 0.02:
            return min(moves)[2]
        return Verb("pass")


def make(name: str, game: CityKiller, seat: Seat, rng: random.Random, **options: Any) -> Bot:
    """The `name` bot ("heuristic" or "solver"); option values are checked by the bot."""
    if name == "heuristic":
        check_options(name, options, ())
        return (HeuristicKiller if seat == KILLER else HeuristicDetective)(game, seat, rng)
    check_options(name, options, ("time_budget",))
    cls = SolverKiller if seat == KILLER else SolverDetective
    return cls(game, seat, rng, **options)


def notepad(info: InformationSet) -> list[Hint]:
    """What pen and paper cross off: the dead, the residents surveillance cleared ("yes": he
    could be killed, so he is not the killer), and the motives a murder's victim does not fit."""
    if not info.observations or info.observations[0].kind != "setup":
        return []
    rec = record(info)
    found = []
    cleared = {name for _, name in rec.dead}
    cleared |= {name for _, name, blocked, _, answer in rec.watches if answer}
    for name in sorted(cleared):
        found.append(Hint(f"{name} is not the killer", None, 1.0, (), "notepad", 1.0))
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
            "notepad",
            1.2,
        )
    )
    return found
