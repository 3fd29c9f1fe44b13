"""Terminal dispatch order: persistence first, windows after; a failed final write is never
shown as success; the topic stays live while its terminal listeners run (issue 12, 13)."""

from __future__ import annotations

import asyncio

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    MessageServiceBackend,
    ModelDispatch,
    PersistentChatContextProvider,
    PersistInput,
    SendInput,
    dispatch_stream_request,
)
from cherry_desktop.core.ai.stream.context import persistent as persistent_module
from cherry_desktop.core.data import Repositories
from tests.unit.stream.helpers import END, FakeAi, Recorder, TerminalRecorder, step_boundary, submit, text_chunks
from tests.waiting import until

M1 = "p::m1"



def chat(repos: Repositories) -> tuple[AiStreamManager, FakeAi]:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    return mgr, fake


class FlakyBackend(MessageServiceBackend):
    """The real SQLite backend behind a disk that fails the first `failures` writes."""

    failures = 0
    gate: asyncio.Event | None = None

    async def persist_assistant(self, input: PersistInput) -> None:
        if self.gate is not None:
            await self.gate.wait()
        if FlakyBackend.failures > 0:
            FlakyBackend.failures -= 1
            raise OSError("disk full")
        await super().persist_assistant(input)


async def test_window_hears_done_only_after_the_row_is_written(repos: Repositories) -> None:
    mgr, fake = chat(repos)
    topic = repos.topics.create_topic(name="t", model=M1)
    win = Recorder("wc:1")
    seen_at_terminal: list[str] = []
    res = await dispatch_stream_request(mgr, win, submit(topic.id, "hi"))
    pid = res.placeholder_ids[0]
    win.on_terminal = lambda _r: seen_at_terminal.append(repos.messages.get_message(pid).status)
    (await fake.feed(topic.id, M1)).push(*text_chunks("hello"), END)
    await until(lambda: bool(win.done), limit=3.0)
    assert seen_at_terminal == ["success"]


async def turn_on_flaky_disk(repos: Repositories, monkeypatch: pytest.MonkeyPatch,
                             failures: int) -> tuple[AiStreamManager, str, Recorder, str]:
    """One turn whose final write fails `failures` times; returns when the window heard it."""
    monkeypatch.setattr(persistent_module, "MessageServiceBackend", FlakyBackend)
    FlakyBackend.failures = failures
    mgr, fake = chat(repos)
    topic = repos.topics.create_topic(name="t", model=M1)
    win = Recorder("wc:1")
    res = await dispatch_stream_request(mgr, win, submit(topic.id, "hi"))
    (await fake.feed(topic.id, M1)).push(*text_chunks("hello"), END)
    await until(lambda: bool(win.terminals), limit=3.0)
    return mgr, topic.id, win, res.placeholder_ids[0]


async def test_a_write_failing_once_is_retried_and_the_window_hears_done(repos: Repositories,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, win, placeholder = await turn_on_flaky_disk(repos, monkeypatch, 1)
    assert len(win.done) == 1 and win.errors == []
    assert repos.messages.get_message(placeholder).status == "success"


async def test_a_write_failing_twice_shows_an_error_never_success(repos: Repositories,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    mgr, topic_id, win, placeholder = await turn_on_flaky_disk(repos, monkeypatch, 2)
    assert win.done == [] and len(win.errors) == 1
    assert win.errors[0].error.code == "persist-failed"
    assert win.errors[0].final_message is not None and win.errors[0].final_message.text() == "hello"
    snap = mgr.inspect(topic_id)
    assert snap is not None and snap.status == "error"
    assert repos.messages.get_message(placeholder).status == "pending"  # boot recovery flips it


async def test_topic_stays_live_while_its_terminal_listeners_run() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    live_in_persistence: list[bool] = []
    live_in_window: list[bool] = []
    persist = TerminalRecorder("persistence:x")
    persist.on_terminal = lambda _r: live_in_persistence.append(mgr.has_live_stream("t"))
    win = Recorder("wc:1")
    win.on_terminal = lambda _r: live_in_window.append(mgr.has_live_stream("t"))
    mgr.send(SendInput(topic_id="t", models=[ModelDispatch(M1, AiStreamRequest(model_id=M1))],
                       listeners=[win, persist]))
    (await fake.feed("t", M1)).push(*text_chunks("x"), END)
    await until(lambda: bool(win.done), limit=3.0)
    assert live_in_persistence == [True] and live_in_window == [True]
    assert not mgr.has_live_stream("t")


async def test_a_message_sent_while_the_turn_persists_joins_the_queue(repos: Repositories,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The second submit lands while the first turn's final write is still going: it is
    queued as a steer and answered by a continuation, never a rival turn."""
    monkeypatch.setattr(persistent_module, "MessageServiceBackend", FlakyBackend)
    FlakyBackend.failures = 0
    FlakyBackend.gate = asyncio.Event()
    try:
        mgr, fake = chat(repos)
        topic = repos.topics.create_topic(name="t", model=M1)
        win = Recorder("wc:1")
        first = await dispatch_stream_request(mgr, win, submit(topic.id, "one"))
        (await fake.feed(topic.id, M1)).push(*text_chunks("first"), step_boundary(), END)
        await until(lambda: (mgr.inspect(topic.id) is not None
                             and mgr.inspect(topic.id).executions[0].status == "done"), limit=3.0)  # type: ignore[union-attr]
        assert mgr.has_live_stream(topic.id)
        second = await dispatch_stream_request(mgr, win, submit(topic.id, "two"))
        assert second.mode == "injected" and second.placeholder_ids == []
        FlakyBackend.gate.set()
        feed = await fake.feed(topic.id, M1, 1)
        assert feed.request.messages[-1].text() == "two"
        feed.push(*text_chunks("second"), END)
        await until(lambda: mgr.inspect(topic.id) is not None
                    and mgr.inspect(topic.id).status == "done", limit=3.0)  # type: ignore[union-attr]
        rows = repos.messages.list_messages(topic.id)
        assert [r.status for r in rows if r.role == "assistant"] == ["success", "success"]
        assert repos.messages.get_message(first.placeholder_ids[0]).status == "success"
        assert len(fake.requests) == 2
    finally:
        FlakyBackend.gate = None
