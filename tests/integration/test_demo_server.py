"""The scripted model server over real HTTP (httpx), one test per reply kind."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cherry_desktop.demo import (
    HangReply,
    ModelRequest,
    Reply,
    ScriptedModelServer,
    StreamErrorReply,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
    build_cli_env,
    demo_script,
    http_error,
    slow_text,
    text,
    thinking,
    tool_use,
)

TOOLS = [{"name": "Bash", "description": "run", "input_schema": {"type": "object"}}]


def body(prompt: str = "hi", *, stream: bool = True, tools: bool = True, **extra: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "model": "claude-test",
        "max_tokens": 1024,
        "stream": stream,
        "messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}],
        **extra,
    }
    if tools:
        payload["tools"] = TOOLS
    return payload


def parse_sse(raw: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for frame in raw.split("\n\n"):
        if not frame.strip():
            continue
        name = data = ""
        for line in frame.split("\n"):
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        events.append((name, json.loads(data)))
    return events


@pytest.fixture
def server(model_server: ScriptedModelServer) -> ScriptedModelServer:
    return model_server


@pytest.fixture
async def client(server: ScriptedModelServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=5) as c:
        yield c


async def stream_events(client: httpx.AsyncClient, payload: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    response = await client.post("/v1/messages?beta=true", json=payload)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/event-stream"
    return parse_sse(response.text)


async def test_root_and_unknown_routes(client: httpx.AsyncClient) -> None:
    assert (await client.head("/")).status_code == 200
    assert (await client.get("/")).status_code == 200
    missing = await client.get("/v1/files")
    assert missing.status_code == 404
    assert missing.json()["type"] == "error"
    # The OpenAI-compatible side lists the demo's models.
    models = await client.get("/v1/models")
    assert [m["id"] for m in models.json()["data"]] == ["claude-demo", "claude-demo-fast"]


async def test_count_tokens(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/messages/count_tokens", json=body("x" * 400, stream=False))
    assert response.status_code == 200
    assert response.json()["input_tokens"] >= 100


async def test_text_stream_has_every_anthropic_event(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(text("Hello there, streaming world", chunk_size=5))
    events = await stream_events(client, body())
    names = [name for name, _ in events]
    assert names[0] == "message_start"
    assert "ping" in names
    assert names[-2:] == ["message_delta", "message_stop"]
    deltas = [d["delta"]["text"] for n, d in events if n == "content_block_delta"]
    assert "".join(deltas) == "Hello there, streaming world"
    assert len(deltas) == 6
    message_delta = events[-2][1]
    assert message_delta["delta"]["stop_reason"] == "end_turn"
    assert message_delta["usage"]["output_tokens"] > 0


async def test_non_streaming_message(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(text("whole"))
    response = await client.post("/v1/messages", json=body(stream=False))
    message = response.json()
    assert message["type"] == "message"
    assert message["content"] == [{"type": "text", "text": "whole"}]
    assert message["stop_reason"] == "end_turn"


async def test_tool_use_streams_input_json(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(tool_use("Bash", {"command": "ls -la /tmp", "description": "list"}, preamble="Looking."))
    events = await stream_events(client, body())
    starts = [d["content_block"] for n, d in events if n == "content_block_start"]
    assert [b["type"] for b in starts] == ["text", "tool_use"]
    assert starts[1]["name"] == "Bash"
    assert starts[1]["id"].startswith("toolu_")
    partial = "".join(d["delta"]["partial_json"] for n, d in events if n == "content_block_delta" and d["index"] == 1)
    assert json.loads(partial) == {"command": "ls -la /tmp", "description": "list"}
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"


async def test_tool_use_ids_are_unique_per_reply() -> None:
    first, second = tool_use("Bash", {}), tool_use("Bash", {})
    assert isinstance(first.blocks[0], ToolUseBlock)
    assert isinstance(second.blocks[0], ToolUseBlock)
    assert first.blocks[0].id != second.blocks[0].id


async def test_thinking_has_thinking_and_signature_deltas(
    server: ScriptedModelServer, client: httpx.AsyncClient
) -> None:
    server.enqueue(thinking("Let me consider this.", "Answer."))
    events = await stream_events(client, body())
    delta_types = [d["delta"]["type"] for n, d in events if n == "content_block_delta"]
    assert "thinking_delta" in delta_types
    assert delta_types.index("signature_delta") < delta_types.index("text_delta")
    starts = [d["content_block"]["type"] for n, d in events if n == "content_block_start"]
    assert starts == ["thinking", "text"]


async def test_slow_text_pauses_between_deltas(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(slow_text("abcdefgh", delay_s=0.05, chunk_size=2))
    arrivals: list[float] = []
    loop = asyncio.get_running_loop()
    async with client.stream("POST", "/v1/messages", json=body()) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: ") and '"text_delta"' in line:
                arrivals.append(loop.time())
    assert len(arrivals) == 4
    # Deltas arrive spread out, not in one burst (4 deltas, 50 ms before each).
    assert arrivals[-1] - arrivals[0] >= 0.1


@pytest.mark.parametrize(
    ("status", "error_type"), [(500, "api_error"), (529, "overloaded_error"), (401, "authentication_error")]
)
async def test_http_errors(
    server: ScriptedModelServer, client: httpx.AsyncClient, status: int, error_type: str
) -> None:
    server.enqueue(http_error(status))
    response = await client.post("/v1/messages", json=body())
    assert response.status_code == status
    assert response.json() == {"type": "error", "error": {"type": error_type, "message": error_type}}


async def test_mid_stream_error_event(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(StreamErrorReply(text_before="partial", error_type="overloaded_error", message="busy"))
    events = await stream_events(client, body())
    assert events[0][0] == "message_start"
    assert ("error", {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}) in events
    assert "message_stop" not in [n for n, _ in events]


async def test_hang_ends_only_when_server_stops(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(HangReply())
    pending = asyncio.ensure_future(client.post("/v1/messages", json=body()))
    await server.wait_for_requests(1)
    await asyncio.sleep(0.2)
    assert not pending.done()
    await server.stop()
    with pytest.raises(httpx.HTTPError):
        await pending


async def test_script_order_then_default(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.default = text("default")
    server.enqueue(text("one"), lambda req: text(f"echo {req.last_user_text()}"))
    answers = []
    for prompt in ("a", "b", "c"):
        message = (await client.post("/v1/messages", json=body(prompt, stream=False))).json()
        answers.append(message["content"][0]["text"])
    assert answers == ["one", "echo b", "default"]


async def test_side_requests_do_not_consume_script(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(text("for the agent loop"))
    side = (await client.post("/v1/messages", json=body("Generate a title", stream=False, tools=False))).json()
    assert "title" in side["content"][0]["text"]
    main = (await client.post("/v1/messages", json=body(stream=False))).json()
    assert main["content"][0]["text"] == "for the agent loop"
    assert len(server.requests_for_model_turns()) == 1
    assert len(server.message_requests()) == 2


async def test_rule_answers_matching_requests(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    server.enqueue(text("scripted"))
    server.add_rule(ModelRequest.has_tool_result, text("after tool"))
    payload = body(stream=False)
    payload["messages"].append(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}
    )
    payload["messages"].append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "out"}]}
    )
    ruled = (await client.post("/v1/messages", json=payload)).json()
    assert ruled["content"][0]["text"] == "after tool"
    assert server.pending_replies == 1


async def test_log_redacts_credentials_and_keeps_body(server: ScriptedModelServer, client: httpx.AsyncClient) -> None:
    await client.post(
        "/v1/messages?beta=true",
        json=body("remember me", stream=False, system=[{"type": "text", "text": "SYSTEM X"}]),
        headers={"x-api-key": "secret", "authorization": "Bearer secret", "anthropic-version": "2023-06-01"},
    )
    request = server.requests[-1]
    assert "x-api-key" not in request.headers
    assert "authorization" not in request.headers
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.query == "beta=true"
    assert request.system_text == "SYSTEM X"
    assert server.last_user_text() == "remember me"


async def test_chunked_request_body_and_keep_alive(server: ScriptedModelServer) -> None:
    server.enqueue(text("first"), text("second"))
    reader, writer = await asyncio.open_connection("127.0.0.1", int(server.base_url.rsplit(":", 1)[1]))
    payload = json.dumps(body(stream=False)).encode()
    half = len(payload) // 2
    chunked = f"{half:x}\r\n".encode() + payload[:half] + f"\r\n{len(payload) - half:x}\r\n".encode()
    chunked += payload[half:] + b"\r\n0\r\n\r\n"
    head = (
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    answers = []
    for _ in range(2):  # two requests on the same connection
        writer.write(head + chunked)
        await writer.drain()
        status_head = await reader.readuntil(b"\r\n\r\n")
        assert status_head.startswith(b"HTTP/1.1 200")
        length = int(
            next(
                line.split(b":")[1] for line in status_head.split(b"\r\n") if line.lower().startswith(b"content-length")
            )
        )
        answers.append(json.loads(await reader.readexactly(length))["content"][0]["text"])
    writer.close()
    assert answers == ["first", "second"]


async def test_demo_script_loops(tmp_path: Path) -> None:
    script = demo_script(tmp_path, delay_s=0)
    first = ModelRequest("POST", "/v1/messages", "", {}, body("make a note"))
    reply = script(first)
    assert isinstance(reply, Reply)
    assert [type(b) for b in reply.blocks] == [TextBlock, ToolUseBlock]
    tool = reply.blocks[1]
    assert isinstance(tool, ToolUseBlock)
    assert tool.name == "Write"
    assert tool.input["file_path"].startswith(str(tmp_path))
    after = body()
    after["messages"] += [
        {"role": "assistant", "content": [{"type": "tool_use", "id": tool.id, "name": "Write", "input": tool.input}]},
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": tool.id,
                    "content": "ok\n<system-reminder>\nPlease use French\n</system-reminder>",
                }
            ],
        },
    ]
    final = script(ModelRequest("POST", "/v1/messages", "", {}, after))
    assert isinstance(final, Reply)
    assert isinstance(final.blocks[0], TextBlock)
    assert "Please use French" in final.blocks[0].text
    # A later turn starts the loop over with a new note.
    later = body()
    later["messages"] = after["messages"] + [
        {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
        {"role": "user", "content": [{"type": "text", "text": "again"}]},
    ]
    again = script(ModelRequest("POST", "/v1/messages", "", {}, later))
    assert isinstance(again, Reply)
    second_tool = again.blocks[-1]
    assert isinstance(second_tool, ToolUseBlock)
    assert second_tool.input["file_path"].endswith("note-2.md")


def test_thinking_block_shape() -> None:
    reply = thinking("hmm", "yes")
    assert isinstance(reply.blocks[0], ThinkingBlock)
    assert reply.effective_stop_reason == "end_turn"


def test_cli_env(tmp_path: Path) -> None:
    env = build_cli_env("http://127.0.0.1:1", home=tmp_path, no_retries=True)
    assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:1"
    assert env["HOME"] == str(tmp_path)
    assert env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == "1"
    assert env["CLAUDE_CODE_MAX_RETRIES"] == "0"
    assert "CLAUDE_CODE_MAX_RETRIES" not in build_cli_env("http://x")
