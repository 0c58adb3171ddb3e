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

from engines.city_killer.rules import DETECTIVE, KILLER
from engines.core import Observation

AWAITED_CARDS = {"testimony": "witness", "profile": "profile", "confession": "confession"}
"""Detective cards whose resolution shows an observation (unless the card is cancelled)."""
AWAITED_WORDS = {
    "testimony": "the killer's pick of the witness",
    "profile": "the motive the killer names",
    "confession": "the Confession",
}


@dataclass(frozen=True)
class Owed:
    """An observation owed: its kind(s), the resident it concerns, who makes it, in words."""

    kinds: tuple[str, ...]
    waiting_for: str
    by: str
    name: str = ""
    card: str = ""


@dataclass
class Course:
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
    last: str = ""  # the latest observation's kind

    @classmethod
    def of(cls, observations: Iterable[Observation], seat: str, bomb_in_history: bool) -> Course:
        course = cls(bomb_in_history, seat)
        for obs in observations:
            course.add(obs)
        return course

    @property
    def round(self) -> int:
        """The round being played: each ends a Killer phase with one murder, Bomb or refusal."""
        return self.events + 1

    def waiting_for(self) -> Owed | None:
        """The first observation someone other than the seat still owes the record. None
        after a card played: a reaction window is open, which is a decision, not a gap (the
        record of a seat about to react ends there)."""
        if self.last == "play":
            return None
        return next((o for o in self.owed if o.by != self.seat), None)

    def _settle(self, kind: str, name: str = "", card: str = "") -> None:
        for i, owed in enumerate(self.owed):
            same_name = not owed.name or not name or owed.name == name
            same_card = not owed.card or not card or owed.card == card
            if kind in owed.kinds and same_name and same_card:
                del self.owed[i]
                return

    def add(self, obs: Observation) -> None:
        kind, get = obs.kind, obs.get
        self.last = kind
        if kind == "setup":
            self.residents = tuple(get("residents"))
        elif kind in ("murder", "bomb"):
            self.events += 1
            self.scenes += 1
            dead = [get("victim")] if kind == "murder" else list(get("casualties"))
            if kind == "murder" or self.bomb_in_history:
                self.history.extend(dead)
            if self.seat == KILLER:
                number = get("scene")
                self.owed.append(Owed(("scene-cards",), f"the cards under scene {number}", ""))
        elif kind == "refusal":
            self.events += 1
            self.refusals += 1
            if self.refusals >= 2:
                self.owed.append(Owed(("end",), "the end of the game", ""))
        elif kind == "scene-cards":
            self._settle(kind)
            self.owed.append(Owed(("kept",), "the card the killer keeps", KILLER))
        elif kind == "question":
            name = get("name")
            self.questions[name] = (get("attr"), get("value"), get("source"))
            self._settle("question", name)
            self.owed.append(Owed(("answer",), f"{name}'s answer", KILLER, name))
        elif kind == "answer":
            self.questions.pop(get("name"), None)
            self._settle(kind, get("name"))
        elif kind == "surveil":
            what = f"the killer's answer to the surveillance of {get('name')}"
            self.owed.append(Owed(("surveillance", "declined"), what, KILLER))
        elif kind == "token-placed" and get("source") == "crowd":
            self._settle("surveillance")
            what = f"the detective's choice after Crowd moved the token to {get('name')}"
            self.owed.append(Owed(("surveillance", "declined"), what, DETECTIVE))
        elif kind == "play" and get("card") in AWAITED_CARDS:
            card = get("card")
            if card == "testimony":
                self.testimony = tuple(get("args")[:2])
            words = AWAITED_WORDS[card]
            self.owed.append(Owed((AWAITED_CARDS[card],), words, KILLER, card=card))
        elif kind == "cancelled" and get("card") in AWAITED_CARDS:
            self._settle(AWAITED_CARDS[get("card")], card=get("card"))
        elif kind == "witness":
            self._settle(kind, card="testimony")
            name = get("name")
            self.owed.append(Owed(("question",), f"the question to {name}", DETECTIVE, name))
        elif kind == "accusation":
            self.owed.append(Owed(("end",), "the end of the game", ""))
        elif kind in ("surveillance", "declined", "profile", "confession", "kept", "end"):
            self._settle(kind)
