"""Serial Killer's hints: the profile's candidates, the chance a declaration now is right,
the exact odds of out-rolling ferocity, what each die in the pool is worth, the race, and
when to declare.

They read any deduction: its counted worlds (exact), or its worlds weighed by an opponent
model (`solver.deduce(info, model=...)`), through `chance_in` for where a card lies and
`standings` for the race. The chance a declaration now is right stays the counting's
(`declaration_chance`).
"""

from __future__ import annotations

from math import log2, prod
from typing import TYPE_CHECKING

from engines import InformationSet, Observation
from engines.serial_killer import COLOURS, WEAPON_MAX, SerialKillerState
from engines.serial_killer import actions as act
from engines.serial_killer.observations import Draw
from solver.games.serial_killer.counting import CountedWorlds, at_var, delta_var
from solver.games.serial_killer.model import PROFILE, place
from solver.games.serial_killer.pace import Pace, pace_of
from solver.games.serial_killer.position import (
    GenrePlan,
    Position,
    Token,
    parse,
    public_view,
    token_name,
)
from solver.games.serial_killer.race import (
    Progress,
    own_candidates,
    progress,
    roll_chance,
    seen_tokens,
)
from solver.hints import Answer, Hint, percent
from solver.model import Fact, World
from solver.opponent_models import ModelledWorlds

if TYPE_CHECKING:
    from solver.deduction import Deduction


def view_of(info: InformationSet) -> SerialKillerState:
    """The public position `info` describes (shared: callers read it, never change it)."""
    return public_view(info)


Worlds = CountedWorlds | ModelledWorlds
"""A Serial Killer deduction's worlds: counted (exact), or weighed by an opponent model."""


def worlds_of(deduction: Deduction) -> Worlds:
    worlds = deduction.worlds
    assert isinstance(worlds, CountedWorlds | ModelledWorlds)
    return worlds


def hints(info: InformationSet, deduction: Deduction) -> list[Hint]:
    position = parse(info)
    worlds = worlds_of(deduction)
    view = view_of(info)
    found = profile_hints(position, deduction)
    found += declaration_hints(position, view)
    if not view.is_over:
        pace = pace_of(info.observations, int(view.game.options["start_ferocity"]))
        found += dice_hints(position, worlds, view)
        found += race_hints(position, worlds, view, pace)
        found += outlook_hints(position, view, pace)
    return found


def answer(info: InformationSet, deduction: Deduction) -> Answer | None:
    """The profile once every genre is down to one trait, and the plan: declare it at the
    next declaration step the seat is eligible for (the weapon track at 10, a round without
    buying), while its roll still beats ferocity."""
    position = parse(info)
    candidates = own_candidates(position)
    if any(len(cards) != 1 for cards in candidates.values()):
        return None
    parts = position.game.parts
    traits = "; ".join(f"{c[0]} ({parts.trait_name(c[0])})" for c in candidates.values())
    hint = Hint(f"The profile is certain: {traits}", None, 1.0, (), "answer", 5.0)
    view = view_of(info)
    me = info.seat
    assert isinstance(me, int)
    if view.is_over or view.seq[me] is not None:
        return Answer(hint)
    roll = roll_chance(view.dice_for(me), view.ferocity)
    if view.weapon < WEAPON_MAX:
        plan = (
            f"Declare it once the weapon track reaches {WEAPON_MAX} (now {view.weapon}): "
            f"buy weapon dice, then pass a whole round; your roll beats ferocity "
            f"{view.ferocity} with chance {percent(roll)} now"
        )
    else:
        plan = (
            f"Declare it at this round's declaration step (buy nothing more this round): "
            f"your roll beats ferocity {view.ferocity} with chance {percent(roll)}"
        )
    return Answer(hint, plan)


