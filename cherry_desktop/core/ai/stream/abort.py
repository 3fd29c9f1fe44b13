"""`AbortController` / `AbortSignal`: the Python counterpart of the DOM pair.

An execution's controller is aborted by a stop (user, no subscribers, shutdown, replaced,
idle timeout); its signal reaches the upstream through `AiStreamRequest.signal`. The
controller keeps the event it shares with its signal, so only the controller fires it.
"""

from __future__ import annotations

import asyncio


class AbortSignal:
    """An event plus a reason; `aborted` once its controller fired."""

    __slots__ = ("_event", "reason")

    def __init__(self, event: asyncio.Event | None = None) -> None:
        self._event = event if event is not None else asyncio.Event()
        self.reason: str | None = None

    @property
    def aborted(self) -> bool:
        return self._event.is_set()

    async def wait(self) -> None:
        await self._event.wait()


class AbortController:
    __slots__ = ("_event", "signal")

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.signal = AbortSignal(self._event)

    def abort(self, reason: str = "aborted") -> None:
        if not self.signal.aborted:
            self.signal.reason = reason
            self._event.set()
