"""The agent host's hooks: agent follow-up inject, will_continue_topic, start_runtime_turn,
and terminate_held_topic_stream (the agent host's steer-boundary roll is these three)."""

from __future__ import annotations

import asyncio

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    ModelDispatch,
    RuntimeMetadata,
    SendInput,
    StreamManagerError,
    TopicStatusSnapshotEntry,
)
from cherry_desktop.core.messages import TextDeltaChunk
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from tests.unit.stream.helpers import END, FakeAi, Recorder, Recording, TerminalRecorder, text_chunks
from tests.waiting import until

T = "agent-session:s1"
M = "claude-code::sonnet"


def runtime_request(turn: str, anchor: str) -> AiStreamRequest:
    return AiStreamRequest(model_id=M, topic_id=T, message_id=anchor,
                           runtime=RuntimeMetadata(session_id="s1", turn_id=turn))


def status(mgr: AiStreamManager) -> str | None:
    e = mgr.shared_cache.get(topic_stream_status_key(T))
    return e.status if isinstance(e, TopicStatusSnapshotEntry) else None


def start(mgr: AiStreamManager, *listeners: Recording) -> None:
    mgr.send(SendInput(topic_id=T, models=[ModelDispatch(M, runtime_request("turn-1", "a1"), "a1")],
                       listeners=list(listeners)))


async def test_agent_follow_up_injects_subscriber_without_launching() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    start(mgr, Recorder("wc:1"))
    feed = await fake.feed(T, M)
    res = mgr.send(SendInput(topic_id=T, models=[], listeners=[Recorder("wc:2")]))
    assert res.mode == "injected" and res.execution_ids == [M] and len(fake.requests) == 1
    assert mgr.inspect(T).listener_ids == ("wc:1", "wc:2")  # type: ignore[union-attr]
    feed.push(END)


async def test_will_continue_then_start_runtime_turn_keeps_listeners_on_the_same_stream() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    win = Recorder("wc:1")
    persist_1 = TerminalRecorder("persistence:agents-db:s1")
    start(mgr, win, persist_1)
    feed = await fake.feed(T, M)
    assert mgr.will_continue_topic(T) is True
    feed.push(*text_chunks("first"), END)
    await until(lambda: bool(persist_1.done), limit=3.0)
    assert not persist_1.done[0].is_topic_done and status(mgr) == "streaming"
    assert mgr.has_live_stream(T) and mgr.inspect(T).held  # type: ignore[union-attr]

    persist_2 = TerminalRecorder("persistence:agents-db:s1")
    res = mgr.start_runtime_turn(topic_id=T, model_id=M, request=runtime_request("turn-2", "a2"),
                                 listeners=[persist_2])
    assert res.mode == "started"
    feed2 = await fake.feed(T, M, 1)
    assert feed2.request.runtime is not None and feed2.request.runtime.turn_id == "turn-2"
    feed2.push(*text_chunks("second"), END)
    await until(lambda: status(mgr) == "done", limit=3.0)
    assert win.chunks[-1][2] == "a2" and win.done[-1].is_topic_done
    assert len(persist_1.done) == 1 and persist_2.done[0].anchor_message_id == "a2"


async def test_will_continue_can_be_called_from_a_terminal_listener() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    host = TerminalRecorder("persistence:agents-db:s1")
    host.on_terminal = lambda result: mgr.will_continue_topic(T)
    start(mgr, host)
    (await fake.feed(T, M)).push(*text_chunks("x"), END)
    await until(lambda: bool(host.done), limit=3.0)
    assert mgr.inspect(T).held and status(mgr) == "streaming"  # type: ignore[union-attr]


async def test_terminate_held_topic_stream_ends_it_as_error() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, grace_period_ms=20)
    win = Recorder("wc:1")
    start(mgr, win)
    feed = await fake.feed(T, M)
    mgr.will_continue_topic(T)
    feed.push(END)
    await until(lambda: mgr.inspect(T) is not None and mgr.inspect(T).held, limit=3.0)  # type: ignore[union-attr]
    assert await mgr.terminate_held_topic_stream(T, "placeholder save failed") is True
    assert status(mgr) == "error" and win.errors[-1].error.message == "placeholder save failed"
    await until(lambda: mgr.inspect(T) is None, limit=3.0)
    assert await mgr.terminate_held_topic_stream(T) is False


async def test_start_runtime_turn_after_terminal_inherits_live_subscribers_and_refuses_a_busy_topic() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    win = Recorder("wc:1")
    start(mgr, win, TerminalRecorder("persistence:old"))
    feed = await fake.feed(T, M)
    with pytest.raises(StreamManagerError):
        mgr.start_runtime_turn(topic_id=T, model_id=M, request=runtime_request("turn-x", "ax"))
    feed.push(END)
    await until(lambda: status(mgr) == "done", limit=3.0)
    mgr.start_runtime_turn(topic_id=T, model_id=M, request=runtime_request("turn-2", "a2"))
    assert mgr.inspect(T).listener_ids == ("wc:1",)  # type: ignore[union-attr]
    (await fake.feed(T, M, 1)).push(TextDeltaChunk(id="x", delta="again"), END)
    await until(lambda: status(mgr) == "done", limit=3.0)
    assert win.chunks[-1][0].delta == "again"  # type: ignore[union-attr]


async def test_topic_is_never_neither_live_nor_idle_across_a_hold_and_its_continuation() -> None:
    """has_live_stream stays True while the turn's terminal listeners run, across the hold,
    and through a runtime turn started from a terminal listener; it flips once, after the
    last turn's listeners all returned."""
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    seen: list[tuple[str, bool]] = []
    persist_2 = TerminalRecorder("persistence:agents-db:s1:2")

    def host_terminal(result: object) -> None:
        seen.append(("host", mgr.has_live_stream(T)))
        if len(seen) == 1:  # the first turn ends: the host starts the queued one from here
            mgr.start_runtime_turn(topic_id=T, model_id=M, request=runtime_request("turn-2", "a2"),
                                   listeners=[persist_2])

    host = TerminalRecorder("runtime:terminal")
    host.on_terminal = host_terminal
    win = Recorder("wc:1")
    win.on_terminal = lambda result: seen.append(("window", mgr.has_live_stream(T)))
    start(mgr, win, host)
    (await fake.feed(T, M)).push(*text_chunks("one"), END)
    feed2 = await fake.feed(T, M, 1)
    assert mgr.has_live_stream(T)
    feed2.push(*text_chunks("two"), END)
    await until(lambda: len(win.done) == 2, limit=3.0)
    assert seen == [("host", True), ("window", True), ("window", True)]
    assert not mgr.has_live_stream(T) and status(mgr) == "done"
    assert [r.anchor_message_id for r in win.done] == ["a1", "a2"]


async def test_wait_until_idle_returns_only_once_the_held_topic_is_finalised() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    win = Recorder("wc:1")
    start(mgr, win)
    assert mgr.will_continue_topic(T)
    idle = asyncio.ensure_future(mgr.wait_until_idle(T))
    (await fake.feed(T, M)).push(*text_chunks("x"), END)
    await until(lambda: bool(win.done), limit=3.0)
    await asyncio.sleep(0.01)
    assert not idle.done() and mgr.has_live_stream(T)  # held: the host continues next
    assert await mgr.terminate_held_topic_stream(T, "gone")
    await idle
    assert not mgr.has_live_stream(T) and win.errors[-1].error.message == "gone"
    await mgr.wait_until_idle(T)  # already idle: returns at once
