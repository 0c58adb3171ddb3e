"""Serial Killer's hints under an opponent model (`solver.hints(info, model=...)`): under
counting exactly the hints from before they read a model (golden values), under a model the
chances of where a card lies and the race equal a brute-force sum over every listed state
weighed by the model, estimates said to be so, and an unknown model refused by name."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

import solver
from engines import ConfigError, InformationSet
from solver.games.serial_killer import world_of
from solver.games.serial_killer.counting import at_var, delta_var
from solver.games.serial_killer.hinting import chance_in, standings
from solver.games.serial_killer.position import Token, parse, public_view
from solver.games.serial_killer.race import own_candidates, seen_tokens
from solver.hints import reads_models
from solver.model import Value, World
from solver.opponent_models import ModelledWorlds, OpponentModel
from solver.states import listed_states
from solver.states import serial_killer as sk_states
from tests.serial_killer_brute_force import positions

MODELS = ("random", "heuristic")

GOLDEN_OPTIONS = {"players": 4, "genres": 7, "traits_per_genre": 6}
"""Full-size 4-player games (`positions` plays them with a policy that draws, briefs and
views the lab often)."""
GOLDEN: dict[int, list[tuple[str, float | None]]] = {
    25: [
        (
            (
                "Keep narrowing before you declare; a guess now is right <1% of the time, and "
                "your 19 dice beat ferocity 71 30% of the time"
            ),
            3.435125713947772e-05,
        ),
        (
            (
                "The decks (9 cards) run out in about 3 more rounds at the table's pace (6, 2, "
                "0 cards a round lately), ferocity growing about 5 a round; your 19 dice still "
                "beat it then 2% of the time, if you spend nothing more"
            ),
            0.019078759259082704,
        ),
        (
            (
                "The race, closest first: you (21 traits to rule out, 14 points, drew 0 "
                "lately, beats ferocity 30%); blue (15 traits to rule out, 12 points, drew 0 "
                "lately, beats ferocity 6%); green (19 traits to rule out, 2 points, drew 0 "
                "lately, beats ferocity 0%); yellow (19 traits to rule out, 0 points, drew 0 "
                "lately, beats ferocity 0%)"
            ),
            None,
        ),
        ("Buy 3 investigate: it rules out one of your candidates for 4 points", 0.25),
        ("Buy 6 lab: it likely shows nothing new for 7 points", 0.0),
        (
            ("Age band (AGE), 2 candidates equally likely (50% each): AGE.0 under 20, AGE.2 30-39"),
            0.5,
        ),
        (
            (
                "Signature (SIG), 2 candidates equally likely (50% each): SIG.1 takes a "
                "trophy, SIG.5 leaves a flower"
            ),
            0.5,
        ),
        (
            (
                "Weapon (WPN), 3 candidates equally likely (33% each): WPN.0 knife, WPN.2 "
                "garrotte, WPN.4 poison"
            ),
            0.3333333333333333,
        ),
        (
            (
                "Modus operandi (MO), 4 candidates equally likely (25% each): MO.1 home "
                "invasion, MO.2 lure, MO.4 blitz attack, MO.5 stalking"
            ),
            0.25,
        ),
        (
            (
                "Victim type (VIC), 5 candidates equally likely (20% each): VIC.0 students, "
                "VIC.1 nurses, VIC.2 night-shift workers, VIC.3 tourists, VIC.5 elderly "
                "residents"
            ),
            0.2,
        ),
        (
            (
                "Sex and household (SEX), 6 candidates equally likely (17% each): SEX.0 man "
                "alone, SEX.1 man with partner, SEX.2 man with parents, SEX.3 woman alone, "
                "SEX.4 woman with partner, SEX.5 woman with parents"
            ),
            0.16666666666666666,
        ),
        (
            (
                "Organisation (ORG), 6 candidates equally likely (17% each): ORG.0 organised, "
                "ORG.1 disorganised, ORG.2 mixed, ORG.3 visionary, ORG.4 mission-driven, ORG.5 "
                "thrill-seeker"
            ),
            0.16666666666666666,
        ),
    ],
    120: [
        (
            (
                "Do not declare yet: a declaration needs the weapon track at 10 (now 8); a "
                "guess now is right <1% of the time, and your 52 dice beat ferocity 60 100% of "
                "the time"
            ),
            1.9290123456790123e-05,
        ),
        (
            (
                "The decks (13 cards) run out in about 2 more rounds at the table's pace (7, "
                "5, 2 cards a round lately), ferocity growing about 3 a round; your 52 dice "
                "still beat it then >99% of the time, if you spend nothing more"
            ),
            0.9999999999999999,
        ),
        (
            (
                "The race, closest first: green (23 traits to rule out, 41 points, drew 0 "
                "lately); red (18 traits to rule out, 10 points, drew 2 lately, beats ferocity "
                "15%); you (27 traits to rule out, 47 points, drew 0 lately); blue (21 traits "
                "to rule out, 3 points, drew 0 lately, beats ferocity 0%)"
            ),
            None,
        ),
        (
            (
                "Buy 6 lab 1,2: it rules out about 4.0 of your candidates for 9 points, and "
                "ferocity grows 1 less at the round's end"
            ),
            0.2118767328453909,
        ),
        (
            (
                "Buy 4 briefing blue: it rules out about 3.0 of your candidates for 5 points, "
                "and ferocity grows 1 less at the round's end"
            ),
            0.16959938131099,
        ),
        (
            (
                "Buy 6 lab 1: it rules out about 3.0 of your candidates for 8 points, and "
                "ferocity grows 1 less at the round's end"
            ),
            0.16524101186092027,
        ),
        (
            (
                "Modus operandi (MO), 3 candidates equally likely (33% each): MO.0 ambush, "
                "MO.2 lure, MO.3 abduction by car"
            ),
            0.3333333333333333,
        ),
        (
            (
                "Weapon (WPN), 4 candidates equally likely (25% each): WPN.0 knife, WPN.2 "
                "garrotte, WPN.4 poison, WPN.5 bare hands"
            ),
            0.25,
        ),
        (
            (
                "Organisation (ORG), 4 candidates equally likely (25% each): ORG.0 organised, "
                "ORG.1 disorganised, ORG.3 visionary, ORG.4 mission-driven"
            ),
            0.25,
        ),
        (
            (
                "Age band (AGE), 5 candidates equally likely (20% each): AGE.1 20-29, AGE.2 "
                "30-39, AGE.3 40-49, AGE.4 50-59, AGE.5 60+"
            ),
            0.2,
        ),
        (
            (
                "Sex and household (SEX), 6 candidates equally likely (17% each): SEX.0 man "
                "alone, SEX.1 man with partner, SEX.2 man with parents, SEX.3 woman alone, "
                "SEX.4 woman with partner, SEX.5 woman with parents"
            ),
            0.16666666666666666,
        ),
        (
            (
                "Victim type (VIC), 6 candidates equally likely (17% each): VIC.0 students, "
                "VIC.1 nurses, VIC.2 night-shift workers, VIC.3 tourists, VIC.4 joggers, VIC.5 "
                "elderly residents"
            ),
            0.16666666666666666,
        ),
        (
            (
                "Signature (SIG), 6 candidates equally likely (17% each): SIG.0 leaves a note, "
                "SIG.1 takes a trophy, SIG.2 poses the body, SIG.3 marks the body, SIG.4 "
                "phones the police, SIG.5 leaves a flower"
            ),
            0.16666666666666666,
        ),
    ],
    122: [
        (
            (
                "Do not declare yet: a declaration needs the weapon track at 10 (now 9); a "
                "guess now is right <1% of the time, and your 38 dice beat ferocity 60 >99% of "
                "the time"
            ),
            0.00019290123456789865,
        ),
        (
            (
                "The decks (13 cards) run out in about 2 more rounds at the table's pace (7, "
                "5, 2 cards a round lately), ferocity growing about 3 a round; your 38 dice "
                "still beat it then >99% of the time, if you spend nothing more"
            ),
            0.9999999998056843,
        ),
        (
            (
                "The race, closest first: you (21 traits to rule out, 33 points, drew 0 "
                "lately); yellow (27 traits to rule out, 38 points, drew 0 lately); red (15 "
                "traits to rule out, 2 points, drew 2 lately, beats ferocity 0%); blue (21 "
                "traits to rule out, 1 points, drew 0 lately, beats ferocity 0%)"
            ),
            None,
        ),
        (
            (
                "Buy 6 lab: it likely shows nothing new for 7 points, and ferocity grows 1 "
                "less at the round's end"
            ),
            0.0,
        ),
        (
            (
                "Buy 6 lab 1: it likely shows nothing new for 8 points, and ferocity grows 1 "
                "less at the round's end"
            ),
            0.0,
        ),
        (
            (
                "Buy 6 lab 2: it likely shows nothing new for 8 points, and ferocity grows 1 "
                "less at the round's end"
            ),
            0.0,
        ),
        ("the killer's weapon is poison (WPN.4) (certain)", 1.0),
        (
            (
                "Modus operandi (MO), 2 candidates equally likely (50% each): MO.2 lure, MO.3 "
                "abduction by car"
            ),
            0.5,
        ),
        (
            (
                "Signature (SIG), 3 candidates equally likely (33% each): SIG.0 leaves a note, "
                "SIG.1 takes a trophy, SIG.5 leaves a flower"
            ),
            0.3333333333333333,
        ),
        (
            (
                "Age band (AGE), 4 candidates equally likely (25% each): AGE.1 20-29, AGE.2 "
                "30-39, AGE.4 50-59, AGE.5 60+"
            ),
            0.25,
        ),
        (
            (
                "Sex and household (SEX), 6 candidates equally likely (17% each): SEX.0 man "
                "alone, SEX.1 man with partner, SEX.2 man with parents, SEX.3 woman alone, "
                "SEX.4 woman with partner, SEX.5 woman with parents"
            ),
            0.16666666666666666,
        ),
        (
            (
                "Victim type (VIC), 6 candidates equally likely (17% each): VIC.0 students, "
                "VIC.1 nurses, VIC.2 night-shift workers, VIC.3 tourists, VIC.4 joggers, VIC.5 "
                "elderly residents"
            ),
            0.16666666666666666,
        ),
        (
            (
                "Organisation (ORG), 6 candidates equally likely (17% each): ORG.0 organised, "
                "ORG.1 disorganised, ORG.2 mixed, ORG.3 visionary, ORG.4 mission-driven, ORG.5 "
                "thrill-seeker"
            ),
            0.16666666666666666,
        ),
    ],
}
"""Each hint (text, probability) at the positions `positions(123, seed=5, **GOLDEN_OPTIONS)`
yields at these indices, from the hints as they were before they read a model (recorded
with that code): the seat's buys with what briefings and lab views would show, the race over
the others' discards, a certain profile."""


