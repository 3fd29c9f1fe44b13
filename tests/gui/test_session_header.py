"""The agent session header through the real window, host and stream manager (the runtime is
the scripted driver): agent, model, workspace folder (click opens it), the context meter from
context-usage events, and the permission switch carried onto the live connection through
reconcile, a refused live change shown as such. Chats show no session header."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.runtime.events import ContextUsageEvent
from tests.fakes.scripted_driver import ScriptedDriver
from tests.gui.conftest import ARTIFACTS, named_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui


@pytest.fixture
def agent_topic(ui_core: Any, tmp_path: Any) -> tuple[str, ScriptedDriver, str]:
    driver = ScriptedDriver(type="claude-code", supports_redirect=True)
    ui_core.agent_runtime.registry.register(driver, replace=True)
    workspace = tmp_path / "my-project"
    return named_agent_session(ui_core.repos, workspace), driver, str(workspace)


async def test_header_shows_the_session_and_applies_permission_changes_live(
        controller: Any, ui_core: Any, agent_topic: Any, qtbot: Any) -> None:
    topic_id, driver, workspace = agent_topic
    window = controller.open_window(topic_id)
    header = window.session_header
    assert header.objectName() == "sessionHeader" and header.isVisibleTo(window)
    assert (header.agent_label.text(), header.agent_label.toolTip()) == ("Ada", "Agent: Ada")
    assert (header.model_label.text(), header.model_label.toolTip()) == ("Sonnet 4.5", "Model: Sonnet 4.5")
    assert header.folder_button.text().endswith("my-project")
    opened: list[str] = []
    header.opener = opened.append
    qtbot.mouseClick(header.folder_button, Qt.MouseButton.LeftButton)
    assert opened == [workspace]
    modes = [header.permission_combo.itemData(i) for i in range(header.permission_combo.count())]
    assert modes == ["default", "acceptEdits", "plan", "bypassPermissions"]
    assert header.permission_combo.currentData() == "default"
    assert not header.context_meter.isVisibleTo(window)

    # A turn whose runtime reports context usage: the meter fills.
    conn = await send_turn(qtbot, window, driver, "build it")
    conn.emit_text("on it. ")
    conn.emit(ContextUsageEvent(used_tokens=50_000, max_tokens=200_000))
    conn.complete()
    await until(lambda: header.context_meter.isVisibleTo(window))
    assert header.context_meter.value() == 25 and "50,000" in header.context_meter.toolTip()
    await until(lambda: not window.is_streaming())

    # The switch reaches the warm connection through reconcile.
    driver.reconcile_result = "patched"
    header.permission_combo.setCurrentIndex(1)
    header.permission_combo.activated.emit(1)
    await until(lambda: header.notice.text() != "")
    assert conn.reconciles[-1].permission_mode == "acceptEdits"
    assert ui_core.repos.agents.get_agent(conn.input.context.agent.id).permission_mode == "acceptEdits"
    assert header.notice.text() == "Now: Accept file edits, ask before commands"

    # A live change the runtime refuses is shown, not hidden.
    driver.reconcile_result = "failed"
    header.permission_combo.setCurrentIndex(2)
    header.permission_combo.activated.emit(2)
    await until(lambda: header.notice.property("state") == "denied")
    assert "refused" in header.notice.text()
    assert conn.reconciles[-1].permission_mode == "plan"
    window.resize(1100, 500)
    window.show()
    await asyncio.sleep(0.15)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "session_header.png"))

    # No live connection: saved, applies from the next turn. A chat shows no session header.
    await conn.close()
    header.permission_combo.setCurrentIndex(0)
    header.permission_combo.activated.emit(0)
    await until(lambda: header.notice.text() == "Applies from the next turn")
    chat = controller.bridges.chats.create_topic()
    window.show_topic(chat)
    assert not header.isVisibleTo(window)
    window.close()


def _edit_field_width(combo: Any) -> int:
    """The width the combo's style gives its text (the field left of the arrow)."""
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    return combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                        QStyle.SubControl.SC_ComboBoxEditField, combo).width()


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_the_permission_combo_shows_its_whole_text_at_the_default_and_a_narrow_width(
        controller: Any, ui_core: Any, agent_topic: Any, qapp: Any, theme: str) -> None:
    """Every mode's label fits its combo at the window's default size and at a narrow one, with
    the context meter and a refused-change notice showing; the agent and model labels give
    way (elided, the whole text in their tooltip), and the notice takes a line of its own."""
    from cherry_desktop.ui.shell import apply_theme

    apply_theme(qapp, theme)
    topic_id, _driver, _workspace = agent_topic
    ui_core.repos.agents.update_agent(ui_core.repos.sessions.get_session(topic_id.split(":", 1)[1]).agent_id,
                                      name="An agent with a rather long name")
    window = controller.open_window(topic_id)
    header = window.session_header
    combo = header.permission_combo
    header.set_context_usage(50_000, 200_000)
    header.show_outcome("plan", "failed")
    window.show()
    default_width = window.width()
    try:
        for label, width in (("default", default_width), ("narrow", 560)):
            window.resize(width, 720)
            for index in range(combo.count()):
                combo.setCurrentIndex(index)
                await asyncio.sleep(0.05)  # the layout runs
                text_width = combo.fontMetrics().horizontalAdvance(combo.currentText())
                assert _edit_field_width(combo) >= text_width, (label, combo.currentText())
                assert not combo.geometry().intersects(header.context_meter.geometry())
                assert header.rect().contains(combo.geometry())
            assert header.agent_label.toolTip() == "Agent: An agent with a rather long name"
            # The notice is under the controls, not squeezed beside them.
            assert header.notice.geometry().top() >= combo.geometry().bottom()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            assert header.grab().save(str(ARTIFACTS / f"session_header_{label}_{theme}.png"))
        assert window.width() < default_width  # narrow really is narrower
        assert header.agent_label.width() < header.agent_label.sizeHint().width()  # it gave way
    finally:
        window.close()
        apply_theme(qapp, "light")


async def test_a_window_opened_empty_then_shown_a_session_shows_the_whole_permission_mode(
        controller: Any, agent_topic: Any) -> None:
    """The combo is as wide as its current text also when the header is first filled in a
    window that opened with no topic (it used to stay at an empty combo's width: a bare arrow)."""
    topic_id, _driver, _workspace = agent_topic
    window = controller.open_window(None)
    window.show()
    await asyncio.sleep(0.1)
    window.show_topic(topic_id)
    combo = window.session_header.permission_combo
    await until(lambda: combo.isVisible())
    await asyncio.sleep(0.1)
    assert combo.currentText() == "Ask before edits and commands"
    assert combo.width() >= combo.sizeHint().width() > combo.fontMetrics().horizontalAdvance(combo.currentText())
    window.close()
