"""Turns the host starts on its own: the queue's next turn (`hand_over` / `start_next_turn`,
then `launch_successor`) and a steer continuation (`start_continuation`).

Both are gated by the write quiesce *before* any write (a suppressed start stays queued and the
session busy; the last hold's disposal re-kicks it). A start that cannot proceed (the session no
longer validates, a placeholder cannot be saved, the broker refuses the turn) keeps the user's
message queued, holds the queue with the reason (published for the windows) and ends the topic
stream held for it as `error`, so the windows see why. Every change of the session is one of its
transitions (`end_handover`, `hold_queue`, `undo_begun_turn`, `fail_continuation`, ...).
"""

from __future__ import annotations

import logging

from cherry_desktop.core.ai.agent_session.errors import AgentSessionError
from cherry_desktop.core.ai.agent_session.host import SessionHost
from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.agent_session.segments import segment_request
from cherry_desktop.core.ai.agent_session.state import Segment, SessionIssue, SessionState
from cherry_desktop.core.ai.stream.persistence import error_part
from cherry_desktop.core.ai.stream.types import SerializedError
from cherry_desktop.core.messages import UIMessage, new_id

log = logging.getLogger(__name__)


def hand_over(host: SessionHost, session: LiveSession) -> bool:
    """An idle session with a queue hands over to its head now (holding a topic stream that is
    still finishing, so no send meanwhile finds it neither live nor owned)."""
    if not session.claim_handover(hold_topic=not host.quiesce.paused):
        return False
    kick(host, session)
    return True


async def start_next_turn(host: SessionHost, session: LiveSession, *, past_hold: bool = False) -> bool:
    """Start the head of `pending_turns` as a new runtime turn; False when it may not start now
    (with `past_hold`, from a held queue too: only the head runs). Ownership is rechecked before
    the queue is read, so a premature call has no queue, database or stream-manager effects."""
    if not session.claim_handover(hold_topic=not host.quiesce.paused, past_hold=past_hold):
        return False
    return await launch_successor(host, session)


def kick(host: SessionHost, session: LiveSession) -> None:
    """Launch the queue's head of a session that claimed the handover, in the background."""
    if not host.stopped and session.state is SessionState.HANDING_OVER:
        host.spawn(launch_successor(host, session), in_flight=f"start:{session.session_id}")


async def launch_successor(host: SessionHost, session: LiveSession) -> bool:
    """HANDING_OVER -> CONNECTING: start the queue's head as a new runtime turn."""
    while True:
        if session.state is not SessionState.HANDING_OVER or host.stopped:
            return False
        if host.quiesce.paused:
            host.quiesce.on_resume(lambda: kick(host, session))
            session.publish()
            return False
        record = session.pending_turns.head()
        if record is None:
            session.end_handover()
            await host.streams.terminate_held_topic_stream(session.topic_id, None)
            return False
        try:
            context = host.resolve_context(session.session_id)
        except AgentSessionError as exc:
            log.warning("session %s: queued turn held, the session is invalid: %s", session.session_id, exc)
            await _hold(host, session, SessionIssue(exc.code, exc.detail),
                        SerializedError(message=str(exc), name=type(exc).__name__, code=exc.code))
            return False
        session.use_context(context)
        messages = host.messages
        session.pending_turns.take(record.user_message_id)
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
            session.pending_turns.add(user, is_steer=record.is_steer, first=True)
            await _hold(host, session, SessionIssue("placeholder-failed", str(exc)),
                        SerializedError.from_exception(exc, code="placeholder-failed"))
            return False
        begun = host.begin_turn(session.session_id, user_message=user, assistant_message_id=assistant_id,
                                model_id=model_id, context=context, system_reminder=record.is_steer)
        seed = [user, UIMessage(id=assistant_id, role="assistant")]
        try:
            host.streams.start_runtime_turn(
                topic_id=session.topic_id, model_id=model_id,
                request=segment_request(session, session.segments[begun.turn_id], seed),
                listeners=begun.listeners, anchor_message_id=assistant_id)
        except Exception as exc:
            log.exception("session %s: the queued turn could not start", session.session_id)
            error = SerializedError.from_exception(exc, code="turn-start-failed")
            try:
                messages.update_message(assistant_id, parts=[error_part(error)], status="error")
            except Exception:
                log.exception("session %s: the failed turn's row was not marked", session.session_id)
            session.undo_begun_turn(user, is_steer=record.is_steer, issue=SessionIssue("turn-start-failed", str(exc)))
            await host.streams.terminate_held_topic_stream(session.topic_id, error)
            return False
        return True


async def _hold(host: SessionHost, session: LiveSession, issue: SessionIssue, error: SerializedError) -> None:
    """The handover ends without a turn: the queue is held with `issue`, and a topic stream held
    for the successor ends as `error`."""
    session.hold_queue(issue)
    await host.streams.terminate_held_topic_stream(session.topic_id, error)


async def start_continuation(host: SessionHost, session: LiveSession | None, seg: Segment) -> None:
    """Save A2's placeholder and start its execution on the held topic stream."""
    if host.quiesce.paused:
        # Gated before any write; the last hold's disposal re-kicks it.
        def resume() -> None:
            host.spawn(host.start_continuation(seg), in_flight=f"continue:{seg.turn.session_id}")

        host.quiesce.on_resume(resume)
        return
    turn = seg.turn
    streams = host.streams
    if session is None or session.current is not turn or turn.interrupted or host.stopped or session.closed:
        await streams.terminate_held_topic_stream(seg.turn.topic_id, "the turn ended before its continuation")
        return
    messages = host.messages
    try:
        messages.create_message(session_id=session.session_id, role="assistant", parts=[], status="pending",
                                model_id=seg.model_id, id=seg.assistant_message_id)
    except Exception as exc:
        log.exception("session %s: continuation placeholder not saved", session.session_id)
        await session.fail_continuation(seg, SessionIssue("placeholder-failed", str(exc)),
                                        SerializedError.from_exception(exc, code="placeholder-failed"))
        return
    seg.placeholder_saved = True
    seed: list[UIMessage] = []
    for mid in seg.lead_message_ids:
        row = messages.find_message(mid)
        if row is not None:
            seed.append(row.to_ui_message())
    seed.append(UIMessage(id=seg.assistant_message_id, role="assistant"))
    listeners = host.segment_listeners(seg)
    streams.start_runtime_turn(topic_id=session.topic_id, model_id=seg.model_id,
                               request=segment_request(session, seg, seed),
                               listeners=listeners.listeners, anchor_message_id=seg.assistant_message_id)
