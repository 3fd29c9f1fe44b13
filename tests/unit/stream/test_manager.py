"""AiStreamManager core: send, multicast, attach, abort, topic status, lifecycles."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    ModelDispatch,
    SendInput,
    TopicStatusSnapshotEntry,
)
from cherry_desktop.core.messages import TextDeltaChunk
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from tests.unit.stream.helpers import (
    END,
    FakeAi,
    Recorder,
    approval_chunks,
    error_chunk,
    reasoning_chunks,
    reply,
    text_chunks,
)
from tests.waiting import until

M1 = "p::m1"
M2 = "p::m2"


def dispatch(topic: str, *models: str) -> list[ModelDispatch]:
    return [ModelDispatch(m, AiStreamRequest(model_id=m, topic_id=topic), anchor_message_id=f"a-{m}")
            for m in models]


MADE: list[AiStreamManager] = []


def make(**cfg: object) -> tuple[AiStreamManager, FakeAi]:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, **cfg)  # type: ignore[arg-type]
    MADE.append(mgr)
    return mgr, fake


@pytest.fixture(autouse=True)
async def managers_shut_down() -> AsyncIterator[None]:
    """Every manager a test made is shut down after it (streams it left open end as the app's do)."""
    yield
    while MADE:
        await MADE.pop().shutdown()


def status(mgr: AiStreamManager, topic: str) -> TopicStatusSnapshotEntry:
    entry = mgr.shared_cache.get(topic_stream_status_key(topic))
    assert isinstance(entry, TopicStatusSnapshotEntry)
    return entry


async def test_send_starts_one_execution_and_statuses_go_pending_streaming_done() -> None:
    mgr, fake = make(grace_period_ms=10_000)
    seen: list[str] = []

    def on_status(key: str, value: TopicStatusSnapshotEntry) -> None:
        seen.append(value.status)

    mgr.shared_cache.subscribe(topic_stream_status_key("t"), on_status)  # held weakly: keep `on_status`
    rec = Recorder()
    result = mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    assert result.mode == "started" and result.execution_ids == [M1]
    assert status(mgr, "t").status == "pending"
    assert status(mgr, "t").active_executions[0].anchor_message_id == f"a-{M1}"
    feed = await fake.feed("t", M1)
    feed.push(*reply("hi", usage={"total_tokens": 7}))
    await until(lambda: len(rec.chunks) == 8, limit=3.0)
    assert status(mgr, "t").status == "streaming"
    feed.end()
    await until(lambda: bool(rec.done), limit=3.0)
    done = rec.done[0]
    assert done.is_topic_done and done.final_message is not None
    assert done.final_message.text() == "hi" and done.final_message.metadata["total_tokens"] == 7
    assert done.final_message.id == f"a-{M1}"
    assert done.timings.completed_at is not None and done.timings.completed_at >= done.timings.started_at
    assert seen == ["pending", "streaming", "done"]
    entry = status(mgr, "t")
    assert entry.last_completed_at is not None and entry.active_executions == ()
    snap = mgr.inspect("t")
    assert snap is not None and snap.status == "done" and snap.expires_at is not None
    assert not mgr.has_live_stream("t")


async def test_single_model_chunks_are_untagged_multi_model_chunks_carry_model_and_anchor() -> None:
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1, M2), listeners=[rec], siblings_group_id=3))
    snap = mgr.inspect("t")
    assert snap is not None and snap.is_multi_model
    assert {e.siblings_group_id for e in snap.executions} == {3}
    f1, f2 = await fake.feed("t", M1), await fake.feed("t", M2)
    f1.push(TextDeltaChunk(id="x", delta="a"))
    f2.push(TextDeltaChunk(id="x", delta="b"))
    await until(lambda: len(rec.chunks) == 2, limit=3.0)
    assert {(c.delta, m, a) for c, m, a in rec.chunks} == {("a", M1, f"a-{M1}"), ("b", M2, f"a-{M2}")}
    f1.end()
    await until(lambda: len(rec.done) == 1, limit=3.0)
    assert not rec.done[0].is_topic_done and mgr.has_live_stream("t")
    f2.end()
    await until(lambda: len(rec.done) == 2, limit=3.0)
    assert rec.done[1].is_topic_done and status(mgr, "t").status == "done"

    mgr2, fake2 = make()
    rec2 = Recorder()
    mgr2.send(SendInput(topic_id="s", models=dispatch("s", M1), listeners=[rec2]))
    (await fake2.feed("s", M1)).push(TextDeltaChunk(id="x", delta="a"))
    await until(lambda: bool(rec2.chunks), limit=3.0)
    assert rec2.chunks[0][1] is None and rec2.chunks[0][2] == f"a-{M1}"


