"""The solver's errors: both subclass engines.SleuthError and the fitting builtin."""

from __future__ import annotations

from engines import Observation, SleuthError


class Inconsistent(SleuthError, ValueError):
    """The observations contradict each other; `conflict` is a minimal set of them.

    Every observation in `conflict` is needed for the contradiction: drop any one and the
    rest are consistent again.
    """

    def __init__(self, conflict: list[Observation], words: list[str]) -> None:
        self.conflict = conflict
        lines = "; ".join(words) if words else "the rules of the game alone"
        super().__init__(f"these observations contradict each other: {lines}")


class NotCertain(SleuthError, ValueError):
    """An explanation was asked for a fact that some consistent world makes false."""


class SolverTimeout(SleuthError, RuntimeError):
    """A CP-SAT solve reached its time limit (a safety ceiling, never a normal outcome)."""


class NotCounted(SleuthError, NotImplementedError):
    """Exact counts (or probabilities) were asked of a position whose worlds are only
    estimated, or not counted at all; the message says what the position offers instead."""
