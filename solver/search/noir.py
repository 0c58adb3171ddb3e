"""Noir's search, for both roles: expectimax one reply deep over the opponent's identities,
with the Deduction's exact probabilities, and the advice read off it (every candidate move's
risk of being killed or arrested on the opponent's next move).

The worlds are the opponent's identities the Deduction allows, each with its exact
probability (there are at most 25, so all are searched rather than sampled): each of our
actions, then the opponent's reply in every world, the opponent modelled as acting on what the
public record tells him about us; leaves are valued by the chance of winning on the move after.

The work is bounded by the game, not the clock: every legal action is scored, once, so a seed
gives the same move on any machine. `time_budget` (seconds, off by default) is only a safety
ceiling, and then the one source of non-determinism: past it, the actions not yet scored
(shifts come last) are skipped.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from engines import Action, InformationSet
from engines.noir import Grid, allowed_shifts
from engines.noir import actions as act
from engines.noir import observations as seen
from engines.noir.grid import adjacent, block, collapsed, neighbours, positions, shifted
from engines.noir.material import INSPECTOR, KILLER
from solver.deduction import deduce
from solver.games.noir import (
    current_grid,
    dead_cards,
    exoneration_gain,
    inspector_hand,
    last_disguise,
    own_identity,
    posterior,
    public_inspector_candidates,
    public_killer_candidates,
)
from solver.hints import percent
from solver.search import Advice, Candidate, Turn
from solver.search.grading import Grading

Posterior = Mapping[str, float]
SURVIVAL = 0.5
"""What surviving the killer's reply is worth to the inspector beyond an arrest next turn: his
chance of winning later, roughly; it weighs the risk of being killed against the chance of
an arrest."""
GRADING = Grading(
    "search value",
    0.03,
    0.08,
    0.2,
    "the chance of a win next turn against the risk on the "
    "reply, or the bits by which an exoneration narrows the killer down",
)
"""A review grades a Noir move by the search's value it gives up (one scale for every move of
a turn, as the search ranks them)."""
KNOBS: dict[str, object] = {"time_budget": None, "model": "counting"}
"""`model`: how the odds read the opponent's choices (`solver.deduce(info, model=...)`):
"counting", "random" or a bot's name; a model costs about a second a move."""
AGENTS = 3
TIE = 1e-9
"""Values this close are a tie, which `choose` breaks at random."""
"""The agents in the inspector's hand: suspects he knows are not the killer."""


@dataclass(frozen=True)
class Scored:
    """An action's value to the search, and what it risks on the opponent's next move: the
    chance the opponent wins then if he plays as the solver bot does (`risk`), and by any
    reply he has (`possible`: the chance he is placed to win at all)."""

    value: float
    risk: float
    possible: float
    text: str


Scorer = Callable[[Action], Scored]


def innocent_cards(info: InformationSet) -> set[str]:
    """Suspects publicly innocent: exonerated, or a former identity a disguise revealed."""
    found = set()
    for obs in info.observations:
        match obs:
            case seen.Exonerated(suspect=card) | seen.Disguised(former=card):
                found.add(card)
    return found


def after_shift(grid: Grid, shift: act.Shift, dead: set[str]) -> Grid:
    return collapsed(shifted(grid, shift.line, shift.index - 1, shift.direction), dead)


def choose(
    info: InformationSet,
    legal: Sequence[Action],
    rng: random.Random,
    time_budget: float | None = None,
    model: str = "counting",
) -> tuple[Action, list[tuple[Action, Scored]]]:
    """The solver's move, and every action it scored with its value and risk, its odds read
    under `model`."""
    deadline = math.inf if time_budget is None else time.perf_counter() + time_budget
    if info.seat == INSPECTOR:
        scorer = _inspector(info, legal, model)
    else:
        scorer = _killer(info, info.make_game(), model)
    if len(legal) == 1:
        return legal[0], [(legal[0], scorer(legal[0]))]
    best, best_value = legal[0], -math.inf
    scored = []
    for action in sorted(legal, key=lambda a: isinstance(a, act.Shift)):
        found = scorer(action)
        value = found.value + rng.random() * TIE
        scored.append((action, found))
        if value > best_value:
            best, best_value = action, value
        if time_budget is not None and time.perf_counter() > deadline:
            break
    return best, scored


