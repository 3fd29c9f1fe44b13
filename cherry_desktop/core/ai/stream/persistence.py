"""`PersistenceListener` and the `PersistenceBackend` strategy.

One listener, many backends: the listener owns the observer protocol (model-id filter, the
error folded into one trailing `data-error` part, a failed write retried once and then
reported as `PersistenceWriteError` so the manager tells the windows the turn failed,
`after_persist` only on success, stats projection); a backend only writes. The spec's
optional backend hooks are protocols of their own: a `CheckpointBackend` gets the running
message about once a second (crash-safe streaming), an `AfterPersistBackend` is called after
a successful write.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from cherry_desktop.core.ai.stream.listeners import PersistingListener
from cherry_desktop.core.ai.stream.types import (
    PersistenceWriteError,
    SerializedError,
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    StreamTerminalResult,
    UniqueModelId,
)
from cherry_desktop.core.messages import DataPart, ErrorCode, UIMessage, UIMessageChunk

log = logging.getLogger(__name__)

PersistStatus = Literal["success", "paused", "error"]
# `MessageStats`: token counts and timings in whole milliseconds (see `stats_from_terminal`).
MessageStats = dict[str, int]


@dataclass
class PersistInput:
    final_message: UIMessage | None
    status: PersistStatus
    model_id: UniqueModelId | None = None
    stats: MessageStats | None = None


@runtime_checkable
class PersistenceBackend(Protocol):
    @property
    def kind(self) -> str: ...

    async def persist_assistant(self, input: PersistInput) -> None: ...


@runtime_checkable
class CheckpointBackend(PersistenceBackend, Protocol):
    """A backend that can write the running partial onto its still-pending row."""

    async def checkpoint(self, partial: UIMessage) -> None: ...


@runtime_checkable
class AfterPersistBackend(PersistenceBackend, Protocol):
    """A backend with the spec's `afterPersist`: called once a `success` write landed."""

    async def after_persist(self, final_message: UIMessage) -> None: ...


@dataclass
class SemanticTimings:
    first_text_at: float | None = None
    reasoning_started_at: float | None = None
    reasoning_ended_at: float | None = None


_TOKEN_FIELDS = ("total_tokens", "prompt_tokens", "completion_tokens", "thoughts_tokens")


def stats_from_terminal(final_message: UIMessage | None, timings: dict[str, float | None]) -> MessageStats:
    """Project tokens (from message metadata) and timings (monotonic ms) into `MessageStats`.

    `time_thinking_ms` is deliberately not projected: the wall-clock reasoning window can
    include interleaved tool execution.
    """
    stats: MessageStats = {}
    meta = final_message.metadata if final_message is not None else {}
    for key in _TOKEN_FIELDS:
        value = meta.get(key)
        if isinstance(value, int | float):
            stats[key] = int(value)
    started = timings.get("started_at")
    first = timings.get("first_text_at")
    completed = timings.get("completed_at")
    if started is not None and first is not None:
        stats["time_first_token_ms"] = round(first - started)
    if started is not None and completed is not None:
        stats["time_completion_ms"] = round(completed - started)
    return stats


IDLE_TIMEOUT = SerializedError(message="The reply stopped: the model sent nothing for too long.",
                               name="IdleTimeout", code=ErrorCode.IDLE_TIMEOUT)


def error_part(error: SerializedError) -> DataPart:
    return DataPart(type="data-error", data=error.to_dict())


def fold_error(message: UIMessage, error: SerializedError) -> UIMessage:
    """`message` with a trailing `data-error` part (added once, never twice)."""
    parts = list(message.parts)
    if parts and parts[-1].type == "data-error":
        return message
    parts.append(error_part(error))
    return UIMessage.model_construct(id=message.id, role=message.role, parts=parts,
                                     metadata=dict(message.metadata))


