"""Blue Lion's knowledge model (rules/blue_lion.md, "Inference").

Hidden: each tile's pair of icons. Rules: the six tiles carry the six pairs, one each. Each
toss or reveal says the tile carries that face. The toss is fair and independent, so every
consistent assignment is equally likely and probabilities are ratios of counts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from engines import Action, InformationSet, State
from engines.blue_lion import ICONS, PAIRS, PATTERNS, TILES, BlueLion, BlueLionState
from engines.blue_lion.rules import ICON_NAMES
from solver.deduction import Deduction
from solver.hints import Hint, percent
from solver.model import Count, Fact, Lit, Model, Var, World, member

PAIR_NAME: dict[frozenset[str], str] = {
    pair: "".join(icon for icon in ICONS if icon in pair) for pair in PAIRS
}
NAME_PAIR: dict[str, frozenset[str]] = {name: pair for pair, name in PAIR_NAME.items()}
PAIR_NAMES: tuple[str, ...] = tuple(PAIR_NAME[pair] for pair in PAIRS)

Pairs = dict[str, frozenset[str]]  # tile -> its two icons: one world, as the engine reads it


def variable(tile: str) -> str:
    return f"pair:{tile}"


def up_faces(info: InformationSet) -> dict[str, str]:
    """Each tile's face showing now: the last face seen (toss, then every reveal)."""
    up: dict[str, str] = {}
    for obs in info.observations:
        if obs.kind in ("toss", "reveal"):
            up[obs["tile"]] = obs["face"]
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
    for index, obs in enumerate(info.observations):
        if obs.kind in ("toss", "reveal"):
            names = [name for name in PAIR_NAMES if obs["face"] in name]
            model.constraints.append(member(variable(obs["tile"]), names, source=index))
    up = up_faces(info)
    model.facts = [
        back_fact(tile, up[tile], icon)
        for tile in TILES
        if tile in up
        for icon in ICONS
        if icon != up[tile]
    ]
    return model


def world_of(state: State) -> World:
    assert isinstance(state, BlueLionState)
    return {variable(tile): PAIR_NAME[state._pairs[tile]] for tile in TILES}


def pairs_of(world: World) -> Pairs:
    return {tile: NAME_PAIR[world[variable(tile)]] for tile in TILES}


def position(info: InformationSet, deduction: Deduction) -> tuple[BlueLionState, list[Pairs]]:
    """The public position `info` describes and every consistent world, as engine pairs.

    The returned state carries the first world's backs; search must re-bind them through
    `outcomes`, never read them.
    """
    worlds = [pairs_of(world) for world in deduction.worlds.worlds]
    game = info.make_game()
    assert isinstance(game, BlueLion)
    return game.reconstruct(info, worlds[0]), worlds


def outcomes(
    state: BlueLionState, worlds: Sequence[Pairs], action: Action
) -> list[tuple[float, BlueLionState, list[Pairs]]]:
    """What `action` may lead to: (probability, next state, worlds still consistent).

    A blind flip is a chance node: its outcomes follow the worlds, grouped by the flipped
    tile's pair (every world is equally likely). Other actions have one outcome.
    """
    tile = getattr(action, "flipped_tile", None)
    if tile is None:
        child = state.clone()
        child.apply_trusted(action)
        return [(1.0, child, list(worlds))]
    groups: dict[frozenset[str], list[Pairs]] = defaultdict(list)
    for world in worlds:
        groups[world[tile]].append(world)
    result = []
    for group in groups.values():
        child = state.with_pairs(group[0])
        child.apply_trusted(action)
        result.append((len(group) / len(worlds), child, group))
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


def _back_hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    seen: dict[str, set[str]] = defaultdict(set)
    for obs in info.observations:
        if obs.kind in ("toss", "reveal"):
            seen[obs["tile"]].add(obs["face"])
    found = []
    for tile in TILES:
        if len(seen[tile]) == 2:
            continue  # both faces seen: known, not deduced
        facts = [fact for fact in deduction.facts if fact.args[0] == tile]
        chances = sorted(((deduction.probability(f), f) for f in facts), key=lambda x: -x[0])
        best, fact = chances[0]
        if best == 1.0:
            because = tuple(deduction.describe(deduction.explain(fact)))
            found.append(Hint(f"{fact.text} (certain)", fact, 1.0, because, "certain", 3.0))
        else:
            others = ", ".join(f"{ICON_NAMES[f.args[1]]} {percent(p)}" for p, f in chances[1:] if p)
            text = f"{fact.text}: {percent(best)}" + (f" (else {others})" if others else "")
            found.append(Hint(text, fact, best, (), "likely", 1.0 + best))
    return found


def _move_hints(state: BlueLionState, worlds: Sequence[Pairs], seat: object) -> list[Hint]:
    """The moves that may score, for the player to move: the best to play, the worst to avoid.

    Each is valued by its immediate expected net points under the posterior; the solver bot
    looks further ahead.
    """
    mover = state.to_move
    whose = "you" if mover == seat else mover.capitalize()
    valued = []
    for action in state.legal_actions():
        effects: dict[str, float] = defaultdict(float)
        expected = 0.0
        for chance, child, _ in outcomes(state, worlds, action):
            gained = points_gained(state.scores, child)
            expected += chance * sum(v if s == mover else -v for s, v in gained.items())
            for obs, _to in child._log[len(state._log) :]:
                if obs.kind == "score":
                    pattern = PATTERNS[obs["faces"]]
                    effects[f"{pattern.name} ({obs['seat'].capitalize()} +{pattern.points})"] += (
                        chance
                    )
        if effects:
            made = ", ".join(f"{what} {percent(p)}" for what, p in effects.items())
            valued.append((expected, action, made))
    valued.sort(key=lambda item: -item[0])
    found = []
    good = [item for item in valued if item[0] > 0][:2]
    bad = [item for item in valued if item[0] < 0][-2:]
    for expected, action, made in good:
        text = f"{action} scores for {whose}: {made}; expected {expected:+.2f} net"
        found.append(Hint(text, None, None, (), "move", 4.0 + expected))
    for expected, action, made in reversed(bad):
        text = f"careful: {action} risks {made}; expected {expected:+.2f} net for {whose}"
        found.append(Hint(text, None, None, (), "risk", 1.2 + expected / 100))
    return found
