"""Alibi's typed notation: what a person at a real table types for what their seat saw.

One line per observation, in the words people use at the table ("2 asks 3 seen deck: 0").
Everything that follows from the lines before is left out and derived here: the round and the
turn of a question, the cards its subject covers, the start player, the count of a pass, the
points of a set, the end's scores. Cards, groups and details may be typed as printed ("Blunt
Object: Bottle", any case) or as named here (blunt-bottle), and shortened to a unique prefix of
each part ("al-do" for alleyway-doorway, "bl-ob-bo" or "blunt object bottle" for
blunt-bottle); "me" stands for the seat's number.
Typed card lists may come in any order; the observations keep the engine's order.

Each line is checked against the rules and against what the seat can see (only its own deal,
only the cards of the passes it gives or receives), so a bad line is refused with one line
that quotes it and says what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engines.alibi import observations as seen
from engines.alibi.material import TYPES, Deck, hand_sizes
from engines.alibi.questions import SCOPES, Subject, SubjectKind, subject_kind
from engines.alibi.state import set_points
from engines.errors import InvalidObservation
from engines.notation import AmbiguousName, Fold, GameNotation, Vocabulary, parts_of, read_int
from engines.observations import Observation
from engines.values import Seat, is_int, quote

if TYPE_CHECKING:
    from engines.alibi.game import Alibi

_SEPARATORS = re.compile(r"[\s,;:=]+")
VERBS = ("asks", "lays", "accuses", "chooses", "passes", "writes", "reveals")
_PAST = {
    "asked": "asks",
    "laid": "lays",
    "accused": "accuses",
    "chose": "chooses",
    "passed": "passes",
    "wrote": "writes",
    "revealed": "reveals",
}
KEYWORDS = ("dealer", "deal", "hands", "pass", "box", "end")
_KEYWORD_ALIASES = {"sizes": "hands", "winners": "end"}


def words_of(text: str) -> list[str]:
    """The words of a line: split on spaces, commas, semicolons, colons and "="."""
    return [word for word in _SEPARATORS.split(text.strip().lower()) if word]


# --- what the seat knows before a line ------------------------------------------------------
@dataclass
class Table(Fold):
    """The public course of the game and the seat's own hand, folded from the earlier
    observations: what the notation derives the left-out fields from."""

    game: Alibi
    me: int
    kinds: int = 0  # observations read
    dealer: int | None = None
    dealt: bool = False
    epoch: int = -1  # the last round whose hand sizes were seen (0: the deal's)
    sizes: list[int] = field(default_factory=list)
    laid_now: list[int] = field(default_factory=list)  # cards laid since the last sizes
    chosen: dict[int, tuple[str, ...]] = field(default_factory=dict)  # this round's choices
    given: dict[int, int] = field(default_factory=dict)  # this round's passes: giver, count
    received: set[str] = field(default_factory=set)  # what the seat got in this round's passes
    played: int = 0  # questions asked this round
    asked: int = 0  # questions asked in the game
    hand: set[str] = field(default_factory=set)
    held_ever: set[str] = field(default_factory=set)  # every card the seat has held
    only_mine: set[str] = field(default_factory=set)  # dealt to the seat and never passed on
    known_seen: dict[int, set[str]] = field(default_factory=dict)  # passed between it and me
    laid_by: dict[int, set[str]] = field(default_factory=dict)  # the cards of each one's sets
    laid: set[str] = field(default_factory=set)  # groups
    my_laid: set[str] = field(default_factory=set)  # the cards of the seat's own sets
    scores: list[int] = field(default_factory=list)
    accuser: int | None = None
    accusation: tuple[str, ...] = ()
    written: set[int] = field(default_factory=set)
    box: tuple[str, ...] = ()
    revealed: dict[int, int] = field(default_factory=dict)  # seat: solution points
    over: bool = False

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def deck(self) -> Deck:
        return self.game.deck

    @property
    def round(self) -> int:
        return self.epoch + 1

    @property
    def turn(self) -> int:
        return self.asked + 1

    @property
    def start(self) -> int:
        assert self.dealer is not None
        return (self.dealer + len(self.deck.ids) - len(TYPES) + 1) % self.players

    @property
    def variant(self) -> bool:
        return bool(self.game.options["end_variant"] == "solutions")

    def held(self, seat: int) -> int:
        """How many cards `seat` holds now, by the public record."""
        return self.sizes[seat] - self.laid_now[seat]

    def order(self, first: int) -> list[int]:
        return [(first + i) % self.players for i in range(self.players)]

    def writers(self) -> list[int]:
        """Who writes a solution once the game ends (variant "solutions")."""
        if self.accuser is not None:
            return [s for s in self.order(self.accuser) if s != self.accuser]
        return self.order(self.start)

    def limit_reached(self) -> bool:
        limit = self.game.options["round_limit"]
        return self.played == self.players and limit is not None and self.round >= limit

    def phase(self) -> str:
        """setup, turns, passing, solutions, box, results (solutions shown), end or over."""
        if self.over:
            return "over"
        if self.box:
            return "results" if self.variant and len(self.revealed) < self.players else "end"
        if self.epoch < 0:
            return "setup"
        if self.accuser is not None or self.limit_reached():
            unwritten = set(self.writers()) - self.written
            return "solutions" if self.variant and unwritten else "box"
        return "passing" if self.played == self.players else "turns"

    def mover(self) -> int:
        return (self.start + self.played) % self.players

    def must_choose(self) -> list[int]:
        """The seats that still have to choose their pass (they hold more than r cards)."""
        return [
            s for s in self.order(self.start) if self.held(s) > self.round and s not in self.chosen
        ]

    def unpassed(self) -> list[int]:
        """The seats holding cards whose pass of this round is not recorded yet."""
        return [s for s in range(self.players) if self.held(s) > 0 and s not in self.given]

    def pass_count(self, giver: int) -> int:
        """How many cards `giver` passes this round: the chosen r, or a short whole hand."""
        return min(self.round, self.held(giver))

    def sizes_after_passes(self) -> list[int]:
        n = self.players
        return [
            self.held(s) - self.given.get(s, 0) + self.given.get((s - 1) % n, 0) for s in range(n)
        ]

    def winners(self) -> tuple[int, ...]:
        """The winners by the rules, once the box is open (state.py `_finish`)."""
        totals = self.totals()
        right = self.accuser is not None and self.accusation == self.box
        if not self.variant and right:
            assert self.accuser is not None
            return (self.accuser,)
        eligible = list(range(self.players))
        wrong = self.accuser is not None and not self.variant
        if wrong and not self.game.options["wrong_accuser_can_win"]:
            eligible = [s for s in eligible if s != self.accuser]
        best = max(totals[s] for s in eligible)
        return tuple(s for s in eligible if totals[s] == best)

    def totals(self) -> list[int]:
        return [points + self.revealed.get(s, 0) for s, points in enumerate(self.scores)]

    # --- folding one observation ----------------------------------------------------------
    def add(self, obs: Observation) -> None:
        self.kinds += 1
        match obs:
            case seen.Seating(dealer=dealer):
                self.dealer = dealer
                self.scores = [0] * self.players
            case seen.Deal(cards=cards):
                self.dealt = True
                self.hand = set(cards or ())
                self.held_ever |= self.hand
                self.only_mine = set(self.hand)
            case seen.Hands(round=epoch, sizes=sizes):
                self.epoch = epoch
                self.sizes = list(sizes or [0] * self.players)
                self.laid_now = [0] * self.players
                self.chosen, self.given, self.received, self.played = {}, {}, set(), 0
            case seen.Laid():
                self._read_lay(obs)
            case seen.Answered():
                self.played += 1
                self.asked += 1
            case seen.Accused(seat=seat, cards=cards):
                self.accuser, self.accusation = seat, tuple(cards or ())
                self.written.add(seat)
            case seen.PassChosenCards(seat=seat, cards=cards):
                self.chosen[seat] = tuple(cards or ())
            case seen.PassChosen(seat=seat):
                self.chosen[seat] = ()
            case seen.PassedCards(cards=cards):
                self._read_pass(obs, set(cards or ()))
            case seen.Passed():
                self._read_pass(obs, set())
            case seen.SolutionWritten(seat=seat):
                self.written.add(seat)
            case seen.BoxOpened(cards=cards):
                self.box = tuple(cards or ())
            case seen.SolutionShown(seat=seat, points=points):
                self.revealed[seat] = points
            case seen.End():
                self.over = True

    def _read_lay(self, obs: seen.Laid) -> None:
        seat, cards = obs.seat, set(obs.cards or ())
        self.laid.add(obs.group)
        self.laid_now[seat] += len(cards)
        self.scores[seat] += obs.points
        self.laid_by.setdefault(seat, set()).update(cards)
        if seat == self.me:
            self.hand -= cards
            self.my_laid |= cards

    def _read_pass(self, obs: seen.Passed, cards: set[str]) -> None:
        giver, receiver = obs.giver, obs.receiver
        self.given[giver] = obs.count
        if giver == self.me:
            self.hand -= cards
            self.only_mine -= cards
            self.known_seen.setdefault(receiver, set()).update(cards)
        if receiver == self.me:
            self.known_seen.setdefault(giver, set()).update(cards)
        if receiver == self.me:
            self.hand |= cards
            self.held_ever |= cards
            self.received |= cards


def dealt_sizes(table: Table) -> list[int]:
    """The hand sizes of the deal."""
    assert table.dealer is not None
    return hand_sizes(len(table.deck.ids) - len(TYPES), table.players, table.dealer)


_SEAT_FIELDS = ("dealer", "start", "seat", "giver", "receiver", "asker", "target")
_NUMBER_FIELDS = ("players", "round", "turn", "count", "points", "answer")


def _unreadable(obs: Observation, first: bool, players: int) -> str | None:
    """Why `Table.read` cannot fold `obs` (an earlier observation handed to the parser), or
    None: one of this game's kinds with its fields, each once and in order, each of its type."""
    shapes = seen.KINDS.get(obs.kind)
    if shapes is None:
        return f"{quote(obs.kind)} is not a kind of observation of alibi"
    if first != (seen.Seating in shapes):
        return "the record starts with the seating, and has it once"
    if not isinstance(obs, seen.AlibiObservation):
        names = [name for name, _ in obs.fields]
        missing = [name for name in shapes[0].field_names() if name not in names]
        if missing:
            return f"{obs.kind} has no {', '.join(missing)}"
        fields = " or ".join(", ".join(shape.field_names()) for shape in shapes)
        return f"{obs.kind} has the fields {', '.join(names)}, not {fields} (each once, in order)"
    for name, value in obs.fields:
        if name in _SEAT_FIELDS and not (is_int(value) and 0 <= value < players):
            return f"{name} is not a seat from 0 to {players - 1}: {quote(value)}"
        if name in _NUMBER_FIELDS and not is_int(value):
            return f"{name} is not a whole number: {quote(value)}"
        if name == "cards" and not _all(value, str):
            return f"cards is not a list of card names: {quote(value)}"
        if name == "sizes" and not (_all(value, int) and len(value) == players):
            return f"sizes is not {players} hand sizes: {quote(value)}"
        if name == "group" and not isinstance(value, str):
            return f"group is not a name: {quote(value)}"
    return None


