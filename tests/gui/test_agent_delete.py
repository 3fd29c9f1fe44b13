"""Deleting an agent from its sidebar item's menu: the question says what goes with it (its
sessions, the one running now), Cancel keeps everything, Delete stops the running turn, removes
the agent and its sessions, and every window that showed one of them lets it go."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox

from cherry_desktop.core.state.topics import session_id_from_topic
from tests.gui.conftest import ARTIFACTS, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui


def _agent_item(window: Any) -> Any:
    root = window.sidebar.topLevelItem(0)
    return root.child(0) if root.childCount() else None


async def _pick_from_agent_menu(qtbot: Any, window: Any, text: str) -> None:
    """Right-click the agent's sidebar item (a real context-menu event), then pick `text`
    from the menu with the keyboard."""
    sidebar = window.sidebar
    rect = sidebar.visualItemRect(_agent_item(window))
    pos = rect.center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, sidebar.viewport().mapToGlobal(pos))
    QApplication.sendEvent(sidebar.viewport(), event)
    await until(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert text in texts, texts
    for _ in range(len(menu.actions())):
        if menu.activeAction() is not None and menu.activeAction().text() == text:
            break
        qtbot.keyClick(menu, Qt.Key.Key_Down)
    qtbot.keyClick(menu, Qt.Key.Key_Return)


def _question(window: Any) -> QMessageBox | None:
    box = window.findChild(QMessageBox, "deleteAgentQuestion")
    return box if box is not None and box.isVisible() else None


async def test_delete_agent_from_the_sidebar_says_what_goes_and_stops_its_running_session(
        controller: Any, ui_core: Any, qtbot: Any, tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws", "Build")
    session_id = session_id_from_topic(topic_id)
    agent_id = ui_core.repos.sessions.get_session(session_id).agent_id
    ui_core.repos.sessions.create_session(agent_id=agent_id, workspace_id=None, name="Older")
    window = controller.open_window(topic_id)
    other = controller.open_window(topic_id)  # a second window on the same session
    conn = await send_turn(qtbot, window, driver, "long task")
    conn.emit_text("working… ")
    await until(lambda: "working…" in window.live_text() and controller.cache.topic_status(topic_id).is_live)

    # The question names the agent, its sessions and the running one; Cancel keeps it all.
    await _pick_from_agent_menu(qtbot, window, "Delete agent…")
    await until(lambda: _question(window) is not None)
    box = _question(window)
    assert "Ada" in box.text()
    assert "2 session(s)" in box.informativeText() and "1 session(s) of it are running now" in box.informativeText()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    await asyncio.sleep(0.05)
    ARTIFACTS.mkdir(exist_ok=True)
    assert box.grab().save(str(ARTIFACTS / "delete_agent_question.png"))
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    await until(lambda: _question(window) is None)
    await asyncio.sleep(0)
    assert ui_core.repos.agents.find_agent(agent_id) is not None and window.topic_id == topic_id
    assert window.is_streaming()

    # Delete: the turn stops, the rows go, both windows let the session go.
    await _pick_from_agent_menu(qtbot, window, "Delete agent…")
    await until(lambda: _question(window) is not None)
    box = _question(window)
    qtbot.mouseClick(box.findChild(type(box.defaultButton()), "deleteAgentButton"), Qt.MouseButton.LeftButton)
    await until(lambda: window.topic_id is None and other.topic_id is None)
    assert ui_core.repos.agents.find_agent(agent_id) is None
    assert ui_core.repos.sessions.list_sessions(agent_id) == []
    assert _agent_item(window) is None and _agent_item(other) is None
    await until(lambda: not controller.cache.topic_status(topic_id).is_live)
    assert not window.is_streaming() and not other.is_streaming()
    assert window.sidebar.item_for(topic_id) is None
    await until(lambda: conn.closed)
