"""OpenAI -> Anthropic translation, one table per part: requests, whole replies, stream chunks,
and the internal continuation normalisation."""

from __future__ import annotations

from typing import Any

import pytest

from cherry_desktop.core.gateway.continuation import CONTINUATION_TEXT, normalize_internal_continuation
from cherry_desktop.core.gateway.to_anthropic import AnthropicStreamWriter, anthropic_message, anthropic_request
from cherry_desktop.core.gateway.to_openai import UpstreamStreamError

REQUESTS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("system and developer join the system prompt",
     {"messages": [{"role": "system", "content": "A"}, {"role": "developer", "content": "B"},
                   {"role": "user", "content": "Hi"}]},
     {"system": "A\n\nB", "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
      "max_tokens": 4096}),
    ("image data URL and remote URL",
     {"messages": [{"role": "user", "content": [
         {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,QQ=="}},
         {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}], "max_tokens": 5},
     {"messages": [{"role": "user", "content": [
         {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "QQ=="}},
         {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}}]}], "max_tokens": 5}),
    ("tool calls, tool messages merged into one user turn",
     {"messages": [{"role": "user", "content": "go"},
                   {"role": "assistant", "content": None, "tool_calls": [
                       {"id": "c1", "type": "function", "function": {"name": "A", "arguments": '{"x":1}'}},
                       {"id": "c2", "type": "function", "function": {"name": "B", "arguments": "not json"}}]},
                   {"role": "tool", "tool_call_id": "c1", "content": "one"},
                   {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "two"}]},
                   {"role": "user", "content": "next"}]},
     {"messages": [{"role": "user", "content": [{"type": "text", "text": "go"}]},
                   {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "A", "input": {"x": 1}},
                                                     {"type": "tool_use", "id": "c2", "name": "B", "input": {}}]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "one"},
                                                {"type": "tool_result", "tool_use_id": "c2", "content": "two"},
                                                {"type": "text", "text": "next"}]}],
      "max_tokens": 4096}),
    ("a leading assistant message is dropped",
     {"messages": [{"role": "assistant", "content": "hello"}, {"role": "user", "content": "hi"}]},
     {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}], "max_tokens": 4096}),
    ("tools, choice, parameters",
     {"messages": [], "tools": [{"type": "function", "function": {"name": "f", "description": "d",
                                                                  "parameters": {"type": "object"}}}],
      "tool_choice": "required", "parallel_tool_calls": False, "stop": "END", "temperature": 1.5,
      "max_completion_tokens": 77, "stream": True, "user": "u1"},
     {"messages": [], "max_tokens": 77, "tools": [{"name": "f", "description": "d",
                                                   "input_schema": {"type": "object"}}],
      "tool_choice": {"type": "any", "disable_parallel_tool_use": True}, "stop_sequences": ["END"],
      "temperature": 1.0, "stream": True, "metadata": {"user_id": "u1"}}),
    ("a named function choice",
     {"messages": [], "tools": [{"type": "function", "function": {"name": "f"}}],
      "tool_choice": {"type": "function", "function": {"name": "f"}}},
     {"messages": [], "max_tokens": 4096, "tools": [{"name": "f", "input_schema": {"type": "object",
                                                                                  "properties": {}}}],
      "tool_choice": {"type": "tool", "name": "f"}}),
]


@pytest.mark.parametrize(("case", "body", "expected"), REQUESTS, ids=[r[0] for r in REQUESTS])
def test_request(case: str, body: dict[str, Any], expected: dict[str, Any]) -> None:
    assert anthropic_request({"model": "p:m", **body}, "m") == {"model": "m", **expected}


MESSAGES: list[tuple[str, dict[str, Any], list[dict[str, Any]], str]] = [
    ("text", {"content": "Hi"}, [{"type": "text", "text": "Hi"}], "stop"),
    ("reasoning and a tool call",
     {"content": None, "reasoning_content": "hm",
      "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": '{"a": 2}'}}]},
     [{"type": "thinking", "thinking": "hm", "signature": ""},
      {"type": "tool_use", "id": "c", "name": "f", "input": {"a": 2}}], "tool_calls"),
    ("length", {"content": "cut"}, [{"type": "text", "text": "cut"}], "length"),
]
STOPS = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


