"""Serial Killer's sampled states: every deck's order and the tokens others discarded are a
world of the Deduction, with the recorded dice given as chance outcomes."""

from __future__ import annotations

import random
from collections.abc import Hashable

from engines import Action, InformationSet, InvalidState, Observation, State
from engines.serial_killer import Declare, Discard, SerialKiller, SerialKillerState
from engines.serial_killer import observations as seen
from engines.serial_killer.game import action_of
from solver.deduction import Deduction, deduce
from solver.games.serial_killer.counting import CountedWorlds, delta_var, tok_var
from solver.model import World

LISTED = 2_000
"""The most consistent states `states` lists (small test-scale games; a full-size game's
worlds are far more)."""


def sample(info: InformationSet, d: Deduction, rng: random.Random) -> State:
    """Every deck's order from a world of the Deduction (the trait of each token), with the
    tokens others discarded; the dice in each roll's counts in a uniform order; the profile
    another player declared as the end revealed it, else uniform (nothing public depends on
    it before the end). The chance outcomes are given, so play on draws chance nodes."""
    (world,) = d.sample(1, seed=rng.randrange(2**32))
    return _state_of(info, world, rng)


def veiled(reader: InformationSet, action: Action) -> Hashable | None:
    """Another player's declared profile is veiled until the end shows it (`_profile` draws
    it uniformly): an opponent model weighs the move by its chance of declaring at all."""
    if isinstance(action, Declare) and not any(
        isinstance(obs, seen.GameEnd) for obs in reader.observations
    ):
        return "declaration"
    return None


def states(info: InformationSet) -> list[State] | None:
    """A state for every consistent world (deck orders and others' discards), when there are
    at most LISTED: what no seat sees (each roll's dice order, a declared profile before the
    end) drawn once, with a fixed seed."""
    worlds = deduce(info).worlds
    assert isinstance(worlds, CountedWorlds)
    listed = worlds.listed(LISTED)
    if listed is None:
        return None
    return [_state_of(info, world, random.Random(0)) for world in listed]


def _state_of(info: InformationSet, world: World, rng: random.Random) -> State:
    game = info.make_game()
    assert isinstance(game, SerialKiller) and isinstance(info.seat, int)
    observations, me = info.observations, info.seat
    decks = {
        g.id: [_card_of(world, f"{g.id}#{k}") for k in range(len(g.cards))]
        for g in game.parts.genres
    }
    setup = observations[0]
    assert isinstance(setup, seen.Start)
    districts = {g: district for g, district, _ in setup.decks}
    state = game.arrange(random.Random(0), decks, districts, setup.first_player)
    state._given, revealed = _chance_outcomes(observations, rng)
    mine = iter(obs.card for obs in observations if isinstance(obs, seen.SeeDiscard))
    for index, obs in enumerate(observations):
        action = action_of(state, obs)
        match obs:  # the action of a discard or a declaration, which others do not see
            case seen.LabPlace(seat=seat, position=position):
                action = Discard(
                    next(mine) if seat == me else _card_of(world, str(world[delta_var(position)]))
                )
            case seen.Attempt(seat=seat):
                before = observations[index - 1] if index else None
                if seat == me and isinstance(before, seen.Declaration):
                    action = Declare(tuple(before.profile))
                else:
                    action = Declare(_profile(game, state, seat, revealed, rng))
        if action is not None:
            state.apply_trusted(action)
    if state.information_set(me) != info:
        raise InvalidState("serial-killer: the sampled state does not replay the record")
    return state


def _card_of(world: World, token: str) -> str:
    """The card of `token` (named `genre#depth`) in `world`."""
    genre, _, depth = token.partition("#")
    return str(world[tok_var((genre, int(depth)))])


def _chance_outcomes(
    observations: tuple[Observation, ...], rng: random.Random
) -> tuple[list[object], dict[int, tuple[str, ...]]]:
    """The chance outcomes the record shows, in order (each roll's dice in a uniform order),
    and the profile the end revealed of each player who declared."""
    draws: list[object] = []
    revealed: dict[int, tuple[str, ...]] = {}
    for obs in observations:
        match obs:
            case seen.Roll(counts=counts):
                faces = [f for f, k in enumerate(counts, 1) for _ in range(k)]
                rng.shuffle(faces)
                draws += faces
            case seen.Relocated(district=district):
                draws.append(district)
            case seen.Pollution(die=die):
                draws.append(die)
            case seen.Attempt(total=total):
                draws.append(total)
            case seen.GameEnd(declarations=declarations):
                revealed = {seat: tuple(profile) for seat, _, profile in declarations}
    return draws, revealed


def _profile(
    game: SerialKiller,
    state: SerialKillerState,
    seat: int,
    revealed: dict[int, tuple[str, ...]],
    rng: random.Random,
) -> tuple[str, ...]:
    """The profile another player declares: the one the end revealed while the player has
    not declared before, else one card of each genre at random."""
    profile = revealed.get(seat)
    if profile is None or state.seq[seat] is not None:
        profile = tuple(rng.choice(g.cards) for g in game.parts.genres)
    return profile
