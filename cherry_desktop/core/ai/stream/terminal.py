"""Terminal events: the one funnel that tells listeners a turn ended, and the topic status.

`dispatch_terminal` runs in two phases. First the terminal-only listeners (persistence, trace
flush, the agent host's turn listener), awaited one after the other; then the subscribers
(windows, channels, SSE). A window therefore hears `on_done` only once the row it would read
is written ("renderer listeners are notified after persistence"), and when that write failed
(twice: `PersistenceListener` retries once) the subscribers get `on_error` instead: a failed
final write never shows success. Each call is liveness-checked and isolated.
"""

from __future__ import annotations

import logging
from typing import TypedDict

from cherry_desktop.core.ai.stream.listeners import is_subscriber
from cherry_desktop.core.ai.stream.state import ActiveStream, StreamExecution
from cherry_desktop.core.ai.stream.types import (
    PersistenceWriteError,
    SerializedError,
    StreamDoneResult,
    StreamErrorResult,
    StreamListener,
    StreamPausedResult,
    StreamTerminalResult,
    TopicStreamStatus,
    TransportTimings,
    UniqueModelId,
)
from cherry_desktop.core.messages import UIMessage

log = logging.getLogger(__name__)


class ResultFields(TypedDict):
    """What every terminal result of an execution carries."""

    topic_id: str
    model_id: UniqueModelId
    final_message: UIMessage | None
    timings: TransportTimings
    anchor_message_id: str | None
    is_topic_done: bool


def result_fields(stream: ActiveStream, ex: StreamExecution, is_topic_done: bool) -> ResultFields:
    return ResultFields(topic_id=stream.topic_id, model_id=ex.model_id, final_message=ex.final_message,
                        timings=ex.timings, anchor_message_id=ex.anchor_message_id, is_topic_done=is_topic_done)


_EVENTS = {"success": "on_done", "paused": "on_paused", "error": "on_error"}


def event_name(result: StreamTerminalResult) -> str:
    """The listener method a result goes to (for the logs)."""
    return _EVENTS[result.status]


def persist_failed(result: StreamTerminalResult, exc: PersistenceWriteError) -> StreamErrorResult:
    """What the subscribers hear when the terminal write of `result` failed."""
    error = SerializedError(message=str(exc), name=type(exc).__name__, code=exc.code)
    return StreamErrorResult(topic_id=result.topic_id, model_id=result.model_id,
                             final_message=result.final_message, timings=result.timings,
                             anchor_message_id=result.anchor_message_id,
                             is_topic_done=result.is_topic_done, error=error)


async def _call(stream: ActiveStream, listener: StreamListener, result: StreamTerminalResult) -> None:
    if not listener.is_alive():
        log.info("%s: listener %s is dead, removed", event_name(result), listener.id)
        stream.remove_listener(listener.id)
        return
    if isinstance(result, StreamDoneResult):
        await listener.on_done(result)
    elif isinstance(result, StreamPausedResult):
        await listener.on_paused(result)
    else:
        await listener.on_error(result)


async def _tell_subscribers(stream: ActiveStream, result: StreamTerminalResult) -> None:
    for listener in stream.listener_seq:
        if not is_subscriber(listener):
            continue
        try:
            await _call(stream, listener, result)
        except Exception:
            log.exception("%s failed for listener %s", event_name(result), listener.id)


async def dispatch_terminal(stream: ActiveStream, result: StreamTerminalResult) -> StreamTerminalResult:
    """Tell every listener (persistence first, then subscribers); returns what the
    subscribers heard (an error result when the terminal write failed)."""
    slot = stream.outbox.reserve()
    heard = result
    try:
        failed: PersistenceWriteError | None = None
        for listener in stream.listener_seq:
            if is_subscriber(listener):
                continue
            try:
                await _call(stream, listener, result)
            except PersistenceWriteError as exc:
                failed = exc
            except Exception:
                log.exception("%s failed for listener %s", event_name(result), listener.id)
        if failed is not None and not isinstance(result, StreamErrorResult):
            heard = persist_failed(result, failed)
    finally:
        await stream.outbox.fill(slot, heard, lambda ready: _tell_subscribers(stream, ready))
    return heard


def derive_terminal_status(stream: ActiveStream) -> TopicStreamStatus:
    execs = list(stream.executions.values())
    if any(e.awaiting_approval for e in execs):
        return "awaiting-approval"
    if any(e.status == "error" for e in execs):
        return "error"
    if execs and all(e.status == "done" for e in execs):
        return "done"
    return "aborted"