def profile_hints(position: Position, deduction: Deduction) -> list[Hint]:
    """Per genre: the profile's candidates with their chances (certain when one is left),
    said to be estimated when they are (odds under an opponent model from drawn worlds)."""
    found = []
    parts = position.game.parts
    model = deduction.opponent_model
    estimated = "" if deduction.exact else f" (estimated, read as {model} players)"
    for genre, cards in own_candidates(position).items():
        facts = [f for f in deduction.facts if f.kind == PROFILE and f.args[0] == genre]
        if len(cards) == 1:
            fact = next(f for f in facts if f.args[1] == cards[0])
            because = tuple(deduction.describe(seen_because(position, genre, deduction.info)))
            found.append(Hint(f"{fact.text} (certain)", fact, 1.0, because, "certain", 3.0))
            continue
        chances = sorted(
            ((deduction.probability(f), f) for f in facts if f.args[1] in cards),
            key=lambda pair: -pair[0],
        )
        even = chances[0][0] - chances[-1][0] < 0.005
        listed = ", ".join(
            f"{f.args[1]} {parts.trait_name(str(f.args[1]))}" + ("" if even else f" {percent(p)}")
            for p, f in chances
        )
        name = parts.by_genre[genre].name.capitalize()
        found.append(
            Hint(
                f"{name} ({genre}), {len(cards)} candidates"
                + (f" equally likely ({percent(chances[0][0])} each): " if even else ": ")
                + listed
                + estimated,
                chances[0][1],
                chances[0][0],
                (),
                "likely",
                1.0 + chances[0][0],
            )
        )
    return found


def seen_because(position: Position, genre: str, info: InformationSet) -> list[Observation]:
    """Why the seat is certain of `genre`: where it first saw each other trait of it (a
    draw, a discard, a briefing, a lab view) and the draw that left the deck with only its
    undrawable card. These observations imply the profile's trait (the others are seen and
    drawn cards never return), without a solve."""
    plan = position.plans[genre]
    observations = info.observations
    first: dict[str, int] = {}

    def saw(card: str, source: int) -> None:
        if card != plan.revealed and (card not in first or source < first[card]):
            first[card] = source

    for token, (card, source) in plan.pins.items():
        if token != plan.bottom:
            saw(card, source)
    for check in plan.hand_checks:
        for card in check.cards:
            saw(card, check.source)
    for lab in plan.lab_checks:
        saw(lab.card, lab.source)
    draws = [
        i for i, obs in enumerate(observations) if isinstance(obs, Draw) and obs.genre == genre
    ]
    sources = set(first.values()) | set(draws[-1:])
    return [observations[i] for i in sorted(sources)]


def declaration_chance(position: Position) -> float:
    """The chance that declaring one candidate per genre now is right: prod 1/|Cand_g|.

    That is the counting's chance: to it a genre's candidates are alike (no observation names
    a trait the seat never saw, so swapping two gives another world as likely). Under an
    opponent model it stays so: the model could tell candidates apart only through a bot
    whose moves hang on which trait it holds, and the profile hints show the model's odds of
    each candidate."""
    return 1 / prod(len(c) for c in own_candidates(position).values())


def declaration_hints(position: Position, view: SerialKillerState) -> list[Hint]:
    """When to declare, with the two chances it rests on: that a guess now is right, and
    that the seat's dice beat ferocity."""
    me = position.seat
    right = declaration_chance(position)
    dice = view.dice_for(me)
    roll = roll_chance(dice, view.ferocity)
    odds = (
        f"a guess now is right {percent(right)} of the time, and your {dice} dice beat "
        f"ferocity {view.ferocity} {percent(roll)} of the time"
    )
    if view.seq[me] is not None or view.is_over:
        return [Hint(odds[0].upper() + odds[1:], None, right * roll, (), "suggestion", 2.5)]
    text = f"{when_to_declare(position, view)}; {odds}"
    return [Hint(text, None, right * roll, (), "suggestion", 2.5)]


def when_to_declare(position: Position, view: SerialKillerState) -> str:
    """Stop buying and declare when the profile is certain (or nearly out of cards) and the
    roll still reaches; wait while buying still narrows it cheaply."""
    me = position.seat
    right = declaration_chance(position)
    roll = roll_chance(view.dice_for(me), view.ferocity)
    if view.weapon < WEAPON_MAX:
        return (
            f"Do not declare yet: a declaration needs the weapon track at {WEAPON_MAX} "
            f"(now {view.weapon})"
        )
    if right == 1:
        return "Your profile is certain: buy nothing this round and declare"
    falling = roll_chance(view.dice_for(me) - 4, view.ferocity + 3)
    if roll > 0.9 and falling < 0.5:
        return "Declare soon: your roll fades as you spend"
    return "Keep narrowing before you declare"


