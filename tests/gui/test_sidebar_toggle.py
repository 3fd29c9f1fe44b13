"""The sidebar folds away and back: View › Show sidebar, Ctrl+B, the button left of the title;
each window keeps its own, the last choice opens the next window; Ctrl+K brings a hidden
sidebar back with the search box focused."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu

from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


async def _shown(controller: Any, topic_id: str | None = None) -> Any:
    window = controller.open_window(topic_id)
    window.resize(1000, 640)
    window.activateWindow()
    await until(lambda: window.isActiveWindow())
    return window


async def test_ctrl_b_the_button_and_the_view_menu_fold_the_sidebar(controller: Any, ui_core: Any, qtbot: Any) -> None:
    topic_id = ui_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = await _shown(controller, topic_id)  # the composer has the focus
    panel = window.search_panel
    assert panel.isVisible()
    width_with = window.message_view.width()

    QTest.keyClick(window.composer.editor, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: not panel.isVisible())
    await until(lambda: window.message_view.width() > width_with)
    button = window.sidebar_toggle.button
    assert button.isVisible() and not button.isChecked()
    await asyncio.sleep(0.05)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "sidebar_hidden.png"))

    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    await until(lambda: panel.isVisible() and panel.width() > 100)
    view_menu = window.menuBar().findChild(QMenu, "viewMenu")
    action = next(a for a in view_menu.actions() if a.objectName() == "toggleSidebar")
    assert isinstance(action, QAction) and action.isChecked() and action.shortcut().toString() == "Ctrl+B"
    action.trigger()
    await until(lambda: not panel.isVisible())

    # Ctrl+K (search) brings the sidebar back, its box focused.
    QTest.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: panel.isVisible() and panel.box.hasFocus())


async def test_each_window_keeps_its_own_and_the_next_opens_as_last_chosen(controller: Any, qtbot: Any) -> None:
    first = await _shown(controller)
    QTest.keyClick(first, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: not first.search_panel.isVisible())
    second = await _shown(controller)
    assert not second.search_panel.isVisible()  # the last choice
    qtbot.mouseClick(second.sidebar_toggle.button, Qt.MouseButton.LeftButton)
    await until(lambda: second.search_panel.isVisible())
    assert not first.search_panel.isVisible()  # the first window keeps its own
    assert controller.bridges.settings.settings_values()["sidebar_visible"] is True


async def test_the_button_sits_at_the_left_of_a_window_with_no_topic(controller: Any) -> None:
    # The first window of a new install has no topic (its title is hidden): the button stood
    # alone in the middle of the empty bar.
    window = await _shown(controller)
    button = window.sidebar_toggle.button
    assert not window.title.isVisible()
    await until(lambda: button.isVisible() and button.parentWidget().width() > 400)
    assert button.geometry().left() < 20
