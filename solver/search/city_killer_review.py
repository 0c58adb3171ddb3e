"""City Killer's decisions valued for a review (solver.review): every legal move of a decision
the search weighs, in the unit the search weighs that decision in.

The search scores only some of a frame's legal moves (the best step, not every step; "end"
and "done" only when it takes them; no card it never plays; the accusation, the motive named
for Profile and the Crowd window not at all), so a weaker player's move is often not among the
advice's candidates. `judge` values every legal move of the frame with the search's own
formulas, so a move it pruned is valued as the ones it scored:

- the detective's turn, questioning, testimony and hand limit: expected information about
  (K, M) in bits (`BITS`), each kind of move as the search values it; "end", "done", a discard
  and a card it has no formula for tell nothing, 0 bits, as the search's own "end";
- the accusation: the chance it is right, P(K, M) (`ACCUSATION`);
- the killer's murder, his answers, the motive named for Profile and the Crowd window: the
  detective's chance on the true (identity, motive) afterwards, negated so that higher is
  better (`EXPOSURE`); the Bomb and a refusal likewise (never above the move the search
  prefers to them); Blackmail and Crowd at the price the search asks before playing them; any
  other card, which the search keeps, at the frame's best move less `CARD_PRICE`;
- intimidation: the search's order of danger as one number (`DANGER`), a card likewise;
- the killer's allies: the residents of the group in play (`ALLIES`).

Frames the search takes by rote (the pawn's start, group moves, evidence tokens, the kept card,
the witness, counters), and a decision whose every move is worth the same, stay ungraded: the
review calls them routine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from engines import Action, InformationSet
from engines.city_killer import DETECTIVE, CityKiller, CityKillerState
from engines.city_killer import actions as act
from engines.city_killer.frames import (
    AnswerQuestion,
    AskWitness,
    ChooseAllies,
    CrowdWindow,
    DetectiveTurn,
    FinalAccusation,
    HandLimit,
    Interrogation,
    KillerTurn,
    NameMotive,
)
from engines.city_killer.material import MOTIVES, distance
from solver.games.city_killer import (
    Posterior,
    after_answer,
    answer_gain,
    best_question,
    entropy,
    legal_matrix,
    liar_mask,
    matches,
    narrowing,
    posterior,
    scene_now,
    victim_options,
)
from solver.hints import percent
from solver.search import Advice, Candidate, Turn
from solver.search.city_killer import Detective
from solver.search.grading import CHANCE, Grading, Judged, by_candidates

BITS = Grading("bits", 0.05, 0.15, 0.4, "the expected information about the killer and motive")
"""The detective's investigation. The best move of a turn tells about 0.8 bit (0.5 to 1.1 in
nine turns of ten): within 0.05 bit of it is good, 0.15 (a fifth of it) an inaccuracy, half of
it lost a blunder. Ties are common (neighbouring steps reach the same districts)."""
ACCUSATION = CHANCE
"""The accusation: the chance it is right is the chance of winning."""
EXPOSURE = Grading("exposure", 0.01, 0.03, 0.1, "the detective's chance on the truth, negated")
"""The killer's murders, answers and counters, by the detective's P(K, M) on the killer's true
identity and motive after the move (negated: higher is better). It runs from about 1% to 30%
over a game (the best move's, nine decisions in ten): a point of it is good, three an
inaccuracy, ten a mistake; a card spent for nothing the measure sees (`CARD_PRICE`) is an
inaccuracy."""
DANGER = Grading("danger", 0.01, 0.5, 1.5, "minus steps from the pawn, plus exposure")
"""Intimidation. The search silences the nearest honest resident, then the one whose most
telling honest answer would raise the detective's chance on the truth most; as one number,
minus his steps from the pawn plus that chance (a liar: one step, nothing told). At the same
distance a point of exposure is good, more an inaccuracy; a step farther is a mistake, two a
blunder."""
ALLIES = Grading("allies", 0.5, 1.5, 2.5, "residents of the allied group in play")
"""The allies the killer keeps: the search keeps the largest of his groups (3 to 4 residents);
one resident fewer is an inaccuracy, two a mistake."""
GRADING = BITS
"""The review's unit as a whole, that of most decisions (the detective's); each decision is
graded in its own (`judge`)."""

CARD_PRICE = 0.02
"""What spending a card costs, in the detective's chance on the truth: the margin the search
asks of Crowd before it plays it. A card the search keeps, played where it weighs no card, is
worth the frame's best move less this (it puts the decision off and spends the card)."""
BLACKMAIL_FLOOR = 0.2
"""The search silences an answer with Blackmail only when it would leave the detective above
both twice his chance on the truth and this."""

