"""`cherry-desktop backup create|restore` as a user runs them: on a data dir no instance runs
on, and with the real app running there (offscreen, the demo agent streaming through the
real Claude Code CLI): `create` asks the running instance, which holds and drains its own
writes and answers when the archive is written; `restore` stages and says to restart; the
restart promotes it. Bad input: one line on stderr, exit 1, the data untouched."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.storage.paths import build_path_registry
from tests.gui.test_stop_signals import WAIT_LIMIT_S, logs, start_app, wait_until_streaming
from tests.unit.backup.helpers import REBASED, populated_core, table_dump

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(180)]
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cherry_desktop", *args], env=env, capture_output=True,
                          text=True, timeout=WAIT_LIMIT_S * 2, check=False)


async def test_create_and_restore_without_a_running_instance(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a", messages=6)
    await core.stop()
    rows = table_dump(core.paths.database_file, skip=REBASED)
    archive = tmp_path / "my.cherry-backup"
    made = cli("backup", "create", "--data-dir", str(tmp_path / "a"), str(archive))
    assert made.returncode == 0, made.stderr
    assert "backup written" in made.stdout and "keyring" in made.stdout
    doctor = cli("doctor", "--data-dir", str(tmp_path / "a"))
    assert "last backup: " in doctor.stdout and str(archive) in doctor.stdout
    restored = cli("backup", "restore", "--data-dir", str(tmp_path / "b"), str(archive))
    assert restored.returncode == 0, restored.stderr
    assert "restored into" in restored.stdout
    assert "stay off until you allow them (Settings > Backups): Helper" in restored.stdout
    assert table_dump(build_path_registry(tmp_path / "b").database_file, skip=REBASED) == rows
    # Bad input: a foreign file, a missing one, a full stop with one line and the data kept.
    foreign = tmp_path / "notes.txt"
    foreign.write_text("not a backup\n", encoding="utf-8")
    for bad in (foreign, tmp_path / "missing.cherry-backup"):
        refused = cli("backup", "restore", "--data-dir", str(tmp_path / "b"), str(bad))
        assert refused.returncode == 1
        assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr
        assert "nothing was changed" in refused.stderr
    nowhere = cli("backup", "create", "--data-dir", str(tmp_path / "a"), str(tmp_path / "no" / "dir" / "x.b"))
    assert nowhere.returncode == 1 and "Traceback" not in nowhere.stderr
    assert table_dump(build_path_registry(tmp_path / "b").database_file, skip=REBASED) == rows


async def test_create_asks_the_running_app_and_restore_waits_for_its_restart(tmp_path: Path) -> None:
    app = start_app(tmp_path)
    archive = tmp_path / "live.cherry-backup"
    try:
        wait_until_streaming(app)
        made = cli("backup", "create", "--data-dir", str(app.data_dir), str(archive))
        assert made.returncode == 0, made.stderr
        assert "asking it to back up" in made.stdout and archive.is_file()
        assert "backup written" in logs(app)  # the running instance wrote it
        assert app.rows()[1][1] == "pending"  # its turn goes on, not aborted
        staged = cli("backup", "restore", "--data-dir", str(app.data_dir), str(archive))
        assert staged.returncode == 3, staged.stderr
        assert "start it again" in staged.stdout
        assert app.proc.poll() is None
    finally:
        app.proc.send_signal(signal.SIGTERM)
        app.proc.communicate(timeout=WAIT_LIMIT_S)
    assert app.proc.returncode == 0
    # The next start promotes the backup: the turn that was streaming at the snapshot is there,
    # as far as it was persisted, and not stuck pending.
    core = await start_core(build_path_registry(app.data_dir))
    try:
        assert core.restore_result is not None and core.restore_result.state == "promoted"
    finally:
        await core.stop()
    with sqlite3.connect(app.data_dir / "cherry.db") as db:
        statuses = [r[0] for r in db.execute("SELECT status FROM agent_session_message ORDER BY ordering")]
    assert statuses[0] == "success" and len(statuses) == 2 and "pending" not in statuses


def test_a_lock_holder_that_does_not_answer_gets_one_line_not_a_wait(tmp_path: Path) -> None:
    from cherry_desktop.core.app.instance_lock import InstanceLock, LockState

    data_dir = tmp_path / "held"
    data_dir.mkdir()
    holder = InstanceLock(data_dir / "cherry.lock")  # another `backup create` (a `serve` answers)
    assert holder.acquire() is LockState.ACQUIRED
    try:
        made = cli("backup", "create", "--data-dir", str(data_dir), str(tmp_path / "x.cherry-backup"))
    finally:
        holder.release()
    assert made.returncode == 1
    [line] = made.stderr.strip().splitlines()
    assert line.startswith("cherry-desktop backup: the instance running on this data folder did not answer")
    assert not (tmp_path / "x.cherry-backup").exists()
