"""The real app end to end: `cherry-desktop --demo --screenshot PNG` on a temp data dir runs one
demo turn through the real Claude Code CLI and the scripted model server, then exits 0."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gui.conftest import ARTIFACTS

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


def test_demo_screenshot_after_one_completed_turn(tmp_path: Path) -> None:
    data_dir = tmp_path / "app"
    png = ARTIFACTS / "demo_turn.png"
    png.unlink(missing_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "cherry_desktop", "--data-dir", str(data_dir), "--demo",
                           "--screenshot", str(png)], env=env, capture_output=True, text=True, timeout=110,
                          check=False)
    logs = list(data_dir.rglob("cherry-desktop.log"))
    log = logs[0].read_text(encoding="utf-8") if logs else ""
    assert proc.returncode == 0, proc.stderr[-2000:] + log[-2000:]
    assert "terminate called" not in proc.stderr  # no thread inside Qt while Python finalized
    assert "idle: True" in log  # the turn completed before the capture
    assert png.exists() and png.stat().st_size > 10_000
    (db_file,) = data_dir.rglob("cherry.db")
    with sqlite3.connect(db_file) as db:
        rows = db.execute("SELECT role, status FROM agent_session_message ORDER BY ordering").fetchall()
    assert rows == [("user", "success"), ("assistant", "success")]
    notes = list(data_dir.rglob("note-1.md"))
    assert notes, "the approved Write tool ran in the demo workspace"
