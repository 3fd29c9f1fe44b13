"""The gateway called by the official `openai` and `anthropic` Python SDKs, as a person's script
would, in front of both kinds of upstream: streams, tool calls, whole replies, the model list,
and errors arriving as the SDKs' own typed exceptions."""

from __future__ import annotations

import anthropic
import openai
import pytest

from cherry_desktop.core.gateway import ApiGateway
from cherry_desktop.demo import ScriptedModelServer, http_error, text, tool_use
from tests.integration.conftest import GATEWAY_KEY

MODELS = ["anth:m1", "oai:m1"]
WRITE_TOOL_OPENAI = {"type": "function", "function": {
    "name": "Write", "description": "write a file",
    "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}
WRITE_TOOL_ANTHROPIC = {"name": "Write", "description": "write a file",
                        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}


def openai_client(gateway: ApiGateway, key: str = GATEWAY_KEY) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=gateway.base_url + "/v1", api_key=key, max_retries=0, timeout=10)


def anthropic_client(gateway: ApiGateway, key: str = GATEWAY_KEY) -> anthropic.AsyncAnthropic:
    return anthropic.AsyncAnthropic(base_url=gateway.base_url, api_key=key, max_retries=0, timeout=10)


@pytest.mark.parametrize("model", MODELS)
async def test_openai_sdk_streams_text_and_usage(gateway: ApiGateway, upstream: ScriptedModelServer,
                                                 model: str) -> None:
    upstream.enqueue(text("Hello from the upstream, through the gateway."))
    async with openai_client(gateway) as client:
        stream = await client.chat.completions.create(
            model=model, messages=[{"role": "user", "content": "Hi"}], stream=True,
            stream_options={"include_usage": True})
        chunks = [chunk async for chunk in stream]
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == (
        "Hello from the upstream, through the gateway.")
    assert [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason] == ["stop"]
    usage = [c.usage for c in chunks if c.usage]
    assert usage and usage[-1].completion_tokens > 0


@pytest.mark.parametrize("model", MODELS)
async def test_openai_sdk_tool_call_and_whole_reply(gateway: ApiGateway, upstream: ScriptedModelServer,
                                                    model: str) -> None:
    upstream.enqueue(tool_use("Write", {"path": "/tmp/a.md"}), text("Written."))
    async with openai_client(gateway) as client:
        first = await client.chat.completions.create(
            model=model, messages=[{"role": "user", "content": "write it"}], tools=[WRITE_TOOL_OPENAI])
        call = first.choices[0].message.tool_calls[0]
        assert first.choices[0].finish_reason == "tool_calls"
        assert call.function.name == "Write" and call.function.arguments.replace(" ", "") == '{"path":"/tmp/a.md"}'
        second = await client.chat.completions.create(model=model, tools=[WRITE_TOOL_OPENAI], messages=[
            {"role": "user", "content": "write it"},
            {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
            {"role": "tool", "tool_call_id": call.id, "content": "written"}])
    assert second.choices[0].message.content == "Written."
    assert upstream.requests[-1].tool_results()[0]["tool_use_id"] == call.id


async def test_openai_sdk_lists_the_gateway_models(gateway: ApiGateway) -> None:
    async with openai_client(gateway) as client:
        ids = {m.id async for m in client.models.list()}
    assert ids == set(MODELS)


@pytest.mark.parametrize("model", MODELS)
async def test_anthropic_sdk_streams_text_and_a_tool_call(gateway: ApiGateway, upstream: ScriptedModelServer,
                                                          model: str) -> None:
    upstream.enqueue(text("Streamed to the Anthropic SDK."),
                     tool_use("Write", {"path": "/tmp/b.md", "content": "hi"}, preamble="Writing."))
    async with anthropic_client(gateway) as client:
        async with client.messages.stream(model=model, max_tokens=100,
                                          messages=[{"role": "user", "content": "Hi"}]) as stream:
            pieces = [piece async for piece in stream.text_stream]
            message = await stream.get_final_message()
        assert "".join(pieces) == "Streamed to the Anthropic SDK."
        assert message.stop_reason == "end_turn" and message.usage.output_tokens > 0
        async with client.messages.stream(model=model, max_tokens=100, tools=[WRITE_TOOL_ANTHROPIC],
                                          messages=[{"role": "user", "content": "write"}]) as stream:
            message = await stream.get_final_message()
    assert message.stop_reason == "tool_use"
    tool = next(block for block in message.content if block.type == "tool_use")
    assert tool.name == "Write" and tool.input == {"path": "/tmp/b.md", "content": "hi"}


@pytest.mark.parametrize("model", MODELS)
async def test_anthropic_sdk_whole_reply_and_count_tokens(gateway: ApiGateway, upstream: ScriptedModelServer,
                                                          model: str) -> None:
    upstream.enqueue(text("A whole answer."))
    async with anthropic_client(gateway) as client:
        message = await client.messages.create(model=model, max_tokens=50,
                                               messages=[{"role": "user", "content": "Hi"}])
        counted = await client.messages.count_tokens(model=model, messages=[{"role": "user", "content": "x" * 400}])
    assert [block.text for block in message.content if block.type == "text"] == ["A whole answer."]
    assert counted.input_tokens >= 100


async def test_upstream_errors_and_a_wrong_key_are_the_sdks_typed_errors(gateway: ApiGateway,
                                                                        upstream: ScriptedModelServer) -> None:
    upstream.enqueue(http_error(429, "slow down"), http_error(529, "overloaded now"))
    async with openai_client(gateway) as client:
        with pytest.raises(openai.RateLimitError, match="slow down"):
            await client.chat.completions.create(model="oai:m1", messages=[{"role": "user", "content": "Hi"}],
                                                 stream=True)
    async with anthropic_client(gateway) as client:
        with pytest.raises(anthropic.APIStatusError, match="overloaded now") as caught:
            await client.messages.create(model="anth:m1", max_tokens=10, stream=True,
                                         messages=[{"role": "user", "content": "Hi"}])
        assert caught.value.status_code == 529
    asked = len(upstream.requests)
    async with openai_client(gateway, key="cs-sk-wrong") as client:
        with pytest.raises(openai.AuthenticationError):
            await client.chat.completions.create(model="oai:m1", messages=[{"role": "user", "content": "Hi"}])
    async with anthropic_client(gateway, key="cs-sk-wrong") as client:
        with pytest.raises(anthropic.AuthenticationError):
            await client.messages.create(model="anth:m1", max_tokens=10, messages=[{"role": "user", "content": "Hi"}])
    assert len(upstream.requests) == asked
