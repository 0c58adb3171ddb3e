"""Alibi's search and the advice read off it: the question with the highest expected
information about the box, the pass that tells the left neighbour least, a set laid only when
the group is publicly cleared, and an accusation when the box is certain, or earlier when the
best guess is likelier to win than waiting (an opponent may name the box first).

Its work is fixed (the deduction's chain steps, a number of posterior samples), so a seed
fixes the move. `time_budget` (seconds, off by default) is a hard ceiling on a move and then
the one source of non-determinism, and only when it is reached: while no deadline has passed
the work and the move are those without a budget. The notepad's move is ready first (no
solve); the deduction stops at half the budget (a shorter chain, facts left unsettled taken as
uncertain), the questions are scored until 80% of it is spent (the rest is for the step under
way then), and whatever is not done by then gives way to the best move ready (`Clock`,
`_out_of_time`). The garbage collector waits while a budgeted move is chosen
(`collector_paused`).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

import numpy as np

from engines import Action, InformationSet, NotToMove
from engines.alibi import TYPES, Alibi, Subject, SubjectKind
from engines.alibi import actions as act
from engines.alibi.observations import Answered, Laid, Seating
from engines.alibi.questions import question_words
from solver.deduction import Deduction, deduce
from solver.errors import SolverTimeout
from solver.games.alibi.hinting import (
    SAMPLES,
    SPOKEN_CARDS,
    Question,
    Samples,
    best_questions,
    known_to_me,
)
from solver.games.alibi.model import IN_BOX
from solver.games.alibi.position import parse
from solver.hints import Hint, percent
from solver.model import Fact
from solver.search import Advice, Candidate, Memory, Turn

KNOBS: dict[str, object] = {"time_budget": None}
QUESTION_SAMPLES = 1000
"""The posterior samples the bot picks its question on (and passes with after it). On the
notebook's 200 its early picks were noise: an information estimate from 200 samples is biased
up by 0.1-0.3 bits early in a game, where 2,000 find under 0.05, so two seeds picked questions
more than 0.1 bits apart one time in seven. With 1,000, in 400 games against three
heuristics the bot won 95.2% [92.7, 96.9] (89.8% with 200), its decisions taking a median
92 ms, p95 453 ms, max 3.3 s (48 ms, 664 ms and 13.2 s with 200)."""
PATIENCE = 0.9
"""The chance of winning later if no opponent gets there first (the box becomes certain in
most games well before the round limit)."""
Box = tuple[str, str, str, str]


def box_of(cards: Sequence[str]) -> Box:
    """One card per type, in type order, as an accusation names them."""
    suspect, place, weapon, feeling = cards
    return suspect, place, weapon, feeling


def publicly_cleared(info: InformationSet) -> set[str]:
    """Cards everyone knows are not in the box: laid, or in an answer of "all of them"."""
    cleared: set[str] = set()
    for obs in info.observations:
        match obs:
            case Laid(cards=cards):
                cleared.update(cards)
            case Answered(cards=cards, answer=answer) if cards and answer == len(set(cards)):
                cleared.update(cards)
    return cleared


class Choice:
    """One move's decision and what it was read from (for the advice)."""

    def __init__(self) -> None:
        self.move: Action | None = None
        self.why = ""
        self.samples = 0
        self.deduction: Deduction | None = None
        self.drawn: Samples | None = None
        self.box: Box | None = None
        self.chance = 0.0
        self.bar: float | None = None
        self.seen: dict[str, float] = {}  # pass: chance the left neighbour has seen each card
        self.question: Question | None = None
        self.hurried = False  # whether a deadline of the budget passed (`Clock.hurried`)