def dice_hints(position: Position, worlds: Worlds, view: SerialKillerState) -> list[Hint]:
    """What each buy narrows (expected new traits seen, in bits of the profile) per point,
    and how much ferocity buying the die saves."""
    me = position.seat
    if view.phase != "buy" or view.current != me:
        return []
    candidates = own_candidates(position)
    unused = sum(face * k for face, k in enumerate(view.pool, 1))
    found = []
    for action in view.legal_actions():
        told = information(position, worlds, view, action, candidates)
        if told is None:
            continue
        gain, shown = told
        cost = view.cost(me, action)
        face = act.face_of(action) or 0
        saved = unused // 10 - (unused - face) // 10
        text = f"{str(action).capitalize()}: {ruled_out(shown)} for {cost} points"
        if saved:
            text += f", and ferocity grows {saved} less at the round's end"
        because = (f"about {gain:.2f} bits of the profile ({gain / cost:.2f} a point)",)
        found.append(Hint(text, None, gain / cost, because, "suggestion", 2.0 + gain / cost / 10))
    return sorted(found, key=lambda h: -h.score)[:3]


def ruled_out(candidates: float) -> str:
    """The candidates a buy is expected to rule out, in words."""
    if candidates < 0.05:
        return "it likely shows nothing new"
    if abs(candidates - 1) < 0.05:
        return "it rules out one of your candidates"
    return f"it rules out about {candidates:.1f} of your candidates"


def information(
    position: Position,
    worlds: Worlds,
    view: SerialKillerState,
    action: object,
    candidates: dict[str, list[str]],
) -> tuple[float, float] | None:
    """Expected bits a buy removes from the profile's uncertainty (sum of log2 |Cand_g|),
    and the candidates it is expected to rule out: a draw always shows a new trait of its
    genre; a briefing or a lab view shows each unseen card there with the chance `worlds`
    give it (`chance_in`)."""
    me = position.seat
    if isinstance(action, act.Investigate):
        genre = view.deck_at[view.pawn[me] or 0]
        k = len(candidates[genre])
        return (log2(k) - log2(k - 1), 1.0) if k > 1 else (0.0, 0.0)
    places: list[str] = []
    if isinstance(action, act.Briefing):
        targets = [action.target] if action.target is not None else view.colocated(me)
        places = [f"hand:{t}" for t in targets]
    elif isinstance(action, act.Lab):
        shown = [p + 1 for p, turned in enumerate(view.rotated) if not turned]
        places = [f"lab:{p}" for p in {*shown, *action.positions}]
    else:
        return None
    bits = ruled = 0.0
    for cards in candidates.values():
        k = len(cards)
        if k == 1:
            continue
        expected = sum(chance_in(worlds, card, frozenset(places)) for card in cards)
        bits += log2(k) - log2(max(k - expected, 1))
        ruled += min(expected, k - 1)
    return bits, ruled


def chance_in(worlds: Worlds, card: str, places: frozenset[str]) -> float:
    """The chance `card` lies in one of `places` (an `at:` variable's values): the counted
    worlds' exact ratio, or the weighed worlds' odds of the fact that says so."""
    if isinstance(worlds, CountedWorlds):
        inside, total = worlds.genre_count(at_var(card), places)
        return inside / total if total else 0.0
    return worlds.probability(in_places(card, places))


def in_places(card: str, places: frozenset[str]) -> Fact:
    """The fact that `card` lies in one of `places`, over its `at:` variable as the model's
    `At` facts are."""
    where = sorted(places)
    text = f"{card} is " + " or ".join(place(p) for p in where)
    return Fact("At", (card, *where), at_var(card), places, text)


def standings(position: Position, worlds: Worlds) -> list[Progress]:
    """Every player's place in the race (`race.progress`) under `worlds`' odds: the counted
    worlds' exact expectations over the others' discard choices, or under an opponent model
    the same expectations over the weighed worlds (whose discards the model weighs too)."""
    if isinstance(worlds, CountedWorlds):
        return [progress(position, worlds, seat) for seat in range(position.players)]
    counted = CountedWorlds(position)
    return [
        weighed_progress(position, worlds, progress(position, counted, seat))
        for seat in range(position.players)
    ]


