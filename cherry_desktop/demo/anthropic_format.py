"""Anthropic Messages wire format for scripted replies: SSE events and whole messages."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

from cherry_desktop.demo.replies import Reply, TextBlock, ThinkingBlock, ToolUseBlock

#: Marker for "sleep before the next event" in an event sequence.
DELAY = "delay"


def new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex[:24]}"


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One SSE frame in the Anthropic shape (``event:`` + ``data:`` JSON)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _split(text: str, size: int) -> list[str]:
    size = max(size, 1)
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _usage(reply: Reply, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": reply.input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def message_start(message_id: str, model: str, input_tokens: int) -> bytes:
    return sse(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": input_tokens,
                    "output_tokens": 1,
                    "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0,
                },
            },
        },
    )


def text_block_frames(index: int, text: str, chunk_size: int, *, close: bool = True) -> Iterator[bytes | str]:
    """content_block_start / text_delta* / content_block_stop for one text block."""
    yield sse(
        "content_block_start",
        {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
    )
    for piece in _split(text, chunk_size):
        yield DELAY
        yield sse(
            "content_block_delta",
            {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}},
        )
    if close:
        yield sse("content_block_stop", {"type": "content_block_stop", "index": index})


def reply_frames(reply: Reply, model: str, message_id: str) -> Iterator[bytes | str]:
    """Every SSE frame of a successful streamed reply; ``DELAY`` marks a pause point."""
    yield message_start(message_id, model, reply.input_tokens)
    yield sse("ping", {"type": "ping"})
    for index, block in enumerate(reply.blocks):
        if isinstance(block, TextBlock):
            yield from text_block_frames(index, block.text, reply.chunk_size)
        elif isinstance(block, ThinkingBlock):
            yield sse(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                },
            )
            for piece in _split(block.thinking, reply.chunk_size):
                yield DELAY
                yield sse(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "thinking_delta", "thinking": piece},
                    },
                )
            yield sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "signature_delta", "signature": block.signature},
                },
            )
            yield sse("content_block_stop", {"type": "content_block_stop", "index": index})
        else:
            yield sse(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "tool_use", "id": block.id, "name": block.name, "input": {}},
                },
            )
            for piece in _split(json.dumps(block.input), 24):
                yield DELAY
                yield sse(
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": piece},
                    },
                )
            yield sse("content_block_stop", {"type": "content_block_stop", "index": index})
    yield sse(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": reply.effective_stop_reason, "stop_sequence": None},
            "usage": _usage(reply, reply.effective_output_tokens),
        },
    )
    yield sse("message_stop", {"type": "message_stop"})


def reply_message(reply: Reply, model: str, message_id: str) -> dict[str, Any]:
    """The whole (non-streamed) message JSON of a reply."""
    content: list[dict[str, Any]] = []
    for block in reply.blocks:
        if isinstance(block, TextBlock):
            content.append({"type": "text", "text": block.text})
        elif isinstance(block, ThinkingBlock):
            content.append({"type": "thinking", "thinking": block.thinking, "signature": block.signature})
        elif isinstance(block, ToolUseBlock):
            content.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": reply.effective_stop_reason,
        "stop_sequence": None,
        "usage": _usage(reply, reply.effective_output_tokens),
    }


def error_body(error_type: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": error_type, "message": message}}
