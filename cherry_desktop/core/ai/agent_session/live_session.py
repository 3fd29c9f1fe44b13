"""`LiveSession`: the host's one object per live agent session, the only writer of its state.

It holds the current runtime turn and its segments, the persisted follow-up queue
(`pending_turns`, held or not, and why) and the idle timer; `state` says where it is; its methods
are the transitions; it reaches the service only through `SessionHost`. Its runtime connection
(with its context and `last_resume_token`) is its `SessionConnection`, `link`, whose events its
`EventRouter` turns into these transitions.

    IDLE -> begin() -> CONNECTING -> open_segment() sends -> RUNNING
    RUNNING -> settle_turn() (turn-complete, error, Stop) -> SETTLING
    a segment's terminal -> release() -> IDLE (idle timer armed)
                                       | HANDING_OVER (the queue's head starts; the topic is
                                         held live until it does) -> begin() -> CONNECTING
    HANDING_OVER -> end_handover() / hold_queue() / undo_begun_turn() -> IDLE
    IDLE -> close_idle() / close() -> CLOSING -> CLOSED (removed from the registry)

While CONNECTING, RUNNING, SETTLING or HANDING_OVER the runtime owns the session (`busy`): a
message sent then joins the queue. A steer injected mid-turn rolls the turn onto a new segment
at the boundary (`roll_steer_boundary`).
"""

from __future__ import annotations

import asyncio
import logging

from cherry_desktop.core.ai.agent_session.connections import SessionConnection, call_interrupt
from cherry_desktop.core.ai.agent_session.errors import SessionBusyError, UnknownRuntimeTurnError
from cherry_desktop.core.ai.agent_session.events import EventRouter, UsageBuffer
from cherry_desktop.core.ai.agent_session.follow_ups import FollowUpQueue
from cherry_desktop.core.ai.agent_session.host import SessionHost
from cherry_desktop.core.ai.agent_session.idle_timer import IdleTimer
from cherry_desktop.core.ai.agent_session.runtime_input import send_input
from cherry_desktop.core.ai.agent_session.state import (
    BUSY_STATES,
    END,
    Failure,
    RuntimeTurn,
    Segment,
    SegmentItem,
    SessionIssue,
    SessionState,
    SessionStatus,
    TerminalStatus,
    TurnKind,
)
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    ContextUsage,
    RuntimeSendInput,
    RuntimeSessionContext,
)
from cherry_desktop.core.ai.stream.types import SerializedError
from cherry_desktop.core.attachments import AttachmentStore
from cherry_desktop.core.messages import UIMessage, new_id
from cherry_desktop.core.state.topics import session_topic_id

log = logging.getLogger(__name__)