Values = dict[Action, tuple[float, str]]
"""Each legal move valued: its value in the decision's unit and that value in words."""


@dataclass(frozen=True)
class Valued:
    """A decision's legal moves valued in one unit."""

    grading: Grading
    values: Values


@dataclass
class Position:
    """What a valuer reads: the seat's record and view, its legal moves, and the posterior
    (computed once, when asked for)."""

    info: InformationSet
    state: CityKillerState
    legal: list[Action]

    @cached_property
    def post(self) -> Posterior:
        return posterior(self.info)

    @cached_property
    def truth(self) -> tuple[int, int]:
        """The killer's (identity, motive) as indices of the posterior's joint."""
        identity, _, motive, _ = self.state.secrets()
        return self.post.residents.index(identity), MOTIVES.index(motive)

    def on_truth(self, joint: np.ndarray) -> float:
        """The detective's chance on the truth under the (unnormalised) joint P(K, M)."""
        total = float(joint.sum())
        return float(joint[self.truth]) / total if total > 0 else 1.0

    def chance(self, post: Posterior) -> float:
        """The detective's chance on the truth under `post`."""
        return self.on_truth(post.joint)


def judge(turn: Turn, advice: Advice, action: Action) -> Judged | None:
    """The move made and the solver's best, in the decision's unit: None for a move no valuer
    knows, or a frame the search takes by rote (then the advice has one candidate)."""
    valued = valuation(turn)
    if valued is None:
        return by_candidates(advice, action, GRADING)
    values = valued.values
    if action not in values or (len(advice.candidates) < 2 and _flat(values)):
        return None  # nothing weighed: every move is worth the same
    best = max(values, key=lambda a: (values[a][0], a == advice.move))
    made, top = _candidate(action, values, advice), _candidate(best, values, advice)
    return Judged(made, top, valued.grading)


def valuation(turn: Turn) -> Valued | None:
    """Every legal move of the decision at `turn`, valued; None for a frame the search takes
    by rote."""
    game = CityKiller.of(turn.info)
    state = game.seat_view(turn.info)
    if state.over or not state.frames:
        return None
    table = DETECTIVE_VALUERS if turn.info.seat == DETECTIVE else KILLER_VALUERS
    valuer = table.get(type(state.frames[-1]))
    return None if valuer is None else valuer(Position(turn.info, state, list(turn.legal)))


def _flat(values: Values) -> bool:
    numbers = [value for value, _ in values.values()]
    return max(numbers) - min(numbers) <= 1e-9


def _candidate(action: Action, values: Values, advice: Advice) -> Candidate:
    """The move with its value, in the advice's words where the search scored it at that value
    (not where the advice stands in for a decision it left unscored)."""
    value, text = values[action]
    if len(advice.candidates) > 1:
        said = (c.text for c in advice.candidates if c.action == action and c.value == value)
        text = next(said, text)
    return Candidate(action, value, text)


# --- the detective ---------------------------------------------------------------------------
def _detective(game: CityKiller) -> Detective:
    """The search's detective, whose formulas value the moves it did not score."""
    return Detective(game, random.Random(0))


def _bits(at: Position, gains: dict[Action, float]) -> Valued:
    """Gains in bits told as the search tells them: what they narrow the likely pairs to."""
    pairs = 2 ** entropy(at.post.joint.ravel())
    return Valued(BITS, {a: (gain, narrowing(pairs, gain)) for a, gain in gains.items()})


