"""Run coroutines from Qt slots, keeping a reference and logging failures."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)

_TASKS: set[asyncio.Task[Any]] = set()


def spawn(coro: Coroutine[Any, Any, Any], *,
          on_error: Callable[[BaseException], None] | None = None) -> asyncio.Task[Any]:
    """Schedule `coro` on the running (qasync) loop; failures are logged and reported."""
    task = asyncio.ensure_future(coro)
    _TASKS.add(task)

    def _done(t: asyncio.Task[Any]) -> None:
        _TASKS.discard(t)
        if t.cancelled():
            return
        exc = t.exception()
        if exc is not None:
            log.error("UI task failed", exc_info=exc)
            if on_error is not None:
                try:
                    on_error(exc)
                except Exception:
                    log.exception("UI error handler failed")

    task.add_done_callback(_done)
    return task


def pending_tasks() -> set[asyncio.Task[Any]]:
    return set(_TASKS)


async def drain(timeout: float = 2.0) -> None:
    """Wait for the UI's own tasks (tests and shutdown)."""
    tasks = [t for t in _TASKS if not t.done()]
    if tasks:
        await asyncio.wait(tasks, timeout=timeout)