async def test_empty_models_never_throws_and_launches_nothing() -> None:
    mgr, fake = make()
    assert mgr.send(SendInput(topic_id="t", models=[], listeners=[Recorder()])).mode == "injected"
    assert mgr.inspect("t") is None and fake.requests == []


async def test_send_on_live_topic_injects_listeners_and_ignores_models() -> None:
    mgr, fake = make()
    a, b = Recorder("wc:1:t"), Recorder("wc:2:t")
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[a]))
    feed = await fake.feed("t", M1)
    res = mgr.send(SendInput(topic_id="t", models=dispatch("t", M2), listeners=[b]))
    assert res.mode == "injected" and res.execution_ids == [M1]
    feed.push(TextDeltaChunk(id="x", delta="z"))
    await until(lambda: bool(a.chunks) and bool(b.chunks), limit=3.0)
    assert len(fake.requests) == 1


async def test_one_failing_listener_starves_no_other_and_dead_listeners_are_removed() -> None:
    mgr, fake = make()
    bad = Recorder("bad", raise_on_chunk=True, raise_on_terminal=True)
    dead = Recorder("dead")
    good = Recorder("good")
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[bad, dead, good]))
    feed = await fake.feed("t", M1)
    dead.alive = False
    feed.push(*text_chunks("ab"))
    await until(lambda: len(good.chunks) == 4, limit=3.0)
    snap = mgr.inspect("t")
    assert snap is not None and "dead" not in snap.listener_ids and "bad" in snap.listener_ids
    assert dead.chunks == []
    feed.end()
    await until(lambda: bool(good.done), limit=3.0)
    assert bad.done == []


async def test_terminal_dispatch_skips_a_listener_that_died_since_the_last_chunk() -> None:
    mgr, fake = make()
    a, b = Recorder("a"), Recorder("b")
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[a, b]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("x"))
    await until(lambda: len(a.chunks) == 3, limit=3.0)
    a.alive = False
    feed.end()
    await until(lambda: bool(b.done), limit=3.0)
    assert a.done == []
    snap = mgr.inspect("t")
    assert snap is not None and "a" not in snap.listener_ids


async def test_pre_stream_error_and_in_stream_error_chunk_and_raised_error_end_as_error() -> None:
    mgr, fake = make()
    fake.pre_errors[M1] = ValueError("no such model")
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    await until(lambda: bool(rec.errors), limit=3.0)
    assert rec.errors[0].error.message == "no such model" and rec.errors[0].error.name == "ValueError"
    assert status(mgr, "t").status == "error"
    assert mgr.attach(Recorder("late"), "t").error is not None

    rec2 = Recorder()
    mgr.send(SendInput(topic_id="u", models=dispatch("u", M2), listeners=[rec2]))
    feed = await fake.feed("u", M2)
    feed.push(*text_chunks("part"), error_chunk("rate limited"))
    feed.end()
    await until(lambda: bool(rec2.errors), limit=3.0)
    err = rec2.errors[0]
    assert err.error.message == "rate limited"
    assert err.final_message is not None and err.final_message.text() == "part"

    rec3 = Recorder()
    mgr.send(SendInput(topic_id="v", models=dispatch("v", M2), listeners=[rec3]))
    (await fake.feed("v", M2)).fail(ConnectionError("reset by peer"))
    await until(lambda: bool(rec3.errors), limit=3.0)
    assert rec3.errors[0].error.message == "reset by peer"


