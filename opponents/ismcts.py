"""OpenSpiel's ISMCTS as an arena opponent: `opponents.make("ismcts", game, seat, ...)`.

The bot searches the OpenSpiel adapter of the game (engines.adapters.openspiel) with
OpenSpiel's `ISMCTSBot` and random-rollout evaluation; every simulation starts from a whole
state drawn by `solver.sample_state` from the seat's posterior (`solver.states.sampler`: one
Deduction per move, or a game's own list of worlds), so the tree is keyed on the seat's
information set and never sees the true state. Chance during play (Serial Killer's dice,
City Killer's draws) is drawn inside each action with its probabilities
(`engines.deal.draw_inline`), so the tree has no chance nodes: a node is looked up by the
information set the draw leads to. Search is bounded by work (`simulations`), so the bot is
deterministic for a seed.

The rollouts are OpenSpiel's `RandomRolloutEvaluator` played on the engine state under the
adapter (uniform legal actions, `rollout_length` actions at most, the returns where they
stop): a rollout is most of a simulation's work, and through the adapter each step cost
several times the engine's own.

Requires the extra `sleuth[openspiel]`; games without a state sampler are refused.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from engines import Action, ConfigError, Game, InformationSet, Seat
from engines.deal import draw_inline
from opponents.base import SeatedBot
from opponents.policy import Policy, UnenumerableBot
from solver.states import has_sampler, sampler


class IsmctsBot(SeatedBot):
    """Information-set MCTS over worlds the solver samples."""

    OPTIONS = ("simulations", "uct_c", "rollouts", "rollout_length")

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
        try:  # the optional extra sleuth[openspiel]
            import pyspiel

            from engines.adapters.openspiel import short_name
        except ImportError:
            raise ConfigError(
                "the ismcts bot needs OpenSpiel: pip install 'sleuth[openspiel]'"
            ) from None
        if not has_sampler(game.name):
            raise ConfigError(f"no ismcts bot for {game.name} yet (no state sampler)")
        # OpenSpiel's first simulation only expands the root: a choice needs a second.
        for name, value, low in (("simulations", simulations, 2), ("rollouts", rollouts, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ConfigError(f"the ismcts bot's {name} is a whole number from {low}")
        params = {key: value for key, value in game.options.items() if value is not None}
        self.spiel = pyspiel.load_game(short_name(game.name), _parameters(game, params))
        seed = rng.randrange(2**31)
        evaluator = Rollouts(rollouts, random.Random(seed), rollout_length)
        self.search = _search_class()(
            self.spiel,
            evaluator,
            uct_c,
            max_simulations=simulations,
            random_state=np.random.RandomState(seed + 1),
        )
        self.search.set_resampler(self._resample)
        self._sampler: tuple[InformationSet, Callable[[random.Random], Any]] | None = None
        self._root: Any = None

    def _policy(self, info: InformationSet, legal: list[Action]) -> Policy:
        raise UnenumerableBot(
            "the ismcts bot gives no policy: its move is a search over sampled worlds whose "
            "distribution it does not compute; the random, heuristic, careful and solver bots do"
        )

    def _choose(self, info: InformationSet, legal: list[Action]) -> Action:
        draws = self._draws(info)
        root = self._root = self._wrap(draws(self.rng))
        while True:
            choice = int(self.search.step(root))
            action = root.spelling.choose(choice)
            if action is not None:
                return action

    def _resample(self, state: Any, player: int) -> Any:
        """A state of the adapter agreeing with what `player` (this seat) knows in `state`
        (the move's root, whose sampler is kept)."""
        if state is self._root and self._sampler is not None:
            draws = self._sampler[1]
        else:
            draws = self._draws(state.spelling.state.information_set(self.game.seats[player]))
        engine = draws(self.rng)
        draw_inline(engine, self.rng)  # play's draws inside each action, as in the rollouts
        fresh = self._wrap(engine)
        fresh.spelling.prefix = list(state.spelling.prefix)
        information_key(state, player)  # `player` knows the same in both: its text is kept
        fresh.information_keys = {
            player: (engine.observation_count, state.information_keys[player][1])
        }
        return fresh

    def _draws(self, info: InformationSet) -> Callable[[random.Random], Any]:
        """One sampler per information set (the move's root), reused by every sample."""
        if self._sampler is None or self._sampler[0] != info:
            self._sampler = (info, sampler(info))
        return self._sampler[1]

    def _wrap(self, engine_state: Any) -> Any:
        from engines.adapters.openspiel import SleuthState  # needs the optional pyspiel

        return SleuthState(self.spiel, engine_state)


@functools.cache
def _search_class() -> type:
    """OpenSpiel's `ISMCTSBot` with its nodes keyed by `information_key`, and the same
    search done with less overhead: the UCT value computed by `math` instead of numpy (on
    scalars numpy's call overhead was a tenth of a simulation's time), once per child rather
    than twice, a node's key made once per visit rather than three times, and the legal ids
    copied as a list before their shuffle rather than deep-copied. Each override returns
    what OpenSpiel's method returns and draws the same random numbers."""
    from open_spiel.python.algorithms import ismcts  # the optional extra sleuth[openspiel]

    class Search(ismcts.ISMCTSBot):
        def get_state_key(self, state: Any) -> tuple[int, str]:
            player = state.current_player()
            return player, information_key(state, player)

        def lookup_or_create_node(self, state: Any) -> Any:
            key = self.get_state_key(state)
            node = self._nodes.get(key)
            if node is None:
                node = ismcts.ISMCTSNode()
                self._node_pool.append(node)
                self._nodes[key] = node
                node.total_visits = ismcts.UNEXPANDED_VISIT_COUNT
            return node

        def check_expand(self, node: Any, legal_actions: list[int]) -> int:
            children = node.child_info
            if not self._allow_inconsistent_action_sets and len(children) == len(legal_actions):
                return ismcts.pyspiel.INVALID_ACTION
            shuffled = list(legal_actions)  # ints: what deepcopy made of them
            self._random_state.shuffle(shuffled)
            for action in shuffled:
                if action not in children:
                    return action
            return ismcts.pyspiel.INVALID_ACTION

        def _action_value(self, node: Any, child: Any) -> float:
            if self._child_selection_policy != ismcts.ChildSelectionPolicy.UCT:
                return float(super()._action_value(node, child))
            assert child.visits > 0
            explore = math.sqrt(math.log(node.total_visits) / child.visits)
            return float(child.value() + self._uct_c * explore)

        def _select_candidate_actions(self, node: Any) -> list[int]:
            values = [(action, self._action_value(node, child))
                      for action, child in node.child_info.items()]  # fmt: skip
            best = max(value for _, value in values)
            return [action for action, value in values if value > best - ismcts.TIE_TOLERANCE]

    return Search


def information_key(state: Any, player: int) -> str:
    """What `player` knows in an adapter state, as text: its observations (each one's JSON
    and addressees, as the information set holds them), then the ids it has chosen towards
    its next action. Equal exactly when the information sets and ids are.

    A simulation applies its actions to one state, whose log only grows, so the text is
    built on from what the same state gave last time: the information state string
    (`information_set(seat).to_json()`) re-serialised the whole record at every node.
    """
    engine = state.spelling.state
    keys = state.__dict__.setdefault("information_keys", {})
    seen, text = keys.get(player, (0, ""))
    if seen < engine.observation_count:
        seat = engine.game.seats[player]
        fresh = engine.recorded(seen)  # (observation, addressees): what information_set filters
        text += "".join(f"{obs.json_text} {to}\n" for obs, to in fresh if to is None or seat in to)
        keys[player] = (engine.observation_count, text)
    mover = engine.to_move
    if mover is not None and engine.game.seat_index(mover) == player and state.spelling.prefix:
        return f"{text}chosen {state.spelling.prefix}"
    return text


class Rollouts:
    """OpenSpiel's random-rollout evaluator (an `mcts.Evaluator`) on the engine state of
    an adapter state: the mean returns of `rollouts` games played on with uniform legal
    actions, each stopped after `max_length` actions (None: at the end). Chance is drawn
    with each action's probabilities, inside the action as `new_game` play draws it
    (`engines.deal.draw_inline`), not as chance nodes."""

    def __init__(self, rollouts: int, rng: random.Random, max_length: int | None) -> None:
        self.rollouts, self.rng, self.max_length = rollouts, rng, max_length

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Every legal id equally likely (the chance outcomes at a chance node)."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]

    def evaluate(self, state: Any) -> Any:
        spelling, rng, limit = state.spelling, self.rng, self.max_length
        total = np.zeros(len(spelling.state.game.seats))
        for _ in range(self.rollouts):
            engine, steps = spelling.state.clone(), 0
            if spelling.prefix:  # a spelled action is under way: finish it uniformly
                engine.apply_trusted(rng.choice(spelling.completions()))
                steps += 1
            while engine.is_chance:  # a deal, or an action's draws, under way
                outcomes, weights = zip(*engine.chance_outcomes(), strict=True)
                engine.apply_chance(rng.choices(outcomes, weights)[0])
            draw_inline(engine, rng)  # play's draws from now on, inside each action
            # Bound once (no chance node can come now, so the state keeps its class), and
            # `random()` scaled rather than `choice`: a rollout step is a few microseconds.
            legal_of, apply, uniform = engine.legal_actions, engine.apply_trusted, rng.random
            while limit is None or steps < limit:
                legal = legal_of()
                if not legal:
                    break
                apply(legal[int(uniform() * len(legal))])
                steps += 1
            total += engine.returns()
        return total / self.rollouts


def _parameters(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """The OpenSpiel parameters of the game's options (see engines.adapters.openspiel)."""
    specs = {spec.name: spec for spec in game.options_spec}
    return {
        key: value if type(value) is type(specs[key].default) else json.dumps(value)
        for key, value in options.items()
        if type(specs[key].default) in (bool, int, float, str)
    }
