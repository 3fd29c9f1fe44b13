"""Continuations on the same topic stream: chat steering and the agent host's runtime turns.

Chat steering is enqueue + yield + chain: a steer row is queued while a turn is live, the
turn yields at its next step boundary (`request.steer_yield`), and when it completes cleanly
the head of the queue is answered by a `steer-continuation` dispatch whose executions run on
the same `ActiveStream`, so the renderer listeners carry forward. The agent-session host uses
the same mechanism through `will_continue_topic` / `start_runtime_turn` /
`terminate_held_topic_stream` (its steer-boundary roll: hold the topic, end the pre-steer
segment's execution, start the continuation's on the same stream).

These functions reach the manager only through `ContinuationHost`, a small public interface
(`AiStreamManager` implements it); the topic's hold state changes only through `TopicHold`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Coroutine, Sequence
from typing import Protocol

from cherry_desktop.core.ai.stream.listeners import is_subscriber
from cherry_desktop.core.ai.stream.quiesce import WriteQuiesce
from cherry_desktop.core.ai.stream.state import ActiveStream, StreamExecution
from cherry_desktop.core.ai.stream.types import (
    AiStreamRequest,
    ChatContextProvider,
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
    StreamTerminalResult,
    TopicStreamStatus,
    TransportTimings,
    UniqueModelId,
)
from cherry_desktop.core.messages import ErrorCode

log = logging.getLogger(__name__)


class ContinuationHost(Protocol):
    """What the continuations need from the manager."""

    @property
    def context_providers(self) -> list[ChatContextProvider]: ...

    @property
    def quiesce(self) -> WriteQuiesce: ...

    def stream(self, topic_id: str) -> ActiveStream | None:
        """The topic's current stream (live or in its grace period)."""
        ...

    def is_current(self, stream: ActiveStream) -> bool: ...

    def launch(self, stream: ActiveStream, model: ModelDispatch) -> StreamExecution: ...

    def send(self, input: SendInput) -> SendResult: ...

    def publish(self, stream: ActiveStream) -> None:
        """Mirror a live topic's status (its executions changed)."""
        ...

    def finalize_topic(self, stream: ActiveStream, status: TopicStreamStatus | None = None) -> None: ...

    async def dispatch_to_listeners(self, stream: ActiveStream,
                                    result: StreamTerminalResult) -> StreamTerminalResult: ...

    def spawn(self, coro: Coroutine[object, object, None]) -> None:
        """Run `coro` in the background (kept referenced until done)."""
        ...


# -- chat steering ----------------------------------------------------------------------


def enqueue_pending_steer(mgr: ContinuationHost, topic_id: str, user_message_id: str) -> bool:
    """Queue a persisted steer row; dropped (False) when the topic has no live turn."""
    stream = mgr.stream(topic_id)
    if stream is None or not (stream.is_live() or stream.status == "awaiting-approval"):
        log.info("steer %s on %s dropped: no live turn", user_message_id, topic_id)
        return False
    stream.pending_steers.append(user_message_id)
    return True


def has_pending_steer(mgr: ContinuationHost, topic_id: str) -> bool:
    stream = mgr.stream(topic_id)
    return stream is not None and bool(stream.pending_steers)


async def chain_steer(mgr: ContinuationHost, stream: ActiveStream) -> None:
    if not stream.pending_steers or stream.status not in ("pending", "streaming"):
        return  # aborted (or already chained) while a resume was pending
    # Held while the continuation is prepared, so a concurrent send injects, not restarts.
    stream.hold = stream.hold.hold_for_chain()
    if mgr.quiesce.paused:
        stream.hold = stream.hold.defer_chain()
        mgr.quiesce.on_resume(lambda: mgr.spawn(chain_steer(mgr, stream)))
        return
    steer_id = stream.pending_steers.popleft()
    req = MainSteerContinuationRequest(topic_id=stream.topic_id, steer_user_message_id=steer_id,
                                       model_ids=list(stream.executions))
    try:
        provider = next((p for p in mgr.context_providers if p.can_handle(stream.topic_id)), None)
        if provider is None:
            raise DispatchError(ErrorCode.TOPIC_NOT_FOUND, f"no context provider for {stream.topic_id}")
        prepared = await provider.prepare_dispatch(None, req, DispatchContext(has_live_stream=True))
        if not prepared.models:
            raise DispatchError(ErrorCode.NO_MODEL, "the steer continuation has no model to run")
        if not mgr.is_current(stream):
            raise StreamManagerError("the topic stream was replaced before the continuation started")
        continue_on(mgr, stream, prepared.models, prepared.listeners, prepared.siblings_group_id)
    except Exception as exc:
        log.exception("steer continuation of %s failed to launch", stream.topic_id)
        await fail_held(mgr, stream, SerializedError.from_exception(exc, code=ErrorCode.CONTINUATION_FAILED))


