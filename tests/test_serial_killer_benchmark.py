"""The Serial Killer benchmark's loss breakdown (benchmarks/serial_killer.py): every game the
solver lost is put down to one cause read from its own end-of-game summary."""

from __future__ import annotations

from opponents import ArenaResult, GameRecord
from tests import benchmark_scripts


def record(index: int, won: bool, **solver: object) -> GameRecord:
    summary = {"declared": False, "killer_won": False, "nobody_reached": False, **solver}
    others = {"declared": False, "killer_won": not won, "nobody_reached": False}
    return GameRecord(
        index,
        (0, 1),
        (1.0 if won else 0.0, 0.0),
        (0.0, 0.0),
        ((), ()),
        0,
        (summary, others),
    )


def test_each_lost_game_has_one_cause() -> None:
    records = [
        record(0, True, declared=True, correct=True),
        record(1, False, declared=True, correct=False, killer_won=True),
        record(2, False, declared=True, correct=False, killer_won=True),
        record(3, False, killer_won=True),
        record(4, False, killer_won=True, nobody_reached=True),
        record(5, False, declared=True, correct=True, killer_won=True, nobody_reached=True),
        record(6, False, declared=True, correct=False),
    ]
    result = ArenaResult("serial-killer", (0, 1), ["solver", "heuristic"], records)
    assert benchmark_scripts.load("serial_killer", "serial_killer_benchmark").losses(result) == (
        "the killer won, the solver's declaration wrong 2; "
        "the killer won, no roll of the solver's made it 1; all lose 1; "
        "all lose, the solver declared 1; a rival won 1"
    )
