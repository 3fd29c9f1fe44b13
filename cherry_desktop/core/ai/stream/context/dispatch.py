"""`dispatch_stream_request`: the one place that calls `AiStreamManager.send` for a request.

The first provider whose `can_handle(topic_id)` is true prepares the dispatch (persisting
rows, building listeners and models); this function queues a chat steer when the provider
marked one, then sends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.stream.types import (
    ChatContextProvider,
    DispatchContext,
    DispatchError,
    DispatchResult,
    MainDispatchRequest,
    StreamListener,
    WritesPausedError,
)

if TYPE_CHECKING:
    from cherry_desktop.core.ai.stream.manager import AiStreamManager


async def dispatch_stream_request(manager: AiStreamManager, subscriber: StreamListener | None,
                                  req: MainDispatchRequest,
                                  providers: Sequence[ChatContextProvider] | None = None) -> DispatchResult:
    if manager.writes_paused:
        raise WritesPausedError("stream writes are paused")
    chosen = providers if providers is not None else manager.context_providers
    provider = next((p for p in chosen if p.can_handle(req.topic_id)), None)
    if provider is None:
        raise DispatchError("no-provider", f"no context provider handles topic {req.topic_id}")
    ctx = DispatchContext(has_live_stream=manager.has_live_stream(req.topic_id))
    prepared = await provider.prepare_dispatch(subscriber, req, ctx)
    if prepared.pending_steer_user_message_id is not None:
        manager.enqueue_pending_steer(prepared.topic_id, prepared.pending_steer_user_message_id)
    result = manager.send(prepared)
    placeholders = [m.anchor_message_id or m.request.message_id for m in prepared.models]
    return DispatchResult(mode=result.mode, execution_ids=result.execution_ids,
                          user_message_id=prepared.user_message_id,
                          placeholder_ids=[p for p in placeholders if p is not None],
                          follow_up=prepared.follow_up)
