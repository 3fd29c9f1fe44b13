"""The app's loop (`cherry_desktop.ui.shell.event_loop`) finalizes abandoned async generators on
the loop, as asyncio's own loop does and qasync's alone does not: a provider that stops
reading an HTTP stream must get its `finally` (the connection's release) awaited."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.ui.shell.event_loop import CherryEventLoop

pytestmark = pytest.mark.gui


async def test_abandoned_async_generator_is_closed_on_the_loop() -> None:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, CherryEventLoop)
    assert sys.get_asyncgen_hooks().finalizer is not None
    released: list[str] = []

    async def reply() -> AsyncIterator[str]:
        try:
            for word in ("a", "b", "c"):
                yield word
        finally:
            await asyncio.sleep(0)  # an awaited cleanup, like releasing a pooled connection
            released.append("released")

    async for word in reply():
        if word == "a":
            break  # the consumer stops early (a provider at `[DONE]`)
    gc.collect()
    for _ in range(5):
        await asyncio.sleep(0)
    assert released == ["released"]


def test_hooks_are_restored_when_the_loop_stops(qapp: object) -> None:
    before = sys.get_asyncgen_hooks()
    loop = CherryEventLoop(qapp)
    try:
        seen = loop.run_until_complete(_hooks_inside())
    finally:
        loop.close()
    assert seen is not None
    assert sys.get_asyncgen_hooks() == before


async def _hooks_inside() -> object:
    return sys.get_asyncgen_hooks().finalizer


# ---- no thread inside Qt when the interpreter finalizes (cherry_desktop.ui.shell.event_loop) --------

ROOT = Path(__file__).resolve().parents[2]

CHILD_THREADS = textwrap.dedent("""
    import asyncio, json, sys, threading
    from PySide6.QtWidgets import QApplication
    from cherry_desktop.ui.shell.event_loop import new_event_loop, watch_children_on

    async def spawn():
        child = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(0.3)")
        names = [t.name for t in threading.enumerate()]
        return names, await child.wait()

    loop = new_event_loop(QApplication(sys.argv[:1]))
    with loop, watch_children_on(loop) as watched:
        names, code = loop.run_until_complete(spawn())
    print(json.dumps({"watched": watched, "threads": names, "code": code}))
""")


def _python(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)},
                          timeout=60, check=False)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pidfds are a Linux feature")
def test_a_child_process_is_watched_without_a_thread() -> None:
    """asyncio's default watcher on 3.11 waits for each child in a daemon thread that emits the
    exit into the loop from C++ (PySide), the app's abort at exit under load; on the app's loop
    no such thread exists and the child's exit code still arrives."""
    out = _python(CHILD_THREADS)
    assert out.returncode == 0, out.stderr[-2000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["code"] == 0
    assert seen["threads"] == ["MainThread"]
    assert seen["watched"] is (sys.version_info < (3, 12))


LINGERING = textwrap.dedent("""
    import asyncio, atexit, logging, sys, threading, time
    from PySide6.QtWidgets import QApplication
    from cherry_desktop import app
    from cherry_desktop.ui.shell.event_loop import new_event_loop

    logging.basicConfig(filename=sys.argv[1], level=logging.INFO)
    atexit.register(lambda: print("finalized"))
    loop = new_event_loop(QApplication(sys.argv[:1]))

    def keeps_calling_the_loop():  # a watcher thread on a system without pidfds, say
        while True:
            if not loop.is_closed():
                loop.call_soon_threadsafe(lambda: None)
            time.sleep(0.0005)

    async def run():
        threading.Thread(target=keeps_calling_the_loop, daemon=True, name="emitter").start()
        await asyncio.sleep(0.1)
        return 3

    with loop:
        code = loop.run_until_complete(run())
    sys.exit(app.exit_without_threads(code))
""")


def test_a_thread_left_running_after_the_stop_ends_the_process_without_finalizing(tmp_path: Path) -> None:
    """A thread still calling into the loop while the interpreter finalized aborted the process
    now and then ("terminate called without an active exception", -6); after the bounded join
    the app ends with its own exit code instead, the log flushed, nothing finalized."""
    for attempt in range(3):
        log_file = tmp_path / f"app-{attempt}.log"
        out = _python(LINGERING, str(log_file))
        assert out.returncode == 3, out.stderr[-2000:]
        assert "terminate called" not in out.stderr
        assert "finalized" not in out.stdout
        assert "threads still running after the stop (emitter): exiting without finalizing" in log_file.read_text()



async def test_a_task_that_comes_due_inside_a_nested_qt_loop_still_runs(qapp: Any) -> None:
    """A modal dialog's exec() or a processEvents() inside a task's step runs the loop's due
    callbacks from within that step; asyncio refuses to enter another task there, and on
    qasync's own loop that task never woke again (what awaited it hung)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialog

    loop = asyncio.get_running_loop()
    failures: list[str] = []
    loop.set_exception_handler(lambda _loop, context: failures.append(str(context.get("exception"))))
    quits = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)  # as the app has it: a closing dialog ends no loop
    try:
        for nested in ("processEvents", "dialog"):
            due: asyncio.Future[None] = loop.create_future()

            async def waiter(future: asyncio.Future[None] = due) -> str:
                await future
                return "woke"

            task = asyncio.ensure_future(waiter())
            await asyncio.sleep(0)  # it waits on `due`
            due.set_result(None)  # its wakeup is due now, and comes up in the nested loop below
            if nested == "processEvents":
                qapp.processEvents()
            else:
                dialog = QDialog()
                QTimer.singleShot(50, dialog.reject)
                dialog.exec()
            await asyncio.wait({task}, timeout=5)  # not wait_for: a stuck task cannot be cancelled either
            assert task.done() and task.result() == "woke", nested
    finally:
        loop.set_exception_handler(None)
        qapp.setQuitOnLastWindowClosed(quits)
    assert failures == []
