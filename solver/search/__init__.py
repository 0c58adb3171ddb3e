"""Advice: the move the `solver` bot would make, its value in words, the runners-up and the
opponent's threats, for a person to read.

The solver bots (opponents/games/<game>.py) are thin wrappers over the searches here, so the
advice and the bot are one computation: `advise(info, seed=s)` names the move a fresh `solver`
bot made with seed `s` plays at `info`. The search lives in the solver layer because the
solver knows no bots (arrows point sleuth -> opponents -> solver -> engines).

A search module may also offer `hints(info) -> list[Hint]`: hints of its own that
`solver.hints` adds to the game's (Serial Killer names its bot's choice at the seat's pick,
Alibi the cards its bot passes).

Every search is bounded by work (nodes, samples, actions scored); a `time_budget` is off by
default, and when set it is a safety ceiling and the one source of non-determinism.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

import engines
from engines import Action, ConfigError, InformationSet
from engines.values import quote
from solver.opponent_models import check_model
from solver.validation import validate


@dataclass(frozen=True)
class Candidate:
    """One move the search scored: its value (the search's own scale), that value in words,
    and what the opponent threatens after it."""

    action: Action
    value: float
    text: str
    risk: float | None = None
    """The chance of losing on the opponent's next move (Noir: killed or arrested), if the game
    has such a risk; None otherwise."""
    threats: tuple[str, ...] = ()
    because: tuple[str, ...] = ()
    """Why the search ranks it where it does, beyond its value (a search may leave it empty):
    Blue Lion says what the move changes (a back shown, a new position, a repetition)."""


@dataclass(frozen=True)
class Advice:
    """The solver bot's move at an information set, and why.

    `candidates` holds every move the search scored, best first (the advised move is the
    first); `notes` what a player should keep in view (odds, the best question, information in
    words); `details` the numbers behind them (bits, nodes searched)."""

    move: Action
    value: float
    text: str
    candidates: tuple[Candidate, ...]
    threats: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    details: tuple[str, ...] = field(default=())

    @property
    def runners_up(self) -> tuple[Candidate, ...]:
        return tuple(c for c in self.candidates if c.action != self.move)

    @property
    def chosen(self) -> Candidate:
        return next(c for c in self.candidates if c.action == self.move)

    def reasons(self, action: Action | None = None) -> list[str]:
        """Why the search ranks `action` (the advised move by default) where it does: its
        value against the runner-up's (or the advised move's), what it changes, and the
        work behind the numbers. Empty if the search did not score `action`."""
        mine = next((c for c in self.candidates if c.action == (action or self.move)), None)
        if mine is None:
            return []
        out = [f"{mine.action}: {mine.text} (value {mine.value:+.2f})"]
        if mine.action == self.move:
            runner = next(iter(self.runners_up), None)
            if runner is None:
                out.append("no other move was scored")
            else:
                out.append(
                    f"next best {runner.action}: {runner.text} (value {runner.value:+.2f}, "
                    f"{mine.value - runner.value:+.2f} against it)"
                )
        else:
            best = self.chosen
            out.append(
                f"the solver plays {best.action} instead: {best.text} (value "
                f"{best.value:+.2f}, {best.value - mine.value:+.2f} against this move)"
            )
        return out + list(mine.because) + list(self.details)

    def lines(self, runners_up: int = 3) -> list[str]:
        """The advice as sentences, the move first."""
        out = [f"best: {self.move} ({self.text})"]
        out += [f"  then: {threat}" for threat in self.threats]
        for other in self.runners_up[:runners_up]:
            out.append(f"or: {other.action} ({other.text})")
            out += [f"  then: {threat}" for threat in other.threats]
        return out + list(self.notes)


Memory = MutableMapping[str, Any]
"""What a bot keeps between its moves (Alibi: the posterior samples of its last question, for
the pass after it). `advise` starts from an empty one, as a freshly made bot does."""


class Turn(NamedTuple):
    """What a game's search is given at a seat's turn (`advise(turn, **knobs)`): what the
    seat knows, its legal moves, the bot's seeded RNG and its memory between moves."""

    info: InformationSet
    legal: Sequence[Action]
    rng: random.Random
    memory: Memory


class Search(Protocol):
    """What a game's search module (`solver.search.<its engine's package>`) provides."""

    @property
    def KNOBS(self) -> Mapping[str, object]:
        """The solver bot's strength knobs and their defaults (`time_budget` among them)."""

    @property
    def advise(self) -> Callable[..., Advice]:
        """`advise(turn, **knobs)`: the solver bot's move at a `Turn`, with its value and
        threats (the knobs are the game's own, checked first)."""


if TYPE_CHECKING:  # mypy checks that every search module provides what `Search` declares
    from solver.search import alibi, blue_lion, city_killer, noir, serial_killer

    _SEARCHES: tuple[Search, ...] = (alibi, blue_lion, city_killer, noir, serial_killer)


def search_for(game: str) -> Search:
    """The search module of `game`.

    Raises:
        ConfigError: an unknown game, or one with no solver search yet.
    """
    return cast(Search, engines.game_module(game, "solver.search", required="solver search"))


def advise(info: InformationSet, seed: int | None = 0, **knobs: object) -> Advice:
    """The move the `solver` bot made with `seed` and `knobs` plays at `info`, with its value,
    the runners-up and the opponent's threats.

    Args:
        info: the information set of the seat to move.
        seed: the bot's seed (ties and sampling); an int or None (then not reproducible).
        **knobs: the solver bot's strength knobs (see `opponents.make`).

    Raises:
        ConfigError: no search for the game, a bad knob or seed.
        NotToMove: the seat of `info` is not the one to move (or the game is over).
        InvalidInformationSet, Inconsistent: as `solver.deduce`.
    """
    if not isinstance(info, InformationSet):
        raise ConfigError(f"advise takes an engines.InformationSet, got {quote(info)}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ConfigError(f"a seed is an int or None, got {quote(seed)}")
    module = search_for(info.game)
    checked = check_knobs(info.game, module.KNOBS, knobs)
    validate(info)
    game = info.make_game()
    legal = game.legal_actions_for(info)
    advice: Advice = module.advise(Turn(info, legal, random.Random(seed), {}), **checked)
    return advice


def check_knobs(
    game: str, allowed: Mapping[str, object], knobs: Mapping[str, object]
) -> dict[str, object]:
    """`knobs` checked against `allowed` (name -> default), defaults filled in.

    Raises:
        ConfigError: an unknown knob or a bad value, quoted.
    """
    for key in knobs:
        if key not in allowed:
            raise ConfigError(
                f"the {game} solver has no option {quote(key)}; options: {', '.join(allowed)}"
            )
    checked = {**allowed, **knobs}
    for key, value in checked.items():
        if key == "time_budget":
            checked[key] = check_time_budget(value)
        elif key == "model":
            checked[key] = check_model(game, value)
        else:
            checked[key] = check_positive_int(key, value)
    return checked


def check_time_budget(value: object) -> float | None:
    """`value` as a time budget in seconds: None (no ceiling: the move depends on the seed
    alone) or a finite number > 0 (not a bool).

    Raises:
        ConfigError: anything else, quoted.
    """
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise ConfigError(
            f"time_budget must be None or a finite number of seconds > 0, got {quote(value)}"
        )
    return float(value)


def check_positive_int(name: str, value: object) -> int:
    """`value` if it is an int >= 1 (not a bool); else ConfigError naming the option."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(f"{name} must be an integer >= 1, got {quote(value)}")
    return value