class LiveSession:
    """One agent session's runtime state (see the module docstring)."""

    def __init__(self, host: SessionHost, session_id: str, *, pending_turns: FollowUpQueue, usage: UsageBuffer,
                 attachments: AttachmentStore) -> None:
        self.host = host
        self.session_id = session_id
        self.topic_id = session_topic_id(session_id)
        self.state = SessionState.IDLE
        self.current: RuntimeTurn | None = None
        self.segments: dict[str, Segment] = {}
        self.pending_turns = pending_turns
        # Follow-ups persisted by an earlier run are offered again, never sent on their own.
        self.queue_held = bool(pending_turns.records())
        self.issue: SessionIssue | None = None
        self.idle = IdleTimer(lambda: self.host.spawn(self.close_idle()))
        self.usage = usage
        self.attachments = attachments
        self.link = SessionConnection(host, session_id, lambda conn: self.events.pump(conn))
        self.events = EventRouter(self, self.link)

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

    @property  # what the session's connection holds, read through the session
    def connection(self) -> AgentRuntimeConnection | None:
        return self.link.connection

    @property
    def context(self) -> RuntimeSessionContext | None:
        return self.link.context

    @property
    def context_usage(self) -> ContextUsage | None:
        return self.link.context_usage

    def publish(self) -> None:
        self.host.publish(SessionStatus(session_id=self.session_id, state=self.state, busy=self.busy,
                                        pending=tuple(self.pending_turns.ids()), held=self.queue_held,
                                        issue=self.issue, slash_commands=self.link.slash_commands))

    def use_context(self, context: RuntimeSessionContext) -> None:
        """The session's rows as last validated; a running turn keeps its model."""
        turn = self.live_turn
        self.link.use_context(context, model_id=turn.model_id if turn is not None else None)

    # -- turns ---------------------------------------------------------------------------------
    def begin(self, *, user_message: UIMessage, assistant_message_id: str, model_id: str,
              context: RuntimeSessionContext | None = None, system_reminder: bool = False,
              kind: TurnKind = "normal") -> Segment:
        """IDLE / HANDING_OVER -> CONNECTING: the turn's rows are saved, the runtime owns it."""
        if context is not None:
            self.link.use_context(context)
        if self.state not in (SessionState.IDLE, SessionState.HANDING_OVER) or self.current is not None:
            raise SessionBusyError(detail=self.session_id)
        turn = RuntimeTurn(id=new_id(), session_id=self.session_id, topic_id=self.topic_id,
                           user_message=user_message, model_id=model_id, system_reminder=system_reminder, kind=kind)
        seg = Segment(id=new_id(), turn=turn, assistant_message_id=assistant_message_id, model_id=model_id,
                      placeholder_saved=True)
        self.idle.cancel()
        self.state = SessionState.CONNECTING
        self.current = turn
        turn.segments.append(seg)
        self.segments[seg.id] = seg
        self.publish()
        return seg

    async def open_segment(self, seg: Segment) -> None:
        """Admit the segment's turn at the runtime (CONNECTING -> RUNNING) unless already sent."""
        turn = seg.turn
        seg.opened = True
        if turn.sent:
            return
        # The workspace is captured while the runtime connects, before it gets the turn.
        checkpoint = self._checkpoint_start(turn)
        try:
            conn = await self.link.ensure(turn.model_id, closed=lambda: self.closed)
            seed = self.host.session_rows.fork_seed(self.session_id)  # a fork's earlier conversation
            message = await send_input(self.attachments, turn.user_message, seed)  # before the check: it may await
        finally:
            if checkpoint is not None:
                await checkpoint
        if self.current is not turn or turn.settled:
            raise UnknownRuntimeTurnError("unknown-runtime-turn", "the turn ended before it was sent")
        await conn.send(RuntimeSendInput(message=message, system_reminder=turn.system_reminder, turn_id=turn.id))
        turn.sent = True
        if seed:
            self.host.session_rows.set_fork_seed(self.session_id, "")
        if self.state is SessionState.CONNECTING:
            self.state = SessionState.RUNNING

    def _checkpoint_start(self, turn: RuntimeTurn) -> asyncio.Task[None] | None:
        """Capture the workspace as it is before the runtime gets the turn (and runs any tool)."""
        checkpoints, context = self.host.checkpoints, self.context
        if checkpoints is None or context is None or context.workspace_path is None:
            return None
        turn.checkpointed = True
        return self.host.spawn(checkpoints.turn_started(self.session_id, context.workspace_path,
                                                        turn.user_message.id, turn.segments[0].assistant_message_id))

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
            self.host.spawn(call_interrupt(conn))

    # -- follow-ups and steers ------------------------------------------------------------------
    def queue_follow_up(self, message: UIMessage, *, steer: bool) -> None:
        """A follow-up not redirected joins the queue (a steer's turn wraps it as one); one sent
        after the user pressed Stop (the runtime still settling) is the next turn, not a steer."""
        turn = self.current
        after_stop = turn is not None and turn.interrupted
        if turn is not None and after_stop:
            turn.sent_after_stop.add(message.id)
        self.pending_turns.add(message, is_steer=steer and not after_stop)

    def requeue_undelivered(self, message_id: str) -> None:
        """A steer the turn never injected becomes the next turn (first in the queue)."""
        turn = self.current
        if turn is not None:
            turn.mark_undelivered(message_id)
        row = self.host.messages.find_message(message_id)
        if row is None:
            log.warning("undelivered steer %s has no user row; dropped", message_id)
            return
        if not self.pending_turns.contains(message_id):
            self.pending_turns.add(row.to_ui_message(), is_steer=True, first=True)
            self.publish()

    def roll_steer_boundary(self, turn: RuntimeTurn, old: Segment, message_ids: tuple[str, ...]) -> None:
        """The steer went in: the pre-steer segment (A1a) ends and a continuation (A2) takes the
        post-steer chunks; the topic stream stays alive across A1a's terminal."""
        if not old.opened or old.ended:
            log.warning("session %s: steer boundary outside an open segment ignored", self.session_id)
            return
        new = turn.roll_segment(old, message_ids)
        self.segments[new.id] = new
        self.host.streams.will_continue_topic(self.topic_id)
        old.push(END)

    # -- terminal / ownership --------------------------------------------------------------------
    async def on_segment_terminal(self, seg: Segment, status: TerminalStatus) -> None:
        """A segment's execution reached terminal, after its persistence listener."""
        self.segments.pop(seg.id, None)
        turn = seg.turn
        if seg.rolled:
            nxt = turn.segments[turn.segments.index(seg) + 1]
            if status == "success" and not turn.interrupted and not self.closed:
                await self.host.start_continuation(nxt)
                return
            # The pre-steer row ended badly: the continuation never starts.
            self.segments.pop(nxt.id, None)
            self.interrupt(turn)
            if status == "paused":
                self.host.streams.abort(self.topic_id, "user")
            else:
                await self.host.streams.terminate_held_topic_stream(self.topic_id,
                                                                    "the turn ended before its continuation")
        if not turn.settled:
            if status == "success":
                log.warning("session %s: segment ended before the runtime turn settled", self.session_id)
                turn.settle()
                await self.link.drop()
            else:
                self.interrupt(turn)
                if turn.sent and self.connection is not None:
                    self.state = SessionState.SETTLING
                    self.host.spawn(self.release_after_settle(turn, status))
                    return
                turn.settle()
        await self.release(turn, status)

    async def release_after_settle(self, turn: RuntimeTurn, status: TerminalStatus) -> None:
        try:
            await asyncio.wait_for(turn.settled_event.wait(), self.host.settle_timeout_s)
        except TimeoutError:
            log.warning("session %s: stopped turn did not settle; dropping the connection", self.session_id)
            turn.settle()
            await self.link.drop()
        await self.release(turn, status)

    async def release(self, turn: RuntimeTurn, status: TerminalStatus) -> None:
        """Terminal persistence is done: ownership returns to idle or passes to the queue's head."""
        if self.current is not turn:
            return
        self.current = None
        checkpoints = self.host.checkpoints
        if checkpoints is not None and turn.checkpointed:
            checkpoints.turn_ended(self.session_id, turn.user_message.id,
                                   [seg.assistant_message_id for seg in turn.segments])
        for seg in turn.segments:
            self.segments.pop(seg.id, None)
        if self.closed:
            return
        if self.link.take_rebuild():
            await self.link.drop()
        queued = set(self.pending_turns.ids())
        if status != "success" and queued and not queued <= turn.sent_after_stop:
            # After a Stop or an error the queue waits for the user instead of firing on; what
            # the user sent after pressing Stop is not part of it and runs.
            self.queue_held = True
        self.state = SessionState.IDLE
        if queued and not self.queue_held and self.host.hand_over(self.session_id):
            return
        self.publish()
        self.arm_idle()

    # -- handing over to the queue's head (the rest is in turn_starts.py) ---------------------------
    def claim_handover(self, *, hold_topic: bool, past_hold: bool = False) -> bool:
        """IDLE -> HANDING_OVER: the queue's head may start (with `past_hold`, even from a held
        queue: only the head runs, the rest stays held). With `hold_topic`, a topic stream still
        live (its terminal listeners run) is held open for the successor, so no message sent
        meanwhile finds the topic neither live nor owned."""
        if self.state is not SessionState.IDLE or (self.queue_held and not past_hold) or self.host.stopped:
            return False
        self.idle.cancel()
        self.state = SessionState.HANDING_OVER
        if hold_topic:
            # Refused (False) when the topic's stream already ended: the successor starts anew.
            self.host.streams.will_continue_topic(self.topic_id)
        self.publish()
        return True

    def end_handover(self) -> None:
        """HANDING_OVER -> IDLE without a turn (nothing left to start)."""
        if self.state is SessionState.HANDING_OVER:
            self.state = SessionState.IDLE
            self.publish()
            self.arm_idle()

    def undo_begun_turn(self, user: UIMessage, *, is_steer: bool, issue: SessionIssue) -> None:
        """A successor begun but refused by the broker: no turn, its message back at the head of
        the queue, the queue held with `issue` -> IDLE."""
        turn, self.current = self.current, None
        if turn is not None:
            turn.settle()
            for seg in turn.segments:
                self.segments.pop(seg.id, None)
        self.pending_turns.add(user, is_steer=is_steer, first=True)
        self.state = SessionState.HANDING_OVER
        self.hold_queue(issue)

    def hold_queue(self, issue: SessionIssue | None) -> None:
        """The queue waits for the user (with the reason when there is one): -> IDLE."""
        self.queue_held = True
        self.issue = issue
        if self.state is SessionState.HANDING_OVER:
            self.state = SessionState.IDLE
            self.arm_idle()
        self.publish()

    def release_queue(self) -> None:
        """The user resumes a held queue: it runs again from its head, its issue cleared."""
        self.queue_held = False
        self.issue = None
        self.publish()

    def remove_pending_turn(self, user_message_id: str) -> None:
        """Drop a queued follow-up; a queue left empty is no longer held."""
        self.pending_turns.remove(user_message_id)
        if self.pending_turns.ids():
            self.publish()
        else:
            self.release_queue()

    # -- steer continuations (started by turn_starts.py) -----------------------------------------
    async def fail_continuation(self, seg: Segment, issue: SessionIssue, error: SerializedError) -> None:
        """A2's placeholder could not be saved: the held topic ends as `error`, the turn stops
        and ownership is released (the queue held)."""
        turn = seg.turn
        self.segments.pop(seg.id, None)
        self.issue = issue
        await self.host.streams.terminate_held_topic_stream(self.topic_id, error)
        self.interrupt(turn)
        if not turn.settled:
            turn.settle()
        await self.release(turn, "error")

    # -- idle window / close ---------------------------------------------------------------------
    def arm_idle(self) -> None:
        if self.host.stopped or self.closed:
            self.idle.cancel()
        else:
            self.idle.arm(self.host.idle_window_s)

    async def close_idle(self) -> None:
        """Idle window over: IDLE -> CLOSING -> CLOSED; prewarm when a resume token is known."""
        if self.state is not SessionState.IDLE:
            return
        self.state = SessionState.CLOSING
        await self.link.drop()
        self.state = SessionState.CLOSED
        self.host.forget(self.session_id, self)
        # The persisted queue stays (offered again, held) — never silently dropped.
        await self.link.prewarm()

    async def close(self, reason: str, message: str = "") -> None:
        """Any state -> CLOSING -> CLOSED: the turn fails (`reason` is its code), the connection
        (and its process) closes."""
        if self.state is SessionState.CLOSED:
            return
        self.state = SessionState.CLOSING
        self.idle.cancel()
        turn = self.current
        if turn is not None and not turn.settled:
            turn.settle()
            for seg in turn.segments:
                seg.push(Failure(message or reason, reason))
        await self.link.drop()
        self.state = SessionState.CLOSED
