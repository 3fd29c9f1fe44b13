"""Forking a session's conversation from before a message ("Restore files and conversation").

The fork is a new session of the same agent, workspace (and worktree), holding copies of the
rows before the message. None of the runtimes here can fork its own session at a message
through Cherry's drivers yet, so the fork's runtime starts a session of its own: its first turn
carries the earlier conversation as text (`fork_seed`), and the fork says so (`FORK_NOTICE_KEY`
on its first row's metadata, which the window shows).
"""

from __future__ import annotations

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.records import AgentSessionRecord, StoredMessage
from cherry_desktop.core.messages import TextPart

#: Metadata of a fork's first row: the session id it was forked from.
FORK_NOTICE_KEY = "forked_from"
SEED_LIMIT_CHARS = 60_000


def _text(row: StoredMessage) -> str:
    return "".join(p.text for p in row.parts if isinstance(p, TextPart)).strip()


def fork_seed_text(rows: list[StoredMessage]) -> str:
    """The earlier conversation as the fork's runtime reads it (its newest part when long)."""
    lines = [f"{'User' if r.role == 'user' else 'Assistant'}: {_text(r)}" for r in rows if _text(r)]
    body = "\n\n".join(lines)
    if len(body) > SEED_LIMIT_CHARS:
        body = "…" + body[-SEED_LIMIT_CHARS:]
    return ("<earlier-conversation>\nThis conversation continues an earlier one that was forked; "
            "it went as follows.\n\n" + body + "\n</earlier-conversation>\n\n")


def fork_conversation(repos: Repositories, session_id: str, user_message_id: str, name: str) -> AgentSessionRecord:
    """A new session holding the rows of `session_id` before `user_message_id` (ValueError when
    that message is not a user message of the session)."""
    source = repos.sessions.get_session(session_id)
    rows = repos.session_messages.list_messages(session_id)
    index = next((i for i, r in enumerate(rows) if r.id == user_message_id and r.role == "user"), None)
    if index is None:
        raise ValueError(f"{user_message_id} is not a user message of session {session_id}")
    earlier = rows[:index]
    fork = repos.sessions.create_session(agent_id=source.agent_id or "", workspace_id=source.workspace_id,
                                         name=name, model=source.model)
    if source.worktree is not None:
        repos.sessions.set_worktree(fork.id, source.worktree)
    for i, row in enumerate(earlier):
        metadata = dict(row.metadata or {})
        if i == 0:
            metadata[FORK_NOTICE_KEY] = session_id
        repos.session_messages.create_message(
            session_id=fork.id, role=row.role, parts=list(row.parts), model_id=row.model_id, metadata=metadata,
            status=row.status if row.status != "pending" else "error")
    if earlier:
        repos.sessions.set_fork_seed(fork.id, fork_seed_text(earlier))
    return repos.sessions.get_session(fork.id)
