"""How a window reads a topic's status from the shared cache (topic ids: `core.state.topics`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TopicStatusView:
    """A TopicStatusSnapshotEntry read tolerantly (dataclass or dict)."""

    status: str | None
    last_completed_at: float | None
    awaiting_approval: bool

    @classmethod
    def of(cls, value: Any) -> TopicStatusView:
        if value is None:
            return cls(None, None, False)
        if isinstance(value, dict):
            status = value.get("status")
            last = value.get("last_completed_at", value.get("lastCompletedAt"))
            anchors = value.get("awaiting_approval_anchors", value.get("awaitingApprovalAnchors")) or ()
        else:
            # Published by the stream broker: its package is loaded once a value exists.
            from cherry_desktop.core.ai.stream.types import TopicStatusSnapshotEntry

            if not isinstance(value, TopicStatusSnapshotEntry):
                return cls(None, None, False)
            status, last, anchors = value.status, value.last_completed_at, value.awaiting_approval_anchors
        return cls(status, float(last) if last is not None else None,
                   status == "awaiting-approval" or bool(anchors))

    @property
    def is_live(self) -> bool:
        return self.status in ("pending", "streaming", "awaiting-approval")
