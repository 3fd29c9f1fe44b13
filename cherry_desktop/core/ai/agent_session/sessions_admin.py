"""Closing, deleting and editing through the host, so a live runtime follows at once.

- Closing a session's runtime (`close_session`) lets go of it as the idle timer does, on demand
  and without a prewarm: a running turn is stopped (its row kept as `paused`), the connection and
  its process close, a prewarmed handle of the driver goes too, and the entry is cleared. The
  session itself stays: its rows, queue (held) and resume token, so its next turn reconnects
  and resumes.
- Deleting a session (or its agent) closes its runtime that way first, marked deleted so what
  its turn still wanted to save is dropped quietly and no prewarm starts; then the rows go.
- Editing an agent saves the row, then pushes the change onto every live session of the agent
  through `connection.reconcile`: a live patch applies at once; a change the connection can only
  take by a rebuild is deferred until the running turn ends (an idle session's runtime is
  closed: its next turn connects anew); a change it refuses (a tightening that cannot be
  applied live) fails closed: the stream is paused, the connection torn down, the queue kept and
  held, and the reason published for the windows.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

from cherry_desktop.core.ai.agent_session.connections import reconcile_input
from cherry_desktop.core.ai.agent_session.errors import AgentSessionError
from cherry_desktop.core.ai.agent_session.host import SessionHost
from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.agent_session.state import SessionIssue
from cherry_desktop.core.ai.runtime.types import ClosesWarmSessions
from cherry_desktop.core.state.topics import session_topic_id

log = logging.getLogger(__name__)

RUNTIME_STATE_PREFIX = "agent.session.runtime."
#: How long a new turn waits for the session's runtime to finish closing (its drop is bounded
#: by the connection's own close timeout).
FINISH_CLOSING_S = 10.0


def agent_session_runtime_key(session_id: str) -> str:
    """SharedCache key of a session's runtime state: {busy, state, pending, held, issue, slash_commands}."""
    return RUNTIME_STATE_PREFIX + session_id


#: What an agent edit did to one live session: applied to its connection now, applied from its
#: next turn (no connection, or a rebuild deferred until the running turn ends), or refused and
#: failed closed (the stream paused, the queue held, the reason published).
EditOutcome = Literal["applied", "next-turn", "failed"]

#: The issue code of an agent edit a live connection refused (the stream was paused).
EDIT_NOT_APPLIED = "agent-edit-not-applied"


async def finish_closing(host: SessionHost, session_id: str, session: LiveSession | None) -> None:
    """A turn for a session whose runtime is closing (the idle window ran out, a close asked)
    waits for that close (bounded), so it begins on a fresh entry instead of being refused."""
    if session is None or not session.closed:
        return
    try:
        # The close's own continuation marks the entry CLOSED as its drop returns.
        await asyncio.wait_for(session.link.not_dropping.wait(), FINISH_CLOSING_S)
    except TimeoutError:
        log.warning("session %s: its runtime did not finish closing; a new entry takes the turn", session_id)
    host.forget(session_id, session)


async def close_session(host: SessionHost, session_id: str, session: LiveSession | None, *,
                        reason: str = "session-closed", message: str = "the session was closed") -> bool:
    """Let go of the session's runtime now (see the module docstring); False when it had none
    live (a prewarmed handle is closed all the same)."""
    streams = host.streams
    topic_id = session_topic_id(session_id)
    if streams.has_live_stream(topic_id):
        streams.abort(topic_id, "user")
    if session is not None:
        await session.close(reason, message)
        host.forget(session_id, session)
    for driver in host.registry.drivers():
        # A query prewarmed for the session while it was idle goes too (a driver's own hook).
        if isinstance(driver, ClosesWarmSessions):
            try:
                await driver.close_session_warm(session_id)
            except Exception:
                log.exception("closing the warm query of %s failed", session_id)
    return session is not None


async def push_agent_edit(host: SessionHost, session: LiveSession) -> EditOutcome:
    """Re-validate the session and reconcile its live connection with the agent's new rows."""
    try:
        context = host.resolve_context(session.session_id)
    except AgentSessionError as exc:
        await fail_closed(host, session, SessionIssue(exc.code, exc.detail))
        return "failed"
    session.use_context(context)  # the running turn keeps its model; the next one re-reads
    conn = session.connection
    if conn is None:
        return "next-turn"
    try:
        result = await conn.reconcile(reconcile_input(context))
    except Exception:
        log.exception("reconciling session %s failed", session.session_id)
        result = "failed"
    if result in ("current", "patched"):
        return "applied"
    if result == "rebuild":
        if session.busy:
            session.link.rebuild_after_turn()
        else:
            # Idle: nothing to wait for; the runtime (and a prewarm on the old rows) goes now.
            await close_session(host, session.session_id, session)
        return "next-turn"
    await fail_closed(host, session, SessionIssue(EDIT_NOT_APPLIED, result))
    return "failed"


async def fail_closed(host: SessionHost, session: LiveSession, issue: SessionIssue) -> None:
    """The live connection cannot run under the agent's new policy: pause the stream, tear the
    connection down, keep (and hold) the queue, and say why."""
    session.hold_queue(issue)
    streams = host.streams
    turn = session.live_turn
    if streams.has_live_stream(session.topic_id):
        streams.abort(session.topic_id, "user")
    if turn is not None:
        turn.stop_now()  # the connection goes now: its turn is over (the terminal does not wait)
    await session.link.drop()
