"""Right-click anywhere on a message (#30 item 5): its prose, a code block, a tool card, an
attachment (also a missing one), its header, its margins, a multi-model column's bar all give the message's menu
(Copy as Markdown, Translate to, Edit / Regenerate / Delete), with the text's own Copy and
Select all when the click was on a text, never Qt's text menu. Copy says "Copied".

A right-click is a press, a `QContextMenuEvent` to the widget under the point (what a
platform sends; `QTest` does not) and a release; the menu that pops is the active popup."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QMenu, QWidget

from cherry_desktop.core.messages import AttachmentPart, TextPart, ToolPart
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from cherry_desktop.ui.chat import CodeBlock, LiveText, ToolCard
from cherry_desktop.ui.chat._attachment_view import AttachmentButton
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui

PROSE = "Some **bold** prose to copy."
CODE = "print('hi')"


def right_click(widget: QWidget, pos: QPoint | None = None) -> QMenu:
    """Right-click `widget` at `pos` (its centre) as a platform does; returns the menu it pops."""
    pos = pos if pos is not None else widget.rect().center()
    assert QApplication.activePopupWidget() is None
    QTest.mousePress(widget, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, pos)
    QApplication.sendEvent(widget, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos)))
    QTest.mouseRelease(widget, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, pos)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu), f"no menu popped on {widget.objectName() or type(widget).__name__}"
    return menu


def entries(menu: QMenu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def close(menu: QMenu) -> None:
    QTest.keyClick(menu, Qt.Key.Key_Escape)
    assert QApplication.activePopupWidget() is None


def click_entry(menu: QMenu, text: str) -> None:
    action = next(a for a in menu.actions() if a.text() == text)
    assert action.isEnabled(), text
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     menu.actionGeometry(action).center())
    assert QApplication.activePopupWidget() is None


def save_with_menu(window: QWidget, menu: QMenu, name: str) -> None:
    """A screenshot of the window with the popped menu drawn where it is (a popup is a window
    of its own, which the window's grab leaves out)."""
    shot = window.grab()
    painter = QPainter(shot)
    painter.drawPixmap(window.mapFromGlobal(menu.pos()), menu.grab())
    painter.end()
    ARTIFACTS.mkdir(exist_ok=True)
    assert shot.save(str(ARTIFACTS / name))


MESSAGE_MENU = ["Copy as Markdown", "Regenerate", "Delete", "Translate to"]
TEXT_MENU = ["Copy", "Select all"]


async def test_right_click_anywhere_on_a_message_gives_its_menu(controller: Any, ui_core: Any, qtbot: Any) -> None:
    repos = ui_core.repos
    ensure_demo_records(repos, ui_core.paths.get("feature.agents.workspaces"), "http://127.0.0.1:9")
    topic = repos.topics.create_topic(name="Menus", model=DEMO_UNIQUE_MODEL_ID)
    stored = ui_core.attachments.path_of("t/a1.txt")
    stored.parent.mkdir(parents=True, exist_ok=True)
    stored.write_text("notes")
    user = repos.messages.create_message(topic_id=topic.id, role="user", parts=[
        TextPart(text="Look at this file"),
        AttachmentPart(id="a1", media_type="text/plain", filename="notes.txt", size=5, stored_name="t/a1.txt"),
        AttachmentPart(id="a2", media_type="text/plain", filename="gone.txt", size=3, stored_name="t/a2.txt")])
    answer = repos.messages.create_message(topic_id=topic.id, role="assistant", parent_id=user.id, parts=[
        TextPart(text=f"{PROSE}\n\n```python\n{CODE}\n```\n"),
        ToolPart(tool_call_id="c1", tool_name="Read", state="output-available", input={"file_path": "notes.txt"},
                 output="hello")], model_id=DEMO_UNIQUE_MODEL_ID)
    window = controller.open_window(topic.id)
    window.resize(900, 700)
    window.show()
    view = window.message_view
    row = view.row(answer.id)
    await until(lambda: row.isVisible() and row.height() > 0)
    prose = next(t for t in row.findChildren(LiveText) if "bold" in t.toPlainText())
    code = row.findChild(CodeBlock)
    card = row.findChild(ToolCard)
    assert code is not None and card is not None
    await until(lambda: code.text.height() >= int(code.text.document().size().height())
                and code.height() >= code.sizeHint().height() and row.height() >= row.sizeHint().height(),
                what="the code block laid out whole")

    # On the prose (its viewport gets the event): the message's menu, then the text's own.
    menu = right_click(prose.viewport())
    assert entries(menu) == [*MESSAGE_MENU, *TEXT_MENU]
    assert menu.objectName() == "messageMenu"
    copy_selection = next(a for a in menu.actions() if a.text() == "Copy")
    assert not copy_selection.isEnabled()  # nothing selected yet
    save_with_menu(window, menu, "message_menu.png")
    click_entry(menu, "Select all")
    assert prose.textCursor().selectedText() == "Some bold prose to copy."
    menu = right_click(prose.viewport())
    click_entry(menu, "Copy")
    assert QGuiApplication.clipboard().text() == "Some bold prose to copy."

    # On the code (its text and its header), the tool card, the row's header and margin.
    menu = right_click(code.text.viewport())
    assert entries(menu) == [*MESSAGE_MENU, *TEXT_MENU]
    click_entry(menu, "Select all")
    assert code.text.textCursor().selectedText() == CODE
    for target in (code.language_label, card.header, card.result_label.label, row.header):
        menu = right_click(target)
        expected = [*MESSAGE_MENU, *TEXT_MENU] if isinstance(target, QLabel) and target.textInteractionFlags() \
            & Qt.TextInteractionFlag.TextSelectableByMouse else MESSAGE_MENU
        assert entries(menu) == expected, target.objectName()
        close(menu)
    menu = right_click(row, QPoint(4, row.height() // 2))  # the row's left margin
    assert entries(menu) == MESSAGE_MENU
    # "Copy as Markdown" copies the source; the toolbar over the row says "Copied".
    click_entry(menu, "Copy as Markdown")
    assert QGuiApplication.clipboard().text() == f"{PROSE}\n\n```python\n{CODE}\n```\n"
    assert view.row_actions.isVisible() and view.row_actions.copy_button.text() == "Copied"

    # The user's message: its text and its attachment chip.
    user_row = view.row(user.id)
    menu = right_click(next(t for t in user_row.findChildren(LiveText)).viewport())
    assert entries(menu) == ["Copy as Markdown", "Edit and resend", "Delete", "Translate to", *TEXT_MENU]
    close(menu)
    chip, missing = user_row.findChildren(AttachmentButton)
    assert chip.isEnabled() and not missing.isEnabled()  # a file no longer on disk
    for target in (chip, missing):
        menu = right_click(target)
        assert entries(menu) == ["Copy as Markdown", "Edit and resend", "Delete", "Translate to"]
        close(menu)
    # The hover toolbar's Copy says "Copied" too.
    view.show_actions(row)
    qtbot.mouseClick(view.row_actions.copy_button, Qt.MouseButton.LeftButton)
    assert view.row_actions.copy_button.text() == "Copied"
    window.close()
