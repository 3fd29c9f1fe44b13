""""/" at the start of a message in an agent session offers the runtime's commands: its
descriptor's until the runtime announces its own (Claude Code's init message, an ACP agent's
available commands). The keyboard stays in the box: Up/Down move, Tab or Enter pick (Enter
does not send, not even while a turn runs), Esc closes the list only; a waiting approval card
is never decided by these keys."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from cherry_desktop.core.ai.runtime.events import ChunkEvent, SlashCommandsEvent, ToolApprovalRequestEvent
from cherry_desktop.core.messages import ToolInputAvailableChunk, ToolInputStartChunk
from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.ui.session import ARM_DELAY_MS
from tests.gui.conftest import ARTIFACTS, enter_sends, focused_window, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui


def _popup(window: Any) -> Any:
    return window.composer.completion.popup


async def test_slash_lists_the_descriptors_commands_and_enter_picks_without_sending(
        controller: Any, ui_core: Any, tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = await focused_window(controller, topic_id)
    editor, popup = window.composer.editor, _popup(window)
    QTest.keyClicks(editor, "/")
    await until(popup.isVisible)
    assert popup.entries() == ["/compact", "/clear", "/context", "/cost"]  # Claude Code's descriptor
    QTest.keyClicks(editor, "co")
    await until(lambda: popup.entries() == ["/cost", "/compact", "/context"])
    QTest.keyClick(editor, Qt.Key.Key_Down)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    await until(lambda: not popup.isVisible())
    assert editor.toPlainText() == "/compact "
    await asyncio.sleep(0.05)
    assert driver.connections == [] and window.message_view.rows() == []  # Enter picked, sent nothing

    # Esc closes the list and leaves the text; Tab picks too.
    editor.clear()
    QTest.keyClicks(editor, "/cl")
    await until(lambda: popup.isVisible() and popup.entries() == ["/clear"])
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    await until(lambda: not popup.isVisible())
    assert editor.toPlainText() == "/cl"
    QTest.keyClicks(editor, "e")
    await until(popup.isVisible)
    QTest.keyClick(editor, Qt.Key.Key_Tab)
    assert editor.toPlainText() == "/clear " and QApplication.focusWidget() is editor
    # Past the first word, or not at the start of the message: no list; Enter sends.
    QTest.keyClicks(editor, "now")
    assert not popup.isVisible()
    assert await enter_sends(window, driver) == "/clear now"


async def test_the_runtimes_announced_commands_replace_the_descriptors_and_enter_never_queues_or_approves(
        controller: Any, ui_core: Any, qtbot: Any, tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = await focused_window(controller, topic_id)
    other = controller.open_window(topic_id)  # a second window of the session follows too
    editor, popup = window.composer.editor, _popup(window)
    conn = await send_turn(qtbot, window, driver, "start")
    conn.emit(SlashCommandsEvent(("/compact", "/review", "/security-review", "/my-skill")))
    await until(lambda: window.composer.completion.commands == ("/compact", "/review", "/security-review",
                                                                "/my-skill"))
    assert other.composer.completion.commands == window.composer.completion.commands
    window.activateWindow()
    await until(window.isActiveWindow)
    editor.setFocus()
    await until(lambda: QApplication.focusWidget() is editor)

    # A tool waits for approval while the user picks a command with Enter mid-turn.
    conn.emit(ChunkEvent(ToolInputStartChunk(tool_call_id="c1", tool_name="Bash")),
              ChunkEvent(ToolInputAvailableChunk(tool_call_id="c1", tool_name="Bash", input={"command": "ls"})),
              ToolApprovalRequestEvent(approval_id="ap-1", tool_call_id="c1", tool_name="Bash",
                                       input={"command": "ls"}))
    await until(lambda: window.approval_waiting() and window.approval_card.armed)
    await asyncio.sleep(ARM_DELAY_MS / 1000)
    QTest.keyClicks(QApplication.focusWidget(), "/rev")
    await until(lambda: popup.isVisible() and popup.entries() == ["/review", "/security-review"])
    await asyncio.sleep(0.05)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "slash_commands.png"))
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert editor.toPlainText() == "/review "
    await asyncio.sleep(0.05)
    assert conn.approvals == [] and window.approval_waiting()  # the card was not decided
    assert window.queue_dock.items == [] and conn.redirects == []  # Enter did not queue either
    assert window.is_streaming()  # and Esc in the list does not stop the turn:
    editor.clear()
    QTest.keyClicks(editor, "/")
    await until(popup.isVisible)
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    await asyncio.sleep(0.05)
    assert window.is_streaming() and not popup.isVisible()
    qtbot.mouseClick(window.approval_card.deny_button, Qt.MouseButton.LeftButton)  # the user's own move
    assert QApplication.focusWidget() is editor  # the keyboard is back where the user writes
    await until(lambda: conn.approvals)
    conn.complete("done")
    await until(lambda: not window.is_streaming())

    # The runtime closes (its idle window ran out) and the next turn starts on a new
    # connection, which has announced nothing yet: the list the runtime gave stays.
    await ui_core.agent_runtime.close_session(session_id_from_topic(topic_id))
    editor.setPlainText("again")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    conn2 = await driver.wait_connection(2)
    await conn2.wait_sent(1)
    QTest.keyClicks(editor, "/sec")
    await until(lambda: popup.isVisible() and popup.entries() == ["/security-review"])
    conn2.complete("done")
    await until(lambda: not window.is_streaming())


async def test_a_chat_offers_no_commands(live_controller: Any, live_core: Any) -> None:
    topic_id = live_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = await focused_window(live_controller, topic_id)
    QTest.keyClicks(window.composer.editor, "/co")
    await asyncio.sleep(0.05)
    assert not _popup(window).isVisible() and window.composer.completion.commands == ()
