"""The manager's registries: active streams by topic, per-topic dispatch locks, the boot gate.

- `StreamRegistry`: `activeStreams` of the spec. A stream is *current* while it is the one
  registered under its topic; eviction stops whatever of it still runs (its chunks must never
  reach a listener again).
- `TopicLocks`: one `asyncio.Lock` per topic id, created on first use and dropped when no
  dispatch holds or waits for it; dispatches on one topic serialize, other topics never wait.
- `BootGate`: opened once boot recovery has flipped the rows a crash left pending.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator

from cherry_desktop.core.ai.stream.state import ActiveStream


class StreamRegistry:
    def __init__(self, stop_execution: Callable[[ActiveStream], None]) -> None:
        self._streams: dict[str, ActiveStream] = {}
        # Stops the still-running executions of an evicted stream (reason "replaced").
        self._stop_execution = stop_execution

    def get(self, topic_id: str) -> ActiveStream | None:
        return self._streams.get(topic_id)

    def put(self, stream: ActiveStream) -> None:
        self._streams[stream.topic_id] = stream

    def is_current(self, stream: ActiveStream) -> bool:
        return self._streams.get(stream.topic_id) is stream

    def evict(self, stream: ActiveStream) -> None:
        stream.cancel_eviction()
        if self.is_current(stream):
            del self._streams[stream.topic_id]
        if stream.any_streaming():
            self._stop_execution(stream)

    def evict_if_current(self, stream: ActiveStream) -> None:
        if self.is_current(stream) and not stream.is_live():
            self.evict(stream)

    def streams(self) -> list[ActiveStream]:
        return list(self._streams.values())

    def topic_ids(self) -> list[str]:
        return list(self._streams)

    def __iter__(self) -> Iterator[ActiveStream]:
        return iter(list(self._streams.values()))


class TopicLocks:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, topic_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(topic_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[topic_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[topic_id]
            if users <= 1:
                del self._locks[topic_id]
            else:
                self._locks[topic_id] = (lock, users - 1)

    def active_topics(self) -> list[str]:
        """Topics with a dispatch holding or awaiting their lock."""
        return list(self._locks)


class BootGate:
    """Closed until `open()` when `required`; always open otherwise."""

    def __init__(self, required: bool) -> None:
        self._event = asyncio.Event()
        if not required:
            self._event.set()

    @property
    def is_open(self) -> bool:
        return self._event.is_set()

    def open(self) -> None:
        self._event.set()

    async def wait(self) -> None:
        await self._event.wait()
