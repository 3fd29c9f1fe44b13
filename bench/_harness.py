"""Shared set-up for the UI benchmarks: a real core on a temp data dir, on a qasync loop."""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def run_qasync(main: Callable[[], Awaitable[Any]]) -> Any:
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        return loop.run_until_complete(main())


async def start_test_core(data_dir: str | None = None) -> Any:
    from cherry_desktop.core.bootstrap import start_core
    from cherry_desktop.core.paths import build_path_registry

    return await start_core(build_path_registry(data_dir or tempfile.mkdtemp(prefix="cherry-bench-")))


class LagProbe:
    """Measures event-loop lag: how late a 10 ms sleep wakes up."""

    def __init__(self, period_s: float = 0.01) -> None:
        self.period_s = period_s
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0 = loop.time()
            await asyncio.sleep(self.period_s)
            self.samples.append(max(0.0, (loop.time() - t0 - self.period_s) * 1000))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def p(self, q: float) -> float:
        if not self.samples:
            return 0.0
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def mean(self) -> float:
        return statistics.fmean(self.samples) if self.samples else 0.0
