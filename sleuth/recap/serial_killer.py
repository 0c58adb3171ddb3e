"""Serial Killer's recap: the profile trait by trait, every declaration in order, right or
wrong, and why the winner won (or why nobody did); each player could know the profile."""

from __future__ import annotations

from engines import InformationSet
from engines.serial_killer import COLOURS, SerialKiller, SerialKillerState
from sleuth.recap import Certainty
from solver.games.serial_killer.position import parse
from solver.games.serial_killer.race import own_candidates


def reveal(game: SerialKiller, state: SerialKillerState) -> list[str]:
    parts = game.parts
    profile = state.profile()
    traits = (
        f"{parts.by_genre[parts.genre_of(card)].name} {parts.trait_name(card)} ({card})"
        for card in profile
    )
    lines = ["the profile: " + "; ".join(traits)]
    order = sorted((seq, seat) for seat, seq in enumerate(state.seq) if seq is not None)
    for seq, seat in order:
        declared = state.declaration(seat) or ()
        wrong = [c for c, truth in zip(declared, profile, strict=True) if c != truth]
        verdict = "right" if not wrong else f"wrong in {len(wrong)} of {len(profile)} genres"
        lines.append(f"declaration {seq}: {COLOURS[seat]}, {' '.join(declared)}: {verdict}")
    if not order:
        lines.append("nobody declared")
    points = ", ".join(f"{COLOURS[s]} {p}" for s, p in enumerate(state.points_left))
    lines.append(f"ferocity {state.ferocity}; points left: {points}")
    if state.winners:
        winner = state.winners[0]
        assert isinstance(winner, int)  # Serial Killer's seats are numbers
        lines.append(f"{COLOURS[winner]} won: the earliest right declaration")
    elif state.end_reason == "nobody can reach the ferocity":
        lines.append("everyone lost: no player's best roll could reach the ferocity any more")
    else:
        lines.append("the killer won: no declaration was right")
    return lines


def certainty(game: SerialKiller) -> Certainty:
    return Certainty("the profile", _knows_the_profile, monotone=True)


def _knows_the_profile(info: InformationSet) -> bool:
    return all(len(cards) == 1 for cards in own_candidates(parse(info)).values())