@pytest.mark.parametrize(("case", "message", "content", "finish"), MESSAGES, ids=[m[0] for m in MESSAGES])
def test_whole_reply(case: str, message: dict[str, Any], content: list[dict[str, Any]], finish: str) -> None:
    completion = {"choices": [{"message": {"role": "assistant", **message}, "finish_reason": finish}],
                  "usage": {"prompt_tokens": 20, "completion_tokens": 4, "prompt_tokens_details": {"cached_tokens": 8}}}
    out = anthropic_message(completion, "p:m", "msg_1")
    assert out["content"] == content and out["stop_reason"] == STOPS[finish]
    assert out["usage"] == {"input_tokens": 12, "output_tokens": 4, "cache_creation_input_tokens": 0,
                            "cache_read_input_tokens": 8}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _names(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [name if name != "content_block_delta" else data["delta"]["type"] for name, data in events]


STREAM: list[tuple[str, list[dict[str, Any]], list[str]]] = [
    ("role chunk starts the message", [_chunk({"role": "assistant", "content": ""})], ["message_start"]),
    ("reasoning then text switch blocks",
     [_chunk({"reasoning_content": "a"}), _chunk({"reasoning": "b"}), _chunk({"content": "c"})],
     ["message_start", "content_block_start", "thinking_delta", "thinking_delta", "content_block_stop",
      "content_block_start", "text_delta"]),
    ("a tool call opens its block and streams its arguments",
     [_chunk({"content": "x"}),
      _chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "f", "arguments": ""}}]}),
      _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"a"'}}]}),
      _chunk({"tool_calls": [{"index": 1, "id": "c2", "function": {"name": "g", "arguments": "{}"}}]})],
     ["message_start", "content_block_start", "text_delta", "content_block_stop", "content_block_start",
      "input_json_delta", "content_block_stop", "content_block_start", "input_json_delta"]),
]


@pytest.mark.parametrize(("case", "chunks", "names"), STREAM, ids=[s[0] for s in STREAM])
def test_stream_chunks(case: str, chunks: list[dict[str, Any]], names: list[str]) -> None:
    writer = AnthropicStreamWriter("p:m", "msg_1")
    assert _names([e for c in chunks for e in writer.feed(c)]) == names


def test_stream_end_carries_stop_reason_and_usage() -> None:
    writer = AnthropicStreamWriter("p:m", "msg_1")
    writer.feed(_chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "f", "arguments": "{}"}}]}))
    writer.feed(_chunk({}, "tool_calls"))
    writer.feed({"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 6}})
    end = writer.finish(done=True)
    assert _names(end) == ["content_block_stop", "message_delta", "message_stop"]
    delta = end[1][1]
    assert delta["delta"]["stop_reason"] == "tool_use"
    assert delta["usage"]["input_tokens"] == 30 and delta["usage"]["output_tokens"] == 6


def test_stream_error_chunk_and_early_end() -> None:
    with pytest.raises(UpstreamStreamError) as caught:
        AnthropicStreamWriter("p:m", "m").feed({"error": {"message": "boom", "type": "server_error"}})
    assert caught.value.message == "boom" and caught.value.error_type == "server_error"
    writer = AnthropicStreamWriter("p:m", "m")
    writer.feed(_chunk({"content": "partial"}))
    with pytest.raises(UpstreamStreamError):
        writer.finish(done=False)


CONTINUATIONS: list[tuple[str, str, list[dict[str, Any]], bool]] = [
    ("anthropic text-only assistant", "anthropic",
     [{"role": "user", "content": "q"}, {"role": "assistant", "content": [{"type": "text", "text": "a"}]}], True),
    ("anthropic assistant with a tool call", "anthropic",
     [{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "tool_use", "id": "t"}]}], False),
    ("anthropic ends with the user", "anthropic", [{"role": "user", "content": "q"}], False),
    ("openai text-only assistant", "openai", [{"role": "assistant", "content": "a"}], True),
    ("openai assistant tool calls", "openai", [{"role": "assistant", "content": "a", "tool_calls": [{}]}], False),
]


@pytest.mark.parametrize(("case", "dialect", "messages", "appended"), CONTINUATIONS, ids=[c[0] for c in CONTINUATIONS])
def test_internal_continuation(case: str, dialect: Any, messages: list[dict[str, Any]], appended: bool) -> None:
    body = {"model": "m", "messages": messages}
    out = normalize_internal_continuation(body, dialect)
    assert body["messages"] is messages and len(messages) == len(body["messages"])  # the caller's body untouched
    if appended:
        assert out["messages"][:-1] == messages and out["messages"][-1]["role"] == "user"
        assert CONTINUATION_TEXT in str(out["messages"][-1]["content"])
    else:
        assert out is body
