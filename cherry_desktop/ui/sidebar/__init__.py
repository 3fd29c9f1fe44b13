"""The left pane: the list of agents, sessions and chats, and search across them.
"""

from __future__ import annotations

from cherry_desktop.ui.sidebar._new_topic_bar import NewTopicBar, SidebarPane
from cherry_desktop.ui.sidebar._search import SearchPanel, reveal_hit, reveal_message
from cherry_desktop.ui.sidebar._sidebar import SPINNER, SessionList, badge_state

__all__ = [
    "SPINNER", "NewTopicBar", "SearchPanel", "SessionList", "SidebarPane", "badge_state", "reveal_hit",
    "reveal_message"
]
