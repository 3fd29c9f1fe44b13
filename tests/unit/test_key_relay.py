"""`KeyRelay` against the scripted model server (a real HTTP upstream on 127.0.0.1): the child's
token is swapped for the real key on the way, a streamed reply comes back whole, a wrong or
missing token never reaches the provider, and a stopped relay answers nothing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator

import httpx
import pytest

from cherry_desktop.core.net.key_relay import KeyRelay
from cherry_desktop.demo import ScriptedModelServer, text

REAL_KEY = "sk-the-users-real-key"


def sha(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


@pytest.fixture
async def upstream() -> AsyncIterator[ScriptedModelServer]:
    async with ScriptedModelServer() as server:
        yield server


#: A tool offered: the scripted server answers a model turn from its script (else with "ok").
TOOLS = [{"name": "noop", "description": "does nothing", "input_schema": {"type": "object", "properties": {}}}]


def messages_body() -> dict[str, object]:
    return {"model": "claude-demo", "max_tokens": 64, "stream": True, "tools": TOOLS,
            "messages": [{"role": "user", "content": "hello"}]}


async def test_a_streamed_anthropic_request_goes_out_with_the_real_key(upstream: ScriptedModelServer) -> None:
    upstream.enqueue(text("Hello through the relay."))
    relay = KeyRelay(upstream.base_url, REAL_KEY, "anthropic")
    base = await relay.start()
    try:
        assert base.startswith("http://127.0.0.1:") and REAL_KEY not in base and relay.token != REAL_KEY
        async with httpx.AsyncClient() as client:
            async with client.stream("POST", f"{base}/v1/messages", json=messages_body(),
                                     headers={"x-api-key": relay.token, "anthropic-version": "2023-06-01"}) as reply:
                assert reply.status_code == 200
                assert reply.headers["content-type"].startswith("text/event-stream")
                events = [line async for line in reply.aiter_lines() if line.startswith("data: ")]
        deltas = [json.loads(line[6:]) for line in events]
        streamed = "".join(e["delta"].get("text", "") for e in deltas if e.get("type") == "content_block_delta")
        assert streamed == "Hello through the relay."
        (seen,) = upstream.message_requests()
        assert seen.key_sha256 == sha(REAL_KEY)  # the provider got the key, not the token
        assert seen.headers.get("anthropic-version") == "2023-06-01"  # the child's own headers go on
    finally:
        await relay.stop()


async def test_an_openai_request_gets_a_bearer_key_and_the_base_paths_line_up(upstream: ScriptedModelServer) -> None:
    upstream.enqueue(text("openai side"))
    relay = KeyRelay(upstream.base_url + "/v1", REAL_KEY, "openai")
    base = await relay.start()
    try:
        assert base.endswith("/v1")
        body = {"model": "claude-demo", "stream": False, "messages": [{"role": "user", "content": "hi"}],
                "tools": [{"type": "function", "function": {"name": "noop", "parameters": {"type": "object"}}}]}
        async with httpx.AsyncClient() as client:
            reply = await client.post(f"{base}/chat/completions", headers={"authorization": f"Bearer {relay.token}"},
                                      json=body)
        assert reply.status_code == 200, reply.text
        assert "openai side" in reply.text
        seen = upstream.requests[-1]
        assert seen.path == "/v1/chat/completions" and seen.key_sha256 == sha(REAL_KEY)
    finally:
        await relay.stop()


async def test_a_wrong_or_missing_token_never_reaches_the_provider(upstream: ScriptedModelServer) -> None:
    relay = KeyRelay(upstream.base_url, REAL_KEY, "anthropic")
    base = await relay.start()
    try:
        async with httpx.AsyncClient() as client:
            for headers in ({}, {"x-api-key": "cherry-relay-guessed"}, {"x-api-key": REAL_KEY},
                            {"authorization": "Bearer nope"}):
                reply = await client.post(f"{base}/v1/messages", json=messages_body(), headers=headers)
                assert reply.status_code == 401
        assert upstream.requests == []
    finally:
        await relay.stop()


async def test_a_stopped_relay_answers_nothing_and_an_unreachable_provider_is_a_502() -> None:
    relay = KeyRelay("http://127.0.0.1:9", REAL_KEY, "anthropic")  # the discard port: nothing listens
    base = await relay.start()
    async with httpx.AsyncClient() as client:
        reply = await client.post(f"{base}/v1/messages", json=messages_body(), headers={"x-api-key": relay.token})
        assert reply.status_code == 502 and "could not be reached" in reply.text
        await relay.stop()
        assert not relay.running and relay.child_base_url == ""
        with pytest.raises(httpx.ConnectError):
            await client.post(f"{base}/v1/messages", json=messages_body(), headers={"x-api-key": relay.token})


def test_only_http_upstreams_are_taken() -> None:
    with pytest.raises(ValueError):
        KeyRelay("file:///etc/passwd", REAL_KEY, "openai")
