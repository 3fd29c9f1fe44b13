"""Claude SDK messages -> runtime events (pure: no I/O, the clock is passed in).

`ClaudeStreamAdapter` folds one connection's SDK messages into `AgentRuntimeEvent`s, exactly as
the spec's "Claude Code driver" section lists them:

- ``stream_event`` (partial messages) and whole assistant / user messages (`sdk_messages`)
  -> chunks (text, reasoning, tool input, tool output; a denied tool call is told apart from a
  failed one);
- ``system/init`` -> resume-token;
- one `UsageEvent` per model request (``message_start`` .. ``message_stop``) with the time to
  first token and completion measured from the request start (the ``system/status
  requesting`` message, else the turn's send) — never split from the result's totals;
- ``system`` messages (`sdk_messages`): compaction status -> compaction events;
- a result -> `finish_result` (success: resume-token, cumulative usage metadata chunk,
  context-usage, turn-complete; failure: resume-token then error).

Typed against the SDK's message classes (imported for type checking only): messages are matched
by class name, so this module imports nothing from the SDK and runs on the SDK's own message
objects in unit tests. A partial message's ``event`` is the Anthropic API's raw stream event.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, cast

from pydantic import BaseModel
from pydantic_core import SchemaValidator

from cherry_desktop.core.ai.runtime.claude_code.sdk_messages import (
    PROVIDER_METADATA,
    EmittedIds,
    SystemMessageFold,
    assistant_chunks,
    is_aborted_result,
    is_system_message,
    result_error_text,
    result_metadata,
    tool_input_available,
    tool_result_chunks,
)
from cherry_desktop.core.ai.runtime.events import (
    AgentRuntimeEvent,
    ChunkEvent,
    ContextUsageEvent,
    ErrorEvent,
    ResumeTokenEvent,
    TurnCompleteEvent,
    UsageEvent,
)
from cherry_desktop.core.messages import (
    FinishStepChunk,
    MessageMetadataChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningStartChunk,
    StartStepChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    ToolInputDeltaChunk,
    ToolInputStartChunk,
    UIMessageChunk,
)
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue, json_int, json_object

if TYPE_CHECKING:
    from claude_agent_sdk import AssistantMessage, Message, ResultMessage, StreamEvent, SystemMessage, UserMessage

_M = TypeVar("_M", bound=BaseModel)

DEFAULT_CONTEXT_WINDOW = 200_000


def _build(cls: type[_M], fields: JsonObject) -> _M:
    """`cls(**fields)`, validated alike, through the model's validator directly: the keyword
    packing of `BaseModel.__init__` costs as much as validating these small chunks. The first
    call builds the (deferred) schema the usual way."""
    validator = cls.__pydantic_validator__
    if type(validator) is not SchemaValidator:
        return cls(**fields)
    return validator.validate_python(fields)  # type: ignore[no-any-return]


@dataclass
class _Request:
    """One model invocation (``message_start`` .. ``message_stop``)."""

    message_id: str
    model: str | None
    started_at: float | None
    usage: JsonObject = field(default_factory=dict)
    first_token_at: float | None = None
    completed_at: float | None = None


@dataclass
class _Block:
    kind: str  # text | reasoning | tool
    id: str
    tool_name: str = ""
    json_text: str = ""


class ClaudeStreamAdapter:
    """Stateful fold of one connection's SDK messages into runtime events.

    Args:
        denied_tool_ids: tool call ids the user denied (shared with the approval broker), so
            their error results become ``tool-output-denied`` rather than ``tool-output-error``.
        tool_durations: tool call id -> ``duration_ms`` from the PostToolUse hooks.
        context_window: the model's context window, for context-usage events.
    """

    def __init__(
        self,
        *,
        denied_tool_ids: set[str] | None = None,
        tool_durations: dict[str, float] | None = None,
        context_window: int | None = DEFAULT_CONTEXT_WINDOW,
    ) -> None:
        self.denied_tool_ids = denied_tool_ids if denied_tool_ids is not None else set()
        self.tool_durations = tool_durations if tool_durations is not None else {}
        self.context_window = context_window
        self.session_id: str | None = None
        self._blocks: dict[int, _Block] = {}
        self._request: _Request | None = None
        self._request_started_at: float | None = None
        self._emitted = EmittedIds()
        self._system = SystemMessageFold()
        self.turn_has_output = False
        self.last_request_usage: JsonObject = {}

    # ---- turn bookkeeping ----------------------------------------------------------------

    def start_turn(self, now: float) -> None:
        """A user message was sent: reset the per-turn gate and the request clock."""
        self.turn_has_output = False
        self._request_started_at = now

    def mark_request_start(self, now: float) -> None:
        self._request_started_at = now

    @property
    def in_message(self) -> bool:
        """True between a streamed ``message_start`` and its ``message_stop``."""
        return self._request is not None

    # ---- main entry ----------------------------------------------------------------------

    def adapt(self, message: Message, now: float) -> list[AgentRuntimeEvent]:
        """Events for one SDK message (results go through `finish_result`)."""
        kind = type(message).__name__
        if kind == "StreamEvent":
            # This branch runs for nearly every message of a turn.
            stream = cast("StreamEvent", message)
            if stream.parent_tool_use_id:
                return []  # sub-agent internals stay inside the Task tool call
            event: JsonObject = stream.event or {}
            if event.get("type") == "content_block_delta":
                # Nearly every partial message: folded here, without further calls for text.
                request = self._request
                if request is None:
                    return []
                index = event.get("index", 0)
                block = self._blocks.get(index if type(index) is int else json_int(index))
                if block is None:
                    return []
                if request.first_token_at is None:
                    request.first_token_at = now
                delta = json_object(event.get("delta"))
                if block.kind == "text" and delta.get("type") == "text_delta":
                    self.turn_has_output = True
                    text = delta.get("text", "")
                    chunk = _build(TextDeltaChunk, {"id": block.id, "delta": text if type(text) is str else str(text)})
                    return [ChunkEvent(chunk)]
                return self._block_delta(block, delta)
            return self._stream_event(event, now)
        if kind == "AssistantMessage":
            assistant = cast("AssistantMessage", message)
            if assistant.parent_tool_use_id:
                return []
            events = self._chunks(assistant_chunks(assistant, self._emitted))
            if not assistant.message_id and not assistant.error and isinstance(assistant.usage, dict):
                self.last_request_usage = dict(assistant.usage)
            return events
        if kind == "UserMessage":
            user = cast("UserMessage", message)
            if user.parent_tool_use_id:
                return []
            return self._chunks(tool_result_chunks(user, self._emitted, denied_tool_ids=self.denied_tool_ids,
                                                   tool_durations=self.tool_durations))
        if is_system_message(type(message)):
            folded = self._system.fold(cast("SystemMessage", message))
            if folded.request_started:
                self.mark_request_start(now)
            if folded.session_id is not None:
                self.session_id = folded.session_id
            return folded.events
        return []

    def _chunks(self, chunks: list[UIMessageChunk]) -> list[AgentRuntimeEvent]:
        if chunks:
            self.turn_has_output = True
        return [ChunkEvent(chunk) for chunk in chunks]

    # ---- partial messages ----------------------------------------------------------------

    def _chunk(self, chunk: UIMessageChunk) -> ChunkEvent:
        self.turn_has_output = True
        return ChunkEvent(chunk)

    def _stream_event(self, event: JsonObject, now: float) -> list[AgentRuntimeEvent]:
        """Every partial message but ``content_block_delta`` (folded in `adapt`)."""
        etype = event.get("type")
        if etype == "message_start":
            msg = json_object(event.get("message"))
            message_id = str(msg.get("id") or f"msg-{len(self._emitted.streamed_message_ids)}")
            self._emitted.streamed_message_ids.add(message_id)
            model = msg.get("model")
            self._request = _Request(message_id=message_id, model=model if isinstance(model, str) else None,
                                     started_at=self._request_started_at,
                                     usage=dict(json_object(msg.get("usage"))))
            self._blocks = {}
            return [ChunkEvent(StartStepChunk())]
        request = self._request
        if request is None:
            return []
        if etype == "content_block_start":
            return self._block_start(request, json_int(event.get("index", 0)), json_object(event.get("content_block")))
        if etype == "content_block_stop":
            return self._block_stop(json_int(event.get("index", 0)))
        if etype == "message_delta":
            usage = json_object(event.get("usage"))
            request.usage.update({k: v for k, v in usage.items() if v is not None})
            request.completed_at = now
            return []
        if etype == "message_stop":
            if request.completed_at is None:
                request.completed_at = now
            self._request = None
            # The next request of this turn starts when the CLI asks again; until it says so
            # (status requesting), assume right away (tool results return immediately).
            self._request_started_at = now
            return [ChunkEvent(FinishStepChunk()), self._usage_event(request)]
        return []

    def _block_start(self, request: _Request, index: int, block: JsonObject) -> list[AgentRuntimeEvent]:
        btype = block.get("type")
        block_id = f"{request.message_id}:{index}"
        if btype == "text":
            self._blocks[index] = _Block("text", block_id)
            return [self._chunk(TextStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA))]
        if btype in ("thinking", "redacted_thinking"):
            self._blocks[index] = _Block("reasoning", block_id)
            return [self._chunk(ReasoningStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA))]
        if btype in ("tool_use", "server_tool_use", "mcp_tool_use"):
            tool_id = str(block.get("id"))
            name = str(block.get("name"))
            self._blocks[index] = _Block("tool", tool_id, tool_name=name)
            return [self._chunk(ToolInputStartChunk(tool_call_id=tool_id, tool_name=name, dynamic=True,
                                                    provider_executed=True, provider_metadata=PROVIDER_METADATA))]
        return []

    def _block_delta(self, block: _Block, delta: JsonObject) -> list[AgentRuntimeEvent]:
        """A non-text delta of an open block (`adapt` folds text deltas and the request's first
        token itself)."""
        dtype = delta.get("type")
        if dtype == "thinking_delta" and block.kind == "reasoning":
            return [self._chunk(_build(ReasoningDeltaChunk,
                                       {"id": block.id, "delta": str(delta.get("thinking", ""))}))]
        if dtype == "input_json_delta" and block.kind == "tool":
            piece = str(delta.get("partial_json", ""))
            block.json_text += piece
            return [self._chunk(_build(ToolInputDeltaChunk, {"tool_call_id": block.id, "input_text_delta": piece}))]
        return []

    def _block_stop(self, index: int) -> list[AgentRuntimeEvent]:
        block = self._blocks.pop(index, None)
        if block is None:
            return []
        if block.kind == "text":
            return [self._chunk(TextEndChunk(id=block.id))]
        if block.kind == "reasoning":
            return [self._chunk(ReasoningEndChunk(id=block.id))]
        tool_input: JsonValue
        try:
            tool_input = json.loads(block.json_text) if block.json_text else {}
        except ValueError:
            tool_input = {"_raw": block.json_text}
        self._emitted.tool_inputs.add(block.id)
        return [self._chunk(tool_input_available(block.id, block.tool_name, tool_input))]

    def _usage_event(self, request: _Request) -> UsageEvent:
        usage = request.usage
        self.last_request_usage = dict(usage)
        ttft = completion = None
        if request.started_at is not None and request.first_token_at is not None:
            ttft = max(0, round((request.first_token_at - request.started_at) * 1000))
            if request.completed_at is not None:
                completion = max(ttft, round((request.completed_at - request.started_at) * 1000))
        return UsageEvent(
            input_tokens=json_int(usage.get("input_tokens")),
            output_tokens=json_int(usage.get("output_tokens")),
            cache_read_tokens=json_int(usage.get("cache_read_input_tokens")),
            cache_write_tokens=json_int(usage.get("cache_creation_input_tokens")),
            time_first_token_ms=ttft,
            time_completion_ms=completion,
            model=request.model,
        )

    # ---- result --------------------------------------------------------------------------

    def close_open_blocks(self) -> list[AgentRuntimeEvent]:
        """End blocks a truncated stream left open (salvage before a turn-complete)."""
        events: list[AgentRuntimeEvent] = []
        for index in sorted(self._blocks):
            events += self._block_stop(index)
        if self._request is not None:
            request, self._request = self._request, None
            events += [ChunkEvent(FinishStepChunk()), self._usage_event(request)]
        return events

    def finish_result(self, result: ResultMessage) -> list[AgentRuntimeEvent]:
        """Events for a ``ResultMessage``: success -> metadata + turn-complete; failure -> error.

        Either way the final resume token is kept (an error row still records it).
        """
        events = self.close_open_blocks()
        session_id = result.session_id
        if isinstance(session_id, str) and session_id:
            self.session_id = session_id
            events.append(ResumeTokenEvent(session_id))
        error = result_error_text(result)
        events.append(ChunkEvent(MessageMetadataChunk(message_metadata=result_metadata(result))))
        if error is not None:
            events.append(ErrorEvent(message=error, code=result.terminal_reason, status=result.api_error_status))
            return events
        context = self.context_usage()
        if context is not None:
            events.append(context)
        reason = "aborted" if is_aborted_result(result) else (result.stop_reason or "stop")
        events.append(TurnCompleteEvent(finish_reason=str(reason)))
        return events

    def context_usage(self) -> ContextUsageEvent | None:
        usage = self.last_request_usage
        if not usage:
            return None
        used = sum(
            json_int(usage.get(key))
            for key in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens", "output_tokens")
        )
        return ContextUsageEvent(used_tokens=used, max_tokens=self.context_window)
