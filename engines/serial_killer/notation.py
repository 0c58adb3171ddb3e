"""Serial Killer's typed observations: what a person at a real table types into `sleuth
assist serial-killer`, one line per thing seen, read back to the engine's observations.

Players are named by colour (or seat number), cards by id (AGE.3), genres by id (AGE).
Numbers the record implies are left out where it implies them: the round of a roll, the
ferocity bonus of a uniform roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engines.errors import InvalidObservation
from engines.notation import GameNotation, Vocabulary, read_int, tokens
from engines.observations import Observation
from engines.serial_killer import observations as seen
from engines.serial_killer.material import COLOURS
from engines.values import JsonValue, Seat, quote

if TYPE_CHECKING:
    from engines.serial_killer.game import SerialKiller

SEAT_ENTRIES: dict[str, type[seen.SeatOnly]] = {
    "pass": seen.Passed,
    "end_pick": seen.PickEnded,
    "skip": seen.Skipped,
}
"""The entries of the seat alone, by their word."""

HELP: tuple[tuple[str, str], ...] = (
    ("setup 4 red AGE@3 SEX@5 VIC@1 WPN@2 MO@4 SIG@6 ORG@7", "players, first player, decks"),
    ("place red 3", "a pawn placed"),
    ("roll 3 2 1 4 3 2", "the 15 dice: how many show 1, 2, ... 6"),
    ("relocate red 5", "a pawn relocated"),
    ("pass red / end_pick red / skip red", "a pass, a pick ended, a declaration skipped"),
    (
        "buy red 3 investigate cost 3 points 77",
        "a buy (and: weapon W, to D, targets C+C, positions P+P)",
    ),
    ("draw red AGE 3 left 4", "a card drawn in district 3, 4 left in that deck"),
    ("drew AGE.3", "the card you drew"),
    ("lab red AGE 5", "a card put in the lab at position 5"),
    ("discarded AGE.3 5", "the card you put in the lab"),
    ("pollution 1 rotates 2 / pollution 4", "the pollution die"),
    ("saw blue AGE.1 SEX.2", "a briefing: the hand you saw"),
    ("lab-view 1:AGE.3 2:SEX.1", "what you saw in the lab"),
    ("committed AGE.1 SEX.4 ...", "the profile you committed"),
    ("attempt red 85 dice 290 vs 50 success 1", "a declaration's roll (seq, or fail)"),
    ("round-end 3 unused 23 hunted 5 ferocity 57 caught red+blue first blue", "a round's end"),
    (
        "end exhausted profile AGE.1 ... winner red declared red:1:AGE.1+SEX.4+...",
        "the end (winner killer when nobody won)",
    ),
)


FORMS = {
    "setup": "setup PLAYERS FIRST GENRE@DISTRICT ...",
    "place": "place PLAYER DISTRICT",
    "roll": "roll N N N N N N (how many dice show 1, 2, ... 6)",
    "relocate": "relocate PLAYER DISTRICT",
    "pass": "pass PLAYER",
    "end_pick": "end_pick PLAYER",
    "skip": "skip PLAYER",
    "buy": "buy PLAYER FACE ACTION cost N points N [weapon W] [to D] [targets C+C|none] "
    "[positions P+P|none]",
    "draw": "draw PLAYER GENRE DISTRICT left N",
    "drew": "drew CARD",
    "lab": "lab PLAYER [GENRE] POSITION",
    "discarded": "discarded CARD POSITION",
    "pollution": "pollution DIE [rotates POSITION]",
    "saw": "saw PLAYER CARD ...",
    "lab-view": "lab-view POSITION:CARD ...",
    "committed": "committed CARD ...",
    "attempt": "attempt PLAYER DICE dice TOTAL vs FEROCITY success SEQ|fail",
    "round-end": "round-end ROUND unused N hunted N ferocity N caught PLAYER+PLAYER|none "
    "first PLAYER",
    "end": "end REASON profile CARD ... winner PLAYER|killer [declared PLAYER:SEQ:CARD+CARD ...]",
}
"""The form of each kind of entry, by its first word, for the messages that refuse a line."""
LARGEST = 9999
"""The largest number any entry holds (a total of dice, a ferocity: a few hundred at most)."""


class Notation(GameNotation["SerialKiller"]):
    """Reads the typed forms of one configured game."""

    FORMS = HELP

    def __init__(self, game: SerialKiller) -> None:
        super().__init__(game)
        parts = game.parts
        self.colours = Vocabulary("player", COLOURS[: game.players])
        self.genres = Vocabulary(
            "genre", parts.genre_ids, {genre.id: genre.name for genre in parts.genres}
        )
        # a card may be typed by its trait as printed, words joined by '-' (man-with-partner)
        self.cards = Vocabulary(
            "card", parts.ids, {card: parts.trait_name(card) for card in parts.ids}
        )
        self.kinds = Vocabulary("kind of entry", tuple(FORMS))
        self.reasons = Vocabulary("reason", tuple(seen.REASONS))

    def words(self) -> list[str]:
        actions = ["weapon", "move", "investigate", "briefing", "first", "lab", "cost", "points"]
        extra = ["to", "targets", "positions", "left", "rotates", "dice", "vs", "success"]
        extra += ["fail", "unused", "hunted", "ferocity", "caught", "first", "profile"]
        extra += ["winner", "killer", "declared", *seen.REASONS]
        return [
            *self.kinds.names,
            *self.colours.names,
            *self.genres.names,
            *self.cards.names,
            *actions,
            *extra,
        ]

    def seat(self, word: str) -> int:
        """A player by colour or by seat number."""
        if word.isascii() and word.isdecimal():
            return read_int(word, "a seat number", 0, self.game.players - 1)
        return COLOURS.index(self.colours.read(word))

    def seats(self, word: str) -> list[int]:
        """Players joined by "+", or none."""
        return [] if word.lower() == "none" else [self.seat(w) for w in word.split("+")]

    @staticmethod
    def number(word: str, what: str = "a number") -> int:
        return read_int(word, what, 0, LARGEST)

    def parse(
        self, text: str, seat: Seat, before: Sequence[Observation]
    ) -> tuple[Observation, ...]:
        assert isinstance(seat, int)  # Game.parse_entry checked it is one of the game's
        words = tokens(text)
        if not words:
            raise InvalidObservation(
                f"serial-killer: {quote(text)} has no words; an entry starts with one of "
                + ", ".join(FORMS)
            )
        try:
            entry = self.kinds.read(words[0])
        except InvalidObservation as error:
            raise InvalidObservation(f"serial-killer: {quote(text)}: {error}") from None
        try:
            return (self._parse(entry, words[1:], seat, before),)
        except InvalidObservation as error:
            raise InvalidObservation(
                f"serial-killer: {quote(text)}: {error}; the form is {FORMS[entry]}"
            ) from None
        except IndexError:  # a word the form needs is missing
            raise InvalidObservation(
                f"serial-killer: {quote(text)} is cut short; the form is {FORMS[entry]}"
            ) from None

    def _parse(
        self, entry: str, rest: list[str], me: int, before: Sequence[Observation]
    ) -> Observation:
        """The observation an entry records, by the entry's first word (a key of FORMS)."""
        number = self.number
        match entry:
            case "setup":
                return self._setup(rest)
            case "place":
                return seen.Placed(self.seat(rest[0]), number(rest[1], "a district"))
            case "relocate":
                return seen.Relocated(self.seat(rest[0]), number(rest[1], "a district"))
            case "roll":
                return self._roll(rest, before)
            case "pass" | "end_pick" | "skip":
                return SEAT_ENTRIES[entry](self.seat(rest[0]))
            case "buy":
                return self._buy(rest)
            case "draw":
                return seen.Draw(
                    self.seat(rest[0]),
                    number(rest[2], "a district"),
                    self.genres.read(rest[1]),
                    number(rest[4], "a deck size"),
                )
            case "drew":
                return seen.SeeDraw(me, self.cards.read_phrase(rest))
            case "lab":
                return self._lab(rest)
            case "discarded":
                card = self.cards.read_phrase(rest[:-1])
                return seen.SeeDiscard(me, card, number(rest[-1], "a lab position"))
            case "pollution":
                turned = number(rest[2], "a position") if len(rest) > 2 else None
                return seen.Pollution(number(rest[0], "the die"), turned)
            case "saw":
                cards = sorted(self.cards.read_all(rest[1:]))
                return seen.SeeHand(me, self.seat(rest[0]), tuple(cards))
            case "lab-view":
                pairs = [w.partition(":") for w in rest]
                shown = [(number(p, "a lab position"), self.cards.read(c)) for p, _, c in pairs]
                return seen.SeeLab(me, tuple(shown))
            case "committed":
                return seen.Declaration(me, tuple(self.cards.read_all(rest)))
            case "attempt":
                return self._attempt(rest)
            case "round-end":
                return self._round_end(rest)
        return self._end(rest, before)

    def _setup(self, rest: list[str]) -> seen.Start:
        """PLAYERS FIRST GENRE@DISTRICT ...: the start, each genre's deck in its district."""
        decks = []
        size = self.game.options["traits_per_genre"]
        for item in rest[2:]:
            genre, _, district = item.partition("@")
            decks.append((self.genres.read(genre), self.number(district, "a district"), size))
        players = self.number(rest[0], "the number of players")
        return seen.Start(players, self.seat(rest[1]), tuple(decks))

    def _roll(self, rest: list[str], before: Sequence[Observation]) -> seen.Roll:
        """Six counts of dice, one per face (15 dice), numbered after the rolls `before`."""
        counts = [self.number(w, "a count of dice") for w in rest]
        if len(counts) != 6 or sum(counts) != 15:
            raise InvalidObservation("a roll is six counts summing to 15")
        rolls = sum(isinstance(obs, seen.Roll) for obs in before)
        bonus = self.game.options["uniform_roll_bonus"] if max(counts) == 15 else 0
        return seen.Roll(rolls + 1, tuple(counts), bonus)

    def _lab(self, rest: list[str]) -> seen.LabPlace:
        """PLAYER [GENRE] POSITION: a card put in the lab, its genre shown or not."""
        seat = self.seat(rest[0])
        position = self.number(rest[-1], "a lab position")
        if len(rest) == 3:
            return seen.LabPlaceGenre(seat, position, self.genres.read(rest[1]))
        return seen.LabPlace(seat, position)

    def _attempt(self, rest: list[str]) -> seen.Attempt:
        """red 85 dice 290 vs 50 success 1 (or fail)."""
        success = rest[6].lower() == "success"
        if not success and rest[6].lower() != "fail":
            raise InvalidObservation(f"the attempt ends success SEQ or fail, not {quote(rest[6])}")
        return seen.Attempt(
            seat=self.seat(rest[0]),
            dice=self.number(rest[1], "the dice"),
            total=self.number(rest[3], "the total"),
            ferocity=self.number(rest[5], "the ferocity"),
            success=success,
            seq=self.number(rest[7], "the order of success") if success else None,
        )

    def _round_end(self, rest: list[str]) -> seen.RoundEnd:
        keys = ("unused", "hunted", "ferocity", "caught", "first")
        named = _named(rest[1:], keys, keys)
        caught = self.seats(named["caught"])
        return seen.RoundEnd(
            round=self.number(rest[0], "the round"),
            unused=self.number(named["unused"], "the unused dice"),
            hunted=self.number(named["hunted"], "the hunted"),
            ferocity=self.number(named["ferocity"], "the ferocity"),
            caught=tuple(s in caught for s in range(self.game.players)),
            first_player=self.seat(named["first"]),
        )

    def _buy(self, rest: list[str]) -> Observation:
        """A buy of the shape its keys give (one with two of weapon, to, targets and
        positions is no kind of buy: the game's validation refuses it by its fields)."""
        named = _named(rest[3:], ("cost", "points", "weapon", "to", "targets", "positions"),
                       ("cost", "points"))  # fmt: skip
        seat = self.seat(rest[0])
        face = self.number(rest[1], "the face")
        action = rest[2].lower()
        cost = self.number(named["cost"], "the cost")
        points = self.number(named["points"], "the points")
        weapon = self.number(named["weapon"], "the weapon") if "weapon" in named else None
        district = self.number(named["to"], "a district") if "to" in named else None
        targets = tuple(self.seats(named["targets"])) if "targets" in named else None
        positions = self._positions(named["positions"]) if "positions" in named else None
        details = {
            "weapon": weapon,
            "district": district,
            "targets": targets,
            "positions": positions,
        }
        shown: dict[str, JsonValue] = {
            name: value for name, value in details.items() if value is not None
        }
        base = (seat, face, action, cost, points)
        if len(shown) > 1:
            return Observation.of(
                "buy", seat=seat, face=face, action=action, cost=cost, points=points, **shown
            )
        if weapon is not None:
            return seen.BuyWeapon(*base, weapon)
        if district is not None:
            return seen.BuyMove(*base, district)
        if targets is not None:
            return seen.BuyBriefing(*base, targets)
        if positions is not None:
            return seen.BuyLab(*base, positions)
        return seen.Buy(*base)

    def _positions(self, word: str) -> tuple[int, ...]:
        """Lab positions joined by "+", or none."""
        if word.lower() == "none":
            return ()
        return tuple(self.number(p, "a lab position") for p in word.split("+"))

    def _end(self, rest: list[str], before: Sequence[Observation]) -> seen.GameEnd:
        reason = seen.REASONS[self.reasons.read(rest[0])]
        lowered = [word.lower() for word in rest]
        if rest[1].lower() != "profile" or "winner" not in lowered:
            raise InvalidObservation("expected profile CARD ... winner PLAYER|killer")
        at = lowered.index("winner")
        profile = [self.cards.read(c) for c in rest[2:at]]
        seen_cards = seen.cards_seen(before)
        for card in profile:
            if card in seen_cards:
                raise InvalidObservation(
                    f"{card} ({self.game.parts.trait_name(card)}) cannot be in the profile: "
                    "you have seen it in play (the profile is the cards never drawn)"
                )
        winner = rest[at + 1]
        winners = [] if winner.lower() == "killer" else [self.seat(winner)]
        declarations = []
        if len(rest) > at + 2:
            if lowered[at + 2] != "declared":
                raise InvalidObservation(f"expected declared after the winner, not {rest[at + 2]}")
            declarations = [self._declared(item) for item in rest[at + 3 :]]
        return seen.GameEnd(reason, tuple(profile), tuple(declarations), tuple(winners))

    def _declared(self, item: str) -> tuple[int, int, tuple[str, ...]]:
        """PLAYER:SEQ:CARD+CARD+..., one declaration."""
        parts = item.split(":")
        if len(parts) != 3:
            raise InvalidObservation(f"a declaration is PLAYER:SEQ:CARD+CARD+..., not {item}")
        who, seq, cards = parts
        return self.seat(who), self.number(seq), tuple(self.cards.read(c) for c in cards.split("+"))


def _named(words: list[str], keys: Sequence[str], required: Sequence[str]) -> dict[str, str]:
    """The values of `KEY VALUE` pairs, each key one of `keys`, given once; every one of
    `required` present."""
    if len(words) % 2:
        raise InvalidObservation(f"expected KEY VALUE pairs with the keys {', '.join(keys)}")
    named: dict[str, str] = {}
    for key, value in zip(words[::2], words[1::2], strict=True):
        key = key.lower()
        if key not in keys or key in named:
            raise InvalidObservation(
                f"{quote(key)} is not a key here (or given twice); the keys are {', '.join(keys)}"
            )
        named[key] = value
    missing = [key for key in required if key not in named]
    if missing:
        raise InvalidObservation(f"missing {', '.join(missing)}")
    return named
