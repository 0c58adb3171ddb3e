"""A game looked back at for one seat, as a chess engine's analysis does: each decision the
seat made beside the `solver` bot's move there, both valued in the game's own terms, the loss
graded, and when each hidden fact became certain.

found = solver.review(record, seat)
found.decisions; found.accuracy; found.largest(3); found.known; solver.review.lines(found)

The record is a played game (a `State`: `sleuth play --save`, an arena game), the seat's own
record (an `InformationSet`, a notebook session's) or the seat's moves with what it knew
before each (`Move` values). Each decision is the solver's advice at that position with the
bot's seed (`solver.advise`), so the same record gives the same review on any machine. The
game's search states how its values are graded (`GRADING`) and values the moves its advice
did not score (`judge`), itself or in a companion module `<search>_review`
(solver/search/grading.py); a decision it cannot value is listed unvalued, never guessed at.
A game may also say when the seat can no longer win whatever it plays (`lost`): the decisions
from there on are listed as played once the game was lost, not graded, since every move is
then worth the same nothing and grading them "best" would flatter the player who lost soonest.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, cast

from engines import Action, ConfigError, InformationSet, Seat, SleuthError, State
from engines.values import quote
from solver.deduction import deduce
from solver.model import Fact
from solver.search import Advice, Candidate, Memory, Turn, check_knobs, search_for
from solver.search.grading import CHANCE, Grading, Judged, by_candidates

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""A decision's grade, best first (`Grading.grade`)."""


class Move(NamedTuple):
    """One decision of a record: what the seat knew, and what it did."""

    info: InformationSet
    action: Action


@dataclass(frozen=True)
class Decision:
    """One move of the seat beside the solver's, with their values and the grade."""

    number: int
    """The move's number: in the whole game for a played game (1 for the first move anyone
    made), among the seat's own moves for a record of one seat (it shows no other's)."""
    entry: int
    """How many entries (observations) of the seat's record came before it."""
    move: Action
    best: Action
    value: float | None
    """The move's value in the unit of the game's grading; None when it could not be valued."""
    best_value: float
    grade: str | None
    """One of GRADES; None for a forced move (one legal move) or an unvalued one."""
    text: str
    """The search's words for the move made ("" when it did not score it)."""
    best_text: str
    alternatives: tuple[Candidate, ...]
    """The moves the search scored, best first (at most ALTERNATIVES)."""
    open_facts: int
    """Facts of the seat's model still open (neither certain nor impossible) before the move."""
    grading: Grading
    """The unit of both values and the thresholds of the grade."""
    forced: bool = False
    """One legal move: nothing to grade."""
    routine: bool = False
    """A step the solver does not weigh (it has one way of taking it): nothing to grade."""
    lost: bool = False
    """The seat could no longer win, whatever it played (the game's `lost`): nothing to
    grade."""

    @property
    def quiet(self) -> bool:
        """Forced, routine or played once the game was lost: listed apart, never graded."""
        return self.forced or self.routine or self.lost

    @property
    def unvalued(self) -> bool:
        """A decision the review weighed but could not value."""
        return self.grade is None and not self.quiet

    @property
    def loss(self) -> float | None:
        return None if self.value is None else max(self.best_value - self.value, 0.0)

    @property
    def unit(self) -> str:
        return self.grading.unit

    @property
    def relative_loss(self) -> float | None:
        """The loss in mistakes: 1 is a loss at the grading's mistake threshold, so decisions
        valued in different units can be averaged."""
        loss = self.loss
        return None if loss is None else loss / self.grading.mistake


@dataclass(frozen=True)
class Known:
    """A hidden fact the seat came to be certain of during the game."""

    fact: Fact
    number: int
    """The first move of the seat from which the fact was certain."""
    entry: int
    """How many entries of the record came before that move (the fact was certain after
    them)."""
    acted: bool
    """Whether every graded decision from then on was best or good (the seat played as if it
    knew)."""