def _all(value: object, kind: type) -> bool:
    """Whether `value` is a tuple of `kind` (bools are not ints here)."""
    return isinstance(value, tuple) and all(
        isinstance(item, kind) and not isinstance(item, bool) for item in value
    )


HELP: tuple[tuple[str, str], ...] = (
    ("dealer 1", "the seating: who dealt (the start player follows; 'dealer 1 start 0' checks it)"),
    (
        "deal al-do bl-kn fi-pi ...",
        "your own hand as dealt, all on one line, any order; a name as printed (Blunt "
        "Object: Bottle) or shortened, each part or word (al-do = alleyway-doorway, bl-ob-bo)",
    ),
    (
        "hands 19 19 18 18",
        "the hand sizes of players 0, 1, ... after the deal or a round's passes ('hands' "
        "alone fills them in)",
    ),
    ("1 lays poison", "player 1 lays a set of three (points and round are filled in)"),
    (
        "2 asks 3 seen deck: 0",
        "a question and its answer: hand or seen, then a type (weapon), a group (poison), a "
        "detail (noon, deck) or cards (po-ar car-tr); 'me' is your seat",
    ),
    (
        "pass al-du got bl-kn",
        "a whole passing step in one line: the cards you passed, then those you got; "
        "everyone's choices and passes and the new hand sizes are filled in",
    ),
    ("0 chooses bl-ha pr-va", "the cards you chose to pass (another player: '1 chooses')"),
    (
        "3 passes to 0: pr-va",
        "one pass; name the cards only of a pass you give or get ('1 passes to 2')",
    ),
    ("2 accuses sl-sl-mo st-on po-ar ra-in", "an accusation: one card of each type, any order"),
    ("box vi-to-mo st-on sm-pl gr-inh", "the box, opened at the end"),
    ("1 writes", "variant 'solutions': a player wrote a solution (yours: '0 writes' and 4 cards)"),
    ("1 reveals sl-sl-mo st-on po-ar ra-in", "variant 'solutions': a written solution, shown"),
    ("end winners 1 3", "the end and its winners (scores follow; 'end' alone fills them in)"),
)


