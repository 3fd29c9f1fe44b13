"""Deleting and editing agents and sessions through the host, so a live runtime follows at once.

- Deleting a session (or its agent) releases its runtime first: the topic's stream is stopped,
  the connection and its process are closed, no prewarm starts for it, and what its turn still
  wanted to save is dropped quietly; then the rows go.
- Editing an agent saves the row, then pushes the change onto every live session of the agent
  through `connection.reconcile`: a live patch applies at once; a change the connection can only
  take by a rebuild is deferred until the running turn ends; a change it refuses (a tightening
  that cannot be applied live) fails closed: the stream is paused, the connection torn down,
  the queue kept and held, and the reason published for the windows.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Literal

from cherry_desktop.core.ai.agent_session.connections import reconcile_input
from cherry_desktop.core.ai.agent_session.errors import AgentSessionError
from cherry_desktop.core.ai.agent_session.live_session import LiveSession, SessionIssue
from cherry_desktop.core.state.topics import session_topic_id

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService

RUNTIME_STATE_PREFIX = "agent.session.runtime."


def agent_session_runtime_key(session_id: str) -> str:
    """SharedCache key of a session's runtime state: {busy, state, pending, held, issue}."""
    return RUNTIME_STATE_PREFIX + session_id

log = logging.getLogger(__name__)

#: What an agent edit did to one live session: applied to its connection now, applied from its
#: next turn (no connection, or a rebuild deferred until the running turn ends), or refused and
#: failed closed (the stream paused, the queue held, the reason published).
EditOutcome = Literal["applied", "next-turn", "failed"]

#: The issue code of an agent edit a live connection refused (the stream was paused).
EDIT_NOT_APPLIED = "agent-edit-not-applied"


async def delete_session(service: AgentSessionRuntimeService, session_id: str) -> None:
    service.deleted_sessions.add(session_id)
    host = service.stream_host
    topic_id = session_topic_id(session_id)
    if host is not None and host.has_live_stream(topic_id):
        host.abort(topic_id, "user")
    session = service.sessions.get(session_id)
    if session is not None:
        session.usage.dropped = True
        await session.close("session-deleted", "the session was deleted")
        service.forget(session)
    for driver in service.registry.drivers():
        # A query prewarmed for the session while it was idle goes too (a driver's own hook).
        close_warm = getattr(driver, "close_session_warm", None)
        if callable(close_warm):
            try:
                await close_warm(session_id)
            except Exception:
                log.exception("closing the warm query of %s failed", session_id)
    service.repos.sessions.delete_session(session_id)
    if service.shared_cache is not None:
        service.shared_cache.delete(agent_session_runtime_key(session_id))


async def delete_agent(service: AgentSessionRuntimeService, agent_id: str) -> None:
    for record in service.repos.sessions.list_sessions(agent_id):
        await delete_session(service, record.id)
    service.repos.agents.delete_agent(agent_id)


def update_agent(service: AgentSessionRuntimeService, agent_id: str, **changes: Any) -> asyncio.Task[None] | None:
    service.repos.agents.update_agent(agent_id, **changes)
    if not live_sessions_of(service, agent_id):
        return None

    async def push_all() -> None:
        await reconcile_agent(service, agent_id)

    return service.spawn(push_all())


def live_sessions_of(service: AgentSessionRuntimeService, agent_id: str) -> list[LiveSession]:
    return [s for s in service.sessions.values()
            if s.context is not None and s.context.agent.id == agent_id and not s.closed]


async def reconcile_agent(service: AgentSessionRuntimeService, agent_id: str) -> dict[str, EditOutcome]:
    """Push the agent's saved rows onto each of its live sessions; the outcome per session."""
    return {session.session_id: await push_agent_edit(service, session)
            for session in live_sessions_of(service, agent_id)}


async def push_agent_edit(service: AgentSessionRuntimeService, session: LiveSession) -> EditOutcome:
    """Re-validate the session and reconcile its live connection with the agent's new rows."""
    try:
        context = service.resolve_context(session.session_id)
    except AgentSessionError as exc:
        await fail_closed(service, session, SessionIssue(exc.code, exc.detail))
        return "failed"
    turn = session.live_turn
    if turn is not None:
        context.model_id = turn.model_id  # the running turn keeps its model; the next one re-reads
    session.context = context
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
            session.rebuild_after_turn = True
        else:
            await session.drop_connection()
        return "next-turn"
    await fail_closed(service, session, SessionIssue(EDIT_NOT_APPLIED, result))
    return "failed"


async def fail_closed(service: AgentSessionRuntimeService, session: LiveSession, issue: SessionIssue) -> None:
    """The live connection cannot run under the agent's new policy: pause the stream, tear the
    connection down, keep (and hold) the queue, and say why."""
    session.hold_queue(issue)
    host = service.host
    turn = session.live_turn
    if host.has_live_stream(session.topic_id):
        host.abort(session.topic_id, "user")
    if turn is not None:
        # The connection goes now: its turn is over (the terminal does not wait for it).
        turn.interrupted = True
        turn.settle()
    await session.drop_connection()
