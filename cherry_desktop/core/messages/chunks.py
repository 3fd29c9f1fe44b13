"""The `UIMessageChunk` union: what a stream emits, one delta at a time.

Types follow the AI SDK's UI message stream protocol (`text-delta`, `tool-input-available`,
...) with snake_case fields. `data-*` chunks carry a free-form `type` and route to `DataChunk`.
Producers on a hot path may use `Model.model_construct(...)` to skip validation.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Tag, TypeAdapter

from cherry_desktop.core.messages.errors import ErrorCode


class _Chunk(BaseModel):
    # defer_build: schemas are built on first use, off the path to the first painted window.
    model_config = ConfigDict(extra="ignore", populate_by_name=True, defer_build=True)


class StartChunk(_Chunk):
    type: Literal["start"] = "start"
    message_id: str | None = None
    message_metadata: dict[str, Any] | None = None


class StartStepChunk(_Chunk):
    type: Literal["start-step"] = "start-step"


class FinishStepChunk(_Chunk):
    type: Literal["finish-step"] = "finish-step"


class TextStartChunk(_Chunk):
    type: Literal["text-start"] = "text-start"
    id: str
    provider_metadata: dict[str, Any] | None = None


class TextDeltaChunk(_Chunk):
    type: Literal["text-delta"] = "text-delta"
    id: str
    delta: str


class TextEndChunk(_Chunk):
    type: Literal["text-end"] = "text-end"
    id: str


class ReasoningStartChunk(_Chunk):
    type: Literal["reasoning-start"] = "reasoning-start"
    id: str
    provider_metadata: dict[str, Any] | None = None


class ReasoningDeltaChunk(_Chunk):
    type: Literal["reasoning-delta"] = "reasoning-delta"
    id: str
    delta: str


class ReasoningEndChunk(_Chunk):
    type: Literal["reasoning-end"] = "reasoning-end"
    id: str


class ToolInputStartChunk(_Chunk):
    type: Literal["tool-input-start"] = "tool-input-start"
    tool_call_id: str
    tool_name: str
    dynamic: bool = True
    provider_executed: bool | None = None
    provider_metadata: dict[str, Any] | None = None


class ToolInputDeltaChunk(_Chunk):
    type: Literal["tool-input-delta"] = "tool-input-delta"
    tool_call_id: str
    input_text_delta: str


class ToolInputAvailableChunk(_Chunk):
    type: Literal["tool-input-available"] = "tool-input-available"
    tool_call_id: str
    tool_name: str
    input: Any = None
    dynamic: bool = True
    provider_executed: bool | None = None
    provider_metadata: dict[str, Any] | None = None


class ToolInputErrorChunk(_Chunk):
    type: Literal["tool-input-error"] = "tool-input-error"
    tool_call_id: str
    tool_name: str
    input: Any = None
    error_text: str


class ToolOutputAvailableChunk(_Chunk):
    type: Literal["tool-output-available"] = "tool-output-available"
    tool_call_id: str
    output: Any = None
    provider_executed: bool | None = None
    duration_ms: float | None = None


class ToolOutputErrorChunk(_Chunk):
    type: Literal["tool-output-error"] = "tool-output-error"
    tool_call_id: str
    error_text: str
    provider_executed: bool | None = None


class ToolOutputDeniedChunk(_Chunk):
    type: Literal["tool-output-denied"] = "tool-output-denied"
    tool_call_id: str
    reason: str | None = None


class ToolApprovalRequestChunk(_Chunk):
    type: Literal["tool-approval-request"] = "tool-approval-request"
    approval_id: str
    tool_call_id: str


class MessageMetadataChunk(_Chunk):
    type: Literal["message-metadata"] = "message-metadata"
    message_metadata: dict[str, Any]


class FinishChunk(_Chunk):
    type: Literal["finish"] = "finish"
    finish_reason: str | None = None
    message_metadata: dict[str, Any] | None = None


class ErrorChunk(_Chunk):
    """The turn failed: `error_text` is the source's own words, `error_code` what failed
    (None from a source that does not say; the stream manager then stores `unknown`)."""

    type: Literal["error"] = "error"
    error_text: str
    error_code: ErrorCode | None = None


class AbortChunk(_Chunk):
    type: Literal["abort"] = "abort"


class DataChunk(_Chunk):
    """`data-<name>` chunk; `transient` ones are broadcast but not kept on the message."""

    type: str
    id: str | None = None
    data: Any = None
    transient: bool = False


_STATIC = (
    StartChunk, StartStepChunk, FinishStepChunk, TextStartChunk, TextDeltaChunk, TextEndChunk,
    ReasoningStartChunk, ReasoningDeltaChunk, ReasoningEndChunk, ToolInputStartChunk,
    ToolInputDeltaChunk, ToolInputAvailableChunk, ToolInputErrorChunk, ToolOutputAvailableChunk,
    ToolOutputErrorChunk, ToolOutputDeniedChunk, ToolApprovalRequestChunk, MessageMetadataChunk,
    FinishChunk, ErrorChunk, AbortChunk,
)
_STATIC_TYPES = frozenset(c.model_fields["type"].default for c in _STATIC)


def _chunk_tag(value: Any) -> str:
    t = value.get("type", "") if isinstance(value, dict) else getattr(value, "type", "")
    return str(t) if t in _STATIC_TYPES else "data"


UIMessageChunk = Annotated[
    Annotated[StartChunk, Tag("start")]
    | Annotated[StartStepChunk, Tag("start-step")]
    | Annotated[FinishStepChunk, Tag("finish-step")]
    | Annotated[TextStartChunk, Tag("text-start")]
    | Annotated[TextDeltaChunk, Tag("text-delta")]
    | Annotated[TextEndChunk, Tag("text-end")]
    | Annotated[ReasoningStartChunk, Tag("reasoning-start")]
    | Annotated[ReasoningDeltaChunk, Tag("reasoning-delta")]
    | Annotated[ReasoningEndChunk, Tag("reasoning-end")]
    | Annotated[ToolInputStartChunk, Tag("tool-input-start")]
    | Annotated[ToolInputDeltaChunk, Tag("tool-input-delta")]
    | Annotated[ToolInputAvailableChunk, Tag("tool-input-available")]
    | Annotated[ToolInputErrorChunk, Tag("tool-input-error")]
    | Annotated[ToolOutputAvailableChunk, Tag("tool-output-available")]
    | Annotated[ToolOutputErrorChunk, Tag("tool-output-error")]
    | Annotated[ToolOutputDeniedChunk, Tag("tool-output-denied")]
    | Annotated[ToolApprovalRequestChunk, Tag("tool-approval-request")]
    | Annotated[MessageMetadataChunk, Tag("message-metadata")]
    | Annotated[FinishChunk, Tag("finish")]
    | Annotated[ErrorChunk, Tag("error")]
    | Annotated[AbortChunk, Tag("abort")]
    | Annotated[DataChunk, Tag("data")],
    Discriminator(_chunk_tag),
]

_CHUNK_ADAPTER: TypeAdapter[UIMessageChunk] = TypeAdapter(UIMessageChunk, config=ConfigDict(defer_build=True))


def parse_chunk(value: dict[str, Any]) -> UIMessageChunk:
    """Validate one chunk from its JSON form (a `data-*` type becomes a `DataChunk`)."""
    return _CHUNK_ADAPTER.validate_python(value)
