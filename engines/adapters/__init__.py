"""sleuth's games inside other frameworks: `engines.adapters.openspiel` (OpenSpiel Python games)
and `engines.adapters.pettingzoo` (PettingZoo AEC environments). Each is an optional extra
(`pip install 'sleuth[openspiel]'`, `'sleuth[pettingzoo]'`) and generic: it uses only the core
API (`Game.initial_state`, action ids, `State.legal_choices`, `InformationSet.to_array`), so
every game that provides it is adapted without code of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

import engines
from engines import Action, ConfigError, Game, State


def adaptable() -> list[str]:
    """The games whose engines provide what adapters need (an explicit deal, action ids and
    tensors); the others say why not when made."""
    return [name for name in engines.names() if engines.game_class(name).explicit_chance]


def checked_game(name: str, **options: object) -> Game:
    """The engine game an adapter wraps, refused when an adapter cannot bound it.

    Raises:
        ConfigError: an unknown game or option, a game without the core API adapters use,
            or options without a bound on the game's length (a turn limit of None).
    """
    game = engines.make(name, **options)
    if not game.explicit_chance:
        raise ConfigError(f"{name}: not adaptable yet; the adaptable games are {adaptable()}")
    if game.max_game_length is None:
        raise ConfigError(f"{name}: an adapter needs a bound on the game's length; set a limit")
    return game


class Spelling:
    """The engine state and the ids chosen so far towards the mover's next action.

    Most actions are one id; a game whose actions are too many to number (Alibi's passes)
    spells them id by id (`Game.action_ids`), and the mover stays to move until the
    spelling names one legal action, which is then applied.
    """

    def __init__(self, state: State) -> None:
        self.state = state
        self.prefix: list[int] = []
        self._spelled: dict[tuple[int, ...], Action] | None = None

    def spelled(self) -> dict[tuple[int, ...], Action]:
        """Each legal action of the engine state by its ids (made once per engine state)."""
        if self._spelled is None:
            self._spelled = self.state.spelled_actions()
        return self._spelled

    def legal(self) -> list[int]:
        """The ids that may come next."""
        n, prefix = len(self.prefix), tuple(self.prefix)
        if not n:
            return sorted({ids[0] for ids in self.spelled()})
        return sorted({ids[n] for ids in self.spelled() if len(ids) > n and ids[:n] == prefix})

    def completions(self) -> list[Action]:
        """The legal actions whose ids start with those chosen so far."""
        n, prefix = len(self.prefix), tuple(self.prefix)
        return [action for ids, action in self.spelled().items() if ids[:n] == prefix]

    def choose(self, choice: int) -> Action | None:
        """Add `choice`; apply and return the action once it is spelled in full."""
        self.prefix.append(choice)
        action = self.spelled().get(tuple(self.prefix))
        if action is not None:
            self.state.apply_trusted(action)
            self.prefix, self._spelled = [], None
        return action

    def chance(self, outcome: object) -> None:
        self.state.apply_chance(outcome)
        self._spelled = None

    def prefix_vector(self) -> Sequence[float]:
        """The ids chosen so far, one flag per id (empty for games of one-id actions)."""
        game = self.state.game
        if game.max_action_choices == 1:
            return []
        flags = [0.0] * game.num_distinct_actions
        for choice in self.prefix:
            flags[choice] = 1.0
        return flags

    def copy(self) -> Spelling:
        """An independent copy (the engine state cloned; the spelled actions, never changed
        in place, shared)."""
        other = Spelling(self.state.clone())
        other.prefix = list(self.prefix)
        other._spelled = self._spelled
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Spelling:
        """`copy()`: what OpenSpiel's `clone()` of an adapter state makes of it."""
        return self.copy()
