"""OpenAI chat-completions wire format for scripted replies: stream chunks and whole completions.

The scripted server answers ``POST /v1/chat/completions`` from the same script as
``/v1/messages``, so one script drives an OpenAI-compatible provider (what the gateway
translates to) as well as an Anthropic one. Written from OpenAI's documented shapes, never
from the gateway's translation (tests compare the two).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

from cherry_desktop.demo.anthropic_format import DELAY
from cherry_desktop.demo.replies import Reply, TextBlock, ThinkingBlock, ToolUseBlock

_FINISH = {"end_turn": "stop", "tool_use": "tool_calls", "max_tokens": "length", "stop_sequence": "stop"}


def new_completion_id() -> str:
    return f"chatcmpl-{uuid.uuid4().hex[:24]}"


def data(obj: Any) -> bytes:
    """One SSE frame in OpenAI's shape (``data:`` only)."""
    return f"data: {json.dumps(obj, separators=(',', ':'))}\n\n".encode()


DONE = b"data: [DONE]\n\n"


def _split(text: str, size: int) -> list[str]:
    size = max(size, 1)
    return [text[i: i + size] for i in range(0, len(text), size)] or [""]


def finish_reason(reply: Reply) -> str:
    return _FINISH.get(reply.effective_stop_reason, "stop")


def usage(reply: Reply) -> dict[str, Any]:
    out = reply.effective_output_tokens
    return {"prompt_tokens": reply.input_tokens, "completion_tokens": out,
            "total_tokens": reply.input_tokens + out}


class _Chunks:
    def __init__(self, completion_id: str, model: str) -> None:
        self.base = {"id": completion_id, "object": "chat.completion.chunk", "created": int(time.time()),
                     "model": model}

    def delta(self, delta: dict[str, Any], finish: str | None = None) -> bytes:
        return data({**self.base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    def usage(self, reply: Reply) -> bytes:
        return data({**self.base, "choices": [], "usage": usage(reply)})


def reply_chunks(reply: Reply, model: str, completion_id: str, *,
                 include_usage: bool = True) -> Iterator[bytes | str]:
    """Every frame of a successful streamed reply, ``[DONE]`` last; ``DELAY`` marks a pause."""
    out = _Chunks(completion_id, model)
    yield out.delta({"role": "assistant", "content": ""})
    tool_index = 0
    for block in reply.blocks:
        if isinstance(block, TextBlock):
            for piece in _split(block.text, reply.chunk_size):
                yield DELAY
                yield out.delta({"content": piece})
        elif isinstance(block, ThinkingBlock):
            for piece in _split(block.thinking, reply.chunk_size):
                yield DELAY
                yield out.delta({"reasoning_content": piece})
        else:
            yield out.delta({"tool_calls": [{"index": tool_index, "id": block.id, "type": "function",
                                             "function": {"name": block.name, "arguments": ""}}]})
            for piece in _split(json.dumps(block.input), 24):
                yield DELAY
                yield out.delta({"tool_calls": [{"index": tool_index, "function": {"arguments": piece}}]})
            tool_index += 1
    yield out.delta({}, finish_reason(reply))
    if include_usage:
        yield out.usage(reply)
    yield DONE


def text_chunks(completion_id: str, model: str, text: str, chunk_size: int) -> Iterator[bytes]:
    """The opening chunk and ``text`` in deltas (a failure shape's text before it fails)."""
    out = _Chunks(completion_id, model)
    yield out.delta({"role": "assistant", "content": ""})
    if text:
        for piece in _split(text, chunk_size):
            yield out.delta({"content": piece})


def reply_completion(reply: Reply, model: str, completion_id: str) -> dict[str, Any]:
    """The whole (non-streamed) ``chat.completion`` of a reply."""
    texts = [b.text for b in reply.blocks if isinstance(b, TextBlock)]
    reasoning = [b.thinking for b in reply.blocks if isinstance(b, ThinkingBlock)]
    calls = [{"id": b.id, "type": "function", "function": {"name": b.name, "arguments": json.dumps(b.input)}}
             for b in reply.blocks if isinstance(b, ToolUseBlock)]
    message: dict[str, Any] = {"role": "assistant", "content": "".join(texts) if texts else None}
    if reasoning:
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = calls
    return {"id": completion_id, "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(reply)}],
            "usage": usage(reply)}


def error_body(error_type: str, message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": error_type, "code": None}}
