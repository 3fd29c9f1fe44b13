"""Chat providers against scripted OpenAI- and Anthropic-compatible servers on 127.0.0.1
(real HTTP, real SSE), directly and through AiService + AiStreamManager."""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from cherry_desktop.core.ai.providers import SseDecoder
from cherry_desktop.core.ai.service import AiService, ModelResolutionError, RuntimeMetadataRequiredError
from cherry_desktop.core.ai.stream import (
    AbortController,
    AiStreamManager,
    AiStreamOpenRequest,
    AiStreamRequest,
    PersistentChatContextProvider,
    RuntimeMetadata,
    TopicStatusSnapshotEntry,
    dispatch_stream_request,
    user_parts,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import ErrorCode, TextDeltaChunk, UIMessage, UIMessageAccumulator, UIMessageChunk
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from cherry_desktop.demo.bootstrap import demo_provider_settings
from tests.fakes.memory_keyring import MemoryKeyring
from tests.fakes.scripted_provider_server import Reply, ScriptedServer, anthropic_events, openai_delta, sse


@pytest.fixture
async def service(repos: Repositories) -> AsyncIterator[AiService]:
    svc = AiService(repos, CredentialStore())
    try:
        yield svc
    finally:
        await svc.on_stop()


def register(repos: Repositories, base_url: str, *, type: str, key: str | None = "sk-test",
             provider_id: str = "prov") -> str:
    repos.providers.upsert_provider(id=provider_id, name="Scripted", type=type, base_url=base_url)
    if key:
        CredentialStore().set(provider_key_name(provider_id), key)
    return f"{provider_id}::model-x"


def request(model_id: str, text: str = "Hello", **kw: Any) -> AiStreamRequest:
    return AiStreamRequest(model_id=model_id, messages=[UIMessage.user_text(text)], topic_id="topic-1", **kw)


async def collect(stream: AsyncIterator[UIMessageChunk]) -> list[UIMessageChunk]:
    return [c async for c in stream]


def fold(chunks: list[UIMessageChunk]) -> UIMessageAccumulator:
    acc = UIMessageAccumulator()
    for c in chunks:
        acc.apply(c)
    return acc


def errors(chunks: list[UIMessageChunk]) -> list[str]:
    return [c.error_text for c in chunks if c.type == "error"]  # type: ignore[union-attr]


def codes(chunks: list[UIMessageChunk]) -> list[ErrorCode | None]:
    """The stable codes of the error chunks (the UI words these; the text stays the detail)."""
    return [c.error_code for c in chunks if c.type == "error"]  # type: ignore[union-attr]


# -- OpenAI-compatible ----------------------------------------------------------------------


async def test_openai_streams_text_reasoning_and_usage(provider_server: ScriptedServer, service: AiService,
                                                       repos: Repositories) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="openai-compatible")
    usage = {"choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13,
                                      "completion_tokens_details": {"reasoning_tokens": 2}}}
    provider_server.replies.append(Reply(pieces=[
        (0, openai_delta(reasoning="Let me")), (0, openai_delta(reasoning=" think")),
        (0, openai_delta(content="Hel")), (0, openai_delta(content="lo!")),
        (0, openai_delta(finish="stop")), (0, sse(usage)), (0, sse("[DONE]"))]))
    chunks = await collect(await service.stream_text(request(model, system="Be brief")))
    acc = fold(chunks)
    msg = acc.snapshot()
    assert [p.type for p in msg.parts] == ["step-start", "reasoning", "text"]
    assert msg.parts[1].text == "Let me think" and msg.text() == "Hello!"  # type: ignore[union-attr]
    assert msg.metadata["total_tokens"] == 13 and msg.metadata["thoughts_tokens"] == 2
    assert errors(chunks) == []
    got = provider_server.received[0]
    assert got.path == "/v1/chat/completions" and got.headers["authorization"] == "Bearer sk-test"
    assert got.body["model"] == "model-x" and got.body["stream"] is True
    assert got.body["messages"] == [{"role": "system", "content": "Be brief"}, {"role": "user", "content": "Hello"}]


