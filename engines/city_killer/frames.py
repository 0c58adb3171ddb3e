"""City Killer's decision frames: one frozen class per kind of decision on the referee's stack
(engines.city_killer.state), so that the rules dispatch on the frame's class and mypy checks
the fields each kind carries.

A frame is never changed in place: a state's clone shares its frames, so a decision that goes
on with less to do (a resident moved, a resident asked, an intimidation made) puts a
successor in its place. Each class keeps the `kind` the state's JSON names it by, and `what` the
decision is in words.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from engines.city_killer.material import DETECTIVE, KILLER


def _without(names: tuple[str, ...], name: str) -> tuple[str, ...]:
    """`names` less `name` (which it holds)."""
    i = names.index(name)
    return names[:i] + names[i + 1 :]


@dataclass(frozen=True)
class ChooseIdentity:
    """The killer chooses his identity (identity_choice=choose)."""

    kind: ClassVar[str] = "identity"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "choosing his identity"


@dataclass(frozen=True)
class ChooseAllies:
    """The killer keeps one of his three group tokens as his allies."""

    kind: ClassVar[str] = "allies"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "choosing his allies"


@dataclass(frozen=True)
class PlaceResidents:
    """The detective places the residents one by one (initial_placement=detective)."""

    kind: ClassVar[str] = "place"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "placing the residents, in the order drawn"


@dataclass(frozen=True)
class PlacePawn:
    """The detective puts his pawn on the city before the first round."""

    kind: ClassVar[str] = "start"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "placing his pawn"


@dataclass(frozen=True)
class KillerTurn:
    """The killer's phase: `left` intimidations still owed, then his cards and the murder."""

    kind: ClassVar[str] = "killer"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "intimidating, playing cards, then the murder"
    left: int


@dataclass(frozen=True)
class KeepCard:
    """The killer keeps one of the `cards` that lay under the crime scene."""

    kind: ClassVar[str] = "keep"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "keeping one of the two cards"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Displace:
    """The urgent call: the detective moves the residents `names` off the crime scene."""

    kind: ClassVar[str] = "displace"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "moving the residents off the crime scene"
    names: tuple[str, ...]

    def moved(self, name: str) -> Displace:
        """The frame once `name` has moved."""
        return dataclasses.replace(self, names=_without(self.names, name))


@dataclass(frozen=True)
class Reaction:
    """A reaction window: the seat may play a counter to the card on top of the chain."""

    kind: ClassVar[str] = "react"
    what: ClassVar[str] = "a reaction window: play a counter or pass"
    seat: str


@dataclass(frozen=True)
class AlarmWindow:
    """After a murder the killer may play False alarm to move the pawn away."""

    kind: ClassVar[str] = "alarm"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "the False alarm window: play it or pass"


@dataclass(frozen=True)
class ExamineScene:
    """The pawn stands on a crime scene: the detective may examine it (examine_timing=step)."""

    kind: ClassVar[str] = "examine"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "examining the crime scene or passing"


@dataclass(frozen=True)
class KeepEvidence:
    """The detective keeps one of the two evidence tokens `drawn` by an examination."""

    kind: ClassVar[str] = "keep-evidence"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "keeping one of the two evidence tokens"
    drawn: tuple[str, ...]


@dataclass(frozen=True)
class DetectiveTurn:
    """The detective's phase: steps, the district's actions, surveillance, checks, cards."""

    kind: ClassVar[str] = "detective"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "investigating"


@dataclass(frozen=True)
class Interrogation:
    """The detective questions the residents of the pawn's district: `asked` so far, of the
    `start` who could be asked when it began (the Blackmail trigger reads both)."""

    kind: ClassVar[str] = "interrogation"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "asking the residents here, or done"
    asked: tuple[str, ...]
    start: int

    def asking(self, name: str) -> Interrogation:
        """The frame once `name` has been asked."""
        return dataclasses.replace(self, asked=(*self.asked, name))


