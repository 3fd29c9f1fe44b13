"""`parse_record`: pi's stdout lines read as far as the connection uses them, and whole otherwise."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.pi.records import parse_record
from cherry_desktop.core.ai.runtime.pi.stream_adapter import PiStreamAdapter

# A line as pi 0.73.1 wrote it (JSON.stringify: no spaces, this key order).
REAL_DELTA = (
    b'{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"k brown ",'
    b'"partial":{"role":"assistant","content":[{"type":"text","text":"The quick brown fox jumps over t","index":0}],'
    b'"api":"anthropic-messages","provider":"cherry","model":"claude-demo","usage":{"input":12,"output":1,'
    b'"cacheRead":0,"cacheWrite":0,"totalTokens":13,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,'
    b'"total":0}},"stopReason":"stop","timestamp":1796112268979,"responseId":"msg_231a2f8b3f6948fcbb175262"}},'
    b'"message":{"role":"assistant","content":[{"type":"text","text":"The quick brown fox jumps over t","index":0}],'
    b'"api":"anthropic-messages","provider":"cherry","model":"claude-demo","usage":{"input":12,"output":1,'
    b'"cacheRead":0,"cacheWrite":0,"totalTokens":13,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,'
    b'"total":0}},"stopReason":"stop","timestamp":1796112268979,"responseId":"msg_231a2f8b3f6948fcbb175262"}}'
)


def _pi_line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()


def _delta_line(kind: str, index: int, delta: str) -> bytes:
    partial = {"role": "assistant", "content": [{"type": "text", "text": "x" * 200}]}
    return _pi_line({"type": "message_update",
                     "assistantMessageEvent": {"type": kind, "contentIndex": index, "delta": delta, "partial": partial},
                     "message": partial})


def test_a_real_delta_line_is_read_from_its_head() -> None:
    assert parse_record(REAL_DELTA) == {
        "type": "message_update",
        "assistantMessageEvent": {"type": "text_delta", "contentIndex": 0, "delta": "k brown "}}


@pytest.mark.parametrize("kind", ["text_delta", "thinking_delta", "toolcall_delta"])
@pytest.mark.parametrize("delta", ["plain", 'a "quoted" \\ back\\slash', "line\nbreak\ttab", "中文 é 😀", "",
                                   '{"path":"a.txt"}'])
def test_delta_heads_decode_like_json(kind: str, delta: str) -> None:
    line = _delta_line(kind, 3, delta)
    event = json.loads(line)["assistantMessageEvent"]
    assert parse_record(line) == {"type": "message_update", "assistantMessageEvent": {
        "type": kind, "contentIndex": 3, "delta": event["delta"]}}
    # Escaped the ASCII way too (\\uXXXX), as another writer might.
    ascii_line = json.dumps(json.loads(line), separators=(",", ":")).encode()
    assert parse_record(ascii_line)["assistantMessageEvent"]["delta"] == delta


@pytest.mark.parametrize("kind", ["turn_end", "agent_end"])
def test_records_the_connection_only_counts_are_read_to_their_type(kind: str) -> None:
    messages = [{"role": "assistant", "content": [{"type": "text", "text": "y" * 500}]}]
    line = _pi_line({"type": kind, "messages": messages})
    assert parse_record(line) == {"type": kind}


@pytest.mark.parametrize("record", [
    {"type": "message_update", "assistantMessageEvent": {"type": "text_start", "contentIndex": 0, "partial": {}}},
    {"type": "message_update", "assistantMessageEvent": {"type": "toolcall_end", "contentIndex": 1,
                                                          "toolCall": {"id": "t1", "name": "bash"}}},
    {"type": "message_end", "message": {"role": "assistant", "stopReason": "stop", "usage": {"input": 3}}},
    {"type": "response", "id": "c1", "command": "prompt", "success": True},
    # Another key order or another writer's spacing: no head matches, the whole line is read.
    {"assistantMessageEvent": {"type": "text_delta", "contentIndex": 0, "delta": "d"}, "type": "message_update"},
    {"type": "message_update", "assistantMessageEvent": {"contentIndex": 0, "type": "text_delta", "delta": "d"}},
])
def test_every_other_line_is_parsed_whole(record: dict[str, Any]) -> None:
    assert parse_record(_pi_line(record)) == record
    spaced = json.dumps(record).encode()
    assert parse_record(spaced) == record


@pytest.mark.parametrize("line", [
    REAL_DELTA[:-2],  # pi died while writing it
    REAL_DELTA[:120],
    b'{"type":"agent_end",',
    b'{"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"cut}',
    b"not json",
])
def test_broken_lines_raise_like_json_loads(line: bytes) -> None:
    with pytest.raises(ValueError):
        parse_record(line)


def test_the_adapter_streams_the_same_from_lean_and_whole_records() -> None:
    lines = [
        _pi_line({"type": "message_start", "message": {"role": "assistant", "content": []}}),
        _pi_line({"type": "message_update", "assistantMessageEvent": {"type": "text_start", "contentIndex": 0,
                                                                      "partial": {}}}),
        _delta_line("text_delta", 0, "Hello "),
        _delta_line("text_delta", 0, 'w"orld'),
        _pi_line({"type": "message_update", "assistantMessageEvent": {"type": "text_end", "contentIndex": 0,
                                                                      "content": "Hello w\"orld"}}),
        _pi_line({"type": "message_end", "message": {"role": "assistant", "content": [], "stopReason": "stop",
                                                     "usage": {"input": 5, "output": 2}}}),
    ]
    outputs = []
    for parse in (json.loads, parse_record):
        adapter = PiStreamAdapter()
        adapter.start_turn(0.0)
        outputs.append([repr(event) for line in lines for event in adapter.adapt(parse(line), 1.0)])
    assert outputs[0] == outputs[1]
    assert any("Hello " in event for event in outputs[1])
