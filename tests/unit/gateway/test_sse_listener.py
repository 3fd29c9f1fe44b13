"""`SseListener`: chunks as `data:` lines, [DONE] only when the topic is done, and a response that
ends (its caller left) only closes the listener."""

from __future__ import annotations

import json

from cherry_desktop.core.ai.stream import SseListener
from cherry_desktop.core.ai.stream.listeners import is_renderer, is_subscriber
from cherry_desktop.core.ai.stream.types import StreamDoneResult, StreamPausedResult, TransportTimings
from cherry_desktop.core.messages import TextDeltaChunk, TextStartChunk


def result(cls: type, *, topic_done: bool) -> object:
    return cls(topic_id="t", model_id="p::m", final_message=None, timings=TransportTimings(started_at=0.0),
               is_topic_done=topic_done)


async def test_chunks_then_done_only_at_the_topics_end() -> None:
    listener = SseListener()
    assert listener.id.startswith("sse:") and listener.is_alive()
    listener.replay([TextStartChunk(id="a")])
    listener.on_chunk(TextDeltaChunk(id="a", delta="Hi"))
    await listener.on_done(result(StreamDoneResult, topic_done=False))  # a steer roll: the topic goes on
    listener.on_chunk(TextDeltaChunk(id="b", delta="more"))
    await listener.on_paused(result(StreamPausedResult, topic_done=True))
    frames = [frame async for frame in listener.frames()]
    assert frames[-1] == b"data: [DONE]\n\n"
    chunks = [json.loads(f.decode().removeprefix("data: ")) for f in frames[:-1]]
    assert chunks == [{"type": "text-start", "id": "a"}, {"type": "text-delta", "id": "a", "delta": "Hi"},
                      {"type": "text-delta", "id": "b", "delta": "more"}]
    assert not listener.is_alive()


async def test_a_caller_that_leaves_closes_only_the_listener() -> None:
    listener = SseListener()
    listener.on_chunk(TextDeltaChunk(id="a", delta="x"))
    frames = listener.frames()
    assert await frames.__anext__() == b'data: {"type":"text-delta","id":"a","delta":"x"}\n\n'
    await frames.aclose()  # starlette closes the body when the caller disconnects
    assert not listener.is_alive()
    listener.on_chunk(TextDeltaChunk(id="a", delta="ignored"))  # the manager prunes it; nothing raises
    # A subscriber (carried onto a steer's continuation), never a renderer (whose leaving may stop
    # a stream in background_mode "abort").
    assert is_subscriber(listener) and not is_renderer(listener)
