"""Alibi hints: what is certain about the box and why, the box's odds, where unseen cards are,
and the next question expected to tell the most about the box.

A question's value is the mutual information between its answer and the box card of its
subject's type (the type a question about a type, group or detail can speak of), estimated from
posterior samples with the Miller-Madow bias correction. Card lists beyond the listed subjects
are searched greedily from the best listed ones, so the whole question language is covered.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass

import numpy as np

from engines import Action, InformationSet, NotToMove, Observation
from engines.alibi import SCOPES, TYPES, Accuse, Alibi, Ask, Subject, SubjectKind
from engines.alibi.observations import End
from engines.alibi.questions import listed_subjects, question_words
from solver.cpsat import CoreSearch
from solver.deduction import Deduction
from solver.errors import SolverTimeout
from solver.games.alibi.chain import HistoryChain, card_id
from solver.games.alibi.counting import CountedHistories
from solver.games.alibi.model import BOX_GROUP, HOLDS, IN_BOX
from solver.games.alibi.position import Position, Trajectory, parse
from solver.hints import Answer, Hint, percent
from solver.model import Fact
from solver.sampling import ESTIMATED, NOT_YET, Estimate, estimate

SAMPLES = 200
EXPLAIN_SOLVES = 2
"""CP-SAT solves a refresh spends on explanations not yet found. Each solve loads the whole
model (tens of milliseconds late in a game, however easy its search) and an explanation takes
one more than it has observations, so a long one is found over a few refreshes, resumed where
the refresh before stopped, and its fact is shown without reasons until then."""
RULED_OUT_SHOWN = 6  # cards deduced out of the box, shown per refresh
SPOKEN_CARDS = 6  # the longest card list a hint suggests asking about
ODDS_LISTED = 5  # cards named in a type's box odds (the heat map shows them all)


@dataclass(frozen=True)
class Question:
    gain: float  # expected bits about the box
    ask: Ask


class Samples:
    """Posterior samples as arrays: where each card is now, who has seen it, the box."""

    def __init__(
        self,
        pos: Position,
        deduction: Deduction,
        n: int,
        rng: random.Random,
        worlds: CountedHistories | HistoryChain | None = None,
    ) -> None:
        """`n` samples of the deduction's worlds (or of `worlds`, another set of them)."""
        self.pos = pos
        sampler = deduction.worlds if worlds is None else worlds
        assert isinstance(sampler, CountedHistories | HistoryChain), "Alibi's own world sets"
        paths = (
            sampler.sample_many(n, rng)  # the counter walks all samples a layer at a time
            if isinstance(sampler, CountedHistories)
            else [sampler.sample_paths(rng) for _ in range(n)]
        )
        e, cards, players, box = pos.epoch, len(pos.ids), pos.players, pos.box
        # samples share trajectory tuples (records share every card that did not move), so
        # each distinct tuple is read once and the arrays are gathered by its code
        flat = [path for sample in paths for path in sample]
        ids = np.fromiter(map(id, flat), dtype=np.int64, count=len(flat))
        _, first_of, codes = np.unique(ids, return_index=True, return_inverse=True)
        boxed, here, visits = _read_paths([flat[i] for i in first_of], e, players, box)
        codes = codes.reshape(n, cards)
        self.now = here[codes]
        self.seen = np.ascontiguousarray(visits[codes].transpose(2, 0, 1))
        in_box = boxed[codes]
        self.box = np.zeros((n, 4), dtype=np.int16)
        for k, kind in enumerate(TYPES):
            of_type = [pos.index[card] for card in pos.deck.of_type(kind)]
            self.box[:, k] = np.argmax(in_box[:, of_type], axis=1)
        if not pos.seen_sets:
            for card, (seat, _, _) in pos.laid_by.items():
                self.seen[seat, :, card] = False

    def answers(self, target: int, scope: str, subjects: np.ndarray) -> np.ndarray:
        """Each sample's answer (rows) to each subject (columns, as card indicator rows)."""
        pool = self.now == target if scope == "hand" else self.seen[target]
        return pool.astype(np.int16) @ subjects.T.astype(np.int16)


