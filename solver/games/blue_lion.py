"""Blue Lion's knowledge model (rules/blue_lion.md, "Inference").

Hidden: each tile's pair of icons. Rules: the six tiles carry the six pairs, one each. Each
toss or reveal of a tile is an *event* that shows one face, and the face up at every event is a
variable (`up:<tile>@<k>`): it is a face of the tile, and a flip shows the other face, so two
consecutive events of a tile show different faces of its pair. Each observation pins its
event's face. Explanations may switch an observation off; its event is then still a flip, just
unseen. With every observation on, the faces are fixed, so worlds correspond one to one to
pair assignments. The toss is fair and independent, so every consistent assignment is equally
likely and probabilities are ratios of counts; under an opponent model (`solver.deduce(info,
model=...)`) each assignment weighs the model's chance of the opponent's moves there.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise, permutations
from typing import overload

from engines import (
    Action,
    IllegalAction,
    IncompleteInformationSet,
    InformationSet,
    InvalidAction,
    InvalidInformationSet,
    Observation,
    State,
)
from engines.blue_lion import ICONS, PAIRS, PATTERNS, SEATS, TILES, BlueLion, BlueLionState
from engines.blue_lion import observations as seen
from engines.blue_lion.material import ICON_NAMES
from engines.values import quote
from solver.deduction import Deduction
from solver.hints import Answer, Hint, percent
from solver.model import Clause, Count, Fact, Lit, Model, Var, World, member
from solver.opponent_models import ModelledWorlds
from solver.sampling import EnumeratedWorlds
from solver.validation import Checker

MODEL_HINTS = True
"""The hints read any deduction's odds, counted or weighed by an opponent model
(`solver.hints(info, model=...)`): `position` weighs each world as the deduction does. Every
seat sees the whole record here, so a model weighs every world alike and its odds are the
counting's; a model asked for (`sleuth play --model`, the notebook) is read all the same,
not refused."""

PAIR_NAME: dict[frozenset[str], str] = {
    pair: "".join(icon for icon in ICONS if icon in pair) for pair in PAIRS
}
NAME_PAIR: dict[str, frozenset[str]] = {name: pair for pair, name in PAIR_NAME.items()}
PAIR_NAMES: tuple[str, ...] = tuple(PAIR_NAME[pair] for pair in PAIRS)

ANSWER_KINDS = frozenset({"Back"})
"""The facts that make up the hidden answer (whose odds moving is news)."""
CPSAT_PARAMETERS = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "linearization_level": 0,
    "symmetry_level": 0,
}
"""The model is a few dozen clauses that CP-SAT's SAT core solves at once; presolve and its
relatives cost several times the search on every query (explanations: about 4x faster)."""

Pairs = dict[str, frozenset[str]]  # tile -> its two icons: one world, as the engine reads it


def variable(tile: str) -> str:
    return f"pair:{tile}"


def up_variable(tile: str, event: int) -> str:
    return f"up:{tile}@{event}"


def events(info: InformationSet) -> dict[str, list[tuple[int, str]]]:
    """Each tile's toss and reveals in order: (observation index, face shown)."""
    found: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for index, obs in enumerate(info.observations):
        if isinstance(obs, seen.FaceShown):
            found[obs.tile].append((index, obs.face))
    return found


def up_faces(info: InformationSet) -> dict[str, str]:
    """Each tile's face showing now: the last face seen (toss, then every reveal)."""
    up: dict[str, str] = {}
    for obs in info.observations:
        if isinstance(obs, seen.FaceShown):
            up[obs.tile] = obs.face
    return up


def back_fact(tile: str, up: str, icon: str) -> Fact:
    name = PAIR_NAME[frozenset((up, icon))]
    return Fact(
        "Back",
        (tile, icon),
        variable(tile),
        frozenset({name}),
        f"{tile}'s back is {ICON_NAMES[icon]}",
    )


def build(info: InformationSet) -> Model:
    model = Model(info)
    model.variables = [Var(variable(tile), PAIR_NAMES) for tile in TILES]
    model.constraints = [
        Count(tuple(Lit(variable(tile), name) for tile in TILES), "==", 1) for name in PAIR_NAMES
    ]
    for tile, shown in events(info).items():
        model.variables += [Var(up_variable(tile, k), ICONS) for k in range(len(shown))]
        model.constraints += _face_rules(tile, len(shown))
        for k, (index, face) in enumerate(shown):
            model.constraints.append(member(up_variable(tile, k), [face], source=index))
    up = up_faces(info)
    model.facts = [
        back_fact(tile, up[tile], icon)
        for tile in TILES
        if tile in up
        for icon in ICONS
        if icon != up[tile]
    ]
    return model


