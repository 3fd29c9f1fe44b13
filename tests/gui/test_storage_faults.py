"""Storage faults at start, with the real app in a subprocess (offscreen): a read-only data
folder, a full disk, a damaged page, a truncated or foreign file, a newer schema. Each gives
one line on stderr (no traceback), exit code 2, and leaves what was stored as it was.

The read-only folder and the full disk are real: a read-only bind mount and a small tmpfs in
a private mount namespace (`unshare -m`; root only)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from cherry_desktop.app import STORAGE_FAULT_EXIT_CODE
from cherry_desktop.core.data import open_database
from cherry_desktop.core.data.database import SCHEMA_VERSION
from cherry_desktop.core.storage.paths import build_path_registry

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[2]
APP_LIMIT_S = 60.0  # bounds a hang (an app that started normally); never asserted


def _env() -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}


def _app_command(data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "cherry_desktop", "--data-dir", str(data_dir)]


def run_app(data_dir: Path, *, mount_script: str | None = None,
            after: str = "true") -> subprocess.CompletedProcess[str]:
    """The app on `data_dir`; with `mount_script`, inside a private mount namespace after it
    (and `after` run there once the app exited, keeping the app's exit code)."""
    command = _app_command(data_dir)
    if mount_script is not None:
        quoted = " ".join(f"'{c}'" for c in command)
        command = ["unshare", "-m", "sh", "-c", f"{mount_script} || exit 99; {quoted}; rc=$?; {after}; exit $rc"]
    return subprocess.run(command, env=_env(), capture_output=True, text=True, timeout=APP_LIMIT_S, check=False)


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    noise = ("propagateSizeHints",)  # Qt's offscreen plugin talking, not the app
    lines = [ln for ln in result.stderr.splitlines() if ln.strip() and not any(n in ln for n in noise)]
    assert result.returncode == STORAGE_FAULT_EXIT_CODE, result.stderr[-3000:]
    assert len(lines) == 1, result.stderr[-3000:]
    assert lines[0].startswith("cherry-desktop: ")
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


def seeded_data_dir(tmp_path: Path, *, pending: bool = False) -> Path:
    """A data dir whose database holds a chat topic with two messages (one pending)."""
    data_dir = tmp_path / "app"
    paths = build_path_registry(data_dir)
    paths.ensure_all()  # as an installed app's folder is: folders, log and lock files exist
    paths.get("file.log").touch()
    paths.get("file.instance_lock").touch()
    db = open_database(data_dir / "cherry.db")
    try:
        from cherry_desktop.core.data import Repositories
        from cherry_desktop.core.messages import TextPart

        repos = Repositories()
        topic = repos.topics.create_topic(name="Kept")
        repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="keep me")],
                                      status="success")
        repos.messages.create_message(topic_id=topic.id, role="assistant", parts=[TextPart(text="half")],
                                      status="pending" if pending else "success")
    finally:
        db.close()
    return data_dir


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stored_texts(db_file: Path) -> list[str]:
    with sqlite3.connect(db_file) as db:
        return [row[0] for row in db.execute("SELECT data FROM message ORDER BY ordering")]


def need_unshare() -> None:
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip(reason="a private mount namespace needs unshare(1) and root on this OS")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(reason=f"this OS does not allow a private mount namespace: {probe.stderr!r}")


def test_read_only_data_folder(tmp_path: Path) -> None:
    need_unshare()
    data_dir = seeded_data_dir(tmp_path)
    run_app_once = run_app(data_dir, mount_script=f"mount --bind '{data_dir}' '{data_dir}' && "
                                                  f"mount -o remount,ro,bind '{data_dir}'")
    assert_one_clear_line(run_app_once, "cannot be written")


def test_full_disk_at_start_keeps_the_stored_rows(tmp_path: Path) -> None:
    need_unshare()
    seed = seeded_data_dir(tmp_path, pending=True)  # boot recovery must write: the disk refuses
    data_dir = tmp_path / "full"
    data_dir.mkdir()
    with sqlite3.connect(seed / "cherry.db") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = stored_texts(seed / "cherry.db")
    script = (f"mount -t tmpfs -o size=1m tmpfs '{data_dir}' && cp -a '{seed}/.' '{data_dir}/' && "
              f"dd if=/dev/zero of='{data_dir}/slack' bs=1k count=40 2>/dev/null && "
              f"(dd if=/dev/zero of='{data_dir}/filler' bs=1k 2>/dev/null; true) && "
              f"rm '{data_dir}/slack'")
    result = run_app(data_dir, mount_script=script,
                     after=f"rm '{data_dir}/filler'; cp -a '{data_dir}/.' '{tmp_path}/after/'")
    assert_one_clear_line(result, "is full")
    assert stored_texts(tmp_path / "after" / "cherry.db") == before  # the pending row too


