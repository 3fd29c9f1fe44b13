"""`ExecutionRunner`: launch an execution, run its loop, deliver its chunks, settle it.

Per chunk the loop does only synchronous work (ring buffer, accumulator, listener fan-out).
A chunk of an execution that is no longer current (stopped, replaced, or past its own
terminal) is dropped at the door of `deliver`, whatever path brought it. Terminal events go
through `terminal.dispatch_terminal`; while they are dispatched the topic stays live.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol, Unpack, runtime_checkable

from cherry_desktop.core.ai.stream.config import ConfigOverrides
from cherry_desktop.core.ai.stream.quiesce import WriteQuiesce
from cherry_desktop.core.ai.stream.registry import StreamRegistry
from cherry_desktop.core.ai.stream.state import TOOL_CHUNK_TYPES, ActiveStream, StreamExecution, ToolChunk
from cherry_desktop.core.ai.stream.terminal import derive_terminal_status, dispatch_terminal, result_fields
from cherry_desktop.core.ai.stream.types import (
    AiStreamManagerConfig,
    AiStreamRequest,
    ExecutionStatus,
    ModelDispatch,
    SerializedError,
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    StreamTerminalResult,
    StreamTextFn,
    TopicStreamStatus,
)
from cherry_desktop.core.messages import ErrorCode, UIMessageChunk

log = logging.getLogger(__name__)

# Why an execution may be stopped; every stop persists the partial as `paused`.
STOP_REASONS = frozenset({"user", "no-subscribers", "shutdown", "replaced", "idle-timeout"})


def now_ms() -> float:
    return time.monotonic() * 1000.0


async def _no_stream_text(request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
    raise RuntimeError("AiStreamManager has no stream_text source configured")


@runtime_checkable
class ClosableSource(Protocol):
    """A chunk source to close once read (an async generator, an HTTP reply)."""

    async def aclose(self) -> None: ...


class ExecutionRunner:
    """Runs the executions of the streams in `registry` (see module docstring)."""

    def __init__(self, config: AiStreamManagerConfig, registry: StreamRegistry, quiesce: WriteQuiesce,
                 stream_text: StreamTextFn | None,
                 chain_steer: Callable[[ActiveStream], Awaitable[None]]) -> None:
        self.config = config
        self.registry = registry
        self.quiesce = quiesce
        self.stream_text: StreamTextFn = stream_text or _no_stream_text
        self._chain_steer = chain_steer
        self.abort_when_unwatched = config.background_mode == "abort"

    def set_config(self, config: AiStreamManagerConfig) -> None:
        self.config = config
        self.abort_when_unwatched = config.background_mode == "abort"

    # -- launch and loop ---------------------------------------------------------------------
    def launch(self, stream: ActiveStream, m: ModelDispatch) -> StreamExecution:
        anchor = m.anchor_message_id if m.anchor_message_id is not None else m.request.message_id
        ex = StreamExecution(model_id=m.model_id, request=m.request, anchor_message_id=anchor,
                             max_buffer_chunks=self.config.max_buffer_chunks, started_at=now_ms(),
                             is_multi_model=stream.is_multi_model, siblings_group_id=stream.siblings_group_id)
        stream.executions[m.model_id] = ex
        ex.task = asyncio.get_running_loop().create_task(self._run(stream, ex),
                                                          name=f"stream:{stream.topic_id}:{m.model_id}")
        if self.config.idle_timeout_ms > 0:
            ex.idle_last_progress = time.monotonic()
            self._arm_idle(stream, ex)
        return ex

    async def _run(self, stream: ActiveStream, ex: StreamExecution) -> None:
        signal = ex.abort_controller.signal
        ex.request.signal = signal
        ex.request.steer_yield = lambda: bool(stream.pending_steers)
        if ex.request.topic_id is None:
            ex.request.topic_id = stream.topic_id
        error: SerializedError | None = None
        # An abort issued in the same tick as the send: the upstream is never asked.
        if not signal.aborted:
            error = await self._read(stream, ex)
        ex.cancel_timers()
        ex.timings.completed_at = now_ms()
        if ex.status == "aborted":
            await self.execution_paused(stream, ex)
        elif error is not None:
            await self.execution_error(stream, ex, error)
        elif ex.accumulator.error_text is not None:
            # The source's own words stay the message; a source that gave no code is `unknown`.
            await self.execution_error(stream, ex, SerializedError(
                message=ex.accumulator.error_text, name="StreamError",
                code=ex.accumulator.error_code or ErrorCode.UNKNOWN))
        else:
            await self.execution_done(stream, ex)

    async def _read(self, stream: ActiveStream, ex: StreamExecution) -> SerializedError | None:
        signal = ex.abort_controller.signal
        error: SerializedError | None = None
        source: AsyncIterator[UIMessageChunk] | None = None
        ex.reading = True
        try:
            source = await self.stream_text(ex.request)
            if not signal.aborted:
                deliver = self.deliver
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
            log.warning("stream %s/%s failed: %s", stream.topic_id, ex.model_id, exc)
            error = SerializedError.from_exception(exc)
        finally:
            ex.reading = False
        if isinstance(source, ClosableSource):
            try:
                await source.aclose()
            except Exception:
                log.debug("closing the source of %s/%s failed", stream.topic_id, ex.model_id, exc_info=True)
        return error

    def deliver(self, stream: ActiveStream, ex: StreamExecution, chunk: UIMessageChunk) -> None:
        """The per-chunk hot path: buffer, fold, fan out (synchronously)."""
        if ex.status != "streaming":
            return  # stopped, replaced or settled: its chunks reach nobody
        buf = ex.buffer
        if len(buf) == buf.maxlen:
            ex.dropped_chunks += 1
        buf.append(chunk)
        ex.accumulator.apply(chunk)
        if stream.status == "pending":
            stream.status = "streaming"
            self.publish(stream)
        if chunk.type in TOOL_CHUNK_TYPES and isinstance(chunk, ToolChunk) and ex.track_tool(chunk):
            # A runtime that waits inside a live turn (Claude Code's can_use_tool) must show
            # `awaiting-approval` now, and drop it as soon as the tool's output shows.
            self.publish(stream)
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
        if self.abort_when_unwatched and stream.abandoned and ex.status == "streaming":
            # Only a stream some window watched: one that never had a renderer (a translation
            # with its persistence listener, a headless stream) runs to its end.
            log.info("topic %s has no renderer left: aborting (background_mode=abort)", stream.topic_id)
            for running in stream.executions.values():
                if running.status == "streaming":
                    self.stop(running, "no-subscribers")

    def publish(self, stream: ActiveStream) -> None:
        """The executions changed while the topic is live: mirror its status."""
        if self.registry.is_current(stream):
            stream.lifecycle.on_promoted_to_streaming(stream)

    def stop(self, ex: StreamExecution, reason: str) -> None:
        """Stop one execution: from now on its chunks reach nobody; it settles `paused`."""
        if ex.status != "streaming":
            return
        ex.status = "aborted"
        ex.stop_reason = reason if reason in STOP_REASONS else "user"
        ex.abort_controller.abort(reason)
        task = ex.task
        if ex.reading and task is not None and not task.done():
            ex.cancel_requested = True
            task.cancel()

    def stop_stream(self, stream: ActiveStream, reason: str = "replaced") -> None:
        for ex in stream.executions.values():
            self.stop(ex, reason)

    # -- timers (idle timeout, checkpoints) ------------------------------------------------
    def _arm_idle(self, stream: ActiveStream, ex: StreamExecution) -> None:
        tick = min(self.config.idle_timeout_ms / 4000.0, 1.0)
        ex.idle_handle = asyncio.get_running_loop().call_later(tick, self._idle_tick, stream, ex)

    def _idle_tick(self, stream: ActiveStream, ex: StreamExecution) -> None:
        ex.idle_handle = None
        if ex.status != "streaming":
            return
        if ex.idle_expired(time.monotonic(), self.config.idle_timeout_ms):
            log.warning("stream %s/%s idle for %.0f ms: stopping", stream.topic_id, ex.model_id,
                        self.config.idle_timeout_ms)
            self.stop(ex, "idle-timeout")
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
    def _close(self, ex: StreamExecution, status: ExecutionStatus) -> None:
        ex.status = status
        ex.cancel_timers()
        ex.final_message = ex.accumulator.snapshot()

    def will_continue(self, stream: ActiveStream) -> bool:
        """True when the topic must not finalise now (a hold or a chained steer follows)."""
        if stream.hold.holding:
            return True
        execs = stream.executions.values()
        return (bool(stream.pending_steers) and all(e.status == "done" for e in execs)
                and not any(e.awaiting_approval for e in execs))

    async def execution_done(self, stream: ActiveStream, ex: StreamExecution) -> None:
        self._close(ex, "done")
        done_now = not stream.any_streaming() and not self.will_continue(stream)
        await self._settle(stream, ex, StreamDoneResult(**result_fields(stream, ex, done_now)))

    async def execution_paused(self, stream: ActiveStream, ex: StreamExecution) -> None:
        self._close(ex, "aborted")
        # Drop-on-abort: a queued steer never chains after a stop.
        stream.pending_steers.clear()
        done_now = not stream.any_streaming() and not stream.hold.holding
        await self._settle(stream, ex, StreamPausedResult(**result_fields(stream, ex, done_now),
                                                          stop_reason=ex.stop_reason))

    async def execution_error(self, stream: ActiveStream, ex: StreamExecution, error: SerializedError) -> None:
        self._close(ex, "error")
        ex.error = error
        stream.last_error = error
        stream.pending_steers.clear()
        done_now = not stream.any_streaming() and not stream.hold.holding
        await self._settle(stream, ex, StreamErrorResult(**result_fields(stream, ex, done_now), error=error))

    async def _settle(self, stream: ActiveStream, ex: StreamExecution, result: StreamTerminalResult) -> None:
        heard = await self.dispatch(stream, result)
        if isinstance(heard, StreamErrorResult) and ex.status != "error":
            # The terminal write failed: the turn ended in error, whatever the stream said.
            ex.status = "error"
            ex.error = stream.last_error = heard.error
            stream.pending_steers.clear()
        await self._after_terminal(stream)

    async def dispatch(self, stream: ActiveStream, result: StreamTerminalResult) -> StreamTerminalResult:
        """`dispatch_terminal` with the topic kept live while its listeners run."""
        stream.settling += 1
        try:
            return await dispatch_terminal(stream, result)
        finally:
            stream.settling -= 1

    async def _after_terminal(self, stream: ActiveStream) -> None:
        if stream.any_streaming() or stream.settling or stream.status not in ("pending", "streaming"):
            return
        if stream.hold.holding:
            stream.hold = stream.hold.settle()
            return
        if self.will_continue(stream):
            await self._chain_steer(stream)
            return
        self.finalize_topic(stream)

    def finalize_topic(self, stream: ActiveStream, status: TopicStreamStatus | None = None) -> None:
        stream.hold = stream.hold.release()
        stream.status = status or derive_terminal_status(stream)
        stream.notify_idle()
        if not self.registry.is_current(stream):
            return
        stream.lifecycle.on_terminal(stream)
        stream.lifecycle.cleanup(stream, lambda: self.registry.evict_if_current(stream))

    def replace_config(self, **changes: Unpack[ConfigOverrides]) -> AiStreamManagerConfig:
        self.set_config(dataclasses.replace(self.config, **changes))
        return self.config