def _golden_positions() -> dict[int, InformationSet]:
    made = positions(max(GOLDEN) + 1, seed=5, **GOLDEN_OPTIONS)
    return {i: info for i, info in enumerate(made) if i in GOLDEN}


def test_counting_hints_are_as_before() -> None:
    for index, info in _golden_positions().items():
        found = [(h.text, h.probability) for h in solver.hints(info, search=False)]
        assert found == GOLDEN[index], index


MODEL_POSITIONS = (61, 63, 283)
"""Small positions (`positions(284, seed=13)`, 16 to 32 worlds) where a buy's looks find the
seat's candidates with chances between 0 and 1, and (63, 283) where what a rival has seen
hangs on which card another player discarded."""


def _model_positions() -> list[InformationSet]:
    made = positions(max(MODEL_POSITIONS) + 1, seed=13)
    return [info for i, info in enumerate(made) if i in MODEL_POSITIONS]


def _weighed(info: InformationSet, model: str) -> list[tuple[float, World]]:
    """Every listed state's world with its weight under `model` (summing to one)."""
    states = listed_states(info)
    assert states is not None
    weigh = OpponentModel(model, info)
    logs = [weigh.log_likelihood(state) for state in states]
    weights = [math.exp(log - max(logs)) for log in logs]
    return [(w / sum(weights), world_of(s)) for w, s in zip(weights, states, strict=True)]