async def test_user_abort_persists_paused_and_status_aborted() -> None:
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1, M2), listeners=[rec]))
    f1, f2 = await fake.feed("t", M1), await fake.feed("t", M2)
    f1.push(*text_chunks("partial")[:-1])
    await until(lambda: len(rec.chunks) >= 8, limit=3.0)
    mgr.abort("t", "user")
    await until(lambda: len(rec.paused) == 2, limit=3.0)
    assert f1.closed and f2.closed
    by_model = {p.model_id: p for p in rec.paused}
    assert by_model[M1].final_message is not None and by_model[M1].final_message.text() == "partial"
    assert status(mgr, "t").status == "aborted"
    att = mgr.attach(Recorder("late"), "t")
    assert att.status == "paused" and att.final_messages[M1].text() == "partial"


async def test_abort_with_approval_pending_surfaces_awaiting_approval() -> None:
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    feed = await fake.feed("t", M1)
    feed.push(*approval_chunks())
    await until(lambda: len(rec.chunks) == 2, limit=3.0)
    mgr.abort("t")
    await until(lambda: bool(rec.paused), limit=3.0)
    assert status(mgr, "t").status == "awaiting-approval"


async def test_tool_approval_request_marks_execution_and_topic_awaiting_approval() -> None:
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1, M2), listeners=[rec]))
    f1, f2 = await fake.feed("t", M1), await fake.feed("t", M2)
    f1.push(*approval_chunks())
    await until(lambda: len(rec.chunks) == 2, limit=3.0)
    snap = mgr.inspect("t")
    assert snap is not None and [e.awaiting_approval for e in snap.executions] == [True, False]
    f1.end()
    f2.push(*text_chunks("ok"))
    f2.end()
    await until(lambda: len(rec.done) == 2, limit=3.0)
    entry = status(mgr, "t")
    assert entry.status == "awaiting-approval"
    assert [a.model_id for a in entry.awaiting_approval_anchors] == [M1]
    assert entry.last_completed_at is None  # only `done` bumps the read-receipt gate
    mgr.clear_awaiting_approval("t", M1)
    assert status(mgr, "t").status == "done"


async def test_approval_inside_a_live_turn_surfaces_at_once_and_clears_on_answer() -> None:
    """A runtime that waits inside the turn (Claude Code) keeps streaming after the request:
    the topic shows `awaiting-approval` while it waits, `streaming` once answered."""
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("a"))
    await until(lambda: status(mgr, "t").status == "streaming", limit=3.0)
    feed.push(*approval_chunks())
    await until(lambda: len(rec.chunks) == 5, limit=3.0)
    entry = status(mgr, "t")
    assert entry.status == "awaiting-approval"
    assert [a.model_id for a in entry.awaiting_approval_anchors] == [M1]
    assert mgr.has_live_stream("t")  # still live: a follow-up injects, it does not start a turn
    mgr.clear_awaiting_approval("t", M1)
    assert status(mgr, "t").status == "streaming"
    assert status(mgr, "t").awaiting_approval_anchors == ()
    feed.push(*text_chunks("b", part_id="t2"))
    feed.end()
    await until(lambda: len(rec.done) == 1, limit=3.0)
    assert status(mgr, "t").status == "done"


async def test_last_completed_at_survives_later_non_done_terminals() -> None:
    mgr, fake = make()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[]))
    (await fake.feed("t", M1)).end()
    await until(lambda: mgr.inspect("t") is not None and mgr.inspect("t").status == "done", limit=3.0)  # type: ignore[union-attr]
    first = status(mgr, "t").last_completed_at
    assert first is not None
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[]))
    assert status(mgr, "t").status == "pending" and status(mgr, "t").last_completed_at == first
    await fake.feed("t", M1, 1)
    mgr.abort("t")
    await until(lambda: status(mgr, "t").status == "aborted", limit=3.0)
    assert status(mgr, "t").last_completed_at == first


