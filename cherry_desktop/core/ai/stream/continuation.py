"""Continuations on the same topic stream: chat steering and the agent host's runtime turns.

Chat steering is enqueue + yield + chain: a steer row is queued while a turn is live, the
turn yields at its next step boundary (`request.steer_yield`), and when it completes cleanly
the head of the queue is answered by a `steer-continuation` dispatch whose executions run on
the same `ActiveStream`, so the renderer listeners carry forward. The agent-session host uses
the same mechanism through `will_continue_topic` / `start_runtime_turn` /
`terminate_held_topic_stream`, and `roll_execution` for its steer-boundary roll.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.stream.state import ActiveStream, is_subscriber
from cherry_desktop.core.ai.stream.types import (
    AiStreamRequest,
    DispatchContext,
    DispatchError,
    MainSteerContinuationRequest,
    ModelDispatch,
    SendInput,
    SendResult,
    SerializedError,
    StreamErrorResult,
    StreamListener,
    StreamManagerError,
    TransportTimings,
    UniqueModelId,
)
from cherry_desktop.core.messages import UIMessage

if TYPE_CHECKING:
    from cherry_desktop.core.ai.stream.manager import AiStreamManager

log = logging.getLogger(__name__)


# -- chat steering ----------------------------------------------------------------------


def enqueue_pending_steer(mgr: AiStreamManager, topic_id: str, user_message_id: str) -> bool:
    """Queue a persisted steer row; dropped (False) when the topic has no live turn."""
    stream = mgr._stream(topic_id)
    if stream is None or not (stream.is_live() or stream.status == "awaiting-approval"):
        log.info("steer %s on %s dropped: no live turn", user_message_id, topic_id)
        return False
    stream.pending_steers.append(user_message_id)
    return True


def has_pending_steer(mgr: AiStreamManager, topic_id: str) -> bool:
    stream = mgr._stream(topic_id)
    return stream is not None and bool(stream.pending_steers)


async def chain_steer(mgr: AiStreamManager, stream: ActiveStream) -> None:
    if not stream.pending_steers or stream.status not in ("pending", "streaming"):
        return  # aborted (or already chained) while a resume was pending
    # Held while the continuation is prepared, so a concurrent send injects, not restarts.
    stream.held = True
    if mgr.quiesce.paused:
        stream.deferred_chain = True
        mgr.quiesce.on_resume(lambda: spawn(mgr, chain_steer(mgr, stream)))
        return
    stream.deferred_chain = False
    steer_id = stream.pending_steers.popleft()
    req = MainSteerContinuationRequest(topic_id=stream.topic_id, steer_user_message_id=steer_id,
                                       model_ids=list(stream.executions))
    try:
        provider = next((p for p in mgr.context_providers if p.can_handle(stream.topic_id)), None)
        if provider is None:
            raise DispatchError("no-provider", f"no context provider for {stream.topic_id}")
        prepared = await provider.prepare_dispatch(None, req, DispatchContext(has_live_stream=True))
        if not prepared.models:
            raise DispatchError("no-models", "the steer continuation has no model to run")
        if not mgr._is_current(stream):
            raise StreamManagerError("the topic stream was replaced before the continuation started")
        continue_on(mgr, stream, prepared.models, prepared.listeners, prepared.siblings_group_id)
    except Exception as exc:
        log.exception("steer continuation of %s failed to launch", stream.topic_id)
        await fail_held(mgr, stream, SerializedError.from_exception(exc, code="continuation-failed"))


def spawn(mgr: AiStreamManager, coro: object) -> None:
    task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)  # type: ignore[arg-type]
    mgr._background_tasks.add(task)
    task.add_done_callback(mgr._background_tasks.discard)


def continue_on(mgr: AiStreamManager, stream: ActiveStream, models: Sequence[ModelDispatch],
                 listeners: Sequence[StreamListener], siblings_group_id: int | None) -> list[UniqueModelId]:
    """Launch `models` on the existing stream: subscribers stay, the finished turn's
    terminal-only listeners (its rows' persistence) give way to the new ones."""
    for lid, listener in list(stream.listeners.items()):
        if not is_subscriber(listener):
            del stream.listeners[lid]
    for listener in listeners:
        stream.listeners[listener.id] = listener
    stream.refresh_listeners()
    for model_id, ex in list(stream.executions.items()):
        if ex.status != "streaming":
            del stream.executions[model_id]
    stream.held = False
    stream.hold_requested = False
    stream.deferred_chain = False
    stream.siblings_group_id = siblings_group_id
    stream.last_error = None
    launched = [mgr._launch(stream, m).model_id for m in models]
    stream.status = "streaming"
    if mgr._is_current(stream):
        stream.lifecycle.on_promoted_to_streaming(stream)
    return launched


async def fail_held(mgr: AiStreamManager, stream: ActiveStream, error: SerializedError) -> None:
    """Drive a held topic to a terminal `error` (listeners told, lifecycle run)."""
    stream.held = False
    stream.hold_requested = False
    stream.deferred_chain = False
    stream.pending_steers.clear()
    stream.last_error = error
    last = next(reversed(stream.executions.values()), None)
    now = time.monotonic() * 1000.0
    result = StreamErrorResult(topic_id=stream.topic_id, model_id=last.model_id if last else "",
                               final_message=None,
                               timings=TransportTimings(started_at=now, completed_at=now),
                               anchor_message_id=None, is_topic_done=True, error=error)
    await mgr.dispatch_to_listeners(stream, "on_error", result)
    mgr._finalize_topic(stream, "error")


# -- agent-session runtime hooks -------------------------------------------------------


def will_continue_topic(mgr: AiStreamManager, topic_id: str) -> bool:
    """Keep the topic stream open across its next terminal (a runtime continuation follows).

    Call before the current execution's terminal or from a terminal listener: the topic is
    then held (status `streaming`, listeners kept, terminal results carry
    `is_topic_done=False` when requested early) until `start_runtime_turn` or
    `terminate_held_topic_stream`.
    """
    stream = mgr._stream(topic_id)
    # Not finalised yet (a terminal listener may ask while its own terminal is dispatched).
    if stream is None or stream.status not in ("pending", "streaming"):
        return False
    stream.hold_requested = True
    return True


def start_runtime_turn(mgr: AiStreamManager, *, topic_id: str, model_id: UniqueModelId,
                       request: AiStreamRequest, listeners: Sequence[StreamListener] = (),
                       anchor_message_id: str | None = None) -> SendResult:
    """Start the next runtime turn on the topic's stream, keeping its subscribers.

    A held stream continues in place; a finished (grace-period) stream is replaced by a new
    one that inherits its live subscribers; no stream starts a fresh one.
    """
    dispatch = ModelDispatch(model_id=model_id, request=request,
                             anchor_message_id=anchor_message_id or request.message_id)
    stream = mgr._stream(topic_id)
    if stream is not None and (stream.held or (stream.hold_requested and not stream.any_streaming())):
        return SendResult(mode="started", execution_ids=continue_on(mgr, stream, [dispatch], listeners, None))
    if stream is not None and stream.is_live():
        raise StreamManagerError(f"topic {topic_id} still has a running turn")
    carried: list[StreamListener] = []
    if stream is not None:
        carried = [lst for lst in stream.listener_seq if is_subscriber(lst) and lst.is_alive()]
    return mgr.send(SendInput(topic_id=topic_id, models=[dispatch], listeners=[*carried, *listeners]))


async def terminate_held_topic_stream(mgr: AiStreamManager, topic_id: str,
                                      error: SerializedError | str | None = None) -> bool:
    """A continuation could not start: end the held topic as `error` (and evict in time)."""
    stream = mgr._stream(topic_id)
    if stream is None or stream.any_streaming() or not (stream.held or stream.hold_requested
                                                        or stream.deferred_chain):
        return False
    if error is None:
        error = SerializedError(message="the continuation could not start", code="continuation-failed")
    elif isinstance(error, str):
        error = SerializedError(message=error, code="continuation-failed")
    await fail_held(mgr, stream, error)
    return True


def roll_execution(mgr: AiStreamManager, topic_id: str, model_id: UniqueModelId,
                   new_anchor_message_id: str) -> UIMessage | None:
    """Steer-boundary roll: return the running execution's message so far (the host
    finalises that row) and continue accumulating onto `new_anchor_message_id`."""
    stream = mgr._stream(topic_id)
    ex = stream.executions.get(model_id) if stream is not None else None
    if ex is None or ex.status != "streaming":
        return None
    partial = ex.reset_for_roll(new_anchor_message_id)
    if stream is not None and mgr._is_current(stream):
        stream.lifecycle.on_promoted_to_streaming(stream)
    return partial
