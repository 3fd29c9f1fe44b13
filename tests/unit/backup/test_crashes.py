"""kill -9 at the worst moments: mid-backup (no half archive under the name, nothing that
looks like the latest backup) and at every rename of a restore's promotion (the next start
has the old data or the new, complete, never a mix)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.backup import read_archive, stage_restore
from cherry_desktop.core.backup.restore import read_journal
from cherry_desktop.core.storage.paths import build_path_registry
from tests.unit.backup.helpers import NO_TMPFS, REBASED, populated_core, table_dump, user_files

CHILD = [sys.executable, "-m", "tests.unit.backup.crash_child"]
ROOT = Path(__file__).resolve().parents[3]


def _child(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*CHILD, *args], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


async def test_kill_9_mid_backup_leaves_no_archive_and_the_next_backup_cleans_up(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a", messages=50)
    (core.paths.get("feature.agents.data") / "big.bin").write_bytes(os.urandom(3 << 20))
    await core.stop()
    target_dir = tmp_path / "backups"
    target_dir.mkdir()
    target = target_dir / "latest.cherry-backup"
    child = _child("backup", str(core.paths.get("app.data")), str(target))
    assert child.stdout is not None and child.stdout.readline().strip() == "started"
    for _ in range(1000):  # bounded: the partial file shows the archive is being written
        partials = list(target_dir.glob("*.partial-*"))
        if any(p.stat().st_size > 256 << 10 for p in partials if p.exists() and not p.name.endswith(".db")):
            break
        time.sleep(0.01)
    child.kill()
    child.wait()
    assert not target.exists()
    assert list(target_dir.glob("*.partial-*"))  # what the dead process left, under a partial name
    # The next backup into that folder removes the dead one's leftovers and writes a whole one.
    from cherry_desktop.core.backup import BackupService

    result = await BackupService(core.paths).create(target)
    assert read_archive(result.path, None).schema_version > 0
    assert sorted(p.name for p in target_dir.iterdir()) == ["latest.cherry-backup"]


async def _old_and_new(tmp_path: Path) -> tuple[Path, Path]:
    """An archive of data "new", and a data dir "old" with a restore of it staged."""
    archive = tmp_path / "new.cherry-backup"
    new = await populated_core(tmp_path / "new", messages=6)
    try:
        assert new.backup is not None
        await new.backup.create(archive)
    finally:
        await new.stop()
    old = await populated_core(tmp_path / "old", messages=3)
    old.repos.topics.create_topic(name="only in the old data")
    await old.stop()
    return archive, old.paths.get("app.data")


async def test_kill_9_at_every_step_of_a_promotion_leaves_old_or_new_data(tmp_path: Path) -> None:
    archive, old_root = await _old_and_new(tmp_path)
    new_rows = table_dump(build_path_registry(tmp_path / "new").database_file, skip=REBASED)
    old_rows = table_dump(build_path_registry(old_root).database_file, skip=REBASED)
    new_files = user_files(build_path_registry(tmp_path / "new"))
    kill_points = 0
    while True:
        work = tmp_path / f"run{kill_points}"
        subprocess.run(["cp", "-a", str(old_root), str(work)], check=True)
        paths = build_path_registry(work)
        stage_restore(paths, archive)
        child = _child("promote", str(work), str(kill_points))
        out, _ = child.communicate(timeout=60)
        killed = child.returncode == -9
        # The next start: finishes (or rolls back) what the journal says, then opens the data.
        core = await start_core(paths)
        try:
            rows = table_dump(paths.database_file, skip=REBASED)
            assert rows in (new_rows, old_rows), kill_points
            assert rows == new_rows, f"a staged restore is promoted at the next start ({kill_points})"
            assert user_files(paths) == new_files
            assert core.restore_result is not None
        finally:
            await core.stop()
        journal = read_journal(paths)
        # Promoted by that start (kept aside until the next), or by the child (cleaned now).
        assert (journal or {}).get("state") == ("done" if killed else None), kill_points
        if not killed:
            assert out.startswith("promoted")
            break
        kill_points += 1
        assert kill_points < 100
    assert kill_points >= 8  # every item, its database side files and the journal writes


@pytest.mark.parametrize("damage", ["delete-db", "garbage-db"])
async def test_a_promoted_database_that_does_not_prove_rolls_back_to_the_old_data(tmp_path: Path, damage: str) -> None:
    archive, old_root = await _old_and_new(tmp_path)
    paths = build_path_registry(old_root)
    old_rows = table_dump(paths.database_file)
    old_files = user_files(paths)
    stage_restore(paths, archive)
    staged_db = old_root / "restore-staging" / "db" / "cherry.db"
    if damage == "garbage-db":
        staged_db.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
    else:
        staged_db.write_bytes(b"")
    core = await start_core(paths)
    try:
        assert core.restore_result is not None and core.restore_result.state == "rolled-back"
        assert table_dump(paths.database_file) == old_rows
        assert user_files(paths) == old_files
    finally:
        await core.stop()
    assert read_journal(paths) is None


async def test_a_read_only_data_dir_at_the_promoting_start_keeps_the_data_and_the_staged_restore(
        tmp_path: Path) -> None:
    from cherry_desktop.core.backup import promote_staged_restore
    from tests.unit.backup.helpers import small_tmpfs

    archive = tmp_path / "new.cherry-backup"
    new = await populated_core(tmp_path / "new", messages=2)
    assert new.backup is not None
    await new.backup.create(archive)
    await new.stop()
    paths = build_path_registry(tmp_path / "ro-data")
    with small_tmpfs(paths.get("app.data"), "16m") as data:
        if data is None:
            pytest.skip(f"{NO_TMPFS}: no read-only data folder to test with")
        old = await populated_core(data, messages=3)
        await old.stop()
        rows = table_dump(paths.database_file)
        stage_restore(paths, archive)
        subprocess.run(["mount", "-o", "remount,ro", str(data)], check=True)
        result = promote_staged_restore(paths)
        assert result.state == "failed" and "cannot be written" in result.detail
        assert table_dump(paths.database_file) == rows
        assert (read_journal(paths) or {}).get("state") == "prepared"  # tried again at the next start
        subprocess.run(["mount", "-o", "remount,rw", str(data)], check=True)
        assert promote_staged_restore(paths).state == "promoted"
