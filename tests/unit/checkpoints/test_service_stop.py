"""`CheckpointService.on_stop` is bounded: a git that never returns (here a `git` on PATH that
sleeps) does not hold the app's exit; its operation is cancelled and the child killed."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import pytest

from cherry_desktop.core.checkpoints.service import CheckpointService
from tests.fakes.programs import fake_program


async def test_a_hung_git_is_cancelled_at_stop_and_the_stop_returns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    pid_file = tmp_path / "git.pid"
    fake_program(tmp_path, monkeypatch, "git", f"echo $$ > {pid_file}\nexec sleep 600\n")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    service = CheckpointService(tmp_path / "checkpoints", workspace_of=lambda _sid: workspace,
                                session_exists=lambda _sid: True)
    service.stop_wait_s = 0.5
    pending = service.store("s1").prepare()
    while not pid_file.exists():
        await asyncio.sleep(0.01)
    with caplog.at_level(logging.WARNING):
        await asyncio.wait_for(service.on_stop(), timeout=30)
    assert "cancelled" in caplog.text
    await asyncio.wait([pending], timeout=30)
    assert pending.cancelled()
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the hung git was killed (and reaped) with its operation
