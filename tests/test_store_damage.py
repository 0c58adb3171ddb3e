"""Finding 6 of issue 42: a damaged sessions store gives one clear message, loses nothing, and
`sleuth assist --salvage` recovers what SQLite can still read."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sleuth.assist import Session
from sleuth.assist.command import DAMAGED_STORE_EXIT
from sleuth.assist.salvage import salvage
from sleuth.assist.store import FILE_NAME, MARKER_NAME, DamagedStore, Store
from sleuth.cli import main
from tests import benchmark_scripts

bench = benchmark_scripts.load("store_damage", "store_damage_bench")
SESSIONS = 4


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A store of recorded sessions (built once) and how many changes it holds."""
    directory = tmp_path_factory.mktemp("healthy")
    _, changes = bench.build_store(directory, SESSIONS)
    return directory, changes


def _damaged(healthy: tuple[Path, int], tmp_path: Path, kind: str) -> tuple[Path, bytes]:
    """A copy of the healthy store, damaged; its directory and the damaged bytes."""
    source, _ = healthy
    for name in (FILE_NAME, MARKER_NAME):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    return tmp_path, bench.damage(tmp_path / FILE_NAME, kind)


@pytest.mark.parametrize("kind", list(bench.DAMAGES))
def test_finding_6_every_damage_is_refused_naming_the_file_with_a_copy_kept(
    kind: str, healthy: tuple[Path, int], tmp_path: Path
) -> None:
    directory, damaged = _damaged(healthy, tmp_path, kind)
    for look in (Session.stored, lambda d: Session.open("game-0", d)):
        with pytest.raises(DamagedStore) as refused:
            look(directory)
        message = str(refused.value)
        assert str(directory / FILE_NAME) in message and "--salvage" in message
        assert refused.value.kept is not None and refused.value.kept.read_bytes() == damaged
    assert (directory / FILE_NAME).read_bytes() == damaged, "the damaged file is left as found"
    assert len(list(directory.glob(f"{FILE_NAME}.damaged-*[0-9Z]"))) == 1, "one copy, reused"


@pytest.mark.parametrize("kind", list(bench.DAMAGES))
def test_finding_6_salvage_makes_a_healthy_store_and_moves_the_damaged_file_aside(
    kind: str, healthy: tuple[Path, int], tmp_path: Path
) -> None:
    directory, damaged = _damaged(healthy, tmp_path, kind)
    report = salvage(directory)
    assert report.kept is not None and report.kept.read_bytes() == damaged
    recovered = Session.stored(directory)  # opens: the new store passes quick_check
    assert {record.name: record.events for record in recovered} == report.sessions
    for record in recovered:  # each recovered session replays: its changes are a prefix
        Session.open(record.name, directory).close()


def test_finding_6_salvage_recovers_everything_behind_an_overwritten_header(
    healthy: tuple[Path, int], tmp_path: Path
) -> None:
    directory, _ = _damaged(healthy, tmp_path, "header overwritten")
    report = salvage(directory)
    assert len(report.sessions) == SESSIONS and report.changes == healthy[1]
    assert report.unreadable_sessions == report.unreadable_changes == 0


def test_finding_6_a_zeroed_sessions_page_names_the_sessions_whose_changes_survive(
    healthy: tuple[Path, int], tmp_path: Path
) -> None:
    directory, _ = _damaged(healthy, tmp_path, "page 2 zeroed")
    report = salvage(directory)
    assert sorted(report.headless) == [f"game-{seed}" for seed in range(SESSIONS)]


def test_finding_6_an_empty_file_where_a_store_was_is_not_taken_for_a_new_store(
    tmp_path: Path,
) -> None:
    Store(tmp_path).close()
    assert (tmp_path / MARKER_NAME).exists()
    (tmp_path / FILE_NAME).write_bytes(b"")
    with pytest.raises(DamagedStore, match=r"empty \(0 bytes\)"):
        Store(tmp_path)
    (tmp_path / FILE_NAME).unlink()
    with pytest.raises(DamagedStore, match="missing"):
        Store(tmp_path)
    assert not (tmp_path / FILE_NAME).exists(), "nothing was created in its place"


def test_a_first_run_creates_the_store_and_its_marker(tmp_path: Path) -> None:
    Store(tmp_path / "new").close()
    assert (tmp_path / "new" / MARKER_NAME).exists()
    assert Session.stored(tmp_path / "new") == []


def test_finding_6_the_cli_exits_3_with_one_line_and_salvage_then_lists(
    healthy: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory, damaged = _damaged(healthy, tmp_path, "a page randomised")
    for argv in (["--list"], ["--resume", "game-0"]):
        assert main(["assist", *argv, "--dir", str(directory)]) == DAMAGED_STORE_EXIT
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
        assert "is damaged" in captured.err and "no saved sessions" not in captured.err
    assert main(["assist", "--salvage", "--dir", str(directory)]) == 0
    assert capsys.readouterr().out.startswith(f"salvaged {SESSIONS} sessions")
    assert main(["assist", "--salvage", "--dir", str(directory)]) == 0
    assert "healthy; nothing to salvage" in capsys.readouterr().out
    assert main(["assist", "--list", "--dir", str(directory)]) == 0
    assert "game-0" in capsys.readouterr().out
    assert bench.still_on_disk(directory, damaged)


def test_finding_6_the_real_command_prints_no_traceback(
    healthy: tuple[Path, int], tmp_path: Path
) -> None:
    directory, damaged = _damaged(healthy, tmp_path, "page 4 zeroed")
    done = subprocess.run(
        [sys.executable, "-m", "sleuth.cli", "assist", "--list", "--dir", str(directory)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
        env=bench.sleuth_environment(),
    )
    assert done.returncode == DAMAGED_STORE_EXIT
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert bench.still_on_disk(directory, damaged)


def test_the_header_is_read_only_while_this_process_has_no_store_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the file's header opens and closes a descriptor of it, which drops every POSIX
    lock this process holds on the file (SQLite's too): another process could then delete the
    write-ahead log an open store still uses (`sleuth serve` beside a terminal's session)."""
    import sleuth.assist.store as store

    reads: list[Path] = []
    monkeypatch.setattr(store, "check_file", reads.append)
    first = Store(tmp_path)
    second = Store(tmp_path)  # the first is open: its locks must stay
    assert len(reads) == 1
    second.close()
    first.close()
    Store(tmp_path).close()  # none open: the header is read again
    assert len(reads) == 2
