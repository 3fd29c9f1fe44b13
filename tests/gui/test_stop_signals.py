"""SIGTERM, SIGHUP and SIGINT stop the real app in order: `cherry-desktop --demo` runs offscreen
in a subprocess on a temp data dir and streams a slowed-down demo turn through the real Claude
Code CLI; each signal must save the turn `paused` with its partial text and resume token, close
the CLI (tracked by pid, as a descendant of the app) and exit 0. A second Ctrl+C exits at once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from cherry_desktop.ui.shell.stop_signals import FORCED_EXIT_CODE

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]

WAIT_LIMIT_S = 60.0  # bounds a hang; never asserted


@dataclass
class RunningApp:
    proc: subprocess.Popen[str]
    data_dir: Path

    def rows(self) -> list[tuple[str, str, str, str | None]]:
        db_file = self.data_dir / "cherry.db"
        if not db_file.exists():
            return []
        try:
            with sqlite3.connect(db_file, timeout=5) as db:
                return db.execute("SELECT role, status, data, runtime_resume_token FROM agent_session_message "
                                  "ORDER BY ordering").fetchall()
        except sqlite3.OperationalError:
            return []  # not migrated yet

    def cli_pids(self) -> list[int]:
        try:
            return [c.pid for c in psutil.Process(self.proc.pid).children(recursive=True)
                    if c.status() != psutil.STATUS_ZOMBIE]
        except psutil.NoSuchProcess:
            return []


def row_text(data: str) -> str:
    return "".join(p.get("text", "") for p in json.loads(data) if p.get("type") == "text")


def start_app(tmp_path: Path, *, delay_s: float = 0.3) -> RunningApp:
    """The real app with the demo streaming one piece every `delay_s` seconds."""
    data_dir = tmp_path / "app"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "CHERRY_DESKTOP_DEMO_DELAY_S": str(delay_s),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    # --screenshot drives one demo turn (and would quit once it finished: slowed down, it is
    # still streaming when the signal comes).
    proc = subprocess.Popen([sys.executable, "-m", "cherry_desktop", "--data-dir", str(data_dir), "--demo",
                             "--screenshot", str(tmp_path / "shot.png")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return RunningApp(proc, data_dir)


def wait_until_streaming(app: RunningApp) -> list[int]:
    """Until the assistant row holds partial text (a checkpoint) and the CLI runs."""
    deadline = time.monotonic() + WAIT_LIMIT_S
    while time.monotonic() < deadline:
        rows = app.rows()
        pids = app.cli_pids()
        if len(rows) == 2 and rows[1][1] == "pending" and row_text(rows[1][2]) and pids:
            return pids
        if app.proc.poll() is not None:
            break
        time.sleep(0.1)
    app.proc.kill()
    _, err = app.proc.communicate()
    raise AssertionError(f"the demo turn never streamed: {app.rows()} {err[-3000:]}")


def logs(app: RunningApp) -> str:
    files = list(app.data_dir.rglob("cherry-desktop.log"))
    return files[0].read_text(encoding="utf-8") if files else ""


def gone(pids: list[int], *, within_s: float = 5.0) -> bool:
    """Whether every pid has exited (the tie's watcher follows its CLI out within moments:
    `within_s` bounds that wait; it is never what a test asserts)."""
    deadline = time.monotonic() + within_s
    while not _all_gone(pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    return _all_gone(pids)


def _all_gone(pids: list[int]) -> bool:
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            pass
    return True


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_signal_mid_turn_runs_the_orderly_stop(tmp_path: Path, sig: signal.Signals) -> None:
    app = start_app(tmp_path)
    pids = wait_until_streaming(app)
    app.proc.send_signal(sig)
    try:
        _, err = app.proc.communicate(timeout=WAIT_LIMIT_S)
    finally:
        app.proc.kill()
    assert app.proc.returncode == 0, err[-3000:] + logs(app)[-3000:]
    assert "Traceback" not in err
    assert "terminate called" not in err  # no thread inside Qt while Python finalized (-6)
    (user, assistant) = app.rows()
    assert user[:2] == ("user", "success")
    assert assistant[1] == "paused", logs(app)[-3000:]
    assert row_text(assistant[2]).startswith("This is")
    assert assistant[3], "the paused row carries the resume token"
    assert gone(pids)
    assert f"{sig.name}: stopping in order" in logs(app)
    assert logs(app).rstrip().endswith("stopped")


def test_second_ctrl_c_exits_at_once(tmp_path: Path) -> None:
    app = start_app(tmp_path)
    pids = wait_until_streaming(app)
    app.proc.send_signal(signal.SIGINT)
    # Two signals sent back to back merge into one: the second Ctrl+C comes once the first
    # one's stop has begun (as a person's would), while it still runs.
    deadline = time.monotonic() + WAIT_LIMIT_S
    while "SIGINT: stopping in order" not in logs(app) and time.monotonic() < deadline:
        time.sleep(0.005)
    app.proc.send_signal(signal.SIGINT)
    try:
        _, err = app.proc.communicate(timeout=WAIT_LIMIT_S)
    finally:
        app.proc.kill()
    assert app.proc.returncode == FORCED_EXIT_CODE, err[-3000:]
    assert "Traceback" not in err
    assert "SIGINT during the orderly stop: exiting now" in logs(app)
    assert gone(pids)  # the kernel ends the tied CLI right after the app
    # Nothing stored is lost: the user row is there; the unfinished row is boot recovery's.
    assert app.rows()[0][:2] == ("user", "success")


async def test_signals_reach_the_qt_loop_in_process() -> None:
    """In-process: a signal to this process wakes the qasync loop and runs the stop once; the
    second one exits (here: recorded instead of `os._exit`); the previous handlers come back."""
    import asyncio

    from cherry_desktop.ui.shell.stop_signals import StopSignals

    stops: list[int] = []
    exits: list[int] = []
    previous = signal.getsignal(signal.SIGTERM)
    watcher = StopSignals(lambda: stops.append(1), exit_now=exits.append)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        async with asyncio.timeout(WAIT_LIMIT_S):
            while not stops:
                await asyncio.sleep(0.01)
        assert watcher.stopping and exits == []
        os.kill(os.getpid(), signal.SIGINT)  # no KeyboardInterrupt: routed like the others
        async with asyncio.timeout(WAIT_LIMIT_S):
            while not exits:
                await asyncio.sleep(0.01)
        assert stops == [1] and exits == [FORCED_EXIT_CODE]
    finally:
        watcher.close()
    assert signal.getsignal(signal.SIGTERM) == previous


async def test_a_signal_before_the_stop_target_exists_is_kept_for_it() -> None:
    import asyncio

    from cherry_desktop.ui.shell.stop_signals import StopSignals

    stops: list[int] = []
    watcher = StopSignals(exit_now=lambda code: None)
    try:
        os.kill(os.getpid(), signal.SIGHUP)
        async with asyncio.timeout(WAIT_LIMIT_S):
            while not watcher.stopping:
                await asyncio.sleep(0.01)
        watcher.set_target(lambda: stops.append(1))
        assert stops == [1]
    finally:
        watcher.close()


def test_sigterm_during_startup_stops_in_order(tmp_path: Path) -> None:
    app = start_app(tmp_path)
    deadline = time.monotonic() + WAIT_LIMIT_S
    while "stop signals routed" not in logs(app) and time.monotonic() < deadline:
        time.sleep(0.005)
    app.proc.send_signal(signal.SIGTERM)  # the window, core and the demo may not exist yet
    try:
        _, err = app.proc.communicate(timeout=WAIT_LIMIT_S)
    finally:
        app.proc.kill()
    assert app.proc.returncode == 0, err[-3000:]
    assert "Traceback" not in err
    assert "terminate called" not in err
    assert logs(app).rstrip().endswith("stopped")



async def test_a_signal_during_startup_skips_the_rest_of_it(tmp_path: Path, qapp: object,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: a signal that comes once core's base runs ends startup there: no window,
    no demo server, no stream services, no gateway, core stopped, and the app's main returns 0
    (on a loaded machine each of those steps took ~0.8 s, one after another: past the stop's
    deadline, exit 1)."""
    from PySide6.QtWidgets import QApplication

    from cherry_desktop import app as app_module
    from cherry_desktop.core.app import bootstrap
    from cherry_desktop.core.storage.paths import build_path_registry
    from cherry_desktop.ui.shell.stop_signals import StopSignals

    exits: list[int] = []
    watcher = StopSignals(exit_now=exits.append)
    started: list[bootstrap.CoreServices] = []
    real_start_core = bootstrap.start_core

    async def start_core_then_signal(*args: Any, **kwargs: Any) -> bootstrap.CoreServices:
        core = await real_start_core(*args, **kwargs)
        started.append(core)
        watcher.on_signal(signal.SIGTERM)  # what the loop runs when the signal comes
        return core

    monkeypatch.setattr(bootstrap, "start_core", start_core_then_signal)
    windows_before = set(QApplication.topLevelWidgets())
    try:
        code = await app_module.gui_main(build_path_registry(tmp_path / "app"), demo=True, screenshot=None,
                                         stop_signals=watcher)
    finally:
        watcher.close()
    assert code == 0 and exits == []
    (core,) = started
    assert not core.stream_services_composed
    assert core.gateway is None
    assert core.demo is None  # the demo server never started
    assert not [w for w in set(QApplication.topLevelWidgets()) - windows_before if w.isVisible()]
    assert not core.app.started  # core stopped in order
