"""Topic ids: all stream traffic is keyed by topic id (`stream-manager.md`); agent sessions use
the `agent-session:<sessionId>` namespace, chat topics their own id.

Imports nothing: the UI names topics before core's stream services are loaded.
"""

from __future__ import annotations

AGENT_SESSION_TOPIC_PREFIX = "agent-session:"


def session_topic_id(session_id: str) -> str:
    """The topic of an agent session."""
    return f"{AGENT_SESSION_TOPIC_PREFIX}{session_id}"


def session_id_from_topic(topic_id: str) -> str | None:
    """The agent session id of an `agent-session:*` topic, else None."""
    if topic_id.startswith(AGENT_SESSION_TOPIC_PREFIX):
        return topic_id[len(AGENT_SESSION_TOPIC_PREFIX):] or None
    return None


def is_agent_session_topic(topic_id: str) -> bool:
    return topic_id.startswith(AGENT_SESSION_TOPIC_PREFIX)
