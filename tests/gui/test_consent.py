"""Consent is never given by accident: no keystroke meant for something else decides a tool.

The keys here go where a real keyboard sends them, to the application's focus widget, so a card
that took the focus by itself would receive them (the bug these tests pin: the card replaced the
composer and took the focus, the characters typed after it were lost and Enter allowed a Write).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from cherry_desktop.core.ai.runtime.events import ChunkEvent, ToolApprovalRequestEvent
from cherry_desktop.core.messages import ToolInputAvailableChunk, ToolInputStartChunk
from cherry_desktop.ui.session import ARM_DELAY_MS, FOCUS_SHORTCUT, ApprovalCard
from tests.gui.conftest import ARTIFACTS, focused_window, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui

WRITE = {"file_path": "notes.md", "content": "overwritten"}


def _ask(conn: Any, approval_id: str = "ap-1") -> None:
    conn.emit(ChunkEvent(ToolInputStartChunk(tool_call_id="c1", tool_name="Write")),
              ChunkEvent(ToolInputAvailableChunk(tool_call_id="c1", tool_name="Write", input=WRITE)),
              ToolApprovalRequestEvent(approval_id=approval_id, tool_call_id="c1", tool_name="Write", input=WRITE))


def _type_at_focus(text: str) -> None:
    """One key per character, to whatever widget has the keyboard focus now (no pause)."""
    for ch in text:
        target = QApplication.focusWidget()
        assert target is not None
        QTest.keyClick(target, ch)


async def _finish_turns(conn: Any, window: Any) -> None:
    """End the running turn and each queued follow-up that runs after it."""
    while window.is_streaming():
        sent = len(conn.sent)
        conn.complete("done")
        await until(lambda sent=sent: len(conn.sent) > sent or not window.is_streaming())


async def test_typing_across_the_cards_appearance_approves_nothing_and_loses_nothing(
        controller: Any, ui_core: Any, qtbot: Any, tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = await focused_window(controller, topic_id)
    conn = await send_turn(qtbot, window, driver, "tidy up the notes")
    card = window.approval_card
    first, second = "please keep the old notes ", "and only add a summary"
    _type_at_focus(first)
    _ask(conn)  # the card appears mid-word
    await until(lambda: window.approval_waiting())
    _type_at_focus(second)
    # Enter and Ctrl+Enter right after: the composer's keys (queue / steer), never the card's.
    target = QApplication.focusWidget()
    assert target is window.composer.editor  # the card did not take the keyboard
    QTest.keyClick(target, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: len(conn.sent) + len(conn.redirects) >= 2)
    _type_at_focus("one more thing")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    await asyncio.sleep(ARM_DELAY_MS / 1000 + 0.2)  # past the grace period too
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    await asyncio.sleep(0.1)

    assert conn.approvals == []  # nothing was decided
    assert window.approval_waiting() and card.approval is not None
    steered = [m.message.text() for m in conn.redirects] + [m.message.text() for m in conn.sent[1:]]
    assert steered[0] == first + second  # every character of the steer, none lost to the card
    queued = [item.text for item in window.queue_dock.items] + steered[1:]
    assert "one more thing" in queued  # Enter queued it (a turn runs): typed text is never dropped
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "consent_card_above_composer.png"))

    # Deciding takes the user's own move to the card: its shortcut, then Enter (Esc denies).
    QTest.keySequence(window, QKeySequence(FOCUS_SHORTCUT))
    await until(lambda: card.isAncestorOf(QApplication.focusWidget()) or QApplication.focusWidget() is card)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    await until(lambda: conn.approvals)
    assert conn.approvals[0][0] == "ap-1" and conn.approvals[0][1].approved is True
    assert QApplication.focusWidget() is window.composer.editor  # back to where the user writes
    await _finish_turns(conn, window)


async def test_keys_in_the_grace_period_or_after_an_unasked_focus_move_decide_nothing(
        controller: Any, ui_core: Any, qtbot: Any, tmp_path: Any) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws")
    window = await focused_window(controller, topic_id)
    conn = await send_turn(qtbot, window, driver, "write it")
    card = window.approval_card
    _ask(conn)
    await until(lambda: window.approval_waiting())
    # The user jumps to the card at once and presses Enter / Space / Esc: too early.
    QTest.keySequence(window, QKeySequence(FOCUS_SHORTCUT))
    await until(lambda: QApplication.focusWidget() is card)
    assert not card.armed and not card.allow_button.isEnabled()
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Space, Qt.Key.Key_Escape):
        QTest.keyClick(card, key)
    qtbot.mouseClick(card.allow_button, Qt.MouseButton.LeftButton)  # a click aimed at what was there
    assert conn.approvals == [] and card.approval is not None

    # The focus lands on the card on its own (Qt moves it when the focused widget goes away):
    # armed, but the user never came here, so its keys stay inert.
    await until(lambda: card.armed, limit=2)
    window.composer.editor.setFocus()
    await until(lambda: QApplication.focusWidget() is window.composer.editor)
    card.allow_button.setFocus(Qt.FocusReason.OtherFocusReason)
    await until(lambda: QApplication.focusWidget() is card.allow_button)
    for key in (Qt.Key.Key_Return, Qt.Key.Key_Space):
        QTest.keyClick(card.allow_button, key)
    await asyncio.sleep(0.05)
    assert conn.approvals == []

    # Tab from the composer is the user's move: then Esc denies, with the reason typed first.
    window.composer.editor.setFocus()
    await until(lambda: QApplication.focusWidget() is window.composer.editor)
    QTest.keyClick(window.composer.editor, Qt.Key.Key_Tab)
    await until(lambda: QApplication.focusWidget() is card)
    card.reason.setFocus(Qt.FocusReason.MouseFocusReason)
    _type_at_focus("write it to notes-new.md instead")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    await until(lambda: conn.approvals)
    approval_id, decision = conn.approvals[0]
    assert approval_id == "ap-1" and decision.approved is False
    assert decision.reason == "write it to notes-new.md instead"  # goes to the agent
    await _finish_turns(conn, window)


def test_a_new_approval_restarts_the_grace_and_needs_the_user_again(qtbot: Any) -> None:
    card = ApprovalCard()
    qtbot.addWidget(card)
    decisions: list[tuple[str, bool, str]] = []
    card.decided.connect(lambda aid, ok, why: decisions.append((aid, ok, why)))
    card.show_approval({"approval_id": "ap1", "tool_name": "Bash", "input": {"command": "ls"}})
    assert "Bash" in card.title.text() and "$ ls" in card.input_label.text()  # readable, not JSON
    qtbot.waitUntil(lambda: card.armed, timeout=2000)
    card.show_approval({"approval_id": "ap1", "tool_name": "Bash", "input": {"command": "ls"}})
    assert card.armed  # the same approval shown again keeps its state
    card.show_approval({"approval_id": "ap2", "tool_name": "Write", "input": {}})
    assert not card.armed  # another approval: the grace starts again
    qtbot.waitUntil(lambda: card.armed, timeout=2000)
    qtbot.mouseClick(card.deny_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(card.allow_button, Qt.MouseButton.LeftButton)  # nothing pending: no decision
    assert decisions == [("ap2", False, "")]
