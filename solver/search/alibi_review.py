"""How a review values an Alibi decision (solver/review.py, solver/search/grading.py): the move
made and the solver's move in the unit the solver itself chooses by, so that a move the advice
did not score (a question outside its top three, a pass, a lay) is valued as the solver's is.

- A question beside the solver's question: its expected information about the box in bits
  (`BITS`, `question_bits`: on the same samples, exactly `best_questions`' gain).
- Asking beside accusing, either way round, or one accusation beside another: the chance of
  winning (`CHANCE`). An accusation is worth its chance of being right (the product of its
  cards' chances, as the solver weighs its own); asking, that is waiting, is worth the bar
  above which the solver accuses (`alibi._bar`, on the advice's own samples).
- A pass: minus the expected number of its cards the left neighbour had not seen (`CARDS`),
  publicly cleared cards counting as seen, as the solver ranks its own.
- A lay: the bits about the box it tells the opponents (`TOLD`), which the solver's move
  tells none of (it lays only groups everyone knows are not in the box). Its points are not
  counted: the solver does not trade information for points.
- A written solution (variant "solutions"): its expected number of right cards (`RIGHT`).

When the solver lays first, a question or an accusation made instead is valued beside what
the solver plays after laying (a lay tells me nothing, so my move after it is the same
decision).

Questions, passes and lays are valued on `WIDE` posterior samples of their own, not on the
advice's 200: the advice picks its question on those, so they flatter it (on them it is the
best by construction), and an information estimate from 200 samples is biased upward by up to
0.3 bits early in a game, when the answer and the box take many values each (the
Miller-Madow correction falls short): early questions then seem worth 0.1-0.3 bits where
4,000 samples find under 0.05, the solver's question and the player's alike. Where the
posterior is a Markov chain's, drawing them from that chain's records would flatter the advice
all the same (it chose on those records), so they come from a chain of their own on the same
position (`HistoryChain.rerun`). The samples are drawn with the turn's RNG after the advice
used it, so a review stays reproducible.

The solver bot's own moves are not always valued best: it chose on samples of its own, and
late in a full game, where the posterior is a Markov chain's (`chain.HistoryChain`, carried
from the position before), two runs on one position can disagree on a card's chance by tens
of points; its question is then worth less on the review's samples.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

import numpy as np

from engines import Action, InformationSet
from engines.alibi import TYPES, Alibi
from engines.alibi import actions as act
from engines.alibi.questions import question_words
from solver.deduction import Deduction, deduce
from solver.errors import SolverTimeout
from solver.games.alibi.chain import STEPS, HistoryChain
from solver.games.alibi.hinting import SAMPLES, Samples, information
from solver.games.alibi.model import IN_BOX
from solver.games.alibi.position import Position, parse
from solver.hints import percent
from solver.search import Advice, Candidate, Turn
from solver.search.alibi import (
    _bar,
    best_box,
    chance_of,
    choose,
    publicly_cleared,
)
from solver.search.grading import CHANCE, Grading, Judged

BITS = Grading("bits", 0.1, 0.25, 0.5, "the expected information about the box in an answer")
"""Questions beside questions: the solver's own picks with different seeds on one position
land within 0.1 bits of each other 93% of the time (108 pairs over 3 full games)."""
GRADING = BITS
"""A review's grading of Alibi: most of a seat's decisions are questions."""
CARDS = Grading("cards", 0.25, 0.5, 1.0, "cards a pass shows the left neighbour (expected)")
"""Passes: the solver's own passes lose nothing on 95% of positions (78 passes of 6 full
games) and a random pass a card at the median, so a quarter card is good, a whole one a
mistake."""
TOLD = Grading("bits told", 0.1, 0.5, 1.5, "what a lay tells the opponents about the box")
"""Lays, summed over the opponents: a group they had all but crossed off tells under 0.1 bits;
one that crosses three cards off their notepads tells 1-3.5 bits in all (measured), about
what two or three of the solver's questions tell me, so above 1.5 bits is a blunder."""
WIDE = 2_000
"""Posterior samples a decision's moves are valued on: drawing them costs 0.05-0.15 s, and
an information estimate from them is within a few hundredths of a bit of one from 4,000."""
VALUATION_STEPS = 3 * STEPS
"""The steps of the chain of its own that values moves where the posterior is a chain's
(`HistoryChain.rerun`, about 1.5 s): on 20 games of the solver's seat against three
heuristics, best or good on 85.3% of its decisions valued on the advice's own chain, 91.5%
on a chain of its own of STEPS, 93.4% of 3 x STEPS (its records further apart); 91.9% of
3 x STEPS over 40 games."""
RIGHT = Grading("right cards", 0.05, 0.2, 0.5, "a written solution's right cards (expected)")
"""Written solutions: half a right card expected is a mistake."""


