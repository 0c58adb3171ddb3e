"""Serial Killer's typed observations: what a person at a real table types into `sleuth
assist serial-killer`, one line per thing seen, read back to the engine's observations.

Players are named by colour (or seat number), cards by id (AGE.3), genres by id (AGE).
Numbers the record implies are left out where it implies them: the round of a roll, the
ferocity bonus of a uniform roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engines.core import InvalidObservation, JsonValue, Observation, quote
from engines.notation import Vocabulary, tokens
from engines.serial_killer.cards import COLOURS

if TYPE_CHECKING:
    from engines.serial_killer.game import SerialKiller

REASONS = {
    "exhausted": "the decks are exhausted",
    "all-declared": "every player has declared",
    "unreachable": "nobody can reach the ferocity",
    "round-cap": "the round cap",
}
WORDS = {v: k for k, v in REASONS.items()}
SEAT_KINDS = ("pass", "end_pick", "skip")

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


def seat_text(seat: JsonValue) -> str:
    assert isinstance(seat, int)
    return COLOURS[seat]


def observation_text(obs: Observation) -> str:
    get = obs.get
    kind = obs.kind
    if kind == "setup":
        decks = " ".join(f"{g}@{d}" for g, d, _ in get("decks"))
        return f"setup {get('players')} {seat_text(get('first_player'))} {decks}"
    if kind in ("place", "relocate"):
        return f"{kind} {seat_text(get('seat'))} {get('district')}"
    if kind == "roll":
        return "roll " + " ".join(map(str, get("counts")))
    if kind in SEAT_KINDS:
        return f"{kind} {seat_text(get('seat'))}"
    if kind == "buy":
        text = (
            f"buy {seat_text(get('seat'))} {get('face')} {get('action')} cost {get('cost')} "
            f"points {get('points')}"
        )
        if get("weapon") is not None:
            text += f" weapon {get('weapon')}"
        if get("district") is not None:
            text += f" to {get('district')}"
        if get("targets") is not None:
            text += " targets " + ("+".join(map(seat_text, get("targets"))) or "none")
        if get("positions") is not None:
            text += " positions " + ("+".join(map(str, get("positions"))) or "none")
        return text
    if kind == "draw":
        return (
            f"draw {seat_text(get('seat'))} {get('genre')} {get('district')} left "
            f"{get('deck_size')}"
        )
    if kind == "see_draw":
        return f"drew {get('card')}"
    if kind == "lab_place":
        genre = f" {get('genre')}" if get("genre") is not None else ""
        return f"lab {seat_text(get('seat'))}{genre} {get('position')}"
    if kind == "see_discard":
        return f"discarded {get('card')} {get('position')}"
    if kind == "pollution":
        turned = get("position")
        return f"pollution {get('die')}" + ("" if turned is None else f" rotates {turned}")
    if kind == "see_hand":
        return f"saw {seat_text(get('target'))} " + " ".join(get("cards"))
    if kind == "see_lab":
        return "lab-view " + " ".join(f"{p}:{c}" for p, c in get("cards"))
    if kind == "declaration":
        return "committed " + " ".join(get("profile"))
    if kind == "attempt":
        result = f"success {get('seq')}" if get("success") else "fail"
        return (
            f"attempt {seat_text(get('seat'))} {get('dice')} dice {get('total')} vs "
            f"{get('ferocity')} {result}"
        )
    if kind == "round_end":
        caught = "+".join(seat_text(s) for s, c in enumerate(get("caught")) if c) or "none"
        return (
            f"round-end {get('round')} unused {get('unused')} hunted {get('hunted')} "
            f"ferocity {get('ferocity')} caught {caught} first {seat_text(get('first_player'))}"
        )
    if kind == "end":
        winners = get("winners")
        declared = " ".join(f"{seat_text(s)}:{q}:{'+'.join(p)}" for s, q, p in get("declarations"))
        return (
            f"end {WORDS[get('reason')]} profile {' '.join(get('profile'))} winner "
            f"{seat_text(winners[0]) if winners else 'killer'}"
            + (f" declared {declared}" if declared else "")
        )
    raise InvalidObservation(f"serial-killer: no typed form for {kind!r}")


class Notation:
    """Reads the typed forms of one configured game."""

    def __init__(self, game: SerialKiller) -> None:
        self.game = game
        parts = game.parts
        self.colours = Vocabulary("player", COLOURS[: game.players])
        self.genres = Vocabulary("genre", parts.genre_ids)
        self.cards = Vocabulary("card", parts.ids)
        self.kinds = Vocabulary(
            "kind of entry",
            (
                "setup",
                "place",
                "roll",
                "relocate",
                "pass",
                "end_pick",
                "skip",
                "buy",
                "draw",
                "drew",
                "lab",
                "discarded",
                "pollution",
                "saw",
                "lab-view",
                "committed",
                "attempt",
                "round-end",
                "end",
            ),
        )

    def words(self) -> list[str]:
        actions = ["weapon", "move", "investigate", "briefing", "first", "lab", "cost", "points"]
        extra = ["to", "targets", "positions", "left", "rotates", "dice", "vs", "success"]
        extra += ["fail", "unused", "hunted", "ferocity", "caught", "first", "profile"]
        extra += ["winner", "killer", "declared", *REASONS]
        return [
            *self.kinds.names,
            *self.colours.names,
            *self.genres.names,
            *self.cards.names,
            *actions,
            *extra,
        ]

    def seat(self, word: str) -> int:
        if word.isdigit() and int(word) < self.game.players:
            return int(word)
        return COLOURS.index(self.colours.read(word))

    def parse(self, text: str, seat: int, before: Sequence[Observation]) -> tuple[Observation, ...]:
        words = tokens(text)
        try:
            return (self._parse(words, seat, before),)
        except (IndexError, ValueError) as error:
            if isinstance(error, InvalidObservation):
                raise
            raise InvalidObservation(
                f"serial-killer: cannot read {quote(text)}; the forms are: "
                + "; ".join(form for form, _ in HELP)
            ) from None

    def _parse(self, words: list[str], me: int, before: Sequence[Observation]) -> Observation:
        kind = self.kinds.read(words[0])
        rest = words[1:]
        of = Observation.of
        if kind == "setup":
            decks = []
            size = self.game.options["traits_per_genre"]
            for item in rest[2:]:
                genre, _, district = item.partition("@")
                decks.append([self.genres.read(genre), int(district), size])
            return of("setup", players=int(rest[0]), first_player=self.seat(rest[1]), decks=decks)
        if kind in ("place", "relocate"):
            return of(kind, seat=self.seat(rest[0]), district=int(rest[1]))
        if kind == "roll":
            counts = [int(w) for w in rest]
            if len(counts) != 6 or sum(counts) != 15:
                raise InvalidObservation("serial-killer: a roll is six counts summing to 15")
            rolls = sum(obs.kind == "roll" for obs in before)
            bonus = self.game.options["uniform_roll_bonus"] if max(counts) == 15 else 0
            return of("roll", round=rolls + 1, counts=counts, bonus=bonus)
        if kind in SEAT_KINDS:
            return of(kind, seat=self.seat(rest[0]))
        if kind == "buy":
            return self._buy(rest)
        if kind == "draw":
            return of(
                "draw",
                seat=self.seat(rest[0]),
                district=int(rest[2]),
                genre=self.genres.read(rest[1]),
                deck_size=int(rest[4]),
            )
        if kind == "drew":
            return of("see_draw", seat=me, card=self.cards.read(rest[0]))
        if kind == "lab":
            fields: dict[str, JsonValue] = {"seat": self.seat(rest[0])}
            fields["position"] = int(rest[-1])
            if len(rest) == 3:
                fields["genre"] = self.genres.read(rest[1])
            return of("lab_place", **fields)
        if kind == "discarded":
            return of("see_discard", seat=me, card=self.cards.read(rest[0]), position=int(rest[1]))
        if kind == "pollution":
            turned = int(rest[2]) if len(rest) > 2 else None
            return of("pollution", die=int(rest[0]), position=turned)
        if kind == "saw":
            cards = sorted(self.cards.read_all(rest[1:]))
            return of("see_hand", seat=me, target=self.seat(rest[0]), cards=cards)
        if kind == "lab-view":
            pairs = [w.partition(":") for w in rest]
            return of("see_lab", seat=me, cards=[[int(p), self.cards.read(c)] for p, _, c in pairs])
        if kind == "committed":
            return of("declaration", seat=me, profile=list(self.cards.read_all(rest)))
        if kind == "attempt":
            success = rest[6] == "success"  # red 85 dice 290 vs 50 success 1
            return of(
                "attempt",
                seat=self.seat(rest[0]),
                dice=int(rest[1]),
                total=int(rest[3]),
                ferocity=int(rest[5]),
                success=success,
                seq=int(rest[7]) if success else None,
            )
        if kind == "round-end":
            named = dict(zip(rest[1::2], rest[2::2], strict=False))
            caught = (
                set()
                if named["caught"] == "none"
                else {COLOURS[self.seat(w)] for w in named["caught"].split("+")}
            )
            return of(
                "round_end",
                round=int(rest[0]),
                unused=int(named["unused"]),
                hunted=int(named["hunted"]),
                ferocity=int(named["ferocity"]),
                caught=[COLOURS[s] in caught for s in range(self.game.players)],
                first_player=self.seat(named["first"]),
            )
        return self._end(rest)

    def _buy(self, rest: list[str]) -> Observation:
        fields: dict[str, JsonValue] = {
            "seat": self.seat(rest[0]),
            "face": int(rest[1]),
            "action": rest[2].lower(),
            "cost": int(rest[4]),
            "points": int(rest[6]),
        }
        extras = dict(zip(rest[7::2], rest[8::2], strict=False))
        if "weapon" in extras:
            fields["weapon"] = int(extras["weapon"])
        if "to" in extras:
            fields["district"] = int(extras["to"])
        if "targets" in extras:
            named = extras["targets"]
            fields["targets"] = [] if named == "none" else [self.seat(w) for w in named.split("+")]
        if "positions" in extras:
            named = extras["positions"]
            fields["positions"] = [] if named == "none" else [int(p) for p in named.split("+")]
        return Observation.of("buy", **fields)

    def _end(self, rest: list[str]) -> Observation:
        reason = REASONS[rest[0].lower()]
        at = rest.index("winner")
        profile = [self.cards.read(c) for c in rest[2:at]]
        winner = rest[at + 1]
        winners = [] if winner.lower() == "killer" else [self.seat(winner)]
        declarations = []
        if len(rest) > at + 2 and rest[at + 2] == "declared":
            for item in rest[at + 3 :]:
                who, seq, cards = item.split(":")
                declarations.append(
                    [self.seat(who), int(seq), [self.cards.read(c) for c in cards.split("+")]]
                )
        return Observation.of(
            "end", reason=reason, profile=profile, declarations=declarations, winners=winners
        )
