"""Chats and the rows of every topic: creating, naming and deleting topics, a topic's stored
messages (with their usage) and its totals, the sidebar's list, and editing a chat's branch."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cherry_desktop.core.state.shared_cache import topic_title_key
from cherry_desktop.core.state.topics import session_id_from_topic, session_topic_id
from cherry_desktop.ui.bridge._base import CoreBridge
from cherry_desktop.ui.bridge._cache_keys import topic_continuation_key
from cherry_desktop.ui.bridge._types import SidebarAgent, SidebarSession, SidebarTopic
from cherry_desktop.ui.bridge._usage_rows import with_usage

if TYPE_CHECKING:
    from cherry_desktop.core.data import StoredMessage
    from cherry_desktop.core.data.usage_cost import UsageSums


class ChatsBridge(CoreBridge):
    """Topics (chats and agent sessions alike) and their stored rows.

    Signals:
        (none: a new name reaches every window through the shared-cache mirror, `topic.title.*`)
    """

    # -- the sidebar ----------------------------------------------------------------------------
    def sidebar_agents(self) -> list[SidebarAgent]:
        """Every agent with its sessions, as the sidebar lists them."""
        repos = self._repos
        return [SidebarAgent(agent.id, agent.name, tuple(SidebarSession(session_topic_id(s.id), s.id, s.name)
                                                          for s in repos.sessions.list_sessions(agent.id)))
                for agent in repos.agents.list_agents()]

    def sidebar_chats(self) -> list[SidebarTopic]:
        return [SidebarTopic(topic.id, topic.name) for topic in self._repos.topics.list_topics()]

    def has_conversations(self) -> bool:
        """Whether any chat topic or agent session exists (the empty state's words)."""
        return self._repos.topics.has_topics() or self._repos.sessions.has_sessions()

    def first_topic(self) -> str | None:
        """The newest agent session, else the newest chat topic (what the first window opens)."""
        sessions = self._repos.sessions.list_sessions()
        if sessions:
            return session_topic_id(sessions[0].id)
        topics = self._repos.topics.list_topics()
        return topics[0].id if topics else None

    def topic_exists(self, topic_id: str) -> bool:
        """Whether the chat or agent session of `topic_id` is still there."""
        session_id = session_id_from_topic(topic_id)
        if session_id is not None:
            return self._repos.sessions.find_session(session_id) is not None
        return self._repos.topics.find_topic(topic_id) is not None

    # -- topics ---------------------------------------------------------------------------------
    def create_topic(self, name: str = "", model: str | None = None) -> str:
        return self._repos.topics.create_topic(name=name, model=model).id

    def topic_title(self, topic_id: str) -> str:
        session_id = session_id_from_topic(topic_id)
        if session_id is not None:
            session = self._repos.sessions.find_session(session_id)
            return session.name if session else ""
        topic = self._repos.topics.find_topic(topic_id)
        return topic.name if topic else ""

    def rename_topic(self, topic_id: str, name: str) -> None:
        """The user's name (never auto-named again), told to every window."""
        self._repos.names.rename(topic_id, name)
        self.core.shared_cache.set_shared(topic_title_key(topic_id), name)

    async def delete_topic(self, topic_id: str) -> None:
        """Stop a live stream first, then delete the rows."""
        await self.services()
        manager = self._stream_manager()
        if manager is not None and manager.has_live_stream(topic_id):
            manager.abort(topic_id)
        session_id = session_id_from_topic(topic_id)
        runtime = self._agent_runtime()
        if session_id is not None and runtime is not None:
            await runtime.delete_session(session_id)  # its runtime is released at once
        elif session_id is not None:
            self._repos.sessions.delete_session(session_id)
        else:
            self._repos.topics.delete_topic(topic_id)

    # -- rows -----------------------------------------------------------------------------------
    def load_messages(self, topic_id: str, *, limit: int | None = None,
                      before_ordering: int | None = None) -> list[StoredMessage]:
        """Rows of a topic in order; with `limit`, the newest `limit` before `before_ordering`.
        An assistant row's stats carry its recorded usage (cache reads too) and its cost where
        its model has prices."""
        rows = self._load_rows(topic_id, limit=limit, before_ordering=before_ordering)
        return with_usage(rows, self._repos.costs.by_message(r.id for r in rows if r.role == "assistant"))

    def _load_rows(self, topic_id: str, *, limit: int | None = None,
                   before_ordering: int | None = None) -> list[StoredMessage]:
        session_id = session_id_from_topic(topic_id)
        if session_id is not None:
            return self._repos.session_messages.list_messages(session_id, limit=limit, before_ordering=before_ordering)
        rows: list[StoredMessage] = self._repos.messages.branch(topic_id)
        if before_ordering is not None:
            rows = [r for r in rows if r.ordering < before_ordering]
        return rows[-limit:] if limit else rows

    def with_recorded_usage(self, message_ids: Iterable[str]) -> dict[str, StoredMessage]:
        """The stored rows among `message_ids` that have usage recorded, their stats carrying it
        (a row's footer, refreshed once an agent turn's usage is written)."""
        usage = self._repos.costs.by_message(list(message_ids))
        out: dict[str, StoredMessage] = {}
        for message_id, sums in usage.items():
            if sums.empty:
                continue
            stored = (self._repos.session_messages.find_message(message_id)
                      or self._repos.messages.find_message(message_id))
            if stored is not None:
                out[message_id] = with_usage([stored], usage)[0]
        return out

    def delete_message(self, topic_id: str, message_id: str) -> None:
        """Delete one stored message of a chat (its replies move up to its parent) or of an
        agent session. A row still streaming is not deleted (the caller offers no such action)."""
        if session_id_from_topic(topic_id) is not None:
            self._repos.session_messages.delete_message(message_id)
        else:
            self._repos.messages.delete_message(message_id)

    def message_parent(self, topic_id: str, message_id: str) -> str | None:
        """The parent node of a chat message (None at the root, and for agent sessions)."""
        if session_id_from_topic(topic_id) is not None:
            return None
        stored = self._repos.messages.find_message(message_id)
        return stored.parent_id if stored is not None else None

    def start_branch_at_root(self, topic_id: str) -> None:
        """The next message of this chat starts a new branch at its root (editing its first
        message): the active node is cleared, so the new message has no parent."""
        if session_id_from_topic(topic_id) is None:
            self._repos.topics.set_active_node(topic_id, None)

    # -- versions (Regenerate, Edit-and-resend) -------------------------------------------------
    def message_versions(self, topic_id: str) -> dict[str, list[str]]:
        """For each row of a chat's shown branch that has other versions: every version's id,
        oldest first (agent sessions have none)."""
        if session_id_from_topic(topic_id) is not None:
            return {}
        from cherry_desktop.core.data.versions import version_map

        rows = self._repos.messages.list_messages(topic_id)
        return version_map(rows, self._repos.messages.branch(topic_id))

    def show_version(self, topic_id: str, message_id: str) -> bool:
        """Show the branch through `message_id` (a version of a message, a search hit on another
        branch), saved, in every window of the chat (`topic_continuation_key`). False: not a
        message of this chat, or the chat is streaming (its branch must not move under it)."""
        if session_id_from_topic(topic_id) is not None:
            return False
        manager = self._stream_manager()
        if manager is not None and manager.has_live_stream(topic_id):
            return False
        from cherry_desktop.core.data.versions import show_branch_of

        leaf = show_branch_of(self._repos, topic_id, message_id)
        if leaf is None:
            return False
        self.core.shared_cache.set_shared(topic_continuation_key(topic_id), leaf)
        return True

    def usage_totals(self, topic_id: str) -> UsageSums:
        """A chat's or session's `UsageSums` so far."""
        return self._repos.costs.topic_totals(topic_id)