def _detective_turn(at: Position) -> Valued:
    """Every move of his turn as `Detective._on_detective` values those it scores; a step by
    `_step_value` (the search scores the best step only)."""
    detective = _detective(at.state.game)
    return _bits(at, {a: _turn_gain(detective, at, a) for a in at.legal})


def _turn_gain(detective: Detective, at: Position, action: Action) -> float:
    state, post = at.state, at.post
    match action:
        case act.Verb(word="interrogate"):
            assert state.pawn is not None
            return detective._district_gain(state, post, state.pawn)
        case act.Ask():
            return answer_gain(post, action.name, action.attr, action.value)
        case act.Named(verb="surveil"):
            return detective._watch_gain(state, post, action.name)
        case act.Named(verb="police"):
            return 0.9 * detective._watch_gain(state, post, action.name)
        case act.Named(verb="hospital"):
            return 0.05
        case act.Placed():
            return detective._step_value(state, post, action)
        case act.Play() | act.Evidence():
            return _card_gain(detective, at, action)
    return 0.0  # end, fire: nothing learned about (K, M)


def _card_gain(detective: Detective, at: Position, action: Action) -> float:
    """A card played or an evidence check as `Detective._card_options` values it; 0 for one
    it has no formula for."""
    found = detective._card_options(at.state, at.post, [action])
    return found[0][0] if found else 0.0


def _questions(at: Position) -> Valued:
    """Questioning and testimony: each question by its expected gain; "done" tells nothing."""
    post = at.post
    return _bits(
        at,
        {
            a: answer_gain(post, a.name, a.attr, a.value) if isinstance(a, act.Ask) else 0.0
            for a in at.legal
        },
    )


def _hand(at: Position) -> Valued:
    """Two cards held: a play as the search values it (`_on_hand`), a discard nothing."""
    detective = _detective(at.state.game)
    return _bits(
        at,
        {a: _card_gain(detective, at, a) if isinstance(a, act.Play) else 0.0 for a in at.legal},
    )


def _accusation(at: Position) -> Valued:
    """Each accusation by the chance it is right: the search accuses the argmax of P(K, M)."""
    joint, post = at.post.joint, at.post
    values: Values = {}
    for a in at.legal:
        if isinstance(a, act.Accuse):
            p = float(joint[post.residents.index(a.name), MOTIVES.index(a.motive)])
            values[a] = (p, f"right with chance {percent(p)}")
    return Valued(ACCUSATION, values)


DETECTIVE_VALUERS: dict[type, Callable[[Position], Valued]] = {
    DetectiveTurn: _detective_turn,
    Interrogation: _questions,
    AskWitness: _questions,
    HandLimit: _hand,
    FinalAccusation: _accusation,
}


# --- the killer ------------------------------------------------------------------------------
def _allies(at: Position) -> Valued:
    """The search keeps the drawn group with the most residents in play: more liars to hide
    among."""
    state = at.state
    values: Values = {}
    for a in at.legal:
        if isinstance(a, act.Grouped):
            count = sum(state.resident(n).group == a.group for n in state.residents)
            values[a] = (float(count), f"{count} residents of the group in play")
    return Valued(ALLIES, values)


def _killer_turn(at: Position) -> Valued:
    frame = at.state.frames[-1]
    assert isinstance(frame, KillerTurn)
    return _intimidations(at) if at.state.intimidations_left(frame) else _murders(at)


def _intimidations(at: Position) -> Valued:
    """Each intimidation by its danger (`_danger`); a card puts the intimidation off."""
    values: Values = {
        a: _danger(at, a.name)
        for a in at.legal
        if isinstance(a, act.Named) and a.verb == "intimidate"
    }
    return Valued(DANGER, _deferred(at, values, "the intimidation"))


