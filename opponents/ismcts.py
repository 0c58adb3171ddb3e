"""OpenSpiel's ISMCTS as an arena opponent: `opponents.make("ismcts", game, seat, ...)`.

The bot searches the OpenSpiel adapter of the game (sleuth.adapters.openspiel) with
OpenSpiel's `ISMCTSBot` and random-rollout evaluation; every simulation starts from a whole
state drawn by `solver.sample_state` from the seat's posterior (one Deduction per move), so
the tree is keyed on the seat's information set and never sees the true state. Search is
bounded by work (`simulations`), so the bot is deterministic for a seed.

Requires the extra `sleuth[openspiel]`; games without a state sampler are refused.
"""

from __future__ import annotations

import random
from typing import Any

from engines import Action, ConfigError, Game, InformationSet, Seat
from opponents.base import SeatedBot

OPTIONS = ("simulations", "uct_c", "rollouts", "rollout_length")


class IsmctsBot(SeatedBot):
    """Information-set MCTS over worlds the solver samples."""

    def __init__(
        self,
        game: Game,
        seat: Seat,
        rng: random.Random,
        simulations: int = 100,
        uct_c: float = 2.0,
        rollouts: int = 1,
        rollout_length: int | None = None,
    ) -> None:
        super().__init__(game, seat, rng)
        try:
            import numpy as np
            import pyspiel
            from open_spiel.python.algorithms import ismcts, mcts

            from sleuth.adapters.openspiel import short_name
        except ImportError:
            raise ConfigError(
                "the ismcts bot needs OpenSpiel: pip install 'sleuth[openspiel]'"
            ) from None
        from solver.states import has_sampler

        if not has_sampler(game.name):
            raise ConfigError(f"no ismcts bot for {game.name} yet (no state sampler)")
        for name, value, low in (("simulations", simulations, 1), ("rollouts", rollouts, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ConfigError(f"the ismcts bot's {name} is a whole number from {low}")
        params = {key: value for key, value in game.options.items() if value is not None}
        self.spiel = pyspiel.load_game(short_name(game.name), _parameters(game, params))
        seed = rng.randrange(2**31)
        evaluator = mcts.RandomRolloutEvaluator(
            rollouts, np.random.RandomState(seed), max_length=rollout_length
        )
        self.search = ismcts.ISMCTSBot(
            self.spiel,
            evaluator,
            uct_c,
            max_simulations=simulations,
            random_state=np.random.RandomState(seed + 1),
        )
        self.search.set_resampler(self._resample)
        self._deduced: tuple[InformationSet, Any] | None = None

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        from solver.states import sample_state

        root = self._wrap(sample_state(info, self.rng, self._deduction(info)))
        while True:
            choice = int(self.search.step(root))
            action = root.spelling.choose(choice)
            if action is not None:
                return action

    def _resample(self, state: Any, player: int) -> Any:
        """A state of the adapter agreeing with what `player` (this seat) knows in `state`."""
        from solver.states import sample_state

        info = state.spelling.state.information_set(self.game.seats[player])
        fresh = self._wrap(sample_state(info, self.rng, self._deduction(info)))
        fresh.spelling.prefix = list(state.spelling.prefix)
        return fresh

    def _deduction(self, info: InformationSet) -> Any:
        """One Deduction per information set (the move's root), reused by every sample."""
        from solver import deduce

        if self._deduced is None or self._deduced[0] != info:
            self._deduced = (info, deduce(info))
        return self._deduced[1]

    def _wrap(self, engine_state: Any) -> Any:
        from sleuth.adapters import Spelling

        state = self.spiel.new_initial_state()
        state.spelling = Spelling(engine_state)
        return state


def _parameters(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of the game's options (see sleuth.adapters.openspiel)."""
    import json

    specs = {spec.name: spec for spec in game.options_spec}
    return {
        key: value if type(value) is type(specs[key].default) else json.dumps(value)
        for key, value in options.items()
        if type(specs[key].default) in (bool, int, float, str)
    }


def make(game: Game, seat: Seat, rng: random.Random, **options: Any) -> IsmctsBot:
    """The ismcts bot (ConfigError on an unknown option or a bad value)."""
    from opponents.base import check_options

    check_options("ismcts", options, OPTIONS)
    return IsmctsBot(game, seat, rng, **options)