def _face_rules(tile: str, count: int) -> list[Clause]:
    """Every event shows a face of the tile, and each flip the face that was not up."""
    found = []
    for k in range(count):
        up = up_variable(tile, k)
        found += [
            Clause(tuple(Lit(variable(tile), n) for n in PAIR_NAMES if icon in n), (Lit(up, icon),))
            for icon in ICONS
        ]
        if k:
            before = up_variable(tile, k - 1)
            found += [Clause((), (Lit(before, icon), Lit(up, icon))) for icon in ICONS]
    return found


def world_set(model: Model, compiled: object) -> None:
    """None: a Blue Lion record allows a few hundred pairings at most, which the solver lists."""
    return None


def query_variables(model: Model) -> None:
    """None: every variable is a tile's back, which facts ask about anyway."""
    return None


def world_of(state: State) -> World:
    assert isinstance(state, BlueLionState)
    pairs = state.pairs()
    world = {variable(tile): PAIR_NAME[pairs[tile]] for tile in TILES}
    for tile, shown in events(state.information_set(SEATS[0])).items():
        world.update({up_variable(tile, k): face for k, (_, face) in enumerate(shown)})
    return world


def pairs_of(world: World) -> Pairs:
    return {tile: NAME_PAIR[str(world[variable(tile)])] for tile in TILES}


class Worlds(Sequence[Pairs]):
    """Consistent worlds as engine pairs, each with its weight: a blind flip's outcome is as
    likely as the weight of the worlds that lead to it, out of theirs all. Counting weighs
    every world 1, so that chances are the ratios of counts they always were."""

    def __init__(self, pairs: Sequence[Pairs], weights: Sequence[float]) -> None:
        assert len(pairs) == len(weights), "one weight per world"
        self.pairs, self.weights = list(pairs), list(weights)
        self.total = math.fsum(self.weights)

    @overload
    def __getitem__(self, index: int) -> Pairs: ...
    @overload
    def __getitem__(self, index: slice) -> list[Pairs]: ...
    def __getitem__(self, index: int | slice) -> Pairs | list[Pairs]:
        return self.pairs[index]

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[Pairs]:
        return iter(self.pairs)


def position(info: InformationSet, deduction: Deduction) -> tuple[BlueLionState, Worlds]:
    """The public position `info` describes and every consistent world, as engine pairs
    weighed as the deduction weighs them (counted, or by its opponent model).

    The returned state carries the first world's backs; search must re-bind them through
    `outcomes`, never read them.
    """
    listed = deduction.worlds
    if isinstance(listed, ModelledWorlds):
        assert listed.exact, "Blue Lion lists every state (720 pairings at most)"
        weights = listed.ratios
    else:
        assert isinstance(listed, EnumeratedWorlds), "Blue Lion's worlds are always listed"
        weights = [1.0] * len(listed.worlds)
    worlds = Worlds([pairs_of(world) for world in listed.worlds], weights)
    return _replay(info, worlds[0]), worlds


# --- validation -----------------------------------------------------------------------------


def validate(info: InformationSet) -> None:
    """Refuse what this game could not show a seat: unknown kinds, fields, tiles, faces or
    seats, actions that are not legal where they stand, anything the replay would not show.

    Faces that no pair assignment explains (a flip showing the face that was up) are left to
    the solver, which explains the contradiction.

    Raises:
        IncompleteInformationSet: a true beginning of a record that stops where the game
            still shows something (the rest of the toss, who starts, a reveal, a score, the
            end); `waiting_for` says what.
        InvalidInformationSet: naming the observation, the field and what is allowed.
    """
    check = Checker(info, seen.KINDS)
    for index, obs in enumerate(info.observations):
        check.shape(index)
        match obs:
            case seen.FaceShown():
                check.choice(index, "tile", TILES)
                check.choice(index, "face", ICONS)
            case seen.First():
                check.choice(index, "seat", SEATS)
            case seen.Act():
                check.choice(index, "seat", SEATS)
                check.text(index, "action")
            case seen.Score():
                check.choice(index, "seat", SEATS)
                check.choice(index, "faces", PATTERNS)
                check.items(index, "tiles", TILES, {3}, "tiles")
                check.choice(index, "points", sorted({p.points for p in PATTERNS.values()}))
            case seen.End():
                check.items(index, "winners", SEATS, {1, 2}, "seats")
                check.choice(index, "reason", ("target", "turn limit"))
    heads = info.observations[: len(TILES)]
    if [obs.tile if isinstance(obs, seen.Toss) else None for obs in heads] != list(
        TILES[: len(heads)]
    ):
        raise InvalidInformationSet(
            f"blue-lion: an information set starts with the tosses of {', '.join(TILES)} in "
            f"that order, not {quote([obs.kind for obs in heads])}"
        )
    if len(heads) < len(TILES):
        tile = TILES[len(heads)]
        raise IncompleteInformationSet(
            f"blue-lion: the record stops in the toss, before the toss of {tile}",
            f"the toss of {tile}",
        )
    pairs = _explaining(info)
    if pairs is not None:
        _replay(info, pairs)


