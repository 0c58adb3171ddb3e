"""The end of a game for a person: the hidden truth revealed, who won and why, and the move at
which each player could first have known what the game hid (by full deduction)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import solver
from engines import Game, InformationSet, Seat, SleuthError, State
from engines.noir.rules import KILLER
from solver.games.noir import chosen_at, posterior
from solver.search.alibi import best_box

Decision = tuple[int, Seat, InformationSet]
"""A decision of the game: the move number it led to, the seat, what that seat knew."""


def recap(game: Game, state: State, decisions: Sequence[Decision], me: Seat) -> list[str]:
    """Lines to print once the game is over."""
    lines = ["", "The hidden truth:"]
    lines += [f"  {line}" for line in reveal(game, state)]
    ends = [obs for obs in state.public_observations() if obs.kind == "end"]
    if ends:
        lines.append(f"How it ended: {game.describe(ends[-1])}")
    known = _KNOWS.get(game.name)
    if known is not None:
        what, test, monotone = known
        for seat in game.seats:
            mine = [(n, info) for n, s, info in decisions if s == seat]
            first = _first(mine, test, monotone)
            who = "you" if seat == me else _name(seat)
            if first is None:
                lines.append(f"  {who} never had {what} certain")
            else:
                lines.append(f"  {who} could have known {what} from move {first}")
    return lines


def reveal(game: Game, state: State) -> list[str]:
    """What the game hid, now that it is over."""
    if game.name == "blue-lion":
        up: dict[str, str] = state.up  # type: ignore[attr-defined]
        tiles = [f"{t}:{up[t]} (back {state.back(t)})" for t in sorted(up)]  # type: ignore[attr-defined]
        return ["the tiles: " + ", ".join(tiles)]
    if game.name == "noir":
        hand = ", ".join(state._hand)  # type: ignore[attr-defined]
        return [
            f"the killer was {state._killer}",  # type: ignore[attr-defined]
            f"the inspector was {state._inspector or '(not chosen)'}; his hand: {hand}",  # type: ignore[attr-defined]
        ]
    if game.name == "alibi":
        deck = game.deck  # type: ignore[attr-defined]
        box = ", ".join(deck.by_id[c].name for c in state._box)  # type: ignore[attr-defined]
        hands = [
            f"player {seat} held {len(hand)}: " + ", ".join(hand)
            for seat, hand in enumerate(state._hands)  # type: ignore[attr-defined]
        ]
        return [f"the box: {box}", *hands]
    if game.name == "city-killer":
        return _city_killer(state)
    if game.name == "serial-killer":
        return _serial_killer_reveal(game, state)
    return []


def _city_killer(state: State) -> list[str]:
    """The killer's four secrets (K, M, G, F), and the accusation against them."""
    identity, figurant = state._identity, state._figurant  # type: ignore[attr-defined]
    card = state.resident(identity)  # type: ignore[attr-defined]
    lines = [
        f"the killer was {identity} ({card.sex}, {card.age}, {card.build}, {card.height}; "
        f"group {card.group})",
        f"his motive was {state._motive}",  # type: ignore[attr-defined]
        f"his allies were the group {state._allies}",  # type: ignore[attr-defined]
        f"the figurant was {figurant or 'nobody (no figurant)'}",
    ]
    accusation = state.accusation  # type: ignore[attr-defined]
    if accusation is not None:
        who, why = accusation
        right = [
            "right" if who == identity else "wrong",
            "right" if why == state._motive else "wrong",  # type: ignore[attr-defined]
        ]
        lines.append(f"the detective accused {who} ({right[0]}) of {why} ({right[1]})")
    return lines


def _serial_killer_reveal(game: Game, state: State) -> list[str]:
    """The profile, trait by trait; every declaration in order, right or wrong; why the
    winner won (or why nobody did)."""
    from engines.serial_killer import COLOURS, SerialKillerState

    assert isinstance(state, SerialKillerState)
    parts = state.game.parts
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
        assert isinstance(winner, int)
        lines.append(f"{COLOURS[winner]} won: the earliest right declaration")
    elif state.end_reason == "nobody can reach the ferocity":
        lines.append("everyone lost: no player's best roll could reach the ferocity any more")
    else:
        lines.append("the killer won: no declaration was right")
    return lines


def _name(seat: Seat) -> str:
    return seat.capitalize() if isinstance(seat, str) else f"player {seat}"


def _first(
    infos: Sequence[tuple[int, InformationSet]],
    test: Callable[[InformationSet], bool],
    monotone: bool,
) -> int | None:
    """The first move whose position let the seat be certain; a binary search when certainty,
    once reached, stays (what it is about never changes)."""
    try:
        if not monotone:
            return next((n for n, info in infos if test(info)), None)
        low, high = 0, len(infos)
        while low < high:
            mid = (low + high) // 2
            if test(infos[mid][1]):
                high = mid
            else:
                low = mid + 1
        return infos[low][0] if low < len(infos) else None
    except SleuthError:
        return None


def _alibi_knows(info: InformationSet) -> bool:
    d = solver.deduce(info, about=lambda fact: fact.kind == "InBox")
    return best_box(info.make_game(), d)[2]  # type: ignore[arg-type]


def _noir_knows(info: InformationSet) -> bool:
    if info.seat == KILLER and chosen_at(info.observations) is None:
        return False  # the inspector has no identity yet
    return len(posterior(solver.deduce(info))) == 1


def _blue_lion_knows(info: InformationSet) -> bool:
    d = solver.deduce(info)
    return all(d.probability(f) in (0.0, 1.0) for f in d.facts)


def _serial_killer_knows(info: InformationSet) -> bool:
    from solver.games.serial_killer.position import parse
    from solver.games.serial_killer.race import own_candidates

    return all(len(cards) == 1 for cards in own_candidates(parse(info)).values())


_KNOWS: dict[str, tuple[str, Callable[[InformationSet], bool], bool]] = {
    "alibi": ("the box", _alibi_knows, True),
    "noir": ("the opponent's identity", _noir_knows, False),
    "blue-lion": ("every tile's back", _blue_lion_knows, True),
    "serial-killer": ("the profile", _serial_killer_knows, True),
}
