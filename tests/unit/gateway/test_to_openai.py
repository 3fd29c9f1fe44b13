"""Anthropic -> OpenAI translation, one table per part: requests, whole replies, stream events."""

from __future__ import annotations

from typing import Any

import pytest

from cherry_desktop.core.gateway.to_openai import (
    OpenAIStreamWriter,
    UpstreamStreamError,
    openai_completion,
    openai_request,
)

IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}

REQUESTS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("text and system string",
     {"system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 10},
     {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
      "max_tokens": 10}),
    ("system blocks joined",
     {"system": [{"type": "text", "text": "A"}, {"type": "text", "text": "B", "cache_control": {}}],
      "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]},
     {"messages": [{"role": "system", "content": "A\n\nB"}, {"role": "user", "content": "Hi"}]}),
    ("image becomes a data URL part",
     {"messages": [{"role": "user", "content": [{"type": "text", "text": "see"}, IMAGE]}]},
     {"messages": [{"role": "user", "content": [{"type": "text", "text": "see"},
                                                {"type": "image_url",
                                                 "image_url": {"url": "data:image/png;base64,AAAA"}}]}]}),
    ("tool call and its result, thinking dropped",
     {"messages": [{"role": "user", "content": "go"},
                   {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s"},
                                                     {"type": "text", "text": "Calling."},
                                                     {"type": "tool_use", "id": "t1", "name": "Read",
                                                      "input": {"p": 1}}]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                 "content": [{"type": "text", "text": "data"}]},
                                                {"type": "text", "text": "and now?"}]}]},
     {"messages": [{"role": "user", "content": "go"},
                   {"role": "assistant", "content": "Calling.",
                    "tool_calls": [{"id": "t1", "type": "function",
                                    "function": {"name": "Read", "arguments": '{"p": 1}'}}]},
                   {"role": "tool", "tool_call_id": "t1", "content": "data"},
                   {"role": "user", "content": "and now?"}]}),
    ("tool result image follows as a user message",
     {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                 "content": [IMAGE]}]}]},
     {"messages": [{"role": "tool", "tool_call_id": "t1", "content": ""},
                   {"role": "user", "content": [{"type": "image_url",
                                                 "image_url": {"url": "data:image/png;base64,AAAA"}}]}]}),
    ("tools, choice, stop, stream",
     {"messages": [], "stream": True, "stop_sequences": ["END"], "temperature": 0.2, "top_k": 5,
      "tools": [{"name": "Bash", "description": "run", "input_schema": {"type": "object"}},
                {"type": "web_search_20250305", "name": "web_search"}],
      "tool_choice": {"type": "any", "disable_parallel_tool_use": True}},
     {"messages": [], "stream": True, "stream_options": {"include_usage": True}, "stop": ["END"],
      "temperature": 0.2, "tools": [{"type": "function", "function": {"name": "Bash", "description": "run",
                                                                      "parameters": {"type": "object"}}}],
      "tool_choice": "required", "parallel_tool_calls": False}),
    ("a named tool choice",
     {"messages": [], "tools": [{"name": "Bash", "input_schema": {}}], "tool_choice": {"type": "tool", "name": "Bash"}},
     {"messages": [], "tools": [{"type": "function", "function": {"name": "Bash", "parameters": {}}}],
      "tool_choice": {"type": "function", "function": {"name": "Bash"}}}),
]


@pytest.mark.parametrize(("case", "body", "expected"), REQUESTS, ids=[r[0] for r in REQUESTS])
def test_request(case: str, body: dict[str, Any], expected: dict[str, Any]) -> None:
    assert openai_request({"model": "p:m", **body}, "m") == {"model": "m", **expected}


