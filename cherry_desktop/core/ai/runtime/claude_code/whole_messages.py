"""Whole SDK messages -> chunks: an ``AssistantMessage`` the CLI did not stream (a snapshot, or
a connection without partial messages) and the ``UserMessage`` carrying tool results.

Each tool call's input and output is emitted once, whichever path (partial stream or whole
message) brings it first (`EmittedIds`, shared with the stream adapter). A denied tool call's
result is told apart from a failed one. Typed against the SDK's message classes (imported for
type checking only); blocks are matched by class name, so this module does not import the SDK.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from cherry_desktop.core.ai.runtime.capabilities import CLAUDE_CODE_TRANSPORT
from cherry_desktop.core.ai.runtime.claude_code.sdk_results import content_text
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
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue

if TYPE_CHECKING:
    from claude_agent_sdk import (
        AssistantMessage,
        ServerToolUseBlock,
        TextBlock,
        ThinkingBlock,
        ToolResultBlock,
        ToolUseBlock,
        UserMessage,
    )

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
