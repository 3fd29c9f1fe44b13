"""The app says when it needs the user with no window looking (#30 item 2): every window's title
and sidebar show what waits, a desktop notification goes out once per approval (never while a
window of that session is the active one), the tray's menu lists the live conversations, and
without a tray the last window's close asks what to do with an approval still waiting."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QWidget

from cherry_desktop.core.ai.runtime.events import ChunkEvent, ToolApprovalRequestEvent
from cherry_desktop.core.messages import ToolInputAvailableChunk, ToolInputStartChunk
from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.ui.common import drain
from tests.fakes.programs import fake_program
from tests.gui.conftest import ARTIFACTS, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui

APPROVAL_TEXT = "Waiting for your approval to go on."


def _ask_approval(conn: Any, call: str) -> None:
    conn.emit(ChunkEvent(ToolInputStartChunk(tool_call_id=call, tool_name="Bash")),
              ChunkEvent(ToolInputAvailableChunk(tool_call_id=call, tool_name="Bash", input={"command": "make"})),
              ToolApprovalRequestEvent(approval_id=f"ap-{call}", tool_call_id=call, tool_name="Bash",
                                       input={"command": "make"}))


async def _running_session(controller: Any, core: Any, tmp_path: Path, qtbot: Any,
                           name: str = "Build") -> tuple[str, Any, Any]:
    """A session window whose turn wrote "Working on it. " and goes on."""
    topic_id, driver = scripted_agent_session(core, tmp_path / "ws", name)
    window = controller.open_window(topic_id)
    conn = await send_turn(qtbot, window, driver, "build it")
    conn.emit_text("Working on it. ")
    await until(lambda: "Working on it." in window.live_text())
    return topic_id, window, conn


async def _waiting_session(controller: Any, core: Any, tmp_path: Path, qtbot: Any,
                           name: str = "Build") -> tuple[str, Any, Any]:
    """`_running_session` whose turn now waits for a Bash approval."""
    topic_id, window, conn = await _running_session(controller, core, tmp_path, qtbot, name)
    _ask_approval(conn, "c1")
    await until(lambda: window.approval_waiting() and window.approval_card.armed)
    return topic_id, window, conn


async def _activate(window: Any) -> None:
    window.activateWindow()
    await until(window.isActiveWindow)


def _approval_notices(controller: Any) -> list[tuple[str, str]]:
    return [n for n in controller.notifications if n[1] == APPROVAL_TEXT]


def _with_title(window: Any, name: str, caption: str = "") -> Path:
    """The window's grab under a strip showing its title (offscreen draws no title bar), and
    `caption` (what the test saw outside the window) in a second strip."""
    body = window.grab()
    top = 56 if caption else 28
    shot = QPixmap(body.width(), body.height() + top)
    shot.fill(QColor("#e8e8e8"))
    painter = QPainter(shot)
    painter.drawText(10, 19, window.windowTitle())
    if caption:
        painter.fillRect(0, 28, body.width(), 28, QColor("#fff4c2"))
        painter.drawText(10, 47, caption)
    painter.drawPixmap(0, top, body)
    painter.end()
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    assert shot.save(str(path))
    return path


def _saved_reply(core: Any, topic_id: str) -> tuple[str, str]:
    row = core.repos.session_messages.list_messages(session_id_from_topic(topic_id))[-1]
    return row.status, "".join(p.text for p in row.parts if p.type == "text")


async def test_titles_and_badges_of_every_window_show_the_wait_and_one_notice_per_approval(
        controller: Any, ui_core: Any, tmp_path: Path, qtbot: Any) -> None:
    topic_id, window, conn = await _running_session(controller, ui_core, tmp_path, qtbot)
    observer = controller.open_window(None)
    late = controller.open_window(None)  # a third window: still one notice, not one per window
    await _activate(observer)  # the user looks at another window when the approval comes
    _ask_approval(conn, "c1")
    await until(lambda: window.approval_waiting() and window.approval_card.armed)
    for w in (window, observer, late):
        assert w.windowTitle().startswith("(1) Waiting for you"), w.windowTitle()
        await until(lambda w=w: w.sidebar.badges[topic_id].state == "approval")
    # One notice for the approval, whatever the windows and repaints.
    assert _approval_notices(controller) == [("Build", APPROVAL_TEXT)]
    _with_title(window, "attention_approval_notice", caption=f"Notified: {' — '.join(controller.notifications[-1])}")
    # Folded with a click on its arrow, the agent's row shows the pill of its session.
    agent_row = observer.sidebar.item_for(topic_id).parent()
    assert agent_row.text(1) == ""
    _click_arrow(qtbot, observer.sidebar, agent_row)
    await until(lambda: not agent_row.isExpanded())
    assert agent_row.text(1) == "Approval" and "1" in agent_row.toolTip(1)
    _with_title(observer, "attention_title_and_badge")
    _click_arrow(qtbot, observer.sidebar, agent_row)
    await until(agent_row.isExpanded)
    assert agent_row.text(1) == ""
    # Answered with a real click: every title and badge drops the wait.
    qtbot.mouseClick(window.approval_card.allow_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    await until(lambda: all(w.windowTitle() == "Cherry Desktop" for w in (window, observer, late)))
    await until(lambda: observer.sidebar.badges[topic_id].state != "approval")
    # A second approval while the session's own window is the active one: no notice.
    await _activate(window)
    _ask_approval(conn, "c2")
    await until(lambda: observer.windowTitle().startswith("(1) Waiting for you"))
    assert len(_approval_notices(controller)) == 1
    await until(lambda: window.approval_waiting() and window.approval_card.armed)
    qtbot.mouseClick(window.approval_card.deny_button, Qt.MouseButton.LeftButton)
    await until(lambda: len(conn.approvals) == 2)
    conn.complete("done")
    await until(lambda: not window.is_streaming())
    for w in (observer, late):
        w.close()


async def test_a_notice_goes_out_when_a_reply_finishes_unwatched(controller: Any, ui_core: Any,
                                                                 tmp_path: Path, qtbot: Any) -> None:
    _topic_id, _window, conn = await _running_session(controller, ui_core, tmp_path, qtbot, name="Report")
    observer = controller.open_window(None)
    await _activate(observer)  # the user looks elsewhere
    conn.emit_text("All built.")
    conn.complete("ok")
    await until(lambda: ("Report", "The reply is ready.") in controller.notifications)
    assert not _approval_notices(controller)
    observer.close()


async def test_the_settings_turn_the_reply_ready_notice_off(controller: Any, ui_core: Any,
                                                            tmp_path: Path, qtbot: Any) -> None:
    """Settings ▸ General ▸ Notifications: unticked (a click, then Save), a reply that finishes
    unwatched is not notified; an approval still is (consent needs the user)."""
    from PySide6.QtWidgets import QDialogButtonBox

    from cherry_desktop.ui.dialogs import SettingsDialog

    dialog = SettingsDialog(controller.bridges, None)
    dialog.show()
    assert dialog.notify_done.isChecked()  # on by default
    qtbot.mouseClick(dialog.notify_done, Qt.MouseButton.LeftButton,
                     pos=dialog.notify_done.rect().center())
    save = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save)
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    assert ui_core.settings.settings.notify_on_completion is False
    _topic_id, _window, conn = await _running_session(controller, ui_core, tmp_path, qtbot, name="Quiet")
    observer = controller.open_window(None)
    await _activate(observer)  # the user looks elsewhere
    conn.emit_text("All built.")
    conn.complete("ok")
    await until(lambda: _window.is_streaming() is False)
    await asyncio.sleep(0.2)
    assert ("Quiet", "The reply is ready.") not in controller.notifications
    observer.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="notify-send is the Linux desktop's notice service")
async def test_without_a_tray_the_notice_goes_to_the_desktop_service(controller: Any, ui_core: Any, tmp_path: Path,
                                                                     qtbot: Any, monkeypatch: Any) -> None:
    """Offscreen has no tray: the approval's notice goes through `notify-send` (a stand-in on
    PATH that writes down its arguments)."""
    seen = tmp_path / "notice.txt"
    fake_program(tmp_path, monkeypatch, "notify-send",
                 f'printf "%s\\n" "$@" > "{seen}.part" && mv "{seen}.part" "{seen}"\n')
    assert controller.tray is None
    _topic_id, window, conn = await _running_session(controller, ui_core, tmp_path, qtbot, name="Lint")
    observer = controller.open_window(None)
    await _activate(observer)
    _ask_approval(conn, "c1")
    await until(seen.exists, limit=10)
    assert seen.read_text().splitlines()[-2:] == ["Lint", APPROVAL_TEXT]
    await until(lambda: window.approval_card.armed)
    qtbot.mouseClick(window.approval_card.deny_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    conn.complete()
    await until(lambda: not window.is_streaming())
    observer.close()


async def test_the_tray_menu_lists_live_conversations_and_opens_one(controller: Any, ui_core: Any,
                                                                    tmp_path: Path, qtbot: Any) -> None:
    topic_id, window, conn = await _waiting_session(controller, ui_core, tmp_path, qtbot, name="Deploy")
    window.show_topic(None)  # no window shows the session now
    await drain()  # its detach runs before the menu pops up
    menu = controller.tray_menu
    menu.popup(QPoint(40, 40))  # offscreen has no platform tray: the menu it would show
    await until(menu.isVisible)
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts == ["Open “Deploy” — Waiting for your approval", "Open window", "Quit"]
    shot = menu.grab()
    ARTIFACTS.mkdir(exist_ok=True)
    assert shot.save(str(ARTIFACTS / "attention_tray_menu.png"))
    action = menu.actions()[0]
    qtbot.mouseMove(menu, menu.actionGeometry(action).center())
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
    await until(lambda: not menu.isVisible())
    # No window showed the session: it opens in a new one, in front, its approval card waiting.
    await until(lambda: controller.windows_for(topic_id) and controller.windows_for(topic_id)[0].approval_waiting())
    shown = controller.windows_for(topic_id)[0]
    assert shown is not window and window.topic_id is None
    await until(lambda: shown.approval_card.armed)
    qtbot.mouseClick(shown.approval_card.allow_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    conn.complete("ok")
    await until(lambda: not shown.is_streaming())


async def test_closing_the_last_window_asks_and_stop_keeps_the_partial(controller: Any, ui_core: Any,
                                                                       tmp_path: Path, qtbot: Any) -> None:
    assert controller.tray is None  # offscreen: no system tray
    closed = asyncio.ensure_future(controller.wait_closed())
    topic_id, window, conn = await _waiting_session(controller, ui_core, tmp_path, qtbot)
    await _activate(window)
    _close_with_keys(qtbot, window)
    await until(lambda: controller.last_window.question is not None and controller.last_window.question.isVisible())
    question = controller.last_window.question
    assert "Build" in question.text() and "2 hours" in question.informativeText()
    assert window.isVisible()  # it waits for the answer
    _save_dialog(question, "attention_close_question")
    qtbot.keyClick(question, Qt.Key.Key_Escape)  # Cancel: the window stays, nothing stops
    await until(lambda: controller.last_window.question is None)
    assert window.isVisible() and window.approval_waiting() and conn.interrupts == 0
    await _activate(window)
    _close_with_keys(qtbot, window)
    await until(lambda: controller.last_window.question is not None and controller.last_window.question.isVisible())
    question = controller.last_window.question
    qtbot.mouseClick(question.stop_button, Qt.MouseButton.LeftButton)
    assert await asyncio.wait_for(closed, 10) == 0
    assert conn.interrupts >= 1
    assert _saved_reply(ui_core, topic_id) == ("paused", "Working on it. ")


async def test_keep_running_stays_windowless_until_the_wait_is_given_up(controller: Any, ui_core: Any,
                                                                        tmp_path: Path, qtbot: Any) -> None:
    controller.bridges.settings.update_settings(background_approval_wait_s=1)
    closed = asyncio.ensure_future(controller.wait_closed())
    topic_id, window, conn = await _waiting_session(controller, ui_core, tmp_path, qtbot)
    await _activate(window)
    _close_with_keys(qtbot, window)
    await until(lambda: controller.last_window.question is not None and controller.last_window.question.isVisible())
    qtbot.mouseClick(controller.last_window.question.keep_button, Qt.MouseButton.LeftButton)
    await until(lambda: not controller.windows)
    assert not closed.done() and conn.interrupts == 0  # alive, windowless, the approval waiting
    # Past the bound the turn is stopped as Stop stops it (the partial kept), and the app ends.
    assert await asyncio.wait_for(closed, 15) == 0
    assert conn.interrupts >= 1
    assert _saved_reply(ui_core, topic_id) == ("paused", "Working on it. ")


async def test_no_question_when_nothing_waits_for_the_user(controller: Any, ui_core: Any,
                                                           tmp_path: Path, qtbot: Any) -> None:
    closed = asyncio.ensure_future(controller.wait_closed())
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = controller.open_window(topic_id)
    conn = await send_turn(qtbot, window, driver, "just run")
    conn.emit_text("Running. ")
    await until(lambda: "Running." in window.live_text())
    await _activate(window)
    _close_with_keys(qtbot, window)
    await until(lambda: not controller.windows)  # closed at once, unasked; the turn goes on
    assert controller.last_window.question is None and not closed.done()
    conn.complete("Finished.")
    assert await asyncio.wait_for(closed, 10) == 0
    assert _saved_reply(ui_core, topic_id) == ("success", "Running. Finished.")


def _click_arrow(qtbot: Any, tree: Any, item: Any) -> None:
    """A click on the fold arrow left of `item`'s row."""
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.left() - tree.indentation() // 2, rect.center().y()))


