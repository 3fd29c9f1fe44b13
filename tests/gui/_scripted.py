"""A scripted `stream_text` for GUI tests: the test pushes chunks on cue, then ends the turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing

from cherry_desktop.core.ai.stream import AiStreamRequest
from cherry_desktop.core.messages import (
    FinishChunk,
    StartChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    UIMessageChunk,
)
from tests.unit.stream.helpers import Feed as StreamFeed
from tests.waiting import until


class Feed(StreamFeed):
    """A turn of one text part: started at once, then the test's deltas, then `end()`; it stops
    after the chunk during which the request was aborted."""

    def text(self, *deltas: str, part_id: str = "t1") -> Feed:
        self.push(*(TextDeltaChunk(id=part_id, delta=d) for d in deltas))
        return self

    def end(self, part_id: str = "t1") -> None:
        self.push(TextEndChunk(id=part_id), FinishChunk(finish_reason="stop"))
        super().end()

    async def iterate(self) -> AsyncIterator[UIMessageChunk]:
        yield StartChunk(message_id=self.request.message_id)
        yield TextStartChunk(id="t1")
        async with aclosing(super().iterate()) as chunks:
            async for chunk in chunks:
                yield chunk
                if self.request.signal is not None and self.request.signal.aborted:
                    return


class ScriptedAi:
    """`AiService.stream_text` stand-in: one `Feed` per request. Auto-naming's prompts (stream
    ids `naming:*`) are answered at once with `naming_title` and kept in `naming_requests`,
    not fed: the tests' feed indexes count the turns they drive."""

    def __init__(self) -> None:
        self.feeds: list[Feed] = []
        self.naming_requests: list[AiStreamRequest] = []
        self.naming_title = "Scripted title"

    async def stream_text(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        from cherry_desktop.core.ai.naming import NAMING_STREAM_PREFIX

        feed = Feed(request)
        if (request.topic_id or "").startswith(NAMING_STREAM_PREFIX):
            self.naming_requests.append(request)
            feed.text(self.naming_title).end()
            return feed.iterate()
        self.feeds.append(feed)
        return feed.iterate()

    async def feed(self, index: int = 0) -> Feed:
        await until(lambda: len(self.feeds) > index)
        return self.feeds[index]
