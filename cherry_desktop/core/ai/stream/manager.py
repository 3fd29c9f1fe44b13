"""`AiStreamManager`: the active-stream registry and the broker of every stream event.

One asyncio loop. Per chunk the execution loop does only synchronous work (ring buffer,
accumulator, listener fan-out); terminal events are awaited per listener, each call
isolated. Idle timeouts and checkpoints run from `loop.call_later` timers rather than per
chunk. See `stream-manager.md` for the behaviour this implements.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Sequence
from typing import Any

from cherry_desktop.core.ai.stream import continuation as _cont
from cherry_desktop.core.ai.stream.lifecycle import ChatStreamLifecycle, PromptStreamLifecycle, StreamLifecycle
from cherry_desktop.core.ai.stream.quiesce import WriteQuiesce
from cherry_desktop.core.ai.stream.replay import build_compact_replay
from cherry_desktop.core.ai.stream.state import (
    ActiveStream,
    StreamExecution,
    drain_in_flight,
    list_active_work,
    topic_snapshot,
)
from cherry_desktop.core.ai.stream.types import (
    ActiveWork,
    AiStreamManagerConfig,
    AiStreamRequest,
    AttachResponse,
    BackgroundMode,
    ChatContextProvider,
    ExecutionReplay,
    ModelDispatch,
    PreparedDispatch,
    SendInput,
    SendResult,
    SerializedError,
    StreamDoneResult,
    StreamErrorResult,
    StreamListener,
    StreamPausedResult,
    StreamTerminalResult,
    StreamTextFn,
    TopicSnapshot,
    TopicStreamStatus,
    UniqueModelId,
    WritesPausedError,
)
from cherry_desktop.core.messages import UIMessage, UIMessageChunk
from cherry_desktop.core.shared_cache import SharedCache

log = logging.getLogger(__name__)

# Stops that persist the partial as `paused`; any other abort reason is an error.
PAUSE_REASONS = frozenset({"user", "no-subscribers", "shutdown"})


def _now_ms() -> float:
    return time.monotonic() * 1000.0


async def _no_stream_text(request: AiStreamRequest) -> Any:
    raise RuntimeError("AiStreamManager has no stream_text source configured")


class AiStreamManager:
    """Registry of active topic streams (see module docstring)."""

    def __init__(self, config: AiStreamManagerConfig | None = None, *, stream_text: StreamTextFn | None = None,
                 shared_cache: SharedCache | None = None, **overrides: Any) -> None:
        base = config or AiStreamManagerConfig()
        if overrides:
            base = AiStreamManagerConfig(**{**base.__dict__, **overrides})
        self.config = base
        self._stream_text: StreamTextFn = stream_text or _no_stream_text
        self.shared_cache = shared_cache if shared_cache is not None else SharedCache()
        self.chat_lifecycle: StreamLifecycle = ChatStreamLifecycle(self.shared_cache, base.grace_period_ms)
        self.prompt_lifecycle: StreamLifecycle = PromptStreamLifecycle()
        self.context_providers: list[ChatContextProvider] = []
        self.quiesce = WriteQuiesce()
        self._streams: dict[str, ActiveStream] = {}
        self._background_tasks: set[asyncio.Task[None]] = set()
        self._abort_when_unwatched = base.background_mode == "abort"

    # -- wiring -----------------------------------------------------------------------------
    def set_stream_text(self, stream_text: StreamTextFn) -> None:
        self._stream_text = stream_text

    def set_background_mode(self, mode: BackgroundMode) -> None:
        """Settings changed: applies to the next chunk of every stream."""
        self.config = dataclasses.replace(self.config, background_mode=mode)
        self._abort_when_unwatched = mode == "abort"

    def set_context_providers(self, providers: Sequence[ChatContextProvider]) -> None:
        """The `dispatch_stream_request` order (Agent -> Temporary -> Persistent)."""
        self.context_providers = list(providers)

    # -- send ---------------------------------------------------------------------------------
    def send(self, input: SendInput | PreparedDispatch) -> SendResult:
        """Start a stream, or inject listeners into the live one (models are then ignored)."""
        topic_id = input.topic_id
        stream = self._streams.get(topic_id)
        if stream is not None and stream.is_live():
            stream.upsert_listeners(input.listeners)
            running = [e.model_id for e in stream.executions.values() if e.status == "streaming"]
            return SendResult(mode="injected", execution_ids=running)
        models = list(input.models)
        if not models:
            # The row was already enqueued by its provider; nothing to launch.
            return SendResult(mode="injected", execution_ids=[])
        if self.quiesce.paused:
            raise WritesPausedError(f"stream writes are paused ({', '.join(self.quiesce.reasons)})")
        carried_steers: list[str] = []
        if stream is not None:
            # A steer queued before an approval pause waits for the approval's continuation.
            if stream.status == "awaiting-approval":
                carried_steers = list(stream.pending_steers)
            self._evict(stream)
        lifecycle: StreamLifecycle = input.lifecycle or self.chat_lifecycle
        seen: dict[UniqueModelId, ModelDispatch] = {}
        for m in models:
            if m.model_id in seen:
                log.warning("send(%s): duplicate model %s ignored", topic_id, m.model_id)
                continue
            seen[m.model_id] = m
        stream = ActiveStream(topic_id, is_multi_model=len(seen) > 1, lifecycle=lifecycle,
                              siblings_group_id=input.siblings_group_id)
        stream.pending_steers.extend(carried_steers)
        stream.upsert_listeners(input.listeners)
        self._streams[topic_id] = stream
        for m in seen.values():
            self._launch(stream, m)
        lifecycle.on_created(stream)
        return SendResult(mode="started", execution_ids=list(seen))

    def stream_prompt(self, *, stream_id: str, unique_model_id: UniqueModelId, prompt: str | None = None,
                      messages: list[UIMessage] | None = None,
                      listener: StreamListener | Sequence[StreamListener],
                      system: str | None = None) -> SendResult:
        """An ad-hoc prompt stream (translation, topic naming): silent, no attach, evicted at once."""
        msgs = list(messages) if messages else [UIMessage.user_text(prompt or "")]
        request = AiStreamRequest(model_id=unique_model_id, messages=msgs, topic_id=stream_id, system=system)
        listeners = [listener] if not isinstance(listener, Sequence) else list(listener)
        return self.send(SendInput(topic_id=stream_id, models=[ModelDispatch(unique_model_id, request)],
                                   listeners=listeners, lifecycle=self.prompt_lifecycle))

    def _launch(self, stream: ActiveStream, m: ModelDispatch) -> StreamExecution:
        anchor = m.anchor_message_id if m.anchor_message_id is not None else m.request.message_id
        ex = StreamExecution(model_id=m.model_id, request=m.request, anchor_message_id=anchor,
                             max_buffer_chunks=self.config.max_buffer_chunks, started_at=_now_ms(),
                             is_multi_model=stream.is_multi_model, siblings_group_id=stream.siblings_group_id)
        stream.executions[m.model_id] = ex
        ex.task = asyncio.get_running_loop().create_task(self._run_execution_loop(stream, ex),
                                                          name=f"stream:{stream.topic_id}:{m.model_id}")
        if self.config.idle_timeout_ms > 0:
            ex.idle_last_progress = time.monotonic()
            self._arm_idle(stream, ex)
        return ex

    # -- execution loop -------------------------------------------------------------------
    async def _run_execution_loop(self, stream: ActiveStream, ex: StreamExecution) -> None:
        signal = ex.abort_controller.signal
        topic_id = stream.topic_id
        ex.request.signal = signal
        ex.request.steer_yield = lambda: bool(stream.pending_steers)
        if ex.request.topic_id is None:
            ex.request.topic_id = topic_id
        error: SerializedError | None = None
        source: Any = None
        ex.reading = True
        try:
            source = await self._stream_text(ex.request)
            deliver = self._deliver
            async for chunk in source:
                deliver(stream, ex, chunk)
            if ex.cancel_requested:
                # A cancel asked for while no await was left in the read: take it here.
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            if not signal.aborted:
                ex.reading = False
                ex.cancel_timers()
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        except Exception as exc:
            log.warning("stream %s/%s failed: %s", topic_id, ex.model_id, exc)
            error = SerializedError.from_exception(exc)
        finally:
            ex.reading = False
        if source is not None:
            aclose = getattr(source, "aclose", None)
            if aclose is not None:
                try:
                    await aclose()
                except Exception:
                    log.debug("closing the source of %s/%s failed", topic_id, ex.model_id, exc_info=True)
        ex.cancel_timers()
        ex.timings.completed_at = _now_ms()
        reason = ex.stop_reason
        if signal.aborted and ex.status == "aborted":
            await self._execution_paused(stream, ex)
        elif signal.aborted and reason not in PAUSE_REASONS:
            await self._execution_error(stream, ex, SerializedError(
                message=f"stream stopped: {reason}", name="StreamAbortedError", code=reason))
        elif error is not None:
            await self._execution_error(stream, ex, error)
        elif ex.accumulator.error_text is not None:
            await self._execution_error(stream, ex, SerializedError(
                message=ex.accumulator.error_text, name="StreamError"))
        else:
            await self._execution_done(stream, ex)

    def _deliver(self, stream: ActiveStream, ex: StreamExecution, chunk: UIMessageChunk) -> None:
        """The per-chunk hot path: buffer, fold, fan out (synchronously)."""
        buf = ex.buffer
        if len(buf) == buf.maxlen:
            ex.dropped_chunks += 1
        buf.append(chunk)
        ex.accumulator.apply(chunk)
        if stream.status == "pending":
            self._promote(stream)
        if chunk.type == "tool-approval-request" and not ex.awaiting_approval:
            ex.awaiting_approval = True
            # A runtime that waits inside a live turn (Claude Code's can_use_tool) must show
            # `awaiting-approval` now, not only once the stream ends.
            if self._is_current(stream):
                stream.lifecycle.on_promoted_to_streaming(stream)
        if ex.checkpoint_handle is None and stream.checkpoint_listeners:
            self._arm_checkpoint(stream, ex)
        smid = ex.source_model_id
        anchor = ex.anchor_message_id
        dead = False
        for listener in stream.chunk_listeners:
            try:
                if listener.is_alive():
                    listener.on_chunk(chunk, smid, anchor)
                else:
                    dead = True
            except Exception:
                log.exception("on_chunk failed for listener %s", listener.id)
        if dead:
            stream.prune_dead()
        if self._abort_when_unwatched and stream.subscriber_count == 0 and ex.status == "streaming":
            log.info("topic %s has no subscribers left: aborting (background_mode=abort)", stream.topic_id)
            self.abort(stream.topic_id, "no-subscribers")

    def on_chunk(self, topic_id: str, model_id: UniqueModelId, chunk: UIMessageChunk) -> None:
        """Deliver one chunk as the execution loop does (public for tests)."""
        stream = self._streams.get(topic_id)
        ex = stream.executions.get(model_id) if stream is not None else None
        if stream is None or ex is None:
            log.debug("on_chunk for unknown %s/%s dropped", topic_id, model_id)
            return
        self._deliver(stream, ex, chunk)

    def _promote(self, stream: ActiveStream) -> None:
        stream.status = "streaming"
        if self._is_current(stream):
            stream.lifecycle.on_promoted_to_streaming(stream)

    # -- timers (idle timeout, checkpoints) ------------------------------------------------
    def _arm_idle(self, stream: ActiveStream, ex: StreamExecution) -> None:
        tick = min(self.config.idle_timeout_ms / 4000.0, 1.0)
        ex.idle_handle = asyncio.get_running_loop().call_later(tick, self._idle_tick, stream, ex)

    def _idle_tick(self, stream: ActiveStream, ex: StreamExecution) -> None:
        ex.idle_handle = None
        if ex.status != "streaming":
            return
        if ex.idle_expired(time.monotonic(), self.config.idle_timeout_ms):
            log.warning("stream %s/%s idle for %.0f ms: aborting", stream.topic_id, ex.model_id,
                        self.config.idle_timeout_ms)
            self._abort_execution(ex, "idle-timeout", paused=False)
            return
        self._arm_idle(stream, ex)

    def _arm_checkpoint(self, stream: ActiveStream, ex: StreamExecution) -> None:
        interval = self.config.checkpoint_interval_ms
        if interval <= 0:
            return
        ex.checkpoint_handle = asyncio.get_running_loop().call_later(
            interval / 1000.0, self._checkpoint, stream, ex)

    def _checkpoint(self, stream: ActiveStream, ex: StreamExecution) -> None:
        # The handle stays set until here, so at most one checkpoint per interval; the next
        # chunk re-arms it. A silent stream therefore costs nothing.
        ex.checkpoint_handle = None
        if ex.status != "streaming" or self.quiesce.paused:
            return
        stream.dispatch_checkpoint(ex)

    # -- terminal ---------------------------------------------------------------------------
    def _result(self, cls: Any, stream: ActiveStream, ex: StreamExecution, is_topic_done: bool,
                **extra: Any) -> StreamTerminalResult:
        result: StreamTerminalResult = cls(topic_id=stream.topic_id, model_id=ex.model_id,
                                           final_message=ex.final_message, timings=ex.timings,
                                           anchor_message_id=ex.anchor_message_id,
                                           is_topic_done=is_topic_done, **extra)
        return result

    def _close_execution(self, ex: StreamExecution, status: Any) -> None:
        ex.status = status
        ex.cancel_timers()
        ex.final_message = ex.accumulator.snapshot()

    def _will_continue(self, stream: ActiveStream) -> bool:
        """True when the topic must not finalise now (a hold or a chained steer follows)."""
        if stream.hold_requested:
            return True
        execs = stream.executions.values()
        return (bool(stream.pending_steers) and all(e.status == "done" for e in execs)
                and not any(e.awaiting_approval for e in execs))

    async def _execution_done(self, stream: ActiveStream, ex: StreamExecution) -> None:
        self._close_execution(ex, "done")
        last = not stream.any_streaming()
        done_now = last and not self._will_continue(stream)
        await self.dispatch_to_listeners(stream, "on_done", self._result(StreamDoneResult, stream, ex, done_now))
        await self._after_terminal(stream)

    async def _execution_paused(self, stream: ActiveStream, ex: StreamExecution) -> None:
        self._close_execution(ex, "aborted")
        # Drop-on-abort: a queued steer never chains after a stop.
        stream.pending_steers.clear()
        last = not stream.any_streaming()
        done_now = last and not stream.hold_requested
        await self.dispatch_to_listeners(stream, "on_paused",
                                         self._result(StreamPausedResult, stream, ex, done_now))
        await self._after_terminal(stream)

    async def _execution_error(self, stream: ActiveStream, ex: StreamExecution, error: SerializedError) -> None:
        self._close_execution(ex, "error")
        ex.error = error
        stream.last_error = error
        stream.pending_steers.clear()
        last = not stream.any_streaming()
        done_now = last and not stream.hold_requested
        await self.dispatch_to_listeners(stream, "on_error",
                                         self._result(StreamErrorResult, stream, ex, done_now, error=error))
        await self._after_terminal(stream)

    async def _after_terminal(self, stream: ActiveStream) -> None:
        if stream.any_streaming() or stream.status not in ("pending", "streaming"):
            return
        if stream.hold_requested:
            stream.hold_requested = False
            stream.held = True
            return
        if self._will_continue(stream):
            await _cont.chain_steer(self, stream)
            return
        self._finalize_topic(stream)

    def _derive_terminal_status(self, stream: ActiveStream) -> TopicStreamStatus:
        execs = list(stream.executions.values())
        if any(e.awaiting_approval for e in execs):
            return "awaiting-approval"
        if any(e.status == "error" for e in execs):
            return "error"
        if execs and all(e.status == "done" for e in execs):
            return "done"
        return "aborted"

    def _finalize_topic(self, stream: ActiveStream, status: TopicStreamStatus | None = None) -> None:
        stream.held = False
        stream.deferred_chain = False
        stream.status = status or self._derive_terminal_status(stream)
        if not self._is_current(stream):
            return
        stream.lifecycle.on_terminal(stream)
        stream.lifecycle.cleanup(stream, lambda: self._evict_if_current(stream))

    async def dispatch_to_listeners(self, stream: ActiveStream, event: str, result: StreamTerminalResult) -> None:
        """The single funnel of terminal events: liveness-checked, each listener isolated."""
        for listener in list(stream.listener_seq):
            try:
                if not listener.is_alive():
                    log.info("%s: listener %s is dead, removed", event, listener.id)
                    stream.remove_listener(listener.id)
                    continue
                await getattr(listener, event)(result)
            except Exception:
                log.exception("%s failed for listener %s", event, listener.id)

    # public execution-loop callbacks (driven internally; public for tests and hosts)
    async def on_execution_done(self, topic_id: str, model_id: UniqueModelId) -> None:
        found = self._find(topic_id, model_id)
        if found is not None:
            await self._execution_done(*found)

    async def on_execution_paused(self, topic_id: str, model_id: UniqueModelId) -> None:
        found = self._find(topic_id, model_id)
        if found is not None:
            await self._execution_paused(*found)

    async def on_execution_error(self, topic_id: str, model_id: UniqueModelId,
                                 error: SerializedError | BaseException | str) -> None:
        found = self._find(topic_id, model_id)
        if found is None:
            return
        if isinstance(error, BaseException):
            error = SerializedError.from_exception(error)
        elif isinstance(error, str):
            error = SerializedError(message=error)
        await self._execution_error(*found, error)

    def _find(self, topic_id: str, model_id: UniqueModelId) -> tuple[ActiveStream, StreamExecution] | None:
        stream = self._streams.get(topic_id)
        ex = stream.executions.get(model_id) if stream is not None else None
        if stream is None or ex is None or ex.status != "streaming":
            return None
        return stream, ex

    # -- registry -----------------------------------------------------------------------------
    def _is_current(self, stream: ActiveStream) -> bool:
        return self._streams.get(stream.topic_id) is stream

    def _evict(self, stream: ActiveStream) -> None:
        if stream.cleanup_timer is not None:
            stream.cleanup_timer.cancel()
            stream.cleanup_timer = None
        if self._is_current(stream):
            del self._streams[stream.topic_id]

    def _evict_if_current(self, stream: ActiveStream) -> None:
        if self._is_current(stream) and not stream.is_live():
            self._evict(stream)

    # -- subscription ---------------------------------------------------------------------------
    def attach(self, listener: StreamListener, topic_id: str) -> AttachResponse:
        """Subscribe `listener` to a live topic and return a compact replay, or its final state."""
        stream = self._streams.get(topic_id)
        if stream is None or not stream.lifecycle.can_attach(stream):
            return AttachResponse(status="not-found")
        execs = list(stream.executions.values())
        if stream.status in ("pending", "streaming"):
            stream.upsert_listener(listener)
            replays: list[ExecutionReplay] = []
            for ex in execs:
                if ex.dropped_chunks:
                    log.warning("attach %s/%s: ring buffer dropped %d chunk(s); replay is not lossless",
                                topic_id, ex.model_id, ex.dropped_chunks)
                replays.append(ExecutionReplay(execution_id=ex.model_id, anchor_message_id=ex.anchor_message_id,
                                               chunks=build_compact_replay(ex.buffer),
                                               dropped_chunks=ex.dropped_chunks))
            return AttachResponse(status="streaming", replays=replays, is_multi_model=stream.is_multi_model)
        finals = {e.model_id: e.final_message for e in execs if e.final_message is not None}
        status: Any = "paused" if stream.status == "aborted" else stream.status
        error = stream.last_error if stream.status == "error" else None
        return AttachResponse(status=status, final_messages=finals, error=error,
                              is_multi_model=stream.is_multi_model)

    def detach(self, listener: StreamListener | str, topic_id: str) -> None:
        """Unsubscribe; the stream continues."""
        listener_id = listener if isinstance(listener, str) else listener.id
        self.remove_listener(topic_id, listener_id)

    def add_listener(self, topic_id: str, listener: StreamListener) -> bool:
        """Upsert by id; False when the topic has no stream."""
        stream = self._streams.get(topic_id)
        if stream is None:
            return False
        stream.upsert_listener(listener)
        return True

    def remove_listener(self, topic_id: str, listener_id: str) -> None:
        stream = self._streams.get(topic_id)
        if stream is not None:
            stream.remove_listener(listener_id)

    # -- control ----------------------------------------------------------------------------------
    def abort(self, topic_id: str, reason: str = "user") -> None:
        """Stop every running execution of the topic; partials persist as `paused`."""
        stream = self._streams.get(topic_id)
        if stream is None:
            return
        stream.pending_steers.clear()
        running = [e for e in stream.executions.values() if e.status == "streaming"]
        for ex in running:
            self._abort_execution(ex, reason, paused=True)
        if not running and (stream.held or stream.deferred_chain):
            stream.hold_requested = False
            self._finalize_topic(stream, "aborted")

    def _abort_execution(self, ex: StreamExecution, reason: str, *, paused: bool) -> None:
        if paused:
            ex.status = "aborted"
        ex.stop_reason = reason if not paused or reason in PAUSE_REASONS else "user"
        ex.abort_controller.abort(reason)
        task = ex.task
        if ex.reading and task is not None and not task.done():
            ex.cancel_requested = True
            task.cancel()

    def has_live_stream(self, topic_id: str) -> bool:
        stream = self._streams.get(topic_id)
        return stream is not None and stream.is_live()

    def clear_awaiting_approval(self, topic_id: str, model_id: UniqueModelId | None = None) -> None:
        """The approval was answered: the topic no longer surfaces `awaiting-approval`."""
        stream = self._streams.get(topic_id)
        if stream is None:
            return
        for ex in stream.executions.values():
            if model_id is None or ex.model_id == model_id:
                ex.awaiting_approval = False
        if stream.status == "awaiting-approval":
            stream.status = self._derive_terminal_status(stream)
            if self._is_current(stream):
                stream.lifecycle.on_terminal(stream)
        elif stream.is_live() and self._is_current(stream):
            stream.lifecycle.on_promoted_to_streaming(stream)

    # -- steering and continuations (see continuation.py) ------------------------------------
    def enqueue_pending_steer(self, topic_id: str, user_message_id: str) -> bool:
        """Queue a persisted steer row; the running turn yields and a continuation answers it."""
        return _cont.enqueue_pending_steer(self, topic_id, user_message_id)

    def has_pending_steer(self, topic_id: str) -> bool:
        return _cont.has_pending_steer(self, topic_id)

    def will_continue_topic(self, topic_id: str) -> bool:
        """Hold the topic stream open across its next terminal (agent host)."""
        return _cont.will_continue_topic(self, topic_id)

    def start_runtime_turn(self, *, topic_id: str, model_id: UniqueModelId, request: AiStreamRequest,
                           listeners: Sequence[StreamListener] = (),
                           anchor_message_id: str | None = None) -> SendResult:
        """Start the next runtime turn on the topic's stream, keeping its subscribers."""
        return _cont.start_runtime_turn(self, topic_id=topic_id, model_id=model_id, request=request,
                                        listeners=listeners, anchor_message_id=anchor_message_id)

    async def terminate_held_topic_stream(self, topic_id: str, error: SerializedError | str | None = None) -> bool:
        """A continuation could not start: end the held topic as `error`."""
        return await _cont.terminate_held_topic_stream(self, topic_id, error)

    def roll_execution(self, topic_id: str, model_id: UniqueModelId, new_anchor_message_id: str) -> UIMessage | None:
        """Steer-boundary roll: the partial of the current row; accumulate onto the new anchor."""
        return _cont.roll_execution(self, topic_id, model_id, new_anchor_message_id)

    # -- write quiesce ----------------------------------------------------------------------------
    def pause(self, reason: str = "") -> Any:
        """A refcounted hold: no new turn, no checkpoint, no chained continuation until disposed."""
        return self.quiesce.pause(reason)

    @property
    def writes_paused(self) -> bool:
        return self.quiesce.paused

    def list_active_work(self) -> list[ActiveWork]:
        return list_active_work(self._streams.values())

    async def drain_in_flight(self, timeout_ms: float = 10_000) -> list[str]:
        """Await running executions (terminal persistence included); return straggler ids."""
        return await drain_in_flight(self._streams.values(), timeout_ms)

    async def shutdown(self, timeout_ms: float = 5_000) -> None:
        """Stop every stream (partials persist as `paused`) and await their loops."""
        for topic_id in list(self._streams):
            stream = self._streams[topic_id]
            for ex in stream.executions.values():
                if ex.status == "streaming":
                    self._abort_execution(ex, "shutdown", paused=True)
        await self.drain_in_flight(timeout_ms)
        for stream in list(self._streams.values()):
            self._evict(stream)

    # -- inspection -------------------------------------------------------------------------------
    def inspect(self, topic_id: str) -> TopicSnapshot | None:
        stream = self._streams.get(topic_id)
        return None if stream is None else topic_snapshot(stream)

    def topic_ids(self) -> list[str]:
        return list(self._streams)

    def _stream(self, topic_id: str) -> ActiveStream | None:
        return self._streams.get(topic_id)
