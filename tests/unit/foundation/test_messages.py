from __future__ import annotations

import pytest
from pydantic import ValidationError

from cherry_desktop.core.messages import (
    DataChunk,
    DataPart,
    FinishChunk,
    ReasoningDeltaChunk,
    ReasoningPart,
    StartChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextPart,
    TextStartChunk,
    ToolPart,
    UIMessage,
    UIMessageAccumulator,
    parse_chunk,
    parse_part,
    read_ui_message_stream,
)


def test_parse_every_chunk_type() -> None:
    raw = [
        {"type": "start", "message_id": "m"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "x"},
        {"type": "text-end", "id": "t"},
        {"type": "reasoning-start", "id": "r"},
        {"type": "reasoning-delta", "id": "r", "delta": "y"},
        {"type": "reasoning-end", "id": "r"},
        {"type": "tool-input-start", "tool_call_id": "c", "tool_name": "Bash"},
        {"type": "tool-input-delta", "tool_call_id": "c", "input_text_delta": "{"},
        {"type": "tool-input-available", "tool_call_id": "c", "tool_name": "Bash", "input": {}},
        {"type": "tool-output-available", "tool_call_id": "c", "output": 1},
        {"type": "tool-output-error", "tool_call_id": "c", "error_text": "e"},
        {"type": "tool-output-denied", "tool_call_id": "c"},
        {"type": "tool-approval-request", "approval_id": "a", "tool_call_id": "c"},
        {"type": "message-metadata", "message_metadata": {"k": 1}},
        {"type": "finish", "finish_reason": "stop"},
        {"type": "error", "error_text": "bad"},
        {"type": "data-usage", "data": {"n": 1}},
    ]
    for item in raw:
        chunk = parse_chunk(item)
        assert chunk.type == item["type"]
    assert isinstance(parse_chunk({"type": "data-x", "data": 2}), DataChunk)
    with pytest.raises(ValidationError):
        parse_chunk({"type": "text-delta", "id": "t"})  # no delta


def test_parts_round_trip_through_json() -> None:
    msg = UIMessage(role="assistant", parts=[
        TextPart(text="hi"), ReasoningPart(text="hmm"),
        ToolPart(tool_call_id="c", tool_name="Read", state="output-available", output="ok"),
        DataPart(type="data-error", data={"message": "boom"}),
    ])
    back = UIMessage.model_validate_json(msg.model_dump_json())
    assert back == msg
    assert isinstance(parse_part({"type": "tool-Read", "tool_call_id": "c", "tool_name": "Read"}), ToolPart)
    assert isinstance(parse_part({"type": "data-foo", "data": 1}), DataPart)


def test_accumulator_folds_text_reasoning_tools_metadata_and_data() -> None:
    acc = UIMessageAccumulator(message_id="placeholder")
    chunks = [
        {"type": "start", "message_id": "m1", "message_metadata": {"model": "x"}},
        {"type": "reasoning-start", "id": "r"},
        {"type": "reasoning-delta", "id": "r", "delta": "think "},
        {"type": "reasoning-delta", "id": "r", "delta": "more"},
        {"type": "reasoning-end", "id": "r"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "Hel"},
        {"type": "text-delta", "id": "t", "delta": "lo"},
        {"type": "text-end", "id": "t"},
        {"type": "tool-input-start", "tool_call_id": "c1", "tool_name": "Bash"},
        {"type": "tool-input-delta", "tool_call_id": "c1", "input_text_delta": '{"command":'},
        {"type": "tool-input-available", "tool_call_id": "c1", "tool_name": "Bash", "input": {"command": "ls"}},
        {"type": "tool-output-available", "tool_call_id": "c1", "output": "a.txt", "duration_ms": 12},
        {"type": "tool-input-available", "tool_call_id": "c2", "tool_name": "Write", "input": {}},
        {"type": "tool-output-denied", "tool_call_id": "c2", "reason": "user said no"},
        {"type": "tool-input-available", "tool_call_id": "c3", "tool_name": "Read", "input": {}},
        {"type": "tool-output-error", "tool_call_id": "c3", "error_text": "no such file"},
        {"type": "data-progress", "id": "p", "data": 1},
        {"type": "data-progress", "id": "p", "data": 2},
        {"type": "data-tick", "data": 0, "transient": True},
        {"type": "finish", "finish_reason": "stop", "message_metadata": {"usage": {"total_tokens": 9}}},
    ]
    for c in chunks:
        acc.apply(parse_chunk(c))
    msg = acc.snapshot()
    assert msg.id == "m1"
    assert msg.metadata == {"model": "x", "usage": {"total_tokens": 9}}
    kinds = [p.type for p in msg.parts]
    assert kinds == ["reasoning", "text", "dynamic-tool", "dynamic-tool", "dynamic-tool", "data-progress"]
    assert msg.parts[0].text == "think more" and msg.parts[0].state == "done"  # type: ignore[union-attr]
    assert msg.text() == "Hello"
    bash, write, read = msg.parts[2], msg.parts[3], msg.parts[4]
    assert isinstance(bash, ToolPart) and bash.state == "output-available" and bash.output == "a.txt"
    assert bash.input == {"command": "ls"} and bash.duration_ms == 12
    assert isinstance(write, ToolPart) and write.state == "output-denied"
    assert isinstance(read, ToolPart) and read.state == "output-error" and read.error_text == "no such file"
    assert msg.parts[5].data == 2  # type: ignore[union-attr]
    assert acc.finish_reason == "stop"


def test_accumulator_records_error_and_tolerates_deltas_without_start() -> None:
    acc = UIMessageAccumulator()
    acc.apply(TextDeltaChunk(id="t", delta="part"))
    acc.apply(ReasoningDeltaChunk(id="r", delta="why"))
    acc.apply(parse_chunk({"type": "error", "error_text": "upstream 500"}))
    msg = acc.snapshot()
    assert msg.text() == "part"
    assert acc.error_text == "upstream 500"
    assert msg.parts[0].state == "streaming"  # type: ignore[union-attr]


def test_accumulator_on_a_long_stream_keeps_every_delta() -> None:
    acc = UIMessageAccumulator()
    acc.apply(TextStartChunk(id="t"))
    n = 100_000
    for i in range(n):
        acc.apply(TextDeltaChunk.model_construct(type="text-delta", id="t", delta=str(i % 10)))
    acc.apply(TextEndChunk(id="t"))
    text = acc.snapshot().text()
    assert len(text) == n
    assert text[:12] == "012345678901"
    # A second snapshot sees the same text (the joined pieces are kept, not consumed).
    assert acc.snapshot().text() == text


async def test_read_ui_message_stream_yields_snapshots() -> None:
    async def source():
        yield StartChunk(message_id="m")
        yield TextStartChunk(id="t")
        yield TextDeltaChunk(id="t", delta="a")
        yield TextDeltaChunk(id="t", delta="b")
        yield FinishChunk()

    texts = [m.text() async for m in read_ui_message_stream(source())]
    assert texts == ["", "", "a", "ab", "ab"]
