"""`ClaudeCodeConnection` event delivery with the SDK's own message objects and a stand-in client
(no CLI): through `events()`, and through `set_event_sink` (the host's callback path)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from claude_agent_sdk import ResultMessage, StreamEvent, SystemMessage

from cherry_desktop.core.ai.runtime.claude_code.cli_command import CliLaunch
from cherry_desktop.core.ai.runtime.claude_code.connection import ClaudeCodeConnection
from cherry_desktop.core.ai.runtime.claude_code.query_builder import QueryRequest
from cherry_desktop.core.ai.runtime.claude_code.sdk_client import CallbackRouter
from cherry_desktop.core.ai.runtime.events import AgentRuntimeEvent
from cherry_desktop.core.ai.runtime.prompt import AgentRuntimePrompt
from cherry_desktop.core.ai.runtime.types import RuntimeSendInput
from cherry_desktop.core.messages import UIMessage


def _turn(session_id: str) -> list[Any]:
    def ev(event: dict[str, Any]) -> StreamEvent:
        return StreamEvent(uuid="u", session_id=session_id, event=event)

    return [
        SystemMessage(subtype="init", data={"session_id": session_id}),
        ev({"type": "message_start", "message": {"id": "m1", "model": "x", "usage": {"input_tokens": 3}}}),
        ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ev({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hel"}}),
        ev({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "lo"}}),
        ev({"type": "content_block_stop", "index": 0}),
        ev({"type": "message_stop"}),
        ResultMessage(subtype="success", duration_ms=1, duration_api_ms=1, is_error=False, num_turns=1,
                      session_id=session_id, usage={"input_tokens": 1, "output_tokens": 2}),
    ]


class StandInClient:
    """Replays one scripted turn per `query`; ends the stream on `disconnect`."""

    def __init__(self) -> None:
        self.messages: asyncio.Queue[Any] = asyncio.Queue()

    async def connect(self) -> None:
        return None

    async def query(self, prompt: str) -> None:
        for message in _turn("sess-1"):
            self.messages.put_nowait(message)

    async def receive_messages(self) -> AsyncIterator[Any]:
        while True:
            message = await self.messages.get()
            if message is None:
                return
            yield message

    async def interrupt(self) -> None:
        return None

    async def disconnect(self) -> None:
        self.messages.put_nowait(None)


class StandInProcessManager:
    def __init__(self) -> None:
        self.client = StandInClient()

    def new_client(self, launch: CliLaunch, router: CallbackRouter) -> StandInClient:
        return self.client


def _connection() -> ClaudeCodeConnection:
    request = QueryRequest(resume=None, cwd=None, model="x", permission_mode="default", disabled_tools=(),
                           prompt=AgentRuntimePrompt(base=None, append=""), env={}, signature="sig")
    return ClaudeCodeConnection(request=request, process_manager=StandInProcessManager())


def _kinds(events: list[AgentRuntimeEvent | None]) -> list[str]:
    out = []
    for e in events:
        if e is None:
            out.append("END")
        elif e.type == "chunk":
            out.append(e.chunk.type)  # type: ignore[union-attr]
        else:
            out.append(e.type)
    return out


EXPECTED = ["resume-token", "start-step", "text-start", "text-delta", "text-delta", "text-end", "finish-step",
            "usage", "resume-token", "message-metadata", "context-usage", "turn-complete"]


async def test_events_iterator_and_sink_see_the_same_ordered_events() -> None:
    # events(): the queue path.
    conn = _connection()
    await conn.start()
    await conn.send(RuntimeSendInput(message=UIMessage.user_text("hi")))
    seen: list[AgentRuntimeEvent | None] = []
    async for event in conn.events():
        seen.append(event)
        if event.type == "turn-complete":
            break
    await conn.close()
    assert _kinds(seen) == EXPECTED

    # set_event_sink: the reader calls back, in order, then None once the stream ended.
    conn = _connection()
    await conn.start()
    await conn.send(RuntimeSendInput(message=UIMessage.user_text("hi")))
    await asyncio.sleep(0.01)  # the reader already queued the first events: the sink gets them first
    assert conn.event_outlet.has_queued()
    got: list[AgentRuntimeEvent | None] = []
    conn.set_event_sink(got.append)
    assert not conn.event_outlet.has_queued()
    await asyncio.sleep(0.01)
    assert _kinds(got) == EXPECTED
    assert conn.resume_token == "sess-1"
    await conn.close()
    assert got[-1] is None and _kinds(got) == [*EXPECTED, "END"]


async def test_a_detached_sink_gets_nothing_more_and_events_queue_again() -> None:
    conn = _connection()
    await conn.start()
    got: list[AgentRuntimeEvent | None] = []
    conn.set_event_sink(got.append)
    await conn.send(RuntimeSendInput(message=UIMessage.user_text("one")))
    await asyncio.sleep(0.01)
    assert _kinds(got) == EXPECTED
    conn.set_event_sink(None)
    await conn.send(RuntimeSendInput(message=UIMessage.user_text("two")))
    await asyncio.sleep(0.01)
    assert len(got) == len(EXPECTED)
    queued = conn.event_outlet.take_queued()
    assert _kinds(queued) == EXPECTED
    await conn.close()