def choose(
    info: InformationSet,
    legal: Sequence[Action],
    rng: random.Random,
    memory: Memory,
    time_budget: float | None = None,
) -> Choice:
    """The solver's move at `info`; `memory` keeps the posterior samples of this round's
    question for the pass after it (a bot passes the same memory on every move)."""
    clock = Clock(time_budget)
    with collector_paused(time_budget):
        made = _choose(info, legal, rng, memory, clock)
    # cut: the deduction's deadline passed, or the deduction stopped short of it (a solve it
    # could not finish in the time left is not begun)
    made.hurried = clock.hurried() or (made.why == "out of time" and time_budget is not None)
    return made


def _choose(
    info: InformationSet, legal: Sequence[Action], rng: random.Random, memory: Memory, clock: Clock
) -> Choice:
    game = Alibi.of(info)
    made = Choice()
    passes = [a for a in legal if isinstance(a, act.Pass)]
    if passes:
        return _pass(info, len(passes[0].cards), rng, memory, made, clock)
    cleared = publicly_cleared(info)
    if any(isinstance(a, act.Solution) for a in legal):
        return _write(info, game, cleared, made, clock)
    for action in legal:
        if isinstance(action, act.Lay) and set(game.deck.of_group(action.group)) <= cleared:
            made.move, made.why = action, "lay"
            return made
    ready = Notepad(info, game, cleared)  # the move out of time, ready before any solve
    try:
        d = deduce(info, about=lambda fact: fact.kind == IN_BOX, deadline=clock.deduced)
    except SolverTimeout:  # the budget, or CP-SAT's deterministic ceiling (`_out_of_time`)
        return _out_of_time(info, ready, memory, made, clock)
    made.deduction = d
    box, chance, certain = best_box(game, d)
    made.box, made.chance = box, chance
    if certain:
        made.move, made.why = act.Accuse(box), "certain"
        return made
    if clock.late():
        return _out_of_time(info, ready, memory, made, clock)
    made.samples = QUESTION_SAMPLES
    drawn = Samples(parse(info), d, made.samples, random.Random(rng.randrange(1 << 30)))
    memory["drawn"] = drawn  # the posterior of this round, for choosing the pass after it
    made.drawn = drawn
    made.bar = _bar(game, info, drawn, cleared)
    if chance >= made.bar:
        made.move, made.why = act.Accuse(box), "odds"
        return made
    made.question = best_questions(info, d, top=1, drawn=drawn, deadline=clock.deadline)[0]
    made.move, made.why = made.question.ask, "ask"
    return made