async def test_grace_period_evicts_but_keeps_the_shared_cache_entry() -> None:
    mgr, fake = make(grace_period_ms=30)
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[]))
    (await fake.feed("t", M1)).end()
    await until(lambda: mgr.inspect("t") is None, limit=3.0)
    assert mgr.attach(Recorder(), "t").status == "not-found"
    assert status(mgr, "t").status == "done"


async def test_retry_after_stop_evicts_the_grace_period_remnant_first() -> None:
    mgr, fake = make(grace_period_ms=60_000)
    old = Recorder("old")
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[old]))
    await fake.feed("t", M1)
    mgr.abort("t")
    await until(lambda: bool(old.paused), limit=3.0)
    before = mgr.inspect("t")
    assert before is not None and before.expires_at is not None
    new = Recorder("new")
    res = mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[new]))
    assert res.mode == "started"
    snap = mgr.inspect("t")
    assert snap is not None and snap.listener_ids == ("new",) and snap.expires_at is None
    assert snap.status == "pending"


async def test_attach_mid_stream_returns_compact_replay_per_execution() -> None:
    mgr, fake = make()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1, M2), listeners=[]))
    f1, f2 = await fake.feed("t", M1), await fake.feed("t", M2)
    f1.push(*reasoning_chunks("think"), *text_chunks("hello"))
    f2.push(*text_chunks("yo"))
    await until(lambda: f1.yielded + f2.yielded == 18, limit=3.0)
    await asyncio.sleep(0)
    late = Recorder("late")
    att = mgr.attach(late, "t")
    assert att.status == "streaming" and att.is_multi_model
    replays = {r.execution_id: r for r in att.replays}
    assert [c.type for c in replays[M1].chunks] == ["reasoning-start", "reasoning-delta", "reasoning-end",
                                                     "text-start", "text-delta", "text-end"]
    assert replays[M1].chunks[1].delta == "think" and replays[M1].chunks[4].delta == "hello"  # type: ignore[union-attr]
    assert replays[M2].chunks[1].delta == "yo"  # type: ignore[union-attr]
    f1.push(TextDeltaChunk(id="t2", delta="!"))
    await until(lambda: bool(late.chunks), limit=3.0)
    assert late.chunks[0][0].delta == "!"  # type: ignore[union-attr]


async def test_attach_states_not_found_done_and_prompt_streams_refuse() -> None:
    mgr, fake = make()
    assert mgr.attach(Recorder(), "nope").status == "not-found"
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[]))
    (await fake.feed("t", M1)).push(*text_chunks("done!"), END)
    await until(lambda: mgr.inspect("t") is not None and mgr.inspect("t").status == "done", limit=3.0)  # type: ignore[union-attr]
    att = mgr.attach(Recorder("w"), "t")
    assert att.status == "done" and att.final_messages[M1].text() == "done!"
    snap = mgr.inspect("t")
    assert snap is not None and "w" not in snap.listener_ids


async def test_ring_buffer_overflow_counts_dropped_chunks_and_attach_logs_it(caplog: pytest.LogCaptureFixture) -> None:
    mgr, fake = make(max_buffer_chunks=3)
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("abcdef"))  # 8 chunks into a ring of 3
    await until(lambda: feed.yielded == 8, limit=3.0)
    await asyncio.sleep(0)
    snap = mgr.inspect("t")
    assert snap is not None and snap.executions[0].buffer_size == 3 and snap.executions[0].dropped_chunks == 5
    with caplog.at_level(logging.WARNING):
        att = mgr.attach(Recorder(), "t")
    assert att.replays[0].dropped_chunks == 5
    assert [c.type for c in att.replays[0].chunks] == ["text-delta", "text-end"]
    assert "dropped 5 chunk(s)" in caplog.text


