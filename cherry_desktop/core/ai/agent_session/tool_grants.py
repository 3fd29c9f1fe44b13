"""The tools a user allowed "always" in an agent session (the approval card's "Always allow
<tool> in this session").

A grant belongs to the session, not to a runtime connection: it is saved on the session row
(`agent_session.settings`), so it outlives an idle close, a connection rebuilt after an agent
edit and an app restart, and it goes when the session is deleted. Every connection gets the
session's grants at connect (`RuntimeConnectInput.always_allowed_tools`); a live one learns a
new grant as it answers the approval, and loses a revoked one at once.

The rule: a grant is kept per tool name and only turns the runtime's "ask" into "allow". The
gate still comes first: a disabled tool is refused with or without a grant (and no grant is
saved or handed over for it), and in plan mode the Claude Code connection asks regardless. A
permission-mode change keeps the grants: they name single tools the user chose, never a
category, and the session header lists them with a way to revoke each one.
"""

from __future__ import annotations

import logging

from cherry_desktop.core.ai.agent_session.host import SessionHost
from cherry_desktop.core.ai.agent_session.live_session import LiveSession
from cherry_desktop.core.ai.runtime.types import ApprovalDecision, HoldsToolGrants
from cherry_desktop.core.data.agent_repository import NotFoundError

log = logging.getLogger(__name__)


async def respond_tool_approval(host: SessionHost, session: LiveSession | None, approval_id: str,
                                decision: ApprovalDecision) -> bool:
    """Forward the user's decision on a runtime approval request of the live `session`; an
    "always" answer the runtime took is saved with the session."""
    conn = session.connection if session is not None else None
    if session is None or conn is None:
        return False
    tool_name = session.events.take_approval_tool(approval_id)
    ok = await conn.respond_tool_approval(approval_id, decision)
    if ok and decision.approved and decision.always_allow and tool_name:
        grant_tool(host, session.session_id, tool_name)
    if ok:
        host.streams.clear_awaiting_approval(session.topic_id)
    return ok


def _disabled_tools(host: SessionHost, session_id: str) -> frozenset[str]:
    found = host.session_rows.find_session_context(session_id)
    agent = found[1] if found is not None else None
    return frozenset(agent.disabled_tools) if agent is not None else frozenset()


def grant_tool(host: SessionHost, session_id: str, tool_name: str) -> bool:
    """Save `tool_name` as always allowed in the session; False when not saved (the session
    is deleted, or the tool is disabled for its agent)."""
    if host.is_deleted(session_id) or tool_name in _disabled_tools(host, session_id):
        return False
    try:
        host.session_rows.update_always_allowed_tools(session_id, add=[tool_name])
    except NotFoundError:
        return False  # deleted while the answer was on its way
    return True


def revoke_tools(host: SessionHost, session: LiveSession | None, session_id: str,
                 tool_names: list[str] | None = None) -> tuple[str, ...]:
    """Ask again for `tool_names` (None: every tool) in the session, from the live connection's
    next call on; returns the tools still allowed. Raises `NotFoundError` for no session."""
    remaining = host.session_rows.update_always_allowed_tools(
        session_id, remove=tool_names, remove_all=tool_names is None)
    if session is not None and isinstance(session.connection, HoldsToolGrants):
        live = session.connection.always_allowed_tools
        if tool_names is None:
            live.clear()
        else:
            live.difference_update(tool_names)
    log.info("session %s: always-allowed tools now %s", session_id, list(remaining))
    return remaining
