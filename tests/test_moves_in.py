"""`Game.moves_in`: a seat's own moves read back from its record alone (what a review has of a
game typed at the table) are exactly the decisions `Game.decisions` replays from the state:
the same moves, each with the same record before it, for every game, seat and kind of bot."""

from __future__ import annotations

import dataclasses

import pytest

import engines
import opponents
from engines import (
    Game,
    IncompleteInformationSet,
    InformationSet,
    InvalidInformationSet,
    State,
)
from engines.game import matched_move, record_before
from engines.noir import observations as noir_seen

CONFIGURATIONS = [
    ("alibi", {}),
    ("alibi", {"end_variant": "solutions", "single_card_questions": "forbidden"}),
    ("blue-lion", {}),
    ("city-killer", {}),
    ("city-killer", {"identity_choice": "choose", "initial_placement": "detective"}),
    ("noir", {}),
    ("noir", {"citizen_arrest": True, "deck": "separate", "grid": 4}),
    ("serial-killer", {}),
    ("serial-killer", {"briefing_scope": "all", "declare_timing": "pick", "genre_public": False}),
]
"""Each game at its defaults and with the options that add moves or hide more of them (an
identity chosen, passes and solutions written, citizen arrests, briefings of everyone)."""
NAMED = [name + ("-variants" if options else "") for name, options in CONFIGURATIONS]
SEEDS = range(3)


def played(game: Game, bot: str, seed: int) -> State:
    """A whole game of `bot`s, one per seat, each seeded apart."""
    state = game.new_game(seed=seed)
    bots = {seat: opponents.make(bot, game, seat, seed=10 * seed + i)
            for i, seat in enumerate(game.seats)}  # fmt: skip
    while (mover := state.to_move) is not None:
        state.apply(bots[mover].act(state.information_set(mover)))
    return state


def assert_read_back(game: Game, state: State) -> int:
    """Every seat's moves read from its record are its decisions; how many there were."""
    made = game.decisions(state)
    for seat in game.seats:
        wanted = [(info, action) for mover, info, action in made if mover == seat]
        assert game.moves_in(state.information_set(seat)) == wanted, seat
    return len(made)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("name", "options"), CONFIGURATIONS, ids=NAMED)
def test_moves_read_from_a_record_are_its_decisions(
    name: str, options: dict[str, object], seed: int, bot: str
) -> None:
    game = engines.make(name, **options)
    assert assert_read_back(game, played(game, bot, seed)) > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_serial_killer_picks_of_several_dice_and_paid_lab_views(seed: int) -> None:
    """Ended picks and lab views paying for rotated cards (random bots: the heuristic bot
    does not play picks of several dice)."""
    game = engines.make("serial-killer", dice_per_pick=2, lab_view="all-or-nothing")
    assert assert_read_back(game, played(game, "random", seed)) > 0


@pytest.mark.parametrize("name", ["blue-lion", "city-killer"])
def test_the_default_reads_by_trial_where_views_show_a_seat_its_own_moves(name: str) -> None:
    """`matched_move`, the reader of games without their own, finds the same moves."""
    game = engines.make(name)
    state = game.random_game(1)
    for seat in game.seats:
        info = state.information_set(seat)
        found = [(record_before(info, k), action) for k in range(len(info.observations))
                 if (action := matched_move(game, info, k)) is not None]  # fmt: skip
        assert found == game.moves_in(info)


def test_a_record_not_of_the_game_or_its_seat_is_refused() -> None:
    noir = engines.make("noir")
    info = noir.random_game(0).information_set("killer")
    with pytest.raises(InvalidInformationSet, match="a record of 'noir'"):
        engines.make("blue-lion").moves_in(info)
    with pytest.raises(InvalidInformationSet, match="no seat of this game"):
        noir.moves_in(dataclasses.replace(info, seat="butler"))
    with pytest.raises(InvalidInformationSet, match="options"):
        engines.make("noir", grid=4).moves_in(info)


def test_another_seats_record_is_refused_naming_the_observation() -> None:
    noir = engines.make("noir")
    state = noir.random_game(0)
    inspectors = state.information_set("inspector")
    with pytest.raises(InvalidInformationSet, match=r"observation \d+ records kill \w+ by seat"):
        noir.moves_in(dataclasses.replace(inspectors, seat="killer"))
    killers = state.information_set("killer")
    with pytest.raises(InvalidInformationSet, match="the identity he chose"):
        noir.moves_in(dataclasses.replace(killers, seat="inspector"))


def test_a_move_out_of_turn_is_refused() -> None:
    blue_lion = engines.make("blue-lion")
    info = blue_lion.random_game(0).information_set("lupin")
    first = next(i for i, obs in enumerate(info.observations) if obs.kind == "act")
    seat = info.observations[first]["seat"]
    other = "fujiko" if seat == "lupin" else "lupin"
    observations = list(info.observations)
    observations[first] = dataclasses.replace(observations[first], seat=other)
    record = InformationSet(info.game, info.options, other, tuple(observations))
    with pytest.raises(InvalidInformationSet, match=f"observation {first} .* {seat!r} to move"):
        blue_lion.moves_in(record)


def test_a_record_cut_inside_a_move_waits_for_its_choice() -> None:
    noir = engines.make("noir")
    info = noir.random_game(0).information_set("inspector")
    chose = next(i for i, obs in enumerate(info.observations)
                 if isinstance(obs, noir_seen.ChoseIdentity))  # fmt: skip
    cut = record_before(info, chose + 1)
    with pytest.raises(IncompleteInformationSet) as caught:
        noir.moves_in(cut)
    assert caught.value.waiting_for == "the identity he chose"
    assert noir.moves_in(record_before(info, chose + 2))[-1][1] == noir.parse_action(
        f"identity {info.observations[chose + 1]['suspect']}"
    )
