"""City Killer's observations, one typed kind each: its fields (in their stored order), the
seat that alone sees it (`PRIVATE_TO`, None when both do), how a person reads it (`describe`)
and the line they type for it (`text`, which engines.city_killer.notation reads back).

"drew" is private to whoever drew, so its pile says who sees it (`Drew.seen_by`).
"""

from __future__ import annotations

from typing import ClassVar

from engines.city_killer.material import DETECTIVE, FIXED_LAYOUT, KILLER, District, district_name
from engines.observations import (
    GameOver,
    MoveRecord,
    ObservationKind,
    kinds_by_name,
)

MOVE_SOURCES = {"abduction": "abduction", "call": "urgent call", "city": "city", "fire": "fire",
                "raid": "raid"}  # fmt: skip
"""The word typed for each source of a resident's move (`moved ... by WORD`)."""
ENDS = {
    "named": ((DETECTIVE,), "the detective named the killer and his motive"),
    "wrong": ((KILLER,), "the detective's accusation was wrong"),
    "refused": ((DETECTIVE,), "the killer refused a second time"),
}
"""The word typed for each ending (`end WORD ...`): its winners and its reason."""


def _d(district: District) -> str:
    row, col = district
    return f"{row},{col}"


def _where(district: District) -> str:
    row, col = district
    return f"{row},{col} ({district_name((row, col))})"


def _cards(cards: tuple[str | None, ...]) -> str:
    return ", ".join("-" if c is None else str(c) for c in cards) or "none"


def _via(source: str, default: str) -> str:
    return "" if source == default else f" via {source}"


class CityKillerObservation(ObservationKind):
    """Base of City Killer's kinds: who alone sees one, and its words."""

    PRIVATE_TO: ClassVar[str | None] = None
    """The seat that alone sees this kind (None: both seats)."""
    DESCRIBE: ClassVar[str] = ""
    """`describe`'s sentence, naming the kind's fields in braces (`str.format`); a kind whose
    words need more than its fields as they are overrides `describe` instead."""
    TEXT: ClassVar[str] = ""
    """`text`'s line, likewise (or `text` overridden)."""

    def seen_by(self, seat: str) -> bool:
        """Whether `seat` can have seen this observation."""
        return self.PRIVATE_TO is None or seat == self.PRIVATE_TO

    def describe(self) -> str:
        """One sentence saying what this observation records."""
        return self.DESCRIBE.format_map(dict(self.fields))

    def text(self) -> str:
        """The line a person types for it (what the lines before imply is left out)."""
        return self.TEXT.format_map(dict(self.fields))


class CitySetup(CityKillerObservation, kind="setup"):
    """The residents drawn, where each stands ([name, row, column]; none when the detective
    places them) and the buildings ([row, column, kind])."""

    residents: tuple[str, ...]
    placement: tuple[tuple[str, int, int], ...]
    buildings: tuple[tuple[int, int, str], ...]

    def describe(self) -> str:
        if not self.placement:
            return f"{len(self.residents)} residents were drawn, for the detective to place"
        return f"{len(self.residents)} residents were placed in the city"

    def text(self, building_layout: object = "random") -> str:
        """The setup line under the option `building_layout`: the buildings are left out when
        it is "fixed" and they are that layout (the default writes them)."""
        placed = {p[0]: f"{p[1]},{p[2]}" for p in self.placement}
        people = [f"{n}@{placed[n]}" if n in placed else n for n in self.residents]
        text = " ".join(["setup", *people])
        fixed = sorted([*d, kind] for d, kind in FIXED_LAYOUT.items())
        if building_layout != "fixed" or [list(b) for b in self.buildings] != fixed:
            text += " buildings " + " ".join(f"{b[2]}@{b[0]},{b[1]}" for b in self.buildings)
        return text


class Row(CityKillerObservation, kind="row"):
    """The card row, positions 1 to 3 (None: empty)."""

    cards: tuple[str | None, ...]

    def describe(self) -> str:
        return f"The card row (positions 1-3): {_cards(self.cards)}"

    def text(self) -> str:
        return "row " + " ".join(c or "-" for c in self.cards)


class Secrets(CityKillerObservation, kind="secrets"):
    """The killer's identity, figurant (None: no figurant), motive and the group tokens
    drawn."""

    PRIVATE_TO: ClassVar[str | None] = KILLER

    identity: str
    figurant: str | None
    motive: str
    drawn: tuple[str, ...]

    def describe(self) -> str:
        return (
            f"Killer's secrets: identity {self.identity}, figurant {self.figurant or 'none'}, "
            f"motive {self.motive}, group tokens {', '.join(self.drawn)}"
        )

    def text(self) -> str:
        return (
            f"secrets {self.identity} figurant {self.figurant or 'none'} motive "
            f"{self.motive} tokens {' '.join(self.drawn)}"
        )


