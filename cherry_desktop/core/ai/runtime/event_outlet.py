"""A runtime connection's event outlet: the one ordered stream of its events, read either by
`events()` or, the host's fast path, by a sink the connection's own reader calls back
(`AgentRuntimeConnection.set_event_sink`). Shared by every driver's connection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from cherry_desktop.core.ai.runtime.events import AgentRuntimeEvent

#: Receives each event in order, then None once the stream ended (`set_event_sink`).
EventSink = Callable[[AgentRuntimeEvent | None], None]


class EventOutlet:
    """Events queue until a sink is set; None ends the stream, and nothing passes after it."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[AgentRuntimeEvent | None] = asyncio.Queue()
        self._sink: EventSink | None = None
        self.ended = False

    async def events(self) -> AsyncIterator[AgentRuntimeEvent]:
        """The queued events, in order, until the end (one reader for the connection's life)."""
        while True:
            event = await self._queue.get()
            if event is None:
                return
            yield event

    def set_sink(self, sink: EventSink | None) -> None:
        """Hand events to `sink` as they happen instead of queueing them; events queued before
        are handed over first. None detaches: later events queue again."""
        self._sink = sink
        if sink is not None:
            for event in self.take_queued():
                sink(event)

    def emit(self, event: AgentRuntimeEvent | None) -> None:
        """Pass `event` on (None: the stream ended). After the end, nothing is passed on."""
        if self.ended:
            return
        if event is None:
            self.ended = True
        sink = self._sink
        if sink is not None:
            sink(event)
        else:
            self._queue.put_nowait(event)

    def take_queued(self) -> list[AgentRuntimeEvent | None]:
        """Remove and return what is queued and not read yet, oldest first."""
        taken: list[AgentRuntimeEvent | None] = []
        while not self._queue.empty():
            taken.append(self._queue.get_nowait())
        return taken

    def has_queued(self) -> bool:
        return not self._queue.empty()
