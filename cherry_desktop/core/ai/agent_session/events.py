"""Routing one session's runtime events (`EventRouter`) and its usage records (`UsageBuffer`).

One pump per connection reads `connection.events()` (or, when the connection offers
`set_event_sink`, is called back with each event by the connection's own reader: one task
switch less per event) and hands each event to the running turn's active segment, whose
execution pulls it. At a steer boundary the session rolls (`roll_steer_boundary`): it keeps the
topic stream alive (`will_continue_topic`), ends the pre-steer segment (A1a is persisted as `success` by its own
listeners) and opens a continuation segment (A2) whose queue already buffers the post-steer
chunks; A2's placeholder is saved only after A1a's terminal, so the steer's user row sorts
between the two assistant rows. A resume token is written to the turn's row as soon as the
runtime reports it (a crash mid-turn still resumes).

The router writes nothing itself: every change an event makes is a transition of its session
(`RoutedSession`, which `LiveSession` satisfies: `settle_turn`, `roll_steer_boundary`, ...) or of
the session's connection (`SessionConnection`: the resume token, context usage, the slash commands
the runtime announced, a torn-down connection).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Protocol

from cherry_desktop.core.ai.agent_session.connections import SessionConnection, close_connection
from cherry_desktop.core.ai.agent_session.state import END, RuntimeTurn, Segment, SegmentItem
from cherry_desktop.core.ai.runtime.events import (
    AgentRuntimeEvent,
    ChunkEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
    ContextUsageEvent,
    ErrorEvent,
    ResumeTokenEvent,
    SlashCommandsEvent,
    SteerBoundaryEvent,
    SteerInjectedEvent,
    SteerUndeliveredEvent,
    ToolApprovalRequestEvent,
    TurnCompleteEvent,
    UsageEvent,
)
from cherry_desktop.core.ai.runtime.types import AgentRuntimeConnection, ContextUsage, PushesEvents
from cherry_desktop.core.data.chat_repository import UsageRepository
from cherry_desktop.core.messages import DataChunk, ErrorCode, ToolApprovalRequestChunk, error_code_for

log = logging.getLogger(__name__)


class RoutedSession(Protocol):
    """What the router needs from its session (`LiveSession`): the turn events go to, and the
    transitions they cause."""

    @property
    def session_id(self) -> str: ...

    @property
    def usage(self) -> UsageBuffer: ...

    @property
    def live_turn(self) -> RuntimeTurn | None: ...

    def settle_turn(self, turn: RuntimeTurn, last: SegmentItem = END) -> None: ...

    def fail_turn(self, turn: RuntimeTurn, message: str, code: str | None = None) -> None: ...

    def requeue_undelivered(self, message_id: str) -> None: ...

    def roll_steer_boundary(self, turn: RuntimeTurn, old: Segment, message_ids: tuple[str, ...]) -> None: ...

    def publish(self) -> None:
        """Tell the windows the session's state (its `SessionStatus`)."""
        ...



