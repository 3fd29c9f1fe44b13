"""Turns the host starts on its own: the queue's next turn (`launch_successor`) and a steer
continuation (`start_continuation`).

Both are gated by the write quiesce *before* any write (a suppressed start stays queued and the
session busy; the last hold's disposal re-kicks it). A start that cannot proceed (the session no
longer validates, a placeholder cannot be saved, the broker refuses the turn) keeps the user's
message queued, holds the queue with the reason (published for the windows) and ends the topic
stream held for it as `error`, so the windows see why.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.agent_session.errors import AgentSessionError
from cherry_desktop.core.ai.agent_session.live_session import LiveSession, SessionIssue, SessionState
from cherry_desktop.core.ai.agent_session.state import Segment
from cherry_desktop.core.ai.stream.persistence import error_part
from cherry_desktop.core.ai.stream.types import SerializedError
from cherry_desktop.core.messages import UIMessage, new_id

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService

log = logging.getLogger(__name__)


async def launch_successor(service: AgentSessionRuntimeService, session: LiveSession) -> bool:
    """HANDING_OVER -> CONNECTING: start the queue's head as a new runtime turn."""
    while True:
        if session.state is not SessionState.HANDING_OVER or service.stopped:
            return False
        if service.quiesce.paused:
            service.quiesce.on_resume(lambda: service.kick(session))
            session.publish()
            return False
        record = session.queue.head()
        if record is None:
            await _end_handover(service, session, None, None)
            return False
        try:
            context = service.resolve_context(session.session_id)
        except AgentSessionError as exc:
            log.warning("session %s: queued turn held, the session is invalid: %s", session.session_id, exc)
            await _end_handover(service, session, SessionIssue(exc.code, exc.detail),
                                SerializedError(message=str(exc), name=type(exc).__name__, code=exc.code))
            return False
        session.context = context
        messages = service.repos.session_messages
        session.queue.take(record.user_message_id)
        row = messages.find_message(record.user_message_id)
        if row is None:
            log.warning("queued turn %s lost its user row; skipped", record.user_message_id)
            continue
        user = row.to_ui_message()
        model_id = context.model_id or ""
        assistant_id = new_id()
        try:
            # The queued message sorts where its turn runs, its answer right below it.
            messages.move_to_end(record.user_message_id)
            messages.create_message(session_id=session.session_id, role="assistant", parts=[], status="pending",
                                    model_id=model_id, id=assistant_id)
        except Exception as exc:
            log.exception("session %s: successor placeholder not saved", session.session_id)
            # Put the message back (held) so it is not lost.
            session.queue.add(user, is_steer=record.is_steer, first=True)
            await _end_handover(service, session, SessionIssue("placeholder-failed", str(exc)),
                                SerializedError.from_exception(exc, code="placeholder-failed"))
            return False
        begun = service.begin_turn(session.session_id, user_message=user, assistant_message_id=assistant_id,
                                   model_id=model_id, context=context, system_reminder=record.is_steer)
        seed = [user, UIMessage(id=assistant_id, role="assistant")]
        try:
            service.host.start_runtime_turn(
                topic_id=session.topic_id, model_id=model_id,
                request=service.build_turn_request(session.session_id, begun.turn_id, seed),
                listeners=begun.listeners, anchor_message_id=assistant_id)
        except Exception as exc:
            log.exception("session %s: the queued turn could not start", session.session_id)
            await _undo_begun_turn(service, session, user, record.is_steer, assistant_id, exc)
            return False
        return True


async def _end_handover(service: AgentSessionRuntimeService, session: LiveSession, issue: SessionIssue | None,
                        error: SerializedError | None) -> None:
    """The handover ends without a turn: IDLE (held with `issue` when given); a topic stream
    held for the successor ends as `error`."""
    if issue is not None:
        session.hold_queue(issue)
    elif session.state is SessionState.HANDING_OVER:
        session.state = SessionState.IDLE
        session.publish()
        session.arm_idle()
    await service.host.terminate_held_topic_stream(session.topic_id, error)


async def _undo_begun_turn(service: AgentSessionRuntimeService, session: LiveSession, user: UIMessage,
                           is_steer: bool, assistant_id: str, exc: Exception) -> None:
    error = SerializedError.from_exception(exc, code="turn-start-failed")
    turn = session.current
    session.current = None
    if turn is not None:
        turn.settle()
        for seg in turn.segments:
            session.segments.pop(seg.id, None)
    try:
        service.repos.session_messages.update_message(assistant_id, parts=[error_part(error)], status="error")
    except Exception:
        log.exception("session %s: the failed turn's row was not marked", session.session_id)
    session.queue.add(user, is_steer=is_steer, first=True)
    session.state = SessionState.HANDING_OVER
    await _end_handover(service, session, SessionIssue("turn-start-failed", str(exc)), error)


async def start_continuation(service: AgentSessionRuntimeService, session: LiveSession, seg: Segment) -> None:
    """Save A2's placeholder and start its execution on the held topic stream."""
    if service.quiesce.paused:
        # Gated before any write; the last hold's disposal re-kicks it.
        seg.continuation_deferred = True
        def resume() -> None:
            service.spawn(start_continuation(service, session, seg), in_flight=f"continue:{session.session_id}")

        service.quiesce.on_resume(resume)
        return
    seg.continuation_deferred = False
    turn = seg.turn
    host = service.host
    if session.current is not turn or turn.interrupted or service.stopped or session.closed:
        await host.terminate_held_topic_stream(session.topic_id, "the turn ended before its continuation")
        return
    messages = service.repos.session_messages
    try:
        messages.create_message(session_id=session.session_id, role="assistant", parts=[], status="pending",
                                model_id=seg.model_id, id=seg.assistant_message_id)
    except Exception as exc:
        log.exception("session %s: continuation placeholder not saved", session.session_id)
        session.segments.pop(seg.id, None)
        session.issue = SessionIssue("placeholder-failed", str(exc))
        await host.terminate_held_topic_stream(session.topic_id,
                                               SerializedError.from_exception(exc, code="placeholder-failed"))
        session.interrupt(turn)
        if not turn.settled:
            turn.settle()
        await session.release(turn, "error")
        return
    seg.placeholder_saved = True
    seed: list[UIMessage] = []
    for mid in seg.lead_message_ids:
        row = messages.find_message(mid)
        if row is not None:
            seed.append(row.to_ui_message())
    seed.append(UIMessage(id=seg.assistant_message_id, role="assistant"))
    listeners = service.segment_listeners(session, seg)
    host.start_runtime_turn(topic_id=session.topic_id, model_id=seg.model_id,
                            request=service.build_turn_request(session.session_id, seg.id, seed),
                            listeners=listeners.listeners, anchor_message_id=seg.assistant_message_id)
