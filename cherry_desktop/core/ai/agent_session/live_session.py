"""`LiveSession`: the host's one object per live agent session.

It holds the session's runtime connection and its event pump (`EventRouter`), the current
runtime turn and its segments, the persisted follow-up queue, the resume token and the idle
timer; `state` says where the session is, and the methods below are its transitions:

    IDLE -> begin() -> CONNECTING -> open_segment() sends -> RUNNING
    RUNNING -> settle_turn() (turn-complete, error, Stop) -> SETTLING
    a segment's terminal -> release() -> IDLE (idle timer armed)
                                       | HANDING_OVER (the queue's head starts; the topic is
                                         held live until it does) -> begin() -> CONNECTING
    IDLE -> close_idle() / close() -> CLOSING -> CLOSED (removed from the registry)

While the session is CONNECTING, RUNNING, SETTLING or HANDING_OVER the runtime owns it
(`busy`): a message sent then joins the queue behind what is already queued.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from cherry_desktop.core.ai.agent_session.connections import call_interrupt, close_connection, reconcile_input
from cherry_desktop.core.ai.agent_session.errors import SessionBusyError, UnknownRuntimeTurnError
from cherry_desktop.core.ai.agent_session.events import EventRouter, UsageBuffer
from cherry_desktop.core.ai.agent_session.follow_ups import FollowUpQueue
from cherry_desktop.core.ai.agent_session.runtime_input import carries_files, send_input
from cherry_desktop.core.ai.agent_session.state import END, Failure, RuntimeTurn, Segment, SegmentItem, TerminalStatus
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    AgentSessionRuntimeDriver,
    ContextUsage,
    ReconcileResult,
    RuntimeConnectInput,
    RuntimeRedirectInput,
    RuntimeSendInput,
    RuntimeSessionContext,
)
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.core.state.topics import session_topic_id

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService

log = logging.getLogger(__name__)

#: What `LiveSession.try_redirect` did with a steer (None: not redirected).
RedirectOutcome = Literal["injected", "requeued"] | None

class SessionState(enum.Enum):
    IDLE = "idle"
    CONNECTING = "connecting"
    RUNNING = "running"
    SETTLING = "settling"
    HANDING_OVER = "handing-over"
    CLOSING = "closing"
    CLOSED = "closed"


BUSY_STATES = frozenset({SessionState.CONNECTING, SessionState.RUNNING, SessionState.SETTLING,
                         SessionState.HANDING_OVER})


@dataclass(frozen=True)
class SessionIssue:
    """Why the session's queue is held (a typed code the UI words), published for the windows."""

    code: str
    detail: str = ""


