# mypy: disable-error-code="misc"
# (a mixin of AgentSessionRuntimeService: its methods annotate `self` with the service type)
"""Live follow-ups: steer into the running turn or queue as the next turn; the queue's UI API.

The queue is the session's `pending_turns`, persisted (`PendingTurnRepository`) so a restart
offers it again. A follow-up taken in "steer" mode that cannot be redirected is queued with its
id in `steer_message_ids`, so the next turn wraps it in a steer system-reminder. Queued
follow-ups run one per completed turn; after a restart, a Stop or an error they are *held*
and wait for the user (`resume_pending_turns`, `steer_now`) — never silently sent or dropped.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

from cherry_desktop.core.ai.agent_session.errors import AgentSessionError
from cherry_desktop.core.ai.agent_session.state import SessionEntry
from cherry_desktop.core.ai.agent_session.validation import resolve_session_context
from cherry_desktop.core.ai.runtime.types import RuntimeRedirectInput, RuntimeSessionContext
from cherry_desktop.core.ai.stream.types import SerializedError
from cherry_desktop.core.data.records import PendingTurnRecord
from cherry_desktop.core.messages import TextPart, UIMessage, message_text, new_id

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService

log = logging.getLogger(__name__)

FollowUpMode = Literal["steer", "queue"]
FollowUpResult = Literal["injected", "queued"]


class FollowUpQueueMixin:
    """Follow-up steering, the pending-turn queue and successor starts."""

    # -- live follow-up -------------------------------------------------------------------------
    async def enqueue_user_message(self: AgentSessionRuntimeService, session_id: str, message: UIMessage,
                                   mode: FollowUpMode = "steer") -> FollowUpResult:
        """Hand a persisted follow-up user row to the runtime: redirect it into the open normal
        turn when the driver can steer, else queue it for the next turn."""
        entry = self._entry(session_id)
        if mode == "steer" and await self._try_redirect(entry, message):
            self._publish(entry)
            return "injected"
        turn = entry.current
        after_stop = turn is not None and turn.interrupted
        if turn is not None and after_stop:
            # Sent once the user pressed Stop (the runtime is still settling): the next turn.
            turn.sent_after_stop.add(message.id)
        self._queue(entry, message, is_steer=mode == "steer" and not after_stop)
        if not entry.busy and not entry.queue_held and not self.host.has_live_stream(entry.topic_id):
            self._kick(session_id)
        return "queued"

    async def _try_redirect(self: AgentSessionRuntimeService, entry: SessionEntry, message: UIMessage) -> bool:
        turn = entry.current
        conn = entry.connection
        if turn is None or conn is None or turn.kind != "normal" or not turn.sent or turn.settled:
            return False
        seg = turn.active_segment
        # Steering is valid only once the turn's stream is open.
        if turn.interrupted or seg is None or not seg.opened or not getattr(conn, "supports_redirect", False):
            return False
        try:
            ok = await conn.redirect(RuntimeRedirectInput(message=message, system_reminder=True))
        except Exception:
            log.exception("redirect into session %s failed; queued instead", entry.session_id)
            return False
        if ok and entry.current is turn and not turn.settled:
            turn.redirected.append(message)
            return True
        return False

    def _queue(self: AgentSessionRuntimeService, entry: SessionEntry, message: UIMessage, *, is_steer: bool,
               first: bool = False) -> PendingTurnRecord:
        record = self.repos.pending_turns.add(session_id=entry.session_id, user_message_id=message.id,
                                              text=message_text(message), is_steer=is_steer)
        if is_steer:
            entry.steer_message_ids.add(message.id)
        if first:
            ids = [r.user_message_id for r in self.repos.pending_turns.list(entry.session_id)]
            ids.remove(message.id)
            self.repos.pending_turns.reorder(entry.session_id, [message.id, *ids])
        self._publish(entry)
        return record

    # -- successor turns ----------------------------------------------------------------------------
    async def start_next_turn(self: AgentSessionRuntimeService, session_id: str) -> bool:
        """Start the head of the queue as a new runtime turn; False when it may not start now.

        Ownership is rechecked before the queue is read, so a premature call has no queue,
        database or stream-manager side effects.
        """
        entry = self._entries.get(session_id)
        if entry is None or entry.busy or entry.queue_held or self._stopped:
            return False
        if self.host.has_live_stream(entry.topic_id):
            return False
        if self._quiesce.paused:
            # Gated before consuming the queue; the session stays busy so dispatches keep queueing.
            entry.suppressed = True
            self._quiesce.on_resume(lambda: self._resume_suppressed(entry))
            self._publish(entry)
            return False
        records = self.repos.pending_turns.list(session_id)
        if not records:
            return False
        entry.starting = True
        try:
            return await self._launch_successor(entry, records[0])
        finally:
            entry.starting = False
            self._publish(entry)

    def _resume_suppressed(self: AgentSessionRuntimeService, entry: SessionEntry) -> None:
        entry.suppressed = False
        self._kick(entry.session_id)

    async def _launch_successor(self: AgentSessionRuntimeService, entry: SessionEntry,
                                record: PendingTurnRecord) -> bool:
        try:
            context = self._revalidate(entry)
        except AgentSessionError as exc:
            log.warning("session %s: queued turn held, the session is invalid: %s", entry.session_id, exc)
            entry.queue_held = True
            self._arm_idle(entry)
            return False
        self.repos.pending_turns.remove_by_message(record.user_message_id)
        is_steer = record.is_steer or record.user_message_id in entry.steer_message_ids
        entry.steer_message_ids.discard(record.user_message_id)
        row = self.repos.session_messages.find_message(record.user_message_id)
        if row is None:
            log.warning("queued turn %s lost its user row; skipped", record.user_message_id)
            self._kick(entry.session_id)
            return False
        user = row.to_ui_message()
        model_id = context.model_id or ""
        assistant_id = new_id()
        try:
            # The queued message sorts where its turn runs, its answer right below it.
            self.repos.session_messages.move_to_end(record.user_message_id)
            self.repos.session_messages.create_message(session_id=entry.session_id, role="assistant", parts=[],
                                                       status="pending", model_id=model_id, id=assistant_id)
        except Exception as exc:
            log.exception("session %s: successor placeholder not saved", entry.session_id)
            # Put the message back (held) so it is not lost, and end any held stream.
            self._queue(entry, user, is_steer=is_steer, first=True)
            entry.queue_held = True
            await self.host.terminate_held_topic_stream(
                entry.topic_id, SerializedError.from_exception(exc, code="placeholder-failed"))
            self._arm_idle(entry)
            return False
        entry.starting = False
        begun = self.begin_turn(entry.session_id, user_message=user, assistant_message_id=assistant_id,
                                model_id=model_id, context=context, system_reminder=is_steer)
        seg = self._segments[begun.turn_id][1]
        seed = [user, UIMessage(id=assistant_id, role="assistant")]
        self.host.start_runtime_turn(topic_id=entry.topic_id, model_id=model_id,
                                     request=self.build_request(entry, seg, seed), listeners=begun.listeners,
                                     anchor_message_id=assistant_id)
        return True

    def _revalidate(self: AgentSessionRuntimeService, entry: SessionEntry) -> RuntimeSessionContext:
        entry.context = resolve_session_context(entry.session_id, repos=self.repos, paths=self.paths,
                                                registry=self.registry)
        return entry.context

    # -- the queue's UI API --------------------------------------------------------------------------
    def list_pending_turns(self: AgentSessionRuntimeService, session_id: str) -> list[PendingTurnRecord]:
        """Queued follow-ups of a session, in the order they will run."""
        return self.repos.pending_turns.list(session_id)

    def is_queue_held(self: AgentSessionRuntimeService, session_id: str) -> bool:
        entry = self._entries.get(session_id)
        if entry is None:
            return bool(self.repos.pending_turns.list(session_id))
        return entry.queue_held

    def edit_pending_turn(self: AgentSessionRuntimeService, session_id: str, user_message_id: str,
                          text: str) -> bool:
        """Change a queued follow-up's text (its user row follows)."""
        if not self._pending(session_id, user_message_id):
            return False
        self.repos.pending_turns.update_text(user_message_id, text)
        self.repos.session_messages.update_message(user_message_id, parts=[TextPart(text=text, state="done")])
        self._publish(self._entry(session_id))
        return True

    def remove_pending_turn(self: AgentSessionRuntimeService, session_id: str, user_message_id: str) -> bool:
        """Drop a queued follow-up and its never-answered user row."""
        if not self._pending(session_id, user_message_id):
            return False
        self.repos.pending_turns.remove_by_message(user_message_id)
        self.repos.session_messages.delete_message(user_message_id)
        entry = self._entry(session_id)
        entry.steer_message_ids.discard(user_message_id)
        if not self.repos.pending_turns.list(session_id):
            entry.queue_held = False
        self._publish(entry)
        return True

    def reorder_pending_turns(self: AgentSessionRuntimeService, session_id: str, user_message_ids: list[str]) -> None:
        current = [r.user_message_id for r in self.repos.pending_turns.list(session_id)]
        if sorted(current) != sorted(user_message_ids):
            raise ValueError("reorder must name exactly the queued follow-ups")
        self.repos.pending_turns.reorder(session_id, user_message_ids)
        self._publish(self._entry(session_id))

    async def steer_now(self: AgentSessionRuntimeService, session_id: str,
                        user_message_id: str) -> Literal["injected", "started", "queued"]:
        """Send one queued follow-up now: steer it into the running turn when possible, start it
        when the session is idle, else move it to the head of the queue."""
        if not self._pending(session_id, user_message_id):
            raise ValueError(f"{user_message_id} is not queued in session {session_id}")
        entry = self._entry(session_id)
        row = self.repos.session_messages.find_message(user_message_id)
        if row is not None and await self._try_redirect(entry, row.to_ui_message()):
            self.repos.pending_turns.remove_by_message(user_message_id)
            entry.steer_message_ids.discard(user_message_id)
            self._publish(entry)
            return "injected"
        ids = [r.user_message_id for r in self.repos.pending_turns.list(session_id)]
        ids.remove(user_message_id)
        self.repos.pending_turns.reorder(session_id, [user_message_id, *ids])
        # Only this message is sent now: a held queue stays held behind it.
        was_held, entry.queue_held = entry.queue_held, False
        try:
            started = await self.start_next_turn(session_id)
        finally:
            entry.queue_held = entry.queue_held or was_held
        self._publish(entry)
        return "started" if started else "queued"

    async def resume_pending_turns(self: AgentSessionRuntimeService, session_id: str) -> bool:
        """Release a held queue (after a restart, Stop or error): the head starts when idle."""
        entry = self._entry(session_id)
        entry.queue_held = False
        self._publish(entry)
        return await self.start_next_turn(session_id)

    def _pending(self: AgentSessionRuntimeService, session_id: str, user_message_id: str) -> bool:
        return any(r.user_message_id == user_message_id for r in self.repos.pending_turns.list(session_id))
