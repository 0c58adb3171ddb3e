"""Each game's knowledge model: how its information sets become solver models.

A game's knowledge module is `solver.games.<its engine's package>` (engines.game_module) and
provides what `Knowledge` declares. The solver calls `validate` before anything else
(solver.validation), so the other functions may trust their input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import engines
from engines import InformationSet, Seat, State

if TYPE_CHECKING:
    from solver.cpsat import Compiled
    from solver.deduction import Deduction
    from solver.hints import Hint
    from solver.model import Fact, Model, World
    from solver.sampling import CountedWorldSet, WorldSet


class Knowledge(Protocol):
    """What a game's knowledge module provides (module-level names)."""

    @property
    def CPSAT_PARAMETERS(self) -> Mapping[str, object] | None:
        """CP-SAT parameters that suit this game's models, or None for the solver's own."""

    def validate(self, info: InformationSet) -> None:
        """Raise `engines.InvalidInformationSet` naming the observation, field and what is
        allowed, for anything the game could not have shown that seat."""

    def build(self, info: InformationSet) -> Model:
        """The constraint model of `info`: hidden variables, constraints tagged by observation,
        and the facts worth asking about."""

    def world_of(self, state: State) -> World:
        """The true world of a full-truth state (for `Fact.holds`)."""

    def hints(self, info: InformationSet, deduction: Deduction) -> list[Hint]:
        """The game's own hints (moves, risks) beside the solver's certain and likely facts."""

    def world_set(self, model: Model, compiled: Compiled) -> WorldSet | None:
        """The consistent worlds when this game counts or samples them its own way; None to
        let the solver enumerate them."""

    def query_variables(self, model: Model) -> set[str] | None:
        """The variables the facts ask about, decided eagerly (the rest only on demand), or
        None to decide every variable."""


@runtime_checkable
class CountingKnowledge(Protocol):
    """A knowledge module that also counts a model's worlds exactly, without a solve (Serial
    Killer's genres are independent given the record)."""

    def counted(self, model: Model) -> CountedWorldSet:
        """The model's consistent worlds, counted; a record with no consistent world counts
        none (then CP-SAT finds the conflict)."""


@runtime_checkable
class WitnessingKnowledge(Protocol):
    """A knowledge module that may already know a consistent world of a model (Alibi's kept
    chain), which saves `deduce` its first solve, or one near it, which speeds that solve."""

    def known_world(self, model: Model, compiled: Compiled) -> World | None:
        """A world known to satisfy every constraint of `model`, or None."""

    def near_world(self, model: Model) -> World | None:
        """When no world is known: one likely to be close to a consistent world of `model`
        (values of some or all variables), for CP-SAT's first search to start from; or None."""


@runtime_checkable
class SeeingKnowledge(Protocol):
    """A knowledge module whose certain facts include what the seat sees in its own hand
    (Alibi: who holds the cards it held): true, but not deductions worth telling."""

    def plainly_known(self, info: InformationSet, deduction: Deduction) -> set[Fact]:
        """The facts of `deduction` the seat knows without deduction."""


@runtime_checkable
class PublicKnowledge(Protocol):
    """A knowledge module whose model is, for some seats, not that seat's own posterior but
    what another seat can know from the public record (City Killer's killer sees how exposed
    he is): odds read under an opponent model do not apply there."""

    def own_posterior(self, seat: Seat) -> bool:
        """Whether the model of `seat`'s information sets is its own posterior."""


@runtime_checkable
class RememberingKnowledge(Protocol):
    """A knowledge module that remembers work between refreshes of a game (Alibi's chains,
    histories and explanations), so that what it shows can depend on what the process
    computed before."""

    def forget(self) -> None:
        """Drop everything it remembers."""


def knowledge_for(game: str) -> Knowledge:
    """The knowledge module of `game`.

    Raises:
        ConfigError: an unknown game, or one with no knowledge model yet.
    """
    return cast(Knowledge, engines.game_module(game, "solver.games", required="knowledge model"))


if TYPE_CHECKING:  # mypy checks that every knowledge module provides what `Knowledge` declares
    from solver.games import alibi, blue_lion, city_killer, noir, serial_killer

    _KNOWLEDGE: tuple[Knowledge, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)
    _COUNTING: tuple[CountingKnowledge, ...] = (serial_killer,)
    _WITNESSING: tuple[WitnessingKnowledge, ...] = (alibi,)
    _REMEMBERING: tuple[RememberingKnowledge, ...] = (alibi,)
    _PUBLIC: tuple[PublicKnowledge, ...] = (city_killer,)
