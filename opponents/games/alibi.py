"""Alibi bots: a notepad heuristic and a solver bot that asks the most informative question."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines import Action, InformationSet, Observation, Seat
from engines.alibi import TYPES, Alibi, Subject, SubjectKind
from engines.alibi import actions as act
from engines.alibi import observations as seen
from opponents.base import BotKind, SearchingBot, SeatedBot
from solver import Hint
from solver.games.alibi.model import in_box
from solver.games.alibi.position import parse
from solver.search import Memory
from solver.search.alibi import box_of, choose, collector_paused


def crossed_off(info: InformationSet) -> set[str]:
    """The notepad: cards held, cards laid, and every card of an answer of "all of them"."""
    return set(crossings(info))


def crossings(info: InformationSet) -> dict[str, list[Observation]]:
    """Each card the notepad crosses off, with the observations that cross it off, in order."""
    found: dict[str, list[Observation]] = {}
    for obs in info.observations:
        match obs:
            case seen.Deal(cards=cards) | seen.Laid(cards=cards) | seen.PassedCards(cards=cards):
                crossing = cards
            case seen.Answered(cards=cards, answer=answer) if cards and answer == len(cards):
                crossing = cards  # "all of them"
            case _:
                crossing = ()
        for card in crossing:
            found.setdefault(card, []).append(obs)
    return found


def notepad(info: InformationSet) -> list[Hint]:
    """What a careful person with pen and paper has crossed off, as hints: first each type
    whose last card left must be in the box, then every card crossed off (by type, in deck
    order), each with the sentences of the observations that crossed it off."""
    if not info.observations:
        return []
    game = Alibi.of(info)
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
                fold = (f"Not in the box ({kind}s)", card.name)
                out.append(Hint(text, fact, 0.0, because(crossed[card_id]), "notepad", 0.0, fold))
    return solved + out


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
        lays = [a for a in legal if isinstance(a, act.Lay)]
        if lays:
            return lays[0]
        passes = [a for a in legal if isinstance(a, act.Pass)]
        if passes:
            return min(passes, key=lambda a: sum(c not in crossed for c in a.cards))
        if any(isinstance(a, act.Solution) for a in legal):  # the variant "solutions"
            return act.Solution(box_of([cards[0] for cards in left]))
        if all(len(cards) == 1 for cards in left):
            return act.Accuse(box_of([cards[0] for cards in left]))
        return self._question(crossed, left)

    def _question(self, crossed: set[str], left: list[list[str]]) -> act.Ask:
        """Ask a random other player what they have seen of a random group still open,
        preferring a group whose type is not decided yet."""
        deck = self.game.deck
        open_groups = [g for g in deck.groups if any(c not in crossed for c in deck.of_group(g))]
        undecided = [g for g in open_groups if len(left[TYPES.index(deck.type_of_group(g))]) > 1]
        group = self.rng.choice(undecided or open_groups or list(deck.groups))
        others = [s for s in range(self.game.players) if s != self.seat]
        return act.Ask(self.rng.choice(others), "seen", Subject(SubjectKind.GROUP, group))


class SolverBot(SearchingBot):
    """Full deduction (`solver.search.alibi`, the search `solver.advise` reads its advice
    from): asks the question with the highest expected information about the box, passes what
    its left neighbour gains least from, lays a set only when the group is publicly cleared
    (laying tells everyone the group is not in the box), and accuses when the box is certain,
    or earlier when its best guess is likelier to win than waiting: that is, when the chance
    that an opponent can name the box before its next turn (their notepads, read off posterior
    samples) makes waiting worth less than guessing now.

    Its work is fixed (the deduction's chain steps, a number of posterior samples: `samples`
    says how many the last move drew), so a seed fixes its move. `time_budget` (seconds, off
    by default) is a hard ceiling on a move, and the one source of non-determinism once it is
    reached: the notepad's move is ready before any solve, the deduction stops at half of it
    and the bot acts on what it has (a shorter chain; a fact CP-SAT had no time to settle
    counts as uncertain), and when 80% of it is spent it plays the best move ready (`why` is
    then "out of time"; `hurried` says whether a deadline passed at all). During a
    budgeted move Python's cyclic garbage collector is paused: its collections run after the
    move is returned (`solver.search.alibi.collector_paused` says why). benchmarks/alibi.py
    measures decision times.
    """

    game: Alibi

    def __init__(
        self, game: Alibi, seat: Seat, rng: random.Random, time_budget: float | None = None
    ) -> None:
        super().__init__(game, seat, rng, time_budget)
        self._memory: Memory = {}  # this round's posterior samples, for the pass after it
        self.samples = 0
        """Posterior samples drawn for the last move (its work; 0 when it needed none)."""
        self.why = ""
        """Why the last move: "ask", "odds", "certain", "pass", "lay" or "out of time"."""
        self.hurried = False
        """Whether a deadline of the budget passed during the last move."""

    def act(self, info: InformationSet) -> Action:
        with collector_paused(self.time_budget):  # from the start: listing the legal moves
            return super().act(info)  # allocates enough to set off a collection

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        made = choose(info, legal, self.rng, self._memory, self.time_budget)
        self.samples, self.why, self.hurried = made.samples, made.why, made.hurried
        assert made.move is not None
        return made.move


BOTS: dict[str, BotKind] = {"heuristic": HeuristicBot, "solver": SolverBot}
