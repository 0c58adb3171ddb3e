"""City Killer's typed notation: what a person at the table types into `sleuth assist
city-killer` for what his seat saw, one line per thing seen, read back to the engine's
observations.

Lines read like the table talk: `ask Vera height:tall`, `Vera answered yes`, `murder Oleg at
2,3 alone`, `watched Ivan at 3,1 no`, `played cordon 3,1`, `killer: murder Oleg` (a move as
the game printed it). What follows from the lines before is left out and derived
(engines.city_killer.course): the round, the scene number and the earlier victims of a murder,
the question an answer answers, the pair of a Testimony. Residents, cards, groups, motives and
question values may be shortened to a unique prefix, with "did you mean" on a typo; districts
are "row,column". `HELP` lists every form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engines.city_killer import observations as seen
from engines.city_killer.actions import read_district
from engines.city_killer.course import Course
from engines.city_killer.material import (
    BUILDINGS,
    DETECTIVE,
    DETECTIVE_CARDS,
    FIXED_LAYOUT,
    GROUPS,
    KILLER,
    KILLER_CARDS,
    LOOKS,
    MOTIVES,
    PROFESSIONS,
    SEATS,
    District,
)
from engines.errors import InvalidAction, InvalidObservation
from engines.notation import GameNotation, Vocabulary, read_int
from engines.observations import Observation
from engines.values import Seat, quote

if TYPE_CHECKING:
    from engines.city_killer.game import CityKiller

HELP: tuple[tuple[str, str], ...] = (
    ("setup Oleg@1,1 Vera@1,1 Ivan@1,2 ...", "the residents drawn and where each stands (the "
     "fixed buildings are implied; else add: buildings diner@1,1 fire@1,3 ...)"),
    ("row testimony curfew -", "the card row, positions 1 to 3 (- for an empty one)"),
    ("secrets Oleg figurant Vera motive maniac tokens law crime press",
     "killer: your identity, figurant (or none), motive and the 3 group tokens drawn"),
    ("allies law / identity Oleg", "killer: the allies you kept / the identity you chose"),
    ("killer: murder Oleg", "a move as the game printed it (killer: or detective:)"),
    ("round 2", "a new round begins"),
    ("intimidated Vera", "the killer flipped Vera"),
    ("murder Oleg at 2,3 alone intimidated", "a murder; say alone / intimidated when he was"),
    ("bomb 2,3 killed Oleg Vera", "the Bomb and its casualties"),
    ("refusal", "the killer refused to murder"),
    ("under 1 bomb crowd / kept bomb buried crowd", "killer: the cards under scene 1, the one "
     "you kept"),
    ("ask Vera height:tall via diner", "a question (via interrogate, the default, diner or "
     "testimony; a value alone will do: ask Vera tall)"),
    ("Vera answered yes", "the answer to the open question to Vera (or: Vera answered no to "
     "height:tall; Vera answered nothing: Blackmail)"),
    ("surveil Ivan", "the detective declared surveillance on Ivan"),
    ("watched Ivan at 3,1 alone intimidated blocked no", "the killer's answer: could he kill "
     "Ivan now (blocked: by the pawn, a Cordon or Curfew)"),
    ("declined Ivan", "the detective declined the surveillance after Crowd"),
    ("token on Ivan via police", "the surveillance token placed (police, covert-watch, crowd)"),
    ("token back from Ivan / token lost with Ivan", "the token came back from a victim"),
    ("played cordon 3,1 / cancelled bribe", "a card played with its arguments / cancelled"),
    ("witness Vera of Vera Oleg", "the killer's pick for Testimony (the pair may be left out)"),
    ("profile psychopath maniac named maniac", "Profile: the motive the killer named, not his"),
    ("confession crime", "Confession: the figurant's group (none)"),
    ("stack crime by killer via fire empty", "a group token drawn (via city, the default, or "
     "fire; empty: nobody of the group alive)"),
    ("chose law by killer", "the group moved instead of an empty one"),
    ("moved Vera 1,2 by city", "a resident moved (by abduction, call, city, fire or raid)"),
    ("calmed Vera Oleg by city", "residents calmed (by city, hospital or patrols; nobody)"),
    ("pawn 2,3 cost 1", "the pawn moved (cost 0 when left out)"),
    ("interrogation at 2,3 / examined 2,3", "an interrogation begins / a scene examined"),
    ("check police row 2 testimony / check police deck", "an evidence check and the card taken"),
    ("dealt raid / detective takes card / detective takes evidence / killer takes card",
     "a card dealt to the row, a card or token drawn unseen"),
    ("drew raid / drew police / drew bomb", "what you drew yourself"),
    ("discard raid / discarded evidence police diner", "a card or evidence tokens discarded"),
    ("reshuffled evidence 12", "a pile reshuffled, with its size"),
    ("investigation over", "the detective ended his investigation"),
    ("accused Oleg maniac", "the accusation"),
    ("end named killer Oleg motive maniac allies law figurant Vera",
     "the end: named (the detective won), wrong or refused (the killer refused twice)"),
)  # fmt: skip
HEADS = (
    "setup", "row", "secrets", "allies", "identity", "round", "intimidated", "murder", "bomb",
    "refusal", "under", "kept", "ask", "surveil", "watched", "declined", "token", "played",
    "cancelled", "witness", "profile", "confession", "stack", "chose", "moved", "calmed", "pawn",
    "interrogation", "examined", "check", "dealt", "drew", "discard", "discarded", "reshuffled",
    "investigation", "accused", "end", "killer:", "detective:",
)  # fmt: skip
MAX_NUMBER = 999
"""The largest round, scene, cost or pile size a line may hold (every one is far smaller)."""
PILES = ("detective-deck", "killer-deck", "evidence")
QUESTION_SOURCES = ("interrogate", "diner", "testimony")


class Reader:
    """Reads the typed lines of one configured game, for one seat, after `before`."""

    def __init__(self, game: CityKiller, seat: str, before: Sequence[Observation]) -> None:
        self.game, self.seat = game, seat
        self.before = tuple(before)
        self.course = Course.of(before, seat, bool(game.options["bomb_in_history"]))
        self.names = Vocabulary("resident", self.course.residents or game.names)
        self.cards = Vocabulary("card", (*KILLER_CARDS, *DETECTIVE_CARDS))
        self.groups = Vocabulary("group", GROUPS)
        self.motives = Vocabulary("motive", MOTIVES)
        self.buildings = Vocabulary("building", BUILDINGS)
        self.seats = Vocabulary("seat", SEATS)
        self.heads = Vocabulary("keyword", HEADS)
        professions = game.professions or tuple(p for row in PROFESSIONS for p in row)
        self.values = {**LOOKS, "group": GROUPS, "profession": professions}
        self.attributes = Vocabulary("question attribute", self.values)

    # --- words -----------------------------------------------------------------------------
    def district(self, word: str) -> District:
        found = read_district(word)
        if found is None or not all(1 <= x <= 4 for x in found):
            raise InvalidObservation(f"{quote(word)} is not a district (row,column, 1 to 4)")
        return found

    def number(self, word: str, what: str) -> int:
        return read_int(word, what, 0, MAX_NUMBER)

    def question(self, word: str) -> tuple[str, str]:
        """attr:value, or a value alone when only one attribute has it."""
        if ":" in word:
            attr, _, value = word.partition(":")
            attr = self.attributes.read(attr)
            return attr, Vocabulary(f"{attr} value", self.values[attr]).read(value)
        found = []
        for attr, values in self.values.items():
            try:
                found.append((attr, Vocabulary("value", values).read(word)))
            except InvalidObservation:
                continue
        if len(found) == 1:
            return found[0]
        if found:
            shown = " or ".join(f"{a}:{v}" for a, v in found)
            raise InvalidObservation(f"{quote(word)} could be {shown}: type the attribute too")
        every = [v for values in self.values.values() for v in values]
        raise InvalidObservation(
            f"{quote(word)} is no question{Vocabulary('question value', every).suggestion(word)}"
        )

    def flags(self, words: Sequence[str], allowed: Sequence[str]) -> dict[str, bool]:
        vocabulary = Vocabulary("flag", allowed)
        given = set(vocabulary.read_all(words))
        return {flag: flag in given for flag in allowed}

    def keyword(self, words: Sequence[str], index: int, word: str, form: str) -> None:
        if len(words) <= index or words[index].lower() != word:
            raise InvalidObservation(f"expected {word!r} at word {index + 1}: {form}")

    # --- lines -----------------------------------------------------------------------------
    def read(self, text: str) -> seen.CityKillerObservation:
        words = text.split()
        head = words[0].lower()
        if head.rstrip(":") in SEATS:
            return self.seat_line(head.rstrip(":"), words[1:])
        if len(words) > 1 and words[1].lower() in ("answered", "answers", "said"):
            return self.answer(self.names.read(words[0]), words[2:])
        if head not in HEADS:
            try:
                head = self.heads.read(head)
            except InvalidObservation as error:
                raise InvalidObservation(
                    f"{error}; or a resident's answer (Vera answered yes); type help for the forms"
                ) from None
        if head.rstrip(":") in SEATS:
            return self.seat_line(head.rstrip(":"), words[1:])
        method = getattr(self, "line_" + head.replace("-", "_"))
        found: seen.CityKillerObservation = method(words[1:])
        return found

    def line_setup(self, words: list[str]) -> seen.CityKillerObservation:
        people, buildings = words, []
        if "buildings" in [w.lower() for w in words]:
            at = [w.lower() for w in words].index("buildings")
            people, buildings = words[:at], words[at + 1 :]
        residents: list[str] = []
        placement: list[tuple[str, int, int]] = []
        names = Vocabulary("resident", self.game.names)
        for word in people:
            name, _, where = word.partition("@")
            residents.append(names.read(name))
            if where:
                placement.append((residents[-1], *self.district(where)))
        if len(set(residents)) != len(residents):
            raise InvalidObservation("a resident is named twice in the setup")
        if buildings:
            layout: list[tuple[int, int, str]] = []
            for word in buildings:
                kind, _, where = word.partition("@")
                layout.append((*self.district(where), self.buildings.read(kind)))
            layout.sort()
        elif self.game.options["building_layout"] == "fixed":
            layout = sorted((*d, kind) for d, kind in FIXED_LAYOUT.items())
        else:
            raise InvalidObservation(
                "with building_layout=random, type the buildings after the residents: "
                "buildings diner@1,1 fire@1,3 ... (eight of them)"
            )
        return seen.CitySetup(tuple(residents), tuple(placement), tuple(layout))

    def line_row(self, words: list[str]) -> seen.CityKillerObservation:
        if len(words) != 3:
            raise InvalidObservation("the row has 3 positions: row CARD CARD CARD (- if empty)")
        return seen.Row(cards=tuple(None if w == "-" else self.cards.read(w) for w in words))

    def line_secrets(self, words: list[str]) -> seen.CityKillerObservation:
        form = "secrets NAME figurant NAME|none motive MOTIVE tokens GROUP GROUP GROUP"
        for index, word in ((1, "figurant"), (3, "motive"), (5, "tokens")):
            self.keyword(words, index, word, form)
        figurant = None if words[2].lower() == "none" else self.names.read(words[2])
        drawn = self.groups.read_all(words[6:])
        if len(drawn) != 3:
            raise InvalidObservation(f"the killer draws 3 group tokens: {form}")
        return seen.Secrets(
            identity=self.names.read(words[0]), figurant=figurant,
            motive=self.motives.read(words[4]), drawn=tuple(sorted(drawn, key=GROUPS.index)),
        )  # fmt: skip

    def one(self, words: list[str], form: str) -> str:
        if len(words) != 1:
            raise InvalidObservation(f"expected one word after the first: {form}")
        return words[0]

    def line_identity(self, words: list[str]) -> seen.CityKillerObservation:
        return seen.Identity(name=self.names.read(self.one(words, "identity NAME")))

    def line_allies(self, words: list[str]) -> seen.CityKillerObservation:
        return seen.Allies(group=self.groups.read(self.one(words, "allies GROUP")))

    def line_intimidated(self, words: list[str]) -> seen.CityKillerObservation:
        name = self.names.read(self.one(words, "intimidated NAME"))
        return seen.Intimidation(name=name)

    def line_surveil(self, words: list[str]) -> seen.CityKillerObservation:
        return seen.Surveil(name=self.names.read(self.one(words, "surveil NAME")))

    def line_declined(self, words: list[str]) -> seen.CityKillerObservation:
        return seen.Declined(name=self.names.read(self.one(words, "declined NAME")))

    def seat_line(self, seat: str, words: list[str]) -> seen.CityKillerObservation:
        """A line that starts with a seat (its keyword shortened, maybe): a move it made, or a
        card it took unseen."""
        if words and words[0].lower() == "takes":
            return self.takes(seat, words[1:])
        move = " ".join(words).lstrip(": ")
        if not move:
            raise InvalidObservation(
                f"after {seat}: comes the move as the game printed it ({seat}: MOVE), or "
                f"{seat} takes card"
            )
        return self.act(seat, move)

    def act(self, seat: str, move: str) -> seen.Act:
        if move.endswith(" ?") and move.split()[0] in ("identity", "allies", "keep"):
            text = move.split()[0] + " ?"
        else:
            try:
                text = str(self.game.parse_action(move))
            except InvalidAction as error:
                raise InvalidObservation(str(error)) from None
        return seen.Act(seat=seat, move=text)

    def line_round(self, words: list[str]) -> seen.CityKillerObservation:
        return seen.Round(round=self.number(self.one(words, "round N"), "a round"))

    def line_murder(self, words: list[str]) -> seen.CityKillerObservation:
        form = "murder NAME at R,C [alone] [intimidated]"
        self.keyword(words, 1, "at", form)
        flags = self.flags(words[3:], ("alone", "intimidated"))
        c = self.course
        return seen.Murder(
            victim=self.names.read(words[0]), district=self.district(words[2]),
            scene=c.scenes + 1, round=c.round, alone=flags["alone"],
            intimidated=flags["intimidated"], history=tuple(c.history),
        )  # fmt: skip

    def line_bomb(self, words: list[str]) -> seen.CityKillerObservation:
        self.keyword(words, 1, "killed", "bomb R,C killed NAME ...")
        c = self.course
        return seen.Bomb(
            district=self.district(words[0]),
            casualties=tuple(self.names.read_all(words[2:])), scene=c.scenes + 1, round=c.round,
        )  # fmt: skip

    def line_refusal(self, words: list[str]) -> seen.CityKillerObservation:
        if words:
            raise InvalidObservation("a refusal is the word refusal alone")
        c = self.course
        return seen.Refusal(round=c.round, count=c.refusals + 1)

    def line_under(self, words: list[str]) -> seen.CityKillerObservation:
        cards = tuple(self.cards.read(w) for w in words[1:])
        return seen.SceneCards(scene=self.number(words[0], "a scene"), cards=cards)

    def line_kept(self, words: list[str]) -> seen.CityKillerObservation:
        self.keyword(words, 1, "buried", "kept CARD buried CARD")
        buried = tuple(self.cards.read(w) for w in words[2:])
        return seen.Kept(card=self.cards.read(words[0]), buried=buried)

    def via(self, words: list[str], allowed: Sequence[str], default: str) -> tuple[list[str], str]:
        """The words before `via SOURCE`, and the source (`default` without one)."""
        lowered = [w.lower() for w in words]
        if "via" not in lowered:
            return words, default
        at = lowered.index("via")
        if len(words) != at + 2:
            raise InvalidObservation(f"via names one of {', '.join(allowed)}")
        return words[:at], Vocabulary("source", allowed).read(words[at + 1])

    def line_ask(self, words: list[str]) -> seen.CityKillerObservation:
        words, source = self.via(words, QUESTION_SOURCES, "interrogate")
        if len(words) != 2:
            raise InvalidObservation("ask NAME ATTR:VALUE [via diner|testimony]")
        attr, value = self.question(words[1])
        return seen.Question(name=self.names.read(words[0]), attr=attr, value=value, source=source)

    def answer(self, name: str, words: list[str]) -> seen.Answered:
        form = f"{name} answered yes|no|nothing [to ATTR:VALUE] [via diner|testimony]"
        open_question = self.course.questions.get(name)
        words, source = self.via(words, QUESTION_SOURCES, "")
        if not words or words[0].lower() not in ("yes", "no", "nothing"):
            raise InvalidObservation(f"expected yes, no or nothing: {form}")
        said = {"yes": True, "no": False, "nothing": None}[words[0].lower()]
        if len(words) == 3 and words[1].lower() == "to":
            attr, value = self.question(words[2])
        elif len(words) == 1 and open_question is not None:
            attr, value = open_question[:2]
        elif len(words) == 1:
            raise InvalidObservation(f"no question to {name} is open: say which, {form}")
        else:
            raise InvalidObservation(form)
        if not source:
            asked = open_question is not None and open_question[:2] == (attr, value)
            source = open_question[2] if asked and open_question else "interrogate"
        return seen.Answered(name=name, attr=attr, value=value, answer=said, source=source)

    def line_watched(self, words: list[str]) -> seen.CityKillerObservation:
        form = "watched NAME at R,C [alone] [intimidated] [blocked] yes|no"
        self.keyword(words, 1, "at", form)
        if len(words) < 4 or words[-1].lower() not in ("yes", "no"):
            raise InvalidObservation(f"the killer's answer, yes or no, comes last: {form}")
        flags = self.flags(words[3:-1], ("alone", "intimidated", "blocked"))
        return seen.Surveillance(
            name=self.names.read(words[0]), district=self.district(words[2]),
            alone=flags["alone"], intimidated=flags["intimidated"], blocked=flags["blocked"],
            history=tuple(self.course.history), answer=words[-1].lower() == "yes",
        )  # fmt: skip

    def line_token(self, words: list[str]) -> seen.CityKillerObservation:
        form = "token on NAME via police|covert-watch|crowd, token back|lost from|with NAME"
        pair = " ".join(w.lower() for w in words[:2])
        if len(words) == 3 and pair in ("back from", "lost with"):
            return seen.TokenBack(name=self.names.read(words[2]), lost=pair == "lost with")
        if len(words) == 4 and words[0].lower() == "on":
            rest, source = self.via(words[1:], ("police", "covert-watch", "crowd"), "")
            return seen.TokenPlaced(name=self.names.read(rest[0]), source=source)
        raise InvalidObservation(form)

    def line_played(self, words: list[str]) -> seen.CityKillerObservation:
        if not words:
            raise InvalidObservation("played CARD [ARGS]")
        card = self.cards.read(words[0])
        try:
            action = self.game.parse_action(" ".join(["play", card, *words[1:]]))
        except InvalidAction as error:
            raise InvalidObservation(str(error)) from None
        args = tuple(getattr(action, "args", ()))
        return seen.Played(seat=_owner(card), card=card, args=args)

    def line_cancelled(self, words: list[str]) -> seen.CityKillerObservation:
        card = self.cards.read(self.one(words, "cancelled CARD"))
        return seen.Cancelled(seat=_owner(card), card=card)

    def line_witness(self, words: list[str]) -> seen.CityKillerObservation:
        name = self.names.read(words[0]) if words else ""
        if len(words) == 4 and words[1].lower() == "of":
            pair = tuple(self.names.read_all(words[2:]))
        elif len(words) == 1 and self.course.testimony:
            pair = tuple(self.course.testimony)
        else:
            raise InvalidObservation("witness NAME [of NAME NAME] (the pair of Testimony)")
        return seen.Witness(name=name, pair=pair)

    def line_profile(self, words: list[str]) -> seen.CityKillerObservation:
        form = "profile MOTIVE MOTIVE named MOTIVE"
        self.keyword(words, 2, "named", form)
        if len(words) != 4:
            raise InvalidObservation(form)
        pair = tuple(self.motives.read_all(words[:2]))
        return seen.Profile(pair=pair, named=self.motives.read(words[3]))

    def line_confession(self, words: list[str]) -> seen.CityKillerObservation:
        word = self.one(words, "confession GROUP|none")
        return seen.Confession(group=None if word == "none" else self.groups.read(word))

    def line_stack(self, words: list[str]) -> seen.CityKillerObservation:
        form = "stack GROUP by killer|detective [via fire] [empty]"
        empty = bool(words) and words[-1].lower() == "empty"
        words = words[:-1] if empty else words
        words, source = self.via(words, ("city", "fire"), "city")
        self.keyword(words, 1, "by", form)
        if len(words) != 3:
            raise InvalidObservation(form)
        return seen.GroupToken(
            seat=self.seats.read(words[2]), group=self.groups.read(words[0]), source=source,
            empty=empty,
        )  # fmt: skip

    def line_chose(self, words: list[str]) -> seen.CityKillerObservation:
        self.keyword(words, 1, "by", "chose GROUP by killer|detective")
        return seen.GroupChosen(seat=self.seats.read(words[2]), group=self.groups.read(words[0]))

    def line_moved(self, words: list[str]) -> seen.CityKillerObservation:
        form = f"moved NAME R,C by {'|'.join(seen.MOVE_SOURCES)}"
        self.keyword(words, 2, "by", form)
        if len(words) != 4:
            raise InvalidObservation(form)
        source = seen.MOVE_SOURCES[Vocabulary("source", seen.MOVE_SOURCES).read(words[3])]
        return seen.Moved(
            name=self.names.read(words[0]), district=self.district(words[1]), source=source
        )

    def line_calmed(self, words: list[str]) -> seen.CityKillerObservation:
        form = "calmed NAME ... by city|hospital|patrols (nobody when none)"
        if len(words) < 3 or words[-2].lower() != "by":
            raise InvalidObservation(form)
        named = words[:-2]
        nobody = [w.lower() for w in named] == ["nobody"]
        names = () if nobody else tuple(self.names.read_all(named))
        source = Vocabulary("source", ("city", "hospital", "patrols")).read(words[-1])
        return seen.Calm(names=names, source=source)

    def line_pawn(self, words: list[str]) -> seen.CityKillerObservation:
        cost = 0
        if len(words) == 3 and words[1].lower() == "cost":
            cost = self.number(words[2], "a cost")
        elif len(words) != 1:
            raise InvalidObservation("pawn R,C [cost 1]")
        return seen.Pawn(district=self.district(words[0]), cost=cost)

    def line_interrogation(self, words: list[str]) -> seen.CityKillerObservation:
        form = "interrogation at R,C"
        self.keyword(words, 0, "at", form)
        return seen.Interrogation(district=self.district(self.one(words[1:], form)))

    def line_examined(self, words: list[str]) -> seen.CityKillerObservation:
        return seen.Examination(district=self.district(self.one(words, "examined R,C")))

    def line_check(self, words: list[str]) -> seen.CityKillerObservation:
        form = "check BUILDING deck, check BUILDING row N CARD"
        token = self.buildings.read(words[0]) if words else ""
        if len(words) == 2 and words[1].lower() == "deck":
            return seen.EvidenceCheck(token=token, position=0, card=None)
        if len(words) == 4 and words[1].lower() == "row" and words[2] in ("1", "2", "3"):
            return seen.EvidenceCheck(
                token=token, position=int(words[2]), card=self.cards.read(words[3])
            )
        raise InvalidObservation(form)

    def line_dealt(self, words: list[str]) -> seen.CityKillerObservation:
        card = self.cards.read(self.one(words, "dealt CARD"))
        return seen.Draw(pile="detective-deck", seat="row", card=card)

    def takes(self, seat: str, words: list[str]) -> seen.Draw:
        what = self.one(words, f"{seat} takes card|evidence").lower()
        if what == "evidence" and seat == DETECTIVE:
            return seen.Draw(pile="evidence", seat=seat, card=None)
        if what == "card":
            pile = "killer-deck" if seat == KILLER else "detective-deck"
            return seen.Draw(pile=pile, seat=seat, card=None)
        raise InvalidObservation("detective takes card|evidence, killer takes card")

    def line_drew(self, words: list[str]) -> seen.CityKillerObservation:
        word = self.one(words, "drew CARD|BUILDING")
        if word.lower() in BUILDINGS:
            return seen.Drew(pile="evidence", card=word.lower())
        card = self.cards.read(word)
        pile = "killer-deck" if card in KILLER_CARDS else "detective-deck"
        return seen.Drew(pile=pile, card=card)

    def line_discard(self, words: list[str]) -> seen.CityKillerObservation:
        card = Vocabulary("detective card", DETECTIVE_CARDS).read(self.one(words, "discard CARD"))
        return seen.Discarded(card=card)

    def line_discarded(self, words: list[str]) -> seen.CityKillerObservation:
        self.keyword(words, 0, "evidence", "discarded evidence BUILDING ...")
        tokens = tuple(self.buildings.read(w) for w in words[1:])
        return seen.EvidenceDiscard(tokens=tokens)

    def line_reshuffled(self, words: list[str]) -> seen.CityKillerObservation:
        if len(words) != 2:
            raise InvalidObservation(f"reshuffled {'|'.join(PILES)} N")
        pile = Vocabulary("pile", PILES).read(words[0])
        return seen.Reshuffle(pile=pile, cards=self.number(words[1], "a pile size"))

    def line_investigation(self, words: list[str]) -> seen.CityKillerObservation:
        self.keyword(words, 0, "over", "investigation over")
        return seen.InvestigationOver(round=self.course.events)

    def line_accused(self, words: list[str]) -> seen.CityKillerObservation:
        if len(words) != 2:
            raise InvalidObservation("accused NAME MOTIVE")
        return seen.Accusation(name=self.names.read(words[0]), motive=self.motives.read(words[1]))

    def line_end(self, words: list[str]) -> seen.CityKillerObservation:
        form = "end named|wrong|refused killer NAME motive MOTIVE allies GROUP figurant NAME|none"
        for index, word in ((1, "killer"), (3, "motive"), (5, "allies"), (7, "figurant")):
            self.keyword(words, index, word, form)
        if len(words) != 9:
            raise InvalidObservation(form)
        winners, reason = seen.ENDS[Vocabulary("ending", seen.ENDS).read(words[0])]
        figurant = None if words[8].lower() == "none" else self.names.read(words[8])
        identity, motive = self.names.read(words[2]), self.motives.read(words[4])
        allies = self.groups.read(words[6])
        shown = {"identity": identity, "motive": motive, "allies": allies, "figurant": figurant}
        for what, mine in self.own_secrets().items():
            if shown[what] != mine:
                raise InvalidObservation(
                    f"the end shows your own {what}: {mine or 'none'}, not "
                    f"{shown[what] or 'none'} (your entries say so)"
                )
        return seen.End(winners, reason, identity, motive, allies, figurant)

    def own_secrets(self) -> dict[str, str | None]:
        """What the killer knows of his own secrets, which the end shows: the identity he
        chose (else dealt), his motive and figurant, the allies he kept."""
        if self.seat != KILLER:
            return {}
        found: dict[str, str | None] = {}
        for obs in self.before:
            match obs:
                case seen.Secrets(identity=identity, figurant=figurant, motive=motive):
                    found["identity"] = str(identity)
                    found["motive"] = str(motive)
                    found["figurant"] = None if figurant is None else str(figurant)
                case seen.Identity(name=name):
                    found["identity"] = str(name)
                case seen.Allies(group=group):
                    found["allies"] = str(group)
        return found


def _owner(card: str) -> str:
    return KILLER if card in KILLER_CARDS else DETECTIVE


class Notation(GameNotation["CityKiller"]):
    """City Killer's typed notation for one configured game."""

    FORMS = HELP

    def parse(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        """The observation one typed line records (see `HELP` for the forms)."""
        game, seat = self.game, str(seat)
        reader = self.before_line(lambda: Reader(game, seat, before))
        try:
            obs = reader.read(text)
        except InvalidObservation as error:
            raise InvalidObservation(f"{game.name}: {error}") from None
        except IndexError:
            raise InvalidObservation(
                f"{game.name}: {quote(text)} is cut short; type help for the forms"
            ) from None
        if not obs.seen_by(seat):
            raise InvalidObservation(f"{game.name}: the {seat} does not see {quote(text)}")
        return (obs,)

    def words(self) -> list[str]:
        extra = ["at", "alone", "intimidated", "blocked", "yes", "no", "nothing", "answered",
                 "to", "via", "by", "killed", "buried", "figurant", "motive", "tokens", "named",
                 "empty", "nobody", "takes", "evidence", "deck", "cost", "over", "allies",
                 "none", *seen.ENDS, *seen.MOVE_SOURCES, *QUESTION_SOURCES, "covert-watch",
                 "crowd", "patrols", "hospital"]  # fmt: skip
        names = [*HEADS, *self.game.names, *KILLER_CARDS, *DETECTIVE_CARDS, *GROUPS, *MOTIVES,
                 *BUILDINGS, *(f"{a}:{v}" for a, vs in LOOKS.items() for v in vs)]  # fmt: skip
        return list(dict.fromkeys([*names, *extra]))
