"""Blue Lion's search: expectiminimax over the exact posterior of the backs, deepened while
work allows, and the advice read off it (the value of every move, what the opponent can score
after it).

Max nodes are the mover's decisions, min nodes the opponent's, and every blind flip is a
chance node whose outcomes follow the Deduction (every consistent world equally likely, or
weighed by an opponent model: the `model` knob, `solver.deduce(info, model=...)`).
Leaves are valued by the score difference, a finished game by +-100 (more for a quicker win or
a later loss). Depth counts main actions; returning set-aside tiles is searched but not
counted.

Among the moves worth within `MARGIN` of the best, the search prefers progress to wandering
(issue 43): first a move that may change the score or show a back not seen yet; then one that
reaches a position the seat has not been in (the public position, the scores and the faces
seen so far, read from its own information set); a move back to a position already seen comes
last, the least often seen first. Without this, two solvers with nothing to gain in three
moves shuffled the same tiles back and forth until the turn limit.

The search is bounded by work, so a seed gives the same move on any machine: it deepens up to
`max_depth` while the next depth, judged by how the last one grew, fits in `max_nodes`
positions in all; a depth cut off half-way is dropped. `time_budget` (seconds, off by default)
is only a safety ceiling: when set, the search also stops before a depth it would not finish
in time, which makes the move depend on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence

from engines import Action, InformationSet, Seat
from engines.blue_lion import PATTERNS, SEATS, TILES, BlueLion, BlueLionState, Return
from engines.blue_lion import observations as seen
from solver.deduction import deduce
from solver.games.blue_lion import Worlds, outcomes, points_gained, position
from solver.hints import Hint, percent
from solver.opponent_models import COUNTING
from solver.search import Advice, Candidate, Turn
from solver.search.grading import Grading

WIN = 100.0
MAX_NODES = 25_000
"""The default node budget a move (measured in benchmarks/blue_lion.py)."""
GRADING = Grading(
    "points", 0.5, 1.5, 4.0, "the expected score difference (a game won or lost: 100)"
)
"""A review grades a Blue Lion move by the points it gives up against the search's best (a
won or lost game counts about 100)."""
KNOBS: dict[str, object] = {
    "time_budget": None,
    "max_depth": 3,
    "max_nodes": MAX_NODES,
    "model": COUNTING,
}
"""`model`: how the odds of the backs read the opponent's choices (`solver.deduce(info,
model=...)`): "counting", "random" or a bot's name. Both seats see the whole record, so every
model weighs the worlds alike and the search plays as under counting, at the cost of the
model's policy at each of the opponent's past moves."""
_WORK = {key: value for key, value in KNOBS.items() if key != "model"}
"""The knobs that bound a `Search`'s work, at their defaults (the model weighs its worlds)."""
SHOWN = 4
"""Candidates whose threats are worked out (the advised move and the runners-up shown)."""
MARGIN = 0.05
"""Points of expected lead: moves worth this much less than the best count as near-ties, among
which progress (a score, a back shown, a new position) is preferred to a repetition. Counted
values are multiples of 1/(worlds grouped by a flip) at most a few apart, so this admits exact
ties and rounding, not a real loss."""

Known = frozenset[tuple[str, str]]
"""The faces seen so far: (tile, icon) pairs. Knowledge only grows."""
Key = tuple[object, ...]
"""A position as a seat remembers it: the public position, the scores, the faces seen."""

PROGRESS, NEW, REPEAT = 0, 1, 2
"""How a move changes things, best first: it may score or show a back not seen yet; it reaches
a position not seen before; it returns to a position seen before."""


def key(state: BlueLionState, known: Known) -> Key:
    """The position `state` shows, as the seat to move remembers it (`known`: faces seen)."""
    return (
        tuple((tile, state.up[tile]) for tile in state.line),
        tuple(state.pool),
        tuple(sorted(state.returning)),
        tuple(sorted(state.aside)),
        tuple(state.scores[seat] for seat in SEATS),
        state.current,
        state.main_done,
        known,
    )


def history(
    info: InformationSet, pairs: Mapping[str, frozenset[str]]
) -> tuple[Counter[Key], Known]:
    """Every position the record of `info` passed through before each action (how many times
    each), and the faces seen by its end. `pairs` is any world consistent with `info`: the
    public positions are the same in all of them."""
    game = BlueLion.of(info)
    observations = info.observations
    tosses = {obs.tile: obs.face for obs in observations if isinstance(obs, seen.Toss)}
    known = {(tile, face) for tile, face in tosses.items()}
    visits: Counter[Key] = Counter()
    first = observations[len(TILES)] if len(observations) > len(TILES) else None
    if not isinstance(first, seen.First):
        return visits, frozenset(known)
    state = game.arrange(random.Random(0), pairs, tosses, first.seat)
    for obs in observations[len(TILES) + 1 :]:
        match obs:
            case seen.Act(action=action):
                visits[key(state, frozenset(known))] += 1
                state.apply_trusted(game.parse_action(action))
            case seen.Reveal(tile=tile, face=face):
                known.add((tile, face))
    return visits, frozenset(known)


class OutOfWork(Exception):
    """The search spent its node budget (or, as a safety ceiling, its time budget); the last
    completed depth's choice stands."""


class Search:
    """One move's search for `seat`; `nodes` and `depth` say how much work it did."""

    def __init__(
        self,
        seat: Seat,
        rng: random.Random,
        time_budget: float | None,
        max_depth: int,
        max_nodes: int,
    ) -> None:
        self.seat, self.rng = seat, rng
        self.time_budget, self.max_depth, self.max_nodes = time_budget, max_depth, max_nodes
        self.nodes = 0
        self.depth = 0
        """The deepest search completed."""
        self.values: list[tuple[float, Action]] = []
        """Each root action's value at the deepest completed depth."""
        self.progress: dict[Action, tuple[int, int]] = {}
        """Each root action's kind of change (PROGRESS, NEW, REPEAT) and, for a repetition,
        how often the seat has been in the position it returns to."""
        self._deadline = math.inf

    def run(
        self,
        state: BlueLionState,
        worlds: Worlds,
        visits: Mapping[Key, int] | None = None,
        known: Known = frozenset(),
    ) -> Action:
        """The move at `state`; `visits` counts the positions the seat has been in, `known` the
        faces it has seen (both from its information set; none given: no memory)."""
        budget = self.time_budget
        self._deadline = math.inf if budget is None else time.perf_counter() + budget
        actions = state.legal_actions()
        choice = self.rng.choice(actions)
        if len(actions) == 1:
            return choice
        self.progress = {a: self._change(state, worlds, a, visits or {}, known) for a in actions}
        grown = 0
        for depth in range(1, self.max_depth + 1):
            before, began = self.nodes, time.perf_counter()
            try:
                choice, values = self._root(state, worlds, actions, depth)
            except OutOfWork:
                break
            self.depth, self.values = depth, values
            spent = self.nodes - before
            growth = spent / grown if grown else spent  # depth 1's size is the branching
            grown = spent
            took = time.perf_counter() - began
            if self.nodes + spent * growth > self.max_nodes:
                break  # the next depth would not finish: keep this one's choice
            if budget is not None and time.perf_counter() + took * growth > self._deadline:
                break  # nor within the safety ceiling, on this machine now
        return choice

    def _root(
        self, state: BlueLionState, worlds: Worlds, actions: Sequence[Action], depth: int
    ) -> tuple[Action, list[tuple[float, Action]]]:
        values = [(self._expect(state, worlds, a, depth), a) for a in actions]
        return self.pick(values), values

    def pick(self, values: Sequence[tuple[float, Action]]) -> Action:
        """The best move, near-ties (within `MARGIN`) going to the one that changes most:
        progress, then a new position, then the least repeated; then the higher value; exact
        ties at random (the seeded rng)."""
        best = max(value for value, _ in values)
        near = [(value, a) for value, a in values if value >= best - MARGIN]
        change = min(self.progress.get(a, (PROGRESS, 0)) for _, a in near)
        kept = [(value, a) for value, a in near if self.progress.get(a, (PROGRESS, 0)) == change]
        top = max(value for value, _ in kept)
        return self.rng.choice([a for value, a in kept if value >= top - 1e-9])

    def _change(
        self,
        state: BlueLionState,
        worlds: Worlds,
        action: Action,
        visits: Mapping[Key, int],
        known: Known,
    ) -> tuple[int, int]:
        """What `action` changes: (PROGRESS, 0) if some outcome scores or shows a face not
        seen; else (NEW, 0) or (REPEAT, times seen) for the position it leads to."""
        found = outcomes(state, worlds, action)
        for _, child, _ in found:
            if child.scores != state.scores or child.is_over:
                return (PROGRESS, 0)
            tile = getattr(action, "flipped_tile", None)
            if tile is not None and (tile, child.up[tile]) not in known:
                return (PROGRESS, 0)
        _, child, _ = found[0]
        tile = getattr(action, "flipped_tile", None)
        after = known if tile is None else known | {(tile, child.up[tile])}
        times = visits.get(key(child, after), 0)
        return (REPEAT, times) if times else (NEW, 0)

    def _expect(self, state: BlueLionState, worlds: Worlds, action: Action, depth: int) -> float:
        remaining = depth if isinstance(action, Return) else depth - 1
        return sum(
            chance * self._value(child, child_worlds, remaining)
            for chance, child, child_worlds in outcomes(state, worlds, action)
        )

    def _value(self, state: BlueLionState, worlds: Worlds, depth: int) -> float:
        self.nodes += 1
        if state.is_over:  # sooner wins and later losses are better: the remaining depth counts
            if len(state.winners) != 1:
                return 0.0
            return WIN + depth if state.winners[0] == self.seat else -WIN - depth
        if depth <= 0 and not state.main_done:
            return self._evaluate(state)
        if self.nodes > self.max_nodes or (
            self._deadline < math.inf and time.perf_counter() > self._deadline
        ):
            raise OutOfWork
        values = [self._expect(state, worlds, a, depth) for a in state.legal_actions()]
        return max(values) if state.to_move == self.seat else min(values)

    def _evaluate(self, state: BlueLionState) -> float:
        mine = state.scores[str(self.seat)]
        theirs = sum(state.scores.values()) - mine
        return float(mine - theirs)


def choose(
    info: InformationSet, rng: random.Random, **knobs: object
) -> tuple[Action, Search, BlueLionState, Worlds]:
    """The solver's move at `info`, and the search that chose it (its values and work), with
    the position and its worlds. `knobs` are those of KNOBS: `model` weighs the worlds, the
    others bound the search."""
    model = knobs.pop("model", COUNTING)
    assert isinstance(model, str)  # check_knobs checked it
    search = Search(info.seat, rng, **knobs)  # type: ignore[arg-type]
    state, worlds = position(info, deduce(info, model=model))
    visits, known = history(info, worlds[0])
    return search.run(state, worlds, visits, known), search, state, worlds


def advise(turn: Turn, **knobs: object) -> Advice:
    """The solver's move with its value in words, the runners-up, and what the opponent can
    score on the next move after each of the moves shown.

    Every value shown is the one the search computed for that move at its deepest completed
    depth (the expected lead after that many moves against the opponent's best replies), with
    that horizon; each candidate's `because` says what the move changes (the tie-break)."""
    info, rng = turn.info, turn.rng
    move, search, state, worlds = choose(info, rng, **knobs)
    seat = str(info.seat)
    lead = state.scores[seat] - (sum(state.scores.values()) - state.scores[seat])
    if not search.values:  # one legal move, or not even depth 1 fitted the budget
        search.values = [(float(lead), a) for a in state.legal_actions()]
    ranked = sorted(search.values, key=lambda item: (item[1] != move, -item[0]))
    best_value = max(value for value, _ in ranked)
    near = sum(value >= best_value - MARGIN for value, _ in ranked)
    horizon = horizon_text(state, seat, search.depth)
    candidates = []
    for k, (value, action) in enumerate(ranked):
        threats = _threats(state, worlds, action, seat) if k < SHOWN else ()
        because: tuple[str, ...] = ()
        if search.depth:
            because = (
                f"the value is the lead expected after {search.depth} moves ({horizon}), "
                "each blind flip weighed by the worlds still possible and each reply the best "
                "for its player",
            )
        change = change_text(action, search.progress.get(action))
        if change:
            because += (f"what it changes: {change}",)
        if action == move and near > 1:
            because += (
                f"{near} moves are worth within {MARGIN} points of the best "
                f"({best_value:+.2f}); among them the solver prefers a score or a back not "
                "seen yet, then a position not yet seen, to going back to one",
            )
        text = value_text(value, lead, search.depth)
        candidates.append(Candidate(action, value, text, None, threats, because))
    best = candidates[0]
    details = (f"searched {search.nodes} positions, {search.depth} moves deep",)
    return Advice(move, best.value, best.text, tuple(candidates), best.threats, (), details)


ADVICE_SCORE = 50.0
"""The search's move leads the "what to do" section, above the moves that score at once
(`solver.games.blue_lion`), which look one move ahead where the search looks three."""


def hints(info: InformationSet) -> list[Hint]:
    """What to do, as the solver bot would do it (seed 0, as `solver.advise(info)`): at the
    seat's turn its move and the lead it expects; at the opponent's turn once every back is
    known (one world left), the opponent's best move by the same search and the seat's best
    reply to it, the plan a strong player makes while waiting. Nothing once the game is over,
    nor at the opponent's turn while backs are still hidden (the threats say what the
    opponent can score)."""
    state, worlds = position(info, deduce(info))
    seat = str(info.seat)
    if state.is_over:
        return []
    if state.to_move == seat:
        advice = advise(Turn(info, state.legal_actions(), random.Random(0), {}), **KNOBS)
        text = f"Play {advice.move}: {advice.text}"
        return [Hint(text, None, None, tuple(advice.reasons()), "suggestion", ADVICE_SCORE)]
    if len(worlds) != 1:
        return []
    other = str(state.to_move)
    before = state.scores[other]
    theirs: list[Action] = []
    while not state.is_over and state.to_move == other:
        move = Search(other, random.Random(0), **_WORK).run(state, worlds)  # type: ignore[arg-type]
        theirs.append(move)
        state = outcomes(state, worlds, move)[0][1]
    name = other.capitalize()
    text = f"{name} is to move; {name}'s best is {', '.join(map(str, theirs))}"
    if state.scores[other] > before:
        text += f", scoring +{state.scores[other] - before}"
    if state.is_over:
        return [Hint(f"{text}, which ends the game", None, None, (), "suggestion", ADVICE_SCORE)]
    visits, known = history(info, worlds[0])
    search = Search(seat, random.Random(0), **_WORK)  # type: ignore[arg-type]
    reply = search.run(state, worlds, visits, known)
    lead = state.scores[seat] - state.scores[other]
    value = next((v for v, a in search.values if a == reply), float(lead))
    text += f"; your best reply then: {reply} ({value_text(value, lead, search.depth)})"
    return [Hint(text, None, None, (), "suggestion", ADVICE_SCORE)]


def horizon_text(state: BlueLionState, seat: str, depth: int) -> str:
    """Whose the next `depth` main actions are: "yours, Fujiko's, yours" (returns of tiles
    set aside are not counted; when they are all that is left of the seat's turn, the next
    main action is the opponent's)."""
    mover = state.current if not state.main_done else _other(state.current)
    names = []
    for _ in range(depth):
        names.append("yours" if mover == seat else f"{mover.capitalize()}'s")
        mover = _other(mover)
    return ", ".join(names)


def _other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def change_text(action: Action, change: tuple[int, int] | None) -> str:
    """What `action` changes, as the tie-break reads it ("" if not known)."""
    if change is None:
        return ""
    kind, times = change
    tile = getattr(action, "flipped_tile", None)
    if kind == PROGRESS:
        return "scores now" if tile is None else f"may score or show {tile}'s back, not seen yet"
    if kind == NEW:
        return "a position you have not been in"
    return f"back to a position you have been in {_times(times)}"


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def value_text(value: float, lead: int, depth: int) -> str:
    """A search value in words, short enough for a line of the advice: a forced result, or the
    lead the search expects after `depth` main actions with the best replies, beside the lead
    now. (Whose moves those are, and what the move changes, are in the candidate's reasons.)"""
    if depth == 0:
        return "the only move" if value == lead else "not searched"
    if value >= WIN:
        return f"wins by force within {depth} moves"
    if value <= -WIN:
        return f"loses against best play within {depth} moves"
    if value > WIN / 4:
        return f"may win outright (value {value:+.0f}, a win counts {WIN:.0f})"
    if value < -WIN / 4:
        return f"may lose outright (value {value:+.0f}, a loss counts -{WIN:.0f})"
    gain = value - lead
    expected = f"lead {value:+.2f} expected after {depth} moves"
    if abs(gain) < 0.005:
        return f"keeps the score: {expected}"
    return f"{'gains' if gain > 0 else 'loses ground'} {gain:+.2f}: {expected} (now {lead:+d})"


def _threats(state: BlueLionState, worlds: Worlds, action: Action, seat: str) -> tuple[str, ...]:
    """What the opponent's next main action can score after `action` (and, if the turn goes
    on with returns, after the returns that leave him least): each scoring reply with its
    chance and the points, the strongest first."""
    worst: dict[str, tuple[float, float, str]] = {}
    for chance, child, child_worlds in outcomes(state, worlds, action):
        for text, (points, p) in _replies(child, child_worlds, seat).items():
            old = worst.get(text, (0.0, 0.0, text))
            worst[text] = (max(old[0], points), old[1] + chance * p, text)
    ranked = sorted(worst.values(), key=lambda item: (-item[0] * item[1], item[2]))
    return tuple(f"{text} {percent(p)}" for points, p, text in ranked if points > 0 and p > 0)


def _replies(state: BlueLionState, worlds: Worlds, seat: str) -> dict[str, tuple[float, float]]:
    """The opponent's scoring replies at `state`: text -> (points, chance). While the turn is
    still ours (returns to make), the returns leaving the fewest points to him are assumed."""
    if state.is_over:
        return {}
    if state.to_move == seat:
        options = []
        for action in state.legal_actions():
            found: dict[str, tuple[float, float]] = {}
            for chance, child, child_worlds in outcomes(state, worlds, action):
                for text, (points, p) in _replies(child, child_worlds, seat).items():
                    old = found.get(text, (0.0, 0.0))
                    found[text] = (max(old[0], points), old[1] + chance * p)
            options.append(found)
        return min(options, key=lambda f: sum(pts * p for pts, p in f.values()), default={})
    who = str(state.to_move).capitalize()
    found = {}
    for action in state.legal_actions():
        if isinstance(action, Return):
            continue
        for chance, child, _ in outcomes(state, worlds, action):
            gained = points_gained(state.scores, child)
            theirs = sum(v for s, v in gained.items() if s != seat)
            if theirs <= 0:
                continue
            made = [
                PATTERNS[obs.faces].name
                for obs, _to in child.recorded(state.observation_count)
                if isinstance(obs, seen.Score)
            ]
            text = f"{who} {action} scores +{theirs} ({', '.join(made)})"
            old = found.get(text, (0.0, 0.0))
            found[text] = (max(old[0], theirs), old[1] + chance)
    return found
