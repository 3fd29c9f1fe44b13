"""What the SDK's messages say, as pure functions and small folds (no I/O; the stream adapter and
the connection call them). Typed against the SDK's message classes, imported for type checking
only: messages and blocks are matched by class name, so importing this module imports no SDK.

- a ``ResultMessage``: failed or not, why, and the turn's totals (`result_error_text`,
  `result_metadata`);
- ``system`` messages (`SystemMessageFold`): ``init`` gives the resume token, ``status`` marks a
  model request's start and the compaction's progress, ``compact_boundary`` ends a compaction
  (with what was compacted);
- whole messages: an ``AssistantMessage`` the CLI did not stream (a snapshot, or a connection
  without partial messages) and the ``UserMessage`` carrying tool results (`assistant_chunks`,
  `tool_result_chunks`). Each tool call's input and output is emitted once, whichever path
  (partial stream or whole message) brings it first (`EmittedIds`, shared with the stream
  adapter); a denied tool call's result is told apart from a failed one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, cast

from cherry_desktop.core.ai.runtime.capabilities import CLAUDE_CODE_TRANSPORT
from cherry_desktop.core.ai.runtime.events import (
    AgentRuntimeEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
    ResumeTokenEvent,
    SlashCommandsEvent,
)
from cherry_desktop.core.messages import (
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningStartChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    ToolInputAvailableChunk,
    ToolOutputAvailableChunk,
    ToolOutputDeniedChunk,
    ToolOutputErrorChunk,
    UIMessageChunk,
)
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue, json_int, json_object

if TYPE_CHECKING:
    from claude_agent_sdk import (
        AssistantMessage,
        ResultMessage,
        ServerToolUseBlock,
        SystemMessage,
        TextBlock,
        ThinkingBlock,
        ToolResultBlock,
        ToolUseBlock,
        UserMessage,
    )


# ---- results ------------------------------------------------------------------------

#: ``terminal_reason`` values of a user-interrupted turn (not an error).
ABORTED_TERMINAL_REASONS = frozenset({"aborted_streaming", "aborted_tools"})

def is_aborted_result(result: ResultMessage) -> bool:
    return result.terminal_reason in ABORTED_TERMINAL_REASONS


def result_error_text(result: ResultMessage) -> str | None:
    """The error of a failed ``ResultMessage``, None when it succeeded or was interrupted.

    A result fails when its subtype is not ``success``, or — the CLI reports API failures inside
    a ``success`` envelope — when ``is_error`` is set, ``terminal_reason`` is ``api_error`` or an
    ``api_error_status`` is present.
    """
    terminal = result.terminal_reason
    if terminal in ABORTED_TERMINAL_REASONS:
        return None
    status = result.api_error_status
    failed = result.subtype != "success" or bool(result.is_error) or terminal == "api_error" or status is not None
    if not failed:
        return None
    errors = result.errors or []
    text = result.result
    parts = [str(e) for e in errors if e] or ([str(text)] if text else [])
    if not parts:
        parts = [f"Claude Code failed ({result.subtype}, {terminal or 'no reason'})"]
    message = "; ".join(parts)
    if status is not None and str(status) not in message:
        message = f"API error {status}: {message}"
    return message


def result_metadata(result: ResultMessage) -> JsonObject:
    """The turn's cumulative totals, as the message metadata the live UI reads (reconciliation
    only: never divided across the turn's requests)."""
    usage: JsonObject = result.usage or {}
    return {
        "usage": {
            "input_tokens": json_int(usage.get("input_tokens")),
            "output_tokens": json_int(usage.get("output_tokens")),
            "cache_read_tokens": json_int(usage.get("cache_read_input_tokens")),
            "cache_write_tokens": json_int(usage.get("cache_creation_input_tokens")),
        },
        "total_cost_usd": result.total_cost_usd,
        "duration_ms": result.duration_ms,
        "num_turns": result.num_turns,
    }