def _danger(at: Position, name: str) -> tuple[float, str]:
    """`Killer._intimidation`'s order as one number: minus the resident's steps from the pawn,
    plus the detective's chance on the truth after his most telling honest answer (a liar
    counts as one step away and tells nothing)."""
    state = at.state
    if state.is_liar(name):
        return -1.0, "a liar: his answers cost nothing"
    identity, _, motive, _ = state.secrets()
    truth = state.resident(identity)
    worst = max(
        after_answer(at.post, identity, motive, name, attr, truth.attribute(attr), True)
        for attr in ("sex", "age", "build", "height")
    )
    steps = distance(state.pos[name], state.pawn or (2, 2), state.adjacency)
    away = "1 step" if steps == 1 else f"{steps} steps"
    return worst - steps, (
        f"honest, {away} from the pawn; his answer could put the detective at "
        f"{percent(worst)} on you"
    )


def _murders(at: Position) -> Valued:
    """Each murder by the detective's chance on the truth it leaves (`victim_options`); the
    Bomb and a refusal, which the search takes only when no murder is legal, as in `_bomb` and
    `_refusal`, never above the best murder; another card puts the murder off."""
    after = {name: p for p, name in victim_options(at.state, at.post)}
    values: Values = {
        a: (-after[a.name], f"leaves the detective {percent(after[a.name])} on the truth")
        for a in at.legal
        if isinstance(a, act.Named) and a.verb == "murder" and a.name in after
    }
    best = _best(values)
    for a in at.legal:
        if isinstance(a, act.Play) and a.card == "bomb":
            values[a] = _capped(_bomb(at, a), best)
    if act.Verb("refuse") in at.legal:
        values[act.Verb("refuse")] = _capped(_refusal(at), _best(values))
    return Valued(EXPOSURE, _deferred(at, values, "the murder"))


def _best(values: Values) -> float | None:
    return max((value for value, _ in values.values()), default=None)


def _capped(valued: tuple[float, str], best: float | None) -> tuple[float, str]:
    """A move the search passes over for another (the Bomb while a murder is legal, a refusal
    while either is) is worth no more than that other: the measure sees only this round, not
    what the Bomb or the refusal gives up."""
    value, text = valued
    return (value, text) if best is None else (min(value, best), text)


def _bomb(at: Position, bomb: act.Play) -> tuple[float, str]:
    """The Bomb by the detective's chance on the truth once its casualties are dead (none of
    them is the killer), less the card."""
    district = act.read_district(bomb.args[0])
    assert district is not None
    p = at.post.p.copy()
    for name in at.state.at(district):
        p[at.post.residents.index(name)] = 0.0
    chance = at.on_truth(p.sum(axis=(2, 3)))
    return -chance - CARD_PRICE, f"leaves the detective {percent(chance)} on the truth, for a card"


def _refusal(at: Position) -> tuple[float, str]:
    """A second refusal loses. A first puts the murder off and hands the detective another
    phase: worth the best murder after his best question now, answered as the killer would."""
    if at.state.refusals >= 1:
        return -1.0, "a second refusal loses the game"
    later = _after_question(at)
    legal = {a.name for a in at.legal if isinstance(a, act.Named)}
    murders = [p for p, name in victim_options(at.state, later) if name in legal]
    chance = min(murders) if murders else at.chance(later)
    return -chance, f"puts the murder off: the detective at {percent(chance)} on the truth after"


def _after_question(at: Position) -> Posterior:
    """The detective's posterior after his best question now, answered truthfully by an honest
    resident and to the killer's best by a liar (the posterior itself when he has none)."""
    state, post = at.state, at.post
    question = best_question(state, post) if state.pawn is not None else None
    if question is None:
        return post
    _, name, attr, value, _ = question
    answers = [_answered(post, name, attr, value, yes) for yes in (True, False)]
    if state.is_liar(name):
        return min(answers, key=at.chance)
    identity = post.residents[at.truth[0]]
    return answers[0] if state.resident(identity).attribute(attr) == value else answers[1]


