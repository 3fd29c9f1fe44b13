"""One instance per data directory, with the real app in subprocesses (offscreen): a second
launch hands its request to the first (which opens a window) and exits 0 without touching the
first's rows; a first instance that does not answer gets one line and a non-zero exit; a
crashed instance's lock is taken over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cherry_desktop.core.app.instance_lock import InstanceLock, LockState
from tests.gui.test_stop_signals import WAIT_LIMIT_S, logs, start_app, wait_until_streaming

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


def launch(data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run([sys.executable, "-m", "cherry_desktop", "--data-dir", str(data_dir)], env=env,
                          capture_output=True, text=True, timeout=WAIT_LIMIT_S, check=False)


def test_second_launch_opens_a_window_in_the_first_and_leaves_its_turn_alone(tmp_path: Path) -> None:
    first = start_app(tmp_path)
    try:
        wait_until_streaming(first)
        second = launch(first.data_dir)
        assert second.returncode == 0, second.stderr
        assert "opened a window for a later launch (2 open)" in logs(first)
        # No boot recovery ran in the second launch: the first's row is still streaming.
        rows = first.rows()
        assert rows[1][1] == "pending"
        assert first.proc.poll() is None
    finally:
        first.proc.send_signal(signal.SIGTERM)
        first.proc.communicate(timeout=WAIT_LIMIT_S)
    assert first.proc.returncode == 0
    assert first.rows()[1][1] == "paused"


def test_unreachable_first_instance_gets_one_line_and_a_failure(tmp_path: Path) -> None:
    data_dir = tmp_path / "app"
    data_dir.mkdir()
    holder = InstanceLock(data_dir / "cherry.lock")  # a "first instance" that never answers
    assert holder.acquire() is LockState.ACQUIRED
    try:
        result = launch(data_dir)
    finally:
        holder.release()
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not answer" in lines[0] and str(os.getpid()) in lines[0]
    assert not (data_dir / "cherry.db").exists()  # nothing was opened, nothing recovered


def test_stale_lock_of_a_killed_instance_is_taken_over(tmp_path: Path) -> None:
    lock_path = tmp_path / "cherry.lock"
    code = ("import sys, time\nfrom cherry_desktop.core.app.instance_lock import InstanceLock\n"
            f"lock = InstanceLock(__import__('pathlib').Path({str(lock_path)!r}))\n"
            "print(lock.acquire().value, flush=True)\ntime.sleep(300)\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    crashed = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    assert crashed.stdout is not None
    assert crashed.stdout.readline().strip() == "acquired"
    assert InstanceLock(lock_path).acquire() is LockState.HELD
    crashed.send_signal(signal.SIGKILL)
    crashed.wait()
    lock = InstanceLock(lock_path)
    try:
        assert lock.acquire() is LockState.ACQUIRED
        assert lock.holder_pid() == os.getpid()
    finally:
        lock.release()


QUITTING_FIRST = """
import sys, time
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QTimer
from cherry_desktop.core.app.instance_lock import InstanceLock, instance_channel_name
from cherry_desktop.ui.shell.single_instance import REPLY_QUITTING, InstanceServer

data_dir = Path(sys.argv[1])
app = QCoreApplication([])
lock = InstanceLock(data_dir / "cherry.lock")
assert lock.acquire().value == "acquired"

def on_request(request):
    # Stopping: let go of the lock a moment after answering, as a quitting app does.
    QTimer.singleShot(500, lambda: (lock.release(), app.quit()))
    return REPLY_QUITTING

server = InstanceServer(instance_channel_name(data_dir), on_request)
print("listening", flush=True)
app.exec()
"""


def test_a_launch_while_the_first_instance_quits_starts_in_its_place(tmp_path: Path) -> None:
    data_dir = tmp_path / "app"
    data_dir.mkdir()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    first = subprocess.Popen([sys.executable, "-c", QUITTING_FIRST, str(data_dir)], stdout=subprocess.PIPE,
                             text=True, env=env)
    assert first.stdout is not None and first.stdout.readline().strip() == "listening"
    second = subprocess.Popen([sys.executable, "-m", "cherry_desktop", "--data-dir", str(data_dir)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log_file = data_dir / "logs" / "cherry-desktop.log"
    try:
        assert first.wait(timeout=WAIT_LIMIT_S) == 0
        deadline = time.monotonic() + WAIT_LIMIT_S
        while "stop signals routed" not in (log_file.read_text() if log_file.exists() else ""):
            assert second.poll() is None and time.monotonic() < deadline, second.communicate()[1]
            time.sleep(0.05)
    finally:
        second.send_signal(signal.SIGTERM)
        _, err = second.communicate(timeout=WAIT_LIMIT_S)
    assert second.returncode == 0, err
    assert "starting" in log_file.read_text()
