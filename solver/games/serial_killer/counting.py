"""Exact counting of Serial Killer's worlds, genre by genre (rules/serial_killer.md §8).

A genre's world is its discard choices (`delta`) and its bijection from tokens to traits
(`pi`). For each choice of the discards, the record allows each token a set of traits (a pin
allows one; a hand check allows the briefed traits to the tokens then in hand and forbids
them elsewhere; a lab check likewise), and the bijections respecting those sets are counted
by a dynamic program over the subsets of traits (2^6 states), forwards and backwards, which
also gives how many of them put each trait on each token. The prior is uniform over shuffles
and over each discard's choice among the cards of its genre (a number the record shows), so
every consistent world weighs the same and probabilities are ratios of counts. Genres are
independent given the public record, so the whole count is the product of the genres'.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import prod

from solver.games.serial_killer.position import GenrePlan, Position, Token, token_name
from solver.model import Fact, Value, World


def tok_var(token: Token) -> str:
    return f"tok:{token_name(token)}"


def delta_var(position: int) -> str:
    return f"delta:{position}"


def at_var(card: str) -> str:
    return f"at:{card}"


def deltas(plan: GenrePlan) -> Iterator[dict[int, Token]]:
    """Every choice of the genre's discards by others: each a token of the discarder's
    drawn before it, no token twice."""
    discards = plan.discards

    def extend(i: int, chosen: dict[int, Token]) -> Iterator[dict[int, Token]]:
        if i == len(discards):
            yield dict(chosen)
            return
        d = discards[i]
        used = {chosen[e.position] for e in discards[:i] if e.seat == d.seat}
        for token in d.domain:
            if token not in used:
                chosen[d.position] = token
                yield from extend(i + 1, chosen)
        chosen.pop(d.position, None)

    yield from extend(0, {})


def allowed_traits(plan: GenrePlan, delta: dict[int, Token]) -> list[set[str]]:
    """The traits each token (by depth) may carry under the discard choice `delta`."""
    allowed = [set(plan.cards) for _ in range(plan.size)]
    for token, (card, _) in plan.pins.items():
        _only(allowed, token[1], {card})
    for check in plan.hand_checks:
        removed = {delta[p] for p in check.discards}
        held = {t[1] for t in check.drawn if t not in removed}
        _only_set(allowed, held, set(check.cards))
    for lab in plan.lab_checks:
        token = plan.own_discards.get(lab.position) or delta[lab.position]
        _only(allowed, token[1], {lab.card})
    return allowed


def _only(allowed: list[set[str]], depth: int, cards: set[str]) -> None:
    _only_set(allowed, {depth}, cards)


def _only_set(allowed: list[set[str]], depths: set[int], cards: set[str]) -> None:
    """The tokens `depths` carry exactly `cards` (when as many): others carry none of them."""
    for k, traits in enumerate(allowed):
        if k in depths:
            traits &= cards
        else:
            traits -= cards


@dataclass
class Bijections:
    """The bijections respecting `allowed` (token depth -> traits), counted."""

    total: int
    per_token: list[dict[str, int]]  # depth -> trait -> bijections putting it there
    backward: dict[int, int]  # used-trait mask -> completions (for sampling)
    cards: tuple[str, ...]
    allowed: list[set[str]]


def count_bijections(cards: tuple[str, ...], allowed: list[set[str]]) -> Bijections:
    n = len(cards)
    bit = {card: 1 << i for i, card in enumerate(cards)}
    full = (1 << n) - 1
    backward = {full: 1}
    masks_by_size: list[list[int]] = [[] for _ in range(n + 1)]
    for mask in range(full + 1):
        masks_by_size[mask.bit_count()].append(mask)
    for size in range(n - 1, -1, -1):
        for mask in masks_by_size[size]:
            backward[mask] = sum(
                backward[mask | bit[c]] for c in allowed[size] if not mask & bit[c]
            )
    forward = {0: 1}
    per_token: list[dict[str, int]] = [dict.fromkeys(cards, 0) for _ in range(n)]
    for size in range(n):
        for mask in masks_by_size[size]:
            ways = forward.get(mask, 0)
            if not ways:
                continue
            for c in allowed[size]:
                if not mask & bit[c]:
                    nxt = mask | bit[c]
                    completions = backward[nxt]
                    if completions:
                        per_token[size][c] += ways * completions
                        forward[nxt] = forward.get(nxt, 0) + ways
    return Bijections(backward[0], per_token, backward, cards, allowed)


def bijections(b: Bijections) -> Iterator[list[str]]:
    """Every bijection counted (trait per token depth), in a fixed order."""

    def extend(chosen: list[str]) -> Iterator[list[str]]:
        if len(chosen) == len(b.cards):
            yield list(chosen)
            return
        for card in sorted(b.allowed[len(chosen)] - set(chosen)):
            yield from extend([*chosen, card])

    return extend([])


def sample_bijection(b: Bijections, rng: random.Random) -> list[str]:
    """A bijection drawn uniformly among those counted (trait per token depth)."""
    bit = {card: 1 << i for i, card in enumerate(b.cards)}
    mask, chosen = 0, []
    for size in range(len(b.cards)):
        options = sorted(c for c in b.allowed[size] if not mask & bit[c])
        card = rng.choices(options, [b.backward[mask | bit[c]] for c in options])[0]
        chosen.append(card)
        mask |= bit[card]
    return chosen


def location(plan: GenrePlan, token: Token, delta: dict[int, Token], me: int) -> str:
    """Where `token` is now, given the discard choices."""
    drawn = dict(plan.drawn)
    if token not in drawn:
        return "profile" if token == plan.bottom else "deck"
    for position, own in plan.own_discards.items():
        if own == token:
            return f"lab:{position}"
    for position, chosen in delta.items():
        if chosen == token:
            return f"lab:{position}"
    return f"hand:{drawn[token]}"


@dataclass
class GenreWorlds:
    """One genre's consistent worlds: each discard choice with its bijections."""

    plan: GenrePlan
    me: int
    choices: list[tuple[dict[int, Token], Bijections]]

    @property
    def total(self) -> int:
        return sum(b.total for _, b in self.choices)

    def literal_counts(self) -> dict[tuple[str, Value], int]:
        """How many of the genre's worlds give each variable each value (zeros left out)."""
        counts: dict[tuple[str, Value], int] = {}

        def add(key: tuple[str, Value], k: int) -> None:
            if k:
                counts[key] = counts.get(key, 0) + k

        for delta, b in self.choices:
            if not b.total:
                continue
            for position, token in delta.items():
                add((delta_var(position), token_name(token)), b.total)
            for depth, by_card in enumerate(b.per_token):
                token = (self.plan.genre, depth)
                where = location(self.plan, token, delta, self.me)
                for card, k in by_card.items():
                    add((tok_var(token), card), k)
                    add((at_var(card), where), k)
        return counts

    def sample(self, rng: random.Random) -> World:
        weights = [b.total for _, b in self.choices]
        delta, b = rng.choices(self.choices, weights)[0]
        return self._world(delta, sample_bijection(b, rng))

    def worlds(self) -> Iterator[World]:
        """Every consistent world of the genre, once each."""
        for delta, b in self.choices:
            for traits in bijections(b):
                yield self._world(delta, traits)

    def _world(self, delta: dict[int, Token], traits: list[str]) -> World:
        world: dict[str, Value] = {delta_var(p): token_name(t) for p, t in delta.items()}
        for depth, card in enumerate(traits):
            token = (self.plan.genre, depth)
            world[tok_var(token)] = card
            world[at_var(card)] = location(self.plan, token, delta, self.me)
        return world


