"""`ActiveStream` and `StreamExecution`: the manager's per-topic and per-model state.

Plain mutable objects with `__slots__`; the execution loop touches them once per chunk, so
they carry precomputed values (the listener tuples, the renderer count, the chunk-tagging
model id) instead of deriving them per chunk. A stream's listener and execution maps change
only through its own methods.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable

from cherry_desktop.core.ai.stream.hold import TopicHold
from cherry_desktop.core.ai.stream.listeners import (
    PersistingListener,
    bears_persistence,
    is_renderer,
    is_subscriber,
    takes_chunks,
)
from cherry_desktop.core.ai.stream.outbox import TerminalOutbox
from cherry_desktop.core.ai.stream.types import (
    AbortController,
    ActiveWork,
    AiStreamRequest,
    ExecutionSnapshot,
    ExecutionStatus,
    SerializedError,
    StreamLifecycle,
    StreamListener,
    TopicSnapshot,
    TopicStreamStatus,
    TransportTimings,
    UniqueModelId,
)
from cherry_desktop.core.messages import (
    ToolApprovalRequestChunk,
    ToolInputAvailableChunk,
    ToolInputErrorChunk,
    ToolInputStartChunk,
    ToolOutputAvailableChunk,
    ToolOutputDeniedChunk,
    ToolOutputErrorChunk,
    UIMessage,
    UIMessageAccumulator,
    UIMessageChunk,
)

log = logging.getLogger(__name__)

# A tool call opens with its input and closes with an output (or a refusal); between the two
# the tool runs (or waits on the user's approval) and the upstream may stay silent for long.
TOOL_OPEN_TYPES = frozenset({"tool-input-start", "tool-input-available", "tool-approval-request"})
TOOL_CLOSE_TYPES = frozenset({"tool-output-available", "tool-output-error", "tool-output-denied",
                              "tool-input-error"})
TOOL_CHUNK_TYPES = TOOL_OPEN_TYPES | TOOL_CLOSE_TYPES
ToolChunk = (ToolInputStartChunk | ToolInputAvailableChunk | ToolApprovalRequestChunk | ToolOutputAvailableChunk
             | ToolOutputErrorChunk | ToolOutputDeniedChunk | ToolInputErrorChunk)


class StreamExecution:
    """One model's run inside a topic stream."""

    __slots__ = (
        "abort_controller",
        "accumulator",
        "anchor_message_id",
        "awaiting_approval",
        "buffer",
        "cancel_requested",
        "checkpoint_handle",
        "dropped_chunks",
        "error",
        "final_message",
        "idle_handle",
        "idle_last_count",
        "idle_last_progress",
        "model_id",
        "open_tools",
        "pending_approvals",
        "reading",
        "request",
        "siblings_group_id",
        "source_model_id",
        "status",
        "stop_reason",
        "task",
        "timings",
    )

    def __init__(self, *, model_id: UniqueModelId, request: AiStreamRequest, anchor_message_id: str | None,
                 max_buffer_chunks: int, started_at: float, is_multi_model: bool,
                 siblings_group_id: int | None = None) -> None:
        self.model_id = model_id
        self.request = request
        self.anchor_message_id = anchor_message_id
        self.abort_controller = AbortController()
        self.status: ExecutionStatus = "streaming"
        # Ring buffer for reconnect replay; `deque(maxlen)` drops the oldest on overflow.
        self.buffer: deque[UIMessageChunk] = deque(maxlen=max(1, max_buffer_chunks))
        self.dropped_chunks = 0
        self.accumulator = UIMessageAccumulator(message_id=anchor_message_id)
        self.final_message: UIMessage | None = None
        self.awaiting_approval = False
        self.error: SerializedError | None = None
        self.siblings_group_id = siblings_group_id
        self.timings = TransportTimings(started_at=started_at)
        self.task: asyncio.Task[None] | None = None
        # Multi-model topics tag chunks with the producing model; single-model ones do not.
        self.source_model_id: UniqueModelId | None = model_id if is_multi_model else None
        self.reading = False
        self.cancel_requested = False
        # Why the signal fired: "user" stops and "no-subscribers" pause; anything else errors.
        self.stop_reason: str | None = None
        self.checkpoint_handle: asyncio.TimerHandle | None = None
        self.idle_handle: asyncio.TimerHandle | None = None
        self.idle_last_count = 0
        self.idle_last_progress = 0.0
        # Tool calls started without their output yet, and those awaiting the user's approval.
        self.open_tools: set[str] = set()
        self.pending_approvals: set[str] = set()

    def track_tool(self, chunk: ToolChunk) -> bool:
        """Follow a tool chunk (one of `TOOL_CHUNK_TYPES`); True when `awaiting_approval` changed."""
        call_id = chunk.tool_call_id
        was = self.awaiting_approval
        if chunk.type in TOOL_CLOSE_TYPES:
            self.open_tools.discard(call_id)
            self.pending_approvals.discard(call_id)
            # An output for the pending request answers it (whoever answered it).
            self.awaiting_approval = bool(self.pending_approvals)
        else:
            self.open_tools.add(call_id)
            if chunk.type == "tool-approval-request":
                self.pending_approvals.add(call_id)
                self.awaiting_approval = True
        return was != self.awaiting_approval

    def clear_approvals(self) -> None:
        self.pending_approvals.clear()
        self.awaiting_approval = False

    @property
    def in_tool(self) -> bool:
        """A tool runs or waits on an approval: silence is expected, not an idle upstream."""
        return self.awaiting_approval or bool(self.open_tools)

    def idle_expired(self, now: float, timeout_ms: float) -> bool:
        """Record progress since the last check; True once no chunk came for `timeout_ms`
        while no tool was running and no approval was awaited."""
        count = self.accumulator.chunk_count
        if count != self.idle_last_count or self.in_tool:
            self.idle_last_count = count
            self.idle_last_progress = now
            return False
        return (now - self.idle_last_progress) * 1000.0 >= timeout_ms

    def cancel_timers(self) -> None:
        for handle in (self.checkpoint_handle, self.idle_handle):
            if handle is not None:
                handle.cancel()
        self.checkpoint_handle = None
        self.idle_handle = None


