"""Whole states drawn from a seat's posterior: `sample_state(info, rng)`.

A determinization for search (ISMCTS): a full `State` that agrees with everything the seat
saw (its information set replays exactly) and whose hidden part is drawn from the
Deduction's posterior. Blue Lion's hidden part is the tile pairs, a world of the Deduction;
Alibi's the box, the deal and the passes (a world of the Deduction: exact, or a record of its
Markov chain beyond exact counting), with others' pending choices drawn uniformly;
Noir's is the opponent's identity (a world of the Deduction) and the order of the cards the
seat never saw, uniform among the orders that replay the same record (drawn by rejection:
a uniform permutation of the unseen cards, kept when the record replays). Serial Killer's is
every deck's order and the tokens others discarded (a world of the Deduction), with the
recorded dice given as chance outcomes; City Killer's the killer's secrets (a world) and
the piles read slot by slot from the record.

Each game's sampler is the module here named as its engine's package (engines.game_module),
providing what `StateSampler` declares.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import engines
from engines import Action, ConfigError, InformationSet, State
from solver.deduction import Deduction, deduce


class StateSampler(Protocol):
    """What a game's state-sampler module provides."""

    def sample(self, info: InformationSet, deduction: Deduction, rng: random.Random) -> State:
        """A whole state that replays `info` exactly, its hidden part drawn from `deduction`
        (`solver.deduce(info)`)."""


@runtime_checkable
class DirectSampler(Protocol):
    """A sampler module that also draws an information set's states without a Deduction
    (Blue Lion lists its consistent worlds itself: `deduce`'s checks and solve were most of
    a search move's fixed cost)."""

    def sampler(self, info: InformationSet) -> Callable[[random.Random], State]:
        """Draws from the same posterior as `sample`, for an information set the engine
        gave (not validated); what every draw shares is made once."""


@runtime_checkable
class ListingSampler(Protocol):
    """A sampler module that lists every consistent whole state when they are few (Blue
    Lion), so that odds weighed by an opponent model can be exact."""

    def states(self, info: InformationSet) -> list[State] | None:
        """Every whole state that replays `info`, each as likely as the others under the
        game's prior; None when they are too many to list."""


@runtime_checkable
class VeilingSampler(Protocol):
    """A sampler module whose states hold other seats' choices that the seat never saw and
    that are no part of a world (Serial Killer's declared profiles before the end): it draws
    them uniformly, and an opponent model weighs such a move by its whole kind."""

    def veiled(self, reader: InformationSet, action: Action) -> Hashable | None:
        """The kind of `action` (another seat's move) when its content is veiled from the
        seat of `reader` and drawn by the sampler, else None."""


if TYPE_CHECKING:  # mypy checks that every sampler module provides what `StateSampler` declares
    from solver.states import alibi, blue_lion, city_killer, noir, serial_killer

    _SAMPLERS: tuple[StateSampler, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)


def _sampler(game: str) -> StateSampler | None:
    return cast(StateSampler | None, engines.game_module(game, "solver.states"))


def has_sampler(game: str) -> bool:
    """Whether `sample_state` can draw states of `game`."""
    return _sampler(game) is not None


def sample_state(
    info: InformationSet, rng: random.Random, deduction: Deduction | None = None
) -> State:
    """A whole state consistent with `info`, drawn from the seat's posterior (`deduction`,
    when given, is `solver.deduce(info)` made once for many samples).

    Raises:
        ConfigError: the game has no state sampler.
        solver.Inconsistent: `info` contradicts itself.
    """
    return _required(info.game).sample(info, deduction or deduce(info), rng)


def sampler(info: InformationSet) -> Callable[[random.Random], State]:
    """`sample_state(info, rng)` for many draws of one information set (a search's move),
    with what the draws share made once: the Deduction, or a game's own list of worlds.

    Raises:
        ConfigError: the game has no state sampler.
        solver.Inconsistent: `info` contradicts itself.
    """
    module = _required(info.game)
    if isinstance(module, DirectSampler):
        return module.sampler(info)
    deduction = deduce(info)
    return lambda rng: module.sample(info, deduction, rng)


def listed_states(info: InformationSet) -> list[State] | None:
    """Every whole state consistent with `info`, when its game lists them and they are few
    (each as likely as another under the prior); None otherwise."""
    module = _sampler(info.game)
    return module.states(info) if isinstance(module, ListingSampler) else None


def veil(reader: InformationSet) -> Callable[[Action], Hashable | None]:
    """For another seat's move in a state drawn for `reader`: the kind of a move whose
    content `reader`'s seat never saw and no world holds (`VeilingSampler`), else None."""
    module = _sampler(reader.game)
    if isinstance(module, VeilingSampler):
        return functools.partial(module.veiled, reader)
    return lambda action: None


def _required(game: str) -> StateSampler:
    found = _sampler(game)
    if found is None:
        with_one = [name for name in engines.names() if has_sampler(name)]
        raise ConfigError(f"{game}: no state sampler yet; games with one: {', '.join(with_one)}")
    return found
