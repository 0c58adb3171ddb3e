"""Every adaptable sleuth game as an OpenSpiel Python game, registered on import.

    import pyspiel
    import engines.adapters.openspiel
    game = pyspiel.load_game("sleuth_noir(grid=4)")

A game's options are its parameters (those whose default is a bool, number or string). A
string parameter the option refuses is read as JSON: `{"dealer": "2"}` seats dealer 2 (give
it in the parameter dict: OpenSpiel's game string would read `dealer=2` as a number, which
the string parameter refuses, so such a game does not pickle either).
Chance is explicit (one node per draw, of the deal and of play); players are seat indices; an
action is an id of `Game.action_ids`, several ids in a row for an action spelled in parts. The
information state string is the seat's information set as JSON (perfect recall); the
observation tensor is `InformationSet.to_array()` with, for spelled games, the ids chosen so
far.

Requires the extra `sleuth[openspiel]`.
"""

from __future__ import annotations

import json
from contextlib import suppress
from typing import Any

import numpy as np
import pyspiel

from engines import ConfigError, Game, Option, State, game_class
from engines.adapters import Spelling, adaptable, checked_game

PREFIX = "sleuth_"
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def short_name(name: str) -> str:
    """OpenSpiel's name of a sleuth game: `sleuth_blue_lion` for "blue-lion"."""
    return PREFIX + name.replace("-", "_")


def _exposed(spec: Option) -> bool:
    return type(spec.default) in (bool, int, float, str)


def game_type(name: str) -> pyspiel.GameType:
    """The declared type of a sleuth game (sleuth's games seat 2 to 6 players)."""
    cls = game_class(name)
    default = cls()
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"sleuth {cls.metadata.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if default.zero_sum
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            spec.name: spec.default for spec in cls.options_spec if _exposed(spec)
        },
    )


def _options(name: str, params: dict[str, Any]) -> dict[str, object]:
    """The engine options of OpenSpiel parameters: a string the option refuses is read as
    JSON (`dealer="2"` is dealer 2, `turn_limit="null"` no limit)."""
    specs = {spec.name: spec for spec in game_class(name).options_spec}
    options: dict[str, object] = {}
    for key, value in params.items():
        spec = specs.get(key)
        if spec is not None and isinstance(value, str):
            try:
                spec.validate(name, value)
            except ConfigError:
                with suppress(ValueError):
                    value = json.loads(value)
        options[key] = value
    return options


def _parameter(spec: Option, value: object) -> object:
    """An option's value as the parameter of the default's type (JSON text otherwise)."""
    return value if type(value) is type(spec.default) else json.dumps(value)


class SleuthGame(pyspiel.Game):
    """One configured sleuth game seen by OpenSpiel."""

    NAME: str  # the sleuth game; each registered game is a subclass naming its own

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        self.engine: Game = checked_game(name, **_options(name, dict(params or {})))
        engine = self.engine
        assert engine.max_game_length is not None
        info = pyspiel.GameInfo(
            num_distinct_actions=max(engine.num_distinct_actions, engine.max_chance_outcomes),
            max_chance_outcomes=engine.max_chance_outcomes,
            num_players=len(engine.seats),
            min_utility=engine.min_utility,
            max_utility=engine.max_utility,
            utility_sum=0.0 if engine.zero_sum else None,
            max_game_length=engine.max_game_length * engine.max_action_choices,
        )
        exposed = {
            spec.name: _parameter(spec, engine.options[spec.name])
            for spec in engine.options_spec
            if _exposed(spec)
        }
        super().__init__(game_type(name), info, exposed)

    def new_initial_state(self) -> SleuthState:
        return SleuthState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.engine.max_chance_nodes

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.engine, perfect_recall)


class SleuthState(pyspiel.State):
    """An engine state and the ids chosen so far (see `engines.adapters.Spelling`)."""

    def __init__(self, game: SleuthGame, engine_state: State | None = None) -> None:
        """The game before its deal, or at `engine_state` (a state of `game.engine`; its
        history before is not in OpenSpiel's)."""
        super().__init__(game)
        self.spelling = Spelling(engine_state or game.engine.initial_state())
        self.strings: dict[int, str] = {}  # each player's information state string, kept

    def current_player(self) -> int:
        state = self.spelling.state
        if state.is_chance:
            return _CHANCE
        mover = state.to_move
        return _TERMINAL if mover is None else state.game.seat_index(mover)

    def _legal_actions(self, player: int) -> list[int]:
        return self.spelling.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        state = self.spelling.state
        return [(state.game.chance_outcome_id(o), p) for o, p in state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        self.strings = {}
        state = self.spelling.state
        if state.is_chance:
            self.spelling.chance(state.game.chance_outcome_from_id(int(action)))
        else:
            self.spelling.choose(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.spelling.state.game
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {game.chance_outcome_from_id(int(action))}"
        return game.choice_text(int(action))

    def is_terminal(self) -> bool:
        return self.spelling.state.is_over

    def returns(self) -> list[float]:
        return list(self.spelling.state.returns())

    def __str__(self) -> str:
        """The engine state's JSON and the ids chosen towards the next action."""
        return self.spelling.state.to_json() + f"\nchosen: {self.spelling.prefix}"


class Observer:
    """OpenSpiel's view of one seat: the information set as JSON (perfect recall), and as
    a tensor with the ids the seat has chosen so far."""

    def __init__(self, engine: Game, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else int(np.prod(engine.observation_shape))
        if not perfect_recall and engine.max_action_choices > 1:
            size += engine.num_distinct_actions
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def _chosen(self, state: SleuthState, player: int) -> list[int]:
        mover = state.spelling.state.to_move
        game = state.spelling.state.game
        return (
            state.spelling.prefix if mover is not None and game.seat_index(mover) == player else []
        )

    def set_from(self, state: SleuthState, player: int) -> None:
        if self.perfect_recall:
            return
        inner = state.spelling.state
        info = inner.information_set(inner.game.seats[player])
        base = info.to_array().ravel()
        self.tensor[: base.size] = base
        if self.tensor.size > base.size:
            rest = self.tensor[base.size :]
            rest.fill(0.0)
            rest[self._chosen(state, player)] = 1.0

    def string_from(self, state: SleuthState, player: int) -> str:
        """The information set's JSON and the ids chosen, kept until the state changes
        (ISMCTS asks for the same key several times a node)."""
        kept = state.strings.get(player)
        if kept is None:
            inner = state.spelling.state
            info = inner.information_set(inner.game.seats[player])
            kept = state.strings[player] = info.to_json() + f" chosen {self._chosen(state, player)}"
        return kept


def register() -> list[str]:
    """Register every adaptable game with OpenSpiel (done on import); their short names."""
    names = []
    for name in adaptable():
        if short_name(name) not in pyspiel.registered_names():
            # A class per game, as OpenSpiel's own Python games register (a closure would
            # be released after the interpreter's end, which aborts it).
            cls = type(_class_name(name), (SleuthGame,), {"NAME": name})
            globals()[cls.__name__] = cls
            pyspiel.register_game(game_type(name), cls)
        names.append(short_name(name))
    return names


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-")) + "Game"


register()
