"""A segment's listeners, its stream request and its chunk source.

`segment_listeners` builds what `begin_turn` hands the context provider (and a continuation
the broker): the segment row's persistence listener, the terminal listener that returns the
runtime to idle, and the trace flush. `segment_request` is the stream request that names the
segment (`RuntimeMetadata.turn_id`). `segment_chunks` is the source `open_turn_stream`
returns: the execution pulls every chunk of the segment from it (the one way in).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.agent_session.persistence import (
    AgentSessionMessageBackend,
    BeginTurnResult,
    RuntimeTerminalListener,
)
from cherry_desktop.core.ai.agent_session.state import END, Failure, Segment
from cherry_desktop.core.ai.stream.persistence import PersistenceListener, PersistStatus
from cherry_desktop.core.ai.stream.trace import TraceFlushListener, TraceStorage
from cherry_desktop.core.ai.stream.types import AiStreamRequest, RuntimeMetadata, StreamTerminalResult
from cherry_desktop.core.data.session_message_repository import AgentSessionMessageRepository
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, UIMessage, UIMessageChunk, error_code_for


def segment_listeners(session: LiveSession, seg: Segment, *, messages: AgentSessionMessageRepository,
                      trace_storage: TraceStorage, is_dropped: Callable[[], bool]) -> BeginTurnResult:
    """The segment's listeners; `is_dropped` says the session was deleted (a late save is dropped)."""
    backend = AgentSessionMessageBackend(messages, message_id=seg.assistant_message_id,
                                         get_resume_token=lambda: session.link.last_resume_token,
                                         is_dropped=is_dropped)
    persistence = PersistenceListener(backend=backend, topic_id=session.topic_id, model_id=seg.model_id)

    async def on_terminal(status: PersistStatus, result: StreamTerminalResult) -> None:
        if status != "success":
            # The runtime asks inside its turn: a turn that stopped (user Stop, shutdown, an
            # error) waits on no answer any more, so its topic must not read awaiting-approval.
            session.host.streams.clear_awaiting_approval(session.topic_id, seg.model_id)
        await session.on_segment_terminal(seg, status)

    terminal = RuntimeTerminalListener(topic_id=session.topic_id, anchor_message_id=seg.assistant_message_id,
                                       on_terminal=on_terminal)
    trace = TraceFlushListener(session.topic_id, trace_storage)
    return BeginTurnResult(turn_id=seg.id, persistence_listener=persistence, terminal_listener=terminal,
                           trace_listener=trace)


def segment_request(session: LiveSession, seg: Segment, seed: list[UIMessage]) -> AiStreamRequest:
    """The stream request of a begun segment: its row, model and runtime metadata."""
    return AiStreamRequest(model_id=seg.model_id, messages=seed, topic_id=session.topic_id,
                           message_id=seg.assistant_message_id,
                           runtime=RuntimeMetadata(session_id=session.session_id, turn_id=seg.id))


async def segment_chunks(session: LiveSession, seg: Segment) -> AsyncIterator[UIMessageChunk]:
    finished = False
    try:
        while True:
            item = await seg.queue.get()
            if item is END:
                finished = True
                return
            if isinstance(item, Failure):
                finished = True
                yield ErrorChunk(error_text=item.message,
                                 error_code=error_code_for(item.code, default=ErrorCode.RUNTIME_FAILED))
                return
            yield item  # type: ignore[misc]
    finally:
        if not finished:
            # The execution was stopped (user Stop, idle timeout, shutdown): stop the runtime
            # turn too; the terminal listener waits for it to settle.
            session.interrupt(seg.turn)
