"""Types of the stream broker (`stream-manager.md`: StreamListener, ActiveStream, send contract).

Owned by the stream manager; the agent-session host, the UI bridge and the providers build on
these names. Extend additively.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

# The typed errors live in errors.py and stay importable from here.
from cherry_desktop.core.ai.stream.errors import DispatchError as DispatchError
from cherry_desktop.core.ai.stream.errors import DuplicateModelError as DuplicateModelError
from cherry_desktop.core.ai.stream.errors import PersistenceWriteError as PersistenceWriteError
from cherry_desktop.core.ai.stream.errors import StreamManagerError as StreamManagerError
from cherry_desktop.core.ai.stream.errors import WritesPausedError as WritesPausedError
from cherry_desktop.core.messages import MessagePart, UIMessage, UIMessageChunk

UniqueModelId = str
TopicStreamStatus = Literal["pending", "streaming", "done", "aborted", "awaiting-approval", "error"]
ExecutionStatus = Literal["streaming", "done", "error", "aborted"]
BackgroundMode = Literal["continue", "abort"]


@dataclass(frozen=True)
class SerializedError:
    """An error as data: what listeners, the DB and the UI see."""

    message: str
    name: str = "Error"
    code: str | None = None
    status: int | None = None

    @classmethod
    def from_exception(cls, exc: BaseException, *, code: str | None = None) -> SerializedError:
        status = getattr(exc, "status", None) or getattr(exc, "status_code", None)
        return cls(message=str(exc) or type(exc).__name__, name=type(exc).__name__,
                   code=code or getattr(exc, "code", None),
                   status=status if isinstance(status, int) else None)

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "name": self.name, "code": self.code, "status": self.status}


class AbortSignal:
    """The Python counterpart of the DOM AbortSignal: an event plus a reason."""

    __slots__ = ("_event", "reason")

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.reason: str | None = None

    @property
    def aborted(self) -> bool:
        return self._event.is_set()

    async def wait(self) -> None:
        await self._event.wait()


class AbortController:
    __slots__ = ("signal",)

    def __init__(self) -> None:
        self.signal = AbortSignal()

    def abort(self, reason: str = "aborted") -> None:
        if not self.signal.aborted:
            self.signal.reason = reason
            self.signal._event.set()


@dataclass(frozen=True)
class RuntimeMetadata:
    """Marks an agent-session request: `AiService.stream_text` routes it to the runtime host."""

    session_id: str
    turn_id: str
    kind: Literal["agent-session"] = "agent-session"


@dataclass
class AiStreamRequest:
    """What `AiService.stream_text` gets for one execution."""

    model_id: UniqueModelId
    messages: list[UIMessage] = field(default_factory=list)
    topic_id: str | None = None
    # The assistant row this execution writes to (placeholder / anchor).
    message_id: str | None = None
    runtime: RuntimeMetadata | None = None
    system: str | None = None
    parameters: dict[str, Any] = field(default_factory=dict)
    # Set by the manager from the execution's AbortController.
    signal: AbortSignal | None = None
    # Set by the manager: the chat `steerYield` stop condition. A multi-step source checks it
    # at each step boundary and ends the turn cleanly (a `success`) when it returns True.
    steer_yield: Callable[[], bool] | None = None


@dataclass
class TransportTimings:
    """Monotonic milliseconds (time.monotonic() * 1000) owned by the execution loop."""

    started_at: float
    completed_at: float | None = None


@dataclass
class StreamResultBase:
    topic_id: str
    model_id: UniqueModelId
    final_message: UIMessage | None
    timings: TransportTimings
    anchor_message_id: str | None = None
    is_topic_done: bool = True


@dataclass
class StreamDoneResult(StreamResultBase):
    status: Literal["success"] = "success"


@dataclass
class StreamPausedResult(StreamResultBase):
    status: Literal["paused"] = "paused"
    # Why the execution stopped: "user", "no-subscribers", "shutdown", "replaced" or
    # "idle-timeout" (the UI says why a reply stopped by itself).
    stop_reason: str | None = None


@dataclass
class StreamErrorResult(StreamResultBase):
    error: SerializedError = field(default_factory=lambda: SerializedError("unknown error"))
    status: Literal["error"] = "error"


StreamTerminalResult = StreamDoneResult | StreamPausedResult | StreamErrorResult


@runtime_checkable
class StreamListener(Protocol):
    """Every consumer of a topic's stream (windows, persistence, trace flush, SSE...).

    `on_chunk` is synchronous (the execution loop never awaits a listener); terminal handlers
    may be awaited. `is_alive()` False removes the listener at the next dispatch.
    """

    @property
    def id(self) -> str: ...

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: UniqueModelId | None = None,
                 anchor_message_id: str | None = None) -> None: ...

    async def on_done(self, result: StreamDoneResult) -> None: ...

    async def on_paused(self, result: StreamPausedResult) -> None: ...

    async def on_error(self, result: StreamErrorResult) -> None: ...

    def is_alive(self) -> bool: ...


@dataclass(frozen=True)
class StreamChunkPayload:
    chunk: UIMessageChunk
    execution_id: UniqueModelId
    anchor_message_id: str | None = None


@dataclass(frozen=True)
class ActiveExecution:
    model_id: UniqueModelId
    anchor_message_id: str | None = None


@dataclass(frozen=True)
class TopicStatusSnapshotEntry:
    """The value under SharedCache `topic.stream.statuses.<topicId>`."""

    status: TopicStreamStatus
    active_executions: tuple[ActiveExecution, ...] = ()
    awaiting_approval_anchors: tuple[ActiveExecution, ...] = ()
    last_completed_at: float | None = None


@dataclass(frozen=True)
class ModelDispatch:
    model_id: UniqueModelId
    request: AiStreamRequest
    anchor_message_id: str | None = None


@dataclass
class SendResult:
    mode: Literal["started", "injected"]
    execution_ids: list[UniqueModelId]


@dataclass
class ExecutionReplay:
    """Compact replay of one execution for `attach` (text/reasoning deltas merged)."""

    execution_id: UniqueModelId
    anchor_message_id: str | None
    chunks: list[UIMessageChunk]
    dropped_chunks: int = 0


@dataclass
class AttachResponse:
    status: Literal["not-found", "streaming", "done", "paused", "error", "aborted", "awaiting-approval"]
    replays: list[ExecutionReplay] = field(default_factory=list)
    final_messages: dict[UniqueModelId, UIMessage] = field(default_factory=dict)
    error: SerializedError | None = None
    is_multi_model: bool = False


# -- dispatch (renderer -> main contract) ----------------------------------------------------


@dataclass
class AiStreamOpenRequest:
    """`Ai_Stream_Open`: submit a user message, or regenerate an assistant message."""

    topic_id: str
    trigger: Literal["submit-message", "regenerate-message"] = "submit-message"
    user_message_parts: list[MessagePart] = field(default_factory=list)
    # regenerate: the assistant message to regenerate; submit: optional parent node.
    message_id: str | None = None
    parent_anchor_id: str | None = None
    mentioned_model_ids: list[UniqueModelId] = field(default_factory=list)
    # Agent sessions: "steer" (inject into the running turn when the runtime can) or
    # "queue" (next turn). The UI lets the user choose per message.
    follow_up_mode: Literal["steer", "queue"] = "steer"


@dataclass
class MainContinueConversationRequest:
    topic_id: str
    anchor_message_id: str
    model_id: UniqueModelId
    trigger: Literal["continue-conversation"] = "continue-conversation"


@dataclass
class MainSteerContinuationRequest:
    topic_id: str
    steer_user_message_id: str
    model_ids: list[UniqueModelId]
    trigger: Literal["steer-continuation"] = "steer-continuation"


MainDispatchRequest = AiStreamOpenRequest | MainContinueConversationRequest | MainSteerContinuationRequest


@dataclass(frozen=True)
class DispatchContext:
    has_live_stream: bool


@dataclass
class PreparedDispatch:
    topic_id: str
    models: Sequence[ModelDispatch]
    listeners: list[StreamListener]
    user_message_id: str | None = None
    pending_steer_user_message_id: str | None = None
    reserved_messages: list[UIMessage] = field(default_factory=list)
    siblings_group_id: int | None = None
    is_multi_model: bool = False
    lifecycle: Any = None  # StreamLifecycle | None
    # Agent sessions: how a live follow-up was taken; copied onto `DispatchResult.follow_up`.
    follow_up: Literal["injected", "queued"] | None = None


@dataclass
class DispatchResult:
    mode: Literal["started", "injected"]
    execution_ids: list[UniqueModelId] = field(default_factory=list)
    user_message_id: str | None = None
    placeholder_ids: list[str] = field(default_factory=list)
    # Agent sessions: "injected" when steered into the running turn, "queued" when it waits
    # for the next turn (the UI shows which).
    follow_up: Literal["injected", "queued"] | None = None


@runtime_checkable
class ChatContextProvider(Protocol):
    @property
    def name(self) -> str: ...

    def can_handle(self, topic_id: str) -> bool: ...

    async def prepare_dispatch(self, subscriber: StreamListener | None, req: MainDispatchRequest,
                               ctx: DispatchContext) -> PreparedDispatch: ...


# -- additions owned by the stream manager ------------------------------------------------

# `AiService.stream_text` and test sources: pre-stream errors raise from the await,
# mid-stream errors come through the iterator (or as an `error` chunk).
StreamTextFn = Callable[[AiStreamRequest], Awaitable[AsyncIterator[UIMessageChunk]]]


@dataclass
class SendInput:
    """`AiStreamManager.send` input (a `PreparedDispatch` is accepted as well)."""

    topic_id: str
    models: Sequence[ModelDispatch]
    listeners: list[StreamListener] = field(default_factory=list)
    siblings_group_id: int | None = None
    lifecycle: Any = None  # StreamLifecycle | None -> chat lifecycle


@dataclass(frozen=True)
class AiStreamManagerConfig:
    grace_period_ms: float = 30_000
    background_mode: BackgroundMode = "continue"
    max_buffer_chunks: int = 10_000
    # A silent upstream is stopped (its partial persisted `paused`, stop reason
    # "idle-timeout") after this long without a chunk, not counting the time a tool runs or
    # an approval is awaited; 0 disables.
    idle_timeout_ms: float = 300_000
    # Crash-safe streaming: a running execution's partial message is offered to
    # checkpoint-capable listeners at most this often; 0 disables.
    checkpoint_interval_ms: float = 1_000
    # The app's manager: `dispatch_stream_request` waits until `open_boot_gate()` (called once
    # boot recovery flipped the rows a crash left pending), so no placeholder precedes it.
    require_boot_reconcile: bool = False


@dataclass(frozen=True)
class ExecutionSnapshot:
    model_id: UniqueModelId
    anchor_message_id: str | None
    status: ExecutionStatus
    buffer_size: int
    dropped_chunks: int
    awaiting_approval: bool
    final_message: UIMessage | None
    error: SerializedError | None
    timings: TransportTimings
    siblings_group_id: int | None = None
    stop_reason: str | None = None


@dataclass(frozen=True)
class TopicSnapshot:
    """`AiStreamManager.inspect(topic_id)`: a read-only copy of one active stream."""

    topic_id: str
    status: TopicStreamStatus
    is_multi_model: bool
    lifecycle: str
    listener_ids: tuple[str, ...]
    executions: tuple[ExecutionSnapshot, ...]
    pending_steers: tuple[str, ...]
    held: bool
    expires_at: float | None
    hold: str = "none"  # TopicHold value


@dataclass(frozen=True)
class ActiveWork:
    """One running execution, as `list_active_work()` reports it (write quiesce)."""

    id: str  # "<topicId>:<modelId>"
    topic_id: str
    model_id: UniqueModelId
    anchor_message_id: str | None
    started_at: float


class Disposable(Protocol):
    def dispose(self) -> None: ...
