"""A segment's listeners and its chunk source.

`segment_listeners` builds what `begin_turn` hands the context provider (and a continuation
the broker): the segment row's persistence listener, the terminal listener that returns the
runtime to idle, and the trace flush. `segment_chunks` is the source `open_turn_stream`
returns: the execution pulls every chunk of the segment from it (the one way in).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.agent_session.persistence import AgentSessionMessageBackend, RuntimeTerminalListener
from cherry_desktop.core.ai.agent_session.state import END, Failure, Segment
from cherry_desktop.core.ai.stream.persistence import PersistenceListener, PersistStatus
from cherry_desktop.core.ai.stream.trace import TraceFlushListener
from cherry_desktop.core.ai.stream.types import StreamListener, StreamTerminalResult
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, UIMessageChunk, error_code_for

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService


@dataclass
class BeginTurnResult:
    """What `begin_turn` hands the context provider."""

    turn_id: str
    persistence_listener: StreamListener
    terminal_listener: RuntimeTerminalListener
    trace_listener: TraceFlushListener

    @property
    def listeners(self) -> list[StreamListener]:
        # Order matters: the manager dispatches terminals in order, and the terminal listener
        # must see the row already persisted.
        return [self.persistence_listener, self.terminal_listener, self.trace_listener]


def segment_listeners(service: AgentSessionRuntimeService, session: LiveSession, seg: Segment) -> BeginTurnResult:
    backend = AgentSessionMessageBackend(service.repos.session_messages, message_id=seg.assistant_message_id,
                                         get_resume_token=lambda: session.last_resume_token,
                                         is_dropped=lambda: session.session_id in service.deleted_sessions)
    persistence = PersistenceListener(backend=backend, topic_id=session.topic_id, model_id=seg.model_id)

    async def on_terminal(status: PersistStatus, result: StreamTerminalResult) -> None:
        await session.on_segment_terminal(seg, status)

    terminal = RuntimeTerminalListener(topic_id=session.topic_id, anchor_message_id=seg.assistant_message_id,
                                       on_terminal=on_terminal)
    trace = TraceFlushListener(session.topic_id, service.trace_storage)
    return BeginTurnResult(turn_id=seg.id, persistence_listener=persistence, terminal_listener=terminal,
                           trace_listener=trace)


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
