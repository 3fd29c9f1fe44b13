# mypy: disable-error-code="misc"
# (a mixin of AgentSessionRuntimeService: its methods annotate `self` with the service type)
"""Routing a connection's `AgentRuntimeEvent`s, and the steer-boundary roll.

One pump task per connection reads `connection.events()` (or, when the connection offers
`set_event_sink`, is called back with each event by the connection's own reader: one task
switch less per event) and hands each event to the running turn's active segment. At a steer
boundary the host keeps the topic stream alive (`will_continue_topic`), ends the pre-steer
segment (A1a is persisted as `success` by its own listeners), and opens a continuation segment
(A2) whose queue already buffers the post-steer chunks: when A2's execution opens, it replays
them in order. A2's placeholder is saved only
after A1a's terminal, so the steer's user row sorts between the two assistant rows.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from cherry_desktop.core.ai.agent_session.state import (
    END,
    RuntimeTurn,
    Segment,
    SegmentItem,
    SessionEntry,
    _Failure,
)
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    AgentRuntimeEvent,
    ChunkEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
    ContextUsage,
    ContextUsageEvent,
    ErrorEvent,
    ResumeTokenEvent,
    SteerBoundaryEvent,
    SteerUndeliveredEvent,
    ToolApprovalRequestEvent,
    TurnCompleteEvent,
    UsageEvent,
)
from cherry_desktop.core.ai.stream.types import SerializedError
from cherry_desktop.core.messages import DataChunk, ToolApprovalRequestChunk, UIMessage, UIMessageChunk, new_id

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService

log = logging.getLogger(__name__)

_Item = TypeVar("_Item", AgentRuntimeEvent, UIMessageChunk)


class RuntimeEventsMixin:
    """Event routing of `AgentSessionRuntimeService`."""

    async def _pump(self: AgentSessionRuntimeService, entry: SessionEntry, conn: AgentRuntimeConnection) -> None:
        error: str | None = None
        try:
            attach = getattr(conn, "set_event_sink", None)
            if callable(attach):
                await self._route_events(entry, conn, attach)
            else:
                async for event in conn.events():
                    if entry.connection is not conn:
                        break
                    self._on_event(entry, conn, event)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("runtime event stream of %s failed", entry.session_id)
            error = str(exc) or type(exc).__name__
        if entry.connection is conn:
            entry.connection = None
            entry.pump_task = None
            turn = entry.current
            if turn is not None and turn.sent and not turn.settled:
                self._fail_turn(entry, turn, error or "the runtime connection closed", "runtime-connection-closed")
        self._flush_usage(entry)
        # Its events ended: the connection is dead. Release it (and the process behind it) now,
        # not at app stop.
        await self._close_connection(entry, conn)

    async def _route_events(self: AgentSessionRuntimeService, entry: SessionEntry, conn: AgentRuntimeConnection,
                            attach: Callable[[Callable[[AgentRuntimeEvent | None], None] | None], None]) -> None:
        """`connection.events()` without a task switch per event: the connection's reader calls
        back with each event (`set_event_sink`); returns when the stream ends, as the loop over
        `events()` would, and raises what routing an event raised."""
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def routed(route: Callable[[_Item], None]) -> Callable[[_Item | None], None]:
            """`route` behind the loop's guards: stop at the stream's end (None) or once the
            session moved to another connection; a routing error ends the wait with it."""
            def call(item: _Item | None) -> None:
                if ended.done():
                    return
                if item is None or entry.connection is not conn:
                    ended.set_result(None)
                    return
                try:
                    route(item)
                except Exception as exc:
                    ended.set_exception(exc)
            return call

        attach(routed(functools.partial(self._on_event, entry, conn)))
        try:
            await ended
        finally:
            attach(None)

    def _route_chunk(self: AgentSessionRuntimeService, entry: SessionEntry, chunk: UIMessageChunk) -> None:
        """A chunk to the live turn's active segment; dropped outside a turn."""
        turn = entry.current
        seg = turn.active_segment if turn is not None and not turn.settled else None
        if seg is not None:
            seg.push(chunk)
        else:
            log.debug("session %s: chunk outside a turn dropped", entry.session_id)

    def _on_event(self: AgentSessionRuntimeService, entry: SessionEntry, conn: AgentRuntimeConnection,
                  event: AgentRuntimeEvent) -> None:
        if type(event) is ChunkEvent:  # nearly every event: tested first, without isinstance
            self._route_chunk(entry, event.chunk)
            return
        turn = entry.current
        live = turn if turn is not None and not turn.settled else None
        seg = live.active_segment if live is not None else None
        if isinstance(event, ResumeTokenEvent):
            entry.last_resume_token = event.token
        elif isinstance(event, TurnCompleteEvent):
            if live is not None:
                self._settle_turn(entry, live)
        elif isinstance(event, SteerBoundaryEvent):
            if live is not None and seg is not None:
                self._roll(entry, live, seg, event.message_ids)
        elif isinstance(event, SteerUndeliveredEvent):
            self._requeue_undelivered(entry, event.message_id)
        elif isinstance(event, ToolApprovalRequestEvent):
            if seg is not None:
                seg.push(ToolApprovalRequestChunk(approval_id=event.approval_id, tool_call_id=event.tool_call_id))
        elif isinstance(event, UsageEvent):
            self._record_usage(entry, seg, event)
        elif isinstance(event, CompactionStartEvent | CompactionCompleteEvent | CompactionErrorEvent):
            if seg is not None:
                seg.push(_compaction_chunk(event))
        elif isinstance(event, ContextUsageEvent):
            entry.context_usage = ContextUsage(used_tokens=event.used_tokens, max_tokens=event.max_tokens)
            if seg is not None:
                seg.push(DataChunk(type="data-context-usage", id="context-usage", transient=True,
                                   data={"used_tokens": event.used_tokens, "max_tokens": event.max_tokens}))
        elif isinstance(event, ErrorEvent):
            if live is not None:
                self._fail_turn(entry, live, event.message, event.code)
            if event.fatal and entry.connection is conn:
                # The driver tore the connection down: detach it now (the next turn reconnects
                # and resumes) and release this connection, never a newer one.
                entry.connection = None
                entry.pump_task = None
                self._spawn(self._close_connection(entry, conn))

    def _settle_turn(self: AgentSessionRuntimeService, entry: SessionEntry, turn: RuntimeTurn,
                     last: SegmentItem = END) -> None:
        """The driver settled the turn: its active segment ends with `last` (END, or a failure)."""
        # Safety net: a redirected steer neither injected nor reported undelivered is queued.
        for message in list(turn.redirected):
            self._requeue_undelivered(entry, message.id)
        turn.settle()
        seg = turn.active_segment
        if seg is not None:
            seg.push(last)
        self._flush_usage_soon(entry)

    def _fail_turn(self: AgentSessionRuntimeService, entry: SessionEntry, turn: RuntimeTurn, message: str,
                   code: str | None = None) -> None:
        self._settle_turn(entry, turn, _Failure(message, code))

    def _requeue_undelivered(self: AgentSessionRuntimeService, entry: SessionEntry, message_id: str) -> None:
        """A steer the turn never injected becomes the next turn (first in the queue)."""
        turn = entry.current
        if turn is not None:
            turn.redirected = [m for m in turn.redirected if m.id != message_id]
        row = self.repos.session_messages.find_message(message_id)
        if row is None:
            log.warning("undelivered steer %s has no user row; dropped", message_id)
            return
        if any(r.user_message_id == message_id for r in self.repos.pending_turns.list(entry.session_id)):
            return
        self._queue(entry, row.to_ui_message(), is_steer=True, first=True)

    def _roll(self: AgentSessionRuntimeService, entry: SessionEntry, turn: RuntimeTurn, old: Segment,
              message_ids: tuple[str, ...]) -> None:
        if not old.opened or old.ended:
            log.warning("session %s: steer boundary outside an open segment ignored", entry.session_id)
            return
        leads = [m for m in turn.redirected if m.id in message_ids]
        turn.redirected = [m for m in turn.redirected if m.id not in message_ids]
        new = Segment(id=new_id(), turn=turn, assistant_message_id=new_id(), model_id=old.model_id,
                      lead_message_ids=tuple(m.id for m in leads) or tuple(message_ids))
        old.rolled = True
        turn.segments.append(new)
        self._segments[new.id] = (entry, new)
        self.host.will_continue_topic(entry.topic_id)
        old.push(END)

    async def _start_continuation(self: AgentSessionRuntimeService, entry: SessionEntry, seg: Segment) -> None:
        """Save A2's placeholder and start its execution on the held topic stream."""
        if self._quiesce.paused:
            # Gated before any write; the last hold's disposal re-kicks it.
            seg.continuation_deferred = True
            def resume() -> None:
                self._spawn(self._start_continuation(entry, seg), in_flight=f"continue:{entry.session_id}")

            self._quiesce.on_resume(resume)
            return
        seg.continuation_deferred = False
        turn = seg.turn
        if entry.current is not turn or turn.interrupted or self._stopped:
            await self.host.terminate_held_topic_stream(entry.topic_id, "the turn ended before its continuation")
            return
        try:
            self.repos.session_messages.create_message(
                session_id=entry.session_id, role="assistant", parts=[], status="pending", model_id=seg.model_id,
                id=seg.assistant_message_id)
        except Exception as exc:
            log.exception("session %s: continuation placeholder not saved", entry.session_id)
            self._segments.pop(seg.id, None)
            await self.host.terminate_held_topic_stream(
                entry.topic_id, SerializedError.from_exception(exc, code="placeholder-failed"))
            self._interrupt_turn(entry, turn)
            if not turn.settled:
                turn.settle()
            self._release(entry, turn, "error")
            return
        seg.placeholder_saved = True
        seed: list[UIMessage] = []
        for mid in seg.lead_message_ids:
            row = self.repos.session_messages.find_message(mid)
            if row is not None:
                seed.append(row.to_ui_message())
        seed.append(UIMessage(id=seg.assistant_message_id, role="assistant"))
        listeners = self._segment_listeners(entry, seg)
        self.host.start_runtime_turn(topic_id=entry.topic_id, model_id=seg.model_id,
                                     request=self.build_request(entry, seg, seed), listeners=listeners.listeners,
                                     anchor_message_id=seg.assistant_message_id)

    def _record_usage(self: AgentSessionRuntimeService, entry: SessionEntry, seg: Segment | None,
                      event: UsageEvent) -> None:
        """Bind the request's usage to its row now; write it once the turn settled.

        A request's usage arrives between its last chunk and the turn's result: writing it there
        (a commit) would delay the turn's end by as much. Outside a live turn it is written at once.
        """
        entry.pending_usage.append({
            "session_id": entry.session_id, "message_id": seg.assistant_message_id if seg else None,
            "model_id": event.model or (seg.model_id if seg else None), "input_tokens": event.input_tokens,
            "output_tokens": event.output_tokens, "cache_read_tokens": event.cache_read_tokens,
            "cache_write_tokens": event.cache_write_tokens, "reasoning_tokens": event.reasoning_tokens,
            "time_first_token_ms": event.time_first_token_ms, "time_completion_ms": event.time_completion_ms})
        turn = entry.current
        if turn is None or turn.settled:
            self._flush_usage(entry)

    def _flush_usage(self: AgentSessionRuntimeService, entry: SessionEntry) -> None:
        records, entry.pending_usage = entry.pending_usage, []
        for record in records:
            try:
                self.repos.usage.add(**record)
            except Exception:
                log.exception("usage record of %s failed", entry.session_id)

    def _flush_usage_soon(self: AgentSessionRuntimeService, entry: SessionEntry) -> None:
        """The turn settled: write its usage right after the segment's execution handled the
        end (its task was woken first), so the turn's subscribers are not kept waiting on it."""
        if entry.pending_usage:
            asyncio.get_running_loop().call_soon(self._flush_usage, entry)


def _compaction_chunk(event: CompactionStartEvent | CompactionCompleteEvent | CompactionErrorEvent) -> DataChunk:
    if isinstance(event, CompactionStartEvent):
        data: dict[str, object] = {"state": "compacting"}
    elif isinstance(event, CompactionCompleteEvent):
        data = {"state": "done", "anchor": event.anchor}
    else:
        data = {"state": "error", "message": event.message}
    # One id per segment: the complete/error state replaces the "compacting" part.
    return DataChunk(type="data-compaction", id="compaction", data=data)
