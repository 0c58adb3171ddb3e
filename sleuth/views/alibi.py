"""Alibi in the terminal: the notepad a person keeps, one row per group of three cards.

Cards are shown by the names typed at the prompt: a group (`studio`) and its three details
(`back-stage`), so the card is `studio-back-stage`. The notepad marks what the seat knows
without deduction; the heat map puts the solver's chance of each card being in the box on it,
marking the chances that are estimated rather than exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from engines import Action, InformationSet
from engines.alibi import TYPES, Alibi, Pass, Solution
from engines.alibi import observations as seen
from opponents.games.alibi import crossed_off
from sleuth.views import TERMINAL_STYLE, Heat, heat
from solver import Deduction
from solver.games.alibi.chain import card_id
from solver.games.alibi.model import HOLDS, IN_BOX
from solver.hints import percent
from solver.sampling import ESTIMATED, NOT_YET, Estimate, estimate

Note = Literal[
    "open", "box", "hand", "passed", "held", "laid", "crossed", "holder", "likely", "out"
]
"""What a cell says of its card, beside a chance's heat: nothing yet, in the box, in the
seat's hand, passed, held, laid in a set, answered 'all of them', certainly held by a player,
probably held by one, ruled out of the box."""
Cell = tuple[str, Note | Heat]  # a card's mark and what it says, each front end colouring it

STYLES: dict[Note | Heat, str] = {
    **dict(TERMINAL_STYLE.items()),  # (a copy, so that mypy widens its keys)
    "open": "",
    "box": "bold white on red",
    "hand": "bold green",
    "passed": "green",
    "held": "green",
    "laid": "cyan",
    "crossed": "yellow",
    "holder": "cyan",
    "likely": "dim cyan",
    "out": "dim",
}
"""The terminal's colour of each cell."""

MARKS: tuple[tuple[str, Note, str], ...] = (
    ("H", "hand", "in your hand"),
    (">1", "passed", "you passed it to player 1"),
    ("h", "held", "you held it"),
    ("L2", "laid", "laid by player 2"),
    ("x", "crossed", "answered 'all of them'"),
)
CARD_NAMES = "a card is GROUP-DETAIL as in the notepad: studio-back-stage, slim-slant-noon"
KEY = (
    "H in hand · >#: you passed it to player # · h held · L# laid by player # · "
    "x answered 'all of them'"
)


@dataclass
class Notepad:
    """What one seat has written down: its hand, the cards it held, sets laid, the public state."""

    hand: set[str] = field(default_factory=set)
    held: set[str] = field(default_factory=set)
    laid_by: dict[str, int] = field(default_factory=dict)
    passed_to: dict[str, int] = field(default_factory=dict)  # the seat's cards it passed
    crossed: set[str] = field(default_factory=set)
    box: set[str] = field(default_factory=set)  # once the game is over
    round: int = 1
    sizes: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)


def notepad(info: InformationSet) -> Notepad:
    """The notepad of `info`'s seat, read off its observations in order."""
    pad, me = Notepad(crossed=crossed_off(info)), info.seat
    for obs in info.observations:
        match obs:
            case seen.Seating(players=players):
                pad.points = [0] * players
            case seen.Deal(cards=cards):
                pad.hand.update(cards)
                pad.held.update(cards)
            case seen.PassedCards(receiver=receiver, cards=cards) if receiver == me:
                pad.hand.update(cards)
                pad.held.update(cards)
            case seen.PassedCards(giver=giver, receiver=receiver, cards=cards) if giver == me:
                pad.hand.difference_update(cards)
                pad.passed_to.update(dict.fromkeys(set(cards), receiver))
            case seen.Hands(round=counted_after, sizes=sizes):
                pad.round, pad.sizes = counted_after + 1, list(sizes)
            case seen.Laid(seat=seat, cards=cards, points=points):
                pad.hand.difference_update(cards)
                pad.laid_by.update(dict.fromkeys(set(cards), seat))
                pad.sizes[seat] -= 3
                pad.points[seat] += points
            case seen.BoxOpened(cards=cards):
                pad.box = set(cards)
    return pad