async def test_same_window_reattach_upserts_by_id() -> None:
    mgr, fake = make()
    first = Recorder("wc:7:t")
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[first]))
    feed = await fake.feed("t", M1)
    again = Recorder("wc:7:t")
    mgr.attach(again, "t")
    assert mgr.add_listener("t", again) is True
    feed.push(TextDeltaChunk(id="x", delta="q"))
    await until(lambda: bool(again.chunks), limit=3.0)
    snap = mgr.inspect("t")
    assert snap is not None and snap.listener_ids.count("wc:7:t") == 1
    assert first.chunks == [] and len(again.chunks) == 1
    mgr.detach(again, "t")
    assert mgr.inspect("t").listener_ids == ()  # type: ignore[union-attr]
    assert mgr.add_listener("missing", again) is False


async def test_idle_timeout_stops_a_silent_upstream_as_paused_with_its_reason() -> None:
    mgr, fake = make(idle_timeout_ms=40)
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("a"))
    await until(lambda: bool(rec.terminals), limit=3.0)
    assert rec.errors == [] and len(rec.paused) == 1 and feed.closed
    assert rec.paused[0].stop_reason == "idle-timeout"
    assert rec.paused[0].final_message is not None and rec.paused[0].final_message.text() == "a"
    assert status(mgr, "t").status == "aborted"


async def test_stream_prompt_is_silent_unattachable_and_evicted_at_once() -> None:
    mgr, fake = make()
    rec = Recorder("prompt-cb")
    res = mgr.stream_prompt(stream_id="naming:1", unique_model_id=M1, prompt="Name this", listener=rec)
    assert res.mode == "started"
    assert mgr.attach(Recorder(), "naming:1").status == "not-found"
    feed = await fake.feed("naming:1", M1)
    assert feed.request.messages[0].text() == "Name this"
    feed.push(*text_chunks("Quantum talk"), END)
    await until(lambda: bool(rec.done), limit=3.0)
    assert rec.done[0].final_message is not None and rec.done[0].final_message.text() == "Quantum talk"
    assert mgr.inspect("naming:1") is None
    assert mgr.shared_cache.snapshot() == {}


async def test_an_execution_settles_once_at_its_first_terminal() -> None:
    """An upstream that fails mid-stream ends the execution as error; the chunks and the end
    it sends after that reach nobody and change nothing."""
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    feed = await fake.feed("t", M1)
    feed.push(TextDeltaChunk(id="x", delta="direct"))
    await until(lambda: bool(rec.chunks), limit=3.0)
    assert rec.chunks[-1][0].delta == "direct"  # type: ignore[union-attr]
    feed.fail(RuntimeError("boom"))
    feed.push(TextDeltaChunk(id="x", delta="late"), END)
    await until(lambda: bool(rec.errors), limit=3.0)
    assert rec.errors[0].error.message == "boom"
    assert status(mgr, "t").status == "error"
    await asyncio.sleep(0.01)
    assert rec.done == [] and len(rec.errors) == 1 and len(rec.chunks) == 1


async def test_shutdown_pauses_running_streams_and_awaits_their_persistence() -> None:
    mgr, fake = make()
    rec = Recorder()
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[rec]))
    (await fake.feed("t", M1)).push(*text_chunks("x"))
    await until(lambda: len(rec.chunks) == 3, limit=3.0)
    await mgr.shutdown()
    assert len(rec.paused) == 1 and mgr.topic_ids() == []


async def test_background_mode_can_change_while_running() -> None:
    mgr, fake = make()
    win = Recorder("wc:1:t")
    mgr.send(SendInput(topic_id="t", models=dispatch("t", M1), listeners=[win]))
    feed = await fake.feed("t", M1)
    feed.push(*text_chunks("ab"))
    await until(lambda: len(win.chunks) >= 2, limit=3.0)
    mgr.set_background_mode("abort")
    assert mgr.config.background_mode == "abort"
    win.alive = False
    feed.push(TextDeltaChunk(id="t1", delta="c"))
    await until(lambda: status(mgr, "t").status == "aborted", limit=3.0)