@pytest.mark.parametrize(("status", "body", "expected", "code"), [
    (401, json.dumps({"error": {"message": "Invalid API key", "type": "auth"}}),
     "HTTP 401 Unauthorized: Invalid API key", ErrorCode.AUTH_FAILED),
    (429, json.dumps({"error": {"message": "Slow down"}}), "HTTP 429 Status: Slow down",
     ErrorCode.RATE_LIMITED),
    (500, "upstream exploded", "HTTP 500 Internal Server Error: upstream exploded", ErrorCode.PROVIDER_UNAVAILABLE),
])
async def test_openai_http_errors_become_readable_error_chunks(provider_server: ScriptedServer, service: AiService,
                                                               repos: Repositories, status: int, body: str,
                                                               expected: str, code: ErrorCode) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="openai")
    provider_server.replies.append(Reply(status=status, pieces=[(0, body)], content_type="application/json"))
    chunks = await collect(await service.stream_text(request(model)))
    assert errors(chunks) == [f"Scripted: {expected}"] and codes(chunks) == [code]


async def test_openai_malformed_and_truncated_streams(provider_server: ScriptedServer, service: AiService,
                                                      repos: Repositories) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="ollama")
    provider_server.replies.append(Reply(pieces=[(0, openai_delta(content="ok")), (0, "data: {not json\n\n")]))
    chunks = await collect(await service.stream_text(request(model)))
    assert len(errors(chunks)) == 1 and "malformed stream data" in errors(chunks)[0]
    assert codes(chunks) == [ErrorCode.MALFORMED_RESPONSE]
    assert fold(chunks).snapshot().text() == "ok"

    provider_server.replies.append(Reply(pieces=[(0, openai_delta(content="cut"))]))  # closes with no [DONE]
    chunks = await collect(await service.stream_text(request(model)))
    assert errors(chunks) == ["Scripted: the stream ended before the reply was complete"]
    assert codes(chunks) == [ErrorCode.STREAM_INCOMPLETE]

    provider_server.replies.append(Reply(pieces=[(0, sse({"error": {"message": "context length exceeded"}}))]))
    chunks = await collect(await service.stream_text(request(model)))
    assert errors(chunks) == ["Scripted: context length exceeded"] and codes(chunks) == [ErrorCode.PROVIDER_ERROR]
    quota = {"error": {"message": "quota", "code": "insufficient_quota"}}
    provider_server.replies.append(Reply(pieces=[(0, sse(quota))]))
    assert codes(await collect(await service.stream_text(request(model)))) == [ErrorCode.RATE_LIMITED]


async def test_openai_slow_stream_in_split_network_reads(provider_server: ScriptedServer, service: AiService,
                                                         repos: Repositories) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="vllm", key=None)
    whole = "".join(openai_delta(content=w) for w in ["a", "b", "c"]) + openai_delta(finish="stop") + sse("[DONE]")
    pieces = [(0.02, whole[i:i + 7]) for i in range(0, len(whole), 7)]  # events split across reads
    provider_server.replies.append(Reply(pieces=pieces))
    chunks = await collect(await service.stream_text(request(model)))
    assert fold(chunks).snapshot().text() == "abc" and errors(chunks) == []
    assert "authorization" not in provider_server.received[0].headers


async def test_openai_abort_ends_a_silent_stream_and_closes_the_connection(provider_server: ScriptedServer,
                                                                           service: AiService,
                                                                           repos: Repositories) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="openrouter")
    provider_server.replies.append(Reply(pieces=[(0, openai_delta(content="first"))], hang=True))
    ctrl = AbortController()
    stream = await service.stream_text(request(model, signal=ctrl.signal))
    got = [await anext(stream) for _ in range(4)]  # start, start-step, text-start, text-delta
    assert got[-1].type == "text-delta"
    ctrl.abort("user")
    rest = await collect(stream)  # returns promptly although the server never writes again
    assert rest == []
    await asyncio.wait_for(provider_server.closed_early.wait(), 3)


async def test_connection_refused_and_read_timeout(repos: Repositories, provider_server: ScriptedServer) -> None:
    svc = AiService(repos, CredentialStore(), timeout=httpx.Timeout(0.2))
    try:
        model = register(repos, "http://127.0.0.1:9/v1", type="openai-compatible", provider_id="dead")
        chunks = await collect(await svc.stream_text(request(model)))
        assert len(errors(chunks)) == 1
        assert "could not reach http://127.0.0.1:9/v1/chat/completions" in errors(chunks)[0]
        assert codes(chunks) == [ErrorCode.NETWORK_ERROR]
        url = provider_server.base + "/v1"
        model = register(repos, url, type="openai-compatible", provider_id="slow")
        provider_server.replies.append(Reply(pieces=[(0, openai_delta(content="x"))], hang=True))
        chunks = await collect(await svc.stream_text(request(model)))
        assert errors(chunks) == ["Scripted: the stream stopped responding (read timeout)"]
        assert codes(chunks) == [ErrorCode.TIMEOUT]
    finally:
        await svc.on_stop()