@dataclass(frozen=True)
class Review:
    """A game looked back at for one seat."""

    game: str
    seat: Seat
    grading: Grading
    decisions: tuple[Decision, ...]
    known: tuple[Known, ...] = field(default=())

    @property
    def graded(self) -> list[Decision]:
        return [d for d in self.decisions if d.grade is not None]

    @property
    def accuracy(self) -> float | None:
        """The share of graded decisions that were best or good (None: none was graded)."""
        graded = self.graded
        if not graded:
            return None
        return sum(d.grade in ("best", "good") for d in graded) / len(graded)

    @property
    def average_loss(self) -> float | None:
        """The mean loss of the graded decisions valued in the game's own unit (`grading`)."""
        graded = [d for d in self.graded if d.unit == self.grading.unit]
        if not graded:
            return None
        return sum(d.loss or 0.0 for d in graded) / len(graded)

    @property
    def relative_loss(self) -> float | None:
        """The mean loss of every graded decision, in mistakes (`Decision.relative_loss`)."""
        graded = self.graded
        if not graded:
            return None
        return sum(d.relative_loss or 0.0 for d in graded) / len(graded)

    def largest(self, count: int = 3) -> list[Decision]:
        """The `count` decisions that lost most (in mistakes, so that units compare), largest
        first; losses above zero only."""
        lost = [d for d in self.graded if (d.loss or 0.0) > 1e-9]
        return sorted(lost, key=lambda d: -(d.relative_loss or 0.0))[:count]

    def counts(self) -> dict[str, int]:
        """How many decisions got each grade, in GRADES order."""
        return {g: sum(d.grade == g for d in self.decisions) for g in GRADES}

    @property
    def curve(self) -> list[tuple[int, int]]:
        """(move number, facts still open) at each decision: what remained unknown."""
        return [(d.number, d.open_facts) for d in self.decisions]


ALTERNATIVES = 4
"""The scored moves a decision keeps for a person to compare (the best first)."""


def review(
    record: State | InformationSet | Sequence[Move],
    seat: Seat,
    seed: int | None = 0,
    **knobs: object,
) -> Review:
    """`seat`'s decisions in `record` beside the solver's, graded (see the module).

    Args:
        record: a played game (a `State`: its moves are replayed from its setup), the seat's
            own record (an `InformationSet`, a notebook session's: its moves are read back
            from it, `Game.moves_in`), or the seat's moves, each with what it knew before.
        seat: whose decisions to review.
        seed: the solver's seed at every decision (as `solver.advise`).
        **knobs: the solver bot's strength knobs (see `opponents.make`).

    Raises:
        ConfigError: a seat not of the game, a bad knob or seed, or a record of no moves of
            that seat's game.
        InvalidState: a state that cannot be replayed (a view made from an information set).
    """
    moves = _moves(record, seat)
    if not moves:
        raise ConfigError(f"the record holds no move of seat {quote(seat)} to review")
    game_name = moves[0][1].info.game
    module = search_for(game_name)
    checked = check_knobs(game_name, module.KNOBS, knobs)
    grading, judge = judging(module)
    lost = losing(module)
    memory: Memory = {}
    decisions: list[Decision] = []
    certain_at: dict[Fact, tuple[int, int]] = {}  # fact -> (move number, entry)
    for number, (info, action) in moves:
        legal = info.make_game().legal_actions_for(info)
        open_facts, certain = _facts(info)
        for fact in certain:
            certain_at.setdefault(fact, (number, len(info.observations)))
        turn = Turn(info, legal, random.Random(seed), memory)
        advice: Advice = module.advise(turn, **checked)
        where = Where(number, len(info.observations), open_facts)
        if len(legal) > 1 and lost(turn):
            decisions.append(_lost(where, action, advice, grading))
            continue
        decisions.append(_decision(where, action, turn, advice, judge, grading))
    first = decisions[0].number
    known = [
        Known(fact, number, entry, _acted(decisions, number))
        for fact, (number, entry) in sorted(certain_at.items(), key=lambda item: item[1])
        if number > first  # certain from the start: nothing was learned
    ]
    return Review(game_name, seat, grading, tuple(decisions), tuple(known))