COMPLETIONS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("text", {"content": [{"type": "text", "text": "Hi"}], "stop_reason": "end_turn"},
     {"role": "assistant", "content": "Hi"}, "stop"),
    ("thinking and a tool call", {"content": [{"type": "thinking", "thinking": "hm"},
                                              {"type": "tool_use", "id": "t", "name": "X", "input": {}}],
                                  "stop_reason": "tool_use"},
     {"role": "assistant", "content": None, "reasoning_content": "hm",
      "tool_calls": [{"id": "t", "type": "function", "function": {"name": "X", "arguments": "{}"}}]}, "tool_calls"),
    ("max tokens", {"content": [{"type": "text", "text": "cut"}], "stop_reason": "max_tokens"},
     {"role": "assistant", "content": "cut"}, "length"),
]


@pytest.mark.parametrize(("case", "message", "expected", "finish"), COMPLETIONS, ids=[c[0] for c in COMPLETIONS])
def test_whole_reply(case: str, message: dict[str, Any], expected: dict[str, Any], finish: str) -> None:
    usage = {"input_tokens": 10, "output_tokens": 3, "cache_read_input_tokens": 5}
    out = openai_completion({"id": "msg_1", **message, "usage": usage}, "p:m")
    assert out["choices"][0]["message"] == expected
    assert out["choices"][0]["finish_reason"] == finish
    assert out["usage"] == {"prompt_tokens": 15, "completion_tokens": 3, "total_tokens": 18,
                            "prompt_tokens_details": {"cached_tokens": 5}}


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


STREAM: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("message start opens the assistant turn",
     {"type": "message_start", "message": {"usage": {"input_tokens": 4}}}, [{"role": "assistant", "content": ""}]),
    ("text delta", _delta(0, {"type": "text_delta", "text": "Hi"}), [{"content": "Hi"}]),
    ("thinking delta is reasoning", _delta(0, {"type": "thinking_delta", "thinking": "hm"}),
     [{"reasoning_content": "hm"}]),
    ("signature is dropped", _delta(0, {"type": "signature_delta", "signature": "s"}), []),
    ("ping is dropped", {"type": "ping"}, []),
    ("block stop is dropped", {"type": "content_block_stop", "index": 0}, []),
]


@pytest.mark.parametrize(("case", "event", "deltas"), STREAM, ids=[s[0] for s in STREAM])
def test_stream_event(case: str, event: dict[str, Any], deltas: list[dict[str, Any]]) -> None:
    writer = OpenAIStreamWriter("p:m", "c1", include_usage=False)
    assert [c["choices"][0]["delta"] for c in writer.feed(event)] == deltas


def test_stream_tool_call_arguments_and_end() -> None:
    writer = OpenAIStreamWriter("p:m", "c1", include_usage=True)
    writer.feed({"type": "message_start", "message": {"usage": {"input_tokens": 7}}})
    writer.feed({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    start = writer.feed({"type": "content_block_start", "index": 1,
                         "content_block": {"type": "tool_use", "id": "t1", "name": "Write", "input": {}}})
    assert start[0]["choices"][0]["delta"]["tool_calls"] == [
        {"index": 0, "id": "t1", "type": "function", "function": {"name": "Write", "arguments": ""}}]
    args = writer.feed(_delta(1, {"type": "input_json_delta", "partial_json": '{"a":'}))
    assert args[0]["choices"][0]["delta"]["tool_calls"] == [{"index": 0, "function": {"arguments": '{"a":'}}]
    writer.feed({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}})
    end = writer.feed({"type": "message_stop"})
    assert end[0]["choices"][0]["finish_reason"] == "tool_calls"
    assert end[1]["choices"] == [] and end[1]["usage"]["prompt_tokens"] == 7
    assert end[1]["usage"]["completion_tokens"] == 9
    assert writer.finish() == []


def test_stream_error_event_and_early_end() -> None:
    writer = OpenAIStreamWriter("p:m", "c1", include_usage=False)
    with pytest.raises(UpstreamStreamError) as caught:
        writer.feed({"type": "error", "error": {"type": "overloaded_error", "message": "busy"}})
    assert caught.value.error_type == "overloaded_error" and caught.value.message == "busy"
    with pytest.raises(UpstreamStreamError):
        OpenAIStreamWriter("p:m", "c1", include_usage=False).finish()