class Identity(CityKillerObservation, kind="identity"):
    """The identity the killer chose."""

    PRIVATE_TO: ClassVar[str | None] = KILLER

    DESCRIBE = "You chose {name} as your identity"
    TEXT = "identity {name}"

    name: str


class Allies(CityKillerObservation, kind="allies"):
    """The allied group the killer kept."""

    PRIVATE_TO: ClassVar[str | None] = KILLER

    DESCRIBE = "Your allies are {group}"
    TEXT = "allies {group}"

    group: str


class Act(CityKillerObservation, MoveRecord, kind="act"):
    """A move as the other seat sees it (the killer's private choices end in "?")."""

    DESCRIBE = "The {seat}: {move}"
    TEXT = "{seat}: {move}"

    seat: str
    move: str


class Round(CityKillerObservation, kind="round"):
    """A new round begins."""

    DESCRIBE = "Round {round} begins"
    TEXT = "round {round}"

    round: int


class Intimidation(CityKillerObservation, kind="intimidate"):
    """The killer flipped a resident."""

    DESCRIBE = "The killer intimidated {name}"
    TEXT = "intimidated {name}"

    name: str


class Murder(CityKillerObservation, kind="murder"):
    """A murder: the victim, where, the scene's number, the round, the scene's snapshot
    (alone, intimidated) and the earlier victims."""

    victim: str
    district: District
    scene: int
    round: int
    alone: bool
    intimidated: bool
    history: tuple[str, ...]

    def describe(self) -> str:
        return (
            f"{self.victim} was murdered in {_where(self.district)} (scene {self.scene}, "
            f"round {self.round}{', alone' if self.alone else ''}"
            f"{', intimidated' if self.intimidated else ''})"
        )

    def text(self) -> str:
        flags = [f for f, on in (("alone", self.alone), ("intimidated", self.intimidated)) if on]
        return " ".join(["murder", self.victim, "at", _d(self.district), *flags])


class Bomb(CityKillerObservation, kind="bomb"):
    """The Bomb: where, its casualties, the scene's number and the round."""

    district: District
    casualties: tuple[str, ...]
    scene: int
    round: int

    def describe(self) -> str:
        return (
            f"The Bomb killed {', '.join(self.casualties)} in {_where(self.district)} "
            f"(scene {self.scene})"
        )

    def text(self) -> str:
        return f"bomb {_d(self.district)} killed {' '.join(self.casualties)}"


class Refusal(CityKillerObservation, kind="refusal"):
    """The killer refused to murder: the round and how many refusals so far."""

    DESCRIBE = "The killer refused to murder in round {round} (refusal {count})"
    TEXT = "refusal"

    round: int
    count: int


class SceneCards(CityKillerObservation, kind="scene-cards"):
    """The cards under a crime scene, which the killer takes up."""

    PRIVATE_TO: ClassVar[str | None] = KILLER

    scene: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"Under scene {self.scene}: {_cards(self.cards)}"

    def text(self) -> str:
        return " ".join(["under", str(self.scene), *self.cards])


class Kept(CityKillerObservation, kind="kept"):
    """The card the killer kept of a scene's, and those he buried."""

    PRIVATE_TO: ClassVar[str | None] = KILLER

    DESCRIBE = "You kept {card}"

    card: str
    buried: tuple[str, ...]

    def text(self) -> str:
        return " ".join(["kept", self.card, "buried", *self.buried])


class TokenBack(CityKillerObservation, kind="token-back"):
    """The surveillance token came back from a victim (or was lost with him)."""

    DESCRIBE = "The surveillance token came back from {name}"

    name: str
    lost: bool

    def text(self) -> str:
        return f"token {'lost with' if self.lost else 'back from'} {self.name}"


class Moved(CityKillerObservation, kind="moved"):
    """A resident moved, and by what."""

    name: str
    district: District
    source: str

    def describe(self) -> str:
        return f"{self.name} moved to {_where(self.district)} ({self.source})"

    def text(self) -> str:
        source = next(w for w, s in MOVE_SOURCES.items() if s == self.source)
        return f"moved {self.name} {_d(self.district)} by {source}"


class Pawn(CityKillerObservation, kind="pawn"):
    """The detective's pawn moved, at a cost."""

    district: District
    cost: int

    def describe(self) -> str:
        return f"The detective's pawn is in {_where(self.district)}"

    def text(self) -> str:
        return f"pawn {_d(self.district)}" + (f" cost {self.cost}" if self.cost else "")


class Draw(CityKillerObservation, kind="draw"):
    """A card or token drawn from a pile, by a seat or to the row (the card None when
    drawn unseen)."""

    pile: str
    seat: str
    card: str | None

    def describe(self) -> str:
        return f"{self.pile}: {'a card is dealt: ' + self.card if self.card else 'drawn'}"

    def text(self) -> str:
        if self.seat == "row":
            return f"dealt {self.card}"
        return f"{self.seat} takes {'evidence' if self.pile == 'evidence' else 'card'}"


