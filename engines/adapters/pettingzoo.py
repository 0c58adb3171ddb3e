"""Every adaptable sleuth game as a PettingZoo AEC environment with action masks.

    from engines.adapters.pettingzoo import env
    e = env("noir", grid=4)
    e.reset(seed=0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][0]))

PettingZoo has no chance player, so `reset(seed)` deals with `Game.new_game` (the seed of
each deal drawn from the seed given to the last seeded reset). Agents are named after the
seats ("lupin", "player_0"); an action is an id of `Game.action_ids`, and an action spelled
in several ids (Alibi's passes) takes several steps of the same agent. The observation is
`InformationSet.to_array()` flattened, with the ids the agent has chosen so far for spelled
games; the mask marks the ids the agent may choose now (none when it is not its turn).
Rewards are `State.returns()`, given at the end.

Requires the extra `sleuth[pettingzoo]`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engines import Game, Seat
from engines.adapters import Spelling, checked_game


def agent_name(seat: Seat) -> str:
    """A seat's agent: its role name, or "player_N" for a numbered seat."""
    return seat if isinstance(seat, str) else f"player_{seat}"


class SleuthEnv(AECEnv):
    """One configured sleuth game as a turn-based environment."""

    def __init__(self, name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: Game = checked_game(name, **options)
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"sleuth_{name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [agent_name(seat) for seat in self.game.seats]
        self._seats = dict(zip(self.possible_agents, self.game.seats, strict=True))
        size = int(np.prod(self.game.observation_shape))
        if self.game.max_action_choices > 1:
            size += self.game.num_distinct_actions
        actions = self.game.num_distinct_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.spelling: Spelling | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.spelling = Spelling(self.game.new_game(self._rng.randrange(2**63)))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._mover()

    def _mover(self) -> str:
        assert self.spelling is not None
        mover = self.spelling.state.to_move
        return self.agents[0] if mover is None else agent_name(mover)

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.spelling is not None
        state = self.spelling.state
        tensor = state.information_set(self._seats[agent]).to_array().ravel()
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        chosen: list[float] = []
        mine = state.to_move is not None and agent_name(state.to_move) == agent
        if self.game.max_action_choices > 1:
            chosen = list(self.spelling.prefix_vector()) if mine else [0.0] * mask.size
        if mine:
            mask[self.spelling.legal()] = 1
        observation = np.concatenate([tensor, np.asarray(chosen, np.float32)])
        return {"observation": observation.astype(np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.spelling is not None and action is not None
        if action not in self.spelling.legal():
            raise ValueError(f"{agent} cannot choose {action} now; see the action mask")
        self._cumulative_rewards[agent] = 0.0
        self.spelling.choose(int(action))
        state = self.spelling.state
        if state.is_over:
            returns = state.returns()
            for agent_, value in zip(self.possible_agents, returns, strict=True):
                self.rewards[agent_] = value
                self.terminations[agent_] = True
        self.agent_selection = self._mover()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.spelling is None:
            return None
        return repr(self.spelling.state)

    def close(self) -> None:
        pass


def env(name: str, render_mode: str | None = None, **options: Any) -> SleuthEnv:
    """The environment of game `name` with its options (ConfigError if not adaptable)."""
    return SleuthEnv(name, render_mode=render_mode, **options)