def test_damaged_page(tmp_path: Path) -> None:
    data_dir = seeded_data_dir(tmp_path)
    db_file = data_dir / "cherry.db"
    with sqlite3.connect(db_file) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = bytearray(db_file.read_bytes())
    raw[100:4096] = b"\xa5" * (4096 - 100)  # the schema page's b-tree, past the file header
    db_file.write_bytes(bytes(raw))
    before = digest(db_file)
    result = run_app(data_dir)
    assert_one_clear_line(result, "is damaged", str(db_file))
    assert digest(db_file) == before


@pytest.mark.parametrize("content", [b"SQLite format 3\x00" + b"\x00" * 84, b"# my notes\nnot a database\n" * 200],
                         ids=["truncated", "foreign"])
def test_truncated_or_foreign_file(tmp_path: Path, content: bytes) -> None:
    data_dir = tmp_path / "app"
    data_dir.mkdir()
    db_file = data_dir / "cherry.db"
    db_file.write_bytes(content)
    result = run_app(data_dir)
    assert_one_clear_line(result, "is not a Cherry Desktop database")
    assert db_file.read_bytes() == content


def test_newer_schema(tmp_path: Path) -> None:
    data_dir = seeded_data_dir(tmp_path)
    db_file = data_dir / "cherry.db"
    with sqlite3.connect(db_file) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    before = stored_texts(db_file)
    result = run_app(data_dir)
    assert_one_clear_line(result, "newer Cherry Desktop")
    assert stored_texts(db_file) == before
    with sqlite3.connect(db_file) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 5


# ---- doctor ------------------------------------------------------------------------------------


def run_doctor(data_dir: Path, *, mount_script: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cherry_desktop", "doctor", "--data-dir", str(data_dir)]
    if mount_script is not None:
        quoted = " ".join(f"'{c}'" for c in command)
        command = ["unshare", "-m", "sh", "-c", f"{mount_script} && exec {quoted}"]
    return subprocess.run(command, env=_env(), capture_output=True, text=True, timeout=APP_LIMIT_S, check=False)


def problems(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [ln for ln in result.stdout.splitlines() if ln.startswith("PROBLEM: ")]


def test_doctor_finds_a_damaged_data_page(tmp_path: Path) -> None:
    data_dir = seeded_data_dir(tmp_path)
    db_file = data_dir / "cherry.db"
    with sqlite3.connect(db_file) as db:
        db.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, blob TEXT)")
        db.executemany("INSERT INTO filler (blob) VALUES (?)", [("x" * 3000,) for _ in range(50)])
        db.commit()
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        page_count = db.execute("PRAGMA page_count").fetchone()[0]
    raw = bytearray(db_file.read_bytes())
    victim = (page_count - 10) * page_size  # a b-tree page of the filler table, not the schema
    raw[victim:victim + page_size] = b"\xa5" * page_size
    db_file.write_bytes(bytes(raw))
    result = run_doctor(data_dir)
    assert result.returncode == 1
    assert any("is damaged (quick_check" in p for p in problems(result)), result.stdout
    assert "status: ok" not in result.stdout


def test_doctor_reports_each_unwritable_folder_and_the_lock(tmp_path: Path) -> None:
    need_unshare()
    data_dir = seeded_data_dir(tmp_path)
    result = run_doctor(data_dir, mount_script=f"mount --bind '{data_dir}' '{data_dir}' && "
                                               f"mount -o remount,ro,bind '{data_dir}'")
    found = problems(result)
    assert result.returncode == 1
    assert any(f"folder {data_dir} is not writable" in p for p in found), result.stdout
    assert any(f"folder {data_dir / 'logs'} is not writable" in p for p in found), result.stdout
    assert any("instance lock" in p and "cannot be used" in p for p in found), result.stdout


def test_doctor_says_when_the_app_runs_on_the_data_dir(tmp_path: Path) -> None:
    from cherry_desktop.core.app.instance_lock import InstanceLock

    data_dir = seeded_data_dir(tmp_path)
    lock = InstanceLock(data_dir / "cherry.lock")
    lock.acquire()
    try:
        result = run_doctor(data_dir)
    finally:
        lock.release()
    assert f"held by a running instance (pid {os.getpid()})" in result.stdout
    assert result.returncode == 0, result.stdout


def test_every_fault_has_words(qapp: object) -> None:
    from cherry_desktop.core.storage.storage_faults import StorageError, StorageFault
    from cherry_desktop.ui.shell.storage_fault import StorageFaultText, storage_fault_line

    for fault in StorageFault:
        error = StorageError(fault, Path("/data/cherry.db"), "what SQLite said")
        text = StorageFaultText().explain(error)
        assert "/data/cherry.db" in text and "%1" not in text
        line = storage_fault_line(error)
        assert "\n" not in line and line.endswith("(what SQLite said)")