class Drew(CityKillerObservation, kind="drew"):
    """What the seat that drew it drew (the pile says which seat that is)."""

    DESCRIBE = "You drew {card} ({pile})"
    TEXT = "drew {card}"

    pile: str
    card: str

    def seen_by(self, seat: str) -> bool:
        return seat == (KILLER if self.pile == "killer-deck" else DETECTIVE)


class Reshuffle(CityKillerObservation, kind="reshuffle"):
    """A pile reshuffled, with its size."""

    DESCRIBE = "The {pile} was reshuffled"
    TEXT = "reshuffled {pile} {cards}"

    pile: str
    cards: int


class Examination(CityKillerObservation, kind="examine"):
    """The detective examined the crime scene where his pawn stands."""

    DESCRIBE = "The detective examined the crime scene"

    district: District

    def text(self) -> str:
        return f"examined {_d(self.district)}"


class EvidenceDiscard(CityKillerObservation, kind="evidence-discard"):
    """Evidence tokens discarded."""

    tokens: tuple[str, ...]

    def describe(self) -> str:
        return f"Evidence discarded: {_cards(self.tokens)}"

    def text(self) -> str:
        return " ".join(["discarded", "evidence", *self.tokens])


class Interrogation(CityKillerObservation, kind="interrogate"):
    """An interrogation begins where the pawn stands."""

    district: District

    def describe(self) -> str:
        return f"The detective interrogates in {_where(self.district)}"

    def text(self) -> str:
        return f"interrogation at {_d(self.district)}"


class Question(CityKillerObservation, kind="question"):
    """A question to a resident ("is the killer <value>?"), and how it was asked."""

    DESCRIBE = "Asked {name}: is the killer {value}? ({attr})"

    name: str
    attr: str
    value: str
    source: str

    def text(self) -> str:
        return f"ask {self.name} {self.attr}:{self.value}{_via(self.source, 'interrogate')}"


class Answered(CityKillerObservation, kind="answer"):
    """A resident's answer to a question (None: nothing, after Blackmail)."""

    name: str
    attr: str
    value: str
    answer: bool | None
    source: str

    def describe(self) -> str:
        said = {True: "yes", False: "no", None: "nothing (Blackmail)"}[self.answer]
        return (
            f"{self.name} answered {said} to 'is the killer {self.value}?' "
            f"({self.attr}, {self.source})"
        )

    def text(self) -> str:
        said = {True: "yes", False: "no", None: "nothing"}[self.answer]
        via = _via(self.source, "interrogate")
        return f"{self.name} answered {said} to {self.attr}:{self.value}{via}"


class Witness(CityKillerObservation, kind="witness"):
    """The killer's pick of the witness among a Testimony's pair."""

    DESCRIBE = "The killer picked {name} as the witness"

    name: str
    pair: tuple[str, ...]

    def text(self) -> str:
        return f"witness {self.name} of {' '.join(self.pair)}"


class Profile(CityKillerObservation, kind="profile"):
    """Profile: of two motives, the one the killer named (not his)."""

    pair: tuple[str, ...]
    named: str

    def describe(self) -> str:
        return f"Profile: of {' and '.join(self.pair)}, the killer named {self.named}: not his"

    def text(self) -> str:
        return f"profile {' '.join(self.pair)} named {self.named}"


class Confession(CityKillerObservation, kind="confession"):
    """Confession: the figurant's group (None: no figurant)."""

    DESCRIBE = "Confession: the figurant belongs to the group {group}"

    group: str | None

    def text(self) -> str:
        return f"confession {self.group or 'none'}"


class TokenPlaced(CityKillerObservation, kind="token-placed"):
    """The surveillance token placed on a resident, and by what."""

    DESCRIBE = "The surveillance token is on {name} ({source})"
    TEXT = "token on {name} via {source}"

    name: str
    source: str


class Surveil(CityKillerObservation, kind="surveil"):
    """The detective declared surveillance on a resident."""

    DESCRIBE = "The detective declared surveillance on {name}"
    TEXT = "surveil {name}"

    name: str


class Surveillance(CityKillerObservation, kind="surveillance"):
    """The killer's answer to a surveillance: could he kill the resident now (the scene's
    snapshot, whether the resident is protected, the earlier victims)."""

    name: str
    district: District
    alone: bool
    intimidated: bool
    blocked: bool
    history: tuple[str, ...]
    answer: bool

    def describe(self) -> str:
        return (
            f"Asked whether he could kill {self.name} now, the killer said "
            f"{'yes' if self.answer else 'no'}"
        )

    def text(self) -> str:
        flags = [
            flag
            for flag, on in (
                ("alone", self.alone),
                ("intimidated", self.intimidated),
                ("blocked", self.blocked),
            )
            if on
        ]
        said = "yes" if self.answer else "no"
        return " ".join(["watched", self.name, "at", _d(self.district), *flags, said])


