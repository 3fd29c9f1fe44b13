"""ACP ``session/update`` notifications -> runtime events (pure: no I/O, the clock passed in).

- ``agent_message_chunk`` / ``agent_thought_chunk`` -> text and reasoning blocks (a block
  closes when the other kind, a tool call or the turn's end comes);
- ``tool_call`` / ``tool_call_update`` -> tool input (once the agent's ``raw_input`` is known)
  and tool output (``completed`` -> output, ``failed`` -> error, a call the user rejected ->
  denied). Every tool part carries the descriptor's `ACP_TRANSPORT` tag and ACP's own ``kind``,
  ``title`` and content (diffs, terminals) in ``provider_metadata["cherry"]``;
- ``plan`` -> a ``plan`` tool part whose input is the todo list (the todo card, by its kind);
- ``usage_update`` -> context usage (used / window); the prompt's ``usage`` -> `UsageEvent`;
- ``available_commands_update`` -> `SlashCommandsEvent` (the composer offers them, each with
  its "/"); ``current_mode_update`` is kept (`current_mode`): the host's event model has no
  event for it (a gap of the contract).

One turn is one step: ACP does not say where the agent's model requests begin and end.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field

from pydantic import BaseModel

from cherry_desktop.core.ai.runtime.capabilities import ACP_TRANSPORT
from cherry_desktop.core.ai.runtime.events import (
    AgentRuntimeEvent,
    ChunkEvent,
    ContextUsageEvent,
    SlashCommandsEvent,
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
    ToolInputStartChunk,
    ToolOutputAvailableChunk,
    ToolOutputDeniedChunk,
    ToolOutputErrorChunk,
)
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue

log = logging.getLogger(__name__)

_TEXT_META: JsonObject = {"cherry": {"transport": ACP_TRANSPORT}}
#: The tool part an ACP ``plan`` update becomes (ACP's plan is a session update, not a tool).
PLAN_TOOL_NAME = "plan"


def _dump(value: object) -> JsonValue:
    if isinstance(value, BaseModel):
        dumped: JsonValue = value.model_dump(mode="json", exclude_none=True, by_alias=False)
        return dumped
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value  # type: ignore[return-value]


def _text_of(content: object) -> str:
    """The text of an ACP content block (non-text blocks: their kind in brackets)."""
    block_type = getattr(content, "type", None)
    if block_type == "text":
        return str(getattr(content, "text", ""))
    return f"[{block_type}]" if block_type else ""


def tool_name_of(update: object) -> str:
    """The agent's own name for a tool call: its ``_meta`` tool name when the agent gives one
    (claude-agent-acp: ``claudeCode.toolName``), else the call's first title."""
    meta = getattr(update, "field_meta", None) or {}
    for value in meta.values() if isinstance(meta, dict) else ():
        if isinstance(value, dict) and isinstance(value.get("toolName"), str):
            return str(value["toolName"])
    return str(getattr(update, "title", None) or getattr(update, "kind", None) or "tool")


def _output_text(raw_output: object, content: object) -> JsonValue:
    if raw_output is not None:
        return _dump(raw_output)
    if isinstance(content, list):
        texts = [_text_of(getattr(c, "content", None)) for c in content if getattr(c, "type", None) == "content"]
        return "\n".join(t for t in texts if t)
    return ""


@dataclass
class _Tool:
    name: str
    kind: str | None
    title: str | None
    input_sent: bool = False
    ended: bool = False
    content: list[JsonValue] = field(default_factory=list)


