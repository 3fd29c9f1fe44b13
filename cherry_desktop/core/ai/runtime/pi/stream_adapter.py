"""pi RPC events -> runtime events (pure: no I/O, the clock is passed in).

- assistant ``message_start`` .. ``message_end`` -> one step (start-step .. finish-step) and one
  `UsageEvent` (time to first token and completion measured from the request's ``turn_start``);
- ``message_update.assistantMessageEvent`` text / thinking / toolcall deltas -> text, reasoning
  and tool-input chunks (only the delta is read: the repeated whole message is ignored);
- ``tool_execution_end`` -> tool output (a call the user denied or a disabled tool ->
  ``tool-output-denied``, a failure -> ``tool-output-error``);
- ``compaction_start/end`` -> compaction events.

Turn boundaries, steers and approvals are the connection's; tool parts carry the descriptor's
`PI_TRANSPORT` tag.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Literal

from pydantic import TypeAdapter

from cherry_desktop.core.ai.runtime.capabilities import PI_TRANSPORT
from cherry_desktop.core.ai.runtime.events import (
    AgentRuntimeEvent,
    ChunkEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
    ContextUsageEvent,
    UsageEvent,
)
from cherry_desktop.core.messages import (
    FinishStepChunk,
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
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue, json_int, json_object

PROVIDER_METADATA: JsonObject = {"cherry": {"transport": PI_TRANSPORT}}
#: Text deltas are most chunks of a turn: validated through the model's validator directly
#: (the keyword packing of `BaseModel.__init__` costs as much as validating them).
_TEXT_DELTA = TypeAdapter(TextDeltaChunk)


def _text_of(content: JsonValue) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(c.get("text", "")) for c in content if isinstance(c, dict) and c.get("type") == "text")
    return ""


@dataclass
class _Step:
    key: str
    started_at: float | None
    first_token_at: float | None = None
    blocks: dict[int, str] = field(default_factory=dict)  # contentIndex -> kind
    tool_ids: dict[int, tuple[str, str]] = field(default_factory=dict)  # contentIndex -> (id, name)


class PiStreamAdapter:
    """Stateful fold of one connection's pi events (see the module doc)."""

    def __init__(self, *, denied_tool_ids: set[str] | None = None) -> None:
        self.denied_tool_ids = denied_tool_ids if denied_tool_ids is not None else set()
        self._keys = itertools.count(1)
        self._step: _Step | None = None
        self._request_started_at: float | None = None
        self._tool_started_at: dict[str, float] = {}
        self._compacting = False
        self.turn_has_output = False
        self.last_assistant: JsonObject | None = None
        self.context_window: int | None = None
        #: When set, text deltas go straight here instead of into `adapt`'s result as
        #: `ChunkEvent`s; the caller treats both outputs as one ordered stream.

    def start_turn(self, now: float) -> None:
        self.turn_has_output = False
        self.last_assistant = None
        self._request_started_at = now

    @property
    def in_step(self) -> bool:
        return self._step is not None

    def adapt(self, record: JsonObject, now: float) -> list[AgentRuntimeEvent]:
        kind = record.get("type")
        if kind == "message_update":
            step = self._step
            event = record.get("assistantMessageEvent")
            if step is None or not isinstance(event, dict):
                return []
            return self._update(step, event, now)
        if kind == "turn_start":
            self._request_started_at = now
            return []
        message = record.get("message")
        role = message.get("role") if isinstance(message, dict) else None
        if kind == "message_start" and role == "assistant":
            self._step = _Step(key=f"pi-{next(self._keys)}", started_at=self._request_started_at)
            return [ChunkEvent(StartStepChunk())]
        if kind == "message_end" and role == "assistant":
            assert isinstance(message, dict)
            return self._end_step(message, now)
        if kind == "tool_execution_start":
            self._tool_started_at[str(record.get("toolCallId"))] = now
            return []
        if kind == "tool_execution_end":
            return self._tool_end(record, now)
        if kind == "compaction_start":
            self._compacting = True
            return [CompactionStartEvent()]
        if kind == "compaction_end":
            return self._compaction_end(record)
        return []

    # ---- assistant message ---------------------------------------------------------------

    def _chunk(self, chunk: UIMessageChunk) -> ChunkEvent:
        self.turn_has_output = True
        return ChunkEvent(chunk)

    def _update(self, step: _Step, event: JsonObject, now: float) -> list[AgentRuntimeEvent]:
        etype = str(event.get("type"))
        index = json_int(event.get("contentIndex"))
        block_id = f"{step.key}:{index}"
        if etype.endswith("_delta") and step.first_token_at is None:
            step.first_token_at = now
        if etype == "text_delta":
            self.turn_has_output = True
            chunk = _TEXT_DELTA.validate_python({"id": block_id, "delta": str(event.get("delta", ""))})
            return [ChunkEvent(chunk)]
        if etype == "text_start":
            step.blocks[index] = "text"
            return [self._chunk(TextStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA))]
        if etype == "text_end":
            return [self._chunk(TextEndChunk(id=block_id))] if step.blocks.pop(index, None) else []
        if etype == "thinking_start":
            step.blocks[index] = "reasoning"
            return [self._chunk(ReasoningStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA))]
        if etype == "thinking_delta":
            return [self._chunk(ReasoningDeltaChunk(id=block_id, delta=str(event.get("delta", ""))))]
        if etype == "thinking_end":
            return [self._chunk(ReasoningEndChunk(id=block_id))] if step.blocks.pop(index, None) else []
        if etype == "toolcall_start":
            tool_id, name = _partial_tool(event, index)
            step.blocks[index] = "tool"
            step.tool_ids[index] = (tool_id, name)
            return [self._chunk(ToolInputStartChunk(tool_call_id=tool_id, tool_name=name, dynamic=True,
                                                    provider_executed=True, provider_metadata=PROVIDER_METADATA))]
        if etype == "toolcall_delta":
            tool_id, _ = step.tool_ids.get(index, ("", ""))
            delta = str(event.get("delta", ""))
            return [self._chunk(ToolInputDeltaChunk(tool_call_id=tool_id, input_text_delta=delta))]
        if etype == "toolcall_end":
            call = json_object(event.get("toolCall"))
            known_id, known_name = step.tool_ids.get(index, ("", ""))
            step.blocks.pop(index, None)
            return [self._chunk(ToolInputAvailableChunk(
                tool_call_id=str(call.get("id") or known_id), tool_name=str(call.get("name") or known_name),
                input=call.get("arguments") or {}, dynamic=True, provider_executed=True,
                provider_metadata=PROVIDER_METADATA))]
        return []

    def _end_step(self, message: JsonObject, now: float) -> list[AgentRuntimeEvent]:
        step, self._step = self._step, None
        self.last_assistant = message
        events: list[AgentRuntimeEvent] = []
        if step is None:
            return events
        for index, kind in sorted(step.blocks.items()):  # blocks an abort left open
            block_id = f"{step.key}:{index}"
            if kind == "text":
                events.append(self._chunk(TextEndChunk(id=block_id)))
            elif kind == "reasoning":
                events.append(self._chunk(ReasoningEndChunk(id=block_id)))
        events.append(ChunkEvent(FinishStepChunk()))
        usage = json_object(message.get("usage"))
        ttft = completion = None
        if step.started_at is not None and step.first_token_at is not None:
            ttft = max(0, round((step.first_token_at - step.started_at) * 1000))
            completion = max(ttft, round((now - step.started_at) * 1000))
        events.append(UsageEvent(
            input_tokens=json_int(usage.get("input")), output_tokens=json_int(usage.get("output")),
            cache_read_tokens=json_int(usage.get("cacheRead")), cache_write_tokens=json_int(usage.get("cacheWrite")),
            time_first_token_ms=ttft, time_completion_ms=completion, model=_str_or_none(message.get("model"))))
        self._request_started_at = now
        return events

    def close_open_step(self, now: float) -> list[AgentRuntimeEvent]:
        """End a step a dead or aborted stream left open."""
        if self._step is None:
            return []
        return self._end_step({"usage": {}}, now)

    # ---- tools / compaction --------------------------------------------------------------

    def _tool_end(self, record: JsonObject, now: float) -> list[AgentRuntimeEvent]:
        tool_id = str(record.get("toolCallId"))
        started = self._tool_started_at.pop(tool_id, None)
        duration = (now - started) * 1000 if started is not None else None
        result = json_object(record.get("result"))
        text = _text_of(result.get("content"))
        if tool_id in self.denied_tool_ids:
            return [self._chunk(ToolOutputDeniedChunk(tool_call_id=tool_id, reason=text))]
        if record.get("isError"):
            return [self._chunk(ToolOutputErrorChunk(tool_call_id=tool_id, error_text=text or "failed"))]
        return [self._chunk(ToolOutputAvailableChunk(tool_call_id=tool_id, output=text, provider_executed=True,
                                                     duration_ms=duration))]

    def _compaction_end(self, record: JsonObject) -> list[AgentRuntimeEvent]:
        self._compacting = False
        result = record.get("result")
        if isinstance(result, dict):
            anchor, tokens = result.get("firstKeptEntryId"), result.get("tokensBefore")
            # pi's reason: "manual" (asked), "threshold" or "overflow" (pi compacted on its own).
            reason = record.get("reason")
            trigger: Literal["auto", "manual"] | None = (
                "manual" if reason == "manual" else "auto" if reason in ("threshold", "overflow") else None)
            return [CompactionCompleteEvent(anchor=str(anchor) if anchor else None,
                                            tokens_before=tokens if isinstance(tokens, int) else None,
                                            trigger=trigger)]
        if record.get("aborted"):
            return [CompactionCompleteEvent(anchor=None)]
        return [CompactionErrorEvent(message=str(record.get("errorMessage") or "compaction failed"))]

    def tool_released(self, tool_call_id: str, now: float) -> None:
        """The gate let the call run now: its duration starts here, not at
        ``tool_execution_start`` (it excludes the approval wait)."""
        self._tool_started_at[tool_call_id] = now

    def context_usage(self) -> ContextUsageEvent | None:
        message = self.last_assistant
        usage = message.get("usage") if isinstance(message, dict) else None
        if not isinstance(usage, dict):
            return None
        used = sum(json_int(usage.get(k)) for k in ("input", "output", "cacheRead", "cacheWrite"))
        if used <= 0:
            return None
        return ContextUsageEvent(used_tokens=used, max_tokens=self.context_window)


def _str_or_none(value: JsonValue) -> str | None:
    return value if isinstance(value, str) else None


def _partial_tool(event: JsonObject, index: int) -> tuple[str, str]:
    partial = event.get("partial")
    content = partial.get("content") if isinstance(partial, dict) else None
    block = content[index] if isinstance(content, list) and 0 <= index < len(content) else None
    if isinstance(block, dict):
        return str(block.get("id") or ""), str(block.get("name") or "")
    return "", ""