class Declined(CityKillerObservation, kind="declined"):
    """The detective declined the surveillance after Crowd."""

    DESCRIBE = "The detective declined the surveillance; the token stays on {name}"
    TEXT = "declined {name}"

    name: str


class Calm(CityKillerObservation, kind="calm"):
    """Residents calmed, and by what."""

    names: tuple[str, ...]
    source: str

    def describe(self) -> str:
        return f"Calmed: {_cards(self.names)} ({self.source})"

    def text(self) -> str:
        return f"calmed {' '.join(self.names) or 'nobody'} by {self.source}"


class GroupToken(CityKillerObservation, kind="token"):
    """A group token drawn from the stack, by whom, how, and whether nobody of the group is
    alive (it is then out of the game)."""

    seat: str
    group: str
    source: str
    empty: bool

    def describe(self) -> str:
        removed = " (nobody alive: out of the game)" if self.empty else ""
        return f"The {self.seat} drew the group token {self.group}{removed}"

    def text(self) -> str:
        via = _via(self.source, "city")
        return f"stack {self.group} by {self.seat}{via}{' empty' if self.empty else ''}"


class GroupChosen(CityKillerObservation, kind="group-chosen"):
    """The group a seat chose to move instead of an empty one."""

    DESCRIBE = "The {seat} chose to move the group {group}"
    TEXT = "chose {group} by {seat}"

    seat: str
    group: str


class EvidenceCheck(CityKillerObservation, kind="evidence-check"):
    """An evidence check: the token spent and the card taken (position 0: the top of the
    deck, unseen; else the row's position and its card)."""

    token: str
    position: int
    card: str | None

    def describe(self) -> str:
        return f"Evidence check ({self.token}): took " + (
            "the top card of the deck" if self.position == 0 else f"{self.card} from the row"
        )

    def text(self) -> str:
        if self.position == 0:
            return f"check {self.token} deck"
        return f"check {self.token} row {self.position} {self.card}"


class Discarded(CityKillerObservation, kind="discard"):
    """A detective card discarded."""

    DESCRIBE = "The detective discarded {card}"
    TEXT = "discard {card}"

    card: str


class Played(CityKillerObservation, kind="play"):
    """A card played, by whom, with its arguments."""

    seat: str
    card: str
    args: tuple[str, ...]

    def describe(self) -> str:
        args = " ".join(self.args)
        return f"The {self.seat} played {self.card}{' ' + args if args else ''}"

    def text(self) -> str:
        return " ".join(["played", self.card, *self.args])


class Cancelled(CityKillerObservation, kind="cancelled"):
    """A card cancelled (by Sixth Sense or Bribe)."""

    DESCRIBE = "The {seat}'s {card} was cancelled"
    TEXT = "cancelled {card}"

    seat: str
    card: str


class InvestigationOver(CityKillerObservation, kind="investigation-over"):
    """The detective ended his investigation."""

    DESCRIBE = "The detective ended his investigation"
    TEXT = "investigation over"

    round: int


class Accusation(CityKillerObservation, kind="accusation"):
    """The detective's accusation: a resident and a motive."""

    DESCRIBE = "The detective accused {name} with the motive {motive}"
    TEXT = "accused {name} {motive}"

    name: str
    motive: str


class End(CityKillerObservation, GameOver, kind="end"):
    """The game is over: who won and why, and the killer's secrets shown."""

    winners: tuple[str, ...]
    reason: str
    identity: str
    motive: str
    allies: str
    figurant: str | None

    def describe(self) -> str:
        return f"The game ended: {self.reason}; {' and '.join(self.winners)} won"

    def text(self) -> str:
        word = next(w for w, (_, reason) in ENDS.items() if reason == self.reason)
        return (
            f"end {word} killer {self.identity} motive {self.motive} allies "
            f"{self.allies} figurant {self.figurant or 'none'}"
        )


KINDS = kinds_by_name(
    CitySetup, Row, Secrets, Identity, Allies, Act, Round, Intimidation, Murder, Bomb, Refusal,
    SceneCards, Kept, TokenBack, Moved, Pawn, Draw, Drew, Reshuffle, Examination,
    EvidenceDiscard, Interrogation, Question, Answered, Witness, Profile, Confession,
    TokenPlaced, Surveil, Surveillance, Declined, Calm, GroupToken, GroupChosen, EvidenceCheck,
    Discarded, Played, Cancelled, InvestigationOver, Accusation, End,
)  # fmt: skip
"""City Killer's kinds by name, in the order the solver's validation lists them."""
