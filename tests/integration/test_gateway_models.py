"""The gateway's model routes called by a real HTTP client (httpx), in front of the scripted
model server speaking Anthropic Messages and OpenAI chat completions (both kinds of upstream)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from cherry_desktop.core.ai.providers import SseDecoder
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.gateway import ApiGateway, GatewayKeyCheck, PortInUseError
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from cherry_desktop.demo import HangReply, ScriptedModelServer, StreamErrorReply, http_error, text, thinking, tool_use
from tests.integration.conftest import GATEWAY_KEY as KEY


@pytest.fixture
async def client(gateway: ApiGateway) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=gateway.base_url, headers={"x-api-key": KEY}, timeout=10) as c:
        yield c


def anthropic_body(model: str, text_: str = "Hello", **extra: Any) -> dict[str, Any]:
    return {"model": model, "max_tokens": 100, "messages": [{"role": "user", "content": text_}], **extra}


def openai_body(model: str, text_: str = "Hello", **extra: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": text_}], **extra}


def events(raw: str) -> list[tuple[str, Any]]:
    decoder = SseDecoder()
    out = []
    for ev in [*decoder.feed(raw), *decoder.flush()]:
        out.append((ev.event, ev.data if ev.data == "[DONE]" else json.loads(ev.data)))
    return out


def anthropic_text(evs: list[tuple[str, Any]]) -> str:
    return "".join(d["delta"].get("text", "") for name, d in evs if name == "content_block_delta")


def openai_text(evs: list[tuple[str, Any]]) -> str:
    return "".join((c["delta"].get("content") or "") for _, d in evs if d != "[DONE]" and "choices" in d
                   for c in d["choices"])


@pytest.mark.parametrize("model", ["anth:m1", "oai:m1"])
async def test_messages_stream_text_from_either_upstream(client: httpx.AsyncClient, upstream: ScriptedModelServer,
                                                         model: str) -> None:
    upstream.enqueue(text("Hello from the upstream."))
    response = await client.post("/v1/messages", json=anthropic_body(model, stream=True))
    assert response.status_code == 200
    evs = events(response.text)
    names = [name for name, _ in evs if name != "ping"]
    assert names[0] == "message_start" and names[-2:] == ["message_delta", "message_stop"]
    assert anthropic_text(evs) == "Hello from the upstream."
    delta = next(d for name, d in evs if name == "message_delta")
    assert delta["delta"]["stop_reason"] == "end_turn"
    assert delta["usage"]["output_tokens"] > 0
    sent = upstream.requests[-1]
    assert sent.path == ("/v1/messages" if model.startswith("anth") else "/v1/chat/completions")
    assert sent.json["model"] == "m1"


@pytest.mark.parametrize("model", ["anth:m1", "oai:m1"])
async def test_chat_completions_stream_text_from_either_upstream(client: httpx.AsyncClient,
                                                                 upstream: ScriptedModelServer, model: str) -> None:
    upstream.enqueue(thinking("Let me think.", "Hi there."))
    body = openai_body(model, stream=True, stream_options={"include_usage": True})
    response = await client.post("/v1/chat/completions", json=body, headers={"authorization": f"Bearer {KEY}"})
    assert response.status_code == 200
    evs = events(response.text)
    assert evs[-1][1] == "[DONE]"
    assert openai_text(evs) == "Hi there."
    reasoning = "".join((c["delta"].get("reasoning_content") or "") for _, d in evs[:-1] for c in d["choices"])
    assert reasoning == "Let me think."
    finishes = [c["finish_reason"] for _, d in evs[:-1] for c in d["choices"] if c["finish_reason"]]
    assert finishes == ["stop"]
    usage = [d["usage"] for _, d in evs[:-1] if d.get("usage")]
    assert usage and usage[-1]["completion_tokens"] > 0


@pytest.mark.parametrize("model", ["anth:m1", "oai:m1"])
async def test_tool_call_streams_its_arguments_both_ways(client: httpx.AsyncClient, upstream: ScriptedModelServer,
                                                         model: str) -> None:
    tools = [{"name": "Write", "description": "write a file",
              "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]
    upstream.enqueue(tool_use("Write", {"path": "/tmp/x.md", "content": "hi"}, preamble="Writing."))
    response = await client.post("/v1/messages", json=anthropic_body(model, stream=True, tools=tools))
    evs = events(response.text)
    start = next(d for name, d in evs if name == "content_block_start" and d["content_block"]["type"] == "tool_use")
    assert start["content_block"]["name"] == "Write"
    args = "".join(d["delta"]["partial_json"] for name, d in evs
                   if name == "content_block_delta" and d["delta"]["type"] == "input_json_delta")
    assert json.loads(args) == {"path": "/tmp/x.md", "content": "hi"}
    assert next(d for name, d in evs if name == "message_delta")["delta"]["stop_reason"] == "tool_use"
    # The upstream saw the tool definition in its own dialect.
    assert upstream.requests[-1].tool_names == ["Write"]

    # The tool result goes back, and the OpenAI side of the same call streams too.
    upstream.enqueue(text("Done."))
    history = [{"role": "user", "content": "write it"},
               {"role": "assistant", "content": [{"type": "tool_use", "id": start["content_block"]["id"],
                                                  "name": "Write", "input": {"path": "/tmp/x.md"}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": start["content_block"]["id"],
                                             "content": "written"}]}]
    response = await client.post("/v1/messages", json={"model": model, "max_tokens": 50, "stream": True,
                                                       "tools": tools, "messages": history})
    assert anthropic_text(events(response.text)) == "Done."
    sent = upstream.requests[-1]
    assert sent.tool_results()[0]["tool_use_id"] == start["content_block"]["id"]
    assert "written" in sent.last_user_text()


@pytest.mark.parametrize("model", ["anth:m1", "oai:m1"])
async def test_whole_replies_both_routes(client: httpx.AsyncClient, upstream: ScriptedModelServer,
                                         model: str) -> None:
    upstream.enqueue(text("Whole answer."), text("Whole answer."))
    message = (await client.post("/v1/messages", json=anthropic_body(model))).json()
    assert message["content"] == [{"type": "text", "text": "Whole answer."}]
    assert message["stop_reason"] == "end_turn" and message["model"] == model
    completion = (await client.post("/v1/chat/completions", json=openai_body(model))).json()
    assert completion["choices"][0]["message"]["content"] == "Whole answer."
    assert completion["choices"][0]["finish_reason"] == "stop"
    assert completion["usage"]["completion_tokens"] > 0


@pytest.mark.parametrize("model", ["anth:m1", "oai:m1"])
async def test_upstream_error_before_the_first_chunk_is_a_real_status(client: httpx.AsyncClient,
                                                                      upstream: ScriptedModelServer,
                                                                      model: str) -> None:
    upstream.enqueue(http_error(529, "overloaded now"), http_error(429, "slow down"))
    response = await client.post("/v1/messages", json=anthropic_body(model, stream=True))
    assert response.status_code == 529
    assert response.json()["type"] == "error" and "overloaded now" in response.json()["error"]["message"]
    response = await client.post("/v1/chat/completions", json=openai_body(model, stream=True))
    assert response.status_code == 429
    assert "slow down" in response.json()["error"]["message"]


@pytest.mark.parametrize("model", ["anth:m1", "oai:m1"])
async def test_failure_after_the_first_chunk_is_an_error_frame_in_the_callers_dialect(
        client: httpx.AsyncClient, upstream: ScriptedModelServer, model: str) -> None:
    upstream.enqueue(StreamErrorReply(text_before="Partial", message="went away"),
                     StreamErrorReply(text_before="Partial", message="went away"))
    response = await client.post("/v1/messages", json=anthropic_body(model, stream=True))
    assert response.status_code == 200
    evs = events(response.text)
    assert anthropic_text(evs) == "Partial"
    assert evs[-1][0] == "error" and "went away" in evs[-1][1]["error"]["message"]
    response = await client.post("/v1/chat/completions", json=openai_body(model, stream=True))
    evs = events(response.text)
    assert openai_text(evs) == "Partial"
    assert "went away" in evs[-1][1]["error"]["message"]


async def test_caller_disconnect_aborts_the_upstream_request(client: httpx.AsyncClient,
                                                             upstream: ScriptedModelServer) -> None:
    # The upstream hangs after its first words; the caller reads them and goes away.
    upstream.enqueue(HangReply(text_before="Hello"))
    async with client.stream("POST", "/v1/chat/completions", json=openai_body("oai:m1", stream=True)) as response:
        async for line in response.aiter_lines():
            if "Hello" in line:
                break
    # The gateway's request to the upstream ends: the upstream server has no open connection.
    for _ in range(100):
        if not upstream.open_connections:
            break
        await asyncio.sleep(0.02)
    assert upstream.open_connections == 0


async def test_caller_disconnect_before_the_first_chunk_aborts_too(gateway: ApiGateway,
                                                                  upstream: ScriptedModelServer) -> None:
    upstream.enqueue(HangReply())
    async with httpx.AsyncClient(base_url=gateway.base_url, headers={"x-api-key": KEY}) as c:
        task = asyncio.ensure_future(c.post("/v1/messages", json=anthropic_body("anth:m1", stream=True)))
        for _ in range(100):
            if upstream.open_connections:
                break
            await asyncio.sleep(0.02)
        assert upstream.open_connections == 1
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    for _ in range(100):
        if not upstream.open_connections:
            break
        await asyncio.sleep(0.02)
    assert upstream.open_connections == 0


async def test_models_and_count_tokens(client: httpx.AsyncClient) -> None:
    models = (await client.get("/v1/models")).json()
    assert {m["id"] for m in models["data"]} == {"anth:m1", "oai:m1"}
    counted = await client.post("/v1/messages/count_tokens", json=anthropic_body("oai:m1", "x" * 400))
    assert counted.json()["input_tokens"] >= 100
    counted = await client.post("/v1/messages/count_tokens", json=anthropic_body("anth:m1", "x" * 400))
    assert counted.json()["input_tokens"] >= 100


async def test_models_of_a_provider_without_its_key_are_not_listed(client: httpx.AsyncClient,
                                                                   repos: Repositories) -> None:
    """A client picking from GET /v1/models never gets a model that can only fail for want of
    a key; it is listed once the key is stored."""
    repos.providers.upsert_provider(id="remote", name="Remote", type="anthropic", base_url="https://api.example.com")
    repos.providers.upsert_model(provider_id="remote", model_id="big", name="Big")

    async def listed() -> set[str]:
        return {m["id"] for m in (await client.get("/v1/models")).json()["data"]}

    assert await listed() == {"anth:m1", "oai:m1"}
    CredentialStore().set(provider_key_name("remote"), "sk-remote")
    assert await listed() == {"anth:m1", "oai:m1", "remote:big"}


@pytest.mark.parametrize("headers", [{}, {"x-api-key": "cs-sk-wrong"}, {"authorization": "Bearer nope"},
                                     {"authorization": KEY}])
async def test_no_or_wrong_key_is_401_and_reaches_no_upstream(gateway: ApiGateway, upstream: ScriptedModelServer,
                                                             headers: dict[str, str]) -> None:
    async with httpx.AsyncClient(base_url=gateway.base_url, headers=headers) as c:
        anthropic = await c.post("/v1/messages", json=anthropic_body("anth:m1"))
        openai = await c.post("/v1/chat/completions", json=openai_body("oai:m1"))
        models = await c.get("/v1/models")
    assert anthropic.status_code == openai.status_code == models.status_code == 401
    assert anthropic.json()["error"]["type"] == "authentication_error"
    assert openai.json()["error"]["type"] == "authentication_error"
    assert upstream.requests == []


async def test_unknown_model_and_bad_body(client: httpx.AsyncClient) -> None:
    missing = await client.post("/v1/messages", json=anthropic_body("nope:m1"))
    assert missing.status_code == 404 and missing.json()["type"] == "error"
    bad = await client.post("/v1/chat/completions", json=openai_body("m1-without-provider"))
    assert bad.status_code == 400 and "provider_id:model_id" in bad.json()["error"]["message"]
    junk = await client.post("/v1/messages", content=b"{not json", headers={"content-type": "application/json"})
    assert junk.status_code == 400


async def test_a_port_in_use_is_a_typed_error(repos: Repositories, gateway: ApiGateway) -> None:
    second = ApiGateway(repos, CredentialStore(), GatewayKeyCheck(fixed_key=KEY), port=gateway.port)
    with pytest.raises(PortInUseError) as caught:
        await second.start()
    assert caught.value.port == gateway.port
    assert "already in use" in str(caught.value)
    await second.stop()
