"""The bridge's search facet: topics whose title matches and message hits with the text
around the match, across chats and agent sessions (the FTS5 index of `core/data/search.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.ui.bridge._base import CoreBridge

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.ui.bridge._chats import ChatsBridge


@dataclass(frozen=True)
class SearchEntry:
    """One search result: a topic whose title matches (`message_id` empty) or a message hit
    with the text around the match (`snippet[match_start:match_end]` is the match)."""

    topic_id: str
    kind: str  # "chat" | "session"
    title: str
    message_id: str = ""
    snippet: str = ""
    match_start: int = 0
    match_end: int = 0


class SearchBridge(CoreBridge):
    """Search across chats and sessions (titles through `chats`).

    Signals:
        (none: each query is answered at once)
    """

    def __init__(self, core: CoreServices, chats: ChatsBridge, parent: QObject | None = None) -> None:
        super().__init__(core, parent)
        self.chats = chats

    def search(self, query: str, limit: int = 50) -> list[SearchEntry]:
        """Topics whose title matches, then matching messages (newest first)."""
        search = self._repos.search
        topic_title = self.chats.topic_title
        topic_ids, session_ids = search.matching_titles(query)
        entries = [SearchEntry(session_topic_id(sid), "session", topic_title(session_topic_id(sid)))
                   for sid in session_ids]
        entries += [SearchEntry(tid, "chat", topic_title(tid)) for tid in topic_ids]
        titles: dict[str, str] = {}
        for hit in search.search_messages(query, limit=limit):
            topic_id = session_topic_id(hit.owner_id) if hit.kind == "session" else hit.owner_id
            if topic_id not in titles:
                titles[topic_id] = topic_title(topic_id)
            entries.append(SearchEntry(topic_id, hit.kind, titles[topic_id], hit.message_id,
                                       hit.snippet, hit.match_start, hit.match_end))
        return entries
