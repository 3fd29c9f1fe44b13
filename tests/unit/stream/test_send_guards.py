"""What `send` refuses, and which chunks never reach a listener (issue 12)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    AiStreamRequest,
    DispatchError,
    ModelDispatch,
    PersistentChatContextProvider,
    SendInput,
    dispatch_stream_request,
    user_parts,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import TextDeltaChunk
from tests.unit.stream.helpers import END, FakeAi, Recorder, text_chunks
from tests.waiting import until

M1, M2 = "p::m1", "p::m2"


def models(topic: str, *ids: str) -> list[ModelDispatch]:
    return [ModelDispatch(m, AiStreamRequest(model_id=m, topic_id=topic), anchor_message_id=f"a-{i}")
            for i, m in enumerate(ids)]


def chat(repos: Repositories) -> tuple[AiStreamManager, FakeAi]:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    return mgr, fake


def delta(text: str) -> TextDeltaChunk:
    return TextDeltaChunk(id="t1", delta=text)


# -- duplicate models ----------------------------------------------------------------------------


async def test_send_naming_a_model_twice_is_refused_and_starts_nothing() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = Recorder()
    with pytest.raises(DispatchError) as caught:
        mgr.send(SendInput(topic_id="t", models=models("t", M1, M2, M1), listeners=[rec]))
    assert caught.value.code == "duplicate-model" and type(caught.value).__name__ == "DuplicateModelError"
    await asyncio.sleep(0.01)
    assert mgr.inspect("t") is None and fake.requests == [] and mgr.shared_cache.snapshot() == {}


async def test_dispatch_naming_a_model_twice_writes_no_row(repos: Repositories) -> None:
    mgr, fake = chat(repos)
    topic = repos.topics.create_topic(name="t", model=M1)
    req = AiStreamOpenRequest(topic_id=topic.id, user_message_parts=user_parts("hi"),
                              mentioned_model_ids=[M1, M2, M1])
    with pytest.raises(DispatchError) as caught:
        await dispatch_stream_request(mgr, Recorder(), req)
    assert caught.value.code == "duplicate-model"
    assert repos.messages.list_messages(topic.id) == [] and repos.messages.list_pending() == []
    assert mgr.inspect(topic.id) is None and fake.requests == []


class DuplicatingProvider:
    """A provider whose prepared models repeat one model (its rows are its own business)."""

    name = "duplicating"

    def __init__(self, repos: Repositories) -> None:
        self.inner = PersistentChatContextProvider(repos)

    def can_handle(self, topic_id: str) -> bool:
        return True

    async def prepare_dispatch(self, subscriber: Any, req: Any, ctx: Any) -> Any:
        prepared = await self.inner.prepare_dispatch(subscriber, req, ctx)
        prepared.models = [*prepared.models, prepared.models[0]]
        return prepared


async def test_a_provider_preparing_a_model_twice_is_refused_by_send(repos: Repositories) -> None:
    mgr, fake = chat(repos)
    topic = repos.topics.create_topic(name="t", model=M1)
    req = AiStreamOpenRequest(topic_id=topic.id, user_message_parts=user_parts("hi"))
    with pytest.raises(DispatchError) as caught:
        await dispatch_stream_request(mgr, Recorder(), req, providers=[DuplicatingProvider(repos)])
    assert caught.value.code == "duplicate-model"
    await asyncio.sleep(0.01)
    assert mgr.inspect(topic.id) is None and fake.requests == []


# -- chunks of executions that are no longer current -------------------------------------------------


async def test_chunks_after_a_stop_reach_no_listener_by_the_loop_or_deliver() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=models("t", M1), listeners=[rec]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("ab")[:-1])
    await until(lambda: len(rec.chunks) == 3, limit=3.0)
    stream = mgr.stream("t")
    assert stream is not None
    ex = stream.executions[M1]
    mgr.abort("t")
    mgr.runner.deliver(stream, ex, delta("late-deliver"))
    feed.push(delta("late-loop"))
    await until(lambda: bool(rec.paused), limit=3.0)
    assert rec.text() == "ab"
    assert rec.paused[0].final_message is not None and rec.paused[0].final_message.text() == "ab"


async def test_chunks_after_an_executions_own_terminal_reach_no_listener() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=models("t", M1), listeners=[rec]))
    stream = mgr.stream("t")
    assert stream is not None
    ex = stream.executions[M1]
    (await fake.feed("t", M1)).push(*text_chunks("ok"), END)
    await until(lambda: bool(rec.done), limit=3.0)
    mgr.runner.deliver(stream, ex, delta("after-done"))
    assert rec.text() == "ok"
    assert mgr.inspect("t").executions[0].buffer_size == 4  # type: ignore[union-attr]


async def test_chunks_of_a_replaced_execution_reach_neither_the_old_nor_the_new_listeners() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, grace_period_ms=60_000)
    first = Recorder("wc:1")
    mgr.send(SendInput(topic_id="t", models=models("t", M1), listeners=[first]))
    old_stream = mgr.stream("t")
    assert old_stream is not None
    old_ex = old_stream.executions[M1]
    (await fake.feed("t", M1)).push(*text_chunks("one"), END)
    await until(lambda: bool(first.done), limit=3.0)
    second = Recorder("wc:2")
    mgr.send(SendInput(topic_id="t", models=models("t", M1), listeners=[second]))
    mgr.runner.deliver(old_stream, old_ex, delta("stale"))
    (await fake.feed("t", M1, 1)).push(*text_chunks("two"), END)
    await until(lambda: bool(second.done), limit=3.0)
    assert first.text() == "one" and second.text() == "two"


async def test_evicting_a_stream_stops_its_running_execution() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=models("t", M1), listeners=[rec]))
    stream = mgr.stream("t")
    assert stream is not None
    feed = await fake.feed("t", M1)
    feed.push(delta("a"))
    await until(lambda: len(rec.chunks) == 1, limit=3.0)
    mgr.registry.evict(stream)
    feed.push(delta("b"))
    await until(lambda: bool(rec.paused), limit=3.0)
    assert rec.text() == "a" and rec.paused[0].stop_reason == "replaced"


# -- abort in the same tick as the send ----------------------------------------------------------------


async def test_abort_in_the_same_tick_as_send_cancels_the_execution(repos: Repositories) -> None:
    mgr, fake = chat(repos)
    topic = repos.topics.create_topic(name="t", model=M1)
    fake.preload(topic.id, M1, [*text_chunks("never shown"), END])
    rec = Recorder()
    prepared = await PersistentChatContextProvider(repos).prepare_dispatch(
        rec, AiStreamOpenRequest(topic_id=topic.id, user_message_parts=user_parts("hi")),
        ctx=type("Ctx", (), {"has_live_stream": False})())  # type: ignore[arg-type]
    placeholder = prepared.models[0].anchor_message_id
    assert placeholder is not None
    mgr.send(prepared)
    mgr.abort(topic.id)
    await until(lambda: bool(rec.terminals), limit=3.0)
    assert rec.chunks == [] and len(rec.paused) == 1 and rec.done == []
    assert repos.messages.get_message(placeholder).status == "paused"
    assert fake.requests == []  # the upstream was never asked
    assert not mgr.has_live_stream(topic.id)
