"""`StreamLifecycle` strategies: what differs between chat streams and one-shot prompt streams.

The manager stays policy-free: whether a stream's status is mirrored into the SharedCache,
whether a window may attach, and when a finished stream leaves the registry are the
lifecycle's call. A lifecycle sees a stream through the narrow `LifecycleStream` view
(types.py), so it knows nothing of the manager's state classes.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cherry_desktop.core.ai.stream.types import (
    ActiveExecution,
    LifecycleStream,
    StreamLifecycle,
    TopicStatusSnapshotEntry,
    TopicStreamStatus,
)
from cherry_desktop.core.state.shared_cache import SharedCache, topic_stream_status_key

__all__ = ["ChatStreamLifecycle", "PromptStreamLifecycle", "StreamLifecycle", "status_entry"]


def status_entry(stream: LifecycleStream, previous: object) -> TopicStatusSnapshotEntry:
    """The SharedCache value for `stream`; `last_completed_at` moves only on `done`."""
    last = previous.last_completed_at if isinstance(previous, TopicStatusSnapshotEntry) else None
    if stream.status == "done":
        last = time.time() * 1000.0
    execs = stream.executions.values()
    status: TopicStreamStatus = stream.status
    if status in ("pending", "streaming") and any(e.awaiting_approval and e.status == "streaming" for e in execs):
        # A live turn paused on the user's decision (the runtime waits inside the turn).
        status = "awaiting-approval"
    return TopicStatusSnapshotEntry(
        status=status,
        active_executions=tuple(ActiveExecution(e.model_id, e.anchor_message_id)
                                for e in execs if e.status == "streaming"),
        awaiting_approval_anchors=tuple(ActiveExecution(e.model_id, e.anchor_message_id)
                                        for e in execs if e.awaiting_approval),
        last_completed_at=last,
    )


class ChatStreamLifecycle:
    """Status mirrored to `topic.stream.statuses.<topicId>`, attach allowed, grace period."""

    name = "chat"

    def __init__(self, shared_cache: SharedCache, grace_period_ms: float) -> None:
        self.shared_cache = shared_cache
        self.grace_period_ms = grace_period_ms

    def publish(self, stream: LifecycleStream) -> None:
        key = topic_stream_status_key(stream.topic_id)
        self.shared_cache.set_shared(key, status_entry(stream, self.shared_cache.get(key)))

    def on_created(self, stream: LifecycleStream) -> None:
        self.publish(stream)

    def on_promoted_to_streaming(self, stream: LifecycleStream) -> None:
        self.publish(stream)

    def on_terminal(self, stream: LifecycleStream) -> None:
        self.publish(stream)

    def can_attach(self, stream: LifecycleStream) -> bool:
        return True

    def cleanup(self, stream: LifecycleStream, evict: Callable[[], None]) -> None:
        # The SharedCache entry stays: terminal values are what the UI observes afterwards.
        stream.schedule_eviction(self.grace_period_ms, evict)


class PromptStreamLifecycle:
    """Translate / topic naming / probes: silent, no attach, evicted at once."""

    name = "prompt"

    def on_created(self, stream: LifecycleStream) -> None:
        pass

    def on_promoted_to_streaming(self, stream: LifecycleStream) -> None:
        pass

    def on_terminal(self, stream: LifecycleStream) -> None:
        pass

    def can_attach(self, stream: LifecycleStream) -> bool:
        return False

    def cleanup(self, stream: LifecycleStream, evict: Callable[[], None]) -> None:
        evict()
