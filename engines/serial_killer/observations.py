"""Serial Killer's observations, one typed kind each: its fields (in their stored order), how a
person reads it (`describe`) and the line they type for it (`text`, which
`engines.serial_killer.notation` reads back). Seats print as their colours.

A buy shows the five fields every buy has and, for some actions, one more: the weapon track
after a weapon die, the district a move went to, the players a briefing showed, the lab
positions a lab view showed; each of those is its own shape (`BuyWeapon`, `BuyMove`,
`BuyBriefing`, `BuyLab`), and `Buy` alone is one that shows nothing more (investigate,
first). A card put in the lab shows its genre when the card backs do (`LabPlaceGenre`), else
only its position (`LabPlace`).
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.observations import GameOver, Observation, ObservationKind, kinds_by_name
from engines.serial_killer.material import COLOURS
from engines.values import JsonValue

REASONS = {
    "exhausted": "the decks are exhausted",
    "all-declared": "every player has declared",
    "unreachable": "nobody can reach the ferocity",
    "round-cap": "the round cap",
}
"""The end's reasons by the word typed for them."""
WORDS = {v: k for k, v in REASONS.items()}


def who(seat: object) -> str:
    """A seat in words: its colour (anything else as it is)."""
    return COLOURS[seat] if isinstance(seat, int) and 0 <= seat < len(COLOURS) else str(seat)


def seat_text(seat: JsonValue) -> str:
    """A seat as typed: its colour."""
    assert isinstance(seat, int)
    return COLOURS[seat]


class Start(ObservationKind, kind="setup"):
    """The setup: the number of players, who starts, and each deck as (genre, district,
    size), in genre order."""

    players: int
    first_player: int
    decks: tuple[tuple[str, int, int], ...]

    def describe(self) -> str:
        decks = ", ".join(f"{g} on {d}" for g, d, _ in self.decks)
        return f"{self.players} players; {who(self.first_player)} starts; decks: {decks}"

    def text(self) -> str:
        decks = " ".join(f"{g}@{d}" for g, d, _ in self.decks)
        return f"setup {self.players} {seat_text(self.first_player)} {decks}"


class Seated(ObservationKind):
    """An observation about one seat (its first field)."""

    seat: int


class PawnAt(Seated):
    """A pawn put on a district: placed by its player, or relocated by the dice."""

    district: int

    def text(self) -> str:
        return f"{self.KIND} {seat_text(self.seat)} {self.district}"


class Placed(PawnAt, kind="place"):
    def describe(self) -> str:
        return f"{who(self.seat)} placed the pawn on district {self.district}"


class Relocated(PawnAt, kind="relocate"):
    def describe(self) -> str:
        return f"{who(self.seat)} was relocated to district {self.district}"


class Roll(ObservationKind, kind="roll"):
    """A round's 15 dice: how many show each face 1 to 6, and the ferocity a uniform roll
    added."""

    round: int
    counts: tuple[int, ...]
    bonus: int

    def describe(self) -> str:
        counts = ", ".join(f"{k}x{f}" for f, k in enumerate(self.counts, 1))
        return f"round {self.round} rolled {counts}"

    def text(self) -> str:
        return "roll " + " ".join(map(str, self.counts))


class SeatOnly(Seated):
    """A pass, an ended pick or a skipped declaration: the seat alone."""

    def text(self) -> str:
        return f"{self.KIND} {seat_text(self.seat)}"


class Passed(SeatOnly, kind="pass"):
    def describe(self) -> str:
        return f"{who(self.seat)} passed"


class PickEnded(SeatOnly, kind="end_pick"):
    def describe(self) -> str:
        return f"{who(self.seat)} ended the pick"


class Skipped(SeatOnly, kind="skip"):
    def describe(self) -> str:
        return f"{who(self.seat)} did not attempt a declaration"


class Buy(Seated, kind="buy"):
    """A die bought: its face, the action (the action's word), its cost and the points left.
    Every buy has these fields; as it stands, a buy that shows nothing more (investigate,
    first)."""

    face: int
    action: str
    cost: int
    points: int

    def describe(self) -> str:
        return (
            f"{who(self.seat)} bought a {self.face} for {self.action}{self._detail()} "
            f"({self.cost} points, {self.points} left)"
        )

    def text(self) -> str:
        return (
            f"buy {seat_text(self.seat)} {self.face} {self.action} cost {self.cost} "
            f"points {self.points}" + self._typed_detail()
        )

    def _detail(self) -> str:
        """What the buy showed beyond the five fields, in words."""
        return ""

    def _typed_detail(self) -> str:
        """What the buy showed beyond the five fields, as typed."""
        return ""


