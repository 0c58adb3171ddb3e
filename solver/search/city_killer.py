"""City Killer's search, for both roles: the solver bot's decisions, read off the exact
posterior (solver.games.city_killer), and the advice a person reads from them.

The detective scores questions, surveillance, cards and steps by expected information gain
about (K, M) in bits, with movement planned over the city graph, and accuses the argmax of
P(K, M). The killer chooses victims, intimidations, lies and counters that keep the
detective's posterior on his true (identity, motive) low, modelling the detective's inference
with the same posterior. The solver bots (opponents/games/city_killer.py) call `choose`, so
the advice and the bot are one computation.

Work is bounded by the position (questions x residents, districts in reach), so a move is
fixed by the seed; `time_budget` (seconds, off by default) is only a ceiling checked between
candidates, and the one source of non-determinism when set.

The advice's threats are what the opponent can do on his next move: for the detective, whom
the killer may kill next (by the detective's posterior) and which motives each murder would
leave open; for the killer, the detective's best question and his best accusation now, with
its chance by the detective's own reckoning.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engines import Action, InformationSet, NotToMove
from engines.city_killer import DETECTIVE, KILLER, CityKiller, CityKillerState
from engines.city_killer import actions as act
from engines.city_killer.frames import (
    AnswerQuestion,
    AskWitness,
    ChooseAllies,
    CrowdWindow,
    DetectiveTurn,
    FinalAccusation,
    Frame,
    HandLimit,
    Interrogation,
    KeepCard,
    KillerTurn,
    NameMotive,
    PickWitness,
    PlacePawn,
    Reaction,
)
from engines.city_killer.material import MOTIVES, District, distance
from solver.deduction import deduce
from solver.games.city_killer import (
    Posterior,
    after_answer,
    answer_gain,
    best_question,
    entropy,
    legal_matrix,
    narrowing,
    posterior,
    posterior_of,
    question_words,
    scene_now,
    secrets,
    victim_options,
    watch_gain,
)
from solver.hints import Hint, percent
from solver.opponent_models import COUNTING, check_reader
from solver.search import Advice, Candidate, Turn

KNOBS: dict[str, object] = {"time_budget": None, "model": COUNTING}
"""`model`: how the detective's odds read the killer's choices (`solver.deduce(info,
model=...)`): "counting", "random" or a bot's name; a model costs seconds a move. The killer
reads the detective's counted view, which no model applies to."""
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
"""The cards the solver killer keeps from under a scene, most useful first."""
DETECTIVE_WANTS = ("profile", "testimony", "covert-watch", "patrols", "vehicle", "cooperation")
"""Cards the solver detective takes from the row, most useful first."""
Scored = tuple[float, Action, str]
"""A candidate move: its value on the decision's own scale, the move, that value in words."""


Handler = Callable[[InformationSet, CityKillerState, list[Action]], Action]
"""A decision's method: the move at `info` (the seat's view `state`) among `legal`."""