# --- reading a line --------------------------------------------------------------------------
class Notation(GameNotation["Alibi"]):
    """The vocabularies of one configured game, and the readers of each form."""

    FORMS = HELP

    def __init__(self, game: Alibi) -> None:
        super().__init__(game)
        deck = game.deck
        self.deck = deck
        printed = {card.id: card.name for card in deck.cards}
        self.cards = Vocabulary("card", deck.ids, printed)
        self.keywords = Vocabulary("kind of entry", (*KEYWORDS, *_KEYWORD_ALIASES))
        self.verbs = Vocabulary("verb", VERBS)
        self.scopes = Vocabulary("scope", SCOPES)
        self.subjects = Vocabulary(
            "subject",
            (*TYPES, *deck.groups, *deck.details, *deck.ids),
            {**deck.detail_names, **deck.group_names, **printed},
        )
        self.named = {
            SubjectKind.TYPE: Vocabulary("type", TYPES),
            SubjectKind.GROUP: Vocabulary("group", deck.groups, deck.group_names),
            SubjectKind.DETAIL: Vocabulary("detail", deck.details, deck.detail_names),
        }
        self._readable: tuple[Observation, ...] = ()  # the last `before` found readable

    def check_before(self, before: tuple[Observation, ...]) -> None:
        """Refuse a `before` that `Table.read` cannot fold. The observations checked for the
        last line are skipped: the next line usually comes after them."""
        known = self._readable
        start = len(known) if before[: len(known)] == known else 0
        for i in range(start, len(before)):
            problem = _unreadable(before[i], i == 0, self.game.players)
            if problem is not None:
                raise InvalidObservation(
                    f"before[{i}] is not an observation of this alibi game: {problem}"
                )
        self._readable = before

    def words(self) -> list[str]:
        """What Tab completes: the kinds of entry, verbs, scopes, and every name."""
        fixed = (*KEYWORDS, *VERBS, "start", "to", "me", "winners", *SCOPES)
        return list(dict.fromkeys((*fixed, *self.subjects.names)))

    # --- the line ---------------------------------------------------------------------------
    def parse(
        self, text: str, seat: Seat, before: tuple[Observation, ...]
    ) -> tuple[Observation, ...]:
        assert isinstance(seat, int)  # Game.parse_entry checked it is one of the game's
        words = words_of(text)
        if not words:
            raise InvalidObservation(f"{quote(text)} has no words; type 'help' for the forms")
        self.check_before(before)
        table = Table(self.game, seat).added(before)
        first = words[0]
        if first in ("me", "i") or first.isdigit():
            if len(words) < 2:
                raise InvalidObservation(
                    f"{quote(text)}: after the player, say what they did: {', '.join(VERBS)}"
                )
            actor = self.seat(first, table, "the player")
            verb = _PAST.get(words[1]) or self.verbs.read(words[1])
            return (self._BY_VERB[verb](self, actor, words[2:], table),)
        if not first.isalpha():
            raise InvalidObservation(
                f"{quote(text)} does not start with a player or one of: {', '.join(KEYWORDS)}"
            )
        keyword = self.keywords.read(first)
        keyword = _KEYWORD_ALIASES.get(keyword, keyword)
        if keyword == "pass":
            return self.passing_step(words[1:], table)
        return (self._BY_KEYWORD[keyword](self, words[1:], table),)

    def seat(self, word: str, table: Table, what: str) -> int:
        if word in ("me", "i"):
            return table.me
        return read_int(word, what, 0, table.players - 1)

    def card_list(self, words: list[str], what: str) -> list[str]:
        if not words:
            raise InvalidObservation(f"{what}: no card is named")
        return list(self.cards.read_all(words))

    def four(self, words: list[str], what: str) -> list[str]:
        """One card of each type, in type order, typed in any order."""
        cards = self.card_list(words, what)
        by_type = {self.deck.by_id[card].type: card for card in cards}
        if len(cards) != len(TYPES) or len(by_type) != len(TYPES):
            raise InvalidObservation(
                f"{what} names four cards, one of each type ({', '.join(TYPES)}), not "
                f"{quote(' '.join(words))}"
            )
        return [by_type[kind] for kind in TYPES]

    # --- setup ------------------------------------------------------------------------------
    def _dealer(self, words: list[str], table: Table) -> Observation:
        if table.kinds:
            raise InvalidObservation("the seating (dealer D) is the first entry, and only once")
        if len(words) not in (1, 3) or (len(words) == 3 and words[1] != "start"):
            raise InvalidObservation(
                f"expected 'dealer D' or 'dealer D start S', not {quote(' '.join(words))}"
            )
        dealer = self.seat(words[0], table, "the dealer")
        fixed = self.game.options["dealer"]
        if fixed != "random" and dealer != fixed:
            raise InvalidObservation(f"this game was set up with player {fixed} as the dealer")
        table.dealer = dealer
        if len(words) == 3 and self.seat(words[2], table, "the start player") != table.start:
            raise InvalidObservation(
                f"with player {dealer} dealing, the last card goes to the player right of "
                f"player {table.start}, so player {table.start} starts"
            )
        return seen.Seating(table.players, dealer, table.start)

    def _deal(self, words: list[str], table: Table) -> Observation:
        if table.dealer is None or table.dealt:
            raise InvalidObservation(
                "your deal comes right after the seating (dealer D), and only once"
            )
        if words and words[0].isdigit():
            if self.seat(words[0], table, "the seat dealt") != table.me:
                raise InvalidObservation(
                    f"you see only your own deal (you are player {table.me}), not player "
                    f"{words[0]}'s"
                )
            words = words[1:]
        size = dealt_sizes(table)[table.me]
        cards = self.card_list(words, "your deal")
        if len(cards) != size:
            raise InvalidObservation(
                f"with player {table.dealer} dealing you (player {table.me}) get {size} cards, "
                f"not {len(cards)}"
            )
        return seen.Deal(table.me, tuple(sorted(cards)))

    def _hands(self, words: list[str], table: Table) -> Observation:
        phase = table.phase()
        if table.dealer is None or not table.dealt:
            raise InvalidObservation("the hand sizes come after the seating and your deal")
        if table.epoch < 0:
            expected, when = dealt_sizes(table), "the deal"
        elif phase == "passing" and not table.unpassed():
            expected, when = table.sizes_after_passes(), f"the passes of round {table.round}"
        elif phase == "passing":
            giver = table.unpassed()[0]
            raise InvalidObservation(
                f"the hand sizes come after the passes of round {table.round}; player "
                f"{giver}'s is missing ('{giver} passes to {(giver + 1) % table.players}')"
            )
        else:
            raise InvalidObservation(
                "the hand sizes are counted after the deal and after each round's passes"
                + (f" (round {table.round} is still being played)" if phase == "turns" else "")
            )
        sizes = [read_int(word, "a hand size", 0, len(self.deck.ids)) for word in words]
        if sizes and sizes != expected:
            raise InvalidObservation(
                f"after {when} the hands hold {' '.join(map(str, expected))} cards (players 0 "
                f"to {table.players - 1}), not {' '.join(words)}: is an entry missing?"
            )
        return seen.Hands(table.round, tuple(expected))

    # --- turns ------------------------------------------------------------------------------
    def on_turn(self, actor: int, table: Table, doing: str) -> None:
        """Refuse a move out of turn."""
        phase = table.phase()
        if phase != "turns":
            raise InvalidObservation(f"player {actor} cannot {doing} now: {_no_turns(phase)}")
        if actor != table.mover():
            raise InvalidObservation(
                f"it is player {table.mover()}'s turn in round {table.round}, not player "
                f"{actor}'s (is a question missing?)"
            )

    def _asks(self, asker: int, words: list[str], table: Table) -> Observation:
        form = "A asks T hand|seen SUBJECT: N"
        if len(words) < 4:
            raise InvalidObservation(
                f"expected '{form}' (e.g. 2 asks 3 seen deck: 0), not {quote(' '.join(words))}"
            )
        self.on_turn(asker, table, "ask")
        target = self.seat(words[0], table, "the player asked")
        if target == asker:
            raise InvalidObservation(f"player {asker} cannot ask themselves")
        scope = self.scopes.read(words[1])
        subject = self.subject(words[2:-1])
        cards = subject.cards(self.deck)
        if len(cards) == 1 and self.game.options["single_card_questions"] == "forbidden":
            raise InvalidObservation(
                f"single-card questions ({quote(str(subject))}) are forbidden in this game"
            )
        answer = read_int(words[-1], "the answer", 0, len(cards))
        self.own_knowledge(target, scope, cards, answer, table)
        return seen.Answered(
            asker, target, scope, str(subject), cards, answer, table.round, table.turn
        )

    def own_knowledge(
        self, target: int, scope: str, cards: tuple[str, ...], answer: int, table: Table
    ) -> None:
        """Refuse an answer the seat's own hand contradicts: its own answer is a count of its
        own cards, nobody else holds a card the seat holds or one laid in a set, nobody else
        has seen a card dealt to the seat that it never passed on, and the neighbours have
        seen the cards passed between them and the seat."""
        if target == table.me:
            self._own_answer(scope, cards, answer, table)
        elif scope == "seen":
            self._seen_answer(target, cards, answer, table)
        else:
            self._hand_answer(target, cards, answer, table)

    def _own_answer(self, scope: str, cards: tuple[str, ...], answer: int, table: Table) -> None:
        """Refuse an answer of the seat itself that is not the count of its own cards asked."""
        pool = table.hand if scope == "hand" else table.held_ever
        if scope == "seen" and not self.game.options["seen_includes_sets"]:
            pool = pool - table.my_laid
        mine = [card for card in cards if card in pool]
        if answer != len(mine):
            what = "hold" if scope == "hand" else "have seen"
            listed = f" ({', '.join(mine)})" if mine else ""
            raise InvalidObservation(
                f"you {what} {len(mine)} of the cards asked{listed}, so your answer is "
                f"{len(mine)}, not {answer} (by your own entries: your deal and passes)"
            )

    def _seen_answer(self, target: int, cards: tuple[str, ...], answer: int, table: Table) -> None:
        """Refuse another seat's count of cards seen above what it can have seen (cards dealt
        to the seat and never passed on) or below what it has seen (cards passed between)."""
        unseen = [card for card in cards if card in table.only_mine]
        if answer > len(cards) - len(unseen):
            raise InvalidObservation(
                f"player {target} can have seen at most {len(cards) - len(unseen)} of the "
                f"{len(cards)} cards asked, not {answer}: {', '.join(unseen)} "
                f"{'was' if len(unseen) == 1 else 'were'} dealt to you and never passed on"
            )
        known = table.known_seen.get(target, set())
        if not self.game.options["seen_includes_sets"]:
            known = known - table.laid_by.get(target, set())
        passed = [card for card in cards if card in known]
        if answer < len(passed):
            raise InvalidObservation(
                f"player {target} has seen at least {len(passed)} of the cards asked, not "
                f"{answer}: {', '.join(passed)} passed between you"
            )

    def _hand_answer(self, target: int, cards: tuple[str, ...], answer: int, table: Table) -> None:
        """Refuse another seat's count of cards held above the cards asked that the seat does
        not hold itself and that no laid set contains."""
        laid = {card for group in table.laid for card in self.deck.of_group(group)}
        yours = [card for card in cards if card in table.hand]
        out = [card for card in cards if card in laid]
        possible = len(cards) - len(yours) - len(out)
        if answer > possible:
            why = []
            if yours:
                why.append(f"you hold {', '.join(yours)}")
            if out:
                why.append(f"{', '.join(out)} {'is' if len(out) == 1 else 'are'} laid")
            raise InvalidObservation(
                f"player {target} can hold at most {possible} of the {len(cards)} cards asked, "
                f"not {answer}: {' and '.join(why)}"
            )

    def subject(self, words: list[str]) -> Subject:
        """A type, group or detail (typed alone), or one or more cards; "kind:" may lead."""
        if not words:
            raise InvalidObservation("the question names no subject")
        kind = subject_kind(words[0]) if len(words) > 1 else None
        if kind is SubjectKind.CARDS:
            return Subject(kind, tuple(self.card_list(words[1:], "the question")))
        if kind is not None:
            return Subject(kind, self.named[kind].read_phrase(words[1:]))
        if len(words) > 1:
            try:  # a name of several words: "blunt object", "back stage", "fall window"
                return self.one_word_subject(" ".join(words))
            except AmbiguousName:
                raise
            except InvalidObservation:
                pass
            return Subject(SubjectKind.CARDS, tuple(self.card_list(words, "the question")))
        return self.one_word_subject(words[0])

    def one_word_subject(self, word: str) -> Subject:
        """A full name of any kind; else the type, group or detail it abbreviates; else a card.
        `word` may be a name of several words, as printed ("blunt object")."""
        for kind, vocabulary in self.named.items():
            if word in vocabulary.names:
                return Subject(kind, word)
        if word in self.deck.by_id:
            return Subject(SubjectKind.CARDS, (word,))
        for kind, vocabulary in self.named.items():  # a printed name in full ("Back Stage")
            spelt = vocabulary.matches(word)
            if len(spelt) == 1 and parts_of(word) == parts_of(vocabulary.printed.get(spelt[0], "")):
                return Subject(kind, spelt[0])
        found = []
        for kind, vocabulary in self.named.items():
            try:
                found.append(Subject(kind, vocabulary.read(word)))
            except AmbiguousName:
                raise
            except InvalidObservation:
                pass
        if len(found) > 1:
            names = ", ".join(str(subject.value) for subject in found)
            raise AmbiguousName(f"{quote(word)} could be any of: {names}")
        if found:
            return found[0]
        try:
            return Subject(SubjectKind.CARDS, (self.cards.read(word),))
        except AmbiguousName:
            raise
        except InvalidObservation:
            pass
        raise InvalidObservation(
            f"{quote(word)} is not a type, group, detail or card{self.subjects.suggestion(word)}"
            " (a question names a type: weapon, a group: poison, a detail: noon, or cards)"
        )

    def _lays(self, seat: int, words: list[str], table: Table) -> Observation:
        if not words or len(words) > 2:
            raise InvalidObservation(
                f"expected 'S lays GROUP' (e.g. 1 lays poison), not {quote(' '.join(words))}"
            )
        self.on_turn(seat, table, "lay a set")
        group = self.named[SubjectKind.GROUP].read_phrase(words)
        if group in table.laid:
            raise InvalidObservation(f"the {group} set was laid before")
        cards = self.deck.of_group(group)
        missing = [card for card in cards if card not in table.hand]
        if seat == table.me and missing:
            raise InvalidObservation(f"you cannot lay {group}: you do not hold {missing[0]}")
        points = set_points(table.round, self.deck.type_of_group(group))
        return seen.Laid(seat, group, cards, points, table.round, table.turn)

    def _accuses(self, seat: int, words: list[str], table: Table) -> Observation:
        self.on_turn(seat, table, "accuse")
        cards = self.four(words, "an accusation")
        return seen.Accused(seat, tuple(cards), table.round, table.turn)

    # --- passing ----------------------------------------------------------------------------
    def _chooses(self, seat: int, words: list[str], table: Table) -> Observation:
        phase, r = table.phase(), table.round
        if phase != "passing" or table.given:
            raise InvalidObservation(
                "players choose the cards to pass after every player has had a turn, before "
                "the passes"
            )
        if seat not in table.must_choose():
            why = "has chosen already" if seat in table.chosen else f"holds at most {r} cards"
            raise InvalidObservation(f"player {seat} {why}: no choice to make in round {r}")
        if seat != table.me:
            if words:
                raise InvalidObservation(
                    f"you do not see which cards player {seat} chooses; type '{seat} chooses'"
                )
            return seen.PassChosen(seat, r, r)
        cards = self.card_list(words, "your pass")
        self.own_cards(cards, table, f"after round {r} you pass {r} cards", r)
        return seen.PassChosenCards(seat, r, r, tuple(sorted(cards)))

    def own_cards(self, cards: list[str], table: Table, rule: str, count: int) -> None:
        if len(cards) != count:
            raise InvalidObservation(f"{rule}, not {len(cards)}")
        missing = [card for card in cards if card not in table.hand]
        if missing:
            raise InvalidObservation(f"you do not hold {missing[0]}")

    def _passes(self, giver: int, words: list[str], table: Table) -> Observation:
        r, n = table.round, table.players
        waiting = table.must_choose() if table.phase() == "passing" else []
        if table.phase() != "passing" or waiting:
            raise InvalidObservation(
                "cards are passed after every player has had a turn and chosen their pass"
                + (f" (player {waiting[0]} has not chosen yet)" if waiting else "")
            )
        if giver in table.given:
            raise InvalidObservation(f"player {giver} has passed already in round {r}")
        receiver = (giver + 1) % n
        if words and words[0] == "to":
            words = words[1:]
            if not words:
                raise InvalidObservation(f"expected 'S passes to {receiver} [CARDS]'")
        if words and (words[0].isdigit() or words[0] in ("me", "i")):
            if self.seat(words[0], table, "the receiver") != receiver:
                raise InvalidObservation(f"player {giver} passes to the left, to player {receiver}")
            words = words[1:]
        count = table.pass_count(giver)
        if count <= 0:
            raise InvalidObservation(f"player {giver} holds no card to pass")
        if table.me not in (giver, receiver):
            if words:
                raise InvalidObservation(
                    f"you do not see the cards player {giver} passes to player {receiver}; "
                    f"type '{giver} passes to {receiver}'"
                )
            return seen.Passed(giver, receiver, r, count)
        cards = self.passed(giver, words, table, count)
        return seen.PassedCards(giver, receiver, r, count, tuple(cards))

    def passed(self, giver: int, words: list[str], table: Table, count: int) -> list[str]:
        """The cards of a pass the seat gives (its choice, or its whole short hand) or
        receives (typed)."""
        if giver == table.me:
            mine = sorted(table.chosen.get(giver) or table.hand - table.received)
            if words and sorted(self.card_list(words, "your pass")) != mine:
                raise InvalidObservation(f"you pass {' '.join(mine)}")
            return mine
        cards = self.card_list(words, f"the cards player {giver} passes you")
        if len(cards) != count:
            raise InvalidObservation(f"player {giver} passes you {count} cards, not {len(cards)}")
        held = [card for card in cards if card in table.hand]
        if held:
            raise InvalidObservation(f"you hold {held[0]} already")
        return sorted(cards)

    def passing_step(self, words: list[str], table: Table) -> tuple[Observation, ...]:
        """A whole passing step from what the seat gave and got: every choice in turn order,
        every pass in seat order, then the new hand sizes (as the game shows them)."""
        if table.phase() != "passing" or table.chosen or table.given:
            raise InvalidObservation(
                "'pass ... got ...' types a whole passing step at once: after every player "
                "has had their turn in the round, before any choice or pass of it is typed"
            )
        if words and words[0] == "gave":
            words = words[1:]
        split = words.index("got") if "got" in words else len(words)
        gave, got = words[:split], words[split + 1 :]
        right = (table.me - 1) % table.players
        for giver, typed, where in ((table.me, gave, "first"), (right, got, "after 'got'")):
            if table.pass_count(giver) > 0 and not typed:
                whose = "you passed" if giver == table.me else f"player {giver} passed you"
                raise InvalidObservation(f"name the cards {whose} {where}: 'pass CARDS got CARDS'")
        if got and table.pass_count(right) <= 0:
            raise InvalidObservation(f"player {right} holds no card to pass you")
        found = []
        for seat in table.must_choose():
            found.append(self._chooses(seat, gave if seat == table.me else [], table))
            table.add(found[-1])
        for giver in range(table.players):
            if table.pass_count(giver) > 0:
                typed = gave if giver == table.me else got if giver == right else []
                found.append(self._passes(giver, typed, table))
                table.add(found[-1])
        found.append(self._hands([], table))
        return tuple(found)

    # --- the end ----------------------------------------------------------------------------
    def _writes(self, seat: int, words: list[str], table: Table) -> Observation:
        if table.phase() != "solutions" or seat not in set(table.writers()) - table.written:
            raise InvalidObservation(
                f"player {seat} has no solution to write now (in the variant 'solutions' "
                "everyone but the accuser writes one once the game ends)"
            )
        if seat != table.me:
            if words:
                raise InvalidObservation(f"you do not see player {seat}'s written solution")
            return seen.SolutionWritten(seat)
        return seen.SolutionWrittenCards(seat, tuple(self.four(words, "a solution")))

    def _box(self, words: list[str], table: Table) -> Observation:
        if table.phase() != "box":
            raise InvalidObservation("the box is opened once, when the game ends")
        cards = self.four(words, "the box")
        held = [card for card in cards if card in table.held_ever]
        if held:
            raise InvalidObservation(
                f"{held[0]} cannot be in the box: it has been in your hand (the box holds "
                "cards nobody has seen)"
            )
        return seen.BoxOpened(tuple(cards))

    def _reveals(self, seat: int, words: list[str], table: Table) -> Observation:
        if table.phase() != "results" or seat in table.revealed:
            raise InvalidObservation(
                "the written solutions are shown once each, after the box is opened"
            )
        cards = self.four(words, "a solution")
        correct = sum(a == b for a, b in zip(cards, table.box, strict=True))
        points = correct * self.game.options["solution_points"]
        return seen.SolutionShown(seat, tuple(cards), correct, points)

    def _end(self, words: list[str], table: Table) -> Observation:
        if table.phase() != "end":
            raise InvalidObservation("the game ends after the box is opened (and solutions shown)")
        if words and words[0] in ("winners", "won", "win", "wins"):
            words = words[1:]
        expected = table.winners()
        typed = tuple(sorted(self.seat(word, table, "a winner") for word in words))
        if words and typed != tuple(sorted(expected)):
            raise InvalidObservation(
                f"by the rules the winners are {' '.join(map(str, expected))}, not "
                f"{' '.join(words)}"
            )
        reason = "accusation" if table.accuser is not None else "round limit"
        return seen.End(reason, expected, tuple(table.scores), tuple(table.totals()))

    _BY_VERB: ClassVar[dict[str, Callable[..., Observation]]] = {
        "asks": _asks,
        "lays": _lays,
        "accuses": _accuses,
        "chooses": _chooses,
        "passes": _passes,
        "writes": _writes,
        "reveals": _reveals,
    }
    """The reader of a line a player's verb begins (VERBS), given the player."""
    _BY_KEYWORD: ClassVar[dict[str, Callable[..., Observation]]] = {
        "dealer": _dealer,
        "deal": _deal,
        "hands": _hands,
        "box": _box,
        "end": _end,
    }
    """The reader of a line a keyword begins (KEYWORDS but pass)."""


def _no_turns(phase: str) -> str:
    return {
        "setup": "the seating, your deal and the hand sizes come first",
        "passing": "the round is over; the passes and the hand sizes come next",
        "over": "the game is over",
    }.get(phase, "the game has ended")
