"""Types of the stream broker (`stream-manager.md`: StreamListener, ActiveStream, send contract).

Owned by the stream manager; the agent-session host, the UI bridge and the providers build on
these names. Extend additively. `SerializedError`, the typed errors, the abort pair and the
manager's config live in lower modules (errors.py, abort.py, config.py) and stay importable
from here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from cherry_desktop.core.ai.stream.abort import AbortController as AbortController
from cherry_desktop.core.ai.stream.abort import AbortSignal as AbortSignal
from cherry_desktop.core.ai.stream.config import AiStreamManagerConfig as AiStreamManagerConfig
from cherry_desktop.core.ai.stream.config import BackgroundMode as BackgroundMode
from cherry_desktop.core.ai.stream.errors import DispatchError as DispatchError
from cherry_desktop.core.ai.stream.errors import DuplicateModelError as DuplicateModelError
from cherry_desktop.core.ai.stream.errors import PersistenceWriteError as PersistenceWriteError
from cherry_desktop.core.ai.stream.errors import SerializedError as SerializedError
from cherry_desktop.core.ai.stream.errors import StreamManagerError as StreamManagerError
from cherry_desktop.core.ai.stream.errors import WritesPausedError as WritesPausedError
from cherry_desktop.core.messages import MessagePart, UIMessage, UIMessageChunk

UniqueModelId = str
TopicStreamStatus = Literal["pending", "streaming", "done", "aborted", "awaiting-approval", "error"]
ExecutionStatus = Literal["streaming", "done", "error", "aborted"]
AttachStatus = Literal["not-found", "streaming", "done", "paused", "error", "aborted", "awaiting-approval"]


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
    # Provider-specific request options (temperature, max_tokens, thinking budget...): JSON
    # values each provider reads in its own way, hence Any.
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
    status: AttachStatus
    replays: list[ExecutionReplay] = field(default_factory=list)
    final_messages: dict[UniqueModelId, UIMessage] = field(default_factory=dict)
    error: SerializedError | None = None
    is_multi_model: bool = False


# -- lifecycle strategy (implemented in lifecycle.py) ------------------------------------------


class LifecycleExecution(Protocol):
    """What a lifecycle reads of one execution."""

    @property
    def model_id(self) -> UniqueModelId: ...

    @property
    def anchor_message_id(self) -> str | None: ...

    @property
    def status(self) -> ExecutionStatus: ...

    @property
    def awaiting_approval(self) -> bool: ...


class LifecycleStream(Protocol):
    """What a lifecycle sees of a topic stream (`ActiveStream` is one): a narrow view, so
    the lifecycles and the stream state do not import each other."""

    @property
    def topic_id(self) -> str: ...

    @property
    def status(self) -> TopicStreamStatus: ...

    @property
    def executions(self) -> Mapping[UniqueModelId, LifecycleExecution]: ...

    def schedule_eviction(self, delay_ms: float, evict: Callable[[], None]) -> None:
        """Run `evict` after `delay_ms` (the grace period), unless the stream goes first."""


@runtime_checkable
class StreamLifecycle(Protocol):
    """Chat vs prompt streams: status mirroring, attach, and when a finished stream leaves."""

    @property
    def name(self) -> str: ...

    def on_created(self, stream: LifecycleStream) -> None:
        """The stream was just registered (status `pending`)."""

    def on_promoted_to_streaming(self, stream: LifecycleStream) -> None:
        """First chunk anywhere, or the executions changed while streaming."""

    def on_terminal(self, stream: LifecycleStream) -> None:
        """The topic reached a terminal status."""

    def can_attach(self, stream: LifecycleStream) -> bool: ...

    def cleanup(self, stream: LifecycleStream, evict: Callable[[], None]) -> None:
        """Decide when `evict` removes the finished stream from the registry."""


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
    lifecycle: StreamLifecycle | None = None
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
    lifecycle: StreamLifecycle | None = None  # None -> the chat lifecycle


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