def content_text(content: object) -> str:
    """The text of a tool result's content: a string, or the text blocks of a list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(item.get("text", "")) for item in content
                         if isinstance(item, dict) and item.get("type") == "text")
    return str(content)


# ---- system messages ------------------------------------------------------------------

#: type -> is it the SDK's `SystemMessage` or one of its subclasses (task and hook notices).
_SYSTEM_TYPES: dict[type, bool] = {}


def is_system_message(cls: type) -> bool:
    system = _SYSTEM_TYPES.get(cls)
    if system is None:
        system = _SYSTEM_TYPES[cls] = any(base.__name__ == "SystemMessage" for base in cls.__mro__)
    return system


@dataclass
class SystemFolded:
    """What one system message meant."""

    events: list[AgentRuntimeEvent] = field(default_factory=list)
    #: The CLI started a model request (``status: requesting``): its clock starts now.
    request_started: bool = False
    #: The SDK session id ``init`` reported.
    session_id: str | None = None


class SystemMessageFold:
    """Folds one connection's system messages; remembers whether a compaction is under way."""

    def __init__(self) -> None:
        self.compacting = False

    def fold(self, message: SystemMessage) -> SystemFolded:
        subtype = message.subtype
        data: JsonObject = message.data or {}
        if subtype == "init":
            session_id = data.get("session_id")
            # The CLI's commands: its own ("compact", "review"), the user's and the skills'.
            names = data.get("slash_commands")
            folded = SystemFolded([SlashCommandsEvent.of(names)] if isinstance(names, list) else [])
            if isinstance(session_id, str) and session_id:
                folded.events.insert(0, ResumeTokenEvent(session_id))
                folded.session_id = session_id
            return folded
        if subtype == "compact_boundary":
            self.compacting = False
            metadata = json_object(data.get("compact_metadata"))
            anchor = data.get("uuid") or metadata.get("preserved_segment_anchor")
            # The CLI's compact_metadata: {trigger: "manual" | "auto", pre_tokens, post_tokens?}.
            pre_tokens = metadata.get("pre_tokens")
            return SystemFolded([CompactionCompleteEvent(
                anchor=str(anchor) if anchor else None,
                tokens_before=pre_tokens if isinstance(pre_tokens, int) else None,
                trigger=_compaction_trigger(metadata.get("trigger")))])
        if subtype == "status":
            return self._status(data)
        return SystemFolded()

    def _status(self, data: JsonObject) -> SystemFolded:
        folded = SystemFolded(request_started=data.get("status") == "requesting")
        if data.get("status") == "compacting" and not self.compacting:
            self.compacting = True
            folded.events.append(CompactionStartEvent())
        result = data.get("compact_result")
        if result == "success" and self.compacting:
            # Settled without a boundary message: complete once, no anchor.
            self.compacting = False
            folded.events.append(CompactionCompleteEvent(anchor=None))
        elif result == "failed" or data.get("compact_error"):
            self.compacting = False
            folded.events.append(CompactionErrorEvent(message=str(data.get("compact_error") or "compaction failed")))
        return folded


def _compaction_trigger(value: JsonValue) -> Literal["auto", "manual"] | None:
    if value == "auto":
        return "auto"
    return "manual" if value == "manual" else None


# ---- whole messages -------------------------------------------------------------------

#: Stamped on every part this runtime's adapter makes (the UI routes tool cards by it).
PROVIDER_METADATA: JsonObject = {"cherry": {"transport": CLAUDE_CODE_TRANSPORT}}


@dataclass
class EmittedIds:
    """What one connection already emitted (a message or a tool call is emitted once)."""

    streamed_message_ids: set[str] = field(default_factory=set)
    tool_inputs: set[str] = field(default_factory=set)
    tool_outputs: set[str] = field(default_factory=set)


def tool_input_available(tool_id: str, name: str, tool_input: JsonValue) -> ToolInputAvailableChunk:
    return ToolInputAvailableChunk(tool_call_id=tool_id, tool_name=name, input=tool_input, dynamic=True,
                                   provider_executed=True, provider_metadata=PROVIDER_METADATA)


def assistant_chunks(message: AssistantMessage, emitted: EmittedIds) -> list[UIMessageChunk]:
    """The chunks of a whole assistant message (nothing when it was streamed already)."""
    message_id = message.message_id
    if message_id and message_id in emitted.streamed_message_ids:
        return []  # already streamed through partial messages
    if message.error:
        # The CLI's synthetic "API Error: ..." message: the failed result reports it.
        return []
    chunks: list[UIMessageChunk] = []
    for index, block in enumerate(message.content or []):
        kind = type(block).__name__
        block_id = f"{message_id or 'assistant'}:{index}"
        if kind == "TextBlock":
            text = cast("TextBlock", block).text
            chunks += [TextStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA),
                       TextDeltaChunk(id=block_id, delta=str(text)), TextEndChunk(id=block_id)]
        elif kind == "ThinkingBlock":
            thinking = cast("ThinkingBlock", block).thinking
            chunks += [ReasoningStartChunk(id=block_id, provider_metadata=PROVIDER_METADATA),
                       ReasoningDeltaChunk(id=block_id, delta=str(thinking)), ReasoningEndChunk(id=block_id)]
        elif kind in ("ToolUseBlock", "ServerToolUseBlock"):
            tool = cast("ToolUseBlock | ServerToolUseBlock", block)
            if tool.id in emitted.tool_inputs:
                continue
            emitted.tool_inputs.add(tool.id)
            chunks.append(tool_input_available(tool.id, str(tool.name), tool.input))
    return chunks


def tool_result_chunks(message: UserMessage, emitted: EmittedIds, *, denied_tool_ids: set[str],
                       tool_durations: Mapping[str, float]) -> list[UIMessageChunk]:
    """The tool results a user message carries: output, error, or denied (the user said no)."""
    content = message.content
    if not isinstance(content, list):
        return []
    chunks: list[UIMessageChunk] = []
    for block in content:
        if type(block).__name__ != "ToolResultBlock":
            continue
        result = cast("ToolResultBlock", block)
        tool_id = str(result.tool_use_id)
        if tool_id in emitted.tool_outputs:
            continue
        emitted.tool_outputs.add(tool_id)
        output = result.content
        if tool_id in denied_tool_ids:
            chunks.append(ToolOutputDeniedChunk(tool_call_id=tool_id, reason=content_text(output)))
        elif result.is_error:
            chunks.append(ToolOutputErrorChunk(tool_call_id=tool_id, error_text=content_text(output) or "failed"))
        else:
            chunks.append(ToolOutputAvailableChunk(tool_call_id=tool_id, output=output, provider_executed=True,
                                                   duration_ms=tool_durations.get(tool_id)))
    return chunks
