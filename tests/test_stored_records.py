"""Records stored by an earlier version still load the same: information-set exports and
`sleuth assist` sessions that the code of b8eb42f wrote (before observations became typed
kinds), kept in tests/data/stored_v1. Each export reads back to the same JSON and the same
certain facts; each session opens with the same entries and information set."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import engines
import solver
from sleuth.assist.session import Session

STORED = Path(__file__).parent / "data" / "stored_v1"
EXPORTS = json.loads((STORED / "exports.json").read_text())
SESSIONS = json.loads((STORED / "sessions.json").read_text())


@pytest.mark.parametrize("export", EXPORTS, ids=lambda e: json.loads(e["info"])["game"])
def test_an_export_loads_and_deduces_the_same(export: dict[str, object]) -> None:
    info = engines.InformationSet.from_json(str(export["info"]))
    assert info.to_json() == export["info"]
    assert all(type(obs) is not engines.Observation for obs in info.observations)  # typed
    deduction = solver.deduce(info)
    certain = sorted(f.text for f in deduction.facts if deduction.probability(f) == 1.0)
    assert certain == export["certain"]


def test_the_stored_sessions_open_with_the_same_record(tmp_path: Path) -> None:
    for name in ("sessions.sqlite3", "sessions.sqlite3.marker"):
        shutil.copy(STORED / name, tmp_path / name)
    assert sorted(record.name for record in Session.stored(tmp_path)) == sorted(SESSIONS)
    for key, expected in SESSIONS.items():
        session = Session.open(key, tmp_path)
        assert [entry.text for entry in session.entries] == expected["entries"]
        assert session.information_set().to_json() == expected["info"]
        session.close()