# -- Anthropic --------------------------------------------------------------------------------


async def test_anthropic_streams_thinking_text_and_usage(provider_server: ScriptedServer, service: AiService,
                                                         repos: Repositories) -> None:
    url = provider_server.base
    model = register(repos, url, type="anthropic", key="sk-ant")
    provider_server.replies.append(Reply(pieces=[(0, e) for e in anthropic_events(thinking="hmm", text="Hi there",
                                                                          usage=(12, 6))]))
    req = AiStreamRequest(model_id=model, topic_id="t", system="sys", parameters={"thinking_budget": 1024},
                          messages=[UIMessage.user_text("a"), UIMessage.user_text("b"),
                                    UIMessage(role="assistant", parts=[])])
    chunks = await collect(await service.stream_text(req))
    msg = fold(chunks).snapshot()
    assert [p.type for p in msg.parts] == ["step-start", "reasoning", "text"]
    assert msg.parts[1].text == "hmm" and msg.text() == "Hi there "  # type: ignore[union-attr]
    meta = msg.metadata
    assert (meta["prompt_tokens"], meta["completion_tokens"], meta["total_tokens"]) == (12, 6, 18)
    got = provider_server.received[0]
    assert got.path == "/v1/messages" and got.headers["x-api-key"] == "sk-ant"
    assert got.headers["anthropic-version"] == "2023-06-01"
    assert got.body["messages"] == [{"role": "user", "content": "a\n\nb"}] and got.body["system"] == "sys"
    assert got.body["thinking"] == {"type": "enabled", "budget_tokens": 1024}


def _suspended_http_generators() -> list[str]:
    gc.collect()
    return [g.__qualname__ for g in gc.get_objects()
            if inspect.isasyncgen(g) and g.ag_frame is not None
            and any(f"/{lib}/" in g.ag_frame.f_code.co_filename for lib in ("httpx", "httpcore"))]


async def test_a_reply_read_to_message_stop_leaves_nothing_of_its_response_behind(
        provider_server: ScriptedServer, service: AiService, repos: Repositories) -> None:
    """The reader stops at `message_stop`; the rest of the body is read and the response's
    generators end then, not when the garbage collector finds them (it closes them from a
    task of its own, which a closing event loop may never run). A server that keeps the
    body open after `message_stop` only delays the end by a bounded wait."""
    model = register(repos, provider_server.base, type="anthropic", key="sk-ant")
    provider_server.replies.append(Reply(pieces=[(0, e) for e in anthropic_events(text="Done")]))
    assert fold(await collect(await service.stream_text(request(model)))).snapshot().text() == "Done "
    assert _suspended_http_generators() == []
    provider_server.replies.append(Reply(pieces=[(0, e) for e in anthropic_events(text="Open")], hang=True))
    async with asyncio.timeout(10):
        assert fold(await collect(await service.stream_text(request(model)))).snapshot().text() == "Open "


async def test_anthropic_error_event_and_http_error(provider_server: ScriptedServer, service: AiService,
                                                    repos: Repositories) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="anthropic")
    events = anthropic_events(text="partial")[:4]
    events.append(sse({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "error"))
    provider_server.replies.append(Reply(pieces=[(0, e) for e in events]))
    chunks = await collect(await service.stream_text(request(model)))
    assert errors(chunks) == ["Scripted: overloaded_error: Overloaded"]
    assert codes(chunks) == [ErrorCode.PROVIDER_OVERLOADED]
    assert provider_server.received[0].path == "/v1/messages"
    provider_server.replies.append(Reply(status=529, content_type="application/json", pieces=[
        (0, json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}))]))
    chunks = await collect(await service.stream_text(request(model)))
    assert errors(chunks) == ["Scripted: HTTP 529 Overloaded: Overloaded"]
    assert codes(chunks) == [ErrorCode.PROVIDER_OVERLOADED]


async def test_anthropic_reply_ending_without_block_stops_closes_its_blocks(provider_server: ScriptedServer,
                                                                             service: AiService,
                                                                             repos: Repositories) -> None:
    """A server that ends the message (message_stop) without closing its content blocks still
    gives a finished message: every block is ended, none is left streaming."""
    model = register(repos, provider_server.base, type="anthropic")
    events = [e for e in anthropic_events(thinking="hmm", text="Hi there") if "content_block_stop" not in e]
    provider_server.replies.append(Reply(pieces=[(0, e) for e in events]))
    chunks = await collect(await service.stream_text(request(model)))
    types = [c.type for c in chunks]
    assert types[-4:] == ["text-end", "reasoning-end", "finish-step", "finish"] and not errors(chunks)
    msg = fold(chunks).snapshot()
    assert [(p.type, getattr(p, "state", None)) for p in msg.parts] == [
        ("step-start", None), ("reasoning", "done"), ("text", "done")]
    assert msg.text() == "Hi there "


