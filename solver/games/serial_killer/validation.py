"""Checking that an information set is one Serial Killer could show its seat."""

from __future__ import annotations

from collections import Counter

from engines import (
    IllegalAction,
    IncompleteInformationSet,
    InformationSet,
    InvalidInformationSet,
    Observation,
)
from engines.core import quote
from engines.serial_killer import SerialKiller, replay
from solver.games.serial_killer.position import public_view
from solver.validation import Checker

KINDS: dict[str, tuple[str, ...]] = {
    "setup": ("players", "first_player", "decks"),
    "place": ("seat", "district"),
    "roll": ("round", "counts", "bonus"),
    "relocate": ("seat", "district"),
    "pass": ("seat",),
    "end_pick": ("seat",),
    "skip": ("seat",),
    "buy": (
        "seat",
        "face",
        "action",
        "cost",
        "points",
        "weapon?",
        "district?",
        "targets?",
        "positions?",
    ),
    "draw": ("seat", "district", "genre", "deck_size"),
    "see_draw": ("seat", "card"),
    "lab_place": ("seat", "position", "genre?"),
    "see_discard": ("seat", "card", "position"),
    "pollution": ("die", "position"),
    "see_hand": ("seat", "target", "cards"),
    "see_lab": ("seat", "cards"),
    "declaration": ("seat", "profile"),
    "attempt": ("seat", "dice", "total", "ferocity", "success", "seq"),
    "round_end": ("round", "unused", "hunted", "ferocity", "caught", "first_player"),
    "end": ("reason", "profile", "declarations", "winners"),
}
PRIVATE = ("see_draw", "see_discard", "see_hand", "see_lab", "declaration")


def validate(info: InformationSet) -> None:
    """Refuse what the game could not have shown this seat: the shape of each observation,
    then a replay of the public record (every action legal where it stands, every chance
    outcome where the rules roll) that must show the same observations, the seat's private
    ones agreeing with the public record (its own cards, the sizes and genres it was shown).

    Raises:
        IncompleteInformationSet: a true beginning that stops where the game still shows
            something (a draw after an investigation, the pollution die after a discard).
        InvalidInformationSet: naming the observation and what is wrong.
    """
    game = info.make_game()
    assert isinstance(game, SerialKiller) and isinstance(info.seat, int)
    if not game.options["genre_public"]:
        raise InvalidInformationSet(
            "serial-killer: the knowledge model counts worlds genre by genre, which needs the "
            "card backs to show their genre (option genre_public True)"
        )
    check = Checker(info, KINDS)
    observations = info.observations
    for index, obs in enumerate(observations):
        check.shape(index)
        if obs.kind in PRIVATE and obs["seat"] != info.seat:
            check.refuse(index, f"only seat {obs['seat']} sees this, not seat {info.seat}")
    if not observations or observations[0].kind != "setup":
        raise IncompleteInformationSet(
            "serial-killer: an information set starts with the setup", "the setup"
        )
    parts = game.parts
    for index, obs in enumerate(observations):
        for key in ("card",):
            if obs.kind in ("see_draw", "see_discard") and obs[key] not in parts.ids:
                check.fail(index, key, obs[key], "a card id of this game")
        if obs.kind in ("see_hand", "see_lab", "declaration", "end"):
            cards = obs.get("cards") or obs.get("profile") or ()
            names = [c[1] if isinstance(c, tuple) else c for c in cards]
            if not all(isinstance(c, str) and c in parts.ids for c in names):
                check.fail(index, "cards", cards, "card ids of this game")
    last = observations[-1]
    if last.kind == "lab_place" and last["seat"] == info.seat:
        raise IncompleteInformationSet(
            "serial-killer: the record stops before the card you discarded", "see_discard"
        )
    try:
        view = public_view(info)
    except IllegalAction as error:
        check.refuse(_failing(game, info), f"the game would not allow it: {error}")
    except (KeyError, IndexError, TypeError, ValueError, AssertionError) as error:
        check.refuse(_failing(game, info), f"the record cannot be replayed ({quote(error)})")
    shown = [obs for obs, to in view._log if to is None or info.seat in to]
    for index, (given, expected) in enumerate(zip(observations, shown, strict=False)):
        if not _agrees(game, given, expected):
            check.refuse(
                index,
                f"the game shows {quote(game.describe(expected), 120)} here, "
                f"not {quote(game.describe(given), 120)}",
            )
    if view.waiting_for and len(shown) == len(observations):
        raise IncompleteInformationSet(
            f"serial-killer: the record stops before {view.waiting_for}", view.waiting_for
        )
    if len(shown) > len(observations):
        nxt = shown[len(observations)]
        raise IncompleteInformationSet(
            f"serial-killer: the record stops before {nxt.kind} ({game.describe(nxt)})", nxt.kind
        )
    if len(shown) < len(observations):
        check.refuse(len(shown), "the game shows nothing more here")


def _failing(game: SerialKiller, info: InformationSet) -> int:
    """The index of the first observation whose replay fails (by replaying prefixes)."""
    assert isinstance(info.seat, int)
    for end in range(1, len(info.observations) + 1):
        try:
            replay(game, info.observations[:end], info.seat, strict=True)
        except (IllegalAction, KeyError, IndexError, TypeError, ValueError, AssertionError):
            return end - 1
    return len(info.observations) - 1


def _genres(cards: object) -> Counter[str]:
    assert isinstance(cards, tuple)
    return Counter(str(c[1] if isinstance(c, tuple) else c).partition(".")[0] for c in cards)


def _agrees(game: SerialKiller, given: Observation, expected: Observation) -> bool:
    """Whether `given` is the observation the replay showed, up to the hidden identities the
    replay does not know (placeholders in others' hands and the lab)."""
    if given.kind != expected.kind:
        return False
    if given.kind == "see_hand":
        return given["target"] == expected["target"] and _genres(given["cards"]) == _genres(
            expected["cards"]
        )
    if given.kind == "see_lab":
        positions = [p for p, _ in given["cards"]]
        if positions != [p for p, _ in expected["cards"]]:
            return False
        pairs = zip(given["cards"], expected["cards"], strict=True)
        return all(
            (e[1].endswith("?") and _genres((g[1],)) == _genres((e[1],))) or g[1] == e[1]
            for g, e in pairs
        )
    if given.kind == "end":
        return given["reason"] == expected["reason"] and len(given["declarations"]) == len(
            expected["declarations"]
        )
    return given == expected
