"""Scripted replies of the demo model server.

A reply is what the server answers to one ``POST /v1/messages``. Most replies are a
:class:`Reply` made of content blocks (text, thinking, tool_use) streamed as real
Anthropic SSE events; the others are failure shapes (an HTTP error, a mid-stream SSE
``event: error``, a hang). Builders (:func:`text`, :func:`tool_use`, ...) keep scripts short.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cherry_desktop.demo.request_log import ModelRequest


@dataclass(frozen=True)
class TextBlock:
    """A text content block, streamed as ``text_delta`` events of ``chunk_size`` characters."""

    text: str


@dataclass(frozen=True)
class ThinkingBlock:
    """A thinking block: ``thinking_delta`` events then one ``signature_delta``."""

    thinking: str
    signature: str = "demo-signature"


@dataclass(frozen=True)
class ToolUseBlock:
    """A tool_use block; ``input`` is streamed as ``input_json_delta`` fragments."""

    name: str
    input: dict[str, Any]
    id: str = field(default_factory=lambda: f"toolu_{uuid.uuid4().hex[:24]}")


Block = TextBlock | ThinkingBlock | ToolUseBlock


@dataclass(frozen=True)
class Reply:
    """A successful model message.

    Attributes:
        blocks: content blocks in order.
        delay_s: pause before each delta event (slow streaming); 0 streams at once.
        chunk_size: characters per text/thinking delta.
        stop_reason: defaults to ``tool_use`` when any block is a tool call, else ``end_turn``.
        input_tokens: reported in ``message_start`` usage.
        output_tokens: reported in ``message_delta`` usage.
    """

    blocks: tuple[Block, ...]
    delay_s: float = 0.0
    chunk_size: int = 16
    stop_reason: str | None = None
    input_tokens: int = 12
    output_tokens: int | None = None

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason is not None:
            return self.stop_reason
        if any(isinstance(b, ToolUseBlock) for b in self.blocks):
            return "tool_use"
        return "end_turn"

    @property
    def effective_output_tokens(self) -> int:
        if self.output_tokens is not None:
            return self.output_tokens
        total = 0
        for block in self.blocks:
            if isinstance(block, TextBlock):
                total += len(block.text.split())
            elif isinstance(block, ThinkingBlock):
                total += len(block.thinking.split())
            else:
                total += 10
        return max(total, 1)


@dataclass(frozen=True)
class HttpErrorReply:
    """An HTTP error answer with an Anthropic error body (``{"type": "error", ...}``)."""

    status: int = 500
    error_type: str = "api_error"
    message: str = "Internal server error"


@dataclass(frozen=True)
class StreamErrorReply:
    """A stream that starts normally, streams ``text_before`` and then sends ``event: error``."""

    text_before: str = ""
    error_type: str = "overloaded_error"
    message: str = "Overloaded"


@dataclass(frozen=True)
class HangReply:
    """Never answers (the request stays open until the server stops).

    With ``text_before`` the stream is opened and that text sent first, then it hangs.
    """

    text_before: str = ""


AnyReply = Reply | HttpErrorReply | StreamErrorReply | HangReply
ReplyFn = Callable[["ModelRequest"], AnyReply]
ScriptEntry = AnyReply | ReplyFn


def text(content: str, *, delay_s: float = 0.0, chunk_size: int = 16) -> Reply:
    """A plain text answer (``end_turn``)."""
    return Reply(blocks=(TextBlock(content),), delay_s=delay_s, chunk_size=chunk_size)


def slow_text(content: str, *, delay_s: float = 0.05, chunk_size: int = 4) -> Reply:
    """A text answer streamed in small deltas with ``delay_s`` before each."""
    return Reply(blocks=(TextBlock(content),), delay_s=delay_s, chunk_size=chunk_size)


def tool_use(
    name: str,
    tool_input: dict[str, Any],
    *,
    preamble: str | None = None,
    tool_id: str | None = None,
    delay_s: float = 0.0,
) -> Reply:
    """One tool call (``stop_reason: tool_use``), optionally after a text preamble."""
    blocks: list[Block] = []
    if preamble:
        blocks.append(TextBlock(preamble))
    blocks.append(ToolUseBlock(name, tool_input, **({"id": tool_id} if tool_id else {})))
    return Reply(blocks=tuple(blocks), delay_s=delay_s)


def tool_uses(calls: Sequence[tuple[str, dict[str, Any]]], *, preamble: str | None = None) -> Reply:
    """Several parallel tool calls in one message."""
    blocks: list[Block] = [TextBlock(preamble)] if preamble else []
    blocks.extend(ToolUseBlock(name, tool_input) for name, tool_input in calls)
    return Reply(blocks=tuple(blocks))


def thinking(thought: str, answer: str, *, delay_s: float = 0.0) -> Reply:
    """A thinking block followed by a text answer."""
    return Reply(blocks=(ThinkingBlock(thought), TextBlock(answer)), delay_s=delay_s)


def http_error(status: int = 500, message: str | None = None) -> HttpErrorReply:
    """An HTTP error with the Anthropic error type that matches ``status``."""
    error_type = _ERROR_TYPES.get(status, "api_error")
    return HttpErrorReply(status=status, error_type=error_type, message=message or error_type)


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
