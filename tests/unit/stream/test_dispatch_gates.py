"""What stands before a dispatch writes: the boot gate and the per-topic dispatch lock; and
what `drain_in_flight` waits for (issue 12)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    ModelDispatch,
    PersistentChatContextProvider,
    SendInput,
    dispatch_stream_request,
    recover_interrupted_messages,
)
from cherry_desktop.core.app.bootstrap import build_core
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.storage.paths import build_path_registry
from tests.unit.stream.helpers import END, FakeAi, PersistingRecorder, Recorder, submit, text_chunks
from tests.waiting import until

M1 = "p::m1"



class SlowProvider:
    """The real SQLite provider behind a few awaits (as a provider reading files would have);
    `gates` hold a topic's preparation until the test releases it."""

    name = "slow"

    def __init__(self, repos: Repositories) -> None:
        self.inner = PersistentChatContextProvider(repos)
        self.gates: dict[str, asyncio.Event] = {}
        self.seen_live: list[bool] = []

    def can_handle(self, topic_id: str) -> bool:
        return True

    async def prepare_dispatch(self, subscriber: Any, req: Any, ctx: Any) -> Any:
        self.seen_live.append(ctx.has_live_stream)
        for _ in range(3):
            await asyncio.sleep(0)
        gate = self.gates.get(req.topic_id)
        if gate is not None:
            await gate.wait()
        return await self.inner.prepare_dispatch(subscriber, req, ctx)


def slow_chat(repos: Repositories) -> tuple[AiStreamManager, FakeAi, SlowProvider]:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0)
    provider = SlowProvider(repos)
    mgr.set_context_providers([provider])
    return mgr, fake, provider


def pending_ids(repos: Repositories, topic_id: str) -> list[str]:
    return [m.id for m in repos.messages.list_messages(topic_id) if m.status == "pending"]


async def test_two_concurrent_dispatches_on_one_topic_serialize(repos: Repositories) -> None:
    mgr, fake, provider = slow_chat(repos)
    topic = repos.topics.create_topic(name="t", model=M1)
    win = Recorder("wc:1")
    first, second = await asyncio.gather(dispatch_stream_request(mgr, win, submit(topic.id, "one")),
                                         dispatch_stream_request(mgr, win, submit(topic.id, "two")))
    assert provider.seen_live == [False, True]
    assert first.mode == "started" and second.mode == "injected" and second.placeholder_ids == []
    assert pending_ids(repos, topic.id) == first.placeholder_ids  # no orphaned placeholder
    (await fake.feed(topic.id, M1)).push(*text_chunks("a"), END)
    continuation = await fake.feed(topic.id, M1, 1)  # the queued "two" is answered next
    assert continuation.request.messages[-1].text() == "two"
    continuation.push(*text_chunks("b"), END)
    await until(lambda: mgr.inspect(topic.id) is not None and mgr.inspect(topic.id).status == "done", limit=3.0)  # type: ignore[union-attr]
    assert pending_ids(repos, topic.id) == []
    assert mgr.dispatch_locks.active_topics() == []


async def test_dispatches_on_different_topics_do_not_wait_on_each_other(repos: Repositories) -> None:
    mgr, _fake, provider = slow_chat(repos)
    slow = repos.topics.create_topic(name="slow", model=M1)
    quick = repos.topics.create_topic(name="quick", model=M1)
    provider.gates[slow.id] = asyncio.Event()
    blocked = asyncio.ensure_future(dispatch_stream_request(mgr, Recorder("wc:1"), submit(slow.id, "wait")))
    await until(lambda: mgr.dispatch_locks.active_topics() == [slow.id], limit=3.0)
    done = await dispatch_stream_request(mgr, Recorder("wc:2"), submit(quick.id, "go"))
    assert done.mode == "started" and not blocked.done()
    provider.gates[slow.id].set()
    assert (await blocked).mode == "started"
    await mgr.shutdown()


async def test_drain_waits_for_persisting_streams_never_for_prompt_streams() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    naming = Recorder("naming-cb")
    mgr.stream_prompt(stream_id="naming:1", unique_model_id=M1, prompt="name it", listener=naming)
    persisting = PersistingRecorder("persistence:t")
    mgr.send(SendInput(topic_id="t", models=[ModelDispatch(M1, AiStreamRequest(model_id=M1))],
                       listeners=[persisting]))
    chat_feed = await fake.feed("t", M1)
    await fake.feed("naming:1", M1)  # never ends during this test
    assert await mgr.drain_in_flight(timeout_ms=20) == [f"t:{M1}"]
    drain = asyncio.ensure_future(mgr.drain_in_flight(timeout_ms=3000))
    chat_feed.push(*text_chunks("x"), END)
    assert await drain == []
    assert persisting.done and naming.terminals == []
    await mgr.shutdown()


async def test_a_dispatch_before_boot_recovery_writes_nothing_until_the_rows_are_flipped(
        repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0, require_boot_reconcile=True)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    topic = repos.topics.create_topic(name="t", model=M1)
    orphan = repos.messages.create_message(topic_id=topic.id, role="assistant", parts=[], status="pending",
                                           model_id=M1)
    early = asyncio.ensure_future(dispatch_stream_request(mgr, Recorder(), submit(topic.id, "early")))
    for _ in range(10):
        await asyncio.sleep(0)
    assert not early.done()
    assert [m.id for m in repos.messages.list_messages(topic.id)] == [orphan.id]  # nothing written yet
    assert recover_interrupted_messages(repos) == [orphan.id]
    mgr.open_boot_gate()
    result = await early
    assert repos.messages.get_message(orphan.id).status == "error"
    assert pending_ids(repos, topic.id) == result.placeholder_ids  # the new placeholder was not flipped
    await mgr.shutdown()


async def test_the_app_opens_its_boot_gate_only_after_recovery(tmp_path: Path) -> None:
    paths = build_path_registry(tmp_path / "root")
    paths.ensure_all()
    core = build_core(paths)
    assert core.stream_manager.config.require_boot_reconcile
    assert not core.stream_manager.boot_gate.is_open
    await core.app.start()
    try:
        assert core.stream_manager.boot_gate.is_open
    finally:
        await core.stop()
