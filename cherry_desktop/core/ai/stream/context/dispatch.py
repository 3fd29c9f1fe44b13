"""`dispatch_stream_request`: the one place that calls `AiStreamManager.send` for a request.

The first provider whose `can_handle(topic_id)` is true prepares the dispatch (persisting
rows, building listeners and models); this function queues a chat steer when the provider
marked one, then sends. Before anything is written it waits for the boot gate (rows a crash
left pending are flipped first), refuses a request naming a model twice, and takes the
topic's dispatch lock, so two dispatches on one topic never both see it idle.
"""

from __future__ import annotations

from collections.abc import Sequence

from cherry_desktop.core.ai.stream.manager import AiStreamManager, check_distinct_models
from cherry_desktop.core.ai.stream.types import (
    AiStreamOpenRequest,
    ChatContextProvider,
    DispatchContext,
    DispatchError,
    DispatchResult,
    MainDispatchRequest,
    MainSteerContinuationRequest,
    StreamListener,
    WritesPausedError,
)


def requested_models(req: MainDispatchRequest) -> list[str]:
    if isinstance(req, AiStreamOpenRequest):
        return list(req.mentioned_model_ids)
    if isinstance(req, MainSteerContinuationRequest):
        return list(req.model_ids)
    return [req.model_id]


async def dispatch_stream_request(manager: AiStreamManager, subscriber: StreamListener | None,
                                  req: MainDispatchRequest,
                                  providers: Sequence[ChatContextProvider] | None = None) -> DispatchResult:
    check_distinct_models(requested_models(req))
    await manager.wait_boot_reconciled()
    async with manager.dispatch_lock(req.topic_id):
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


async def dispatch_when_writable(manager: AiStreamManager, subscriber: StreamListener | None,
                                 req: MainDispatchRequest) -> DispatchResult:
    """`dispatch_stream_request` for a user's send: while a write hold is active (a backup's
    snapshot) the request waits for its release instead of failing, then dispatches."""
    while True:
        await manager.wait_writes_resumed()
        try:
            return await dispatch_stream_request(manager, subscriber, req)
        except WritesPausedError:
            continue  # a new hold began between the wait and the lock
