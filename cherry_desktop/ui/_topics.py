"""Topic ids: how the UI names agent sessions and chat topics for the stream manager.

All stream traffic is keyed by topic id (`stream-manager.md`); agent sessions use the
`agent-session:<sessionId>` namespace, chat topics use their own id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

AGENT_SESSION_PREFIX = "agent-session:"


def agent_session_topic_id(session_id: str) -> str:
    return AGENT_SESSION_PREFIX + session_id


def session_id_of(topic_id: str) -> str | None:
    """The agent session id of an `agent-session:*` topic, else None."""
    if topic_id.startswith(AGENT_SESSION_PREFIX):
        return topic_id[len(AGENT_SESSION_PREFIX):]
    return None


def is_agent_topic(topic_id: str) -> bool:
    return topic_id.startswith(AGENT_SESSION_PREFIX)


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
            status = getattr(value, "status", None)
            last = getattr(value, "last_completed_at", None)
            anchors = getattr(value, "awaiting_approval_anchors", ()) or ()
        return cls(status, float(last) if last is not None else None,
                   status == "awaiting-approval" or bool(anchors))

    @property
    def is_live(self) -> bool:
        return self.status in ("pending", "streaming", "awaiting-approval")
