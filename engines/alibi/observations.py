"""Alibi's observations, one typed kind each: its fields (in their stored order), how a person
reads it (`describe`, naming groups and questions as the full deck does: a smaller deck keeps
whole groups, with their names) and the line
they type for it (`text`, which `engines.alibi.notation` reads back).

Most are public. A seat sees only its own deal, the cards of the passes it gives or receives,
and its own chosen pass and written solution: those kinds have two shapes, one with the
cards (`PassChosenCards`, `PassedCards`, `SolutionWrittenCards`, for the seats that see them)
and one without (`PassChosen`, `Passed`, `SolutionWritten`, which the shapes with cards extend,
so `case Passed()` matches a pass whatever the seat saw of it).
"""

from __future__ import annotations

from typing import ClassVar

from engines.alibi.material import load_deck
from engines.alibi.questions import parse_subject, question_words, subject_text
from engines.observations import GameOver, ObservationKind, kinds_by_name

FULL_DECK = load_deck("full")
"""Whose names `describe` uses: every deck's groups and cards are among the full deck's."""


def _cards(count: object) -> str:
    """'card' or '2 cards', after 'the'."""
    return "card" if count == 1 else f"{count} cards"


def _count(count: object) -> str:
    """'1 card' or '2 cards'."""
    return f"{count} card" if count == 1 else f"{count} cards"


def _listed(cards: tuple[str, ...] | None, separator: str = ", ") -> str:
    return separator.join(cards or ())


# --- the setup --------------------------------------------------------------------------------
class Seating(ObservationKind, kind="seating"):
    """How many play, who dealt, and who starts (left of the seat dealt the last card)."""

    players: int
    dealer: int
    start: int

    def describe(self) -> str:
        return (
            f"{self.players} players sit clockwise 0 to {self.players - 1}; player "
            f"{self.dealer} dealt and player {self.start} starts"
        )

    def text(self) -> str:
        return f"dealer {self.dealer}"


class Deal(ObservationKind, kind="deal"):
    """The seat's own hand as dealt (seen by that seat only)."""

    seat: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"player {self.seat} was dealt {_listed(self.cards)}"

    def text(self) -> str:
        return f"deal {_listed(self.cards, ' ')}"


class Hands(ObservationKind, kind="hands"):
    """Every hand's size after the deal (round 0) or after a round's passes."""

    round: int
    sizes: tuple[int, ...]

    def describe(self) -> str:
        when = "the deal" if self.round == 0 else f"the passes of round {self.round}"
        sizes = self.sizes
        return (
            f"after {when}, players 0 to {len(sizes) - 1} hold "
            f"{', '.join(map(str, sizes[:-1]))} and {sizes[-1]} cards"
        )

    def text(self) -> str:
        return "hands " + " ".join(map(str, self.sizes))


# --- turns ------------------------------------------------------------------------------------
class Laid(ObservationKind, kind="lay"):
    """A set of three laid: its group, its cards, its points, and when."""

    seat: int
    group: str
    cards: tuple[str, ...]
    points: int
    round: int
    turn: int

    def describe(self) -> str:
        name = FULL_DECK.group_names[self.group]
        return (
            f"player {self.seat} laid the {name} set ({_listed(self.cards)}) in round "
            f"{self.round} for {self.points} points"
        )

    def text(self) -> str:
        return f"{self.seat} lays {self.group}"


class Answered(ObservationKind, kind="answer"):
    """A question and its answer: the subject's cards, counted in the target's scope."""

    asker: int
    target: int
    scope: str
    subject: str
    cards: tuple[str, ...]
    answer: int
    round: int
    turn: int

    def describe(self) -> str:
        subject = parse_subject(self.subject, FULL_DECK)
        question = question_words(self.scope, subject, FULL_DECK)
        return (
            f"player {self.target} answered {self.answer} to player {self.asker}'s "
            f"'{question}' in round {self.round}"
        )

    def text(self) -> str:
        subject = subject_text(str(self.subject))
        return f"{self.asker} asks {self.target} {self.scope} {subject}: {self.answer}"


class Accused(ObservationKind, kind="accuse"):
    """An accusation: one card of each type, in type order."""

    seat: int
    cards: tuple[str, ...]
    round: int
    turn: int

    def describe(self) -> str:
        return f"player {self.seat} accused {_listed(self.cards)} in round {self.round}"

    def text(self) -> str:
        return f"{self.seat} accuses {_listed(self.cards, ' ')}"


# --- the kinds whose cards only some seats see ------------------------------------------------
class _CardsSeenBySome(ObservationKind):
    """A kind whose cards only some seats see. This shape, for the others, is said without
    them; its shape with cards (`_WithCards`) says them after."""

    def describe(self) -> str:
        return self._words()

    def text(self) -> str:
        return self._line()

    def _words(self) -> str:
        """How a person reads it, without the cards."""
        raise NotImplementedError

    def _line(self) -> str:
        """The line a person types for it, without the cards."""
        raise NotImplementedError