def genre_worlds(position: Position) -> dict[str, GenreWorlds]:
    found = {}
    for genre, plan in position.plans.items():
        counted: dict[tuple[frozenset[str], ...], Bijections] = {}  # many choices allow alike
        choices = []
        for d in deltas(plan):
            allowed = allowed_traits(plan, d)
            key = tuple(frozenset(traits) for traits in allowed)
            if key not in counted:
                counted[key] = count_bijections(plan.cards, allowed)
            choices.append((d, counted[key]))
        found[genre] = GenreWorlds(plan, position.seat, choices)
    return found


def genre_of_var(name: str) -> str | None:
    """The genre a variable belongs to (None for a delta, looked up by position)."""
    kind, _, rest = name.partition(":")
    if kind == "tok":
        return rest.partition("#")[0]
    if kind == "at":
        return rest.partition(".")[0]
    return None


class CountedWorlds:
    """The consistent worlds as the product of the genres' (exact)."""

    exact = True
    witnesses_all = True  # `witnessed` lists every possible literal, so none is left to prove

    def __init__(self, position: Position) -> None:
        self.position = position
        self.genres = genre_worlds(position)
        self.counts = {g: w.literal_counts() for g, w in self.genres.items()}
        self.totals = {g: w.total for g, w in self.genres.items()}
        self.delta_genre = {
            delta_var(d.position): g for g, plan in position.plans.items() for d in plan.discards
        }

    def _genre(self, var: str) -> str:
        genre = genre_of_var(var) or self.delta_genre.get(var)
        if genre is None:
            raise KeyError(var)
        return genre

    def total(self) -> int:
        return prod(self.totals.values())

    def genre_count(self, var: str, values: frozenset[Value]) -> tuple[int, int]:
        """(worlds of the variable's genre where it takes one of `values`, the genre's)."""
        genre = self._genre(var)
        counts = self.counts[genre]
        return sum(counts.get((var, v), 0) for v in values), self.totals[genre]

    def count(self, fact: Fact) -> int:
        inside, genre_total = self.genre_count(fact.var, fact.values)
        k = genre_total - inside if fact.negated else inside
        rest = self.total() // genre_total if genre_total else 0
        return k * rest

    def probability(self, fact: Fact) -> float:
        inside, genre_total = self.genre_count(fact.var, fact.values)
        if not genre_total:
            return 0.0
        p = Fraction(inside, genre_total)
        return float(1 - p if fact.negated else p)

    def sample(self, n: int, rng: random.Random) -> list[World]:
        worlds: list[World] = []
        for _ in range(n):
            world: dict[str, Value] = {}
            for genre in self.genres.values():
                world.update(genre.sample(rng))
            worlds.append(world)
        return worlds

    def listed(self, limit: int) -> list[World] | None:
        """Every consistent world (the product of the genres'), or None past `limit`."""
        if self.total() > limit:
            return None
        worlds: list[World] = [{}]
        for genre in self.genres.values():
            worlds = [{**world, **part} for world in worlds for part in genre.worlds()]
        return worlds

    def witnessed(self) -> list[tuple[str, Value]]:
        """Every (variable, value) some consistent world has: all of them, since counted."""
        return [key for counts in self.counts.values() for key in counts]
