"""Test doubles for the stream manager: a scripted `stream_text` and a recording listener."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any

from cherry_desktop.core.ai.stream import (
    AiStreamOpenRequest,
    AiStreamRequest,
    PersistingListener,
    RendererListener,
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    TerminalListener,
    user_parts,
)
from cherry_desktop.core.messages import (
    ErrorChunk,
    FinishChunk,
    FinishStepChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningStartChunk,
    StartChunk,
    StartStepChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    ToolApprovalRequestChunk,
    ToolInputAvailableChunk,
    UIMessageChunk,
)
from tests.waiting import until

END = object()


class Feed:
    """One scripted upstream: the test pushes chunks on cue, then ends or fails it."""

    def __init__(self, request: AiStreamRequest) -> None:
        self.request = request
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.closed = False
        self.yielded = 0

    def push(self, *chunks: UIMessageChunk) -> Feed:
        for c in chunks:
            self.queue.put_nowait(c)
        return self

    def end(self) -> None:
        self.queue.put_nowait(END)

    def fail(self, exc: BaseException) -> None:
        self.queue.put_nowait(exc)

    async def iterate(self) -> AsyncIterator[UIMessageChunk]:
        try:
            while True:
                item = await self.queue.get()
                if item is END:
                    return
                if isinstance(item, BaseException):
                    raise item
                if callable(item):
                    # A step-boundary hook: lets the scripted turn honour `steer_yield`.
                    if item(self.request):
                        return
                    continue
                self.yielded += 1
                yield item
        finally:
            self.closed = True


class FakeAi:
    """The `AiService.stream_text` stand-in: one `Feed` per request, keyed by (topic, model)."""

    def __init__(self) -> None:
        self.feeds: dict[tuple[str, str], list[Feed]] = defaultdict(list)
        self.requests: list[AiStreamRequest] = []
        self.pre_errors: dict[str, BaseException] = {}
        self.preloaded: dict[tuple[str, str], list[list[Any]]] = defaultdict(list)

    def preload(self, topic_id: str, model_id: str, items: list[Any]) -> None:
        """Script the next request's stream entirely (use `END` to finish it)."""
        self.preloaded[(topic_id, model_id)].append(items)

    async def stream_text(self, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        self.requests.append(request)
        if request.model_id in self.pre_errors:
            raise self.pre_errors[request.model_id]
        feed = Feed(request)
        key = (request.topic_id or "", request.model_id)
        if self.preloaded.get(key):
            for item in self.preloaded[key].pop(0):
                feed.queue.put_nowait(item)
        self.feeds[key].append(feed)
        return feed.iterate()

    async def feed(self, topic_id: str, model_id: str, index: int = 0) -> Feed:
        await until(lambda: len(self.feeds.get((topic_id, model_id), [])) > index, limit=3.0)
        return self.feeds[(topic_id, model_id)][index]


class Recording:
    """A listener recording everything it gets (no kind: a channel, an SSE response, a
    headless caller). `Recorder` is the window one."""

    def __init__(self, id: str = "wc:1:t", *, raise_on_chunk: bool = False, raise_on_terminal: bool = False) -> None:
        self._id = id
        self.alive = True
        self.chunks: list[tuple[UIMessageChunk, str | None, str | None]] = []
        self.done: list[StreamDoneResult] = []
        self.paused: list[StreamPausedResult] = []
        self.errors: list[StreamErrorResult] = []
        self.raise_on_chunk = raise_on_chunk
        self.raise_on_terminal = raise_on_terminal
        self.on_terminal: Callable[[Any], None] | None = None

    @property
    def id(self) -> str:
        return self._id

    def is_alive(self) -> bool:
        return self.alive

    def on_chunk(self, chunk: UIMessageChunk, source_model_id: str | None = None,
                 anchor_message_id: str | None = None) -> None:
        if self.raise_on_chunk:
            raise RuntimeError("listener broke")
        self.chunks.append((chunk, source_model_id, anchor_message_id))

    def _terminal(self, bucket: list[Any], result: Any) -> None:
        if self.raise_on_terminal:
            raise RuntimeError("terminal listener broke")
        bucket.append(result)
        if self.on_terminal is not None:
            self.on_terminal(result)

    async def on_done(self, result: StreamDoneResult) -> None:
        self._terminal(self.done, result)

    async def on_paused(self, result: StreamPausedResult) -> None:
        self._terminal(self.paused, result)

    async def on_error(self, result: StreamErrorResult) -> None:
        self._terminal(self.errors, result)

    @property
    def terminals(self) -> list[Any]:
        return [*self.done, *self.paused, *self.errors]

    def text(self) -> str:
        return "".join(getattr(c, "delta", "") for c, _, _ in self.chunks if c.type == "text-delta")


class Recorder(Recording, RendererListener):
    """A window-like listener (a renderer: `background_mode = "abort"` watches it)."""


class TerminalRecorder(Recording, TerminalListener):
    """A terminal-only listener (heard before the subscribers, never a subscriber)."""


class PersistingRecorder(Recording, PersistingListener):
    """A terminal-only listener that counts as persistence (`drain_in_flight` waits for it)."""


def text_chunks(text: str, *, part_id: str = "t1", pieces: int | None = None) -> list[UIMessageChunk]:
    words = list(text) if pieces is None else [text[i::pieces] for i in range(pieces)]
    return [TextStartChunk(id=part_id), *[TextDeltaChunk(id=part_id, delta=w) for w in words],
            TextEndChunk(id=part_id)]


def reply(text: str, *, usage: dict[str, Any] | None = None) -> list[UIMessageChunk]:
    return [StartChunk(), StartStepChunk(), *text_chunks(text), FinishStepChunk(),
            FinishChunk(finish_reason="stop", message_metadata=usage)]


def reasoning_chunks(text: str, part_id: str = "r1") -> list[UIMessageChunk]:
    return [ReasoningStartChunk(id=part_id), *[ReasoningDeltaChunk(id=part_id, delta=c) for c in text],
            ReasoningEndChunk(id=part_id)]


def approval_chunks(call_id: str = "call-1") -> list[UIMessageChunk]:
    return [ToolInputAvailableChunk(tool_call_id=call_id, tool_name="write_file", input={"path": "a"}),
            ToolApprovalRequestChunk(approval_id=f"ap-{call_id}", tool_call_id=call_id)]


def error_chunk(text: str) -> ErrorChunk:
    return ErrorChunk(error_text=text)


def step_boundary() -> Callable[[AiStreamRequest], bool]:
    """A scripted step boundary: the turn ends here when a steer is pending."""
    return lambda req: bool(req.steer_yield is not None and req.steer_yield())


def submit(topic: str, text: str, *models: str) -> AiStreamOpenRequest:
    """A renderer's `Ai_Stream_Open` submit of plain text."""
    return AiStreamOpenRequest(topic_id=topic, user_message_parts=user_parts(text), mentioned_model_ids=list(models))