def _mark(pad: Notepad, card: str) -> Cell:
    """The strongest thing the notepad says about `card` (nothing: it may be in the box)."""
    if card in pad.box:
        return "BOX", "box"
    if card in pad.hand:
        return "H", "hand"
    if card in pad.laid_by:
        return f"L{pad.laid_by[card]}", "laid"
    if card in pad.passed_to:
        return f">{pad.passed_to[card]}", "passed"
    if card in pad.held:
        return "h", "held"
    if card in pad.crossed:
        return "x", "crossed"
    return "", "open"


def _public_line(pad: Notepad, seat: int) -> Text:
    sizes = " ".join(f"{s}:{n}" for s, n in enumerate(pad.sizes))
    points = " ".join(f"{s}:{p}" for s, p in enumerate(pad.points))
    return Text.assemble(
        (f"player {seat}, round {pad.round}", "bold"),
        f" · cards {sizes} · set points {points}",
    )


def _grid(game: Alibi, cell: Callable[[str], Cell], heading: Callable[[str], str]) -> Table:
    """The 78 cards: per type a heading row, then a row per group with its three details, each
    detail after the mark `cell` gives it; cards with no mark are the open ones."""
    deck = game.deck
    table = Table(show_header=False, box=None, padding=(0, 1, 0, 0))
    table.add_column(no_wrap=True)
    for _ in range(3):
        table.add_column(no_wrap=True, justify="right", min_width=4)
        table.add_column(no_wrap=True)
    for kind in TYPES:
        table.add_row(Text(kind.upper(), "bold underline"), "", Text(heading(kind), "dim"))
        for group in deck.groups:
            if deck.type_of_group(group) != kind:
                continue
            row: list[Text] = [Text(group, "bold")]
            for card in deck.of_group(group):
                mark, note = cell(card)
                row.append(Text(mark, STYLES[note]))
                row.append(Text(deck.by_id[card].detail, "dim" if mark else "bold"))
            table.add_row(*row)
    return table


def notepad_cells(game: Alibi, info: InformationSet) -> dict[str, Cell]:
    """Each card's mark on the seat's notepad and what it says ('' and open for an open card):
    what any front end draws."""
    pad = notepad(info)
    return {card: _mark(pad, card) for card in game.deck.ids}


def render(game: Alibi, info: InformationSet) -> RenderableType:
    """The seat's notepad: every card marked by what the seat knows without deduction."""
    cells = notepad_cells(game, info)

    def heading(kind: str) -> str:
        left = sum(not cells[card][0] for card in game.deck.of_type(kind))
        return f"{left} unmarked"

    table = _grid(game, cells.__getitem__, heading)
    table.caption = KEY
    assert isinstance(info.seat, int)
    return Group(_public_line(notepad(info), info.seat), table)


def heat_cells(
    game: Alibi, info: InformationSet, deduction: Deduction
) -> tuple[dict[str, Cell], str]:
    """Each card's chance of being in the box as a cell (BOX when certain, - when impossible
    by deduction, ~ when estimated, ? when possible but never reached by the estimate), and
    the caption that says how to read them."""
    cells: dict[str, Cell] = dict.fromkeys(game.deck.ids, ("-", "out"))
    margins = [0.0]
    for fact in deduction.facts:
        if fact.kind != IN_BOX:
            continue
        chance = estimate(deduction, fact)
        cells[card_id(fact.args[0])] = _chance_cell(chance)
        margins.append(chance.margin if chance.shown else 0.0)
    pad = notepad(info)
    holders = holder_cells(info, deduction)
    for card in game.deck.ids:  # the notepad folded in where the box is ruled out: the
        if possible(cells[card][0]):  # seat's hand and sets, else where the card is now,
            continue  # else where the seat last saw it go
        mark = _mark(pad, card)
        if mark[1] in ("box", "hand", "laid"):
            cells[card] = mark
        elif card in holders:
            cells[card] = holders[card]
        elif mark[1] in ("passed", "held"):
            cells[card] = mark
    key = "H yours · L# laid · P# player # holds it · p# probably # · >#: you passed it to # · "
    caption = f"% chance in the box · BOX certain · {key}- not in the box"
    if not deduction.exact:
        widest = math.ceil(max(margins) * 100 - 1e-9) or 1
        caption = (
            f"% chance in the box ({ESTIMATED}): ~ estimated, 95% margin up to ±{widest}% · "
            f"? {NOT_YET}, or possible but not reached by the estimate · BOX certain · "
            f"{key}- not in the box"
        )
    return cells, caption