class EventRouter:
    """The event pump of one `LiveSession` and its `SessionConnection`."""

    def __init__(self, session: RoutedSession, link: SessionConnection) -> None:
        self.session = session
        self.link = link
        # The tool each pending approval asks about (an "always" answer is saved by tool name).
        self._approval_tools: dict[str, str] = {}

    def take_approval_tool(self, approval_id: str) -> str | None:
        """The tool a pending approval asks about, once (the user answered it)."""
        return self._approval_tools.pop(approval_id, None)

    async def pump(self, conn: AgentRuntimeConnection) -> None:
        session, link = self.session, self.link
        error: str | None = None
        try:
            if isinstance(conn, PushesEvents):
                await self._route_by_callback(conn, conn.set_event_sink)
            else:
                async for event in conn.events():
                    if link.connection is not conn:
                        break
                    self.route(conn, event)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("runtime event stream of %s failed", session.session_id)
            error = str(exc) or type(exc).__name__
        if link.detach(conn):
            turn = session.live_turn
            if turn is not None and turn.sent:
                session.fail_turn(turn, error or "the runtime connection closed", "runtime-connection-closed")
        session.usage.flush()
        # Its events ended: the connection is dead. Release it (and the process behind it) now.
        await close_connection(session.session_id, conn)

    async def _route_by_callback(self, conn: AgentRuntimeConnection,
                                 attach: Callable[[Callable[[AgentRuntimeEvent | None], None] | None], None]) -> None:
        """`connection.events()` without a task switch per event; returns when the stream ends
        and raises what routing an event raised."""
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        link = self.link

        def call(event: AgentRuntimeEvent | None) -> None:
            if ended.done():
                return
            if event is None or link.connection is not conn:
                ended.set_result(None)
                return
            try:
                self.route(conn, event)
            except Exception as exc:
                ended.set_exception(exc)

        attach(call)
        try:
            await ended
        finally:
            attach(None)

    def route(self, conn: AgentRuntimeConnection, event: AgentRuntimeEvent) -> None:
        session = self.session
        live = session.live_turn
        seg = live.active_segment if live is not None else None
        if type(event) is ChunkEvent:  # nearly every event: tested first, without isinstance
            if seg is not None:
                seg.push(event.chunk)
            else:
                log.debug("session %s: chunk outside a turn dropped", session.session_id)
        elif isinstance(event, ResumeTokenEvent):
            self.link.record_resume_token(event.token, seg.assistant_message_id
                                          if seg is not None and seg.placeholder_saved else None)
        elif isinstance(event, TurnCompleteEvent):
            if live is not None:
                session.settle_turn(live)
        elif isinstance(event, SteerInjectedEvent):
            if live is not None:
                # A2's row id is reserved now, before the runtime's next model request (a
                # gateway-owned connection's usage binds to it, `gateway_message_id`).
                live.reserve_continuation_id()
        elif isinstance(event, SteerBoundaryEvent):
            if live is not None and seg is not None:
                session.roll_steer_boundary(live, seg, event.message_ids)
        elif isinstance(event, SteerUndeliveredEvent):
            session.requeue_undelivered(event.message_id)
        elif isinstance(event, ToolApprovalRequestEvent):
            self._approval_tools[event.approval_id] = event.tool_name
            if seg is not None:
                seg.push(ToolApprovalRequestChunk(approval_id=event.approval_id, tool_call_id=event.tool_call_id))
        elif isinstance(event, UsageEvent):
            session.usage.record(seg, event, live=live is not None)
        elif isinstance(event, CompactionStartEvent | CompactionCompleteEvent | CompactionErrorEvent):
            if seg is not None:
                seg.push(_compaction_chunk(event))
        elif isinstance(event, ContextUsageEvent):
            self.link.record_context_usage(ContextUsage(used_tokens=event.used_tokens, max_tokens=event.max_tokens))
            if seg is not None:
                seg.push(DataChunk(type="data-context-usage", id="context-usage", transient=True,
                                   data={"used_tokens": event.used_tokens, "max_tokens": event.max_tokens}))
        elif isinstance(event, SlashCommandsEvent):
            if self.link.record_slash_commands(event.commands):
                session.publish()
        elif isinstance(event, ErrorEvent):
            if live is not None:
                # The runtime's own code (`api_error`, a terminal reason) and the HTTP status
                # it saw become one stable code; its message stays the detail.
                session.fail_turn(live, event.message,
                                  error_code_for(event.code, status=event.status, default=ErrorCode.RUNTIME_FAILED))
            if event.fatal:
                # The driver tore the connection down: the next turn reconnects and resumes.
                self.link.tear_down(conn)


class UsageBuffer:
    """Per-request usage of a session's live turn, written once the turn settled.

    A request's usage arrives between its last chunk and the turn's result: writing it there
    (a commit) would delay the turn's end by as much. Outside a live turn it is written at once.
    """

    def __init__(self, usage: UsageRepository, session_id: str) -> None:
        self._usage = usage
        self.session_id = session_id
        self.pending: list[dict[str, object]] = []
        # A deleted session's records are dropped, never written.
        self.dropped = False

    def drop(self) -> None:
        """The session is deleted: what it still wanted to record is dropped quietly."""
        self.dropped = True

    def record(self, seg: Segment | None, event: UsageEvent, *, live: bool) -> None:
        self.pending.append({
            "session_id": self.session_id, "message_id": seg.assistant_message_id if seg else None,
            "model_id": event.model or (seg.model_id if seg else None), "input_tokens": event.input_tokens,
            "output_tokens": event.output_tokens, "cache_read_tokens": event.cache_read_tokens,
            "cache_write_tokens": event.cache_write_tokens, "reasoning_tokens": event.reasoning_tokens,
            "time_first_token_ms": event.time_first_token_ms, "time_completion_ms": event.time_completion_ms})
        if not live:
            self.flush()

    def flush(self) -> None:
        records, self.pending = self.pending, []
        if self.dropped:
            return
        for record in records:
            try:
                self._usage.add(**record)
            except Exception:
                log.exception("usage record of %s failed", self.session_id)

    def flush_soon(self) -> None:
        """The turn settled: write its usage right after the segment's execution handled the
        end (its task was woken first), so the turn's subscribers are not kept waiting on it."""
        if self.pending:
            asyncio.get_running_loop().call_soon(functools.partial(self.flush))


def _compaction_chunk(event: CompactionStartEvent | CompactionCompleteEvent | CompactionErrorEvent) -> DataChunk:
    if isinstance(event, CompactionStartEvent):
        data: dict[str, object] = {"state": "compacting"}
    elif isinstance(event, CompactionCompleteEvent):
        data = {"state": "done", "anchor": event.anchor, "tokens_before": event.tokens_before,
                "trigger": event.trigger}
    else:
        data = {"state": "error", "message": event.message}
    # One id per segment: the complete/error state replaces the "compacting" part.
    return DataChunk(type="data-compaction", id="compaction", data=data)
