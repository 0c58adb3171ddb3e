"""Alibi bots: a notepad heuristic and a solver bot that asks the most informative question."""

from __future__ import annotations

import random
import time

from engines import Action, ConfigError, InformationSet, Seat
from engines.alibi import TYPES, Accuse, Alibi, Ask, Lay, Pass, Subject
from opponents.base import Bot, check_options
from solver import deduce
from solver.games.alibi.advice import best_questions
from solver.games.alibi.position import parse


def crossed_off(info: InformationSet) -> set[str]:
    """The notepad: cards held, cards laid, and every card of an answer of "all of them"."""
    crossed: set[str] = set()
    for obs in info.observations:
        cards = set(obs.get("cards") or ())
        full_answer = obs.kind == "answer" and cards and obs["answer"] == len(cards)
        if obs.kind in ("deal", "lay", "pass") or full_answer:
            crossed |= cards
    return crossed


class HeuristicBot:
    """Plays like a careful person with a paper notepad: direct eliminations only.

    Lays every set (points), asks a random other player how many cards of a group it has not
    eliminated they have seen, passes cards of crossed-off groups first, and accuses as soon as
    one card per type is left.
    """

    def __init__(self, game: Alibi, seat: Seat, rng: random.Random) -> None:
        self.game, self.seat, self.rng = game, seat, rng

    def act(self, info: InformationSet) -> Action:
        actions = self.game.legal_actions_for(info)
        deck = self.game.deck
        crossed = crossed_off(info)
        left = [[c for c in deck.of_type(kind) if c not in crossed] for kind in TYPES]
        lays = [a for a in actions if isinstance(a, Lay)]
        if lays:
            return lays[0]
        if isinstance(actions[0], Pass):
            return min(actions, key=lambda a: sum(c not in crossed for c in a.cards))
        if all(len(cards) == 1 for cards in left):
            return Accuse(tuple(cards[0] for cards in left))
        open_groups = [g for g in deck.groups if any(c not in crossed for c in deck.of_group(g))]
        undecided = [g for g in open_groups
                     if len(left[TYPES.index(deck.type_of_group(g))]) > 1]
        group = self.rng.choice(undecided or open_groups or list(deck.groups))
        others = [s for s in self.game.seats if s != self.seat]
        return Ask(self.rng.choice(others), "seen", Subject("group", group))


class SolverBot:
    """Full deduction: asks the question with the highest expected information about the box,
    passes the cards its left neighbour most likely has seen already, lays a set only when the
    group is publicly cleared, and accuses when the box is certain or its best guess is likely
    enough for the round (the later, the likelier an opponent is close, the lower the bar).
    """

    def __init__(self, game: Alibi, seat: Seat, rng: random.Random,
                 time_budget: float = 2.0) -> None:
        if time_budget <= 0:
            raise ConfigError("alibi solver bot: time_budget must be > 0")
        self.game, self.seat, self.rng, self.time_budget = game, seat, rng, time_budget

    def threshold(self, round_number: int) -> float:
        """The probability of being right at which accusing beats waiting a round."""
        return max(0.5, 1.0 - 0.05 * round_number)

    def act(self, info: InformationSet) -> Action:
        began = time.perf_counter()
        actions = self.game.legal_actions_for(info)
        if isinstance(actions[0], Pass):
            return self._pass(info, actions)
        d = deduce(info)
        pos = parse(info)
        cleared = {c for o in info.observations if o.kind == "answer" and o["answer"] == len(
            o["cards"]) for c in o["cards"]}
        for action in actions:
            if isinstance(action, Lay) and set(self.game.deck.of_group(action.group)) <= cleared:
                return action
        box, chance = [], 1.0
        for kind in TYPES:
            odds = [(d.probability(f), f.args[0]) for f in d.facts
                    if f.kind == "InBox" and self.game.deck.by_id[f.args[0]].type == kind]
            p, card = max(odds)
            box.append(card)
            chance *= p
        round_number = pos.epoch + 1
        if chance >= 0.999 or chance >= self.threshold(round_number):
            return Accuse(tuple(box))
        samples = 300 if time.perf_counter() - began < self.time_budget / 3 else 120
        question = best_questions(info, d, samples=samples, seed=self.rng.randrange(1 << 30),
                                  top=1)[0]
        return question.ask

    def _pass(self, info: InformationSet, actions: list[Action]) -> Action:
        """The pass revealing least: cards that went round and the receiver has seen already."""
        pos = parse(info)
        came_back = {c for o in info.observations if o.kind == "pass" and o.get("cards")
                     and o["giver"] == self.seat for c in o["cards"]}
        held = [pos.ids[c] for c in pos.mine[-1]]
        size = len(actions[0].cards) if isinstance(actions[0], Pass) else 0
        score = {c: (c in came_back, self.rng.random()) for c in held}
        return Pass(tuple(sorted(held, key=lambda c: score[c], reverse=True)[:size]))


def make(name: str, game: Alibi, seat: Seat, rng: random.Random, **options: object) -> Bot:
    if name == "heuristic":
        check_options(name, options, {})
        return HeuristicBot(game, seat, rng)
    check_options(name, options, {"time_budget": float | int})
    return SolverBot(game, seat, rng, **options)  # type: ignore[arg-type]
