"""The spec's edge-case cheat sheet and the flows not covered elsewhere (windows, channels,
background mode, restart, write quiesce)."""

from __future__ import annotations

import asyncio

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    MessageServiceBackend,
    ModelDispatch,
    PersistenceListener,
    SendInput,
    TranslationBackend,
    WritesPausedError,
    recover_interrupted_messages,
    user_parts,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import TextDeltaChunk
from tests.unit.stream.helpers import END, FakeAi, PersistingRecorder, Recorder, Recording, text_chunks
from tests.waiting import until

M1 = "p::m1"


def models(topic: str, anchor: str | None = None) -> list[ModelDispatch]:
    return [ModelDispatch(M1, AiStreamRequest(model_id=M1, topic_id=topic), anchor_message_id=anchor)]


def persisted(repos: Repositories, topic: str) -> tuple[str, PersistenceListener]:
    row = repos.messages.create_message(topic_id=topic, role="assistant", parts=[], status="pending", model_id=M1)
    backend = MessageServiceBackend(repos, message_id=row.id, topic_id=topic)
    return row.id, PersistenceListener(backend=backend, topic_id=topic, model_id=M1)


async def test_window_closes_mid_stream_persistence_still_writes(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    topic = repos.topics.create_topic().id
    row_id, persist = persisted(repos, topic)
    win = Recorder("wc:1")
    mgr.send(SendInput(topic_id=topic, models=models(topic, row_id), listeners=[win, persist]))
    feed = await fake.feed(topic, M1)
    feed.push(*text_chunks("ab"))
    await until(lambda: len(win.chunks) == 4, limit=3.0)
    win.alive = False  # the window is destroyed
    feed.push(*text_chunks("cd", part_id="t2"), END)
    await until(lambda: repos.messages.get_message(row_id).status == "success", limit=3.0)
    assert len(win.chunks) == 4 and win.done == []
    assert "wc:1" not in mgr.inspect(topic).listener_ids  # type: ignore[union-attr]


async def test_all_windows_closed_background_continue_keeps_streaming(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, background_mode="continue")
    topic = repos.topics.create_topic().id
    row_id, persist = persisted(repos, topic)
    win = Recorder("wc:1")
    mgr.send(SendInput(topic_id=topic, models=models(topic, row_id), listeners=[win, persist]))
    feed = await fake.feed(topic, M1)
    win.alive = False
    feed.push(*text_chunks("whole reply"), END)
    await until(lambda: repos.messages.get_message(row_id).status == "success", limit=3.0)
    assert repos.messages.get_message(row_id).parts[0].text == "whole reply"  # type: ignore[union-attr]


async def test_all_windows_closed_background_abort_persists_paused(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, background_mode="abort")
    topic = repos.topics.create_topic().id
    row_id, persist = persisted(repos, topic)
    a, b = Recorder("wc:1"), Recorder("wc:2")
    mgr.send(SendInput(topic_id=topic, models=models(topic, row_id), listeners=[a, b, persist]))
    feed = await fake.feed(topic, M1)
    feed.push(*text_chunks("par"))
    await until(lambda: len(b.chunks) == 5, limit=3.0)
    a.alive = False
    feed.push(TextDeltaChunk(id="t1", delta="t"))
    await until(lambda: len(b.chunks) == 6, limit=3.0)
    assert mgr.has_live_stream(topic)  # one window still watches
    b.alive = False
    feed.push(TextDeltaChunk(id="t1", delta="ial"))
    await until(lambda: repos.messages.get_message(row_id).status == "paused", limit=3.0)
    row = repos.messages.get_message(row_id)
    assert "".join(getattr(p, "text", "") for p in row.parts) == "partial"
    assert feed.closed and mgr.inspect(topic).status == "aborted"  # type: ignore[union-attr]


async def test_background_abort_leaves_a_stream_that_never_had_a_window_to_run_and_persist(
        repos: Repositories) -> None:
    """"Abort — no subscribers" is about the last *renderer*: a stream with only its
    persistence listener (a headless dispatch), one with a non-window listener (an API caller),
    and a translation stream all run to their end and persist."""
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, background_mode="abort")
    topic = repos.topics.create_topic().id
    row_id, persist = persisted(repos, topic)
    mgr.send(SendInput(topic_id=topic, models=models(topic, row_id), listeners=[persist]))
    (await fake.feed(topic, M1)).push(*text_chunks("whole reply"), END)

    api = Recording("sse:1")
    mgr.send(SendInput(topic_id="api", models=models("api"), listeners=[api]))
    (await fake.feed("api", M1)).push(*text_chunks("for the caller"), END)

    source = repos.messages.create_message(topic_id=topic, role="user", parts=user_parts("hola"))
    backend = TranslationBackend(repos.messages, target_message_id=source.id, target_language="en")
    mgr.stream_prompt(stream_id="translate:1", unique_model_id=M1, prompt="Translate: hola",
                      listener=PersistenceListener(backend=backend, topic_id="translate:1", model_id=M1))
    (await fake.feed("translate:1", M1)).push(*text_chunks("hello"), END)

    await until(lambda: repos.messages.get_message(row_id).status != "pending" and bool(api.terminals)
                and mgr.inspect("translate:1") is None, limit=3.0)
    row = repos.messages.get_message(row_id)
    assert row.status == "success" and "".join(getattr(p, "text", "") for p in row.parts) == "whole reply"
    assert api.done and api.text() == "for the caller"
    translated = [p for p in repos.messages.get_message(source.id).parts if p.type == "data-translation"]
    assert len(translated) == 1 and translated[0].data["text"] == "hello"  # type: ignore[union-attr]


