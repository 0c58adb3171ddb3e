"""A model-free brute force for Serial Killer: every deck order and every choice of the
others' overflow discards, each simulated against the seat's record card by card.

It knows nothing of tokens, constraints or genre independence: a world is consistent when
simulating the public record with it shows exactly the seat's private observations. Used by
the tests and benchmarks as the ground truth for `solver.deduce`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import permutations, product

import engines
from engines import InformationSet
from engines.serial_killer import Investigate, Move, SerialKiller, SerialKillerState


def worlds(info: InformationSet) -> Iterator[tuple[dict[str, str], dict[str, str]]]:
    """Each consistent world as (profile by genre, place by card: deck, profile, hand:j,
    lab:p), once per deck order and discard choice (each as likely as the others)."""
    for profile, place, _, _ in histories(info):
        yield profile, place


History = tuple[dict[str, str], dict[str, str], dict[str, list[str]], dict[int, str]]
"""A consistent world (profile, place) with how it came about: each deck's order at the
start (top first) and the card each discard by another seat put in the lab, by position."""


def histories(info: InformationSet) -> Iterator[History]:
    """`worlds`, each with its deck orders and the others' discards."""
    game = info.make_game()
    assert isinstance(game, SerialKiller)
    me = info.seat
    setup = info.observations[0]
    order = [g for g, _, _ in setup["decks"]]
    genres = game.parts.by_genre
    for decks in product(*(permutations(genres[g].cards) for g in order)):
        start = {g: list(cards) for g, cards in zip(order, decks, strict=True)}
        hands: dict[int, list[str]] = {seat: [] for seat in range(game.players)}
        drawn = {g: list(cards) for g, cards in start.items()}  # the simulation draws from it
        for profile, place, discards in _simulate(info, me, 1, drawn, hands, []):
            yield profile, place, start, discards


def _simulate(
    info: InformationSet,
    me: object,
    index: int,
    decks: dict[str, list[str]],
    hands: dict[int, list[str]],
    lab: list[str],
    discards: dict[int, str] | None = None,
) -> Iterator[tuple[dict[str, str], dict[str, str], dict[int, str]]]:
    discards = {} if discards is None else discards
    observations = info.observations
    while index < len(observations):
        obs = observations[index]
        kind = obs.kind
        if kind == "draw":
            card = decks[obs["genre"]].pop(0)
            hands[obs["seat"]].append(card)
            if obs["seat"] == me and observations[index + 1]["card"] != card:
                return
        elif kind == "lab_place" and obs["seat"] == me:
            card = observations[index + 1]["card"]
            hands[obs["seat"]].remove(card)
            lab.append(card)
        elif kind == "lab_place":
            choices = [c for c in hands[obs["seat"]] if c.startswith(obs["genre"] + ".")]
            for card in choices:
                branch = {
                    s: [c for c in h if c != card or s != obs["seat"]] for s, h in hands.items()
                }
                yield from _simulate(
                    info,
                    me,
                    index + 1,
                    {g: list(d) for g, d in decks.items()},
                    branch,
                    [*lab, card],
                    {**discards, len(lab) + 1: card},
                )
            return
        elif kind == "see_hand":
            if sorted(hands[obs["target"]]) != list(obs["cards"]):
                return
        elif kind == "see_lab":
            if any(lab[p - 1] != card for p, card in obs["cards"]):
                return
        elif kind == "end" and [decks[c.partition(".")[0]][-1] for c in obs["profile"]] != list(
            obs["profile"]
        ):
            return
        index += 1
    profile = {g: cards[-1] for g, cards in decks.items()}
    place = {}
    for cards in decks.values():
        place.update(dict.fromkeys(cards[:-1], "deck"))
        place[cards[-1]] = "profile"
    for seat, hand in hands.items():
        place.update(dict.fromkeys(hand, f"hand:{seat}"))
    place.update({card: f"lab:{p}" for p, card in enumerate(lab, 1)})
    yield profile, place, discards


def fact_counts(info: InformationSet) -> tuple[int, Counter[tuple[str, str, str]]]:
    """(consistent worlds, how many make each fact true), facts as ("Profile", genre, card)
    and ("At", card, place)."""
    total, counts = 0, Counter[tuple[str, str, str]]()
    for profile, place in worlds(info):
        total += 1
        for genre, card in profile.items():
            counts["Profile", genre, card] += 1
        for card, where in place.items():
            counts["At", card, where] += 1
    return total, counts


SMALL = {"players": 3, "genres": 4, "traits_per_genre": 3}


def positions(count: int, seed: int = 0, **options: object) -> Iterator[InformationSet]:
    """Information sets from random games on the small configuration, played by a policy
    that draws, briefs and views the lab often, so that overflow discards and the views after
    them are common."""
    game = engines.make("serial-killer", **{**SMALL, **options})
    rng = random.Random(seed)
    made = 0
    while made < count:
        state = game.new_game(rng.randrange(2**32))
        assert isinstance(state, SerialKillerState)
        hoarder = rng.randrange(game.players)
        while not state.is_over and made < count:
            legal = state.legal_actions()
            keen = [a for a in legal if isinstance(a, Investigate)]
            full = {d for g, d in state.deck_district.items() if state.deck_size(g) > 1}
            keen = keen or [a for a in legal if isinstance(a, Move) and a.district in full]
            if state.current == hoarder and keen and rng.random() < 0.9:
                action = rng.choice(keen)
            else:
                looks = [a for a in legal if any(w in str(a) for w in ("briefing", "lab", "move"))]
                action = rng.choice(looks) if looks and rng.random() < 0.6 else rng.choice(legal)
            state.apply(action)
            if rng.random() < 0.25:
                made += 1
                yield state.information_set(rng.choice(game.seats))
