"""The Qt mirror of core's `SharedCache` (the spec's `Cache_Sync` + `useSharedCache`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from cherry_desktop.core.state.shared_cache import (
    TOPIC_STREAM_STATUS_PREFIX,
    SharedCache,
    topic_last_seen_completion_key,
    topic_stream_status_key,
)
from cherry_desktop.ui.bridge._topic_status import TopicStatusView


class QtSharedCache(QObject):
    """Re-emits every SharedCache change on the Qt side; one instance for all windows.

    A new window connects to `changed` first and then reads `snapshot()`: both happen on the
    loop thread, so no transition can fall between them.

    Signals:
        changed(str, object): a key and its new value (None when deleted).
        topic_status_changed(str, object): a topic id and its `TopicStatusView`.
    """

    changed = Signal(str, object)
    topic_status_changed = Signal(str, object)

    def __init__(self, cache: SharedCache, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.cache = cache
        # The core cache holds subscribers weakly; this bound method lives as long as we do.
        self._unsubscribe = cache.subscribe("", self._on_change, prefix=True)

    def _on_change(self, key: str, value: Any) -> None:
        self.changed.emit(key, value)
        if key.startswith(TOPIC_STREAM_STATUS_PREFIX):
            self.topic_status_changed.emit(key[len(TOPIC_STREAM_STATUS_PREFIX):], TopicStatusView.of(value))

    def snapshot(self, prefix: str = "") -> dict[str, Any]:
        return self.cache.snapshot(prefix)

    def topic_status(self, topic_id: str) -> TopicStatusView:
        return TopicStatusView.of(self.cache.get(topic_stream_status_key(topic_id)))

    def statuses(self) -> dict[str, TopicStatusView]:
        return {k[len(TOPIC_STREAM_STATUS_PREFIX):]: TopicStatusView.of(v)
                for k, v in self.cache.snapshot(TOPIC_STREAM_STATUS_PREFIX).items()}

    def last_seen_completion(self, topic_id: str) -> float | None:
        value = self.cache.get(topic_last_seen_completion_key(topic_id))
        return float(value) if value is not None else None

    def mark_completion_seen(self, topic_id: str) -> None:
        """The read receipt: the user saw the topic's latest completion."""
        status = self.topic_status(topic_id)
        if status.last_completed_at is None:
            return
        if (self.last_seen_completion(topic_id) or 0) >= status.last_completed_at:
            return
        self.cache.set_shared(topic_last_seen_completion_key(topic_id), status.last_completed_at)

    def has_unseen_completion(self, topic_id: str) -> bool:
        status = self.topic_status(topic_id)
        if status.status != "done" or status.last_completed_at is None:
            return False
        return (self.last_seen_completion(topic_id) or 0) < status.last_completed_at

    def close(self) -> None:
        self._unsubscribe()
