"""How a segment's chunks reach its execution: queued while the execution is busy or not open yet,
handed over directly (`AiStreamManager.chunk_sink`) while it waits on an empty queue."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.agent_session.state import END, RuntimeTurn, Segment
from cherry_desktop.core.ai.runtime.types import ChunkEvent, RuntimeConnectInput
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import (
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    UIMessage,
    UIMessageChunk,
    message_text,
)
from tests.fakes.scripted_driver import ScriptedConnection, ScriptedDriver
from tests.unit.agent_session.harness import make_harness, until


def wrap_chunk_sink(monkeypatch: pytest.MonkeyPatch, manager: Any,
                    through: Callable[[Callable[[UIMessageChunk], None], Any], None]) -> None:
    """Every sink the manager hands out calls `through(sink, chunk)` instead of `sink(chunk)`."""
    chunk_sink = manager.chunk_sink

    def wrapped(topic_id: str, model_id: str) -> Callable[[UIMessageChunk], None]:
        sink = chunk_sink(topic_id, model_id)
        assert sink is not None  # the segment opens inside its live execution
        return lambda chunk: through(sink, chunk)

    monkeypatch.setattr(manager, "chunk_sink", wrapped)


async def test_segment_queues_until_its_reader_waits_then_hands_chunks_over() -> None:
    turn = RuntimeTurn(id="t", session_id="s", topic_id="agent-session:s", user_message=UIMessage.user_text("hi"),
                       model_id="m")
    seg = Segment(id="seg", turn=turn, assistant_message_id="a", model_id="m")
    handed: list[Any] = []
    seg.deliver = handed.append
    first = TextStartChunk(id="x")
    seg.push(first)  # nobody reads yet: queued
    assert handed == [] and seg.queue.qsize() == 1
    assert await seg.queue.get() is first
    reader = asyncio.get_running_loop().create_task(seg.queue.get())
    await asyncio.sleep(0)  # the reader now waits on the empty queue
    assert seg.queue.parked
    second = TextDeltaChunk(id="x", delta="y")
    seg.push(second)
    assert handed == [second] and seg.queue.empty() and not reader.done()
    seg.push(END)  # the end always goes through the queue: the reader's loop ends the segment
    assert await reader is END
    seg.push(TextEndChunk(id="x"))
    assert handed == [second] and seg.queue.empty()


async def test_chunks_go_straight_to_a_waiting_execution_in_order(repos: Repositories, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    h = make_harness(repos, tmp_path)
    direct: list[str] = []

    def counting(sink: Callable[[UIMessageChunk], None], chunk: Any) -> None:
        direct.append(getattr(chunk, "delta", chunk.type))
        sink(chunk)

    wrap_chunk_sink(monkeypatch, h.manager, counting)
    await h.send("hello")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.emit(ChunkEvent(TextStartChunk(id="t")), *(ChunkEvent(TextDeltaChunk(id="t", delta=f"{i} "))
                                                    for i in range(4)), ChunkEvent(TextEndChunk(id="t")))
    conn.complete()
    await h.idle()
    assert direct == ["text-start", "0 ", "1 ", "2 ", "3 ", "text-end"]
    assistant = h.rows()[1]
    assert h.subscriber.text_for(assistant.id) == "0 1 2 3 "
    row = h.row(assistant.id)
    assert row.status == "success" and message_text(row.to_ui_message()) == "0 1 2 3 "


async def test_a_failing_direct_delivery_ends_the_segment_as_an_error(repos: Repositories, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    h = make_harness(repos, tmp_path)

    def failing(sink: Callable[[UIMessageChunk], None], chunk: Any) -> None:
        if getattr(chunk, "delta", None) == "boom":
            raise ValueError("cannot fold this chunk")
        sink(chunk)

    wrap_chunk_sink(monkeypatch, h.manager, failing)
    await h.send("hello")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.emit(ChunkEvent(TextStartChunk(id="t")))
    await until(lambda: h.subscriber.chunks)
    conn.emit(ChunkEvent(TextDeltaChunk(id="t", delta="boom")))
    await h.idle()
    row = h.rows()[1]
    assert row.status == "error" and "cannot fold this chunk" in str(row.parts[-1])
    assert conn.interrupts == 1  # the runtime turn is stopped like any failed segment
    # The connection stays usable: the next turn runs on it.
    await h.send("again")
    sent = await conn.wait_sent(2)
    assert message_text(sent.message) == "again"
    conn.complete("fine")
    await h.idle()
    assert h.rows()[-1].status == "success"


async def test_a_connection_chunk_sink_routes_to_the_live_segment_like_chunk_events(repos: Repositories,
                                                                                   tmp_path: Path) -> None:
    """`set_chunk_sink` (Claude Code's bare text deltas): in order with the chunk events, dropped
    outside a turn, detached when the connection's stream ends."""
    driver = ScriptedDriver(event_sink=True)
    sinks: list[Callable[[UIMessageChunk | None], None] | None] = []
    connect = driver.connect

    async def connect_with_chunk_sink(input: RuntimeConnectInput) -> ScriptedConnection:
        conn = await connect(input)
        conn.set_chunk_sink = sinks.append  # type: ignore[attr-defined]
        return conn

    driver.connect = connect_with_chunk_sink  # type: ignore[method-assign]
    h = make_harness(repos, tmp_path, driver=driver)
    await h.send("hello")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    await until(lambda: sinks and sinks[-1] is not None)
    chunk_sink = sinks[-1]
    assert chunk_sink is not None
    conn.emit(ChunkEvent(TextStartChunk(id="t")))
    await until(lambda: h.subscriber.chunks)
    for i in range(3):
        chunk_sink(TextDeltaChunk(id="t", delta=f"{i} "))
    conn.emit(ChunkEvent(TextEndChunk(id="t")))
    conn.complete()
    await h.idle()
    assistant = h.rows()[1]
    assert h.subscriber.text_for(assistant.id) == "0 1 2 "
    row = h.row(assistant.id)
    assert row.status == "success" and message_text(row.to_ui_message()) == "0 1 2 "
    chunk_sink(TextDeltaChunk(id="t", delta="late"))  # no live turn: dropped
    assert h.subscriber.text_for(assistant.id) == "0 1 2 "
    conn.die()
    await until(lambda: sinks[-1] is None)
