"""Serial Killer in the terminal: the tracks, the pool, the players, the decks, the lab, and
the seat's notepad of traits (a heat map of the profile's chances)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from engines import Action, InformationSet
from engines.serial_killer import COLOURS, WEAPON_MAX, Declare, SerialKiller, replay
from engines.serial_killer.actions import USAGE
from sleuth.views import TERMINAL_STYLE, Heat, heat
from solver import Deduction
from solver.games.serial_killer.model import PROFILE
from solver.hints import percent

COLOUR_STYLES = ("red", "blue", "green", "yellow", "white")


def _who(seat: int) -> Text:
    return Text(COLOURS[seat], style=f"bold {COLOUR_STYLES[seat]}")


def render(game: SerialKiller, info: InformationSet) -> RenderableType:
    """The public position and the seat's own hand."""
    assert isinstance(info.seat, int)
    view = replay(game, info.observations, info.seat)
    head = Text(
        f"round {view.round}   ferocity {view.ferocity}   weapon {view.weapon}/{WEAPON_MAX}   "
        f"first player {COLOURS[view.first_player]}"
        + ("   FINAL ROUND" if view.final_round else "")
    )
    pool = "  ".join(f"{face}:{k}" for face, k in enumerate(view.pool, 1))
    head.append(f"\npool   {pool}")
    players = Table(box=None, padding=(0, 1))
    for column in ("player", "points", "district", "hand", "state"):
        players.add_column(column)
    for seat in range(game.players):
        hand = (
            " ".join(sorted(view.hand(seat)))
            if seat == info.seat
            else " ".join(f"{g}:{k}" for g, k in sorted(Counter(view.hand_genres[seat]).items()))
        )
        state = []
        if view.caught[seat]:
            state.append("caught")
        if view.seq[seat] is not None:
            state.append(f"declared #{view.seq[seat]}")
        if view.passed[seat] and view.phase == "buy":
            state.append("passed")
        players.add_row(
            _who(seat),
            str(view.points_left[seat]),
            str(view.pawn[seat] or "-"),
            hand or "-",
            ", ".join(state),
        )
    decks = "  ".join(
        f"{g}@{view.deck_district[g]}:{view.deck_size(g) - 1}" for g in game.parts.genre_ids
    )
    lab = "  ".join(
        f"{p}:{g}{'*' if turned else ''}"
        for p, (g, turned) in enumerate(zip(view.lab_genres, view.rotated, strict=True), 1)
    )
    tail = Text(f"decks  {decks}  (genre@district:cards left to draw)\nlab    {lab or '(empty)'}")
    return Group(head, players, tail)


def profile(game: SerialKiller, deduction: Deduction) -> list[tuple[str, list[float]]]:
    """Per genre, each trait's chance of being the profile's, in the genre's card order."""
    chances = {
        fact.args: deduction.probability(fact) for fact in deduction.facts if fact.kind == PROFILE
    }
    return [
        (genre.id, [chances.get((genre.id, card), 0.0) for card in genre.cards])
        for genre in game.parts.genres
    ]


def trait_heat(probability: float) -> Heat:
    """How hot a trait's chance is: hot only when certain, warm from 25%, cold when ruled out."""
    return heat(probability, hot=1.0, warm=0.25)


PROFILE_STYLE: dict[Heat, str] = {**TERMINAL_STYLE, "warm": "bold", "mild": "", "cold": "dim"}
"""The terminal's colour of a trait's heat, the profile's own: warm bold, mild plain, cold
(ruled out) dim."""


def heat_map(game: SerialKiller, info: InformationSet, deduction: Deduction) -> RenderableType:
    """Each genre's traits with their chance of being the profile's (- ruled out)."""
    table = Table(title="the profile", box=None, padding=(0, 1))
    table.add_column("genre")
    for k in range(game.options["traits_per_genre"]):
        table.add_column(str(k), justify="right")
    for genre, chances in profile(game, deduction):
        cells = [
            Text("-" if p == 0 else percent(p), style=PROFILE_STYLE[trait_heat(p)]) for p in chances
        ]
        table.add_row(genre, *cells)
    return Group(render(game, info), table)


def names_help() -> str:
    """How names may be typed in this game's notation, with examples of its own."""
    return (
        "Cards may be typed by id (WPN.5) or by their trait as printed, each word shortened "
        "to a unique beginning (drew bare hands; ba-ha, with '-' between the words, inside a "
        "list or a pair); players by colour or seat number; Tab completes them."
    )


def legend() -> Text:
    return Text(
        "lab: position:genre, * rotated · decks: genre@district:cards left · "
        "profile: % chance per trait, - ruled out"
    )


def moves_help(game: SerialKiller, legal: Sequence[Action]) -> Text | None:
    """The notation, when declarations (too many to list) are among the moves."""
    if any(isinstance(action, Declare) for action in legal):
        genres = " ".join(f"{g}.k" for g in game.parts.genre_ids)
        return Text(f"declare {genres}   one trait per genre\nmoves: {USAGE}")
    return None


def routine(game: SerialKiller, legal: Sequence[Action]) -> bool:
    """No decision is too small to narrate (a discard shows the lab's next card)."""
    return False
