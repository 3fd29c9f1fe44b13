"""Shared-cache keys the bridges publish after a write that every window of a topic shows
(the spec's `cacheService.setShared`): a window follows them through `QtSharedCache.changed`,
so no window reaches into another one.

Each value is what changed, for the windows to show or to re-read from."""

from __future__ import annotations

#: A chat's own model changed (value: its unique model id, or None): its windows re-read the header.
TOPIC_MODEL_PREFIX = "topic.model."
#: The other models a chat asks changed (value: their unique model ids, deleted ones dropped).
TOPIC_EXTRA_MODELS_PREFIX = "topic.extra_models."
#: The answer a chat continues from changed ("Use this answer"; value: that message id).
TOPIC_CONTINUATION_PREFIX = "topic.continuation."
#: The tools always allowed in an agent session changed (value: their names, a tuple).
SESSION_ALWAYS_ALLOWED_PREFIX = "agent.session.always_allowed."


def topic_model_key(topic_id: str) -> str:
    return TOPIC_MODEL_PREFIX + topic_id


def topic_extra_models_key(topic_id: str) -> str:
    return TOPIC_EXTRA_MODELS_PREFIX + topic_id


def topic_continuation_key(topic_id: str) -> str:
    return TOPIC_CONTINUATION_PREFIX + topic_id


def session_always_allowed_key(topic_id: str) -> str:
    """Keyed by the session's topic id (the windows know their topic)."""
    return SESSION_ALWAYS_ALLOWED_PREFIX + topic_id
