"""Claude SDK messages -> runtime events (pure: no I/O, the clock is passed in).

`ClaudeStreamAdapter` folds one connection's SDK messages into `AgentRuntimeEvent`s, exactly as
the spec's "Claude Code driver" section lists them:

- ``stream_event`` (partial messages) and whole assistant / user messages -> chunks (text,
  reasoning, tool input, tool output; a denied tool call is told apart from a failed one);
- ``system/init`` -> resume-token;
- one `UsageEvent` per model request (``message_start`` .. ``message_stop``) with the time to
  first token and completion measured from the request start (the ``system/status
  requesting`` message, else the turn's send) — never split from the result's totals;
- compaction status -> compaction events;
- a result -> `finish_result` (success: resume-token, cumulative usage metadata chunk,
  context-usage, turn-complete; failure: resume-token then error).

The SDK classes are matched by class name so this module imports nothing from the SDK and can
be unit-tested with the SDK's own message objects or look-alikes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import SchemaValidator

from cherry_desktop.core.ai.runtime.capabilities import CLAUDE_CODE_TRANSPORT
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeEvent,
    ChunkEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
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
    ToolInputAvailableChunk,
    ToolInputDeltaChunk,
    ToolInputStartChunk,
    ToolOutputAvailableChunk,
    ToolOutputDeniedChunk,
    ToolOutputErrorChunk,
    UIMessageChunk,
)

_M = TypeVar("_M", bound=BaseModel)

PROVIDER_METADATA: dict[str, Any] = {"cherry": {"transport": CLAUDE_CODE_TRANSPORT}}

#: ``terminal_reason`` values of a user-interrupted turn (not an error).
ABORTED_TERMINAL_REASONS = frozenset({"aborted_streaming", "aborted_tools"})

#: Error texts that mark a corrupt resumed history (see "Corrupt resume history recovery").
MISSING_CONVERSATION_TEXT = "No conversation found with session ID"
DUPLICATE_TOOL_ID_TEXT = "tool_use ids must be unique"
#: How the CLI (2.1.x) rewords the API's duplicate-id 400 in its result.
DUPLICATE_TOOL_ID_CLI_TEXT = "duplicate tool_use id"


def is_duplicate_tool_id_error(text: str) -> bool:
    normalized = text.replace("`", "").lower()
    return DUPLICATE_TOOL_ID_TEXT in normalized or DUPLICATE_TOOL_ID_CLI_TEXT in normalized


DEFAULT_CONTEXT_WINDOW = 200_000


def _kind(message: Any) -> str:
    return type(message).__name__


#: type -> is it a `Mapping`: `isinstance(x, Mapping)` is an ABC check costing more than the
#: lookup it guards, and `_get` runs several times per SDK message.
_IS_MAPPING: dict[type, bool] = {}


def _get(obj: Any, key: str, default: Any = None) -> Any:
    cls = type(obj)
    mapping = _IS_MAPPING.get(cls)
    if mapping is None:
        mapping = _IS_MAPPING[cls] = issubclass(cls, Mapping)
    if mapping:
        return obj.get(key, default)
    return getattr(obj, key, default)


def _build(cls: type[_M], fields: dict[str, Any]) -> _M:
    """`cls(**fields)`, validated alike, through the model's validator directly: the keyword
    packing of `BaseModel.__init__` costs as much as validating these small chunks. The first
    call builds the (deferred) schema the usual way."""
    validator = cls.__pydantic_validator__
    if type(validator) is not SchemaValidator:
        return cls(**fields)
    return validator.validate_python(fields)  # type: ignore[no-any-return]


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


@dataclass
class _Request:
    """One model invocation (``message_start`` .. ``message_stop``)."""

    message_id: str
    model: str | None
    started_at: float | None
    usage: dict[str, Any] = field(default_factory=dict)
    first_token_at: float | None = None
    completed_at: float | None = None


@dataclass
class _Block:
    kind: str  # text | reasoning | tool
    id: str
    tool_name: str = ""
    json_text: str = ""


def result_error_text(result: Any) -> str | None:
    """The error of a failed ``ResultMessage``, None when it succeeded or was interrupted.

    A result fails when its subtype is not ``success``, or — the CLI reports API failures inside
    a ``success`` envelope — when ``is_error`` is set, ``terminal_reason`` is ``api_error`` or an
    ``api_error_status`` is present.
    """
    terminal = _get(result, "terminal_reason")
    if terminal in ABORTED_TERMINAL_REASONS:
        return None
    status = _get(result, "api_error_status")
    failed = (
        _get(result, "subtype") != "success"
        or bool(_get(result, "is_error"))
        or terminal == "api_error"
        or status is not None
    )
    if not failed:
        return None
    errors = _get(result, "errors") or []
    text = _get(result, "result")
    parts = [str(e) for e in errors if e] or ([str(text)] if text else [])
    if not parts:
        parts = [f"Claude Code failed ({_get(result, 'subtype')}, {terminal or 'no reason'})"]
    message = "; ".join(parts)
    if status is not None and str(status) not in message:
        message = f"API error {status}: {message}"
    return message


def is_aborted_result(result: Any) -> bool:
    return _get(result, "terminal_reason") in ABORTED_TERMINAL_REASONS


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
        self._streamed_message_ids: set[str] = set()
        self._tool_inputs_emitted: set[str] = set()
        self._tool_outputs_emitted: set[str] = set()
        self._compacting = False
        self.turn_has_output = False
        self.last_request_usage: dict[str, Any] = {}

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

    def adapt(self, message: Any, now: float) -> list[AgentRuntimeEvent]:
        """Events for one SDK message (results go through `finish_result`)."""
        kind = type(message).__name__
        if kind == "StreamEvent":
            # The SDK's `StreamEvent` dataclass, read by attribute: this branch runs for nearly
            # every message of a turn.
            if message.parent_tool_use_id:
                return []  # sub-agent internals stay inside the Task tool call
            event = message.event or {}
            if event.get("type") == "content_block_delta":
                # Nearly every partial message: folded here, without further calls for text.
                request = self._request
                if request is None:
                    return []
                index = event.get("index", 0)
                block = self._blocks.get(index if type(index) is int else int(index))
                if block is None:
                    return []
                if request.first_token_at is None:
                    request.first_token_at = now
                delta = event.get("delta") or {}
                if block.kind == "text" and delta.get("type") == "text_delta":
                    self.turn_has_output = True
                    text = delta.get("text", "")
                    chunk = _build(TextDeltaChunk, {"id": block.id, "delta": text if type(text) is str else str(text)})
                    return [ChunkEvent(chunk)]
                return self._block_delta(block, delta)
            return self._stream_event(event, now)
        if kind == "AssistantMessage":
            if _get(message, "parent_tool_use_id"):
                return []
            return self._assistant(message)
        if kind == "UserMessage":
            if _get(message, "parent_tool_use_id"):
                return []
            return self._user(message)
        if kind != "ResultMessage" and isinstance(_get(message, "data"), Mapping):
            return self._system(message, now)
        return []

    # ---- system --------------------------------------------------------------------------

    def _system(self, message: Any, now: float) -> list[AgentRuntimeEvent]:
        subtype = _get(message, "subtype")
        data = _get(message, "data") or {}
        if subtype == "init":
            session_id = data.get("session_id")
            if isinstance(session_id, str) and session_id:
                self.session_id = session_id
                return [ResumeTokenEvent(session_id)]
            return []
        if subtype == "compact_boundary":
            self._compacting = False
            metadata = data.get("compact_metadata") or {}
            anchor = data.get("uuid") or metadata.get("preserved_segment_anchor")
            # The CLI's compact_metadata: {trigger: "manual" | "auto", pre_tokens, post_tokens?}.
            pre_tokens, trigger = metadata.get("pre_tokens"), metadata.get("trigger")
            return [CompactionCompleteEvent(anchor=str(anchor) if anchor else None,
                                            tokens_before=pre_tokens if isinstance(pre_tokens, int) else None,
                                            trigger=trigger if trigger in ("auto", "manual") else None)]
        if subtype == "status":
            events: list[AgentRuntimeEvent] = []
            status = data.get("status")
            if status == "requesting":
                self.mark_request_start(now)
            if status == "compacting" and not self._compacting:
                self._compacting = True
                events.append(CompactionStartEvent())
            result = data.get("compact_result")
            if result == "success" and self._compacting:
                # Settled without a boundary message: complete once, no anchor.
                self._compacting = False
                events.append(CompactionCompleteEvent(anchor=None))
            elif result == "failed" or data.get("compact_error"):
                self._compacting = False
                events.append(CompactionErrorEvent(message=str(data.get("compact_error") or "compaction failed")))
            return events
        return []

    # ---- partial messages ----------------------------------------------------------------

    def _chunk(self, chunk: UIMessageChunk) -> ChunkEvent:
        self.turn_has_output = True
        return ChunkEvent(chunk)

    def _stream_event(self, event: Mapping[str, Any], now: float) -> list[AgentRuntimeEvent]:
        """Every partial message but ``content_block_delta`` (folded in `adapt`)."""
        etype = event.get("type")
        if etype == "message_start":
            msg = event.get("message") or {}
            message_id = str(msg.get("id") or f"msg-{len(self._streamed_message_ids)}")
            self._streamed_message_ids.add(message_id)
            self._request = _Request(
                message_id=message_id,
                model=msg.get("model"),
                started_at=self._request_started_at,
                usage=dict(msg.get("usage") or {}),
            )
            self._blocks = {}
            return [ChunkEvent(StartStepChunk())]
        request = self._request
        if request is None:
            return []
        if etype == "content_block_start":
            return self._block_start(request, int(event.get("index", 0)), event.get("content_block") or {})
        if etype == "content_block_stop":
            return self._block_stop(int(event.get("index", 0)))
        if etype == "message_delta":
            usage = event.get("usage") or {}
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

    def _block_start(self, request: _Request, index: int, block: Mapping[str, Any]) -> list[AgentRuntimeEvent]:
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
            return [
                self._chunk(
                    ToolInputStartChunk(
                        tool_call_id=tool_id,
                        tool_name=name,
                        dynamic=True,
                        provider_executed=True,
                        provider_metadata=PROVIDER_METADATA,
                    )
                )
            ]
        return []

    def _block_delta(self, block: _Block, delta: Mapping[str, Any]) -> list[AgentRuntimeEvent]:
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
        try:
            tool_input = json.loads(block.json_text) if block.json_text else {}
        except ValueError:
            tool_input = {"_raw": block.json_text}
        self._tool_inputs_emitted.add(block.id)
        return [self._tool_input_available(block.id, block.tool_name, tool_input)]

    def _tool_input_available(self, tool_id: str, name: str, tool_input: Any) -> ChunkEvent:
        return self._chunk(
            ToolInputAvailableChunk(
                tool_call_id=tool_id,
                tool_name=name,
                input=tool_input,
                dynamic=True,
                provider_executed=True,
                provider_metadata=PROVIDER_METADATA,
            )
        )

    def _usage_event(self, request: _Request) -> UsageEvent:
        usage = request.usage
        self.last_request_usage = dict(usage)
        ttft = completion = None
        if request.started_at is not None and request.first_token_at is not None:
            ttft = max(0, round((request.first_token_at - request.started_at) * 1000))
            if request.completed_at is not None:
                completion = max(ttft, round((request.completed_at - request.started_at) * 1000))
        return UsageEvent(
            input_tokens=_int(usage.get("input_tokens")),
            output_tokens=_int(usage.get("output_tokens")),
            cache_read_tokens=_int(usage.get("cache_read_input_tokens")),
            cache_write_tokens=_int(usage.get("cache_creation_input_tokens")),
            time_first_token_ms=ttft,
            time_completion_ms=completion,
            model=request.model,
        )

    # ---- whole messages ------------------------------------------------------------------

    def _assistant(self, message: Any) -> list[AgentRuntimeEvent]:
        message_id = _get(message, "message_id")
        if message_id and message_id in self._streamed_message_ids:
            return []  # already streamed through partial messages
        if _get(message, "error"):
            # The CLI's synthetic "API Error: ..." message: the failed result reports it.
            return []
        events: list[AgentRuntimeEvent] = []
        for index, block in enumerate(_get(message, "content") or []):
            bkind = _kind(block)
            block_id = f"{message_id or 'assistant'}:{index}"
            if bkind == "TextBlock":
                events += [
                    self._chunk(TextStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA)),
                    self._chunk(TextDeltaChunk(id=block_id, delta=str(_get(block, "text", "")))),
                    self._chunk(TextEndChunk(id=block_id)),
                ]
            elif bkind == "ThinkingBlock":
                events += [
                    self._chunk(ReasoningStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA)),
                    self._chunk(ReasoningDeltaChunk(id=block_id, delta=str(_get(block, "thinking", "")))),
                    self._chunk(ReasoningEndChunk(id=block_id)),
                ]
            elif bkind in ("ToolUseBlock", "ServerToolUseBlock"):
                tool_id = str(_get(block, "id"))
                if tool_id in self._tool_inputs_emitted:
                    continue
                self._tool_inputs_emitted.add(tool_id)
                events.append(self._tool_input_available(tool_id, str(_get(block, "name")), _get(block, "input")))
        usage = _get(message, "usage")
        if isinstance(usage, Mapping) and not message_id:
            self.last_request_usage = dict(usage)
        return events

    def _user(self, message: Any) -> list[AgentRuntimeEvent]:
        content = _get(message, "content")
        if not isinstance(content, list):
            return []
        events: list[AgentRuntimeEvent] = []
        for block in content:
            if _kind(block) != "ToolResultBlock":
                continue
            tool_id = str(_get(block, "tool_use_id"))
            if tool_id in self._tool_outputs_emitted:
                continue
            self._tool_outputs_emitted.add(tool_id)
            output = _get(block, "content")
            if tool_id in self.denied_tool_ids:
                events.append(self._chunk(ToolOutputDeniedChunk(tool_call_id=tool_id, reason=_text_of(output))))
            elif _get(block, "is_error"):
                events.append(
                    self._chunk(ToolOutputErrorChunk(tool_call_id=tool_id, error_text=_text_of(output) or "failed"))
                )
            else:
                events.append(
                    self._chunk(
                        ToolOutputAvailableChunk(
                            tool_call_id=tool_id,
                            output=output,
                            provider_executed=True,
                            duration_ms=self.tool_durations.get(tool_id),
                        )
                    )
                )
        return events

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

    def finish_result(self, result: Any) -> list[AgentRuntimeEvent]:
        """Events for a ``ResultMessage``: success -> metadata + turn-complete; failure -> error.

        Either way the final resume token is kept (an error row still records it).
        """
        events = self.close_open_blocks()
        session_id = _get(result, "session_id")
        if isinstance(session_id, str) and session_id:
            self.session_id = session_id
            events.append(ResumeTokenEvent(session_id))
        usage = _get(result, "usage") or {}
        metadata = {
            "usage": {
                "input_tokens": _int(usage.get("input_tokens")),
                "output_tokens": _int(usage.get("output_tokens")),
                "cache_read_tokens": _int(usage.get("cache_read_input_tokens")),
                "cache_write_tokens": _int(usage.get("cache_creation_input_tokens")),
            },
            "total_cost_usd": _get(result, "total_cost_usd"),
            "duration_ms": _get(result, "duration_ms"),
            "num_turns": _get(result, "num_turns"),
        }
        error = result_error_text(result)
        events.append(ChunkEvent(MessageMetadataChunk(message_metadata=metadata)))
        if error is not None:
            status = _get(result, "api_error_status")
            events.append(ErrorEvent(message=error, code=_get(result, "terminal_reason"), status=status))
            return events
        context = self.context_usage()
        if context is not None:
            events.append(context)
        reason = "aborted" if is_aborted_result(result) else (_get(result, "stop_reason") or "stop")
        events.append(TurnCompleteEvent(finish_reason=str(reason)))
        return events

    def context_usage(self) -> ContextUsageEvent | None:
        usage = self.last_request_usage
        if not usage:
            return None
        used = sum(
            _int(usage.get(key))
            for key in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens", "output_tokens")
        )
        return ContextUsageEvent(used_tokens=used, max_tokens=self.context_window)


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(_get(item, "text", "")) for item in content if _get(item, "type") == "text")
    return str(content)
