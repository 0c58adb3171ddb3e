"""Turns entered by tapping: what the session page offers to build the next entry with.

An `Offer` says whose turn it is or what the game owes next (`prompt`), lists whole lines that
can come next (`quick`: each one read by the game's notation before it is offered) and holds a
`Taps` tree: chips that build a line of the game's notation word by word (a verb, then a
suspect; "2 asks", then "1", "hand", a card, ": 0"). The page's script walks the tree and
writes the line into the entry box, and the line is sent through the same add route as a
typed one: the notation reads, checks, refuses and stores it, so there is one path.

Alibi and Noir have trees built from the record (whose turn, the seat's own hand, the grid now;
their own pass or move offered whole when the record already says it). The other games get
lists: the lines the engine says can come next (each move or chance outcome made in a few
worlds drawn from the record), the seat's legal moves, and the words of the notation by kind,
with numbers and symbols, for anything else. Every whole line offered is printed as the game
prints it (`observation_text` of what it reads as), so a tapped entry is the typed one.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import solver
from engines import Game, InformationSet, Observation, Seat, SleuthError, State
from engines.alibi import TYPES
from engines.alibi.game import Alibi
from engines.alibi.notation import Table
from engines.city_killer import CityKiller
from engines.city_killer.frames import AnswerQuestion, Frame, KillerTurn
from engines.city_killer.observations import Act, Answered
from engines.noir.game import Noir
from engines.noir.grid import block, neighbours
from engines.noir.material import INSPECTOR, KILLER
from engines.noir.notation import END_REASONS, Owed, Record
from engines.noir.observations import Canvas, Collapsed, Drew, Hand, IdentityTold
from engines.serial_killer.material import COLOURS
from solver import Deduction

COMPLETE = 0
"""The node a chip leads to when its line is whole (nothing more to tap but Add)."""
ANSWERS = 21
"""Answer chips for an Alibi question: 0 to 20 (a hand holds at most 19 cards)."""


@dataclass
class Node:
    """One step of a line: a prompt and rows of chips (heading, chips). A chip is (text
    appended, label shown, the node it leads to). `end`: the line may be added here; `multi`:
    a chip tapped here stays for more (a list of cards); a chip already in the line is not
    shown here."""

    prompt: str
    rows: list[tuple[str, list[tuple[str, str, int]]]] = field(default_factory=list)
    end: bool = False
    multi: bool = False


class Taps:
    """A tree (a graph: nodes are shared) of chips building one line."""

    def __init__(self) -> None:
        self.nodes: list[Node] = [Node("the line is complete: Add it", end=True)]

    def node(self, prompt: str, *, end: bool = False, multi: bool = False) -> int:
        self.nodes.append(Node(prompt, end=end, multi=multi))
        return len(self.nodes) - 1

    def row(self, node: int, heading: str, chips: Sequence[tuple[str, str, int]]) -> None:
        if chips:
            self.nodes[node].rows.append((heading, list(chips)))

    def to_json(self) -> str:
        return json.dumps(
            [{"p": n.prompt, "rows": n.rows, "end": n.end, "multi": n.multi} for n in self.nodes],
            separators=(",", ":"),
        )


UNFOLLOWED = (SleuthError, KeyError, ValueError, IndexError, TypeError, AttributeError,
              AssertionError)  # fmt: skip
"""What reading a record the builders cannot follow may raise (a conflict, a line typed out
of the expected order): the page then offers less, and never fails."""

START = 1
"""The first node of every tree: each builder makes it first."""


@dataclass
class Offer:
    """What the page offers for the next entry: whose turn or what is owed, whole lines that
    can come next (each read by the notation here), and the chips to build any other."""

    prompt: str
    quick: list[str]
    taps: Taps


def offer(
    game: Game,
    seat: Seat,
    before: Sequence[Observation],
    deduced: tuple[int, Deduction] | None = None,
) -> Offer:
    """What the page offers for the entry after `before` (the session's observations);
    `deduced`, when given, is (n, `solver.deduce` of the first n of them), made once by the
    session (n < len(before) while the record waits for something the game owes)."""
    builder = BUILDERS.get(game.name)
    try:
        if builder is None:
            raise LookupError(game.name)  # no tree of its own: the lists
        prompt, candidates, taps = builder(game, seat, tuple(before))
    except (*UNFOLLOWED, LookupError):
        # a record the builder cannot follow (a conflict, a line typed out of order): the
        # lists still work, and typing always does
        prompt, candidates, taps = _lists(game, seat, tuple(before))
        found, mover = _engine_lines(game, seat, tuple(before), deduced)
        public = PUBLIC_LINES.get(game.name)
        candidates = [*candidates, *found, *(public(game, seat, tuple(before)) if public else [])]
        prompt = mover or prompt
    quick = [line for line in (_canonical(game, seat, before, c) for c in candidates) if line]
    quick = list(dict.fromkeys(quick))
    # the ways the game may have ended come last: offered, not suggested before the moves
    ends = [line for line in quick if line == "end" or line.startswith("end ")]
    taps.row(START, "if the game ended", [(line, line, COMPLETE) for line in ends])
    return Offer(prompt, [line for line in quick if line not in ends], taps)


def _canonical(game: Game, seat: Seat, before: Sequence[Observation], line: str) -> str | None:
    """`line` as the game prints what it records (cards in the game's order, sizes filled in),
    or None when it does not read here. A line of several observations stays as it is."""
    try:
        found = game.parse_entry(line, seat, tuple(before))
        return game.observation_text(found[0]) if len(found) == 1 else line
    except UNFOLLOWED:
        return None


def _reads(game: Game, seat: Seat, before: Sequence[Observation], line: str) -> bool:
    try:
        game.parse_entry(line, seat, tuple(before))
    except UNFOLLOWED:  # only offered when it reads; what cannot be read is never shown
        return False
    return True


Built = tuple[str, list[str], Taps]


# --- Alibi ------------------------------------------------------------------------------------
def _alibi(game: Game, seat: Seat, before: tuple[Observation, ...]) -> Built:
    """The chips of the phase the record is in, with a set laid (while the turns and the
    passes go on) and a question out of the expected order (in the turns) besides."""
    assert isinstance(game, Alibi) and isinstance(seat, int)
    table = Table(game, seat).added(before)
    phase = table.phase() if table.dealer is not None else "setup"
    tree = _AlibiTree(game, seat, table)
    prompt = tree.phase_chips(phase)
    if phase in ("turns", "passing"):
        tree.sets()
    if phase == "turns":
        tree.questions_out_of_turn()
    return prompt, tree.quick, tree.taps


class _AlibiTree:
    """The chips for the next line of an Alibi record, built node by node (the order numbers
    the nodes, so it is kept): the start, a question's answer and subject, every card, the
    groups to lay; then the phase's own (`phase_chips`)."""

    def __init__(self, game: Alibi, seat: int, table: Table) -> None:
        self.game, self.seat, self.table, self.deck = game, seat, table, game.deck
        self.taps = Taps()
        self.start = self.taps.node("what happened")
        self.quick: list[str] = []
        self.subject = self._subject(*self._answers())
        self.everyone = self.cards("the cards", self.deck.ids)
        self.lays = self.taps.node("which group")
        self.taps.row(self.lays, "", [(g, g, COMPLETE) for g in self.deck.groups])

    def cards(self, prompt: str, cards: Sequence[str], end: bool = True) -> int:
        """A node listing `cards` by group, each tapped in turn (a list of cards)."""
        deck, taps = self.deck, self.taps
        node = taps.node(prompt, end=end, multi=True)
        for group in deck.groups:
            row = [(c, deck.by_id[c].detail, node) for c in deck.of_group(group) if c in cards]
            taps.row(node, group, row)
        return node

    def _answers(self) -> tuple[int, int]:
        """The answer to a question (how many), and the node for more cards of a list asked
        about, or its answer."""
        deck, taps = self.deck, self.taps
        answer = taps.node("the answer: how many")
        taps.row(answer, "answer", [(f": {n}", str(n), COMPLETE) for n in range(ANSWERS)])
        more = taps.node("more cards, or the answer", multi=True)
        taps.row(more, "answer", [(f": {n}", str(n), COMPLETE) for n in range(ANSWERS)])
        for group in deck.groups:
            taps.row(more, group, [(c, deck.by_id[c].detail, more) for c in deck.of_group(group)])
        return answer, more

    def _subject(self, answer: int, more: int) -> int:
        """What a question asks about: a type, a detail, a group or some of its cards."""
        deck, taps = self.deck, self.taps
        subject = taps.node("the subject asked about: a type, a group (first in its row), a card")
        taps.row(subject, "type", [(t, t, answer) for t in TYPES])
        shared = [d for d in deck.details if len(deck.of_detail(d)) > 1]
        taps.row(subject, "detail", [(d, d, answer) for d in shared])
        for kind in TYPES:
            for n, group in enumerate(g for g in deck.groups if deck.type_of_group(g) == kind):
                cards = [(c, deck.by_id[c].detail, more) for c in deck.of_group(group)]
                taps.row(subject, f"{kind}: group, then its cards" if n == 0 else "",
                         [(group, group, answer), *cards])  # fmt: skip
        single = [d for d in deck.details if d not in shared]
        taps.row(subject, "detail of one card", [(d, d, answer) for d in single])
        return subject

    def target(self, asker: int) -> int:
        """Whom `asker` asks and how, in one tap: "1 hand" (what they hold), "1 seen"."""
        node = self.taps.node(f"player {asker} asks whom: about their hand, or what they have seen")
        for s in range(self.game.players):
            if s != asker:
                who = "me" if s == self.seat else f"player {s}"
                self.taps.row(node, "", [(f"{s} {scope}", f"{who} · {scope}", self.subject)
                                         for scope in ("hand", "seen")])  # fmt: skip
        return node

    def phase_chips(self, phase: str) -> str:
        """The chips (and whole lines) of `phase`; its prompt."""
        chips = {
            "turns": self._turns,
            "passing": self._passing,
            "solutions": self._solutions,
            "box": self._box,
            "results": self._results,
            "end": self._end,
            "over": self._over,
        }.get(phase)
        return chips() if chips is not None else "the setup: who dealt, your cards, the hand sizes"

    def _turns(self) -> str:
        """The mover asks (whom, how, about what) or accuses (the four cards)."""
        mover = self.table.mover()
        who = "your" if mover == self.seat else f"player {mover}'s"
        me = mover == self.seat
        self.taps.row(self.start, "turn", [(f"{mover} asks", "I ask" if me else f"{mover} asks",
                                            self.target(mover)),
                                           (f"{mover} accuses",
                                            "I accuse" if me else f"{mover} accuses",
                                            self.everyone)])  # fmt: skip
        return f"{who} turn: a question, or an accusation"

    def _passing(self) -> str:
        """The passes: the whole step in one line while none is recorded, the seat's choice,
        the others' choices, each pass not recorded yet, then the hand sizes after them."""
        table, seat = self.table, self.seat
        choosing = table.must_choose()
        if not table.chosen and not table.given:  # the whole step in one line
            hand = [c for c in self.deck.ids if c in table.hand]
            got = self.cards("the cards you got", [c for c in self.deck.ids if c not in table.hand])
            gave = self.cards(f"the {table.pass_count(seat)} cards you passed", hand, end=False)
            self.taps.row(gave, "then", [("got", "got …", got)])
            self.taps.row(self.start, "the whole step", [("pass", "I passed … got …", gave)])
        if seat in choosing:
            hand = [c for c in self.deck.ids if c in table.hand]
            chosen = self.cards(f"the {table.pass_count(seat)} cards you pass", hand)
            self.taps.row(self.start, "you", [(f"{seat} chooses", "I choose", chosen)])
        self.quick += [f"{s} chooses" for s in choosing if s != seat]
        for giver in table.unpassed():
            self._pass_of(giver)
        sizes = table.sizes_after_passes()
        self.quick.append("hands " + " ".join(map(str, sizes)))
        return "the passes: who chose, who passed what"

    def _pass_of(self, giver: int) -> None:
        """`giver`'s pass: the seat's own whole when its cards are known (chosen, or all it
        holds), else its cards to tap; the cards passed to the seat to tap; another's, whole."""
        table, seat = self.table, self.seat
        receiver = (giver + 1) % self.game.players
        line = f"{giver} passes to {receiver}"
        if giver == seat:
            mine = [c for c in self.deck.ids if c in table.hand - table.received]
            if seat in table.chosen or table.held(seat) <= table.round:  # chosen, or all
                self.quick.append(f"{line}: {' '.join(table.chosen.get(seat) or mine)}")
            else:
                passed = self.cards("the cards you passed", mine)
                self.taps.row(self.start, "you", [(f"{line}:", f"I pass to {receiver}", passed)])
        elif receiver == seat:
            got = self.cards(f"the cards player {giver} passed you",
                             [c for c in self.deck.ids if c not in table.hand])  # fmt: skip
            self.taps.row(self.start, "to you", [(f"{line}:", f"{giver} passes to me", got)])
        else:
            self.quick.append(line)

    def _solutions(self) -> str:
        """The variant "solutions": everyone but the accuser writes one, the seat's tapped."""
        writers = [s for s in self.table.writers() if s not in self.table.written]
        if self.seat in writers:
            self.taps.row(self.start, "you", [(f"{self.seat} writes", "I write", self.everyone)])
        self.quick += [f"{s} writes" for s in writers if s != self.seat]
        return "the written solutions: yours, then who else wrote"

    def _box(self) -> str:
        """The box opened: its cards to tap."""
        self.taps.row(self.start, "box", [("box", "box", self.everyone)])
        return "the box is opened: its four cards"

    def _results(self) -> str:
        """The written solutions not shown yet (the accuser's too), each to tap."""
        shown = [s for s in range(self.game.players) if s not in self.table.revealed]
        self.taps.row(self.start, "reveals",
                      [(f"{s} reveals", f"{s} reveals", self.everyone) for s in shown])  # fmt: skip
        return "the written solutions shown, one by one"

    def _end(self) -> str:
        """The end of the game, whole: who won."""
        self.quick.append("end winners " + " ".join(map(str, self.table.winners())))
        return "the end of the game"

    def _over(self) -> str:
        """Nothing more: the game is over."""
        return "the game is over"

    def sets(self) -> None:
        """A set laid, by any player."""
        players = range(self.game.players)
        self.taps.row(self.start, "sets", [(f"{s} lays", f"{s} lays", self.lays) for s in players])

    def questions_out_of_turn(self) -> None:
        """A question by any player but the mover (out of the expected order)."""
        asks = [s for s in range(self.game.players) if s != self.table.mover()]
        self.taps.row(self.start, "others",
                      [(f"{s} asks", f"{s} asks", self.target(s)) for s in asks])  # fmt: skip


# --- Noir -------------------------------------------------------------------------------------
def _noir(game: Game, seat: Seat, before: tuple[Observation, ...]) -> Built:
    """The chips of what the record owes next (a canvas, the collapse, an identity, a card
    drawn, the inspector's hand), else of the move of the seat to move; the ends of the game
    besides."""
    assert isinstance(game, Noir) and isinstance(seat, str)
    record = Record.of(game, seat, before)
    tree = _NoirTree(game, seat, record)
    if not record.grid:
        return (
            "the grid as laid out (the new-session form sets it by tapping)",
            tree.quick,
            tree.taps,
        )
    if record.owed:
        prompt = tree.owed_chips(record.owed[0])
    elif record.over:
        return "the game is over", tree.quick, tree.taps
    else:
        prompt = tree.turn_chips()
    tree.quick += [f"end {word}" for word in END_REASONS]
    return prompt, tree.quick, tree.taps


class _NoirTree:
    """The chips for the next line of a Noir record, built node by node (the order numbers
    the nodes, so it is kept)."""

    def __init__(self, game: Noir, seat: str, record: Record) -> None:
        self.game, self.seat, self.record = game, seat, record
        self.taps = Taps()
        self.start = self.taps.node("what happened")
        self.quick: list[str] = []
        on_grid = [name for row in record.grid for name in row]
        self.alive = [name for name in on_grid if name not in record.dead]

    def names(self, prompt: str, chosen: Sequence[str], then: int = COMPLETE) -> int:
        """A node of one row of names, each leading to `then`."""
        node = self.taps.node(prompt)
        self.taps.row(node, "", [(name, name, then) for name in chosen])
        return node

    def owed_chips(self, owed: Owed) -> str:
        """What the record owes next: the canvas's two answers, the collapse, an identity or
        the card drawn to tap, the inspector's four cards to tap."""
        game, seat, record, taps = self.game, self.seat, self.record, self.taps
        if owed.kind is Canvas:
            self.quick += [
                Canvas(owed.seat, owed.suspect, answer).text() for answer in (True, False)
            ]
        elif owed.kind is Collapsed:
            self.quick.append("collapse")
        elif owed.kind is IdentityTold:
            pool = record.hand if seat == INSPECTOR else self.alive
            taps.row(self.start, "", [("identity", "identity", self.names("who", pool))])
        elif owed.kind is Drew:
            pool = [name for name in game.suspects if name not in record.held]
            taps.row(self.start, "", [("drew", "drew", self.names("the card you drew", pool))])
        elif owed.kind is Hand:
            node = taps.node("your four cards", end=True, multi=True)
            taps.row(node, "", [(name, name, node) for name in game.suspects])
            taps.row(self.start, "", [("hand", "hand", node)])
        return f"next: {owed.waiting_for}"

    def turn_chips(self) -> str:
        """The moves of the seat to move: a shift of a row or column, and the killer's or the
        inspector's own."""
        mover = self.record.to_move
        shifts = self._shifts()
        moves = self._killer(shifts) if mover == KILLER else self._inspector(shifts)
        self.taps.row(self.start, "", moves)
        return "your turn" if mover == self.seat else f"the {mover}'s turn"

    def _shifts(self) -> int:
        """Which row or column, which way."""
        shifts = self.taps.node("which line, which way")
        height, width = len(self.record.grid), len(self.record.grid[0])
        rows = [
            (f"row {r} {d}", f"row {r} {'←' if d == 'left' else '→'}", COMPLETE)
            for r in range(1, height + 1)
            for d in ("left", "right")
        ]
        self.taps.row(shifts, "rows", rows)
        columns = [
            (f"column {c} {d}", f"col {c} {'↑' if d == 'up' else '↓'}", COMPLETE)
            for c in range(1, width + 1)
            for d in ("up", "down")
        ]
        self.taps.row(shifts, "columns", columns)
        return shifts

    def _killer(self, shifts: int) -> list[tuple[str, str, int]]:
        """The killer's moves: a kill (the seat's own: of a neighbour), a shift, a disguise
        (the seat's own: as whom, else: of whom), a failed disguise (the card drawn)."""
        game, seat, record, alive = self.game, self.seat, self.record, self.alive
        moves: list[tuple[str, str, int]] = []
        victims = alive
        if seat == KILLER and record.me is not None:
            victims = [name for name in alive if name in neighbours(record.grid, record.me)]
        moves.append(("kill", "kill", self.names("whom", victims)))
        moves.append(("killer shift", "shift", shifts))
        suspects = list(game.suspects)
        if seat == KILLER and record.me is not None:
            self.quick.append(f"disguise innocent {record.me}")
            moves.append(("disguise as", "disguise as", self.names("your new identity", alive)))
        else:
            moves.append(("disguise innocent", "disguise innocent", self.names("whom", alive)))
        moves.append(("disguise failed", "disguise failed", self.names("the card drawn", suspects)))
        return moves

    def _inspector(self, shifts: int) -> list[tuple[str, str, int]]:
        """The inspector's moves: his identity chosen (the seat's own, once), a shift, an
        arrest (the seat's own: in his block) and its outcome, an exoneration (the seat's own:
        of a card in hand, else of any not shown innocent), with the option an arrest by a
        citizen (with which agent)."""
        game, seat, record, alive, taps = self.game, self.seat, self.record, self.alive, self.taps
        moves: list[tuple[str, str, int]] = []
        outcome = taps.node("the outcome", end=True)
        taps.row(outcome, "", [("missed", "missed", COMPLETE), ("caught", "caught", COMPLETE)])
        near = alive
        if seat == INSPECTOR and record.me is not None:
            near = [name for name in alive if name in block(record.grid, record.me)]
        if not record.chosen and seat == INSPECTOR:
            chose = self.names("your identity", [n for n in record.hand if n not in record.dead])
            moves.append(("chose-identity", "chose identity", chose))
        self.quick.append("chose-identity")
        moves.append(("inspector shift", "shift", shifts))
        moves.append(("arrest", "arrest", self.names("whom", near, outcome)))
        self.quick.append("draw")
        hand = record.hand if seat == INSPECTOR else []
        if seat != INSPECTOR:  # any card he may hold: not yet shown innocent
            hand = [name for name in game.suspects if name not in record.innocent]
        moves.append(("exonerate", "exonerate", self.names("whom", hand)))
        if game.options["citizen_arrest"]:
            agents = record.hand if seat == INSPECTOR else alive
            agent = taps.node("with which agent")
            taps.row(agent, "", [(f"with {a}", a, outcome) for a in agents])
            moves.append(("citizen-arrest", "citizen arrest", self.names("whom", alive, agent)))
        return moves


# --- the other games: lists ---------------------------------------------------------------------
def _lists(game: Game, seat: Seat, before: tuple[Observation, ...]) -> Built:
    """The seat's legal moves when it is to move (as lines the notation reads), then the
    notation's kinds and words, numbers and symbols."""
    taps = Taps()
    start = taps.node("what happened")
    quick: list[str] = []
    prompt = "what your seat saw next"
    info = InformationSet(game.name, game.option_items(), seat, before)
    try:
        actions = game.legal_actions_for(info)
    except (*UNFOLLOWED, NotImplementedError):
        actions = []
    if actions:
        prompt = "your turn"
        for action in actions[:60]:
            lines = [line for line in _action_lines(game, seat, str(action))
                     if _reads(game, seat, before, line)]  # fmt: skip
            quick += lines[:1]
    words = list(dict.fromkeys(game.notation_words()))
    kinds = list(dict.fromkeys(form.split()[0] for form, _ in game.notation_help()))
    rest = taps.node("the rest of the line", end=True, multi=False)
    taps.row(rest, "words", [(w, w, rest) for w in words if w not in kinds])
    taps.row(rest, "numbers", [(str(n), str(n), rest) for n in range(10)])
    taps.row(rest, "symbols", [(s, s, rest) for s in ("!", "?", "/", ":", ",")])
    taps.row(start, "kind", [(k, k, rest) for k in kinds])
    return prompt, quick, taps


def _city_killer_lines(game: Game, seat: Seat, before: tuple[Observation, ...]) -> list[str]:
    """What may come next whatever the hidden world, read off the public view (the one world
    drawn shows only its own answers and victims): the killer's yes or no to a question,
    then the answer as the table hears it; the killer's choice of victim (any living
    resident)."""
    assert isinstance(game, CityKiller)

    def frame_after(observations: tuple[Observation, ...]) -> tuple[Frame, list[str]] | None:
        """The decision the view awaits after `observations`, and the living residents then
        (the view is kept and extended later, so they are read now)."""
        info = InformationSet(game.name, game.option_items(), seat, observations)
        try:
            view = game.seat_view(info)
        except UNFOLLOWED:
            return None
        if not view.frames:
            return None
        return view.frames[-1], list(view.living)

    last = before[-1] if before else None
    if isinstance(last, Act) and last.move in ("answer yes", "answer no"):
        found = frame_after(before[:-1])
        if found is None or not isinstance(question := found[0], AnswerQuestion):
            return []
        yes = last.move == "answer yes"
        said = Answered(question.name, question.attr, question.value, yes, question.source)
        return [game.observation_text(said)]
    found = frame_after(before)
    if found is None:
        return []
    match found:
        case AnswerQuestion(), _:
            return ["killer: answer yes", "killer: answer no"]
        case KillerTurn(), living:
            return [f"killer: murder {name}" for name in living]
    return []


PUBLIC_LINES: dict[str, Callable[[Game, Seat, tuple[Observation, ...]], list[str]]] = {
    "city-killer": _city_killer_lines
}
"""Lines a list game's public view says may come next, beside those of the worlds drawn."""
WORLDS = {"city-killer": 1}
"""Worlds drawn to find the lines that can come next in the list games (3 unless told): one
in City Killer, whose sampler replays the record and takes up to a second a world."""
MOVES = 80
"""Moves (or chance outcomes) tried in each world."""
BACK = 3
"""How far back a record still owed something (a reveal after a lay) may start the search."""
DEDUCED_ONLY = ("city-killer",)
"""Games searched only from the point the session has a deduction of (a deduction of its own
for another point is too slow in City Killer)."""


def _engine_lines(
    game: Game,
    seat: Seat,
    before: tuple[Observation, ...],
    deduced: tuple[int, Deduction] | None,
) -> tuple[list[str], str | None]:
    """The lines that can come next, found by the engine: in a few whole worlds consistent
    with the record (`solver.sample_state`), each move of the seat to move (or each chance
    outcome) is made, and the first new observation of this seat printed as it is typed. A
    record the worlds cannot be drawn for, or whose moves give nothing (it still owes
    something: a reveal after a lay), is searched from an earlier point, keeping the moves
    whose observations begin with what was typed since. With them, whose move it is (or that
    chance is next) when the worlds agree and nothing is owed, else None."""
    for back in range(min(BACK, len(before)) + 1):
        whole = before[: len(before) - back]
        deduction = deduced[1] if deduced is not None and deduced[0] == len(whole) else None
        info = InformationSet(game.name, game.option_items(), seat, whole)
        worlds = _worlds(game, info, deduction)
        if not worlds:
            continue
        since = before[len(whole) :]
        found: list[str] = []
        movers: set[str] = set()
        for world in worlds:
            mover = world.to_move
            movers.add("chance" if world.is_chance or mover is None else _seat_text(mover, seat))
            moves: list[Any] = (
                [o for o, _ in world.chance_outcomes()] if world.is_chance
                else world.legal_actions()
            )  # fmt: skip
            for move in moves[:MOVES]:
                after = world.clone()
                try:
                    if world.is_chance:
                        after.apply_chance(move)
                    else:
                        after.apply(move)
                    new = after.information_set(seat).observations[len(whole) :]
                except UNFOLLOWED:
                    continue
                if len(new) > len(since) and new[: len(since)] == since:
                    found.append(game.observation_text(new[len(since)]))
        if not found:
            continue
        if back or len(movers) != 1:
            return found, None
        who = movers.pop()
        return found, "what the game shows next" if who == "chance" else f"{who} turn"
    return [], None


DRAWN: OrderedDict[InformationSet, tuple[State, ...]] = OrderedDict()
"""The worlds drawn for the last records offered (the server's one worker thread reads and
writes it): the page after an entry that still owes something searches from the record the
page before drew worlds for, without drawing (and deducing) again."""
KEPT = 16
"""Records whose worlds are kept."""


def _worlds(game: Game, info: InformationSet, deduction: Deduction | None) -> tuple[State, ...]:
    """A few worlds consistent with `info` that are not over (none when they cannot be drawn,
    or, in the games searched only where deduced, when `deduction` is not given and none were
    drawn before)."""
    if info in DRAWN:
        DRAWN.move_to_end(info)
        return DRAWN[info]
    if deduction is None and game.name in DEDUCED_ONLY:
        return ()
    rng = random.Random(len(info.observations))
    try:
        drawn = [solver.sample_state(info, rng, deduction) for _ in range(WORLDS.get(game.name, 3))]
    except (*UNFOLLOWED, solver.Inconsistent):
        drawn = []
    DRAWN[info] = tuple(world for world in drawn if not world.is_over)
    while len(DRAWN) > KEPT:
        DRAWN.popitem(last=False)
    return DRAWN[info]


def _seat_text(seat: Seat, me: Seat) -> str:
    """Whose turn, in the words of the page: "your", "player 2's", "the killer's"."""
    if seat == me:
        return "your"
    return f"player {seat}'s" if isinstance(seat, int) else f"the {seat}'s"


def _action_lines(game: Game, seat: Seat, text: str) -> list[str]:
    """The ways a seat's own move may be typed (`offer` keeps those the notation reads): as
    the action prints, after the seat's name (City Killer), or with the seat's colour after
    the verb (Serial Killer)."""
    lines = [text, f"{seat}: {text}"]
    if game.name == "serial-killer" and isinstance(seat, int):
        verb, _, rest = text.partition(" ")
        lines.append(f"{verb} {COLOURS[seat]} {rest}".rstrip())
    return lines


BUILDERS: dict[str, Callable[[Game, Seat, tuple[Observation, ...]], Built]] = {
    "alibi": _alibi,
    "noir": _noir,
}