async def test_background_abort_counts_only_renderers_as_watching(repos: Repositories) -> None:
    """A window and an API caller watch one stream: when the window goes, the stream stops
    (its partial persisted `paused`) although the caller still listens."""
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, background_mode="abort")
    topic = repos.topics.create_topic().id
    row_id, persist = persisted(repos, topic)
    win, api = Recorder("wc:1"), Recording("sse:1")
    mgr.send(SendInput(topic_id=topic, models=models(topic, row_id), listeners=[win, api, persist]))
    feed = await fake.feed(topic, M1)
    feed.push(*text_chunks("par"))
    await until(lambda: len(api.chunks) == 5, limit=3.0)
    win.alive = False
    feed.push(TextDeltaChunk(id="t1", delta="t"), END)
    await until(lambda: repos.messages.get_message(row_id).status != "pending", limit=3.0)
    assert repos.messages.get_message(row_id).status == "paused"
    assert api.paused and api.paused[0].stop_reason == "no-subscribers"


async def test_multi_window_both_windows_get_every_chunk_in_order() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    a = Recorder("wc:1:t")
    mgr.send(SendInput(topic_id="t", models=models("t"), listeners=[a]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("hello"))
    await until(lambda: len(a.chunks) == 7, limit=3.0)
    b = Recorder("wc:2:t")
    att = mgr.attach(b, "t")
    feed.push(*text_chunks(" world", part_id="t2"), END)
    await until(lambda: bool(a.done) and bool(b.done), limit=3.0)
    assert a.text() == "hello world"
    replayed = "".join(getattr(c, "delta", "") for c in att.replays[0].chunks if c.type == "text-delta")
    assert replayed + b.text() == "hello world"


async def test_channel_and_sse_scenario_differs_only_by_listener_composition() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    channel, sse, window = Recorder("channel:discord:42"), Recorder("sse:1"), Recorder("wc:9:t")
    res = mgr.send(SendInput(topic_id="t", models=models("t"), listeners=[channel, sse]))
    assert res.mode == "started"
    mgr.send(SendInput(topic_id="t", models=[], listeners=[window]))  # the user watches too
    (await fake.feed("t", M1)).push(*text_chunks("pong"), END)
    await until(lambda: bool(channel.done) and bool(sse.done) and bool(window.done), limit=3.0)
    assert channel.text() == sse.text() == window.text() == "pong"


async def test_main_process_restart_clears_streams_and_pending_rows_recover(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    topic = repos.topics.create_topic().id
    row_id, persist = persisted(repos, topic)
    mgr.send(SendInput(topic_id=topic, models=models(topic, row_id), listeners=[persist]))
    await fake.feed(topic, M1)
    restarted = AiStreamManager(stream_text=fake.stream_text)  # a new process: nothing in memory
    assert restarted.inspect(topic) is None and not restarted.has_live_stream(topic)
    assert recover_interrupted_messages(repos) == [row_id]
    assert repos.messages.get_message(row_id).status == "error"
    await mgr.shutdown()


async def test_write_quiesce_blocks_new_turns_and_drains_running_ones() -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    rec = PersistingRecorder()
    mgr.send(SendInput(topic_id="t", models=models("t"), listeners=[rec]))
    feed = await fake.feed("t", M1)
    hold = mgr.pause("backup")
    assert mgr.writes_paused
    try:
        mgr.send(SendInput(topic_id="u", models=models("u"), listeners=[]))
        raise AssertionError("send admitted a new turn while paused")
    except WritesPausedError:
        pass
    assert [w.id for w in mgr.list_active_work()] == [f"t:{M1}"]
    assert await mgr.drain_in_flight(timeout_ms=20) == [f"t:{M1}"]
    drain = asyncio.ensure_future(mgr.drain_in_flight(timeout_ms=3000))
    feed.push(END)
    assert await drain == []
    assert rec.done and mgr.list_active_work() == []
    hold.dispose()
    hold.dispose()  # idempotent
    assert not mgr.writes_paused
    assert mgr.send(SendInput(topic_id="u", models=models("u"), listeners=[])).mode == "started"
    await fake.feed("u", M1)
    await mgr.shutdown()