Judge = Callable[[Turn, Advice, Action], Judged | None]


def judging(search: object) -> tuple[Grading, Judge]:
    """A game's grading and judge (`_reviewing`); a search that names neither is graded by
    its candidates as chances."""
    source = _reviewing(search)
    grading = cast(Grading, getattr(source, "GRADING", CHANCE))
    judge = cast(Judge | None, getattr(source, "judge", None))
    return grading, judge or _by_candidates(grading)


def losing(search: object) -> Callable[[Turn], bool]:
    """A game's test of a lost position (`lost(turn)`: the seat cannot win whatever it plays,
    from `_reviewing`); a game that names none is never lost before its end."""
    return cast(Callable[[Turn], bool], getattr(_reviewing(search), "lost", _never_lost))


def _reviewing(search: object) -> object:
    """Where a game's review valuation lives: its search's companion module
    `<search>_review` where it has one (the valuation of every move can be long), else the
    search module itself."""
    name = getattr(search, "__name__", "")
    if importlib.util.find_spec(f"{name}_review") is not None:
        return importlib.import_module(f"{name}_review")
    return search


def _never_lost(turn: Turn) -> bool:
    return False


def _by_candidates(grading: Grading) -> Judge:
    return lambda turn, advice, action: by_candidates(advice, action, grading)


class Where(NamedTuple):
    """Where a decision sits in the game."""

    number: int
    entry: int
    open_facts: int


def _moves(record: State | InformationSet | Sequence[Move], seat: Seat) -> list[tuple[int, Move]]:
    """The seat's moves in `record`, each with its number among them (a record of one seat
    does not show the others' moves) or in the whole game (a State)."""
    if isinstance(record, InformationSet):
        if record.seat != seat:
            raise ConfigError(
                f"the record is seat {quote(record.seat)}'s notebook; it cannot review "
                f"seat {quote(seat)}"
            )
        read = record.make_game().moves_in(record)
        return [(k + 1, Move(info, action)) for k, (info, action) in enumerate(read)]
    if isinstance(record, State):
        seat = record.game.check_seat(seat)
        made = record.game.decisions(record)
        return [
            (k + 1, Move(info, action)) for k, (s, info, action) in enumerate(made) if s == seat
        ]
    found = []
    for k, move in enumerate(record):
        if not isinstance(move, Move) or not isinstance(move.info, InformationSet):
            raise ConfigError(
                f"a record is a State or a sequence of Move(info, action), got {quote(move)}"
            )
        if move.info.seat != seat:
            raise ConfigError(
                f"move {k + 1} of the record is seat {quote(move.info.seat)}'s, not {quote(seat)}'s"
            )
        found.append((k + 1, move))
    return found


def _facts(info: InformationSet) -> tuple[int, list[Fact]]:
    """How many facts of the seat's model are still open, and which are certain. Only the
    facts the deduction settled are told certain or impossible (one left unsettled, at a work
    ceiling, counts as open): deciding the rest would cost a solve each."""
    try:
        d = deduce(info)
    except SleuthError:  # a record the deduction cannot read: nothing told
        return 0, []
    settled = [fact for fact in d.facts if d.settled(fact)]
    certain = [fact for fact in settled if d.is_certain(fact)]
    impossible = sum(not d.possible(fact) for fact in settled)
    return len(d.facts) - len(certain) - impossible, certain