def _explaining(info: InformationSet) -> Pairs | None:
    """A pair assignment showing every face seen, each flip the other face, or None."""
    shown = events(info)
    for perm in permutations(PAIRS):
        pairs = dict(zip(TILES, perm, strict=True))
        if all(_alternates(pairs[tile], [face for _, face in shown[tile]]) for tile in TILES):
            return pairs
    return None


def _alternates(pair: frozenset[str], faces: Sequence[str]) -> bool:
    return all(face in pair for face in faces) and all(a != b for a, b in pairwise(faces))


def _replay(info: InformationSet, pairs: Pairs) -> BlueLionState:
    """The game `info` records, replayed with `pairs` as the backs; every observation must be
    the one the game shows there.

    Raises:
        InvalidInformationSet: naming the first observation the game would not show.
    """
    game = BlueLion.of(info)
    tosses = {obs.tile: obs.face for obs in info.observations if isinstance(obs, seen.Toss)}
    first = info.observations[len(TILES)] if len(info.observations) > len(TILES) else None
    if first is None:
        raise IncompleteInformationSet(
            "blue-lion: the record stops after the toss, before who starts", "who starts"
        )
    if not isinstance(first, seen.First):
        raise InvalidInformationSet(
            f"blue-lion: observation {len(TILES)} must say who starts ('first') after the tosses"
        )
    chosen = game.options["first_player"]
    if chosen != "random" and first.seat != chosen:
        raise InvalidInformationSet(
            f"blue-lion: observation {len(TILES)} (first): {first.seat!r} starts, but the "
            f"option first_player is {chosen!r}"
        )
    state = game.arrange(random.Random(0), pairs, tosses, first.seat)
    checked = 0
    for index, obs in enumerate(info.observations):
        if not isinstance(obs, seen.Act) or index < state.observation_count:
            continue
        _same_so_far(info, state, checked, index)
        checked = index
        if obs.seat != state.to_move:
            raise InvalidInformationSet(
                f"blue-lion: observation {index} (act): {obs.seat} acts, but it is "
                f"{state.to_move}'s turn"
            )
        try:
            state.apply(game.parse_action(obs.action))
        except (InvalidAction, IllegalAction) as error:
            raise InvalidInformationSet(f"blue-lion: observation {index} (act): {error}") from None
    _same_so_far(info, state, checked, len(info.observations))
    if state.observation_count != len(info.observations):
        owed = _owed(game, state.recorded(len(info.observations))[0][0])
        raise IncompleteInformationSet(
            f"blue-lion: the record stops at observation {len(info.observations)}, before "
            f"{owed}, which the game shows next",
            owed,
        )
    return state


def _owed(game: BlueLion, shown: Observation) -> str:
    """What the game shows next, said without the face of a reveal (the replay's backs are
    only one explanation of the record)."""
    if isinstance(shown, seen.Reveal):
        return f"the face {shown.tile} showed when turned over"
    if isinstance(shown, seen.Score):
        return f"the score of {'-'.join(shown.faces)} ({' '.join(shown.tiles)})"
    return f"the end of the game ({game.observation_text(shown)})"


def _same_so_far(info: InformationSet, state: BlueLionState, start: int, upto: int) -> None:
    """Observations `start` to `upto` are those the replayed game showed (those before
    `start` were checked already: the log only grows)."""
    fresh, count = state.recorded(start), state.observation_count
    for index in range(start, min(upto, count)):
        shown = fresh[index - start][0]
        if info.observations[index] != shown:
            raise InvalidInformationSet(
                f"blue-lion: observation {index} ({info.observations[index].kind}) is not what "
                f"the game shows there: {state.game.describe(shown)}"
            )
    if upto > count:
        raise InvalidInformationSet(
            f"blue-lion: observation {count} ({info.observations[count].kind}) "
            "follows nothing the game did"
        )


def outcomes(
    state: BlueLionState, worlds: Worlds, action: Action
) -> list[tuple[float, BlueLionState, Worlds]]:
    """What `action` may lead to: (probability, next state, worlds still consistent).

    A blind flip is a chance node: its outcomes follow the worlds, grouped by the flipped
    tile's pair, each as likely as its worlds' share of the weight. Other actions have one
    outcome.
    """
    tile = getattr(action, "flipped_tile", None)
    if tile is None:
        child = state.clone()
        child.apply_trusted(action)
        return [(1.0, child, worlds)]
    groups: dict[frozenset[str], tuple[list[Pairs], list[float]]] = defaultdict(lambda: ([], []))
    for world, weight in zip(worlds.pairs, worlds.weights, strict=True):
        pairs, weights = groups[world[tile]]
        pairs.append(world)
        weights.append(weight)
    result = []
    for pairs, weights in groups.values():
        group = Worlds(pairs, weights)
        child = state.with_pairs(pairs[0])
        child.apply_trusted(action)
        result.append((group.total / worlds.total, child, group))
    return result