class AcpStreamAdapter:
    """Stateful fold of one connection's session updates (see the module doc)."""

    def __init__(self, *, denied_tool_ids: set[str] | None = None) -> None:
        self.denied_tool_ids = denied_tool_ids if denied_tool_ids is not None else set()
        self._keys = itertools.count(1)
        self._block: tuple[str, str] | None = None  # (kind, id) of the open text/reasoning block
        self._tools: dict[str, _Tool] = {}
        self._turn_started_at: float | None = None
        self._first_token_at: float | None = None
        self.in_turn = False
        self.turn_has_output = False
        self.context: ContextUsageEvent | None = None
        self.available_commands: list[str] = []
        self.current_mode: str | None = None

    # ---- turn ----------------------------------------------------------------------------

    def start_turn(self, now: float) -> list[AgentRuntimeEvent]:
        self.in_turn = True
        self.turn_has_output = False
        self._turn_started_at, self._first_token_at = now, None
        return [ChunkEvent(StartStepChunk())]

    def end_turn(self, now: float, usage: object | None, model: str | None) -> list[AgentRuntimeEvent]:
        """Close what is open and end the turn's step (`usage`: the prompt response's)."""
        if not self.in_turn:
            return []
        self.in_turn = False
        events = self._close_block()
        for tool_id, tool in self._tools.items():
            if not tool.ended:  # a cancel left it running
                tool.ended = True
                events.append(ChunkEvent(ToolOutputErrorChunk(tool_call_id=tool_id, error_text="cancelled")))
        self._tools.clear()
        events.append(ChunkEvent(FinishStepChunk()))
        ttft = completion = None
        if self._turn_started_at is not None:
            completion = max(0, round((now - self._turn_started_at) * 1000))
            if self._first_token_at is not None:
                ttft = max(0, round((self._first_token_at - self._turn_started_at) * 1000))
        if usage is not None:
            events.append(UsageEvent(
                input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
                output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
                cache_read_tokens=int(getattr(usage, "cached_read_tokens", 0) or 0),
                cache_write_tokens=int(getattr(usage, "cached_write_tokens", 0) or 0),
                reasoning_tokens=int(getattr(usage, "thought_tokens", 0) or 0),
                time_first_token_ms=ttft, time_completion_ms=completion, model=model))
        if self.context is not None:
            events.append(self.context)
        return events

    # ---- updates -------------------------------------------------------------------------

    def adapt(self, update: object, now: float) -> list[AgentRuntimeEvent]:
        kind = getattr(update, "session_update", None)
        if kind == "agent_message_chunk":
            return self._delta("text", _text_of(getattr(update, "content", None)), now)
        if kind == "agent_thought_chunk":
            return self._delta("reasoning", _text_of(getattr(update, "content", None)), now)
        if kind == "tool_call":
            return self._tool_start(update)
        if kind == "tool_call_update":
            return self._tool_update(update)
        if kind == "usage_update":
            used, size = getattr(update, "used", None), getattr(update, "size", None)
            if isinstance(used, int):
                self.context = ContextUsageEvent(used_tokens=used, max_tokens=size if isinstance(size, int) else None)
            return []
        if kind == "available_commands_update":
            commands = getattr(update, "available_commands", None) or []
            self.available_commands = [str(getattr(c, "name", "")) for c in commands]
            return [SlashCommandsEvent.of(self.available_commands)]
        if kind == "current_mode_update":
            self.current_mode = str(getattr(update, "current_mode_id", "") or "") or None
            return []
        if kind == "plan":
            return self._plan(update)
        if kind not in ("user_message_chunk", "config_option_update", "session_info_update"):
            log.debug("acp: session update %s not mapped", kind)
        return []

    def _plan(self, update: object) -> list[AgentRuntimeEvent]:
        """The agent's plan as a todo list: a tool part of its own (``plan``, ACP kind ``plan``)
        whose input is the list as the todo card reads it (content, status)."""
        if not self.in_turn:
            return []
        todos: list[JsonValue] = [
            {"content": str(getattr(e, "content", "")), "status": str(getattr(e, "status", "pending")),
             "activeForm": str(getattr(e, "content", ""))} for e in getattr(update, "entries", None) or []]
        tool_id = f"acp-plan-{next(self._keys)}"
        meta: JsonObject = {"cherry": {"transport": ACP_TRANSPORT, "kind": "plan"}}
        events = self._close_block()
        events += [
            ChunkEvent(ToolInputStartChunk(tool_call_id=tool_id, tool_name=PLAN_TOOL_NAME, dynamic=True,
                                           provider_executed=True, provider_metadata=meta)),
            ChunkEvent(ToolInputAvailableChunk(tool_call_id=tool_id, tool_name=PLAN_TOOL_NAME, input={"todos": todos},
                                               dynamic=True, provider_executed=True, provider_metadata=meta)),
            ChunkEvent(ToolOutputAvailableChunk(tool_call_id=tool_id, output="", provider_executed=True))]
        self.turn_has_output = True
        return events

    def _close_block(self) -> list[AgentRuntimeEvent]:
        block, self._block = self._block, None
        if block is None:
            return []
        kind, block_id = block
        end = TextEndChunk(id=block_id) if kind == "text" else ReasoningEndChunk(id=block_id)
        return [ChunkEvent(end)]

    def _delta(self, kind: str, text: str, now: float) -> list[AgentRuntimeEvent]:
        if not text or not self.in_turn:
            return []  # claude-agent-acp opens each message with an empty chunk
        events: list[AgentRuntimeEvent] = []
        if self._block is None or self._block[0] != kind:
            events += self._close_block()
            block_id = f"acp-{next(self._keys)}"
            self._block = (kind, block_id)
            start = (TextStartChunk(id=block_id, provider_metadata=_TEXT_META) if kind == "text"
                     else ReasoningStartChunk(id=block_id, provider_metadata=_TEXT_META))
            events.append(ChunkEvent(start))
        if self._first_token_at is None:
            self._first_token_at = now
        self.turn_has_output = True
        block_id = self._block[1]
        # Deltas are most updates of a turn: built without validation (both fields are str).
        delta = (TextDeltaChunk.model_construct(id=block_id, delta=text) if kind == "text"
                 else ReasoningDeltaChunk.model_construct(id=block_id, delta=text))
        events.append(ChunkEvent(delta))
        return events

    def _metadata(self, tool: _Tool) -> JsonObject:
        cherry: JsonObject = {"transport": ACP_TRANSPORT, "kind": tool.kind, "title": tool.title}
        if tool.content:
            cherry["content"] = list(tool.content)
        return {"cherry": cherry}

    def _tool_start(self, update: object) -> list[AgentRuntimeEvent]:
        tool_id = str(getattr(update, "tool_call_id", ""))
        if tool_id in self._tools or not self.in_turn:
            return self._tool_update(update)
        events = self._close_block()
        tool = _Tool(name=tool_name_of(update), kind=getattr(update, "kind", None),
                     title=getattr(update, "title", None))
        self._tools[tool_id] = tool
        self.turn_has_output = True
        events.append(ChunkEvent(ToolInputStartChunk(tool_call_id=tool_id, tool_name=tool.name, dynamic=True,
                                                     provider_executed=True, provider_metadata=self._metadata(tool))))
        return events + self._tool_update(update)

    def tool_name(self, tool_call_id: str) -> str | None:
        tool = self._tools.get(tool_call_id)
        return tool.name if tool is not None else None

    def ensure_tool(self, update: object) -> list[AgentRuntimeEvent]:
        """The tool part of a permission request's call, opened when no update opened it yet,
        with its input (the approval card shows it)."""
        tool_id = str(getattr(update, "tool_call_id", ""))
        events = self._tool_start(update) if tool_id not in self._tools else self._tool_update(update)
        tool = self._tools.get(tool_id)
        if tool is not None and not tool.input_sent:
            events += self._send_input(tool_id, tool, {})
        return events

    def _send_input(self, tool_id: str, tool: _Tool, raw_input: JsonValue) -> list[AgentRuntimeEvent]:
        tool.input_sent = True
        return [ChunkEvent(ToolInputAvailableChunk(tool_call_id=tool_id, tool_name=tool.name, input=raw_input,
                                                   dynamic=True, provider_executed=True,
                                                   provider_metadata=self._metadata(tool)))]

    def _tool_update(self, update: object) -> list[AgentRuntimeEvent]:
        tool_id = str(getattr(update, "tool_call_id", ""))
        tool = self._tools.get(tool_id)
        if tool is None:
            return []
        if getattr(update, "kind", None):
            tool.kind = getattr(update, "kind", None)
        if getattr(update, "title", None):
            tool.title = getattr(update, "title", None)
        content = getattr(update, "content", None)
        if content:
            kept = [_dump(c) for c in content if getattr(c, "type", None) in ("diff", "terminal")]
            tool.content = kept or tool.content
        events: list[AgentRuntimeEvent] = []
        raw_input = getattr(update, "raw_input", None)
        if not tool.input_sent and raw_input:
            events += self._send_input(tool_id, tool, _dump(raw_input))
        status = getattr(update, "status", None)
        if status in ("completed", "failed") and not tool.ended:
            if not tool.input_sent:
                events += self._send_input(tool_id, tool, _dump(raw_input) if raw_input else {})
            tool.ended = True
            output = _output_text(getattr(update, "raw_output", None), content)
            if tool_id in self.denied_tool_ids:
                events.append(ChunkEvent(ToolOutputDeniedChunk(tool_call_id=tool_id, reason=str(output or "") or None)))
            elif status == "failed":
                events.append(ChunkEvent(ToolOutputErrorChunk(tool_call_id=tool_id, error_text=str(output or "failed"),
                                                               provider_executed=True)))
            else:
                events.append(ChunkEvent(ToolOutputAvailableChunk(tool_call_id=tool_id, output=output,
                                                                  provider_executed=True)))
        return events