class BuyWeapon(Buy):
    """A weapon die, with the weapon track after it."""

    weapon: int

    def _detail(self) -> str:
        return f" (weapon track {self.weapon})"

    def _typed_detail(self) -> str:
        return f" weapon {self.weapon}"


class BuyMove(Buy):
    """A move, with the district the pawn went to."""

    district: int

    def _detail(self) -> str:
        return f" to district {self.district}"

    def _typed_detail(self) -> str:
        return f" to {self.district}"


class BuyBriefing(Buy):
    """A briefing, with the players whose hands it showed."""

    targets: tuple[int, ...]

    def _detail(self) -> str:
        return " of " + " and ".join(who(t) for t in self.targets)

    def _typed_detail(self) -> str:
        return " targets " + ("+".join(map(seat_text, self.targets)) or "none")


class BuyLab(Buy):
    """A lab view, with the lab positions it showed."""

    positions: tuple[int, ...]

    def _detail(self) -> str:
        return f", positions {', '.join(map(str, self.positions))}"

    def _typed_detail(self) -> str:
        return " positions " + ("+".join(map(str, self.positions)) or "none")


class Draw(Seated, kind="draw"):
    """A card drawn (its genre seen by all), and the cards left in its deck."""

    district: int
    genre: str
    deck_size: int

    def describe(self) -> str:
        return (
            f"{who(self.seat)} drew a {self.genre} card in district {self.district} "
            f"({self.deck_size - 1} left to draw there)"
        )

    def text(self) -> str:
        return f"draw {seat_text(self.seat)} {self.genre} {self.district} left {self.deck_size}"


class OwnCard(Seated):
    """A card of the seat's own, which it alone sees: drawn, or put in the lab."""

    card: str


class SeeDraw(OwnCard, kind="see_draw"):
    def describe(self) -> str:
        return f"{who(self.seat)} drew {self.card}"

    def text(self) -> str:
        return f"drew {self.card}"


class LabPlace(Seated, kind="lab_place"):
    """A card put in the lab, at its position; as it stands, with its genre hidden (the
    option genre_public False)."""

    position: int

    def describe(self) -> str:
        return f"{who(self.seat)} put {self._card()} in the lab at position {self.position}"

    def text(self) -> str:
        return f"lab {seat_text(self.seat)}{self._typed_genre()} {self.position}"

    def _card(self) -> str:
        return "a card"

    def _typed_genre(self) -> str:
        return ""


class LabPlaceGenre(LabPlace):
    """A card put in the lab, its genre shown on its back."""

    genre: str

    def _card(self) -> str:
        return f"a {self.genre} card" if self.genre else "a card"

    def _typed_genre(self) -> str:
        return f" {self.genre}" if self.genre is not None else ""


class SeeDiscard(OwnCard, kind="see_discard"):
    position: int

    def describe(self) -> str:
        return f"{who(self.seat)} put {self.card} in the lab at position {self.position}"

    def text(self) -> str:
        return f"discarded {self.card} {self.position}"


class Pollution(ObservationKind, kind="pollution"):
    """The pollution die after a discard, and the lab position it rotated (None: none)."""

    die: int
    position: int | None

    def describe(self) -> str:
        turned = self.position
        what = "nothing rotated" if turned is None else f"lab position {turned} rotated"
        return f"the pollution die showed {self.die}: {what}"

    def text(self) -> str:
        turned = self.position
        return f"pollution {self.die}" + ("" if turned is None else f" rotates {turned}")


class SeeHand(Seated, kind="see_hand"):
    """A briefing: the hand of `target` the seat saw, sorted."""

    target: int
    cards: tuple[str, ...]

    def describe(self) -> str:
        return f"{who(self.seat)} saw {who(self.target)}'s hand: {', '.join(self.cards)}"

    def text(self) -> str:
        return f"saw {seat_text(self.target)} " + " ".join(self.cards)


class SeeLab(Seated, kind="see_lab"):
    """A lab view: the (position, card) pairs the seat saw."""

    cards: tuple[tuple[int, str], ...]

    def describe(self) -> str:
        seen = ", ".join(f"{p}: {c}" for p, c in self.cards)
        return f"{who(self.seat)} saw the lab: {seen}"

    def text(self) -> str:
        return "lab-view " + " ".join(f"{p}:{c}" for p, c in self.cards)


