"""Starting (issue #30, item 6): the conversation last open reopens at the next start (when it
still exists), else the newest session as before. The real app's core and UI on one data dir,
run several times."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from tests.gui.conftest import ARTIFACTS, app_run, seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


def _click_in_sidebar(qtbot: Any, window: Any, topic_id: str) -> None:
    tree = window.sidebar
    item = tree.item_for(topic_id)
    assert item is not None
    tree.scrollToItem(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(item).center())


async def test_the_conversation_last_open_reopens_at_the_next_start(
        qapp: Any, qtbot: Any, tmp_path: Path, no_leaked_windows: None) -> None:
    paths = build_path_registry(tmp_path / "data-root")
    async with app_run(paths) as ctl:
        chat = ctl.core.repos.topics.create_topic(name="Groceries").id
        _agent, session_id = seed_agent_session(ctl.core.repos, name="Newest session")
        ctl.reload_sidebars()
        window = ctl.windows[0]
        window.show()
        _click_in_sidebar(qtbot, window, chat)
        await until(lambda: window.topic_id == chat)
    async with app_run(paths) as ctl:
        # Not the newest session: the chat the user had open.
        assert ctl.windows[0].topic_id == chat
        ctl.windows[0].show()
        _click_in_sidebar(qtbot, ctl.windows[0], session_topic_id(session_id))
        await until(lambda: ctl.windows[0].topic_id == session_topic_id(session_id))
        ctl.core.repos.topics.delete_topic(chat)
    async with app_run(paths) as ctl:
        assert ctl.windows[0].topic_id == session_topic_id(session_id)
        ctl.core.settings.update(last_topic_id=chat)  # a conversation deleted meanwhile
    async with app_run(paths) as ctl:
        assert ctl.windows[0].topic_id == session_topic_id(session_id)  # the newest, as before
    qapp.processEvents()


async def test_in_the_demo_the_empty_states_speak_of_the_demo(
        qapp: Any, qtbot: Any, tmp_path: Path, no_leaked_windows: None) -> None:
    """`--demo`: the welcome hint describes the demo instead of telling the user to start it, and
    an empty agent session suggests a task with a tool, steering and Stop."""
    async with app_run(build_path_registry(tmp_path / "data-root"), demo=True) as ctl:
        window = ctl.windows[0]
        window.show()
        hint = window.empty_state.hint.text()
        assert "offline demo" in hint and "--demo" not in hint
        _agent, session_id = seed_agent_session(ctl.core.repos, name="Empty session", turns=0)
        ctl.reload_sidebars()
        _click_in_sidebar(qtbot, window, session_topic_id(session_id))
        await until(lambda: window.topic_id == session_topic_id(session_id))
        empty = window.message_view.empty_hint
        await until(lambda: "Ctrl+Enter" in empty.text())
        assert "Allow or Deny" in empty.text() and "Stop" in empty.text()
        assert empty.isVisibleTo(window)
        await asyncio.sleep(0.3)  # let the window lay itself out before the screenshot
        window.grab().save(str(ARTIFACTS / "demo_empty_session.png"))
    # Outside the demo the hint says how to start it.
    async with app_run(build_path_registry(tmp_path / "plain")) as ctl:
        assert "--demo" in ctl.windows[0].empty_state.hint.text()
    qapp.processEvents()


async def test_the_sidebar_buttons_start_a_new_chat_and_a_new_session_of_the_agent_in_view(
        controller: Any, ui_core: Any, qtbot: Any, monkeypatch: Any) -> None:
    """"+ New chat" and "+ New session" over the list (item 6): the session is the open
    session's agent's; with no agent yet the button asks for a new agent first."""
    from PySide6.QtWidgets import QDialog

    asked: list[str] = []

    def run(dialog: Any) -> int:  # stands in for the user: looks at the New agent dialog, cancels
        asked.append(type(dialog).__name__)
        return 0

    monkeypatch.setattr(QDialog, "exec", run)
    window = controller.open_window(None)
    window.resize(900, 600)
    window.show()
    bar = window.new_topic_bar
    assert bar.new_chat.isVisible() and bar.new_session.isVisible()
    qtbot.mouseClick(bar.new_session, Qt.MouseButton.LeftButton)  # no agent yet
    assert asked == ["AgentDialog"] and window.topic_id is None
    qtbot.mouseClick(bar.new_chat, Qt.MouseButton.LeftButton)
    chat = window.topic_id
    assert chat is not None and chat in {t.topic_id for t in controller.bridges.chats.sidebar_chats()}
    assert window.sidebar.item_for(chat) is not None  # listed at once
    # Two agents; the window shows a session of the second: a new session is the second's.
    seed_agent_session(ui_core.repos, name="Of the first", turns=0)
    second, session_id = seed_agent_session(ui_core.repos, name="Of the second", turns=0)
    controller.reload_sidebars()
    window.activateWindow()
    await until(window.isActiveWindow)
    window.search_panel.box.setFocus()
    _click_in_sidebar(qtbot, window, session_topic_id(session_id))
    await until(lambda: window.topic_id == session_topic_id(session_id))
    from PySide6.QtWidgets import QApplication

    assert QApplication.focusWidget() is window.composer.editor  # opened to write in
    qtbot.mouseClick(bar.new_session, Qt.MouseButton.LeftButton)
    await until(lambda: window.topic_id not in (None, chat, session_topic_id(session_id)))
    sessions = ui_core.repos.sessions.list_sessions(second)
    assert len(sessions) == 2 and window.topic_id in {session_topic_id(s.id) for s in sessions}
    await asyncio.sleep(0.3)  # let the window lay itself out before the screenshot
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "sidebar_new_buttons.png"))
    window.close()
