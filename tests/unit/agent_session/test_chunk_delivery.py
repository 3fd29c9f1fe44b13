"""One way for a chunk to enter the broker: the execution pulls every chunk from the source
`open_turn_stream` returned (no pushed door around it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from cherry_desktop.core.ai.runtime.events import ChunkEvent
from cherry_desktop.core.ai.stream.types import AiStreamRequest
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import TextDeltaChunk, TextEndChunk, TextStartChunk, UIMessageChunk, message_text
from tests.unit.agent_session.harness import make_harness
from tests.waiting import until


async def test_every_chunk_reaches_the_subscriber_through_the_pulled_source(repos: Repositories,
                                                                           tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    pulled: list[str] = []
    stream_text = h.ai_service.stream_text  # what the app's manager streams through

    async def counting(request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        source = await stream_text(request)

        async def through() -> AsyncIterator[UIMessageChunk]:
            async for chunk in source:
                pulled.append(getattr(chunk, "delta", chunk.type))
                yield chunk
        return through()

    h.manager.set_stream_text(counting)
    await h.send("hello")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.emit(ChunkEvent(TextStartChunk(id="t")))
    # The execution now waits on an empty queue: the chunks that follow still go through it.
    await until(lambda: h.subscriber.chunks)
    conn.emit(*(ChunkEvent(TextDeltaChunk(id="t", delta=f"{i} ")) for i in range(4)), ChunkEvent(TextEndChunk(id="t")))
    conn.complete()
    await h.idle()
    assert pulled == ["text-start", "0 ", "1 ", "2 ", "3 ", "text-end"]
    seen = [getattr(c, "delta", c.type) for _, c in h.subscriber.chunks]
    assert seen == pulled
    row = h.rows()[1]
    assert row.status == "success" and message_text(row.to_ui_message()) == "0 1 2 3 "


def test_the_pushed_doors_are_gone() -> None:
    """Neither the broker nor a runtime connection (Claude Code, pi) offer a second way in."""
    from cherry_desktop.core.ai.agent_session.host import RuntimeStreamHost
    from cherry_desktop.core.ai.agent_session.state import Segment
    from cherry_desktop.core.ai.runtime.claude_code.connection import ClaudeCodeConnection
    from cherry_desktop.core.ai.runtime.pi.connection import PiConnection
    from cherry_desktop.core.ai.stream.manager import AiStreamManager

    assert not hasattr(AiStreamManager, "chunk_sink")
    assert not hasattr(RuntimeStreamHost, "chunk_sink")
    assert not hasattr(ClaudeCodeConnection, "set_chunk_sink")
    assert not hasattr(PiConnection, "set_chunk_sink")
    assert "deliver" not in Segment.__dataclass_fields__