class PersistenceListener(PersistingListener):
    """Terminal-only listener that hands the final message to its backend."""

    def __init__(self, *, backend: PersistenceBackend, topic_id: str, model_id: UniqueModelId | None = None) -> None:
        self.backend = backend
        self.topic_id = topic_id
        self.model_id = model_id
        self._id = f"persistence:{backend.kind}:{topic_id}:{model_id or 'default'}"
        self.semantic = SemanticTimings()
        self._in_reasoning = False
        self._terminal = False
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._checkpoints: CheckpointBackend | None = backend if isinstance(backend, CheckpointBackend) else None
        self._after: AfterPersistBackend | None = backend if isinstance(backend, AfterPersistBackend) else None

    @property
    def id(self) -> str:
        return self._id

    @property
    def takes_checkpoints(self) -> bool:
        return self._checkpoints is not None

    def _mine(self, model_id: UniqueModelId | None) -> bool:
        return self.model_id is None or model_id is None or model_id == self.model_id

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: UniqueModelId | None = None,
                 anchor_message_id: str | None = None) -> None:
        if source_model_id is not None and self.model_id is not None and source_model_id != self.model_id:
            return
        sem = self.semantic
        if sem.first_text_at is not None and not self._in_reasoning:
            return
        t = chunk.type
        if t.startswith("reasoning-"):
            if sem.reasoning_started_at is None:
                sem.reasoning_started_at = time.monotonic() * 1000.0
            self._in_reasoning = True
            return
        if self._in_reasoning:
            self._in_reasoning = False
            if sem.reasoning_ended_at is None:
                sem.reasoning_ended_at = time.monotonic() * 1000.0
        if t == "text-delta" and sem.first_text_at is None:
            sem.first_text_at = time.monotonic() * 1000.0

    # -- crash-safe checkpoints -----------------------------------------------------------------
    def on_checkpoint(self, partial: UIMessage, model_id: UniqueModelId | None,
                      anchor_message_id: str | None) -> None:
        """Offered by the manager at most once per interval; written off the chunk path."""
        if self._checkpoints is None or self._terminal or not self._mine(model_id):
            return
        if self._checkpoint_task is not None and not self._checkpoint_task.done():
            return  # the previous write is still going: skip, the next tick brings fresher parts
        self._checkpoint_task = asyncio.get_running_loop().create_task(
            self._write_checkpoint(self._checkpoints, partial))

    async def _write_checkpoint(self, backend: CheckpointBackend, partial: UIMessage) -> None:
        if self._terminal:
            return
        try:
            await backend.checkpoint(partial)
        except Exception:
            log.exception("checkpoint of %s failed", self._id)

    # -- terminal ---------------------------------------------------------------------------------
    async def on_done(self, result: StreamDoneResult) -> None:
        await self._persist(result, "success")

    async def on_paused(self, result: StreamPausedResult) -> None:
        await self._persist(result, "paused")

    async def on_error(self, result: StreamErrorResult) -> None:
        await self._persist(result, "error")

    async def _persist(self, result: StreamTerminalResult, status: PersistStatus) -> None:
        if not self._mine(result.model_id) or result.final_message is None:
            return
        self._terminal = True
        task = self._checkpoint_task
        if task is not None and not task.done():
            # Let an in-flight checkpoint land first so it cannot overwrite the final write.
            try:
                await task
            except Exception:
                pass
        message = result.final_message
        if isinstance(result, StreamErrorResult):
            message = fold_error(message, result.error)
        elif isinstance(result, StreamPausedResult) and result.stop_reason == "idle-timeout":
            # The row says why it stopped by itself (a user's Stop needs no explanation).
            message = fold_error(message, IDLE_TIMEOUT)
        timings: dict[str, float | None] = {
            "started_at": result.timings.started_at, "completed_at": result.timings.completed_at,
            "first_text_at": self.semantic.first_text_at,
            "reasoning_started_at": self.semantic.reasoning_started_at,
            "reasoning_ended_at": self.semantic.reasoning_ended_at,
        }
        stats = stats_from_terminal(message, timings)
        write = PersistInput(final_message=message, status=status, model_id=result.model_id, stats=stats)
        try:
            await self.backend.persist_assistant(write)
        except Exception:
            log.warning("persist_assistant (%s) failed for %s; retrying once", status, self._id, exc_info=True)
            try:
                await self.backend.persist_assistant(write)
            except Exception as exc:
                log.exception("persist_assistant (%s) failed twice for %s", status, self._id)
                raise PersistenceWriteError(f"the {status} write of {self._id} failed: {exc}") from exc
        if status == "success" and self._after is not None:
            try:
                await self._after.after_persist(message)
            except Exception:
                log.exception("after_persist failed for %s", self._id)