def _decision(
    where: Where, action: Action, turn: Turn, advice: Advice, judge: Judge, grading: Grading
) -> Decision:
    """One decision valued and graded against the advice (`judge`)."""
    ranked = sorted(advice.candidates, key=lambda c: -c.value)
    alternatives = tuple(ranked[:ALTERNATIVES])
    top = ranked[0]
    number, entry, open_facts = where
    if len(turn.legal) == 1:
        return Decision(number, entry, action, advice.move, None, top.value, None, "", top.text,
                        alternatives, open_facts, grading, forced=True)  # fmt: skip
    judged = judge(turn, advice, action)
    if judged is None:
        routine = len(advice.candidates) < 2
        return Decision(number, entry, action, advice.move, None, top.value, None, "", top.text,
                        alternatives, open_facts, grading, routine=routine)  # fmt: skip
    made, best = judged.made, judged.best
    if action == advice.move:  # the solver's own move, whatever a tie or a margin ranked above
        best = made
    grade = judged.grading.grade(max(best.value - made.value, 0.0))
    return Decision(number, entry, action, best.action, made.value, best.value, grade, made.text,
                    best.text, alternatives, open_facts, judged.grading)  # fmt: skip


def _lost(where: Where, action: Action, advice: Advice, grading: Grading) -> Decision:
    """A decision once the seat could no longer win: listed, not graded."""
    ranked = sorted(advice.candidates, key=lambda c: -c.value)
    number, entry, open_facts = where
    return Decision(number, entry, action, advice.move, None, ranked[0].value, None, "",
                    ranked[0].text, tuple(ranked[:ALTERNATIVES]), open_facts, grading,
                    lost=True)  # fmt: skip


def _acted(decisions: Iterable[Decision], number: int) -> bool:
    return all(d.grade in (None, "best", "good") for d in decisions if d.number >= number)


def lines(found: Review) -> list[str]:
    """The review for a terminal: each decision with its grade, then the summary."""
    out = [f"Review of seat {found.seat} ({found.game}); values in {found.grading.unit}"]
    for d in found.decisions:
        if d.forced or d.routine:
            continue
        if d.lost:
            out.append(f"  {d.number:>4} {d.move}  (the game was lost: not graded)")
            continue
        if d.grade is None:
            out.append(f"  {d.number:>4} {d.move}  (not valued; the solver plays {d.best})")
            continue
        mark = "" if d.grade == "best" else f"; the solver plays {d.best}: {d.best_text}"
        out.append(
            f"  {d.number:>4} {d.move}  {d.grade}  {_value(d.value)} {d.unit} "
            f"(loss {_value(d.loss)}){mark}"
        )
    out += summary(found)
    return out


def summary(found: Review) -> list[str]:
    """The review in a few lines: accuracy, the grades, the largest losses, what was learned."""
    graded = found.graded
    if found.accuracy is None:
        out = ["No decision could be graded."]
    else:
        out = [f"Accuracy {found.accuracy:.0%} over {len(graded)} graded decisions; average "
               f"loss {found.relative_loss:.2f} mistakes"]  # fmt: skip
        if found.average_loss is not None:
            out[0] += f" (in {found.grading.unit}: {found.average_loss:.3g})"
    counts = ", ".join(f"{n} {g}" for g, n in found.counts().items() if n)
    if counts:
        out.append(f"Grades: {counts}")
    for d in found.largest():
        out.append(f"Lost {d.loss or 0.0:.3g} {d.unit} at move {d.number}: {d.move} where the "
                   f"solver plays {d.best} ({d.best_text})")  # fmt: skip
    unvalued = sum(d.unvalued for d in found.decisions)
    if unvalued:
        out.append(f"{unvalued} decisions could not be valued")
    lost = [d for d in found.decisions if d.lost]
    if lost:
        out.append(f"From move {lost[0].number} on the seat could no longer win, whatever it "
                   f"played: {len(lost)} decisions there are not graded")  # fmt: skip
    return out


def _value(value: float | None) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value:+.3f}" if abs(value) < 10 else f"{value:+.1f}"
