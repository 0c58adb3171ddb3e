"""Alibi bots: a notepad heuristic and a solver bot that asks the most informative question."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from engines import Action, InformationSet, Observation, Seat
from engines.alibi import TYPES, Accuse, Alibi, Ask, Lay, Pass, Subject
from opponents.base import Bot, SeatedBot, check_options, check_time_budget
from solver import Deduction, Hint, deduce
from solver.games.alibi.advice import SAMPLES, Samples, best_questions
from solver.games.alibi.model import in_box
from solver.games.alibi.position import parse


def crossed_off(info: InformationSet) -> set[str]:
    """The notepad: cards held, cards laid, and every card of an answer of "all of them"."""
    return set(crossings(info))


def crossings(info: InformationSet) -> dict[str, list[Observation]]:
    """Each card the notepad crosses off, with the observations that cross it off, in order."""
    found: dict[str, list[Observation]] = {}
    for obs in info.observations:
        cards = obs.get("cards") or ()
        full_answer = obs.kind == "answer" and cards and obs["answer"] == len(cards)
        if obs.kind in ("deal", "lay", "pass") or full_answer:
            for card in cards:
                found.setdefault(card, []).append(obs)
    return found


def notepad(info: InformationSet) -> list[Hint]:
    """What a careful person with pen and paper has crossed off, as hints: first each type
    whose last card left must be in the box, then every card crossed off (by type, in deck
    order), each with the sentences of the observations that crossed it off."""
    if not info.observations:
        return []
    game = info.make_game()
    assert isinstance(game, Alibi)
    deck, pos, crossed = game.deck, parse(info), crossings(info)

    def because(observations: Sequence[Observation]) -> tuple[str, ...]:
        return tuple(game.describe(obs) for obs in dict.fromkeys(observations))

    solved, out = [], []
    for kind in TYPES:
        cards = deck.of_type(kind)
        left = [card for card in cards if card not in crossed]
        if len(left) == 1:
            card = deck.by_id[left[0]]
            sources = [obs for other in cards if other in crossed for obs in crossed[other]]
            text = f"{card.name} is in the box: every other {kind} card is crossed off"
            fact = in_box(pos, pos.index[card.id])
            solved.append(Hint(text, fact, 1.0, because(sources), "notepad", 1.0))
        for card_id in cards:
            if card_id in crossed:
                card = deck.by_id[card_id]
                fact = in_box(pos, pos.index[card_id])
                text = f"{card.name} is not in the box"
                out.append(Hint(text, fact, 0.0, because(crossed[card_id]), "notepad", 0.0))
    return solved + out


def box_of(cards: Sequence[str]) -> tuple[str, str, str, str]:
    """One card per type, in type order, as an accusation names them."""
    suspect, place, weapon, feeling = cards
    return suspect, place, weapon, feeling


class HeuristicBot(SeatedBot):
    """Plays like a careful person with a paper notepad: direct eliminations only.

    Lays every set (points), asks a random other player how many cards of a group it has not
    eliminated they have seen, passes cards of crossed-off groups first, and accuses as soon as
    one card per type is left.
    """

    game: Alibi

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        deck = self.game.deck
        crossed = crossed_off(info)
        left = [[c for c in deck.of_type(kind) if c not in crossed] for kind in TYPES]
        lays = [a for a in legal if isinstance(a, Lay)]
        if lays:
            return lays[0]
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return min(passes, key=lambda a: sum(c not in crossed for c in a.cards))
        if all(len(cards) == 1 for cards in left):
            return Accuse(box_of([cards[0] for cards in left]))
        open_groups = [g for g in deck.groups if any(c not in crossed for c in deck.of_group(g))]
        undecided = [g for g in open_groups if len(left[TYPES.index(deck.type_of_group(g))]) > 1]
        group = self.rng.choice(undecided or open_groups or list(deck.groups))
        others = [s for s in range(self.game.players) if s != self.seat]
        return Ask(self.rng.choice(others), "seen", Subject("group", group))


class SolverBot(SeatedBot):
    """Full deduction: asks the question with the highest expected information about the box,
    passes what its left neighbour gains least from, lays a set only when the group is publicly
    cleared (laying tells everyone the group is not in the box), and accuses when the box is
    certain, or earlier when its best guess is likelier to win than waiting: that is, when the
    chance that an opponent can name the box before its next turn (their notepads, read off
    posterior samples) makes waiting worth less than guessing now.

    Its work is a fixed number of posterior samples (`samples` says how many the last move
    drew), so a seed fixes its move. `time_budget` (seconds, off by default) is a safety
    ceiling and then the one source of non-determinism: when the deduction alone took a third
    of it, questions are scored on a third of the samples. A move takes 0.2 s at the median in
    4-player games (benchmarks/alibi.py).
    """

    patience = 0.9
    """The chance of winning later if no opponent gets there first (the box becomes certain
    in most games well before the round limit)."""

    game: Alibi

    def __init__(
        self, game: Alibi, seat: Seat, rng: random.Random, time_budget: float | None = None
    ) -> None:
        super().__init__(game, seat, rng)
        self.time_budget = check_time_budget(time_budget)
        self._drawn: Samples | None = None
        self.samples = 0
        """Posterior samples drawn for the last move (its work; 0 when it needed none)."""

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        began = time.perf_counter()
        self.samples = 0
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return self._pass(info, len(passes[0].cards))
        cleared = publicly_cleared(info)
        for action in legal:
            if isinstance(action, Lay) and set(self.game.deck.of_group(action.group)) <= cleared:
                return action
        d = deduce(info, about=lambda fact: fact.kind == "InBox")
        box, chance, certain = self._best_box(d)
        if certain:
            return Accuse(box)
        budget = self.time_budget
        slow = budget is not None and time.perf_counter() - began >= budget / 3
        samples = SAMPLES // 3 if slow else SAMPLES
        self.samples = samples
        drawn = Samples(parse(info), d, samples, random.Random(self.rng.randrange(1 << 30)))
        self._drawn = drawn  # the posterior of this round, for choosing the pass after it
        if chance >= self._bar(info, drawn, cleared):
            return Accuse(box)
        return best_questions(info, d, top=1, drawn=drawn)[0].ask

    def _best_box(self, d: Deduction) -> tuple[tuple[str, str, str, str], float, bool]:
        """The likeliest card of each type, the chance they are all right (types taken as
        independent), and whether the box is certain."""
        box, chance, certain = [], 1.0, True
        for kind in TYPES:
            odds = [
                (d.probability(f), f)
                for f in d.facts
                if f.kind == "InBox" and self.game.deck.by_id[str(f.args[0])].type == kind
            ]
            p, fact = max(odds, key=lambda item: item[0])
            box.append(str(fact.args[0]))
            chance *= p
            certain = certain and d.is_certain(fact)
        return box_of(box), chance, certain

    def _bar(self, info: InformationSet, drawn: Samples, cleared: set[str]) -> float:
        """The chance of being right above which accusing now beats waiting a round."""
        pos = drawn.pos
        limit = self.game.options["round_limit"]
        if limit is not None and pos.epoch + 1 >= limit:
            return 1 / self.game.players  # the last turn: a fair share on points or better
        return (1 - opponents_ready(info, drawn, cleared)) * self.patience

    def _pass(self, info: InformationSet, size: int) -> Action:
        """The pass revealing least: the cards my left neighbour most likely has seen
        already (publicly cleared cards count as seen), by the posterior samples of my turn
        this round (what was asked since hardly moves that)."""
        pos = parse(info)
        held = [c for c in pos.mine[-1] if c not in pos.laid_by]
        drawn = self._drawn
        if drawn is None or drawn.pos.epoch != pos.epoch:  # no turn of mine this round
            d = deduce(info, about=lambda fact: fact.kind == "InBox")
            self.samples = SAMPLES // 3
            drawn = Samples(pos, d, self.samples, random.Random(self.rng.randrange(1 << 30)))
        seen = drawn.seen[(pos.me + 1) % pos.players].mean(axis=0)
        cleared = {pos.index[c] for c in publicly_cleared(info)}
        score = {c: (c in cleared, seen[c], self.rng.random()) for c in held}
        return Pass(
            tuple(pos.ids[c] for c in sorted(held, key=score.__getitem__, reverse=True)[:size])
        )


def publicly_cleared(info: InformationSet) -> set[str]:
    """Cards everyone knows are not in the box: laid, or in an answer of "all of them"."""
    cleared: set[str] = set()
    for obs in info.observations:
        cards = set(obs.get("cards") or ())
        if obs.kind == "lay" or (obs.kind == "answer" and cards and obs["answer"] == len(cards)):
            cleared |= cards
    return cleared


def opponents_ready(info: InformationSet, drawn: Samples, cleared: set[str]) -> float:
    """The chance that some opponent can name the box before my next turn, reading each
    opponent as the notepad heuristic does (the cards they have seen, and what is publicly
    cleared): in each posterior sample, an opponent who has crossed off every card of every
    type but the box's is ready now; one who moves after the coming pass, before my next
    turn, may also get the last cards they miss from their right neighbour's hand."""
    pos = drawn.pos
    me, n = pos.me, pos.players
    start = next(obs for obs in info.observations if obs.kind == "seating")["start"]
    order = [(start + k) % n for k in range(n)]
    after_pass = set(order[: order.index(me)])  # they move before me in the next round
    public = np.zeros(len(pos.ids), dtype=bool)
    public[[pos.index[c] for c in cleared]] = True
    boxed = np.zeros((drawn.box.shape[0], len(pos.ids)), dtype=bool)
    for k in range(len(TYPES)):
        first = pos.ids.index(pos.deck.of_type(TYPES[k])[0])
        boxed[np.arange(len(boxed)), first + drawn.box[:, k]] = True
    r = pos.epoch + 1  # the coming pass moves r cards
    not_ready = np.ones(len(boxed))
    for seat in range(n):
        if seat == me:
            continue
        missing = ~(drawn.seen[seat] | public | boxed)  # what keeps them from naming the box
        m = missing.sum(axis=1)
        chance = (m == 0).astype(float)
        if seat in after_pass:
            giver_hand = drawn.now == (seat - 1) % n
            inside = ~(missing & ~giver_hand).any(axis=1)
            h = giver_hand.sum(axis=1)
            for i in np.flatnonzero(inside & (m > 0)):
                passed = min(r, int(h[i]))
                if m[i] <= passed:
                    chance[i] = math.comb(int(h[i]) - int(m[i]), passed - int(m[i])) / math.comb(
                        int(h[i]), passed
                    )
        not_ready *= 1 - chance
    return float(1 - not_ready.mean())


def make(name: str, game: Alibi, seat: Seat, rng: random.Random, **options: Any) -> Bot:
    """The `name` bot; option values are checked by the bot's constructor."""
    if name == "heuristic":
        check_options(name, options, ())
        return HeuristicBot(game, seat, rng)
    check_options(name, options, ("time_budget",))
    return SolverBot(game, seat, rng, **options)