def advise(turn: Turn, time_budget: float | None = None, model: str = "counting") -> Advice:
    """The solver's move, its value in words, and every candidate's risk of losing on the
    opponent's next move, best first."""
    info, legal, rng = turn.info, turn.legal, turn.rng
    move, scored = choose(info, legal, rng, time_budget, model)
    ranked = sorted(scored, key=lambda item: (item[0] != move, -item[1].value))
    who, you = ("killer", "inspector") if info.seat == INSPECTOR else ("inspector", "killer")
    loss = "kill" if info.seat == INSPECTOR else "arrest"
    candidates = []
    for action, found in ranked:
        threats: tuple[str, ...] = ()
        if found.possible > 0:
            threats = (
                f"the {who} is beside you in {percent(found.possible)} of worlds: he could "
                f"{loss} you on his next move, if he picks you out as the {you}",
            )
        candidates.append(Candidate(action, found.value, found.text, found.risk, threats))
    best = candidates[0]
    safest = min(candidates, key=lambda c: (c.risk or 0.0, -c.value))
    notes: tuple[str, ...] = ()
    if (best.risk or 0) > (safest.risk or 0):
        notes = (f"safest: {safest.action} (risk {percent(safest.risk or 0.0)}; {safest.text})",)
    details = (f"scored {len(scored)} of {len(legal)} moves",)
    return Advice(move, best.value, best.text, tuple(candidates), best.threats, notes, details)


# --- the inspector ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Reply:
    """The killer's reply as the inspector's search values it: the position's value to him,
    the chance the killer is placed to kill him, and his chance of an arrest next."""

    value: float
    placed: float
    arrest: float


def _inspector(info: InformationSet, legal: Sequence[Action], model: str) -> Scorer:
    """The inspector's scorer: his choice of identity, or his moves once he has one."""
    chances = posterior(deduce(info, model=model))
    grid, dead = current_grid(info.observations), dead_cards(info)
    me = own_identity(info)
    reach = set(public_inspector_candidates(info))
    foresee = _Foresight(info, dead)
    if me is None:  # choosing: stay away from the killer, keep room to arrest
        return _choosing(chances, grid, dead, reach, foresee)
    moves = _InspectorMoves(chances, grid, dead, me, reach, foresee, inspector_hand(info))
    if isinstance(legal[0], act.Exonerate):
        return moves.exoneration()
    return moves.score


def _choosing(
    chances: Posterior, grid: Grid, dead: set[str], reach: set[str], foresee: _Foresight
) -> Scorer:
    """The scorer of the inspector's choice of identity: away from the killer, with room
    to arrest."""

    def choosing(action: Action) -> Scored:
        card = action.suspect  # type: ignore[attr-defined]
        near = _near(chances, grid, card)
        room = len([n for n in neighbours(grid, card) if n not in dead])
        killed = foresee.killed(card, chances, grid, reach - dead)
        text = f"the killer is beside it in {percent(near)} of worlds"
        return Scored(-near + room / 100, killed, near, text)

    return choosing


def _worded(value: float, now: float, reply: Reply, killed: float) -> Scored:
    """An inspector's move scored, with in words its chance of catching the killer now, of
    his killing the inspector next, and of an arrest on the move after."""
    parts = [f"this arrest catches the killer: {percent(now)}"] if now else []
    parts += [
        f"the killer kills you on his next move: {percent(killed)}",
        f"you arrest the killer on your next move: {percent(reply.arrest)}",
    ]
    return Scored(value, killed, (1 - now) * reply.placed, ", ".join(parts))