def _answered(post: Posterior, name: str, attr: str, value: str, answer: bool) -> Posterior:
    """The posterior after `name` answers `answer` to "is the killer <value>?" (a liar at
    random), as `after_answer` reckons it."""
    n = len(post.residents)
    match = matches(post.people, attr, value).reshape(n, 1, 1, 1)
    likelihood = np.where(liar_mask(post.people, name), 0.5, (match == answer).astype(float))
    p = post.p * likelihood
    return Posterior(post.residents, post.people, p / p.sum())


def _deferred(at: Position, values: Values, what: str) -> Values:
    """`values` with every other legal move (a card the search does not weigh here) worth the
    best of them less `CARD_PRICE`: it puts the decision off and spends the card."""
    best = _best(values)
    assert best is not None
    rest = {
        a: (best - CARD_PRICE, f"a card the search keeps here: {what} still to make")
        for a in at.legal
        if a not in values
    }
    return {**values, **rest}


def _answers(at: Position) -> Valued:
    """Each answer by the detective's chance on the truth after it (`after_answer`);
    Blackmail, which silences it, as the search weighs it: worth the answer it spares past
    twice his chance now and `BLACKMAIL_FLOOR`."""
    frame = at.state.frames[-1]
    assert isinstance(frame, AnswerQuestion)
    identity, _, motive, _ = at.state.secrets()
    before = float(at.post.joint[at.truth])
    values: Values = {}
    for a in at.legal:
        if isinstance(a, act.Answer):
            p = after_answer(at.post, identity, motive, frame.name, frame.attr, frame.value,
                             a.yes)  # fmt: skip
            values[a] = (-p, f"the detective's chance on the truth becomes {percent(p)}")
        elif a == act.Play("blackmail"):
            price = max(2 * before, BLACKMAIL_FLOOR)
            values[a] = (-price, f"silences the answer: worth it past {percent(price)}")
    return Valued(EXPOSURE, values)


def _profile(at: Position) -> Valued:
    """Each motive named for Profile by the detective's chance on the truth once that motive
    is ruled out; the search names the least likely."""
    post = at.post
    joint_truth = float(post.joint[at.truth])
    values: Values = {}
    for a in at.legal:
        if isinstance(a, act.Reveal):
            left = 1.0 - float(post.motive[MOTIVES.index(a.motive)])
            p = joint_truth / left if left > 0 else 1.0
            values[a] = (-p, f"the detective's chance on the truth becomes {percent(p)}")
    return Valued(EXPOSURE, values)


def _crowd(at: Position) -> Valued:
    """Passing by the chance surveillance of the token's carrier leaves on the truth; Crowd,
    moving the token, by that of the new carrier less `CARD_PRICE` (`Killer._on_crowd`)."""
    frame = at.state.frames[-1]
    assert isinstance(frame, CrowdWindow)
    values: Values = {}
    for a in at.legal:
        if isinstance(a, act.Play) and a.args:
            p = _exposure_after(at, a.args[0])
            values[a] = (-p - CARD_PRICE, f"the detective's chance on the truth becomes "
                                          f"{percent(p)}, for the card")  # fmt: skip
        elif a == act.Verb("pass"):
            p = _exposure_after(at, frame.name)
            values[a] = (-p, f"the detective's chance on the truth becomes {percent(p)}")
    return Valued(EXPOSURE, values)


def _exposure_after(at: Position, resident: str) -> float:
    """The detective's chance on the truth after the true answer of surveillance on
    `resident`."""
    state, post = at.state, at.post
    truth = state.legal_victim(resident, killing=False)
    legal = legal_matrix(post, resident, scene_now(state, resident),
                         state.protected(resident, False))  # fmt: skip
    return at.on_truth(post.joint * (legal == truth))


KILLER_VALUERS: dict[type, Callable[[Position], Valued]] = {
    ChooseAllies: _allies,
    KillerTurn: _killer_turn,
    AnswerQuestion: _answers,
    NameMotive: _profile,
    CrowdWindow: _crowd,
}
