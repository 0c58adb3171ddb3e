"""The public course of a City Killer record, folded from one seat's observations: what the
typed notation leaves out because it follows from the lines before (the round, the scene
number, the earlier victims, the question an answer answers, the pair of a Testimony), and
what the game still owes the record (an answer to a question asked, the result of a
surveillance, the killer's pick or motive after a card, the cards under a scene, the end).

An owed observation is the seat's own to make when its seat `by` is the record's: a killer
asked a question has not answered yet, which is a true record, not a short one. The solver's
validator refuses to read a record that stops while someone else still owes it something
(`engines.IncompleteInformationSet`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engines.city_killer import observations as seen
from engines.city_killer.material import DETECTIVE, KILLER
from engines.notation import Fold
from engines.observations import Observation

Kind = type[seen.CityKillerObservation]
AWAITED_CARDS: dict[str, Kind] = {
    "testimony": seen.Witness,
    "profile": seen.Profile,
    "confession": seen.Confession,
}
"""Detective cards whose resolution shows an observation (unless the card is cancelled)."""
AWAITED_WORDS = {
    "testimony": "the killer's pick of the witness",
    "profile": "the motive the killer names",
    "confession": "the Confession",
}
SETTLED: tuple[Kind, ...] = (
    seen.Surveillance,
    seen.Declined,
    seen.Profile,
    seen.Confession,
    seen.Kept,
    seen.End,
)
"""Kinds that settle an observation owed, and do nothing more."""


@dataclass(frozen=True)
class Owed:
    """An observation owed: its kind(s), the resident it concerns, who makes it, in words."""

    kinds: tuple[Kind, ...]
    waiting_for: str
    by: str
    name: str = ""
    card: str = ""


@dataclass
class Course(Fold):
    """The record so far, as far as the typed notation and the owed observations need it."""

    bomb_in_history: bool = False
    seat: str = DETECTIVE
    residents: tuple[str, ...] = ()
    events: int = 0  # murders, Bombs and refusals: one a round
    scenes: int = 0
    refusals: int = 0
    history: list[str] = field(default_factory=list)  # the earlier ordinary victims
    questions: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # open ones
    testimony: tuple[str, ...] = ()  # the pair of the latest Testimony played
    owed: list[Owed] = field(default_factory=list)
    played_last: bool = False  # whether the latest observation is a card played

    @classmethod
    def of(cls, observations: Iterable[Observation], seat: str, bomb_in_history: bool) -> Course:
        return cls(bomb_in_history, seat).added(observations)

    @property
    def round(self) -> int:
        """The round being played: each ends a Killer phase with one murder, Bomb or refusal."""
        return self.events + 1

    def waiting_for(self) -> Owed | None:
        """The first observation someone other than the seat still owes the record. None
        after a card played: a reaction window is open, which is a decision, not a gap (the
        record of a seat about to react ends there)."""
        if self.played_last:
            return None
        return next((o for o in self.owed if o.by != self.seat), None)

    def _settle(self, kind: Kind, name: str = "", card: str = "") -> None:
        for i, owed in enumerate(self.owed):
            same_name = not owed.name or not name or owed.name == name
            same_card = not owed.card or not card or owed.card == card
            if kind in owed.kinds and same_name and same_card:
                del self.owed[i]
                return

    def add(self, obs: Observation) -> None:
        """Follow one more observation.

        Raises:
            ValueError: an observation of a City Killer kind without that kind's fields.
        """
        if obs.kind in seen.KINDS and not isinstance(obs, seen.CityKillerObservation):
            raise ValueError(f"observation {obs.kind!r} has not the fields of its kind")
        self.played_last = isinstance(obs, seen.Played)
        match obs:
            case seen.CitySetup(residents=residents):
                self.residents = tuple(residents)
            case seen.Murder() | seen.Bomb():
                self.events += 1
                self.scenes += 1
                dead = [obs.victim] if isinstance(obs, seen.Murder) else list(obs.casualties)
                if isinstance(obs, seen.Murder) or self.bomb_in_history:
                    self.history.extend(dead)
                if self.seat == KILLER:
                    number = obs.scene
                    self.owed.append(
                        Owed((seen.SceneCards,), f"the cards under scene {number}", "")
                    )
            case seen.Refusal():
                self.events += 1
                self.refusals += 1
                if self.refusals >= 2:
                    self.owed.append(Owed((seen.End,), "the end of the game", ""))
            case seen.SceneCards():
                self._settle(seen.SceneCards)
                self.owed.append(Owed((seen.Kept,), "the card the killer keeps", KILLER))
            case seen.Question(name=name):
                self.questions[name] = (obs.attr, obs.value, obs.source)
                self._settle(seen.Question, name)
                self.owed.append(Owed((seen.Answered,), f"{name}'s answer", KILLER, name))
            case seen.Answered(name=name):
                self.questions.pop(name, None)
                self._settle(seen.Answered, name)
            case seen.Surveil(name=name):
                what = f"the killer's answer to the surveillance of {name}"
                self.owed.append(Owed((seen.Surveillance, seen.Declined), what, KILLER))
            case seen.TokenPlaced(name=name, source="crowd"):
                self._settle(seen.Surveillance)
                what = f"the detective's choice after Crowd moved the token to {name}"
                self.owed.append(Owed((seen.Surveillance, seen.Declined), what, DETECTIVE))
            case seen.Played(card=card) if card in AWAITED_CARDS:
                if card == "testimony":
                    self.testimony = tuple(obs.args[:2])
                words = AWAITED_WORDS[card]
                self.owed.append(Owed((AWAITED_CARDS[card],), words, KILLER, card=card))
            case seen.Cancelled(card=card) if card in AWAITED_CARDS:
                self._settle(AWAITED_CARDS[card], card=card)
            case seen.Witness(name=name):
                self._settle(seen.Witness, card="testimony")
                self.owed.append(Owed((seen.Question,), f"the question to {name}", DETECTIVE, name))
            case seen.Accusation():
                self.owed.append(Owed((seen.End,), "the end of the game", ""))
            case _ if isinstance(obs, SETTLED):
                self._settle(type(obs))
