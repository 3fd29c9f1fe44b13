"""`IdleTimer`: a live session's idle window, one timer, re-armed each time the session goes
idle and cancelled when a turn begins; when it runs out, `on_expiry` runs (the session closes
its runtime, `LiveSession.close_idle`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class IdleTimer:
    def __init__(self, on_expiry: Callable[[], object]) -> None:
        self.on_expiry = on_expiry
        self.handle: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def arm(self, delay_s: float) -> None:
        self.cancel()
        self.handle = asyncio.get_running_loop().call_later(delay_s, self._expire)

    def _expire(self) -> None:
        self.handle = None
        self.on_expiry()