class LiveSession:
    """One agent session's runtime state (see the module docstring)."""

    def __init__(self, service: AgentSessionRuntimeService, session_id: str) -> None:
        self.service = service
        self.session_id = session_id
        self.topic_id = session_topic_id(session_id)
        self.state = SessionState.IDLE
        self.driver: AgentSessionRuntimeDriver | None = None
        self.connection: AgentRuntimeConnection | None = None
        self.connect_input: RuntimeConnectInput | None = None
        self.context: RuntimeSessionContext | None = None
        self.pump_task: asyncio.Task[None] | None = None
        self.last_resume_token: str | None = None
        self.current: RuntimeTurn | None = None
        self.segments: dict[str, Segment] = {}
        self.queue = FollowUpQueue(service.repos, session_id)
        # Follow-ups persisted by an earlier run are offered again, never sent on their own.
        self.queue_held = bool(self.queue.records())
        self.issue: SessionIssue | None = None
        self.idle_handle: asyncio.TimerHandle | None = None
        self.connect_lock = asyncio.Lock()
        self.context_usage: ContextUsage | None = None
        self.usage = UsageBuffer(service.repos, session_id)
        # An agent edit the live connection cannot take: rebuild it once the turn is over.
        self.rebuild_after_turn = False
        self.events = EventRouter(self)

    # -- state ---------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return self.state in BUSY_STATES

    @property
    def closed(self) -> bool:
        return self.state in (SessionState.CLOSING, SessionState.CLOSED)

    @property
    def live_turn(self) -> RuntimeTurn | None:
        turn = self.current
        return turn if turn is not None and not turn.settled else None

    def publish(self) -> None:
        self.service.publish(self)

    # -- turns ---------------------------------------------------------------------------------
    def begin(self, turn: RuntimeTurn, seg: Segment) -> None:
        """IDLE / HANDING_OVER -> CONNECTING: the turn's rows are saved, the runtime owns it."""
        if self.state not in (SessionState.IDLE, SessionState.HANDING_OVER) or self.current is not None:
            raise SessionBusyError(detail=self.session_id)
        self.cancel_idle()
        self.state = SessionState.CONNECTING
        self.current = turn
        turn.segments.append(seg)
        self.segments[seg.id] = seg
        self.publish()

    async def open_segment(self, seg: Segment) -> None:
        """Admit the segment's turn at the runtime (CONNECTING -> RUNNING) unless already sent."""
        turn = seg.turn
        seg.opened = True
        if turn.sent:
            return
        conn = await self.ensure_connection(turn)
        message = await send_input(self.service, turn.user_message)  # before the check: it may await
        if self.current is not turn or turn.settled:
            raise UnknownRuntimeTurnError("unknown-runtime-turn", "the turn ended before it was sent")
        await conn.send(RuntimeSendInput(message=message, system_reminder=turn.system_reminder, turn_id=turn.id))
        turn.sent = True
        if self.state is SessionState.CONNECTING:
            self.state = SessionState.RUNNING

    def settle_turn(self, turn: RuntimeTurn, last: SegmentItem = END) -> None:
        """The runtime settled the turn (RUNNING -> SETTLING); its segment ends with `last`."""
        for message in list(turn.redirected):
            # Safety net: a redirected steer neither injected nor reported undelivered is queued.
            self.requeue_undelivered(message.id)
        turn.settle()
        if self.current is turn and self.state in (SessionState.CONNECTING, SessionState.RUNNING):
            self.state = SessionState.SETTLING
        seg = turn.active_segment
        if seg is not None:
            seg.push(last)
        self.usage.flush_soon()

    def fail_turn(self, turn: RuntimeTurn, message: str, code: str | None = None) -> None:
        self.settle_turn(turn, Failure(message, code))

    def interrupt(self, turn: RuntimeTurn) -> None:
        """Stop the runtime turn (user Stop, idle timeout, a failed segment)."""
        if turn.settled or turn.interrupted:
            return
        turn.interrupted = True
        conn = self.connection
        if conn is not None and turn.sent:
            self.service.spawn(call_interrupt(conn))

    def requeue_undelivered(self, message_id: str) -> None:
        """A steer the turn never injected becomes the next turn (first in the queue)."""
        turn = self.current
        if turn is not None:
            turn.redirected = [m for m in turn.redirected if m.id != message_id]
            turn.undelivered.add(message_id)
        row = self.service.repos.session_messages.find_message(message_id)
        if row is None:
            log.warning("undelivered steer %s has no user row; dropped", message_id)
            return
        if not self.queue.contains(message_id):
            self.queue.add(row.to_ui_message(), is_steer=True, first=True)
            self.publish()

    async def try_redirect(self, message: UIMessage) -> RedirectOutcome:
        """Steer `message` into the open normal turn, when its driver can: "injected", else
        "requeued" (the runtime took it but settled without it: `requeue_undelivered` queued it
        already) or None (not redirected)."""
        turn = self.live_turn
        conn = self.connection
        if turn is None or conn is None or turn.kind != "normal" or not turn.sent or turn.interrupted:
            return None
        seg = turn.active_segment
        # Steering is valid only once the turn's stream is open; files ride a turn, not a steer.
        if seg is None or not seg.opened or not getattr(conn, "supports_redirect", False) or carries_files(message):
            return None
        # Counted before the await: the runtime may inject it (a steer boundary) or report it
        # undelivered (requeued) before its answer to the redirect arrives.
        turn.redirected.append(message)
        try:
            ok = await conn.redirect(RuntimeRedirectInput(message=message, system_reminder=True))
        except Exception:
            log.exception("redirect into session %s failed; queued instead", self.session_id)
            ok = False
        if message.id in turn.undelivered:
            return "requeued"  # reported undelivered meanwhile (or the settle's safety net)
        if ok and self.current is turn and not turn.settled:
            return "injected"
        pending = any(m.id == message.id for m in turn.redirected)
        turn.redirected = [m for m in turn.redirected if m.id != message.id]
        # The turn ended meanwhile: a steer boundary took it (injected), else it never went in.
        return "injected" if ok and not pending else None

    # -- terminal / ownership --------------------------------------------------------------------
    async def on_segment_terminal(self, seg: Segment, status: TerminalStatus) -> None:
        """A segment's execution reached terminal, after its persistence listener."""
        seg.terminal_status = status
        self.segments.pop(seg.id, None)
        turn = seg.turn
        if seg.rolled:
            nxt = turn.segments[turn.segments.index(seg) + 1]
            if status == "success" and not turn.interrupted and not self.closed:
                await self.service.start_continuation(self, nxt)
                return
            # The pre-steer row ended badly: the continuation never starts.
            self.segments.pop(nxt.id, None)
            self.interrupt(turn)
            await self.end_held_topic(status)
        if not turn.settled:
            if status == "success":
                log.warning("session %s: segment ended before the runtime turn settled", self.session_id)
                turn.settle()
                await self.drop_connection()
            else:
                self.interrupt(turn)
                if turn.sent and self.connection is not None:
                    self.state = SessionState.SETTLING
                    self.service.spawn(self.release_after_settle(turn, status))
                    return
                turn.settle()
        await self.release(turn, status)

    async def end_held_topic(self, status: TerminalStatus) -> None:
        host = self.service.host
        if status == "paused":
            host.abort(self.topic_id, "user")
        else:
            await host.terminate_held_topic_stream(self.topic_id, "the turn ended before its continuation")

    async def release_after_settle(self, turn: RuntimeTurn, status: TerminalStatus) -> None:
        try:
            await asyncio.wait_for(turn.settled_event.wait(), self.service.settle_timeout_s)
        except TimeoutError:
            log.warning("session %s: stopped turn did not settle; dropping the connection", self.session_id)
            turn.settle()
            await self.drop_connection()
        await self.release(turn, status)

    async def release(self, turn: RuntimeTurn, status: TerminalStatus) -> None:
        """Terminal persistence is done: ownership returns to idle or passes to the queue's head."""
        if self.current is not turn:
            return
        self.current = None
        for seg in turn.segments:
            self.segments.pop(seg.id, None)
        if self.closed:
            return
        if self.rebuild_after_turn:
            self.rebuild_after_turn = False
            await self.drop_connection()
        queued = set(self.queue.ids())
        if status != "success" and queued and not queued <= turn.sent_after_stop:
            # After a Stop or an error the queue waits for the user instead of firing on; what
            # the user sent after pressing Stop is not part of it and runs.
            self.queue_held = True
        self.state = SessionState.IDLE
        if queued and not self.queue_held and self.service.hand_over(self):
            return
        self.publish()
        self.arm_idle()

    def claim_handover(self, *, hold_topic: bool) -> bool:
        """IDLE -> HANDING_OVER: the queue's head may start. With `hold_topic`, a topic stream
        still live (its terminal listeners run) is held open for the successor, so no message
        sent meanwhile finds the topic neither live nor owned."""
        if self.state is not SessionState.IDLE or self.queue_held or self.service.stopped:
            return False
        self.cancel_idle()
        self.state = SessionState.HANDING_OVER
        if hold_topic:
            # Refused (False) when the topic's stream already ended: the successor starts anew.
            self.service.host.will_continue_topic(self.topic_id)
        self.publish()
        return True

    def hold_queue(self, issue: SessionIssue | None) -> None:
        """The queue waits for the user (with the reason when there is one): -> IDLE."""
        self.queue_held = True
        self.issue = issue
        if self.state is SessionState.HANDING_OVER:
            self.state = SessionState.IDLE
            self.arm_idle()
        self.publish()

    # -- connection ----------------------------------------------------------------------------
    async def ensure_connection(self, turn: RuntimeTurn) -> AgentRuntimeConnection:
        async with self.connect_lock:
            context = self.context if self.context is not None else self.service.resolve_context(self.session_id)
            self.context = context
            context.model_id = turn.model_id
            conn = self.connection
            if conn is not None and not conn.is_alive:
                await self.drop_connection()
                conn = None
            if conn is not None:
                result = await self.reconcile(conn)
                if result in ("current", "patched"):
                    return conn
                # rebuild: spawn-frozen facts changed; invalid/failed: fail closed.
                log.info("session %s: reconcile said %s, reconnecting", self.session_id, result)
                await self.drop_connection()
            driver = self.service.registry.get(context.agent.type)
            if self.last_resume_token is None:
                # A cold session resumes from the newest persisted token.
                self.last_resume_token = self.service.repos.session_messages.get_last_runtime_resume_token(
                    self.session_id)
            connect_input = self.service.connect_input(self, context)
            conn = await driver.connect(connect_input)
            if self.closed:
                # Deleted or closed while connecting: this connection never serves it.
                await close_connection(self.session_id, conn)
                raise UnknownRuntimeTurnError("unknown-runtime-turn", "the session closed while connecting")
            self.driver = driver
            self.connect_input = connect_input
            self.connection = conn
            self.pump_task = self.service.spawn(self.events.pump(conn))
            return conn

    async def reconcile(self, conn: AgentRuntimeConnection) -> ReconcileResult:
        """Carry the agent's current permission mode, disabled tools and model onto `conn`."""
        context = self.context
        if context is None:
            return "current"
        return await conn.reconcile(reconcile_input(context))

    def detach_connection(self, conn: AgentRuntimeConnection) -> bool:
        """Forget `conn` if it is still the session's (its events ended or it was torn down)."""
        if self.connection is not conn:
            return False
        self.connection = None
        self.pump_task = None
        return True

    async def drop_connection(self) -> None:
        conn, self.connection = self.connection, None
        pump, self.pump_task = self.pump_task, None
        if conn is not None:
            await close_connection(self.session_id, conn)
        if pump is not None and not pump.done() and pump is not asyncio.current_task():
            pump.cancel()

    # -- idle window / close ---------------------------------------------------------------------
    def cancel_idle(self) -> None:
        if self.idle_handle is not None:
            self.idle_handle.cancel()
            self.idle_handle = None

    def arm_idle(self) -> None:
        self.cancel_idle()
        if self.service.stopped or self.closed:
            return
        loop = asyncio.get_running_loop()
        self.idle_handle = loop.call_later(self.service.idle_window_s,
                                           lambda: self.service.spawn(self.close_idle()))

    async def close_idle(self) -> None:
        """Idle window over: IDLE -> CLOSING -> CLOSED; prewarm when a resume token is known."""
        self.idle_handle = None
        if self.state is not SessionState.IDLE:
            return
        self.state = SessionState.CLOSING
        driver, connect_input = self.driver, self.connect_input
        await self.drop_connection()
        self.state = SessionState.CLOSED
        self.service.forget(self)
        # The persisted queue stays (offered again, held) — never silently dropped.
        token = self.last_resume_token
        if driver is not None and connect_input is not None and token and self.service.may_prewarm(self.session_id):
            connect_input.resume_token = token
            try:
                await driver.on_session_idle(connect_input)
            except Exception:
                log.exception("on_session_idle of %s failed", self.session_id)

    async def close(self, reason: str, message: str = "") -> None:
        """Any state -> CLOSING -> CLOSED: the turn fails (`reason` is its code), the connection
        (and its process) closes."""
        if self.state is SessionState.CLOSED:
            return
        self.state = SessionState.CLOSING
        self.cancel_idle()
        turn = self.current
        if turn is not None and not turn.settled:
            turn.settle()
            for seg in turn.segments:
                seg.push(Failure(message or reason, reason))
        await self.drop_connection()
        self.state = SessionState.CLOSED

