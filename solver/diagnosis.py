"""What is wrong with a contradictory record, and which single entry could be the typo.

A person at a table types many entries and mistypes one now and then. When the record
contradicts itself the assistant needs two answers: a minimal set of entries that conflict
(every one of them needed), and, among those, the entries that alone could be wrong: dropping
the constraints of that one entry makes everything else consistent again, so some value of it
(or its removal) repairs the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines import InformationSet
from solver.cpsat import Compiled
from solver.games import knowledge_for
from solver.validation import validate


@dataclass(frozen=True)
class Diagnosis:
    """A contradiction found in a record of entries (each entry a group of observations).

    `conflict`: indices of entries that contradict each other, minimal (drop any one and the
    rest are consistent). `repairs`: those entries each of which alone explains it (the record
    without that entry's observations is consistent), in order. `read_with`: other entries
    that decided how the conflicting ones read (Noir: the setup and shifts that made the grid
    a kill was read on), any of which may be the mistyped one too.
    """

    conflict: tuple[int, ...]
    repairs: tuple[int, ...]
    read_with: tuple[int, ...] = ()


def _compiled(info: InformationSet) -> Compiled:
    validate(info)
    knowledge = knowledge_for(info.game)
    return Compiled(knowledge.build(info), knowledge.CPSAT_PARAMETERS)


def consistent(info: InformationSet) -> bool:
    """Whether some hidden world agrees with every observation of `info` (one CP-SAT solve).

    Raises:
        InvalidInformationSet: `info` is not an information set its game could produce.
        SolverTimeout: CP-SAT reached its time limit.
    """
    world, _ = _compiled(info).solve()
    return world is not None


def diagnose(
    info: InformationSet, entries: Sequence[Sequence[int]] | None = None
) -> Diagnosis | None:
    """The contradiction in `info`, by entry, or None when it is consistent.

    `entries` groups the observation indices into the entries a person typed (default: one
    entry per observation); an observation in no group is trusted (never blamed).

    Raises:
        InvalidInformationSet: `info` is not an information set its game could produce.
        SolverTimeout: CP-SAT reached its time limit.
    """
    compiled = _compiled(info)
    if compiled.solve()[0] is not None:
        return None
    groups = (
        [list(g) for g in entries]
        if entries is not None
        else [[i] for i in range(len(info.observations))]
    )
    entry_of = {source: n for n, group in enumerate(groups) for source in group}
    core = compiled.minimal_core()
    conflict = sorted({entry_of[s] for s in core if s in entry_of})
    every = set(compiled.enable)
    repairs = tuple(
        n for n in conflict if compiled.solve(sorted(every - set(groups[n])))[0] is not None
    )
    shaping = {i for s in core for i in compiled.model.read_with.get(s, ())}
    read_with = sorted({entry_of[i] for i in shaping if i in entry_of} - set(conflict))
    return Diagnosis(tuple(conflict), repairs, tuple(read_with))
