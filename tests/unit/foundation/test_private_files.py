"""Private files (POSIX): the real app's folders are 0700 and its database, WAL, lock and
logs 0600, for a new install and for an existing one an older build left 0755 / 0644."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cherry_desktop.core.app.logging_setup import setup_logging
from cherry_desktop.core.data import open_database
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.core.storage.private_files import private_folders

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX; Windows uses ACLs")

ROOT = Path(__file__).resolve().parents[3]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def app_files(data_dir: Path) -> list[Path]:
    return [data_dir / "cherry.db", data_dir / "cherry.db-wal", data_dir / "cherry.lock",
            data_dir / "logs" / "cherry-desktop.log"]


def run_doctor_and_open(data_dir: Path) -> None:
    """What a start does to the files: folders, lock, database (+ WAL), a log line."""
    paths = build_path_registry(data_dir)
    paths.ensure_all()
    from cherry_desktop.core.app.instance_lock import InstanceLock

    lock = InstanceLock(paths.get("file.instance_lock"))
    lock.acquire()
    db = open_database(paths.database_file)
    handler = setup_logging(paths.get("file.log"))
    try:
        db.execute_sql("CREATE TABLE IF NOT EXISTS t (x)")
        db.execute_sql("INSERT INTO t VALUES (1)")  # the WAL file exists while the db is open
        logging.getLogger("test").warning("a line")
        handler.flush()
        for folder in private_folders(dict(paths.paths)):
            assert mode(folder) == 0o700, folder
        for file in app_files(data_dir):
            assert mode(file) == 0o600, file
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
        db.close()
        lock.release()


def test_a_new_install_is_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask: without care, 0755 and 0644
    try:
        run_doctor_and_open(tmp_path / "app")
    finally:
        os.umask(old)
    assert mode(tmp_path / "app" / "Agents") == 0o700  # between a root and a registered folder


def test_an_existing_install_is_tightened_at_start(tmp_path: Path) -> None:
    data_dir = tmp_path / "app"
    run_doctor_and_open(data_dir)
    paths = build_path_registry(data_dir)
    folders = private_folders(dict(paths.paths))
    for folder in folders:
        folder.chmod(0o755)
    (data_dir / "logs" / "cherry-desktop.log.1").write_text("an old rotated log\n")
    for file in [*app_files(data_dir)[:1], data_dir / "cherry.lock", *(data_dir / "logs").iterdir()]:
        file.chmod(0o644)
    run_doctor_and_open(data_dir)
    assert mode(data_dir / "logs" / "cherry-desktop.log.1") == 0o600


def test_the_real_app_start_leaves_nothing_world_readable(tmp_path: Path) -> None:
    """`cherry-desktop doctor` (the headless start path) on an old, world-readable install."""
    data_dir = tmp_path / "app"
    data_dir.mkdir(mode=0o755)
    (data_dir / "logs").mkdir(mode=0o755)
    out = subprocess.run([sys.executable, "-m", "cherry_desktop", "doctor", "--data-dir", str(data_dir)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    readable = [p for p in [data_dir, *data_dir.rglob("*")] if mode(p) & 0o077]
    assert readable == []