class _WithCards(_CardsSeenBySome):
    """The shape with cards of a `_CardsSeenBySome` kind, listed before the kind among the
    bases of a dataclass that declares `cards`: the cards follow its words after a colon, and
    its line after `_LINE_CARDS`."""

    cards: tuple[str, ...]
    _LINE_CARDS: ClassVar[str] = " "

    def describe(self) -> str:
        return _then_cards(self._words(), ": ", _listed(self.cards))

    def text(self) -> str:
        return _then_cards(self._line(), self._LINE_CARDS, _listed(self.cards, " "))


def _then_cards(said: str, separator: str, cards: str) -> str:
    """`said`, then `cards` after `separator` when there are any."""
    return f"{said}{separator}{cards}" if cards else said


# --- passing ----------------------------------------------------------------------------------
class PassChosen(_CardsSeenBySome, kind="choose_pass"):
    """A seat chose how many cards to pass after a round (which ones: `PassChosenCards`)."""

    seat: int
    round: int
    count: int

    def _words(self) -> str:
        return f"player {self.seat} chose the {_cards(self.count)} to pass after round {self.round}"

    def _line(self) -> str:
        return f"{self.seat} chooses"


class PassChosenCards(_WithCards, PassChosen, kind="choose_pass"):
    """The seat's own chosen pass, with its cards."""

    cards: tuple[str, ...]


class Passed(_CardsSeenBySome, kind="pass"):
    """Cards passed to the left after a round (which ones: `PassedCards`)."""

    giver: int
    receiver: int
    round: int
    count: int

    def _words(self) -> str:
        return (
            f"player {self.giver} passed {_count(self.count)} to player "
            f"{self.receiver} after round {self.round}"
        )

    def _line(self) -> str:
        return f"{self.giver} passes to {self.receiver}"


class PassedCards(_WithCards, Passed, kind="pass"):
    """A pass the seat gives or receives, with its cards."""

    cards: tuple[str, ...]
    _LINE_CARDS = ": "


# --- the end ----------------------------------------------------------------------------------
class SolutionWritten(_CardsSeenBySome, kind="choose_solution"):
    """Variant "solutions": a seat wrote its solution (what it wrote: `SolutionWrittenCards`)."""

    seat: int

    def _words(self) -> str:
        return f"player {self.seat} wrote a solution"

    def _line(self) -> str:
        return f"{self.seat} writes"


class SolutionWrittenCards(_WithCards, SolutionWritten, kind="choose_solution"):
    """The seat's own written solution, with its cards."""

    cards: tuple[str, ...]


class BoxOpened(ObservationKind, kind="box"):
    """The box, opened at the end: one card of each type, in type order."""

    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"the box held {_listed(self.cards)}"

    def text(self) -> str:
        return f"box {_listed(self.cards, ' ')}"


class SolutionShown(ObservationKind, kind="solution"):
    """Variant "solutions": a written solution shown at the end, and what it scored."""

    seat: int
    cards: tuple[str, ...]
    correct: int
    points: int

    def describe(self) -> str:
        return (
            f"player {self.seat}'s solution {_listed(self.cards)} had {self.correct} correct "
            f"cards, worth {self.points} points"
        )

    def text(self) -> str:
        return f"{self.seat} reveals {_listed(self.cards, ' ')}"


class End(GameOver, kind="end"):
    """The game is over: why, who won, the set points and the totals."""

    reason: str
    winners: tuple[int, ...]
    set_points: tuple[int, ...]
    totals: tuple[int, ...]

    def describe(self) -> str:
        seats = [str(seat) for seat in self.winners]
        if len(seats) == 1:
            return f"the game ended ({self.reason}): player {seats[0]} won"
        together = f"{', '.join(seats[:-1])} and {seats[-1]}"
        return f"the game ended ({self.reason}): players {together} shared the win"

    def text(self) -> str:
        return "end winners " + " ".join(map(str, self.winners))


AlibiObservation = (
    Seating
    | Deal
    | Hands
    | Laid
    | Answered
    | Accused
    | PassChosen
    | Passed
    | SolutionWritten
    | BoxOpened
    | SolutionShown
    | End
)
"""Every kind (the shapes with cards extend those without)."""
KINDS = kinds_by_name(
    Seating,
    Deal,
    Hands,
    Laid,
    Answered,
    Accused,
    PassChosen,
    PassChosenCards,
    Passed,
    PassedCards,
    SolutionWritten,
    SolutionWrittenCards,
    BoxOpened,
    SolutionShown,
    End,
)