def weighed_progress(position: Position, worlds: ModelledWorlds, counted: Progress) -> Progress:
    """`counted` (a player's progress under the counting odds) read over the weighed worlds:
    per world, the traits of each genre the player has not seen and the chance a guess at
    them is right."""
    seat = counted.seat
    if seat == position.seat:
        return counted  # the seat's own candidates are what it saw: the same in every world
    genres = list(position.plans)
    rows = []
    for world in worlds.worlds:
        left = [
            plan.size - len(seen_tokens(position, plan, seat, discarded(plan, world)))
            for plan in position.plans.values()
        ]
        rows.append([*left, *(k == 1 for k in left), prod(1 / k for k in left)])
    start = [
        *(counted.candidates[g] for g in genres),
        *(counted.certain[g] for g in genres),
        counted.chance,
    ]
    means = worlds.means(rows, start)
    n = len(genres)
    return Progress(
        seat,
        dict(zip(genres, means[:n], strict=True)),
        dict(zip(genres, means[n : 2 * n], strict=True)),
        means[-1],
    )


def discarded(plan: GenrePlan, world: World) -> dict[int, Token]:
    """The token each other player's discard of the genre put in the lab, in `world`."""
    found = {}
    for d in plan.discards:
        name = world[delta_var(d.position)]
        found[d.position] = next(t for t in d.domain if token_name(t) == name)
    return found


def race_hints(
    position: Position, worlds: Worlds, view: SerialKillerState, pace: Pace
) -> list[Hint]:
    """The race table: every player's points, cards drawn lately (their pace), and, until
    they declare, the traits they have left to rule out, the chance their declaration now
    would be right and the chance their roll reaches ferocity; closest first."""
    rows = []
    for seat, mine in enumerate(standings(position, worlds)):
        left = sum(mine.candidates.values()) - len(mine.candidates)
        roll = roll_chance(view.dice_for(seat), view.ferocity)
        name = "you" if seat == position.seat else COLOURS[seat]
        drew = pace.lately(seat)
        where = f"{view.points_left[seat]} points, drew {drew} lately"
        if view.seq[seat] is not None:
            rows.append((-1.0, f"{name} declared (#{view.seq[seat]}; {where})"))
            continue
        said = [f"{round(left)} traits to rule out", where]
        if mine.chance >= 0.01:
            said.append(f"a guess right {percent(mine.chance)}")
        if roll < 0.95:
            said.append(f"beats ferocity {percent(roll)}")
        rows.append((mine.chance * roll, f"{name} ({', '.join(said)})"))
    rows.sort(key=lambda row: -row[0])
    text = "The race, closest first: " + "; ".join(text for _, text in rows)
    because = (
        "cards drawn lately are this round's and the last's; a guess is the player's best "
        "declaration now, right with the chance shown; 'beats ferocity' is the roll's chance "
        "with the player's dice now",
    )
    return [Hint(text, None, None, because, "suggestion", 2.2)]


def outlook_hints(position: Position, view: SerialKillerState, pace: Pace) -> list[Hint]:
    """Whether the decks will run out while the seat's roll still reaches ferocity, at the
    table's recent pace (draws a round, ferocity's growth a round): the question behind
    every choice between drawing and waiting."""
    me = position.seat
    if view.final_round or view.seq[me] is not None or pace.growth is None:
        return []
    cards, dice, growth = view.cards_left(), view.dice_for(me), pace.growth
    recent = ", ".join(str(r.drawn) for r in pace.played)
    chances = pace.runs_out(cards)
    if sum(chances) < 0.01:
        later = roll_chance(dice, round(view.ferocity + 2 * growth))
        text = (
            f"The decks stand still: {cards} cards left and the table drew {recent} in its "
            f"last rounds, while ferocity grows about {growth:.0f} a round (your roll beats "
            f"it {percent(roll_chance(dice, view.ferocity))} now, {percent(later)} in two "
            "rounds): the game is judged only when the decks run out, so somebody must draw"
        )
        return [Hint(text, None, 0.0, (), "suggestion", 2.3)]
    rounds = sum(r * p for r, p in enumerate(chances)) / sum(chances)
    when = "this round" if rounds < 0.5 else f"in about {rounds:.0f} more round"
    when += "s" if rounds >= 1.5 else ""
    outlook = pace.outlook(dice, view.ferocity, cards) or 0.0
    text = (
        f"The decks ({cards} cards) run out {when} at the table's pace ({recent} cards a "
        f"round lately), ferocity growing about {growth:.0f} a round; your {dice} dice still "
        f"beat it then {percent(outlook)} of the time, if you spend nothing more"
    )
    return [Hint(text, None, outlook, (), "suggestion", 2.3)]