@dataclass(frozen=True)
class _InspectorMoves:
    """The inspector's moves once he has an identity (`me`), scored by the killer's reply:
    his posterior of the killer, the grid, the identities the killer may take him for
    (`reach`), his hand, and the killer's kill foreseen."""

    chances: Posterior
    grid: Grid
    dead: set[str]
    me: str
    reach: set[str]
    foresee: _Foresight
    hand: list[str]

    def exoneration(self) -> Scorer:
        """The scorer when the moves to choose from are exonerations: each by what it
        narrows the killer down, the killer staying where he is for every card."""
        chances, grid, me, reach = self.chances, self.grid, self.me, self.reach
        staying = _reply(chances, grid, self.dead, me, reach)  # the same grid for every card

        def exonerate(action: Action) -> Scored:
            card = action.suspect  # type: ignore[attr-defined]
            gain = exoneration_gain(chances, grid, card)
            told = Told(exonerated=card)
            killed = self.foresee.killed(me, chances, grid, reach - {card}, told)
            found = _worded(gain, 0.0, staying, killed)
            text = f"{narrows(chances, gain)}; {found.text}"
            return Scored(gain, found.risk, found.possible, text)

        return exonerate

    def score(self, action: Action) -> Scored:
        """An arrest, a draw or exoneration, or a shift, valued by the killer's reply."""
        if isinstance(action, act.Arrest | act.CitizenArrest):
            return self._arrest(action)
        if isinstance(action, act.Draw | act.Exonerate):
            cards = self.hand if isinstance(action, act.Draw) else [action.suspect]
            return self._canvass(cards, isinstance(action, act.Draw))
        assert isinstance(action, act.Shift)
        board = after_shift(self.grid, action, self.dead)
        reply = _reply(self.chances, board, self.dead, self.me, self.reach)
        killed = self.foresee.killed(self.me, self.chances, board, self.reach, Told(shift=action))
        return _worded(reply.value, 0.0, reply, killed)

    def _arrest(self, action: act.Arrest | act.CitizenArrest) -> Scored:
        """An arrest: the killer caught, or his reply to the failure."""
        chances, grid, dead, me, reach = self.chances, self.grid, self.dead, self.me, self.reach
        p = chances.get(action.suspect, 0.0)
        rest = _without(chances, action.suspect)
        # A failed arrest tells the killer the inspector is beside the suspect named.
        if isinstance(action, act.Arrest):
            told = reach & set(block(grid, action.suspect))
            reply = _reply(rest, grid, dead, me, told)
        else:  # and a citizen arrest that his agent is not the inspector
            told = reach - {action.agent}
            reply = _reply(rest, grid, dead, me, reach)
        killed = (1 - p) * self.foresee.killed(me, rest, grid, told, Told(arrested=action.suspect))
        return _worded(p + (1 - p) * reply.value, p, reply, killed)

    def _canvass(self, cards: list[str], drawn: bool) -> Scored:
        """A draw (`drawn`) or an exoneration: the best of `cards` to exonerate and canvass,
        or the killer's reply to nothing when there is none."""
        chances, grid, me, reach = self.chances, self.grid, self.me, self.reach
        if not cards:
            reply = _reply(chances, grid, self.dead, me, reach)
            return _worded(reply.value, 0.0, reply, self.foresee.killed(me, chances, grid, reach))
        card = max(cards, key=lambda c: exoneration_gain(chances, grid, c))
        mixed, killed = self._exonerating(card, drawn)
        return _worded(mixed.value, 0.0, mixed, killed)

    def _exonerating(self, card: str, drawn: bool) -> tuple[Reply, float]:
        """The killer's reply once `card` is exonerated and canvassed."""
        chances, grid, dead, me, reach = self.chances, self.grid, self.dead, self.me, self.reach
        parts = [
            (weight, part, _reply(part, grid, dead, me, reach))
            for weight, part in _split(chances, lambda k: adjacent(grid, k, card))
        ]
        mixed = Reply(
            sum(w * r.value for w, _, r in parts),
            sum(w * r.placed for w, _, r in parts),
            sum(w * r.arrest for w, _, r in parts),
        )
        told = Told(exonerated=card, drawn=drawn)
        killed = self.foresee.killed(me, chances, grid, reach - {card}, told)
        return mixed, killed


@dataclass(frozen=True)
class Told:
    """What an inspector's move tells the killer beyond the grid: a `shift` he may not undo,
    a failed arrest of `arrested`, or the exoneration and canvass of `exonerated`, after a
    draw from the shared deck when `drawn`."""

    shift: act.Shift | None = None
    arrested: str | None = None
    exonerated: str | None = None
    drawn: bool = False