@dataclass(frozen=True)
class AnswerQuestion:
    """The killer answers for `name` whether he has `attr` `value`, asked by `source`;
    `blackmail`: whether Blackmail may silence the answer."""

    kind: ClassVar[str] = "answer"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "answering the question"
    name: str
    attr: str
    value: str
    source: str
    blackmail: bool


@dataclass(frozen=True)
class PickWitness:
    """Testimony: the killer picks the witness of `pair`; `question` is the question already
    asked (testimony_order=ask_then_pick), else None."""

    kind: ClassVar[str] = "pick"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "picking the witness"
    pair: tuple[str, ...]
    question: tuple[str, str] | None


@dataclass(frozen=True)
class AskWitness:
    """Testimony: the detective asks the witness `name` the killer picked."""

    kind: ClassVar[str] = "testimony"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "asking the witness"
    name: str


@dataclass(frozen=True)
class NameMotive:
    """Profile: the killer names a motive of `pair` that is not his."""

    kind: ClassVar[str] = "profile"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "naming a motive that is not his"
    pair: tuple[str, ...]


@dataclass(frozen=True)
class CrowdWindow:
    """The detective surveils `name`: the killer may play Crowd to move the token."""

    kind: ClassVar[str] = "crowd"
    seat: ClassVar[str] = KILLER
    what: ClassVar[str] = "the Crowd window: play it or pass"
    name: str


@dataclass(frozen=True)
class CrowdChoice:
    """Crowd moved the token to `name`: the detective proceeds or declines."""

    kind: ClassVar[str] = "crowd-choice"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "proceeding with the surveillance or declining"
    name: str


@dataclass(frozen=True)
class HandLimit:
    """The detective holds two cards: he plays or discards one."""

    kind: ClassVar[str] = "hand"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "playing or discarding a card (one card at most)"


@dataclass(frozen=True)
class GroupMoves:
    """The seat moves the residents `names` of `group`, for `source` (city, fire, raid)."""

    kind: ClassVar[str] = "moves"
    what: ClassVar[str] = "moving residents of the group, or done"
    seat: str
    names: tuple[str, ...]
    source: str
    group: str

    def moved(self, name: str) -> GroupMoves:
        """The frame once `name` has moved."""
        return dataclasses.replace(self, names=_without(self.names, name))


@dataclass(frozen=True)
class ChooseGroup:
    """The token drawn names a group with nobody alive: the seat chooses another group."""

    kind: ClassVar[str] = "group"
    what: ClassVar[str] = "choosing a group to move"
    seat: str
    source: str


@dataclass(frozen=True)
class Cooperation:
    """Cooperation: the detective takes the action of a `building` of that kind."""

    kind: ClassVar[str] = "cooperation"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "the building action of Cooperation"
    building: str


@dataclass(frozen=True)
class FinalAccusation:
    """After the fifth murder the detective names the killer and his motive."""

    kind: ClassVar[str] = "accuse"
    seat: ClassVar[str] = DETECTIVE
    what: ClassVar[str] = "the accusation"


Frame = (
    ChooseIdentity
    | ChooseAllies
    | PlaceResidents
    | PlacePawn
    | KillerTurn
    | KeepCard
    | Displace
    | Reaction
    | AlarmWindow
    | ExamineScene
    | KeepEvidence
    | DetectiveTurn
    | Interrogation
    | AnswerQuestion
    | PickWitness
    | AskWitness
    | NameMotive
    | CrowdWindow
    | CrowdChoice
    | HandLimit
    | GroupMoves
    | ChooseGroup
    | Cooperation
    | FinalAccusation
)
"""A decision on the stack, of any kind."""
Opening = AlarmWindow | AnswerQuestion | CrowdWindow
"""A window whose card play begins a chain (`Board.context`): when that card is cancelled, a
Crowd's surveillance goes ahead and a Blackmail's answer is owed again, without Blackmail."""