async def test_anthropic_abort_while_waiting_for_the_next_event(provider_server: ScriptedServer, service: AiService,
                                                                repos: Repositories) -> None:
    url = provider_server.base
    model = register(repos, url, type="anthropic")
    provider_server.replies.append(Reply(pieces=[(0, e) for e in anthropic_events(text="x")[:4]], hang=True))
    ctrl = AbortController()
    stream = await service.stream_text(request(model, signal=ctrl.signal))
    seen: list[str] = []
    async for c in stream:
        seen.append(c.type)
        if c.type == "text-delta":
            ctrl.abort()
    assert seen[-1] == "text-delta" and "error" not in seen
    await asyncio.wait_for(provider_server.closed_early.wait(), 3)


# -- AiService routing ------------------------------------------------------------------------------


async def test_service_routes_runtime_requests_and_rejects_agent_topics_without_metadata(
        service: AiService) -> None:
    with pytest.raises(RuntimeMetadataRequiredError):
        await service.stream_text(AiStreamRequest(model_id="p::m", topic_id="agent-session:s1"))

    async def handler(req: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        assert req.runtime is not None
        yield TextDeltaChunk(id="x", delta=req.runtime.turn_id)

    service.set_runtime_stream_handler(handler)
    stream = await service.stream_text(AiStreamRequest(model_id="p::m", topic_id="agent-session:s1",
                                                       runtime=RuntimeMetadata(session_id="s1", turn_id="turn-7")))
    assert [c.delta async for c in stream] == ["turn-7"]  # type: ignore[union-attr]

    async def awaitable_handler(req: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        return handler(req)

    service.set_runtime_stream_handler(awaitable_handler)
    stream = await service.stream_text(AiStreamRequest(model_id="p::m", topic_id="agent-session:s1",
                                                       runtime=RuntimeMetadata(session_id="s1", turn_id="t8")))
    assert [c.delta async for c in stream] == ["t8"]  # type: ignore[union-attr]


async def test_service_model_resolution_errors(service: AiService, repos: Repositories) -> None:
    for model_id, code in [("no-separator", "bad-model-id"), ("ghost::m", "provider-not-found")]:
        with pytest.raises(ModelResolutionError) as e:
            await service.stream_text(AiStreamRequest(model_id=model_id))
        assert e.value.code == code
    repos.providers.upsert_provider(id="off", name="Off", type="openai", enabled=False)
    with pytest.raises(ModelResolutionError):
        await service.stream_text(AiStreamRequest(model_id="off::m"))
    repos.providers.upsert_provider(id="odd", name="Odd", type="carrier-pigeon")
    with pytest.raises(ModelResolutionError):
        await service.stream_text(AiStreamRequest(model_id="odd::m"))


def test_sse_decoder_handles_crlf_comments_and_multiline_data() -> None:
    d = SseDecoder()
    events = d.feed(": comment\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\ndata: tail")
    assert [(e.event, e.data) for e in events] == [("x", "a\nb")]
    assert [(e.event, e.data) for e in d.flush()] == [("message", "tail")]


# -- through the manager ----------------------------------------------------------------------------


async def _wait(cond: Callable[[], bool]) -> None:
    for _ in range(1500):
        if cond():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("condition never held")


async def test_chat_topic_end_to_end_through_manager_service_and_openai_provider(
        provider_server: ScriptedServer, service: AiService, repos: Repositories) -> None:
    url = provider_server.base + "/v1"
    model = register(repos, url, type="openai-compatible")
    mgr = AiStreamManager(stream_text=service.stream_text)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    topic = repos.topics.create_topic(model=model)
    usage = {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
    provider_server.replies.append(Reply(pieces=[
        (0.01, openai_delta(content="Hi")), (0.01, openai_delta(content=" you")),
        (0, openai_delta(finish="stop")), (0, sse(usage)), (0, sse("[DONE]"))]))
    res = await dispatch_stream_request(mgr, None, AiStreamOpenRequest(topic_id=topic.id,
                                                                       user_message_parts=user_parts("Hello")))

    def status() -> str | None:
        e = mgr.shared_cache.get(topic_stream_status_key(topic.id))
        return e.status if isinstance(e, TopicStatusSnapshotEntry) else None

    await _wait(lambda: status() == "done")
    row = repos.messages.get_message(res.placeholder_ids[0])
    assert row.status == "success" and "".join(getattr(p, "text", "") for p in row.parts) == "Hi you"
    assert row.stats is not None and row.stats["total_tokens"] == 5
    assert provider_server.received[0].body["messages"] == [{"role": "user", "content": "Hello"}]

    # An HTTP error becomes an error row with a readable data-error part, never an exception.
    provider_server.replies.append(Reply(status=401, content_type="application/json",
                                pieces=[(0, json.dumps({"error": {"message": "bad key"}}))]))
    res = await dispatch_stream_request(mgr, None, AiStreamOpenRequest(topic_id=topic.id,
                                                                       user_message_parts=user_parts("again")))
    await _wait(lambda: status() == "error")
    row = repos.messages.get_message(res.placeholder_ids[0])
    assert row.status == "error"
    assert row.parts[-1].data["message"] == "Scripted: HTTP 401 Unauthorized: bad key"  # type: ignore[union-attr]
    assert row.parts[-1].data["code"] == "auth-failed"  # type: ignore[union-attr]

    # A user stop on a silent upstream persists the partial as paused.
    provider_server.replies.append(Reply(pieces=[(0, openai_delta(content="partial"))], hang=True))
    res = await dispatch_stream_request(mgr, None, AiStreamOpenRequest(topic_id=topic.id,
                                                                       user_message_parts=user_parts("more")))
    await _wait(lambda: mgr.inspect(topic.id).executions[0].buffer_size >= 4)  # type: ignore[union-attr]
    mgr.abort(topic.id)
    await _wait(lambda: status() == "aborted")
    row = repos.messages.get_message(res.placeholder_ids[0])
    assert row.status == "paused" and "".join(getattr(p, "text", "") for p in row.parts) == "partial"


# -- keys: the keyring is asked only for providers that take a key ------------------------------


class CountingKeyring(MemoryKeyring):
    """The test's keyring, counting the lookups."""

    def __init__(self) -> None:
        super().__init__()
        self.lookups: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.lookups.append(username)
        return super().get_password(service, username)


async def _stream_once(provider_server: ScriptedServer, repos: Repositories, credentials: CredentialStore,
                       model: str, answer: str) -> list[UIMessageChunk]:
    """One chat stream of `model` through a fresh `AiService`, the server answering `answer`."""
    service = AiService(repos, credentials)
    try:
        provider_server.replies.append(Reply(pieces=[(0, e) for e in anthropic_events(text=answer)]))
        return await collect(await service.stream_text(request(model)))
    finally:
        await service.on_stop()


async def test_the_offline_demo_providers_chat_streams_do_not_ask_the_keyring(provider_server: ScriptedServer,
                                                                             repos: Repositories) -> None:
    """Auto-naming and translation run chat streams on the demo provider: its server takes no
    key, so the keyring (whose first use imports its backends) is not asked, even when it holds
    a key under the demo provider's name."""
    keyring = CountingKeyring()
    credentials = CredentialStore(backend=keyring)
    repos.providers.upsert_provider(id="cherry-demo", name="Demo", type="anthropic", base_url=provider_server.base,
                                    settings=demo_provider_settings())
    credentials.set(provider_key_name("cherry-demo"), "sk-would-leak")
    chunks = await _stream_once(provider_server, repos, credentials, "cherry-demo::demo-model", "A name")
    assert fold(chunks).snapshot().text() == "A name " and errors(chunks) == []
    assert keyring.lookups == []
    assert "x-api-key" not in provider_server.received[0].headers


async def test_a_provider_that_takes_a_key_gets_it_from_the_keyring(provider_server: ScriptedServer,
                                                                   repos: Repositories) -> None:
    keyring = CountingKeyring()
    credentials = CredentialStore(backend=keyring)
    repos.providers.upsert_provider(id="mine", name="Mine", type="anthropic", base_url=provider_server.base)
    credentials.set(provider_key_name("mine"), "sk-mine")
    chunks = await _stream_once(provider_server, repos, credentials, "mine::model-x", "Hi")
    assert errors(chunks) == []
    assert keyring.lookups == [provider_key_name("mine")]
    assert provider_server.received[0].headers["x-api-key"] == "sk-mine"