class _Foresight:
    """The chance the killer kills the inspector on his next move, foreseen by running the
    killer's own search in every identity the inspector's posterior allows him.

    The killer reads only the public record and his own identity, so his search can be run
    from the inspector's side: what the public record allows of him is
    `public_killer_candidates` of the record without the inspector's private observations,
    and his posterior of the inspector is uniform over the identities the record allows him
    (exact with a shared deck; with separate decks his own deck's draws weigh them unevenly,
    and this takes them alike). Ties in his choice are broken at random, as his bot does.
    tests/test_noir_foresight.py checks the view against the killer bot's own.
    """

    def __init__(self, info: InformationSet, dead: set[str]) -> None:
        public = replace(info, observations=tuple(o for o in info.observations
                                                  if not isinstance(o, seen.Private)))  # fmt: skip
        game = info.make_game()
        self.dead = frozenset(dead)
        self.hidden = frozenset(public_killer_candidates(public))
        self.innocent = frozenset(innocent_cards(info))
        self.exonerated = frozenset(_known_theirs(info))
        # The killer's own past identities, public once he disguised: not the inspector's.
        self.former = frozenset(
            o.former for o in info.observations if isinstance(o, seen.Disguised)
        )
        self.kills_left = game.kills_to_win - len(dead)  # type: ignore[attr-defined]
        self.ban = bool(game.options["reverse_shift_ban"])
        self.separate = game.options["deck"] == "separate"
        self.deck_left = game.public_state(info).cards_left(KILLER)  # type: ignore[attr-defined]
        # An exonerated card is not the killer, unless decks are separate and he has disguised
        # since: then it may be a later identity of his, drawn by the inspector.
        self.exoneration_clears = not self.separate or last_disguise(info.observations) is None

    def killed(
        self, me: str, odds: Posterior, board: Grid, reach: set[str], move: Told = Told()
    ) -> float:
        """After an inspector's `move` on to `board`, with `odds` the killer's identities and
        `reach` what the killer then knows of the inspector's."""
        total = 0.0
        for killer, p in odds.items():
            if me not in neighbours(board, killer):
                continue
            view, replies = self.reply(killer, board, reach, move)
            total += p * _chosen(_killer_scorer(view), act.Kill(me), replies)
        return total

    def reply(
        self, killer: str, board: Grid, reach: set[str], move: Told = Told()
    ) -> tuple[KillerView, list[Action]]:
        """What the killer's search reads after the inspector's `move`, were he `killer`, and
        the moves he has then."""
        shift, arrested, exonerated = move.shift, move.arrested, move.exonerated
        hidden, innocent, known = self.hidden - {arrested}, self.innocent, self.exonerated
        if exonerated is not None:
            innocent, known = innocent | {exonerated}, known | {exonerated}
            if self.exoneration_clears:
                hidden = hidden - {exonerated}
            near = adjacent(board, killer, exonerated)
            hidden = frozenset(h for h in hidden if adjacent(board, h, exonerated) == near)
        thought = reach - {killer} - self.former
        view = KillerView(
            grid=board,
            dead=self.dead,
            me=killer,
            chances={name: 1 / len(thought) for name in sorted(thought)},
            hidden=hidden,
            innocent=innocent,
            exonerated=known,
            kills_left=self.kills_left,
        )
        replies: list[Action] = [
            act.Kill(n) for n in neighbours(board, killer) if n not in self.dead
        ]
        if self.deck_left - (move.drawn and not self.separate) > 0:
            replies.append(act.Disguise())
        replies += allowed_shifts(board, shift if self.ban else None)
        return view, replies


def _chosen(score: Scorer, action: Action, choices: Sequence[Action]) -> float:
    """The chance a search that takes the best-valued of `choices` (ties at random) takes
    `action`."""
    target = score(action).value
    ties = 0
    for other in choices:
        value = score(other).value
        if value > target + TIE:
            return 0.0
        ties += abs(value - target) <= TIE
    return 1 / max(ties, 1)


def narrows(chances: Posterior, gain: float) -> str:
    """Information about the killer in words: how many suspects it leaves, about."""
    entropy = -sum(p * math.log2(p) for p in chances.values() if p > 0)
    after = max(1.0, 2 ** (entropy - gain))
    return f"narrows the killer from {len(chances)} suspects to about {after:.1f}"