class Clock:
    """A decision's time budget (None: none, and then every amount of work is fixed): the
    deduction stops at half of it (`deduced`), the questions are scored until `deadline`,
    which keeps `RESERVE` of the budget for the step under way when it passes. Until a
    deadline passes, nothing is cut: the move is the one without a budget."""

    def __init__(self, budget: float | None) -> None:
        self.budget = budget
        self.began = time.monotonic()
        self.deadline = None if budget is None else self.began + budget * (1 - RESERVE)
        self.deduced = None if budget is None else self.began + budget / 2

    def late(self) -> bool:
        """Whether the time for work is spent."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    def hurried(self) -> bool:
        """Whether the deduction's deadline passed: only then may the move differ from the
        one without a budget."""
        return self.deduced is not None and time.monotonic() >= self.deduced


RESERVE = 0.2
"""The share of a budget left after the last deadline, for the step under way when it passes
(scoring the questions to one more player, CP-SAT loading the model for a solve the
deduction began, collecting what the move allocated) and for returning the move. Those steps
take a few to about 30 ms of CPU late in a full game, and more wall time on a loaded machine."""


@contextmanager
def collector_paused(budget: float | None) -> Iterator[None]:
    """With a time budget, Python's cyclic garbage collector waits until the move is chosen.

    A collection of the older generations walks every long-lived object of the process (late
    in a game, 50-120 ms of CPU in a process that plays Alibi, several times that in wall time
    on a loaded machine) and falls on whichever allocation crosses its threshold, so one
    falling inside a 0.1 s move breaks the budget, however finely the work checks its
    deadline. So the move runs with the collector paused, and before it returns it collects
    the youngest generation only (what the move allocated: a few milliseconds), which also
    puts the next automatic collection hundreds of allocations away, in the caller's code.
    The older generations' collections are not saved, only moved: they run at the caller's
    allocations between moves (the opponents' turns), which is what a caller that gives a
    budget asks for. Should the caller allocate too little between moves for the collector
    to keep its schedule (`LAG` times behind it), the move ends with the collection it
    missed, so garbage never piles up. A move's allocations are bounded by its budget, so the
    memory held back meanwhile is bounded too. Without a budget nothing changes, and a
    collector paused already (by the caller, or by the bot around this call) stays paused."""
    if budget is None or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.collect(0)
        _, young, old = gc.get_count()  # collections of the generation below, since its own
        _, every_young, every_old = gc.get_threshold()
        if young > LAG * every_young:
            gc.collect(2 if old >= every_old else 1)
        gc.enable()


LAG = 4
"""How far (times its own schedule) a paused collector may fall behind before a move catches
up on its older generations (`collector_paused`)."""


def chance_of(d: Deduction, fact: Fact) -> float:
    """`d.probability(fact)`, without a CP-SAT solve for a fact the deduction had no time to
    settle (a bot out of time acts on the estimate)."""
    return d.probability(fact) if d.settled(fact) else d.worlds.probability(fact)


def best_box(game: Alibi, d: Deduction) -> tuple[Box, float, bool]:
    """The likeliest card of each type, the chance they are all right (types taken as
    independent), and whether the box is certain (never, for a card left unsettled by a
    deduction out of time)."""
    box, chance, certain = [], 1.0, True
    for kind in TYPES:
        odds = [
            (chance_of(d, f), f)
            for f in d.facts
            if f.kind == IN_BOX and game.deck.by_id[str(f.args[0])].type == kind
        ]
        p, fact = max(odds, key=lambda item: item[0])
        box.append(str(fact.args[0]))
        chance *= p
        certain = certain and d.settled(fact) and d.is_certain(fact)
    return box_of(box), chance, certain


class Notepad:
    """The move out of time, read off a notepad (the cards I know are not in the box, and the
    publicly cleared ones) with no solve, so that it is ready before the deduction starts:
    the accusation when every type has one card left, else a question about a group of a
    type still open: of the (player, group) pairs, the one I asked longest ago (one never
    asked first), then the group with the most cards left, then the player nearest on my
    left. A question asked again tells the notepad little new, and a bot out of time on
    every turn that kept asking one stalled."""

    def __init__(self, info: InformationSet, game: Alibi, cleared: set[str]) -> None:
        pos = parse(info)
        crossed = {pos.ids[c] for c in known_to_me(pos)} | cleared
        left = [[c for c in game.deck.of_type(kind) if c not in crossed] for kind in TYPES]
        self.guess = box_of([cards[0] for cards in left])
        """The first card left of each type (a written solution out of time)."""
        self.move: act.Accuse | act.Ask
        if all(len(cards) == 1 for cards in left):
            self.move = act.Accuse(box_of([cards[0] for cards in left]))
            return
        asked: dict[tuple[int, tuple[str, ...]], int] = {}  # when I last asked it
        for k, obs in enumerate(info.observations):
            if isinstance(obs, Answered) and obs.asker == pos.me and obs.scope == "seen":
                asked[(obs.target, tuple(obs.cards))] = k
        open_types = {kind for kind, cards in zip(TYPES, left, strict=True) if len(cards) > 1}
        groups = [g for g in game.deck.groups if game.deck.type_of_group(g) in open_types]
        n = pos.players
        target, group = min(
            ((target, g) for target in range(n) if target != pos.me for g in groups),
            key=lambda pair: (
                asked.get((pair[0], tuple(game.deck.of_group(pair[1]))), -1),
                -sum(c not in crossed for c in game.deck.of_group(pair[1])),
                (pair[0] - pos.me) % n,
            ),
        )
        self.move = act.Ask(target, "seen", Subject(SubjectKind.GROUP, group))


def _write(
    info: InformationSet, game: Alibi, cleared: set[str], made: Choice, clock: Clock
) -> Choice:
    """The variant "solutions": the likeliest card of each type (each right card scores, so
    each type's likeliest is best), or the notepad's first card left of each type when the
    deduction does not finish in time."""
    made.why = "solution"
    try:
        d = deduce(info, about=lambda fact: fact.kind == IN_BOX, deadline=clock.deduced)
    except SolverTimeout:
        made.move = act.Solution(Notepad(info, game, cleared).guess)
        return made
    made.deduction = d
    box, made.chance, _ = best_box(game, d)
    made.box, made.move = box, act.Solution(box)
    return made


def _out_of_time(
    info: InformationSet, ready: Notepad, memory: Memory, made: Choice, clock: Clock
) -> Choice:
    """The move when the deduction did not finish in time: the budget ran out before it had
    a consistent history and a chain, or it was done after the time for work; or, with no
    budget, its first solve reached CP-SAT's ceiling (counted in deterministic time, so a seed
    still fixes the move; a 400-game arena met it once, and the bot stopped there before). It
    plays the notepad's accusation, else the best question on the samples of my last turn
    when there is time left to score them, else the notepad's question."""
    made.why = "out of time"
    drawn = memory.get("drawn")
    if isinstance(ready.move, act.Ask) and isinstance(drawn, Samples) and not clock.late():
        made.question = best_questions(info, None, top=1, drawn=drawn, deadline=clock.deadline)[0]
        made.move, made.drawn = made.question.ask, drawn
        return made
    made.move = ready.move
    return made


def _bar(game: Alibi, info: InformationSet, drawn: Samples, cleared: set[str]) -> float:
    """The chance of being right above which accusing now beats waiting a round."""
    limit = game.options["round_limit"]
    if limit is not None and drawn.pos.epoch + 1 >= limit:
        return 1 / game.players  # the last turn: a fair share on points or better
    return (1 - opponents_ready(info, drawn, cleared)) * PATIENCE


def _pass(
    info: InformationSet, size: int, rng: random.Random, memory: Memory, made: Choice, clock: Clock
) -> Choice:
    """The pass revealing least: the cards my left neighbour most likely has seen already
    (publicly cleared cards count as seen), by the posterior samples of my turn this round
    (what was asked since hardly moves that)."""
    pos = parse(info)
    held = [c for c in pos.mine[-1] if c not in pos.laid_by]
    drawn = memory.get("drawn")
    seen = np.zeros(len(pos.ids))  # out of time with nothing drawn: the cleared cards first
    if drawn is None or drawn.pos.epoch != pos.epoch:  # no turn of mine this round
        drawn = None
        with suppress(SolverTimeout):  # out of time: the cleared cards first, then by chance
            d = deduce(info, about=lambda fact: fact.kind == IN_BOX, deadline=clock.deduced)
            if not clock.late():
                made.samples = SAMPLES // 3
                drawn = Samples(pos, d, made.samples, random.Random(rng.randrange(1 << 30)))
    if drawn is not None:
        seen = drawn.seen[(pos.me + 1) % pos.players].mean(axis=0)
    cleared = {pos.index[c] for c in publicly_cleared(info)}
    score = {c: (c in cleared, seen[c], rng.random()) for c in held}
    ranked = sorted(held, key=score.__getitem__, reverse=True)
    made.move, made.why, made.drawn = (
        act.Pass(tuple(pos.ids[c] for c in ranked[:size])),
        "pass",
        drawn,
    )
    made.seen = {pos.ids[c]: 1.0 if c in cleared else float(seen[c]) for c in ranked}
    return made


def opponents_ready(info: InformationSet, drawn: Samples, cleared: set[str]) -> float:
    """The chance that some opponent can name the box before my next turn, reading each
    opponent as the notepad heuristic does (the cards they have seen, and what is publicly
    cleared): in each posterior sample, an opponent who has crossed off every card of every
    type but the box's is ready now; one who moves after the coming pass, before my next
    turn, may also get the last cards they miss from their right neighbour's hand."""
    pos = drawn.pos
    me, n = pos.me, pos.players
    start = next(obs.start for obs in info.observations if isinstance(obs, Seating))
    order = [(start + k) % n for k in range(n)]
    after_pass = set(order[: order.index(me)])  # they move before me in the next round
    public = np.zeros(len(pos.ids), dtype=bool)
    public[[pos.index[c] for c in cleared]] = True
    boxed = np.zeros((drawn.box.shape[0], len(pos.ids)), dtype=bool)
    for k in range(len(TYPES)):
        first = pos.ids.index(pos.deck.of_type(TYPES[k])[0])
        boxed[np.arange(len(boxed)), first + drawn.box[:, k]] = True
    r = pos.epoch + 1  # the coming pass moves r cards
    not_ready = np.ones(len(boxed))
    for seat in range(n):
        if seat == me:
            continue
        missing = ~(drawn.seen[seat] | public | boxed)  # what keeps them from naming the box
        m = missing.sum(axis=1)
        chance = (m == 0).astype(float)
        if seat in after_pass:
            giver_hand = drawn.now == (seat - 1) % n
            inside = ~(missing & ~giver_hand).any(axis=1)
            h = giver_hand.sum(axis=1)
            for i in np.flatnonzero(inside & (m > 0)):
                passed = min(r, int(h[i]))
                if m[i] <= passed:
                    chance[i] = math.comb(int(h[i]) - int(m[i]), passed - int(m[i])) / math.comb(
                        int(h[i]), passed
                    )
        not_ready *= 1 - chance
    return float(1 - not_ready.mean())


# --- advice -----------------------------------------------------------------------------------
def advise(turn: Turn, time_budget: float | None = None) -> Advice:
    """The solver's move in words, the runners-up (other questions), the opponents' threat
    (naming the box before my next turn), and the box's odds and best question always."""
    info, legal, rng, memory = turn
    made = choose(info, legal, rng, memory, time_budget)
    game = info.make_game()
    assert isinstance(game, Alibi) and made.move is not None
    deck = game.deck
    if made.why == "pass":
        listed = ", ".join(
            f"{deck.by_id[c].name} {percent(p)}" for c, p in list(made.seen.items())[:6]
        )
        text = "passes what your left neighbour has most likely seen already"
        notes = (f"chance your left neighbour has seen each card you hold: {listed}",)
        return Advice(made.move, 0.0, text, (Candidate(made.move, 0.0, text),), (), notes)
    if made.why == "lay":
        text = "lays a group everyone already knows is not in the box: points, no information"
        return Advice(made.move, 0.0, text, (Candidate(made.move, 0.0, text),))
    if made.why == "out of time" or (made.why == "solution" and made.deduction is None):
        text = "the time budget ran out before the deduction: the notepad's move"
        return Advice(made.move, 0.0, text, (Candidate(made.move, 0.0, text),))
    if made.why == "solution":
        text = f"the likeliest card of each type: all four right {percent(made.chance)}"
        odds = box_odds(game, made.deduction) if made.deduction is not None else ()
        return Advice(made.move, made.chance, text, (Candidate(made.move, 0.0, text),),
                      (), odds)  # fmt: skip
    d = made.deduction
    assert d is not None
    odds = box_odds(game, d)
    if made.why == "certain":
        text = "the box is certain: accuse and win"
        return Advice(made.move, 1.0, text, (Candidate(made.move, 1.0, text),), (), odds)
    drawn = made.drawn
    assert drawn is not None
    ready = opponents_ready(info, drawn, publicly_cleared(info))
    threats = (f"an opponent can name the box before your next turn: {percent(ready)}",)
    questions = best_questions(info, d, top=3, drawn=drawn, max_cards=SPOKEN_CARDS)
    asks = [_question(game, d, q) for q in questions]
    if made.why == "odds":
        text = f"accuse now: right {percent(made.chance)}, above waiting's {percent(made.bar or 0)}"
        runners = tuple(
            Candidate(q.ask, q.gain, words) for q, words in zip(questions, asks, strict=True)
        )
        details = (f"{made.samples} posterior samples",)
        accuse = (Candidate(made.move, made.chance, text), *runners)
        return Advice(made.move, made.chance, text, accuse, threats, odds, details)
    chosen = made.question
    assert chosen is not None
    text = _question(game, d, chosen)
    candidates = [Candidate(made.move, chosen.gain, text)]
    candidates += [
        Candidate(q.ask, q.gain, words)
        for q, words in zip(questions, asks, strict=True)
        if q.ask != made.move
    ]
    assert made.box is not None
    waiting = f"right {percent(made.chance)}; accusing pays above {percent(made.bar or 0)}"
    candidates.append(Candidate(act.Accuse(made.box), made.chance, waiting))
    details = (f"{made.samples} posterior samples; question gains are estimated from them",)
    return Advice(made.move, chosen.gain, text, tuple(candidates), threats, odds, details)


def _question(game: Alibi, d: Deduction, question: Question) -> str:
    """A question's worth in words: how far it narrows the box, as possibilities."""
    ask = question.ask
    words = question_words(ask.scope, ask.subject, game.deck)
    kind = game.deck.by_id[ask.subject.cards(game.deck)[0]].type
    counts = _possible(game, d)
    chances = [p for p in _type_odds(game, d, kind) if p > 0]
    entropy = -sum(p * math.log2(p) for p in chances)
    after_type = max(1.0, 2 ** (entropy - question.gain))
    total = math.prod(counts.values())
    after = total / counts[kind] * after_type
    return (
        f"asks player {ask.target} '{words}': narrows the box from {total} to about "
        f"{after:.0f} possibilities (its {kind}: {counts[kind]} to about {after_type:.1f})"
    )


def _type_odds(game: Alibi, d: Deduction, kind: str) -> list[float]:
    return [
        chance_of(d, f)
        for f in d.facts
        if f.kind == IN_BOX and game.deck.by_id[str(f.args[0])].type == kind
    ]


def _possible(game: Alibi, d: Deduction) -> dict[str, int]:
    return {kind: sum(p > 0 for p in _type_odds(game, d, kind)) for kind in TYPES}


def box_odds(game: Alibi, d: Deduction) -> tuple[str, ...]:
    """The box's odds in one line per type: the likeliest cards first."""
    lines = []
    for kind in TYPES:
        odds = sorted(
            (
                (chance_of(d, f), game.deck.by_id[str(f.args[0])].name)
                for f in d.facts
                if f.kind == IN_BOX and game.deck.by_id[str(f.args[0])].type == kind
            ),
            key=lambda item: -item[0],
        )
        shown = [f"{name} {percent(p)}" for p, name in odds if p > 0][:4]
        left = sum(p > 0 for p, _ in odds)
        more = f" (+{left - 4} more)" if left > 4 else ""
        lines.append(f"box {kind}: {', '.join(shown)}{more}")
    return tuple(lines)


def hints(info: InformationSet) -> list[Hint]:
    """At the seat's own pass, the cards the solver bot passes and why: the hint a strong
    player gives about passing (the questions and the accusation are the deduction's)."""
    game = Alibi.of(info)
    try:
        legal = game.legal_actions_for(info)
    except NotToMove:
        return []
    if not legal or not isinstance(legal[0], act.Pass):
        return []
    advice = advise(Turn(info, legal, random.Random(0), {}))
    move = advice.move
    assert isinstance(move, act.Pass)
    names = "; ".join(game.deck.by_id[card].name for card in move.cards)
    text = f"Pass {names} (type: pass {' '.join(move.cards)}): {advice.text}"
    return [Hint(text, None, None, advice.notes, "suggestion", 2.45)]
