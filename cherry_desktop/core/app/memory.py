"""Give memory back once the app goes quiet after streaming (`MemoryReleaseService`).

A turn leaves two kinds of memory behind that nothing else gives back:

- `linecache` holds the source text of modules a traceback or `inspect` read (PySide6's
  import hook no longer fills it with every module imported after Qt: see
  `ui.pyside_feature_scan`). `linecache` reads a file again when a traceback needs it.
- glibc keeps freed heap pages (the turn's parsing, messages, the SDK's import) mapped;
  `malloc_trim(0)` returns them to the OS.

When every topic's stream has left pending/streaming/awaiting-approval and stayed so for
`QUIET_S`, `release_memory()` does both (~2-5 ms). A new stream cancels a pending release.
"""

from __future__ import annotations

import asyncio
import ctypes
import linecache
import logging
from collections.abc import Callable
from typing import ClassVar

from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.state.shared_cache import TOPIC_STREAM_STATUS_PREFIX, SharedCache

log = logging.getLogger(__name__)

QUIET_S = 2.0
ACTIVE_STATUSES = frozenset({"pending", "streaming", "awaiting-approval"})


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # glibc only
    except (OSError, AttributeError):
        return None
    return trim


def release_memory() -> None:
    """Drop the cached module sources and return free heap pages to the OS (glibc)."""
    linecache.clearcache()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


class MemoryReleaseService(Service):
    """Runs `release` once all streams have been quiet for `quiet_s` seconds."""

    name: ClassVar[str] = "memory_release"

    def __init__(self, shared_cache: SharedCache, *, quiet_s: float = QUIET_S,
                 release: Callable[[], None] = release_memory) -> None:
        self.shared_cache = shared_cache
        self.quiet_s = quiet_s
        self.release = release
        self.active: set[str] = set()
        self.releases = 0
        self._timer: asyncio.TimerHandle | None = None
        self._unsubscribe: Callable[[], None] | None = None

    async def on_init(self, app: Application) -> None:
        self._unsubscribe = self.shared_cache.subscribe(TOPIC_STREAM_STATUS_PREFIX, self.on_status, prefix=True)

    async def on_stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._cancel()

    def on_status(self, key: str, value: object) -> None:
        from cherry_desktop.core.ai.stream import TopicStatusSnapshotEntry  # loaded before this service starts

        topic_id = key.removeprefix(TOPIC_STREAM_STATUS_PREFIX)
        if isinstance(value, TopicStatusSnapshotEntry) and value.status in ACTIVE_STATUSES:
            self.active.add(topic_id)
            self._cancel()
            return
        was_active = topic_id in self.active
        self.active.discard(topic_id)
        if was_active and not self.active:
            self._cancel()
            self._timer = asyncio.get_running_loop().call_later(self.quiet_s, self._release)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _release(self) -> None:
        self._timer = None
        if self.active:
            return
        try:
            self.release()
        except Exception:
            log.exception("releasing memory failed")
        self.releases += 1
