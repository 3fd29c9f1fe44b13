"""Per-topic-id namespace dispatch: context providers and `dispatch_stream_request`."""

from cherry_desktop.core.ai.stream.context.dispatch import dispatch_stream_request, dispatch_when_writable
from cherry_desktop.core.ai.stream.context.model_resolution import resolve_models, siblings_group_id
from cherry_desktop.core.ai.stream.context.persistent import PersistentChatContextProvider, user_parts
from cherry_desktop.core.ai.stream.context.temporary import TemporaryChatContextProvider

__all__ = [
    "PersistentChatContextProvider",
    "TemporaryChatContextProvider",
    "dispatch_stream_request",
    "dispatch_when_writable",
    "resolve_models",
    "siblings_group_id",
    "user_parts",
]