class ActiveStream:
    """A topic's stream: its executions, its listeners and its topic-level status."""

    __slots__ = (
        "abandoned",
        "checkpoint_listeners",
        "chunk_listeners",
        "cleanup_timer",
        "executions",
        "expires_at",
        "hold",
        "idle_waiters",
        "is_multi_model",
        "last_error",
        "lifecycle",
        "listener_seq",
        "listeners",
        "outbox",
        "pending_steers",
        "renderer_count",
        "settling",
        "siblings_group_id",
        "status",
        "topic_id",
        "watched",
    )

    def __init__(self, topic_id: str, *, is_multi_model: bool, lifecycle: StreamLifecycle,
                 siblings_group_id: int | None = None) -> None:
        self.topic_id = topic_id
        self.executions: dict[UniqueModelId, StreamExecution] = {}
        self.listeners: dict[str, StreamListener] = {}
        self.listener_seq: tuple[StreamListener, ...] = ()
        # The listeners offered each chunk (`takes_chunks`), in `listener_seq` order.
        self.chunk_listeners: tuple[StreamListener, ...] = ()
        self.checkpoint_listeners: tuple[PersistingListener, ...] = ()
        # Renderers (windows) now, whether one ever watched, and "it had one, none is left":
        # what `background_mode = "abort"` reads per chunk.
        self.renderer_count = 0
        self.watched = False
        self.abandoned = False
        self.status: TopicStreamStatus = "pending"
        self.is_multi_model = is_multi_model
        self.lifecycle = lifecycle
        self.siblings_group_id = siblings_group_id
        self.expires_at: float | None = None
        self.cleanup_timer: asyncio.TimerHandle | None = None
        self.pending_steers: deque[str] = deque()
        # Whether the stream stays open past its next terminal (see hold.py).
        self.hold = TopicHold.NONE
        # Terminal dispatches in progress: the topic stays live while its listeners run.
        self.settling = 0
        # Orders the subscribers' terminal events (see terminal.py).
        self.outbox = TerminalOutbox()
        # `AiStreamManager.wait_until_idle` callers, woken when the topic is finalised.
        self.idle_waiters: list[asyncio.Future[None]] = []
        self.last_error: SerializedError | None = None

    def upsert_listener(self, listener: StreamListener) -> None:
        self.upsert_listeners((listener,))

    def upsert_listeners(self, listeners: Iterable[StreamListener]) -> None:
        """Add or replace each listener (by id), in order, deriving the listener views once."""
        for listener in listeners:
            self.listeners[listener.id] = listener
        self.refresh_listeners()

    def remove_listener(self, listener_id: str) -> bool:
        if self.listeners.pop(listener_id, None) is None:
            return False
        self.refresh_listeners()
        return True

    def refresh_listeners(self) -> None:
        seq = tuple(self.listeners.values())
        self.listener_seq = seq
        self.chunk_listeners = tuple(lst for lst in seq if takes_chunks(lst))
        self.checkpoint_listeners = tuple(lst for lst in seq
                                          if isinstance(lst, PersistingListener) and lst.takes_checkpoints)
        self.renderer_count = sum(1 for lst in seq if is_renderer(lst))
        self.watched = self.watched or self.renderer_count > 0
        self.abandoned = self.watched and self.renderer_count == 0

    def hand_over_listeners(self, listeners: Iterable[StreamListener]) -> None:
        """A continuation takes over: the subscribers stay, the finished turn's terminal-only
        listeners (its rows' persistence) give way to `listeners`."""
        for lid, listener in list(self.listeners.items()):
            if not is_subscriber(listener):
                del self.listeners[lid]
        self.upsert_listeners(listeners)

    def drop_finished_executions(self) -> None:
        for model_id, ex in list(self.executions.items()):
            if ex.status != "streaming":
                del self.executions[model_id]

    def prune_dead(self) -> None:
        """Remove the listeners that are no longer alive (or fail to say)."""
        for lid, listener in list(self.listeners.items()):
            try:
                alive = listener.is_alive()
            except Exception:
                alive = False
            if not alive:
                log.info("listener %s of %s is dead: removed", lid, self.topic_id)
                self.listeners.pop(lid, None)
        self.refresh_listeners()

    def dispatch_checkpoint(self, ex: StreamExecution) -> None:
        """Offer the execution's partial message to checkpoint-capable listeners, each isolated."""
        partial = ex.accumulator.snapshot()
        for listener in self.checkpoint_listeners:
            try:
                listener.on_checkpoint(partial, ex.source_model_id or ex.model_id, ex.anchor_message_id)
            except Exception:
                log.exception("on_checkpoint failed for listener %s", listener.id)

    # -- eviction timer (the lifecycle decides when, the stream keeps the timer) --------------
    def schedule_eviction(self, delay_ms: float, evict: Callable[[], None]) -> None:
        self.cancel_eviction()
        self.expires_at = time.monotonic() * 1000.0 + delay_ms
        self.cleanup_timer = asyncio.get_running_loop().call_later(max(0.0, delay_ms) / 1000.0, evict)

    def cancel_eviction(self) -> None:
        if self.cleanup_timer is not None:
            self.cleanup_timer.cancel()
            self.cleanup_timer = None

    def any_streaming(self) -> bool:
        return any(e.status == "streaming" for e in self.executions.values())

    def is_live(self) -> bool:
        """Pending or streaming with work still running, a terminal still being dispatched,
        or held for a continuation."""
        if self.status not in ("pending", "streaming"):
            return False
        return self.settling > 0 or self.hold.keeps_open or self.any_streaming()

    def notify_idle(self) -> None:
        waiters, self.idle_waiters = self.idle_waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    def bears_persistence(self) -> bool:
        return any(bears_persistence(lst) for lst in self.listener_seq)


