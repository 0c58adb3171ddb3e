"""Noir's observations, one typed kind each: its fields (in their stored order), how a person
reads it (`describe`) and the line they type for it (`text`, which `engines.noir.notation`
reads back).

A disguise has two shapes under one kind name: one that succeeded names the identity given up
(`Disguised`, `former`), one that failed the card drawn (`DisguiseFailed`, `drawn`).
The identity, the hand and the card drawn are seen by their own seat only; the rest by both.
"""

from __future__ import annotations

from engines.errors import InvalidObservation
from engines.noir.grid import Grid
from engines.noir.material import INSPECTOR, KILLER, SEATS
from engines.observations import GameOver, Observation, ObservationKind, kinds_by_name
from engines.values import quote

CAUGHT = "the killer killed the inspector"
END_REASONS: dict[str, str] = {
    "inspector-killed": CAUGHT,
    "kills": "the killer reached {kills} kills",
    "arrest": "the inspector arrested the killer",
    "citizen-arrest": "the inspector arrested the killer with a citizen",
    "turn-limit": "the turn limit was reached",
}
"""The word typed after `end` for each way a game ends, and the engine's reason for it."""
END_WINNERS: dict[str, tuple[str, ...]] = {
    "inspector-killed": (KILLER,),
    "kills": (KILLER,),
    "arrest": (INSPECTOR,),
    "citizen-arrest": (INSPECTOR,),
    "turn-limit": SEATS,
}
OUTCOMES = ("missed", "caught")
"""How an arrest is typed: it missed (False) or caught the killer (True)."""


def end_word(reason: str) -> str | None:
    """The word typed after `end` for the engine's `reason`."""
    for word, text in END_REASONS.items():
        if reason == text or (word == "kills" and reason.startswith("the killer reached ")):
            return word
    return None


def _rows_text(rows: Grid) -> str:
    return " / ".join(" ".join(row) for row in rows)


class _Bare(ObservationKind):
    """A kind typed as its word alone ("draw"): what it says follows from the lines before."""

    def text(self) -> str:
        return self.KIND


class _OnSuspect(ObservationKind):
    """A kind naming `suspect` (and the `seat` it concerns), typed as its word and the name
    ("kill Ada"), then whatever more it says."""

    seat: str
    suspect: str

    def text(self) -> str:
        return f"{self.KIND} {self.suspect}"


class Layout(ObservationKind, kind="setup"):
    """The grid as laid out, top row first (the first observation of either seat)."""

    rows: Grid

    def describe(self) -> str:
        return f"The suspects were laid out, row by row: {_rows_text(self.rows)}"

    def text(self) -> str:
        return "setup " + _rows_text(self.rows)


class IdentityTold(_OnSuspect, kind="identity"):
    """A seat's own secret identity: the killer's at setup and after each disguise that
    succeeded, the inspector's once he has chosen it."""

    def describe(self) -> str:
        return f"{str(self.seat).capitalize()}'s secret identity is now {self.suspect}"


class Hand(ObservationKind, kind="hand"):
    """The inspector's four cards, drawn at setup (his alone)."""

    seat: str
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"Inspector drew {', '.join(self.cards)}"

    def text(self) -> str:
        return "hand " + " ".join(self.cards)


class ChoseIdentity(_Bare, kind="chose-identity"):
    """The inspector chose his identity among his cards (which one, only he sees)."""

    seat: str

    def describe(self) -> str:
        return "Inspector chose his secret identity among his four cards"


class Killed(_OnSuspect, kind="kill"):
    """The killer killed `suspect`, his `kills`-th kill."""

    kills: int

    def describe(self) -> str:
        return f"Killer killed {self.suspect} (kill {self.kills})"


class Canvas(_OnSuspect, kind="canvas"):
    """`seat` answered whether his identity is `adjacent` to `suspect` (after an exoneration,
    the killer; after the kill of an innocent, the inspector)."""

    adjacent: bool

    def describe(self) -> str:
        answer = '"!": adjacent' if self.adjacent else '"?": not adjacent'
        return f"Asked about {self.suspect}, {str(self.seat).capitalize()} answered {answer}"

    def text(self) -> str:
        return f"{super().text()} {'!' if self.adjacent else '?'}"


class Shifted(ObservationKind, kind="shift"):
    """`seat` shifted row or column `index` (1-based) towards `direction`; `rows` is the grid
    after it."""

    seat: str
    line: str
    index: int
    direction: str
    rows: Grid

    def describe(self) -> str:
        return (
            f"{str(self.seat).capitalize()} shifted {self.line} {self.index} {self.direction}; "
            "the grid is " + _rows_text(self.rows)
        )

    def text(self) -> str:
        return f"{self.seat} shift {self.line} {self.index} {self.direction}"