def _places(info: InformationSet) -> list[frozenset[str]]:
    """Sets of places a buy looks at: each hand, the whole lab, a hand and the lab."""
    position = parse(info)
    labs = frozenset(
        where
        for plan in position.plans.values()
        for where in plan.locations(position.players)
        if where.startswith("lab:")
    )
    hands = [frozenset({f"hand:{j}"}) for j in range(position.players)]
    return [*hands, labs, hands[0] | labs]


def _token(name: Value) -> Token:
    """The token a world's `delta:` value names ("G#k")."""
    genre, _, depth = str(name).partition("#")
    return genre, int(depth)


@pytest.mark.parametrize("model", MODELS)
def test_chances_under_a_model_equal_the_weighed_sum(model: str) -> None:
    """Where an unseen card lies, and each rival's traits left and chance of a right guess
    (the race): the sums over every listed state, each weighed by the model's chance of the
    others' moves in it."""
    for info in _model_positions():
        deduction = solver.deduce(info, model=model)
        worlds = deduction.worlds
        assert isinstance(worlds, ModelledWorlds) and worlds.exact
        weighed = _weighed(info, model)
        position = parse(info)
        for cards in own_candidates(position).values():
            for card in cards:
                for places in _places(info):
                    truth = sum(w for w, world in weighed if world[at_var(card)] in places)
                    assert chance_in(worlds, card, places) == pytest.approx(truth, abs=1e-9)
        for seat, found in enumerate(standings(position, worlds)):
            if seat == position.seat:
                continue
            left: dict[str, float] = dict.fromkeys(position.plans, 0.0)
            chance = 0.0
            for w, world in weighed:
                guess = 1.0
                for genre, plan in position.plans.items():
                    delta = {
                        d.position: _token(world[delta_var(d.position)]) for d in plan.discards
                    }
                    k = plan.size - len(seen_tokens(position, plan, seat, delta))
                    left[genre] += w * k
                    guess /= k
                chance += w * guess
            assert found.candidates == pytest.approx(left, abs=1e-9)
            assert found.chance == pytest.approx(chance, abs=1e-9)
        hints = solver.hints(info, deduction, search=False)
        assert hints and not any("estimated" in h.text for h in hints)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No states listed: odds under a model come from drawn states (the deductions
    remembered with listed states forgotten before, these after)."""
    monkeypatch.setattr(sk_states, "LISTED", 0)
    solver.forget()
    yield
    solver.forget()


@pytest.mark.usefixtures("drawn")
def test_estimated_hints_say_so() -> None:
    """The profile's chances say they are estimates and under which model; the random model
    weighs every drawn state alike, so every number (the race's too) is the counting's."""
    said = " (estimated, read as random players)"
    told = 0
    for info in _model_positions():
        counted = solver.hints(info, search=False)
        modelled = solver.hints(info, search=False, model="random")
        assert not solver.deduce(info, model="random").exact
        for before, after in zip(counted, modelled, strict=True):
            assert after.text == before.text + (said if before.kind == "likely" else "")
            assert after.probability == pytest.approx(before.probability, abs=1e-12)
            told += after.text.endswith(said)
    assert told


def test_the_hints_read_a_model_beside_the_search() -> None:
    """The search's move reads its own counting deduction: the same under any model."""
    assert reads_models("serial-killer")
    views = ((info, public_view(info)) for info in positions(200, seed=11))
    info = next(info for info, view in views if view.phase == "buy" and view.current == info.seat)
    known = {h.text for h in solver.hints(info, search=False)}
    searched = {h.text for h in solver.hints(info)} - known
    assert searched and searched <= {h.text for h in solver.hints(info, model="random")}


def test_an_unknown_model_is_refused_naming_the_models() -> None:
    info = _golden_positions()[122]
    with pytest.raises(ConfigError, match=r"nonsense.*counting, random, heuristic"):
        solver.hints(info, model="nonsense")