def continue_on(mgr: ContinuationHost, stream: ActiveStream, models: Sequence[ModelDispatch],
                 listeners: Sequence[StreamListener], siblings_group_id: int | None) -> list[UniqueModelId]:
    """Launch `models` on the existing stream: subscribers stay, the finished turn's
    terminal-only listeners (its rows' persistence) give way to the new ones."""
    stream.hand_over_listeners(listeners)
    stream.drop_finished_executions()
    stream.hold = stream.hold.release()
    stream.siblings_group_id = siblings_group_id
    stream.last_error = None
    launched = [mgr.launch(stream, m).model_id for m in models]
    stream.status = "streaming"
    mgr.publish(stream)
    return launched


async def fail_held(mgr: ContinuationHost, stream: ActiveStream, error: SerializedError) -> None:
    """Drive a held topic to a terminal `error` (listeners told, lifecycle run)."""
    stream.hold = stream.hold.release()
    stream.pending_steers.clear()
    stream.last_error = error
    last = next(reversed(stream.executions.values()), None)
    now = time.monotonic() * 1000.0
    result = StreamErrorResult(topic_id=stream.topic_id, model_id=last.model_id if last else "",
                               final_message=None,
                               timings=TransportTimings(started_at=now, completed_at=now),
                               anchor_message_id=None, is_topic_done=True, error=error)
    await mgr.dispatch_to_listeners(stream, result)
    mgr.finalize_topic(stream, "error")


# -- agent-session runtime hooks -------------------------------------------------------


def will_continue_topic(mgr: ContinuationHost, topic_id: str) -> bool:
    """Keep the topic stream open across its next terminal (a runtime continuation follows).

    Call before the current execution's terminal or from a terminal listener: the topic is
    then held (status `streaming`, listeners kept, terminal results carry
    `is_topic_done=False` when requested early) until `start_runtime_turn` or
    `terminate_held_topic_stream`.
    """
    stream = mgr.stream(topic_id)
    # Not finalised yet (a terminal listener may ask while its own terminal is dispatched).
    if stream is None or stream.status not in ("pending", "streaming"):
        return False
    stream.hold = stream.hold.request()
    return True


def start_runtime_turn(mgr: ContinuationHost, *, topic_id: str, model_id: UniqueModelId,
                       request: AiStreamRequest, listeners: Sequence[StreamListener] = (),
                       anchor_message_id: str | None = None) -> SendResult:
    """Start the next runtime turn on the topic's stream, keeping its subscribers.

    A held stream continues in place; a finished (grace-period) stream is replaced by a new
    one that inherits its live subscribers; no stream starts a fresh one.
    """
    dispatch = ModelDispatch(model_id=model_id, request=request,
                             anchor_message_id=anchor_message_id or request.message_id)
    stream = mgr.stream(topic_id)
    if stream is not None and (stream.hold.can_continue_in_place(stream.any_streaming())
                               or settling_without_work(stream)):
        return SendResult(mode="started", execution_ids=continue_on(mgr, stream, [dispatch], listeners, None))
    if stream is not None and stream.is_live():
        raise StreamManagerError(f"topic {topic_id} still has a running turn")
    carried: list[StreamListener] = []
    if stream is not None:
        carried = [lst for lst in stream.listener_seq if is_subscriber(lst) and lst.is_alive()]
    return mgr.send(SendInput(topic_id=topic_id, models=[dispatch], listeners=[*carried, *listeners]))


def settling_without_work(stream: ActiveStream) -> bool:
    """The topic's last execution ended and its terminal listeners still run: a runtime turn
    started now (from one of them) continues on this stream."""
    return stream.settling > 0 and not stream.any_streaming() and stream.status in ("pending", "streaming")


async def terminate_held_topic_stream(mgr: ContinuationHost, topic_id: str,
                                      error: SerializedError | str | None = None) -> bool:
    """A continuation could not start: end the held topic as `error` (and evict in time)."""
    stream = mgr.stream(topic_id)
    if stream is None or stream.any_streaming() or not stream.hold.holding:
        return False
    if error is None:
        error = SerializedError(message="the continuation could not start", code=ErrorCode.CONTINUATION_FAILED)
    elif isinstance(error, str):
        error = SerializedError(message=error, code=ErrorCode.CONTINUATION_FAILED)
    await fail_held(mgr, stream, error)
    return True