def _read_paths(
    paths: list[Trajectory], epoch: int, players: int, box: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per trajectory: whether it is the box's, where it is at `epoch` (-1: the box, or out of
    play by then), and which players' hands it visited. Trajectories of one length are read
    as one array."""
    boxed = np.zeros(len(paths), dtype=bool)
    here = np.full(len(paths), -1, dtype=np.int8)
    visits = np.zeros((len(paths), players), dtype=bool)
    by_length: dict[int, list[int]] = {}
    for k, path in enumerate(paths):
        by_length.setdefault(len(path), []).append(k)
    for length, rows in by_length.items():
        table = np.array([paths[k] for k in rows], dtype=np.int16)
        in_box = table[:, 0] == box
        boxed[rows] = in_box
        if length > epoch:
            here[rows] = np.where(in_box, -1, table[:, epoch])
        for seat in range(players):
            visits[rows, seat] = (table == seat).any(axis=1) & ~in_box
    return boxed, here, visits


def information(answers: np.ndarray, box: np.ndarray) -> float:
    """Mutual information (bits) of two sampled variables, Miller-Madow corrected, at least 0."""
    return float(informations(answers[:, None], box[:, None])[0])


def informations(answers: np.ndarray, box: np.ndarray) -> np.ndarray:
    """`information` of each column of `answers` with the same column of `box` (both samples x
    questions, small non-negative integers), all columns at once: one count table for all."""
    n, questions = answers.shape
    answer_values, box_values = int(answers.max()) + 1, int(box.max()) + 1
    column = np.arange(questions, dtype=np.int64)[None, :]
    a = answers.astype(np.int64)
    b = box.astype(np.int64)

    def counts(codes: np.ndarray, size: int) -> np.ndarray:
        """Per question, how many samples take each code (0..size-1)."""
        flat = (codes + column * size).ravel()
        return np.bincount(flat, minlength=questions * size).reshape(questions, size)

    def entropy(table: np.ndarray) -> np.ndarray:
        p = table / n
        terms = p * np.log2(np.where(table > 0, p, 1.0))
        return -terms.sum(axis=1) + ((table > 0).sum(axis=1) - 1) / (2 * n * math.log(2))

    joint = counts(a * box_values + b, answer_values * box_values)
    found = entropy(counts(a, answer_values)) + entropy(counts(b, box_values)) - entropy(joint)
    return np.round(np.maximum(found, 0.0), DIGITS)


DIGITS = 12
"""Gains are rounded to this many decimals: summed over a table's empty cells too, two
questions whose answers tell the same (a group and its one unseen card) can come out a bit
apart, and an answer that tells nothing a few 1e-16 above 0; rounded, they tie, and the
first listed is asked."""


def best_questions(
    info: InformationSet,
    deduction: Deduction | None,
    samples: int = SAMPLES,
    seed: int = 0,
    top: int = 3,
    drawn: Samples | None = None,
    max_cards: int | None = None,
    deadline: float | None = None,
) -> list[Question]:
    """The `top` questions with the highest expected information about the box, judged on
    `drawn` (or on `samples` fresh posterior samples). Card lists found by widening have at
    most `max_cards` cards (a person has to read the list out at the table). Past `deadline`
    (a `time.monotonic()` instant, a bot's budget), only the questions to the players already
    scored count (always at least the first), and none is widened."""
    pos = parse(info)
    game = info.make_game()
    if drawn is None:
        assert deduction is not None, "samples are drawn from a deduction"
        drawn = Samples(pos, deduction, samples, random.Random(seed))
    single = game.options["single_card_questions"] == "allowed"
    subjects, sets = [], set()
    for subject in listed_subjects(pos.deck, single):
        cards = frozenset(subject.cards(pos.deck))
        if cards not in sets:
            sets.add(cards)
            subjects.append(subject)
    indicator = np.zeros((len(subjects), len(pos.ids)), dtype=bool)
    for q, subject in enumerate(subjects):
        indicator[q, [pos.index[c] for c in subject.cards(pos.deck)]] = True
    kinds = [TYPES.index(pos.deck.by_id[s.cards(pos.deck)[0]].type) for s in subjects]
    scored: list[tuple[float, int, str, np.ndarray, int, Subject]] = []
    for target in (seat for seat in range(pos.players) if seat != pos.me):
        for scope in SCOPES:
            answers = drawn.answers(target, scope, indicator)
            gains = informations(answers, drawn.box[:, kinds])
            for q, subject in enumerate(subjects):
                scored.append((float(gains[q]), target, scope, indicator[q], kinds[q], subject))
        if deadline is not None and time.monotonic() >= deadline:
            break  # a bot out of time: the questions to the players scored so far
    scored.sort(key=lambda item: -item[0])
    if deadline is not None and time.monotonic() >= deadline:
        return [
            Question(gain, Ask(target, scope, subject))
            for gain, target, scope, *_, subject in scored[:top]
        ]
    improved = [_widen(drawn, pos, single, max_cards, *item) for item in scored[:top]]
    improved.sort(key=lambda item: -item.gain)
    return improved


def _widen(
    drawn: Samples,
    pos: Position,
    single: bool,
    max_cards: int | None,
    gain: float,
    target: int,
    scope: str,
    cards: np.ndarray,
    kind: int,
    subject: Subject,
) -> Question:
    """Add cards of the same type to a question while that raises its expected gain."""
    of_type = [c for c in range(len(pos.ids)) if pos.kind[c] == kind]
    best, chosen = gain, cards.copy()
    for _ in range(3):
        trials = []
        for c in of_type:
            trial = chosen.copy()
            trial[c] = not trial[c]
            if (1 if single else 2) <= trial.sum() <= (max_cards or len(trial)):
                trials.append(trial)
        if not trials:
            break
        answers = drawn.answers(target, scope, np.array(trials))
        gains = informations(answers, np.repeat(drawn.box[:, kind : kind + 1], len(trials), 1))
        pick = int(np.argmax(gains))
        if gains[pick] <= best + 1e-9:
            break
        best, chosen = float(gains[pick]), trials[pick]
    if best > gain:
        subject = Subject(SubjectKind.CARDS, tuple(pos.ids[c] for c in np.flatnonzero(chosen)))
    return Question(best, Ask(target, scope, subject))


# --- hints ----------------------------------------------------------------------------------
def hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    """What is certain and why, the box's odds, where unseen cards are, the best question.
    Every estimated number says so: odds from the chain carry "estimated" and their 95%
    margin, and a question's gain is always estimated from posterior samples."""
    pos = parse(info)
    game = Alibi.of(info)
    found = _certain_hints(pos, deduction) + _box_odds(pos, deduction) + _card_odds(pos, deduction)
    if not any(isinstance(o, End) for o in info.observations):
        found += _accusation_now(pos, deduction)
        for question in best_questions(info, deduction, top=1, max_cards=SPOKEN_CARDS):
            ask = question.ask
            words = question_words(ask.scope, ask.subject, game.deck)
            when = "Ask" if _my_turn(info) else "At your turn, ask"
            text = (
                f"{when} player {ask.target} '{words}' (type: {ask}): its answer should "
                f"{narrowing(question.gain)} the box ({ESTIMATED})"
            )
            found.append(Hint(text, None, None, (), "question", 2.5))
    return found


def narrowing(bits: float) -> str:
    """A question's expected information about the box in words a table uses: how much of
    what the box may hold its answer should rule out (the spread of the box's odds shrinks
    by 2^-bits on average)."""
    if bits < 0.05:
        return "tell you almost nothing new about"
    kept = 2**-bits
    if kept <= 0.3:
        return f"leave only about {percent(kept)} of what is possible for"
    if 0.4 <= kept <= 0.6:
        return "halve what is possible for"
    return f"rule out about {percent(1 - kept)} of what is possible for"


def _my_moves(info: InformationSet) -> list[Action]:
    """The seat's legal moves now (none while another seat is to move)."""
    try:
        return info.make_game().legal_actions_for(info)
    except NotToMove:
        return []


def _my_turn(info: InformationSet) -> bool:
    return bool(_my_moves(info))


def answer(info: InformationSet, deduction: Deduction) -> Answer | None:
    """The box once each of its four cards is certain, and the plan: accuse it (now, when the
    seat may; else at its turn), since a question can only tell what is known already."""
    pos = parse(info)
    box: dict[str, str] = {}
    for fact in deduction.facts:
        if fact.kind == IN_BOX and deduction.is_certain(fact):
            box[pos.deck.by_id[card_id(fact.args[0])].type] = card_id(fact.args[0])
    if len(box) < len(TYPES):
        return None
    cards = tuple(box[kind] for kind in TYPES)
    names = "; ".join(pos.deck.by_id[card].name for card in cards)
    hint = Hint(f"The box is certain: {names}", None, 1.0, (), "answer", 5.0)
    if pos.box_seen is not None:
        return Answer(hint)
    accuse = Accuse(cards)  # type: ignore[arg-type]
    now = accuse in _my_moves(info)  # the seat's moves, asked once
    when = "Accuse now" if now else "Accuse at your turn, instead of asking"
    return Answer(hint, f"{when}: {accuse} wins the game")


def plainly_known(info: InformationSet, deduction: Deduction) -> set[Fact]:
    """Who holds the cards the seat held (its hand, the cards it passed): what it sees or
    did, not deductions (the notepad and the board show them)."""
    pos = parse(info)
    plain = known_to_me(pos)
    return {
        fact
        for fact in deduction.facts
        if fact.kind == HOLDS and pos.index[card_id(fact.args[1])] in plain
    }


def known_to_me(pos: Position) -> set[int]:
    """Cards crossed off without deduction: held by me at some time, or laid."""
    return {c for hand in pos.mine for c in hand} | set(pos.laid_by)


def _accusation_now(pos: Position, deduction: Deduction) -> list[Hint]:
    """While the box is open: the chance an accusation of the likeliest card of each type
    would be right now (the types taken as independent), so that a player sees when a guess
    becomes worth its risk (a wrong accuser cannot win)."""
    box, chance, exact = [], 1.0, deduction.exact
    for kind in TYPES:
        odds = [
            (estimate(deduction, fact), fact)
            for fact in deduction.facts
            if fact.kind == IN_BOX and pos.deck.by_id[card_id(fact.args[0])].type == kind
        ]
        best, fact = max(odds, key=lambda item: item[0].value)
        if not best.shown:
            return []  # odds too rough to weigh a guess on
        box.append(pos.deck.by_id[card_id(fact.args[0])].name)
        chance *= best.value
        exact = exact and best.exact
    if chance >= 1.0 or chance < ACCUSATION_SHOWN:
        return []  # the answer says it, with the accusation; or a guess not worth weighing
    label = "" if exact else f" ({ESTIMATED})"
    text = (
        f"An accusation now ({'; '.join(box)}) would be right {percent(chance)}{label}; "
        "a wrong accuser cannot win"
    )
    return [Hint(text, None, chance, (), "suggestion", 2.3)]


ACCUSATION_SHOWN = 0.05
"""The least chance of a right accusation worth telling a player to weigh."""


def _certain_hints(pos: Position, deduction: Deduction) -> list[Hint]:
    """The box's certain groups and cards, then cards deduced out of it (not those crossed off
    plainly), each with the observations that force it. Explanations cost CP-SAT solves, so a
    refresh spends at most `EXPLAIN_SOLVES` solves on new ones; the rest were remembered, or
    wait their turn (shown without reasons until then)."""
    plain = known_to_me(pos)
    decided: list[tuple[Fact, str, float]] = []
    for fact in deduction.facts:
        if fact.kind == BOX_GROUP and deduction.is_certain(fact):
            decided.append((fact, f"{fact.text} (certain)", 3.5))
    for fact in deduction.facts:
        if fact.kind == IN_BOX and deduction.is_certain(fact):
            decided.append((fact, f"{fact.text} (certain)", 4.0))
    ruled_out = [
        fact
        for fact in deduction.facts
        if fact.kind == IN_BOX
        and pos.index[card_id(fact.args[0])] not in plain
        and not deduction.possible(fact)
    ]
    for fact in ruled_out[:RULED_OUT_SHOWN]:
        name = pos.deck.by_id[card_id(fact.args[0])].name
        decided.append((~fact, f"{name} cannot be in the box", 3.0))
    found, budget = [], EXPLAIN_SOLVES
    for fact, text, score in decided:
        sources = remembered(deduction, fact)
        if sources is None and budget > 0:
            try:
                sources, budget = _explain_some(deduction, fact, budget)
            except SolverTimeout:  # a safety ceiling on a loaded machine: a later refresh
                budget = 0  # tries again, and this one shows the fact without its reasons
        reasons = (
            ()
            if sources is None
            else tuple(deduction.describe([deduction.info.observations[i] for i in sources]))
        )
        found.append(Hint(text, fact, 1.0, reasons, "certain", score))
    return found


ExplanationKey = tuple[str, tuple, object, Fact]  # game, options, seat, fact
_EXPLAINED: dict[ExplanationKey, tuple[tuple[Observation, ...], tuple[int, ...]]] = {}
"""Explanations found at earlier positions, shared by every thread of the process: a module
cache, safe for threads because every read and write holds `_EXPLAINED_LOCK`, its values are
immutable tuples, and callers get new lists. (A CP-SAT search runs outside the lock, so two
threads may find the same explanation at once; both are right, and one is kept.)"""
_EXPLAINED_LOCK = threading.Lock()
EXPLAINED_KEPT = 4_096
_SEARCHES: dict[ExplanationKey, tuple[tuple[Observation, ...], CoreSearch]] = {}
"""Explanations under way: each search with the observations of the position it began at
(guarded by `_EXPLAINED_LOCK` too; its values are immutable)."""


def forget_explanations() -> None:
    """Drop every remembered explanation, and those under way."""
    with _EXPLAINED_LOCK:
        _EXPLAINED.clear()
        _SEARCHES.clear()


def _explain_some(deduction: Deduction, fact: Fact, solves: int) -> tuple[list[int] | None, int]:
    """`explain`, at most `solves` CP-SAT solves of it: the explanation when it is found
    (then remembered), and the solves left.

    A search begun at an earlier position of the game resumes here: its observations still
    force the fact and each one found necessary still is (the argument of `explain`), so it
    ends where it would have ended there, and the explanation holds from that position on."""
    key, observations = _key(deduction, fact), deduction.info.observations
    with _EXPLAINED_LOCK:
        under_way = _SEARCHES.get(key)
    began, start = observations, None
    if under_way is not None and observations[: len(under_way[0])] == under_way[0]:
        began, start = under_way
    search = deduction.explain_search(fact, start, solves)
    left = solves - (search.solves - (start.solves if start is not None else 0))
    with _EXPLAINED_LOCK:
        if not search.done:
            if len(_SEARCHES) >= EXPLAINED_KEPT:
                _SEARCHES.clear()
            _SEARCHES[key] = (began, search)
            return None, left
        _SEARCHES.pop(key, None)
        if len(_EXPLAINED) >= EXPLAINED_KEPT:
            _EXPLAINED.clear()
        _EXPLAINED[key] = (began, tuple(search.necessary))
    return search.necessary, left


def explain(deduction: Deduction, fact: Fact) -> list[int]:
    """`deduction.explain_sources(fact)`, remembered from an earlier position of the same game.

    A hint refresh follows every new observation, and most certainties were explained the
    time before. An explanation found when the observations were a prefix of today's still
    holds: its observations still force the fact, and it is still minimal, because dropping
    one of them left a consistent history of the epochs then, and the rules alone extend any
    such history to later epochs (a card may always stay where it is).
    """
    sources = remembered(deduction, fact)
    if sources is not None:
        return sources
    info = deduction.info
    sources = deduction.explain_sources(fact)
    with _EXPLAINED_LOCK:
        if len(_EXPLAINED) >= EXPLAINED_KEPT:
            _EXPLAINED.clear()
        _EXPLAINED[_key(deduction, fact)] = (info.observations, tuple(sources))
    return list(sources)


def remembered(deduction: Deduction, fact: Fact) -> list[int] | None:
    """The explanation of `fact` found at an earlier position of this game, if any."""
    with _EXPLAINED_LOCK:
        known = _EXPLAINED.get(_key(deduction, fact))
    observations = deduction.info.observations
    if known is not None and observations[: len(known[0])] == known[0]:
        return list(known[1])
    return None


def _key(deduction: Deduction, fact: Fact) -> ExplanationKey:
    info = deduction.info
    return (info.game, info.options, info.seat, fact)


def _box_odds(pos: Position, deduction: Deduction) -> list[Hint]:
    """Per type, the likeliest box cards with their chances; estimated ones are labelled with
    their 95% margins, and possible cards the estimate never reached are counted apart."""
    found = []
    by_type: dict[str, list[tuple[Estimate, Fact]]] = {kind: [] for kind in TYPES}
    for fact in deduction.facts:
        if fact.kind == IN_BOX:
            chance = estimate(deduction, fact)
            if chance.value > 0:
                by_type[pos.deck.by_id[card_id(fact.args[0])].type].append((chance, fact))
    for kind, chances in by_type.items():
        reached = sorted((c for c in chances if c[0].shown), key=lambda c: -c[0].value)
        best, fact = reached[0] if reached else chances[0]
        table = ", ".join(
            f"{pos.deck.by_id[card_id(f.args[0])].name} {chance.short()}"
            for chance, f in reached[:ODDS_LISTED]
        )
        if len(reached) > ODDS_LISTED:
            rest = reached[ODDS_LISTED:]
            table += f", {len(rest)} more at {percent(rest[0][0].value)} or less"
        unreached = len(chances) - len(reached)
        if unreached:
            table += (", " if table else "") + f"{unreached} possible, {NOT_YET}"
        label = "" if deduction.exact else f" ({ESTIMATED}, ± 95% margin)"
        found.append(
            Hint(
                f"The box's {kind}{label}: {table}",
                fact,
                best.value,
                (),
                "likely",
                1.0 + best.value,
            )
        )
    return found


def _card_odds(pos: Position, deduction: Deduction) -> list[Hint]:
    """Where each card I cannot see is most likely to be now."""
    found = []
    plain = known_to_me(pos)
    chances: dict[int, list[tuple[Estimate, str, Fact]]] = {}
    for fact in deduction.facts:
        if fact.kind == HOLDS and pos.index[card_id(fact.args[1])] not in plain:
            chances.setdefault(pos.index[card_id(fact.args[1])], []).append(
                (estimate(deduction, fact), f"player {fact.args[0]}", fact)
            )
    for fact in deduction.facts:
        if fact.kind == IN_BOX and pos.index[card_id(fact.args[0])] in chances:
            chances[pos.index[card_id(fact.args[0])]].append(
                (estimate(deduction, fact), "the box", fact)
            )
    certain: dict[str, list[tuple[str, Fact]]] = {}
    likely: dict[str, list[tuple[float, str]]] = {}
    for card, options in chances.items():
        best, where, fact = max(options, key=lambda o: o[0].value)
        name = pos.deck.cards[card].name
        if best.exact and best.value == 1.0:
            certain.setdefault(where, []).append((name, fact))
        elif best.shown and best.value >= LIKELY_PLACE:
            likely.setdefault(where, []).append((best.value, f"{name} {best.short()}"))
    label = "" if deduction.exact else f" ({ESTIMATED})"
    for where in sorted(certain.keys() | likely.keys()):
        holder = f"{where[:1].upper()}{where[1:]}"
        for name, fact in certain.get(where, ()):  # one per fact (for why), shown folded
            heading = f"{holder} certainly holds"
            found.append(Hint(f"{heading} {name}", fact, 1.0, (), "where", 0.52, (heading, name)))
        if where in likely:
            cards = [text for _, text in sorted(likely[where], reverse=True)]
            text = f"{holder} probably holds{label} {'; '.join(cards[:CARDS_LISTED])}"
            if len(cards) > CARDS_LISTED:
                text += f"; and {len(cards) - CARDS_LISTED} more"
            found.append(Hint(text, None, None, (), "where", 0.5))
    return found


LIKELY_PLACE = 0.5
"""A card's likeliest place is told when it is at least this likely (the notepad grid shows
every card's odds)."""
CARDS_LISTED = 6