class Table:
    """What the judge reads at one decision, each part made once and only when needed."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.info: InformationSet = turn.info
        self.game = Alibi.of(turn.info)
        self.pos: Position = parse(turn.info)
        self.cleared = publicly_cleared(turn.info)
        self._deduction: Deduction | None = None
        self._drawn: Samples | None = None
        self._wide: Samples | None = None
        self._bar: float | None = None

    @property
    def deduction(self) -> Deduction:
        """The box's deduction (the advice's: `deduce` remembers the full one)."""
        if self._deduction is None:
            self._deduction = deduce(self.info, about=lambda fact: fact.kind == IN_BOX)
        return self._deduction

    @property
    def wide(self) -> Samples:
        """`WIDE` posterior samples of this position, to value moves on: where the posterior
        is a chain's, from a chain of their own (`HistoryChain.rerun`), not the records the
        advice chose its question on."""
        if self._wide is None:
            worlds = self.deduction.worlds
            if isinstance(worlds, HistoryChain):
                seed = self.turn.rng.randrange(1 << 30)
                own = worlds.rerun(seed, VALUATION_STEPS)
                rng = random.Random(self.turn.rng.randrange(1 << 30))
                self._wide = Samples(self.pos, self.deduction, WIDE, rng, own)
            else:
                self._wide = self.draw(WIDE)
        return self._wide

    @property
    def drawn(self) -> Samples:
        """The advice's posterior samples of this position (its bar's), else new ones."""
        if self._drawn is None:
            kept = self.turn.memory.get("drawn")
            if isinstance(kept, Samples) and kept.pos.info == self.info:
                self._drawn = kept
            else:  # the advice drew none here (a certain box, a lay)
                self._drawn = self.draw(SAMPLES)
        return self._drawn

    def draw(self, samples: int) -> Samples:
        seed = self.turn.rng.randrange(1 << 30)
        return Samples(self.pos, self.deduction, samples, random.Random(seed))

    @property
    def bar(self) -> float:
        """Waiting's worth: the chance above which the solver accuses."""
        if self._bar is None:
            self._bar = _bar(self.game, self.info, self.drawn, self.cleared)
        return self._bar

    def odds(self, cards: Iterable[str]) -> list[float]:
        """Each card's chance of being in the box."""
        facts = {str(f.args[0]): f for f in self.deduction.facts if f.kind == IN_BOX}
        return [chance_of(self.deduction, facts[card]) for card in cards]

    def adopt(self, solver: Deduction | None, drawn: Samples | None) -> None:
        """Read the deduction and samples the solver just made for this position."""
        self._deduction = solver or self._deduction
        self._drawn = drawn or self._drawn


def judge(turn: Turn, advice: Advice, action: Action) -> Judged | None:
    """`action` and the solver's move valued in one unit (see the module); None when the
    deduction ran out of time, or for a move of no known kind."""
    table = _table(turn)
    try:
        match action:
            case act.Ask() | act.Accuse():
                return _turn(table, advice, action)
            case act.Pass():
                return _pass(table, advice, action)
            case act.Lay():
                return _lay(table, advice, action)
            case act.Solution():
                return _solution(table, advice, action)
    except SolverTimeout:
        return None
    return None


def _table(turn: Turn) -> Table:
    """The turn's table, made at its first move judged and kept in its memory for the next
    ones (a policy judges every legal move of one turn: its samples are drawn once)."""
    kept = turn.memory.get(TABLE)
    if isinstance(kept, Table) and kept.info == turn.info:
        return kept
    table = turn.memory[TABLE] = Table(turn)
    return table


TABLE = "review table"
"""The memory key of a turn's `Table`."""


# --- questions and accusations ----------------------------------------------------------------
def _turn(table: Table, advice: Advice, action: act.Ask | act.Accuse) -> Judged:
    """A question or an accusation: in bits beside the solver's question, else in chances."""
    solver, first = advice.move, ""
    if isinstance(advice.move, act.Lay):
        solver, first = _after_lay(table), f"lay {advice.move.group} first, then "
    if isinstance(solver, act.Ask) and isinstance(action, act.Ask):
        made = Candidate(action, question_bits(table.wide, action), _asks(table, action))
        bits = question_bits(table.wide, solver)
        best = Candidate(solver, bits, first + _asks(table, solver))
        return Judged(made, best, BITS)
    made = _waiting_or_accusing(table, action, "")
    return Judged(made, _waiting_or_accusing(table, solver, first), CHANCE)


def _after_lay(table: Table) -> Action:
    """The solver's move once it has laid: its move with the lays left out (a lay tells me
    nothing, so it asks or accuses as it would after laying). Its memory is not touched."""
    turn = table.turn
    legal = [a for a in turn.legal if not isinstance(a, act.Lay)]
    made = choose(table.info, legal, turn.rng, dict(turn.memory))
    table.adopt(made.deduction, made.drawn)
    assert made.move is not None
    return made.move