class Decisions:
    """A seat's decisions, one method per kind of frame that wants thought (`_on_...`); each
    takes the routine choice unless a subclass says more, and the frames without a method take
    it too. The heuristic bots share this dispatch."""

    game: CityKiller
    rng: random.Random

    def decide(self, info: InformationSet, legal: list[Action]) -> Action:
        state = self.game.seat_view(info)
        return self._handler(state.frames[-1])(info, state, legal)

    def _handler(self, frame: Frame) -> Handler:
        match frame:
            case PlacePawn():
                return self._on_start
            case DetectiveTurn():
                return self._on_detective
            case Interrogation():
                return self._on_interrogation
            case AskWitness():
                return self._on_testimony
            case HandLimit():
                return self._on_hand
            case FinalAccusation():
                return self._on_accuse
            case ChooseAllies():
                return self._on_allies
            case KillerTurn():
                return self._on_killer
            case AnswerQuestion():
                return self._on_answer
            case KeepCard():
                return self._on_keep
            case PickWitness():
                return self._on_pick
            case NameMotive():
                return self._on_profile
            case Reaction():
                return self._on_react
            case CrowdWindow():
                return self._on_crowd
        return self._routinely

    def _routinely(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        """The routine choice (`_routine`): every decision a bot does not override."""
        return self._routine(state, legal)

    _on_start = _on_detective = _on_interrogation = _on_testimony = _on_hand = _routinely
    _on_accuse = _on_allies = _on_killer = _on_answer = _on_keep = _on_pick = _routinely
    _on_profile = _on_react = _on_crowd = _routinely

    def _routine(self, state: CityKillerState, legal: list[Action]) -> Action:
        """Pass a window, keep the first token, end a group move, move residents at random."""
        for word in ("pass", "proceed", "done", "examine"):
            if act.Verb(word) in legal:
                return act.Verb(word)
        return self.rng.choice(legal)

    @staticmethod
    def _pick(legal: Sequence[Action], kind: type) -> list[Any]:
        return [a for a in legal if isinstance(a, kind)]


class Solver(Decisions):
    """The solver's decisions for one seat; `scored` holds the candidates of the last one."""

    def __init__(
        self,
        game: CityKiller,
        rng: random.Random,
        time_budget: float | None = None,
        model: str = COUNTING,
    ) -> None:
        self.game, self.rng, self.time_budget, self.model = game, rng, time_budget, model
        self.scored: list[Scored] = []

    def _posterior(self, info: InformationSet) -> Posterior:
        if self.model == COUNTING:
            return posterior(info)
        return posterior_of(info, deduce(info, model=self.model))

    def _score(self, options: Sequence[tuple[float, Action]], post: Posterior) -> None:
        """The options with their values (bits about (K, M)) told in words: how far each
        should narrow the likely killer-motive pairs."""
        pairs = 2 ** entropy(post.joint.ravel())
        self.scored = [(value, action, narrowing(pairs, value)) for value, action in options]


# --- the detective -------------------------------------------------------------------------------
class Detective(Solver):
    """Information gain about (K, M) drives every choice; the accusation is argmax P(K, M)."""

    MIN_GAIN = 0.02

    def _on_start(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        return act.Placed("start", (2, 2))  # central: every district within two steps

    def _on_detective(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        began = time.perf_counter()
        options: list[tuple[float, Action]] = []
        here = state.pawn
        assert here is not None
        if act.Verb("interrogate") in legal:
            options.append((self._district_gain(state, post, here), act.Verb("interrogate")))
        for ask in self._pick(legal, act.Ask):
            options.append((answer_gain(post, ask.name, ask.attr, ask.value), ask))
        for named in self._pick(legal, act.Named):
            if named.verb == "surveil":
                options.append((self._watch_gain(state, post, named.name), named))
            elif named.verb == "police":
                options.append((0.9 * self._watch_gain(state, post, named.name), named))
            elif named.verb == "hospital":
                options.append((0.05, named))
            if self.time_budget is not None and time.perf_counter() - began > self.time_budget / 2:
                break
        options += self._card_options(state, post, legal)
        steps = self._pick(legal, act.Placed)
        if steps:
            options.append(self._best_step(state, post, steps))
        options.sort(key=lambda o: (o[0], -len(str(o[1])), str(o[1])), reverse=True)
        self._score(options, post)
        if not options or options[0][0] <= self.MIN_GAIN:
            self.scored.insert(0, (0.0, act.Verb("end"), "nothing left here tells enough"))
            return act.Verb("end")
        return options[0][1]

    def _district_gain(self, state: CityKillerState, post: Posterior, district: District) -> float:
        """What questioning everyone questionable in `district` tells, each at best."""
        total = 0.0
        for name in state.at(district):
            if state.questionable(name):
                total += max(answer_gain(post, name, a, v) for a, v in state.question_choices())
        return total

    def _watch_gain(self, state: CityKillerState, post: Posterior, name: str) -> float:
        legal = legal_matrix(post, name, scene_now(state, name), state.protected(name, False))
        return watch_gain(post, legal)

    def _best_step(
        self, state: CityKillerState, post: Posterior, steps: list[act.Placed]
    ) -> tuple[float, Action]:
        """The step towards the district (within two steps) whose questioning tells most;
        worth a little less than asking here, as it may cost the phase's movement."""
        best: tuple[float, Action] = (0.0, act.Verb("end"))
        for step in steps:
            value = self._step_value(state, post, step)
            if value > best[0]:
                best = (value, step)
        return best

    def _step_value(self, state: CityKillerState, post: Posterior, step: act.Placed) -> float:
        """One step's worth (`_best_step`): the best questioning in its district or next to it,
        0.8 of it when the step lands among residents, 0.6 otherwise (the review values every
        step, the search only the best)."""
        reach = {step.district, *state.near(step.district)}
        value = max(self._district_gain(state, post, d) for d in reach)
        return value * (0.8 if step.district in reach and state.at(step.district) else 0.6)

    def _card_options(
        self, state: CityKillerState, post: Posterior, legal: list[Action]
    ) -> list[tuple[float, Action]]:
        options: list[tuple[float, Action]] = []
        for action in self._pick(legal, act.Play):
            if action.card == "profile":
                options.append((self._profile_gain(post, action.args), action))
            elif action.card == "covert-watch":
                options.append((0.9 * self._watch_gain(state, post, action.args[0]), action))
        for action in self._pick(legal, act.Evidence):
            card = "?" if action.position == 0 else state.row[action.position - 1]
            if card in DETECTIVE_WANTS and not state.detective_hand():
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
        asks = self._pick(legal, act.Ask)
        if not asks:
            return act.Verb("done")
        scored = sorted(
            ((answer_gain(post, a.name, a.attr, a.value), str(a), a) for a in asks), reverse=True
        )
        self._score([(gain, a) for gain, _, a in scored], post)
        gain, _, best = scored[0]
        if gain <= 1e-6:
            self.scored.insert(0, (0.0, act.Verb("done"), "no answer here would tell anything"))
            return act.Verb("done")
        return best

    def _on_testimony(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        scored = sorted(
            (
                (answer_gain(post, a.name, a.attr, a.value), str(a), a)
                for a in self._pick(legal, act.Ask)
            ),
            reverse=True,
        )
        self._score([(gain, a) for gain, _, a in scored], post)
        return scored[0][2]

    def _on_hand(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        post = self._posterior(info)
        plays = self._card_options(state, post, legal)
        if plays:
            value, action = max(plays, key=lambda o: (o[0], str(o[1])))
            if value > self.MIN_GAIN:
                return action
        return self._pick(legal, act.Discard)[-1]

    def _on_accuse(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        who, motive, _ = self._posterior(info).best_accusation(state.living)
        return act.Accuse(who, motive)


# --- the killer ----------------------------------------------------------------------------------
class Killer(Solver):
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
            for a in self._pick(legal, act.Grouped)
        }
        top = max(counts.values())
        return act.Grouped("allies", self.rng.choice([g for g in counts if counts[g] == top]))

    def _on_killer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        frame = state.frames[-1]
        assert isinstance(frame, KillerTurn)
        if state.intimidations_left(frame):
            return self._intimidation(state, post, legal)
        murders = {a.name for a in self._pick(legal, act.Named) if a.verb == "murder"}
        if not murders:
            bombs = [a for a in self._pick(legal, act.Play) if a.card == "bomb"]
            return bombs[0] if bombs else act.Verb("refuse")
        options = [(p, name) for p, name in victim_options(state, post) if name in murders]
        self.scored = [
            (-p, act.Named("murder", name), f"leaves the detective {percent(p)} on the truth")
            for p, name in options
        ]
        low = options[0][0]
        ties = [name for p, name in options if p <= low + 1e-9]
        choice = act.Named("murder", self.rng.choice(ties))
        self.scored.sort(key=lambda c: c[1] != choice)
        return choice

    def _intimidation(self, state: CityKillerState, post: Posterior, legal: list[Action]) -> Action:
        """Silence the honest residents the detective would question next: those nearest his
        pawn, the most revealing first."""
        targets = [a for a in self._pick(legal, act.Named) if a.verb == "intimidate"]
        pawn = state.pawn or (2, 2)
        identity, _, motive, _ = state.secrets()

        def danger(action: act.Named) -> tuple[float, float, str]:
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

        ranked = sorted(targets, key=danger, reverse=True)
        self.scored = [
            (float(-i), a, "a liar: his answers cost nothing" if state.is_liar(a.name)
             else f"honest, {distance(state.pos[a.name], pawn, state.adjacency)} steps from "
             "the pawn")
            for i, a in enumerate(ranked)
        ]  # fmt: skip
        return ranked[0]

    def _on_answer(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        frame = state.frames[-1]
        assert isinstance(frame, AnswerQuestion)
        answers = self._pick(legal, act.Answer)
        if len(answers) == 1:
            post = self._posterior(info)
            identity, motive = self._truth(info)
            honest = after_answer(
                post, identity, motive, frame.name, frame.attr, frame.value, answers[0].yes
            )
            before = float(post.joint[post.residents.index(identity), MOTIVES.index(motive)])
            if act.Play("blackmail") in legal and honest > max(2 * before, 0.2):
                return act.Play("blackmail")
            return answers[0]
        post = self._posterior(info)
        identity, motive = self._truth(info)
        scored = sorted(
            (
                after_answer(post, identity, motive, frame.name, frame.attr, frame.value, a.yes),
                self.rng.random(),
                a,
            )
            for a in answers
        )
        self.scored = [
            (-p, a, f"the detective's chance on the truth becomes {percent(p)}")
            for p, _, a in scored
        ]
        return scored[0][2]

    def _on_keep(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        return min(self._pick(legal, act.Keep), key=lambda a: KEEP_ORDER.index(a.item))

    def _on_pick(self, info: InformationSet, state: CityKillerState, legal: list[Action]) -> Action:
        named = self._pick(legal, act.Named)
        liars = [a for a in named if state.is_liar(a.name)]
        return (liars or named)[0]

    def _on_profile(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        post = self._posterior(info)
        return min(
            self._pick(legal, act.Reveal),
            key=lambda a: (post.motive[MOTIVES.index(a.motive)], a.motive),
        )

    def _on_react(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        if act.Play("bribe") in legal and state.chain[-1][1] in (
            "profile",
            "confession",
            "testimony",
        ):
            return act.Play("bribe")
        return act.Verb("pass")

    def _on_crowd(
        self, info: InformationSet, state: CityKillerState, legal: list[Action]
    ) -> Action:
        """Move the token when the truthful answer would expose him more than another's."""
        post = self._posterior(info)
        frame = state.frames[-1]
        assert isinstance(frame, CrowdWindow)
        name = frame.name
        identity, _, motive, _ = state.secrets()

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
        moves = [(exposure_after(a.args[0]), a.args[0], a) for a in self._pick(legal, act.Play)]
        if moves and min(moves)[0] < stay - 0.02:
            return min(moves)[2]
        return act.Verb("pass")


# --- the move and the advice ------------------------------------------------------------------
def choose(
    info: InformationSet,
    legal: Sequence[Action],
    rng: random.Random,
    time_budget: float | None = None,
    game: CityKiller | None = None,
    model: str = COUNTING,
) -> tuple[Action, list[Scored]]:
    """The solver's move at `info` (the seat's information set, `legal` its moves), and the
    candidates it scored, best first (none for a routine decision). `game` is the game of
    `info` when the caller holds one (a bot: its views are extended move by move); `model`
    reads the detective's odds under a model of the killer (refused for the killer's seat)."""
    if game is None:
        made = CityKiller.of(info)
        game = made
    if model != COUNTING:
        check_reader(game.name, info.seat)
    seat = (Killer if info.seat == KILLER else Detective)(game, rng, time_budget, model)
    move = seat.decide(info, list(legal))
    ranked = sorted(seat.scored, key=lambda c: (c[1] != move, -c[0]))
    return move, [c for i, c in enumerate(ranked) if c[1] not in [r[1] for r in ranked[:i]]]


def advise(turn: Turn, time_budget: float | None = None, model: str = COUNTING) -> Advice:
    """The solver's move, the runners-up with their values, and the opponent's threats on his
    next move."""
    info, legal, rng = turn.info, turn.legal, turn.rng
    game = CityKiller.of(info)
    move, scored = choose(info, legal, rng, time_budget, game, model)
    if not scored:
        scored = [(0.0, move, "the routine choice here")]
    threats = tuple(_threats(info, game.seat_view(info)))
    candidates = tuple(
        Candidate(action, value, text, threats=threats if action == move else ())
        for value, action, text in scored
    )
    chosen = candidates[0]
    return Advice(move, chosen.value, chosen.text, candidates, threats)


def hints(info: InformationSet) -> list[Hint]:
    """At the seat's turn, when the solver weighs its options there (not a routine step),
    the move it makes and why (seed 0, as `solver.advise(info)`), beside the runner-up: what
    to do, first among the seat's moves."""
    game = CityKiller.of(info)
    try:
        legal = game.legal_actions_for(info)
        if game.awaits_outcome(info):  # a record cut inside a move: its outcome is owed first
            return []
    except NotToMove:
        return []
    except Exception:  # a record the engine's view cannot replay: no move hint, the rest stands
        return []  # (as solver.games.city_killer._view)
    move, scored = choose(info, legal, random.Random(0), None, game)
    if len(scored) < 2:
        return []
    _, _, text = scored[0]
    said = f"{str(move)[:1].upper()}{str(move)[1:]}: {text} (next best: {scored[1][1]}, "
    said += f"{scored[1][2]})"
    because = tuple(f"{action}: {why}" for _, action, why in scored[:4])
    return [Hint(said, None, None, because, "suggestion", 2.6)]


def _threats(info: InformationSet, state: CityKillerState) -> list[str]:
    if state.over or not state.residents:
        return []
    try:
        post = posterior(info)
    except ValueError:
        return []
    if info.seat == DETECTIVE:
        return _killer_threats(state, post) if state.pawn is not None else []
    return _detective_threats(info, state, post)


def _killer_threats(state: CityKillerState, post: Posterior) -> list[str]:
    """Whom the killer may kill next, by the detective's posterior, and what a murder of each
    would leave of the motives (the murder fits the true motive)."""
    found = []
    for name in state.living:
        fit = scene_now(state, name)
        legal = legal_matrix(post, name, fit, state.protected(name, True))
        chance = float((post.joint * legal).sum())
        if chance > 0:
            motives = [m for m in MOTIVES if m in fit and post.motive[MOTIVES.index(m)] > 0]
            found.append((chance, name, motives))
    found.sort(key=lambda t: (-t[0], t[1]))
    return [
        f"the killer may kill {name} ({percent(chance)}): that leaves the motives "
        f"{', '.join(motives) or 'none'}"
        for chance, name, motives in found[:3]
    ]


def _detective_threats(info: InformationSet, state: CityKillerState, post: Posterior) -> list[str]:
    """The detective's best question now and his best accusation, with its chance by his own
    reckoning and whether it would name you."""
    identity, motive, _ = secrets(info)
    who, why, chance = post.best_accusation(state.living)
    right = "you and your motive" if (who, why) == (identity, motive) else "wrong"
    found = [f"the detective's best accusation: {who} {why} ({percent(chance)}): {right}"]
    question = best_question(state, post) if state.pawn is not None else None
    if question is not None:
        _, name, attr, value, _ = question
        found.append(f"his best question: ask {name} whether the killer is "
                     f"{question_words(attr, value)}")  # fmt: skip
    return found
