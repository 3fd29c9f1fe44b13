"""Write quiesce: refcounted holds that stop new autonomous writes (backup restore).

`pause(reason)` returns a disposable hold; while any hold is active the manager admits no new
turn and writes no checkpoint, and chained steer continuations wait. `drain_in_flight`
awaits what was already running (its terminal persistence included) and names stragglers.
The last hold's disposal runs the callbacks registered with `on_resume` (deferred chains).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)


class WriteHold:
    """One `pause(reason)`: disposing it (or leaving its `with`) releases it, once."""

    __slots__ = ("_release", "disposed", "reason")

    def __init__(self, release: Callable[[WriteHold], None], reason: str) -> None:
        self._release = release
        self.reason = reason
        self.disposed = False

    def dispose(self) -> None:
        if not self.disposed:
            self.disposed = True
            self._release(self)

    def __enter__(self) -> WriteHold:
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()


class WriteQuiesce:
    def __init__(self) -> None:
        self._holds: list[WriteHold] = []
        self._resume_callbacks: list[Callable[[], None]] = []
        self._resumed_waiters: list[asyncio.Future[None]] = []

    @property
    def paused(self) -> bool:
        return bool(self._holds)

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(h.reason for h in self._holds)

    def pause(self, reason: str = "") -> WriteHold:
        hold = WriteHold(self._release, reason)
        self._holds.append(hold)
        log.info("stream writes paused (%s), %d hold(s)", reason or "no reason", len(self._holds))
        return hold

    def on_resume(self, callback: Callable[[], None]) -> None:
        self._resume_callbacks.append(callback)

    async def wait_resumed(self) -> None:
        """Return once no hold is active (at once when none is): a new turn waits through a
        backup's snapshot instead of failing."""
        while self._holds:
            waiter = asyncio.get_running_loop().create_future()
            self._resumed_waiters.append(waiter)
            await waiter

    def _release(self, hold: WriteHold) -> None:
        if hold in self._holds:
            self._holds.remove(hold)
        if self._holds:
            return
        log.info("stream writes resumed")
        waiters, self._resumed_waiters = self._resumed_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)
        callbacks, self._resume_callbacks = self._resume_callbacks, []
        for cb in callbacks:
            try:
                cb()
            except Exception:
                log.exception("resume callback failed")
