"""Older pages of a long session in the message view: each page's rows in a block of their own
(a page going in above leaves the rows loaded before where they are in their block), the
hover toolbar following the mouse over rows of any page, a page's block gone with its rows."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.ui.chat import PAGE_SIZE
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


class _Moves(QObject):
    """Counts the Move events of the widgets it watches."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Move:
            self.count += 1
        return False


async def _long_session(controller: Any, ui_core: Any, pages: int = 4) -> Any:
    agent = ui_core.repos.agents.create_agent(type="claude-code", name="A")
    session = ui_core.repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="long")
    for i in range(pages * PAGE_SIZE):
        ui_core.repos.session_messages.create_message(
            session_id=session.id, role="user" if i % 2 == 0 else "assistant",
            parts=[TextPart(text=f"message {i}\n\n" + "a longer paragraph of words " * (i % 4))])
    window = controller.open_window(session_topic_id(session.id))
    window.resize(900, 700)
    window.show()
    view = window.message_view
    bar = view.verticalScrollBar()
    await until(lambda: len(view.rows()) == PAGE_SIZE and bar.maximum() > 0 and bar.value() == bar.maximum())
    return window


def _pages(view: Any) -> list[QWidget]:
    return [w for w in view.widget().findChildren(QWidget, "messagePage") if w.parentWidget() is view.widget()]


async def test_a_page_going_in_above_leaves_the_rows_of_earlier_pages_in_place(controller: Any,
                                                                             ui_core: Any) -> None:
    window = await _long_session(controller, ui_core)
    view = window.message_view
    assert view.load_older() == PAGE_SIZE
    first_page = view.rows()[:PAGE_SIZE]
    # Its rows settled (each text rendered as a whole) and laid out.
    await until(lambda: all(text.settled for row in first_page for text in row.text_views()))
    await asyncio.sleep(0.1)
    assert first_page[0].text().startswith(f"message {2 * PAGE_SIZE}")
    assert len(_pages(view)) == 1 and all(r.parentWidget() is _pages(view)[0] for r in first_page)
    moves = _Moves()
    for row in first_page:
        row.installEventFilter(moves)
    places = [r.pos() for r in first_page]
    shown = view.rows()[-1]
    before = shown.mapTo(view.widget(), QPoint(0, 0)).y()
    assert view.load_older() == PAGE_SIZE  # the page before goes in above, in its own block
    await asyncio.sleep(0.05)
    assert view.rows()[0].text().startswith(f"message {PAGE_SIZE}") and len(_pages(view)) == 2
    assert moves.count == 0 and [r.pos() for r in first_page] == places
    # ... while in the content everything below moved down by the new page's height.
    assert shown.mapTo(view.widget(), QPoint(0, 0)).y() > before + PAGE_SIZE * 20


async def test_the_hover_toolbar_follows_the_mouse_over_rows_of_an_older_page(controller: Any,
                                                                            ui_core: Any) -> None:
    window = await _long_session(controller, ui_core)
    view = window.message_view
    view.load_older()
    await asyncio.sleep(0.1)  # its scroll fix-up
    older = view.rows()[PAGE_SIZE // 2:PAGE_SIZE // 2 + 2]
    assert all(r.parentWidget() in _pages(view) for r in older)

    def in_view(row: QWidget) -> bool:
        top = row.mapTo(view.viewport(), QPoint(0, 0)).y()
        return top >= 0 and top + row.height() <= view.viewport().height()

    view.ensureWidgetVisible(older[0], 0, 40)
    await until(lambda: all(in_view(r) for r in older))
    toolbar = view.row_actions
    for row in older:
        QTest.mouseMove(row, QPoint(row.width() // 2, row.height() // 2))
        await until(lambda row=row: toolbar.isVisible() and toolbar.message_id == row.message_id)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "message_pages_hover.png"))
    # Off the rows (onto the composer): the toolbar goes.
    QTest.mouseMove(window.composer, QPoint(5, 5))
    await until(lambda: not toolbar.isVisible())


async def test_a_page_whose_rows_are_all_removed_leaves_no_block(controller: Any, ui_core: Any) -> None:
    window = await _long_session(controller, ui_core)
    view = window.message_view
    view.load_older()
    view.load_older()
    pages = _pages(view)
    assert len(pages) == 2
    oldest = [r.message_id for r in view.rows()[:PAGE_SIZE]]
    kept = view.rows()[PAGE_SIZE]
    for message_id in oldest:
        view.remove_row(message_id)
    await until(lambda: len(_pages(view)) == 1)
    assert view.rows()[0] is kept and kept.parentWidget() is _pages(view)[0]
    view.reload()  # the newest page again: the blocks of the pages before go
    await until(lambda: not any(shiboken6.isValid(page) for page in pages))


async def test_the_context_menu_of_a_row_of_an_older_page_is_that_rows(controller: Any, ui_core: Any) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication, QMenu

    window = await _long_session(controller, ui_core)
    view = window.message_view
    view.load_older()
    await asyncio.sleep(0.1)
    row = view.rows()[PAGE_SIZE // 2]
    assert row.parentWidget() in _pages(view)
    view.ensureWidgetVisible(row, 0, 40)
    await asyncio.sleep(0.1)
    shown: list[list[str]] = []

    def close_menu() -> None:
        menu = QApplication.activePopupWidget()
        if isinstance(menu, QMenu):
            shown.append([a.text() for a in menu.actions() if a.text()])
            menu.close()

    QTimer.singleShot(50, close_menu)
    at = QPoint(4, row.height() - 4)  # on the row's margin: the event goes up to the view's rows
    QApplication.sendEvent(row, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, row.mapToGlobal(at)))
    await until(lambda: bool(shown))
    assert "Copy as Markdown" in shown[0] and view.row_actions.message_id == row.message_id


async def test_a_page_coming_in_a_few_rows_a_turn_shows_an_unbroken_stretch_meanwhile(controller: Any,
                                                                                    ui_core: Any) -> None:
    """The rows of a page go in from its newest: whatever is in the view at any turn is one
    stretch of the conversation (no page's middle missing above the rows the user looks at)."""
    window = await _long_session(controller, ui_core, pages=3)
    view = window.message_view

    def numbers() -> list[int]:
        return [int(r.text().split("\n")[0].split()[1]) for r in view.rows()]

    view.near_top()
    seen: set[int] = set()
    while len(view.rows()) < 2 * PAGE_SIZE:
        shown = numbers()
        assert shown == list(range(shown[0], shown[0] + len(shown))), "a gap in the rows shown"
        seen.add(len(shown))
        await asyncio.sleep(0)
    assert len(seen) > 2 and numbers() == list(range(PAGE_SIZE, 3 * PAGE_SIZE))
