"""Starting (issue #30, item 6): the conversation last open reopens at the next start (when it
still exists), else the newest session as before. The real app's core and UI on one data dir,
run several times."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from tests.gui.conftest import seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


@contextlib.asynccontextmanager
async def _app(paths: Any) -> AsyncIterator[Any]:
    """One run of the app on `paths`: its core, and the UI as `start_ui` opens it."""
    from cherry_desktop.ui import start_ui

    core = await start_core(paths)
    ctl = start_ui(core)
    try:
        yield ctl
    finally:
        for window in list(ctl.windows):
            window.close()
        await ctl.aclose()
        await core.stop()


def _click_in_sidebar(qtbot: Any, window: Any, topic_id: str) -> None:
    tree = window.sidebar
    item = tree.item_for(topic_id)
    assert item is not None
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())


async def test_the_conversation_last_open_reopens_at_the_next_start(
        qapp: Any, qtbot: Any, tmp_path: Path, no_leaked_windows: None) -> None:
    paths = build_path_registry(tmp_path / "data-root")
    async with _app(paths) as ctl:
        chat = ctl.core.repos.topics.create_topic(name="Groceries").id
        _agent, session_id = seed_agent_session(ctl.core.repos, name="Newest session")
        ctl.reload_sidebars()
        window = ctl.windows[0]
        window.show()
        _click_in_sidebar(qtbot, window, chat)
        await until(lambda: window.topic_id == chat)
    async with _app(paths) as ctl:
        # Not the newest session: the chat the user had open.
        assert ctl.windows[0].topic_id == chat
        ctl.windows[0].show()
        _click_in_sidebar(qtbot, ctl.windows[0], session_topic_id(session_id))
        await until(lambda: ctl.windows[0].topic_id == session_topic_id(session_id))
        ctl.core.repos.topics.delete_topic(chat)
    async with _app(paths) as ctl:
        assert ctl.windows[0].topic_id == session_topic_id(session_id)
        ctl.core.settings.update(last_topic_id=chat)  # a conversation deleted meanwhile
    async with _app(paths) as ctl:
        assert ctl.windows[0].topic_id == session_topic_id(session_id)  # the newest, as before
    qapp.processEvents()
