"""`AiStreamManager`: the active-stream registry and the broker of every stream event.

The public API of `stream-manager.md` over four parts with one job each: `StreamRegistry`
(which stream is current per topic), `ExecutionRunner` (launch, loop, chunk delivery, timers,
terminal dispatch), `continuation` (chat steering and the agent host's runtime turns, through
the public `ContinuationHost` methods below) and `WriteQuiesce`. One asyncio loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Coroutine, Sequence
from typing import Unpack

from cherry_desktop.core.ai.stream import continuation as _cont
from cherry_desktop.core.ai.stream.config import ConfigOverrides
from cherry_desktop.core.ai.stream.execution import ExecutionRunner
from cherry_desktop.core.ai.stream.lifecycle import ChatStreamLifecycle, PromptStreamLifecycle, StreamLifecycle
from cherry_desktop.core.ai.stream.quiesce import WriteHold, WriteQuiesce
from cherry_desktop.core.ai.stream.registry import BootGate, StreamRegistry, TopicLocks
from cherry_desktop.core.ai.stream.replay import build_compact_replay
from cherry_desktop.core.ai.stream.state import (
    ActiveStream,
    StreamExecution,
    drain_in_flight,
    drain_terminal_writes,
    list_active_work,
    topic_snapshot,
)
from cherry_desktop.core.ai.stream.terminal import derive_terminal_status
from cherry_desktop.core.ai.stream.types import (
    ActiveWork,
    AiStreamManagerConfig,
    AiStreamRequest,
    AttachResponse,
    AttachStatus,
    BackgroundMode,
    ChatContextProvider,
    DuplicateModelError,
    ExecutionReplay,
    ModelDispatch,
    PreparedDispatch,
    SendInput,
    SendResult,
    SerializedError,
    StreamListener,
    StreamTerminalResult,
    StreamTextFn,
    TopicSnapshot,
    TopicStreamStatus,
    UniqueModelId,
    WritesPausedError,
)
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.core.state.shared_cache import SharedCache

log = logging.getLogger(__name__)


# What `attach` says of a stream past its terminal (a stopped one reads "paused").
_FINAL_ATTACH_STATUS: dict[TopicStreamStatus, AttachStatus] = {
    "pending": "streaming", "streaming": "streaming", "done": "done", "aborted": "paused",
    "error": "error", "awaiting-approval": "awaiting-approval"}


def check_distinct_models(model_ids: Sequence[UniqueModelId]) -> None:
    """Raise `DuplicateModelError` when a model id appears twice."""
    seen: set[UniqueModelId] = set()
    for model_id in model_ids:
        if model_id in seen:
            raise DuplicateModelError(model_id)
        seen.add(model_id)


class AiStreamManager:
    """Registry of active topic streams (see module docstring)."""

    def __init__(self, config: AiStreamManagerConfig | None = None, *, stream_text: StreamTextFn | None = None,
                 shared_cache: SharedCache | None = None, **overrides: Unpack[ConfigOverrides]) -> None:
        base = dataclasses.replace(config or AiStreamManagerConfig(), **overrides)
        self.shared_cache = shared_cache if shared_cache is not None else SharedCache()
        self.chat_lifecycle: StreamLifecycle = ChatStreamLifecycle(self.shared_cache, base.grace_period_ms)
        self.prompt_lifecycle: StreamLifecycle = PromptStreamLifecycle()
        self.context_providers: list[ChatContextProvider] = []
        self.quiesce = WriteQuiesce()
        self.registry = StreamRegistry(lambda stream: self.runner.stop_stream(stream, "replaced"))
        self.runner = ExecutionRunner(base, self.registry, self.quiesce, stream_text,
                                      lambda stream: _cont.chain_steer(self, stream))
        self.dispatch_locks = TopicLocks()
        self.boot_gate = BootGate(base.require_boot_reconcile)
        self._background_tasks: set[asyncio.Task[None]] = set()

    # -- wiring -----------------------------------------------------------------------------
    @property
    def config(self) -> AiStreamManagerConfig:
        return self.runner.config

    def set_stream_text(self, stream_text: StreamTextFn) -> None:
        self.runner.stream_text = stream_text

    def set_background_mode(self, mode: BackgroundMode) -> None:
        """Settings changed: applies to the next chunk of every stream."""
        self.runner.replace_config(background_mode=mode)

    def set_idle_timeout_ms(self, idle_timeout_ms: float) -> None:
        """Settings changed: applies to executions launched from now on."""
        self.runner.replace_config(idle_timeout_ms=idle_timeout_ms)

    def set_context_providers(self, providers: Sequence[ChatContextProvider]) -> None:
        """The `dispatch_stream_request` order (Agent -> Temporary -> Persistent)."""
        self.context_providers = list(providers)

    # -- boot gate and dispatch locks --------------------------------------------------------
    def open_boot_gate(self) -> None:
        """Boot recovery has flipped the rows a crash left pending: dispatches may write."""
        self.boot_gate.open()

    async def wait_boot_reconciled(self) -> None:
        await self.boot_gate.wait()

    def dispatch_lock(self, topic_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """`async with manager.dispatch_lock(topic_id)`: one dispatch at a time per topic."""
        return self.dispatch_locks.hold(topic_id)

    # -- send ---------------------------------------------------------------------------------
    def send(self, input: SendInput | PreparedDispatch) -> SendResult:
        """Start a stream, or inject listeners into the live one (models are then ignored)."""
        topic_id = input.topic_id
        stream = self.registry.get(topic_id)
        if stream is not None and stream.is_live():
            stream.upsert_listeners(input.listeners)
            running = [e.model_id for e in stream.executions.values() if e.status == "streaming"]
            return SendResult(mode="injected", execution_ids=running)
        models = list(input.models)
        if not models:
            # The row was already enqueued by its provider; nothing to launch.
            return SendResult(mode="injected", execution_ids=[])
        check_distinct_models([m.model_id for m in models])
        if self.quiesce.paused:
            raise WritesPausedError(f"stream writes are paused ({', '.join(self.quiesce.reasons)})")
        carried_steers: list[str] = []
        if stream is not None:
            # A steer queued before an approval pause waits for the approval's continuation.
            if stream.status == "awaiting-approval":
                carried_steers = list(stream.pending_steers)
            self.registry.evict(stream)
        lifecycle: StreamLifecycle = input.lifecycle or self.chat_lifecycle
        stream = ActiveStream(topic_id, is_multi_model=len(models) > 1, lifecycle=lifecycle,
                              siblings_group_id=input.siblings_group_id)
        stream.pending_steers.extend(carried_steers)
        stream.upsert_listeners(input.listeners)
        self.registry.put(stream)
        for m in models:
            self.runner.launch(stream, m)
        lifecycle.on_created(stream)
        return SendResult(mode="started", execution_ids=[m.model_id for m in models])

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

    # -- ContinuationHost (public for continuation.py) ---------------------------------------------
    def stream(self, topic_id: str) -> ActiveStream | None:
        return self.registry.get(topic_id)

    def is_current(self, stream: ActiveStream) -> bool:
        return self.registry.is_current(stream)

    def launch(self, stream: ActiveStream, model: ModelDispatch) -> StreamExecution:
        return self.runner.launch(stream, model)

    def publish(self, stream: ActiveStream) -> None:
        self.runner.publish(stream)

    def finalize_topic(self, stream: ActiveStream, status: TopicStreamStatus | None = None) -> None:
        self.runner.finalize_topic(stream, status)

    async def dispatch_to_listeners(self, stream: ActiveStream, result: StreamTerminalResult) -> StreamTerminalResult:
        """The single funnel of terminal events (persistence first, then subscribers)."""
        return await self.runner.dispatch(stream, result)

    def spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background_tasks.add(task)
        task.add_done_callback(self._background_tasks.discard)

    # -- subscription ---------------------------------------------------------------------------
    def attach(self, listener: StreamListener, topic_id: str) -> AttachResponse:
        """Subscribe `listener` to a live topic and return a compact replay, or its final state."""
        stream = self.registry.get(topic_id)
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
        status = _FINAL_ATTACH_STATUS[stream.status]
        error = stream.last_error if stream.status == "error" else None
        return AttachResponse(status=status, final_messages=finals, error=error,
                              is_multi_model=stream.is_multi_model)

    def detach(self, listener: StreamListener | str, topic_id: str) -> None:
        """Unsubscribe; the stream continues."""
        listener_id = listener if isinstance(listener, str) else listener.id
        self.remove_listener(topic_id, listener_id)

    def add_listener(self, topic_id: str, listener: StreamListener) -> bool:
        """Upsert by id; False when the topic has no stream."""
        stream = self.registry.get(topic_id)
        if stream is None:
            return False
        stream.upsert_listener(listener)
        return True

    def remove_listener(self, topic_id: str, listener_id: str) -> None:
        stream = self.registry.get(topic_id)
        if stream is not None:
            stream.remove_listener(listener_id)

    # -- control ----------------------------------------------------------------------------------
    def abort(self, topic_id: str, reason: str = "user", *, model_id: UniqueModelId | None = None) -> None:
        """Stop every running execution of the topic (with `model_id`, only that model's, as
        a multi-model turn's per-answer Stop does); partials persist as `paused`."""
        stream = self.registry.get(topic_id)
        if stream is None:
            return
        stream.pending_steers.clear()
        running = [e for e in stream.executions.values()
                   if e.status == "streaming" and model_id in (None, e.model_id)]
        for ex in running:
            self.runner.stop(ex, reason)
        if not running and model_id is None and stream.hold.keeps_open:
            self.runner.finalize_topic(stream, "aborted")

    def has_live_stream(self, topic_id: str) -> bool:
        """True from `send` until the topic's last terminal has been dispatched to every
        listener (persistence, then windows) and no hold keeps it open."""
        stream = self.registry.get(topic_id)
        return stream is not None and stream.is_live()

    async def wait_until_idle(self, topic_id: str) -> None:
        """Return once `has_live_stream(topic_id)` is False (at once when it already is): the
        last terminal reached every listener and no hold or chained continuation keeps the
        topic open. For a host that must start queued work only on an idle topic."""
        loop = asyncio.get_running_loop()
        while True:
            stream = self.registry.get(topic_id)
            if stream is None or not stream.is_live():
                return
            waiter: asyncio.Future[None] = loop.create_future()
            stream.idle_waiters.append(waiter)
            await waiter

    def clear_awaiting_approval(self, topic_id: str, model_id: UniqueModelId | None = None) -> None:
        """The approval was answered: the topic no longer surfaces `awaiting-approval`."""
        stream = self.registry.get(topic_id)
        if stream is None:
            return
        for ex in stream.executions.values():
            if model_id is None or ex.model_id == model_id:
                ex.clear_approvals()
        if stream.status == "awaiting-approval":
            stream.status = derive_terminal_status(stream)
            if self.registry.is_current(stream):
                stream.lifecycle.on_terminal(stream)
        elif stream.is_live():
            self.runner.publish(stream)

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


    # -- write quiesce ----------------------------------------------------------------------------
    def pause(self, reason: str = "") -> WriteHold:
        """A refcounted hold: no new turn, no checkpoint, no chained continuation until disposed."""
        return self.quiesce.pause(reason)

    @property
    def writes_paused(self) -> bool:
        return self.quiesce.paused

    def list_active_work(self) -> list[ActiveWork]:
        return list_active_work(self.registry.streams())

    async def drain_in_flight(self, timeout_ms: float = 10_000) -> list[str]:
        """Await the running executions of persistence-bearing streams (terminal persistence
        included); return straggler ids. Prompt streams without persistence are not awaited."""
        return await drain_in_flight(self.registry.streams(), timeout_ms)

    async def drain_writes(self, timeout_ms: float = 10_000) -> list[str]:
        """Await the terminal writes under way, not the turns still streaming (a backup's
        drain: a live turn is backed up as far as it was persisted); return straggler ids."""
        return await drain_terminal_writes(self.registry.streams, timeout_ms)

    async def wait_writes_resumed(self) -> None:
        """Return once no write hold is active (a new turn waits through a backup's snapshot)."""
        await self.quiesce.wait_resumed()

    async def shutdown(self, timeout_ms: float = 5_000) -> None:
        """Stop every stream (partials persist as `paused`) and await their loops."""
        tasks = []
        for stream in self.registry.streams():
            for ex in stream.executions.values():
                self.runner.stop(ex, "shutdown")
                if ex.task is not None and not ex.task.done():
                    tasks.append(ex.task)
        if tasks:
            await asyncio.wait(tasks, timeout=max(0.0, timeout_ms) / 1000.0)
        for stream in self.registry.streams():
            self.registry.evict(stream)

    # -- inspection -------------------------------------------------------------------------------
    def inspect(self, topic_id: str) -> TopicSnapshot | None:
        stream = self.registry.get(topic_id)
        return None if stream is None else topic_snapshot(stream)

    def topic_ids(self) -> list[str]:
        return self.registry.topic_ids()