class Collapsed(_Bare, kind="collapse"):
    """The all-dead rows and columns left the grid; `rows` is what remains."""

    rows: Grid

    def describe(self) -> str:
        return f"All-dead lines were removed; the grid is {len(self.rows)}x{len(self.rows[0])}"


class DisguiseTried(ObservationKind, kind="disguise"):
    """The killer drew a card to disguise as (either shape of the kind "disguise")."""

    seat: str
    success: bool


class Disguised(DisguiseTried):
    """A disguise that succeeded: the identity given up, `former`, is innocent now."""

    former: str

    def describe(self) -> str:
        return f"Killer disguised: his old identity {self.former} is innocent"

    def text(self) -> str:
        return f"disguise innocent {self.former}"


class DisguiseFailed(DisguiseTried):
    """A disguise that failed: the card `drawn` (dead, or one the inspector held) is shown and
    the killer keeps his identity."""

    drawn: str

    def describe(self) -> str:
        return f"Killer's disguise failed: he drew {self.drawn} and kept his identity"

    def text(self) -> str:
        return f"disguise failed {self.drawn}"


class DrawMade(_Bare, kind="draw"):
    """The inspector drew a card (which one, only he sees: `Drew`)."""

    seat: str

    def describe(self) -> str:
        return "Inspector drew a card"


class Drew(_OnSuspect, kind="drew"):
    """The card the inspector drew (his alone)."""

    def describe(self) -> str:
        return f"Inspector drew {self.suspect}"


class Exonerated(_OnSuspect, kind="exonerate"):
    """The inspector put `suspect`, a card of his hand, on the table as innocent."""

    def describe(self) -> str:
        return f"Inspector exonerated {self.suspect}"


class Arrested(_OnSuspect, kind="arrest"):
    """The inspector arrested `suspect`; `success`: it was the killer."""

    success: bool

    def describe(self) -> str:
        outcome = "the killer" if self.success else "not the killer"
        return f"Inspector arrested {self.suspect}: {outcome}"

    def text(self) -> str:
        return f"{super().text()} {OUTCOMES[bool(self.success)]}"


class CitizenArrested(_OnSuspect, kind="citizen-arrest"):
    """The variant's arrest of `suspect`, beside the inspector's `agent`, who is spent."""

    agent: str
    success: bool

    def describe(self) -> str:
        outcome = "the killer" if self.success else "not the killer"
        return f"Inspector arrested {self.suspect} with the agent {self.agent}: {outcome}"

    def text(self) -> str:
        return f"{super().text()} with {self.agent} {OUTCOMES[bool(self.success)]}"


class End(GameOver, kind="end"):
    """The game is over: who won, and why (one of `END_REASONS`)."""

    winners: tuple[str, ...]
    reason: str

    def describe(self) -> str:
        winners = " and ".join(str(seat).capitalize() for seat in self.winners)
        return f"The game ended ({self.reason}): {winners} won"

    def text(self) -> str:
        word = end_word(str(self.reason))
        if word is None:
            plain = Observation(self.kind, self.fields)  # quoted as the record stores it
            raise InvalidObservation(f"noir: {quote(plain)} is not an observation of this game")
        return f"end {word}"


GridShown = Layout | Shifted | Collapsed
"""The observations that show the whole grid (`rows`): the setup, a shift, a collapse."""
AnyArrest = Arrested | CitizenArrested
ActionSeen = (
    Killed
    | Shifted
    | DisguiseTried
    | ChoseIdentity
    | DrawMade
    | Exonerated
    | Arrested
    | CitizenArrested
)
"""The observations that record a player's action (the rest are what the game shows after
one)."""
TurnEnding = Killed | Shifted | DisguiseTried | ChoseIdentity | Exonerated | AnyArrest
"""The observations of actions that end a turn (a draw does not: the exoneration follows)."""
Private = Hand | Drew
"""The inspector's own cards, which the killer never sees (so do identities, by their seat)."""

KINDS = kinds_by_name(
    Layout,
    IdentityTold,
    Hand,
    ChoseIdentity,
    Killed,
    Canvas,
    Shifted,
    Collapsed,
    Disguised,
    DisguiseFailed,
    DrawMade,
    Drew,
    Exonerated,
    Arrested,
    CitizenArrested,
    End,
)
