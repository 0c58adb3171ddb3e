"""`solver.sample_state`: whole states that replay the seat's record exactly, drawn from the
posterior (the opponent's identity in Noir, the tile pairs in Blue Lion, unseen deck orders,
Alibi's box, deal and passes, Serial Killer's decks and others' discards, City Killer's
secrets and piles)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engines
import solver
from engines.noir import NoirState
from engines.serial_killer import SerialKillerState
from tests.conformance import draw_chance


def positions(name: str, options: dict, games: int) -> list[engines.State]:
    game, rng, found = engines.make(name, **options), random.Random(1), []
    for seed in range(games):
        state = game.new_game(seed)
        for _ in range(rng.randrange(3, 50)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        found.append(state)
    return found


def samples(name: str, seat: engines.Seat, seed: int, count: int, **options: object) -> list:
    """`count` states sampled from `seat`'s view of the first random position of `name`."""
    (state,) = positions(name, options, 1)
    info, rng = state.information_set(seat), random.Random(seed)
    return [solver.sample_state(info, rng) for _ in range(count)]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("blue-lion", {}),
        ("noir", {}),
        ("noir", {"deck": "separate", "grid": 4}),
        ("alibi", {"players": 3, "deck": "small", "end_variant": "solutions"}),
        ("alibi", {"players": 4, "deck": "small", "round_limit": 3}),
        ("serial-killer", {"players": 3, "genres": 3, "traits_per_genre": 4}),
        ("serial-killer", {"players": 5, "start_points": 40, "briefing_scope": "all"}),
        ("city-killer", {"residents": 8}),
        ("city-killer", {"identity_choice": "choose", "initial_placement": "detective"}),
    ],
)
def test_sampled_states_replay_the_record(name: str, options: dict) -> None:
    rng = random.Random(0)
    for state in positions(name, options, 3):
        for seat in state.game.seats:
            info = state.information_set(seat)
            sampled = solver.sample_state(info, rng)
            assert sampled.information_set(seat) == info
            sampled.check_invariants()


def test_noir_unseen_cards_are_shuffled() -> None:
    """The undrawn rest of the deck is not left in name order: its top card varies."""
    tops = Counter()
    for sampled in samples("noir", "killer", 2, 30):
        assert isinstance(sampled, NoirState)
        tops[sampled._deck[sampled._deck_top]] += 1
    assert len(tops) > 5


def test_serial_killer_samples_play_on_through_chance_nodes() -> None:
    """A sampled Serial Killer state replays the recorded dice as given chance outcomes, so
    the game goes on with each later roll a chance node; its decks vary between samples."""
    (state,) = positions("serial-killer", {"players": 3, "genres": 3, "traits_per_genre": 4}, 1)
    info = state.information_set(0)
    rng = random.Random(4)
    profiles = set()
    for _ in range(12):
        sampled = solver.sample_state(info, rng)
        assert isinstance(sampled, SerialKillerState)
        profiles.add(sampled.profile())
        again = sampled.game.state_from_json(sampled.to_json())
        assert again.information_set(0) == info
    assert len(profiles) > 1
    while not sampled.is_over:
        if sampled.is_chance:
            draw_chance(sampled, rng)
            assert sampled.information_set(0).observations[: len(info.observations)] == (
                info.observations
            )
        else:
            sampled.apply(rng.choice(sampled.legal_actions()))


def test_city_killer_hidden_cards_vary() -> None:
    """The killer's unseen cards (his deck, the cards under the crime scenes) are dealt
    afresh in each sample; what the detective saw him play stays."""
    decks = set()
    for sampled in samples("city-killer", "detective", 5, 10):
        assert sampled._setup is not None
        decks.add(tuple(sampled._setup.to_dict()["killer_deck"]))
    assert len(decks) > 5


def test_options_without_a_sampler_say_so() -> None:
    state = engines.make("city-killer", empty_deck="reshuffle").new_game(0)
    seat = state.game.seats[0]
    with pytest.raises(engines.ConfigError, match="no state sampler"):
        solver.sample_state(state.information_set(seat), random.Random(0))


def test_blue_lion_lists_the_deductions_worlds() -> None:
    """Blue Lion's sampler lists its worlds without a solve: the same pair assignments as
    the Deduction's, and its draws replay the record."""
    from solver.games.blue_lion import pairs_of
    from solver.sampling import EnumeratedWorlds
    from solver.states import blue_lion, sampler

    rng = random.Random(2)
    for state in positions("blue-lion", {"passing": "any-time"}, 8):
        info = state.information_set(state.game.seats[0])
        listed = [frozenset(pairs.items()) for pairs in blue_lion.worlds(info)]
        enumerated = solver.deduce(info).worlds
        assert isinstance(enumerated, EnumeratedWorlds)
        deduced = [pairs_of(world) for world in enumerated.worlds]
        assert len(set(listed)) == len(listed) == len(deduced) > 0
        assert set(listed) == {frozenset(pairs.items()) for pairs in deduced}
        draw = sampler(info)
        assert all(draw(rng).information_set(info.seat) == info for _ in range(3))