def _close_with_keys(qtbot: Any, window: Any) -> None:
    """File › Close window by its shortcut (the platform's first binding: Ctrl+F4 here)."""
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_F4, Qt.KeyboardModifier.ControlModifier)


def _save_dialog(dialog: QWidget, name: str) -> None:
    QApplication.processEvents()
    ARTIFACTS.mkdir(exist_ok=True)
    assert dialog.grab().save(str(ARTIFACTS / f"{name}.png"))


async def test_the_settings_choose_how_long_a_windowless_approval_waits(controller: Any, ui_core: Any,
                                                                        tmp_path: Path, qtbot: Any) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from cherry_desktop.ui.dialogs import SettingsDialog

    dialog = SettingsDialog(controller.bridges, None)
    dialog.show()
    combo = dialog.approval_wait
    assert combo.currentText() == "Stop after 2 hours, keeping the reply so far"  # the default: 2 h
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_End)  # the last choice
    assert combo.currentText() == "Wait until I answer"
    _save_dialog(dialog, "attention_settings_approval_wait")
    save = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save)
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    assert ui_core.settings.settings.background_approval_wait_s == 0
    # The close question then promises no stop.
    _topic_id, window, conn = await _waiting_session(controller, ui_core, tmp_path, qtbot)
    await _activate(window)
    _close_with_keys(qtbot, window)
    await until(lambda: controller.last_window.question is not None and controller.last_window.question.isVisible())
    assert controller.last_window.question.informativeText() == (
        "In the background they wait until you open a window again.")
    qtbot.keyClick(controller.last_window.question, Qt.Key.Key_Escape)
    await until(lambda: controller.last_window.question is None)
    qtbot.mouseClick(window.approval_card.deny_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    conn.complete()
    await until(lambda: not window.is_streaming())