def points_gained(before: Mapping[str, int], after: BlueLionState) -> dict[str, int]:
    return {seat: after.scores[seat] - before[seat] for seat in before}


# --- hints ----------------------------------------------------------------------------------
def hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    state, worlds = position(info, deduction)
    found = _back_hints(info, deduction)
    if not state.is_over:
        found += _move_hints(state, worlds, info.seat)
    return found


def answer(info: InformationSet, deduction: Deduction) -> Answer | None:
    """The backs once every tile's is known (both faces seen, or deduced). The plan is the
    search's (`solver.search.blue_lion.hints`): the move it plays, or at the opponent's turn
    the opponent's best move and the reply to it."""
    shown = seen.faces_shown(info.observations)
    backs = []
    for tile in TILES:
        if len(shown[tile]) == 2:
            continue  # both faces seen: nothing hidden
        known = [f for f in deduction.facts if f.args[0] == tile and deduction.is_certain(f)]
        if not known:
            return None
        backs.append(f"{tile}'s is {ICON_NAMES[str(known[0].args[1])]}")
    text = (
        f"Every back is known: {'; '.join(backs)} (the other tiles have shown both faces)"
        if backs
        else "Nothing is hidden any more: every tile has shown both faces"
    )
    return Answer(Hint(text, None, 1.0, (), "answer", 5.0))


def _back_hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    shown = seen.faces_shown(info.observations)
    found = []
    for tile in TILES:
        if len(shown[tile]) == 2:
            continue  # both faces seen: known, not deduced
        facts = [fact for fact in deduction.facts if fact.args[0] == tile]
        chances = sorted(((deduction.probability(f), f) for f in facts), key=lambda x: -x[0])
        best, fact = chances[0]
        if best == 1.0:
            because = tuple(deduction.describe(deduction.explain(fact)))
            found.append(Hint(f"{fact.text} (certain)", fact, 1.0, because, "certain", 3.0))
        else:
            others = ", ".join(
                f"{ICON_NAMES[str(f.args[1])]} {percent(p)}" for p, f in chances[1:] if p
            )
            text = f"{fact.text}: {percent(best)}" + (f" (else {others})" if others else "")
            found.append(Hint(text, fact, best, (), "likely", 1.0 + best))
    return found


def _scoring(score: seen.Score) -> str:
    """A pattern scored, in words: "Pair (Lupin +1)"."""
    pattern = PATTERNS[score.faces]
    return f"{pattern.name} ({score.seat.capitalize()} +{pattern.points})"


def _move_hints(state: BlueLionState, worlds: Worlds, seat: object) -> list[Hint]:
    """The moves that may score, for the player to move: the best to play, the worst to avoid.

    Each is valued by its immediate expected net points under the posterior; the solver bot
    looks further ahead.
    """
    mover = state.to_move
    whose = "you" if mover == seat else str(mover).capitalize()
    valued = []
    for action in state.legal_actions():
        effects: dict[str, float] = defaultdict(float)
        expected = 0.0
        for chance, child, _ in outcomes(state, worlds, action):
            gained = points_gained(state.scores, child)
            expected += chance * sum(v if s == mover else -v for s, v in gained.items())
            scored = Counter(
                _scoring(obs)
                for obs, _to in child.recorded(state.observation_count)
                if isinstance(obs, seen.Score)
            )
            for what, times in scored.items():  # a pattern made twice at once is one outcome
                effects[what if times == 1 else f"{what} x{times}"] += chance
        if effects:
            made = ", ".join(f"{what} {percent(p)}" for what, p in effects.items())
            valued.append((expected, action, made))
    valued.sort(key=lambda item: -item[0])
    found = []
    good = [item for item in valued if item[0] > 0][:2]
    bad = [item for item in valued if item[0] < 0][-2:]
    for expected, action, made in good:
        text = f"{action} scores for {whose}: {made}; expected {expected:+.2f} net"
        if mover != seat:  # the opponent's chance to score: a threat, not a move of ours
            found.append(Hint(f"{whose} can score: {text}", None, None, (), "danger", 2.0))
            continue
        found.append(Hint(text, None, None, (), "move", 4.0 + expected))
    for expected, action, made in reversed(bad):
        text = f"careful: {action} risks {made}; expected {expected:+.2f} net for {whose}"
        found.append(Hint(text, None, None, (), "risk", 1.2 + expected / 100))
    return found