class Declaration(Seated, kind="declaration"):
    """The profile the seat committed, sealed (it alone sees it until the end)."""

    profile: tuple[str, ...]

    def describe(self) -> str:
        return f"{who(self.seat)} committed the profile {' '.join(self.profile)}"

    def text(self) -> str:
        return "committed " + " ".join(self.profile)


class Attempt(Seated, kind="attempt"):
    """A declaration's roll: the dice, their total against the ferocity, and the order of
    the success (None when it failed)."""

    dice: int
    total: int
    ferocity: int
    success: bool
    seq: int | None

    def describe(self) -> str:
        result = f"succeeded (declaration {self.seq})" if self.success else "failed"
        return (
            f"{who(self.seat)} rolled {self.dice} dice for {self.total} against "
            f"ferocity {self.ferocity}: {result}"
        )

    def text(self) -> str:
        result = f"success {self.seq}" if self.success else "fail"
        return (
            f"attempt {seat_text(self.seat)} {self.dice} dice {self.total} vs "
            f"{self.ferocity} {result}"
        )


class RoundEnd(ObservationKind, kind="round_end"):
    """A round's end: the unused dice's ferocity, the hunted bonus, the ferocity now, who is
    caught (one flag per seat) and who starts the next round."""

    round: int
    unused: int
    hunted: int
    ferocity: int
    caught: tuple[bool, ...]
    first_player: int

    def describe(self) -> str:
        return (
            f"round {self.round} ended: unused dice {self.unused}, hunted +{self.hunted}, "
            f"ferocity {self.ferocity}, first player {who(self.first_player)}"
        )

    def text(self) -> str:
        caught = "+".join(seat_text(s) for s, c in enumerate(self.caught) if c) or "none"
        return (
            f"round-end {self.round} unused {self.unused} hunted {self.hunted} "
            f"ferocity {self.ferocity} caught {caught} first {seat_text(self.first_player)}"
        )


class GameEnd(GameOver, kind="end"):
    """The end: why, the profile, every declaration as (seat, order, profile) in order, and
    the winner (none: the killer won)."""

    reason: str
    profile: tuple[str, ...]
    declarations: tuple[tuple[int, int, tuple[str, ...]], ...]
    winners: tuple[int, ...]

    def describe(self) -> str:
        winners = self.winners
        result = f"{who(winners[0])} won" if winners else "the killer won"
        profile = " ".join(self.profile)
        return f"the game ended ({self.reason}): the profile was {profile}; {result}"

    def text(self) -> str:
        winners = self.winners
        declared = " ".join(f"{seat_text(s)}:{q}:{'+'.join(p)}" for s, q, p in self.declarations)
        return (
            f"end {WORDS[self.reason]} profile {' '.join(self.profile)} winner "
            f"{seat_text(winners[0]) if winners else 'killer'}"
            + (f" declared {declared}" if declared else "")
        )


KINDS = kinds_by_name(
    Start,
    Placed,
    Roll,
    Relocated,
    Passed,
    PickEnded,
    Skipped,
    Buy,
    BuyWeapon,
    BuyMove,
    BuyBriefing,
    BuyLab,
    Draw,
    SeeDraw,
    LabPlace,
    LabPlaceGenre,
    SeeDiscard,
    Pollution,
    SeeHand,
    SeeLab,
    Declaration,
    Attempt,
    RoundEnd,
    GameEnd,
)
PRIVATE = (SeeDraw, SeeDiscard, SeeHand, SeeLab, Declaration)
"""The kinds only their seat sees."""


def cards_seen(observations: Iterable[Observation]) -> set[str]:
    """Every card a seat's record shows it in play: its own draws and discards, the hands it
    was shown and the lab cards it saw. None of them is a profile card, which stays at the
    bottom of its deck. A record not yet validated may hold fields of other shapes: a lab
    view's item that is no (position, card) pair is passed over."""
    found: set[str] = set()
    for obs in observations:
        match obs:
            case OwnCard(card=card):
                found.add(str(card))
            case SeeHand(cards=cards):
                found.update(str(card) for card in cards or ())
            case SeeLab(cards=pairs):
                for item in pairs or ():
                    if isinstance(item, tuple | list) and len(item) == 2:
                        found.add(str(item[1]))
    return found
