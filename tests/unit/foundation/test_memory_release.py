"""MemoryReleaseService: memory is given back once every stream has been quiet for a while,
never while one streams."""

from __future__ import annotations

import asyncio
import linecache

from cherry_desktop.core.ai.stream.types import TopicStatusSnapshotEntry, TopicStreamStatus
from cherry_desktop.core.app.memory import MemoryReleaseService, release_memory
from cherry_desktop.core.lifecycle.container import Application
from cherry_desktop.core.state.shared_cache import SharedCache, topic_stream_status_key


async def started(cache: SharedCache, released: list[int]) -> MemoryReleaseService:
    service = MemoryReleaseService(cache, quiet_s=0.05, release=lambda: released.append(1))
    await service.on_init(Application())
    return service


def publish(cache: SharedCache, topic: str, status: TopicStreamStatus) -> None:
    cache.set_shared(topic_stream_status_key(topic), TopicStatusSnapshotEntry(status=status))


async def test_released_once_after_the_last_stream_went_quiet() -> None:
    cache, released = SharedCache(), []
    service = await started(cache, released)
    publish(cache, "a", "pending")
    publish(cache, "a", "streaming")
    publish(cache, "b", "streaming")
    publish(cache, "a", "done")
    await asyncio.sleep(0.15)
    assert released == []  # b still streams
    publish(cache, "b", "awaiting-approval")
    publish(cache, "b", "error")
    await asyncio.sleep(0.15)
    assert released == [1]
    publish(cache, "b", "done")  # a second terminal status for a quiet topic: nothing new
    await asyncio.sleep(0.15)
    assert released == [1] and service.releases == 1
    await service.on_stop()


async def test_a_stream_starting_within_the_quiet_time_cancels_the_release() -> None:
    cache, released = SharedCache(), []
    service = await started(cache, released)
    publish(cache, "a", "streaming")
    publish(cache, "a", "done")
    publish(cache, "a", "pending")  # the next queued turn, same tick
    await asyncio.sleep(0.15)
    assert released == []
    publish(cache, "a", "aborted")
    await service.on_stop()
    await asyncio.sleep(0.15)
    assert released == []  # stopped: the pending release is cancelled
    publish(cache, "a", "streaming")
    assert service.active == set()  # unsubscribed


async def test_a_failing_release_is_logged_not_raised() -> None:
    cache = SharedCache()

    def broken() -> None:
        raise OSError("no")

    service = MemoryReleaseService(cache, quiet_s=0.01, release=broken)
    await service.on_init(Application())
    publish(cache, "a", "streaming")
    publish(cache, "a", "done")
    await asyncio.sleep(0.05)
    assert service.releases == 1


def test_release_memory_drops_cached_sources() -> None:
    linecache.getlines(linecache.__file__)
    assert linecache.__file__ in linecache.cache
    release_memory()
    assert linecache.__file__ not in linecache.cache
