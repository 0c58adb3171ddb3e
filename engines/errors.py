"""Every error sleuth raises on purpose: `SleuthError` and its kinds, each naming what was
wrong and what is allowed."""

from __future__ import annotations


class SleuthError(Exception):
    """The root of every error sleuth raises on purpose."""


class ConfigError(SleuthError, ValueError):
    """A game or bot was configured with an unknown option or a value it does not allow."""


class InvalidAction(SleuthError, ValueError):
    """Text that is not an action of this game (a syntax error), quoted in the message."""


class IllegalAction(SleuthError, ValueError):
    """A well-formed action the rules forbid now; the state is left unchanged."""


class NotToMove(IllegalAction):
    """A seat asked for its moves (`Game.legal_actions_for`) when it is not its turn, or when
    the game is over."""


class InvalidState(SleuthError, ValueError):
    """JSON (or data) that is not a state the rules of this game can reach; the message names
    the field that is wrong and what it may be."""


class InvalidInformationSet(SleuthError, ValueError):
    """An information set that this game could not have produced: an unknown game, option,
    seat, observation kind, field or value; the message names it and what is allowed."""


class IncompleteInformationSet(InvalidInformationSet):
    """A record that is a true beginning of an information set but stops where the game
    still owes it something (a tile laid but not yet its reveal, passes but not yet the new
    hand sizes); `waiting_for` says what. The assistant keeps such entries and waits."""

    def __init__(self, message: str, waiting_for: str) -> None:
        super().__init__(message)
        self.waiting_for = waiting_for


class InvalidObservation(SleuthError, ValueError):
    """Typed text that is not an observation this seat can make; the message quotes it and
    says what is allowed (with "did you mean" for a near-miss name)."""