def _near(chances: Posterior, grid: Grid, me: str) -> float:
    return sum(p for k, p in chances.items() if adjacent(grid, k, me))


def _reply(chances: Posterior, grid: Grid, dead: set[str], me: str, reach: set[str]) -> Reply:
    """The inspector's chance of arresting the killer on his next move, after the killer
    kills one of his neighbours: one he believes may be the inspector if he can."""
    joint: dict[str, dict[str, float]] = {}
    placed = 0.0
    for killer, p in chances.items():
        victims = [n for n in neighbours(grid, killer) if n not in dead]
        if me in victims:
            placed += p
        if not victims:
            joint.setdefault("", {})[killer] = p
            continue
        aimed = [v for v in victims if v in reach] or victims
        for victim in aimed:
            joint.setdefault(victim, {})[killer] = p / len(aimed)
    value = arrest_next = 0.0
    for victim, given in joint.items():
        weight = sum(given.values())
        if victim == me or weight == 0:
            continue
        after = collapsed(grid, dead | {victim}) if victim else grid
        arrest = max((given.get(t, 0.0) for t in block(after, me)), default=0.0) / weight
        closer = sum(p * _closeness(after, k, me) for k, p in given.items()) / weight
        value += weight * (arrest + (1 - arrest) * (SURVIVAL + 0.3 * closer))
        arrest_next += weight * arrest
    return Reply(value, placed, arrest_next)


# --- the killer -------------------------------------------------------------------------------
@dataclass(frozen=True)
class KillerView:
    """All the killer's search reads: the public record (grid, dead, innocent, what he is
    known not to be) and his own identity. The inspector can build it for any identity of the
    killer, which is how he foresees the killer's reply (`_Foresight`)."""

    grid: Grid
    dead: frozenset[str]
    me: str
    chances: Posterior
    """The killer's posterior of the inspector's identity (empty before it is chosen)."""
    hidden: frozenset[str]
    """The killer's identities the public record allows."""
    innocent: frozenset[str]
    exonerated: frozenset[str]
    kills_left: int


def _killer_view(info: InformationSet, game: object, model: str = "counting") -> KillerView:
    me = own_identity(info)
    assert me is not None
    chose = any(isinstance(o, seen.ChoseIdentity) for o in info.observations)
    chances = posterior(deduce(info, model=model)) if chose else {}
    dead = dead_cards(info)
    return KillerView(
        grid=current_grid(info.observations),
        dead=frozenset(dead),
        me=me,
        chances=chances,
        hidden=frozenset(public_killer_candidates(info)),
        innocent=frozenset(innocent_cards(info)),
        exonerated=frozenset(_known_theirs(info)),
        kills_left=game.kills_to_win - len(dead),  # type: ignore[attr-defined]
    )


def _killer(info: InformationSet, game: object, model: str) -> Scorer:
    return _killer_scorer(_killer_view(info, game, model))


