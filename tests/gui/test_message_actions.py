"""Message actions on hover and in the context menu: copy as Markdown, edit and resend (a branch
in a chat, a new turn in an agent session), regenerate, delete with undo. The real core and
SQLite with a scripted model."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu, QToolButton

from cherry_desktop.ui.chat._versions import VersionSwitcher
from tests.gui.conftest import ARTIFACTS, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui


async def _turn(qtbot: Any, window: Any, scripted_ai: Any, index: int, text: str, answer: str) -> None:
    window.composer.editor.setPlainText(text)
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    feed = await scripted_ai.feed(index)
    feed.text(answer)
    feed.end()
    await until(lambda: not window.is_streaming() and answer in window.live_text()
                and not any(r.message_id.startswith(("local:", "__")) or r.live for r in window.message_view.rows()))


def _button(view: Any, name: str) -> QToolButton:
    button = view.row_actions.findChild(QToolButton, name)
    assert button is not None, name
    return button


def _texts(window: Any) -> list[str]:
    return [r.text() for r in window.message_view.rows() if r.isVisible()]


async def test_copy_edit_branch_regenerate_and_delete_with_undo_in_a_chat(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = live_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = live_controller.open_window(topic_id)
    await _turn(qtbot, window, scripted_ai, 0, "first", "Answer **one**.")
    await _turn(qtbot, window, scripted_ai, 1, "second", "Answer two.")
    view = window.message_view
    user, answer = view.rows()[2], view.rows()[1]
    # The hover toolbar: the actions that fit each row.
    view.show_actions(user)
    names = ("copyMessageButton", "editMessageButton", "regenerateButton", "deleteMessageButton")
    assert [not _button(view, n).isHidden() for n in names] == [True, True, False, True]
    view.show_actions(answer)
    assert [not _button(view, n).isHidden() for n in names] == [True, False, True, True]
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "message_actions.png"))
    # Copy as Markdown.
    qtbot.mouseClick(_button(view, "copyMessageButton"), Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "Answer **one**."
    # Ctrl+Shift+C copies the last answer and says so too: the toolbar over it says "Copied".
    view.row_actions.hide()
    view.row_actions.copy_button.setText("Copy")
    QGuiApplication.clipboard().setText("")
    window.activateWindow()
    await until(window.isActiveWindow)
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_C,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QGuiApplication.clipboard().text() == "Answer two."
    assert view.row_actions.isVisible() and view.row_actions.message_id == view.rows()[-1].message_id
    assert view.row_actions.copy_button.text() == "Copied"
    window.grab().save(str(ARTIFACTS / "copy_shortcut_copied.png"))
    # The context menu has the same actions, with shortcuts.
    menu = QMenu()
    view.row_actions.fill_menu(menu)
    assert [a.text() for a in menu.actions()] == ["Copy as Markdown", "Regenerate", "Delete"]
    assert menu.actions()[0].shortcut().toString() == "Ctrl+Shift+C"
    # Edit and resend: a new branch from the edited message's parent; the old one stays.
    view.show_actions(user)
    qtbot.mouseClick(_button(view, "editMessageButton"), Qt.MouseButton.LeftButton)
    assert window.composer.editor.toPlainText() == "second" and window.composer.editing
    await _turn(qtbot, window, scripted_ai, 2, "second, edited", "Answer to the edit.")
    branch = [("".join(p.text for p in m.parts if p.type == "text")) for m in live_core.repos.messages.branch(topic_id)]
    assert branch == ["first", "Answer **one**.", "second, edited", "Answer to the edit."]
    all_texts = ["".join(p.text for p in m.parts if p.type == "text")
                 for m in live_core.repos.messages.list_messages(topic_id)]
    assert "second" in all_texts and "Answer two." in all_texts  # the old branch is kept
    await until(lambda: _texts(window) == branch)
    # Delete with undo: hidden at once, back on Undo, gone for good when the time is up.
    last = view.rows()[-1]
    view.show_actions(last)
    qtbot.mouseClick(_button(view, "deleteMessageButton"), Qt.MouseButton.LeftButton)
    assert not last.isVisible() and window.undo_bar.isVisible()
    window.grab().save(str(ARTIFACTS / "message_deleted_undo.png"))
    qtbot.mouseClick(window.undo_bar.undo_button, Qt.MouseButton.LeftButton)
    assert last.isVisible() and not window.undo_bar.isVisible()
    assert any(m.id == last.message_id for m in live_core.repos.messages.list_messages(topic_id))
    view.show_actions(last)
    qtbot.mouseClick(_button(view, "deleteMessageButton"), Qt.MouseButton.LeftButton)
    window.undo_bar.commit()  # as the timer does after a few seconds
    assert not any(m.id == last.message_id for m in live_core.repos.messages.list_messages(topic_id))
    assert view.row(last.message_id) is None
    assert [m.role for m in live_core.repos.messages.branch(topic_id)] == ["user", "assistant", "user"]
    # Regenerate (the answer to "first").
    view.show_actions(view.rows()[1])
    qtbot.mouseClick(_button(view, "regenerateButton"), Qt.MouseButton.LeftButton)
    feed = await scripted_ai.feed(3)
    feed.text("Another answer.")
    feed.end()
    await until(lambda: not window.is_streaming() and "Another answer." in window.live_text())
    # The earlier answer stays reachable: the new one is version 2 of 2.
    await until(lambda: [s.label.text() for r in view.rows() for s in r.findChildren(VersionSwitcher)
                         if r.role == "assistant"] == ["2/2"])


async def test_edit_in_an_agent_session_sends_a_new_turn_and_up_edits_the_last(
        controller: Any, ui_core: Any, qtbot: Any, tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = controller.open_window(topic_id)
    conn = await send_turn(qtbot, window, driver, "build it")
    conn.complete("built.")
    await until(lambda: not window.is_streaming() and len(window.message_view.rows()) == 2
                and not any(r.message_id.startswith("local:") for r in window.message_view.rows()))
    # Up in the empty box edits the last message sent.
    window.composer.editor.setFocus()
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Up)
    assert window.composer.editor.toPlainText() == "build it" and window.composer.editing
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Escape)  # cancel
    assert not window.composer.editing and window.composer.editor.toPlainText() == ""
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Up)
    window.composer.editor.setPlainText("build it, with tests")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    sent = await conn.wait_sent(2)  # a new turn; the first stays
    assert "build it, with tests" in str(sent.message.parts)
    conn.complete("built, with tests.")
    await until(lambda: not window.is_streaming() and len(window.message_view.rows()) == 4)
    assert [r.role for r in window.message_view.rows()] == ["user", "assistant", "user", "assistant"]


async def test_closing_the_window_makes_a_pending_deletion_final(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    topic_id = live_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = live_controller.open_window(topic_id)
    await _turn(qtbot, window, scripted_ai, 0, "first", "Answer one.")
    answer = window.message_view.rows()[1]
    window.message_view.show_actions(answer)
    qtbot.mouseClick(_button(window.message_view, "deleteMessageButton"), Qt.MouseButton.LeftButton)
    window.close()  # before the undo time is up: the user meant it
    assert [m.role for m in live_core.repos.messages.list_messages(topic_id)] == ["user"]
    # Live rows offer no Delete (a reply still streaming is not deleted under the stream).
    other = live_controller.open_window(topic_id)
    other.composer.editor.setPlainText("second")
    qtbot.keyClick(other.composer.editor, Qt.Key.Key_Return)
    feed = await scripted_ai.feed(1)
    feed.text("streaming…")
    await until(lambda: any(r.live for r in other.message_view.rows()))
    live = next(r for r in other.message_view.rows() if r.live)
    assert not other.message_view.can_delete(live)
    feed.end()
    await until(lambda: not other.is_streaming())