def _waiting_or_accusing(table: Table, action: Action, first: str) -> Candidate:
    """An accusation at its chance of being right; any other move at waiting's worth."""
    if isinstance(action, act.Accuse):
        chance = math.prod(table.odds(action.cards))
        return Candidate(action, chance, f"{first}accuse now: right {percent(chance)}")
    words = f"waits: worth {percent(table.bar)}, the chance above which accusing pays"
    return Candidate(action, table.bar, first + words)


def question_bits(drawn: Samples, ask: act.Ask) -> float:
    """The expected information (bits) of the answer to `ask` about the box's cards of the
    types it asks about, on `drawn`: for a question about one type, `best_questions`' gain."""
    pos = drawn.pos
    cards = [pos.index[c] for c in ask.subject.cards(pos.deck)]
    subject = np.zeros((1, len(pos.ids)), dtype=bool)
    subject[0, cards] = True
    answers = drawn.answers(ask.target, ask.scope, subject)[:, 0]
    kinds = sorted({pos.kind[c] for c in cards})
    if len(kinds) == 1:
        return information(answers, drawn.box[:, kinds[0]])
    box = np.zeros(len(answers), dtype=np.int64)
    for k in kinds:  # a card list of several types: their box cards as one variable
        box = box * len(pos.deck.of_type(TYPES[k])) + drawn.box[:, k]
    _, codes = np.unique(box, return_inverse=True)
    return information(answers, codes.reshape(-1))


def _asks(table: Table, ask: act.Ask) -> str:
    words = question_words(ask.scope, ask.subject, table.game.deck)
    return f"asks player {ask.target} '{words}'"


# --- passes, lays and solutions ---------------------------------------------------------------
def _pass(table: Table, advice: Advice, action: act.Pass) -> Judged:
    """A pass at minus the cards of it the left neighbour had not seen (expected)."""
    seen = _seen_left(table)

    def valued(move: Action) -> Candidate:
        cards = move.cards if isinstance(move, act.Pass) else ()
        shown = sum(1 - seen[table.pos.index[c]] for c in cards)
        return Candidate(move, -shown, f"shows your left neighbour {shown:.2f} new cards")

    return Judged(valued(action), valued(advice.move), CARDS)


def _seen_left(table: Table) -> np.ndarray:
    """Each card's chance that my left neighbour has seen it (1 when publicly cleared)."""
    pos = table.pos
    seen: np.ndarray = table.wide.seen[(pos.me + 1) % pos.players].mean(axis=0)
    seen[[pos.index[c] for c in table.cleared]] = 1.0
    return seen


def _lay(table: Table, advice: Advice, action: act.Lay) -> Judged:
    """A lay at minus the bits it tells the opponents: none for a publicly cleared group, or
    when the solver accuses a certain box now (the game ends before anyone can use them)."""
    cards = table.game.deck.of_group(action.group)
    certain = isinstance(advice.move, act.Accuse) and best_box(table.game, table.deduction)[2]
    told = 0.0 if set(cards) <= table.cleared or certain else told_bits(table, cards)
    made = Candidate(action, 0.0 - told, f"tells the opponents {told:.2f} bits about the box")
    best = Candidate(advice.move, 0.0, "tells the opponents nothing about the box")
    return Judged(made, best, TOLD)


def told_bits(table: Table, cards: Iterable[str]) -> float:
    """What laying `cards` (of one group) tells the opponents about the box, in bits, summed
    over them: each crosses them off a notepad of the cards of their type neither seen nor
    publicly cleared, and the box card is equally likely any of those (as the solver reads
    its opponents in `opponents_ready`), averaged over my posterior samples."""
    pos, drawn = table.pos, table.wide
    laid = [pos.index[c] for c in cards]
    of_type = [pos.index[c] for c in pos.deck.of_type(TYPES[pos.kind[laid[0]]])]
    public = np.zeros(len(pos.ids), dtype=bool)
    public[[pos.index[c] for c in table.cleared]] = True
    total = np.zeros(len(drawn.box))
    for seat in range(pos.players):
        if seat == pos.me:
            continue
        open_ = ~(drawn.seen[seat] | public)  # samples x cards: still on their notepad
        left = open_[:, of_type].sum(axis=1)
        crossed = open_[:, laid].sum(axis=1)
        total += np.log2(left / np.maximum(left - crossed, 1))
    return float(total.mean())


def _solution(table: Table, advice: Advice, action: act.Solution) -> Judged:
    """A written solution at its expected number of right cards."""

    def valued(move: Action) -> Candidate:
        cards = move.cards if isinstance(move, act.Solution) else ()
        right = sum(table.odds(cards))
        return Candidate(move, right, f"{right:.2f} of its four cards right on average")

    return Judged(valued(action), valued(advice.move), RIGHT)