# -- read-only views and draining, shared by the manager's public API -------------------------


def topic_snapshot(stream: ActiveStream) -> TopicSnapshot:
    """The manager's `inspect` view of one stream."""
    return TopicSnapshot(
        topic_id=stream.topic_id, status=stream.status, is_multi_model=stream.is_multi_model,
        lifecycle=stream.lifecycle.name, listener_ids=tuple(stream.listeners),
        executions=tuple(ExecutionSnapshot(
            model_id=e.model_id, anchor_message_id=e.anchor_message_id, status=e.status,
            buffer_size=len(e.buffer), dropped_chunks=e.dropped_chunks, awaiting_approval=e.awaiting_approval,
            final_message=e.final_message, error=e.error, timings=e.timings,
            siblings_group_id=e.siblings_group_id, stop_reason=e.stop_reason)
            for e in stream.executions.values()),
        pending_steers=tuple(stream.pending_steers), held=stream.hold.keeps_open, expires_at=stream.expires_at,
        hold=stream.hold.value,
    )


def list_active_work(streams: Iterable[ActiveStream]) -> list[ActiveWork]:
    return [ActiveWork(id=f"{s.topic_id}:{e.model_id}", topic_id=s.topic_id, model_id=e.model_id,
                       anchor_message_id=e.anchor_message_id, started_at=e.timings.started_at)
            for s in streams for e in s.executions.values()
            if e.task is not None and not e.task.done()]


async def drain_in_flight(streams: Iterable[ActiveStream], timeout_ms: float) -> list[str]:
    """Await the running executions of persistence-bearing streams (prompt streams and other
    write-free ones are not waited for); return the ids still running after the timeout."""
    pending: dict[asyncio.Task[None], str] = {}
    for s in list(streams):
        if not s.bears_persistence():
            continue
        for e in s.executions.values():
            if e.task is not None and not e.task.done():
                pending[e.task] = f"{s.topic_id}:{e.model_id}"
    if not pending:
        return []
    _, still = await asyncio.wait(pending.keys(), timeout=max(0.0, timeout_ms) / 1000.0)
    return sorted(pending[t] for t in still)


async def drain_terminal_writes(streams: Callable[[], Iterable[ActiveStream]], timeout_ms: float) -> list[str]:
    """Wait until no terminal write is being dispatched (a turn's last persistence, which can
    span awaits), without waiting for turns still streaming; return the topic ids still
    settling after the timeout. Chunk checkpoints are synchronous, so none is ever half done."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(0.0, timeout_ms) / 1000.0
    while True:
        busy = sorted(s.topic_id for s in streams() if s.settling > 0)
        if not busy or loop.time() >= deadline:
            return busy
        await asyncio.sleep(0.005)