def possible(mark: str) -> bool:
    """Whether a heat-map cell says the card may be in the box (a chance, ? or BOX)."""
    return mark in ("?", "BOX") or mark.endswith("%")


def holder_cells(info: InformationSet, deduction: Deduction) -> dict[str, Cell]:
    """Where each card the seat cannot see lies now, when the deduction says: P# when
    player # certainly holds it, p# when player # probably does (LIKELY_HOLDER or more, the
    estimate within its shown margin)."""
    mine = notepad(info)
    plain = mine.hand | set(mine.laid_by) | mine.box
    best: dict[str, tuple[float, bool, int]] = {}
    for fact in deduction.facts:
        if fact.kind != HOLDS:
            continue
        player, card = fact.args[0], card_id(fact.args[1])
        if card in plain or not isinstance(player, int):
            continue
        chance = estimate(deduction, fact)
        if chance.shown and chance.value > best.get(card, (0.0, False, 0))[0]:
            best[card] = (chance.value, chance.exact, player)
    cells: dict[str, Cell] = {}
    for card, (value, exact, player) in best.items():
        if value == 1.0 and exact:
            cells[card] = f"P{player}", "holder"
        elif value >= LIKELY_HOLDER:
            cells[card] = f"p{player}", "likely"
    return cells


LIKELY_HOLDER = 0.5
"""The chance from which a card's likeliest holder is marked on the board."""


def heat_map(game: Alibi, info: InformationSet, deduction: Deduction) -> RenderableType:
    """The notepad with each card's chance of being in the box (see `heat_cells`)."""
    cells, caption = heat_cells(game, info, deduction)

    def heading(kind: str) -> str:
        left = sum(possible(cells[card][0]) for card in game.deck.of_type(kind))
        return f"{left} possible"

    table = _grid(game, cells.__getitem__, heading)
    table.caption = caption
    pad = notepad(info)
    assert isinstance(info.seat, int)
    return Group(_public_line(pad, info.seat), table)


def _chance_cell(chance: Estimate) -> Cell:
    """A card's cell of the heat map: its chance, ~ when estimated; mild only from 5%."""
    if chance.value == 0:
        return "-", "out"
    if chance.value == 1 and chance.exact:
        return "BOX", "box"
    warmth = heat(chance.value, mild=0.05)
    if not chance.shown:
        return "?", warmth
    return ("" if chance.exact else "~") + percent(chance.value), warmth


def names_help() -> str:
    """How names may be typed in this game's notation, with examples of its own."""
    return (
        "Cards, groups and details may be typed as printed, in any case (Blunt Object: Bottle), "
        "or shortened to a unique beginning of each word (bl-ob-bo or blunt-bottle; al-do for "
        "alleyway-doorway); Tab completes them."
    )


def legend() -> Text:
    """The marks of the notepad."""
    parts = [Text.assemble((mark, STYLES[note]), f" {meaning}") for mark, note, meaning in MARKS]
    return Text("  ").join(parts)


def routine(game: Alibi, legal: Sequence[Action]) -> bool:
    """Passing is routine: the box odds before a pass are those of the mover's last turn."""
    return bool(legal) and isinstance(legal[0], Pass)


def moves_help(game: Alibi, legal: Sequence[Action]) -> Text:
    """The notation to type, since the moves are too many to list: passes are combinations
    and questions may name any list of cards."""
    if legal and isinstance(legal[0], Solution):
        return Text("solution SUSPECT PLACE WEAPON FEELING   your written solution, four cards")
    if legal and isinstance(legal[0], Pass):
        count = len(legal[0].cards)
        return Text(f"pass CARD ...   the {count} cards of your hand to pass left\n{CARD_NAMES}")
    return Text(
        "lay GROUP                            lay a set from your hand, before asking\n"
        "ask SEAT hand|seen SUBJECT           ask another player; SUBJECT is type:weapon,\n"
        "                                     group:poison, detail:noon or cards:A,B,...\n"
        "accuse SUSPECT PLACE WEAPON FEELING  one card of each type; ends the game\n" + CARD_NAMES
    )