def _killer_scorer(view: KillerView) -> Scorer:
    grid, dead, me, chances = view.grid, set(view.dead), view.me, view.chances
    hidden, kills_left = set(view.hidden), view.kills_left
    pool = {n for row in grid for n in row} - dead - view.innocent - {me}

    def threat(
        cover: set[str], board: Grid, gone: set[str], odds: Posterior
    ) -> tuple[float, float, float]:
        """The chance the inspector arrests him next: by the bot's model (a suspect he cannot
        rule out, beside him, at random), and as stated to a person (the same, knowing that
        the inspector rules out his own card and his three agents, of which the killer knows
        nothing); and the chance he is beside the inspector at all."""
        model = placed = stated = 0.0
        for inspector, p in odds.items():
            beside = [t for t in block(board, inspector) if t not in gone]
            within = [t for t in beside if t in cover]
            if me in within:
                model += p / len(within)
                others = len([t for t in within if t not in (me, inspector)])
                agent = min(1.0, AGENTS / max(len(pool - {inspector}), 1))
                stated += p * _chosen_among(others, 1 - agent)
            if me in beside:
                placed += p
        return model, placed, stated

    def safety(cover: set[str], board: Grid, gone: set[str], odds: Posterior) -> float:
        """Chance the inspector does not arrest him next, times how hidden he stays."""
        model, _, _ = threat(cover, board, gone, odds)
        return (1 - model) * (0.6 + 0.1 * math.log2(max(len(cover), 1)))

    def score(action: Action) -> Scored:
        if isinstance(action, act.Kill):
            victim = action.suspect
            win = chances.get(victim, 0.0) if chances else 0.0
            if kills_left <= 1:
                return Scored(1.0, 0.0, 0.0, "the last kill: wins")
            rest = _without(chances, victim)
            cover = {k for k in hidden if adjacent(grid, k, victim)}
            after = collapsed(grid, dead | {victim})
            gone = dead | {victim}
            progress = 0.15 / kills_left
            value = win + (1 - win) * (safety(cover, after, gone, rest) + progress)
            _, placed, stated = threat(cover, after, gone, rest)
            text = f"wins now {percent(win)}; " if win else ""
            text += (
                f"the inspector arrests you on his next move: {percent((1 - win) * stated)}, "
                f"{len(cover)} suspects left who could have done it"
            )
            return Scored(value, (1 - win) * stated, (1 - win) * placed, text)
        if isinstance(action, act.Disguise):
            alive = pool
            fail = len(dead) / max(len(dead) + len(alive), 1)
            fresh = alive - view.exonerated
            value = (1 - fail) * (0.6 + 0.1 * math.log2(max(len(fresh), 1))) + fail * safety(
                hidden, grid, dead, chances
            )
            _, placed, stated = threat(hidden, grid, dead, chances)
            # A new identity is one of the alive cards, beside the inspector as often as any.
            beside = sum(
                p * sum(c in alive for c in block(grid, inspector)) / max(len(alive), 1)
                for inspector, p in chances.items()
            )
            # Its arrest needs luck: one of as many suspects as he cannot rule out.
            risk = fail * stated + (1 - fail) * beside / max(len(fresh), 1)
            text = (
                f"fails {percent(fail)}; the inspector arrests you on his next move: "
                f"{percent(risk)}"
            )
            return Scored(value, risk, fail * placed + (1 - fail) * beside, text)
        assert isinstance(action, act.Shift)
        board = after_shift(grid, action, dead)
        _, placed, stated = threat(hidden, board, dead, chances)
        value = safety(hidden, board, dead, chances) - 0.01
        return Scored(
            value, stated, placed, f"the inspector arrests you on his next move: {percent(stated)}"
        )

    return score


def _chosen_among(others: int, stay: float) -> float:
    """The chance of being the one picked at random among oneself and those of `others`
    that stay in (each independently, with chance `stay`)."""
    return sum(
        math.comb(others, k) * stay**k * (1 - stay) ** (others - k) / (k + 1)
        for k in range(others + 1)
    )


def _closeness(grid: Grid, a: str, b: str) -> float:
    """How soon `a` can be brought beside `b`: 1 when two apart (one shift may do), less
    when farther; 0 when beside (an arrest does it) or off the grid."""
    where = positions(grid)
    if a not in where or b not in where:
        return 0.0
    (r1, c1), (r2, c2) = where[a], where[b]
    distance = max(abs(r1 - r2), abs(c1 - c2))
    return 0.0 if distance <= 1 else 1 / (distance - 1)


def _known_theirs(info: InformationSet) -> list[str]:
    return [o.suspect for o in info.observations if isinstance(o, seen.Exonerated)]


def _without(chances: Posterior, name: str) -> dict[str, float]:
    rest = {k: v for k, v in chances.items() if k != name}
    total = sum(rest.values())
    return {k: v / total for k, v in rest.items()} if total else {}


def _split(chances: Posterior, test: Callable[[str], bool]) -> list[tuple[float, dict]]:
    """The posterior split by a yes/no answer the identity fixes: (chance, posterior) each."""
    parts = []
    for answer in (True, False):
        part = {k: v for k, v in chances.items() if test(k) == answer}
        weight = sum(part.values())
        if weight:
            parts.append((weight, {k: v / weight for k, v in part.items()}))
    return parts
