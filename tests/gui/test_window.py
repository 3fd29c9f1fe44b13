"""The main window against a real database: sidebar, long sessions, dialogs, screenshot."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.credentials import provider_key_name
from cherry_desktop.ui import ChatWindow, start_ui
from cherry_desktop.ui.chat import PAGE_SIZE
from tests.gui.conftest import ARTIFACTS, seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


async def test_sidebar_lists_agents_sessions_and_chats(controller: Any, ui_core: Any) -> None:
    _agent_id, session_id = seed_agent_session(ui_core.repos)
    topic = ui_core.repos.topics.create_topic(name="Groceries")
    window = controller.open_window(None)
    assert isinstance(window, ChatWindow) and window.objectName() == "ChatWindow"
    names = {window.sidebar.item_for(t).text(0) for t in (session_topic_id(session_id), topic.id)}
    assert names == {"Demo session", "Groceries"}
    assert set(window.sidebar.badges) == {session_topic_id(session_id), topic.id}
    for name in ("sessionList", "messageView", "composer", "sendButton", "steerButton", "queueButton",
                 "stopButton", "queueDock", "approvalCard", "allowButton", "denyButton"):
        from PySide6.QtWidgets import QWidget

        assert window.findChild(QWidget, name) is not None, name



async def test_sidebar_badges_are_row_text_without_a_widget_per_row(controller: Any, ui_core: Any) -> None:
    """Each state of a badge as its row shows it (artifacts/sidebar_badges.png): the words and
    dots are the row's second column, no widget per row (2 000 topics: 17 s per rebuild)."""
    from PySide6.QtWidgets import QLabel

    from cherry_desktop.ui.sidebar import SPINNER

    states = ("error", "done", "approval", "streaming", "")
    ids = [ui_core.repos.topics.create_topic(name=f"Topic {s or 'idle'}").id for s in states]
    window = controller.open_window(None)
    sidebar = window.sidebar
    for topic_id, state in zip(ids, states, strict=True):
        sidebar.set_badge_state(topic_id, state)
    texts = [sidebar.item_for(t).text(1) for t in ids]
    assert texts[:3] == ["●", "●", "Approval"] and texts[3] in SPINNER and texts[4] == ""
    assert sidebar.item_for(ids[0]).toolTip(1) == "The last reply failed"
    red, green = (sidebar.item_for(t).foreground(1).color().name() for t in ids[:2])
    assert red != green
    await until(lambda: sidebar.item_for(ids[3]).text(1) != texts[3])  # the spinner turns
    assert not sidebar.findChildren(QLabel)
    sidebar.reload()  # a rebuild keeps what the cache says (idle here: nothing runs)
    assert {sidebar.badges[t].state for t in ids} == {""}
    for topic_id, state in zip(ids, states, strict=True):
        sidebar.set_badge_state(topic_id, state)
    ARTIFACTS.mkdir(exist_ok=True)
    window.resize(900, 500)
    await asyncio.sleep(0.2)
    sidebar.grab().save(str(ARTIFACTS / "sidebar_badges.png"))

async def test_session_actions_new_rename_delete(controller: Any, ui_core: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    agent_id, session_id = seed_agent_session(ui_core.repos)
    window = controller.open_window(session_topic_id(session_id))
    window.new_session(agent_id)
    sessions = ui_core.repos.sessions.list_sessions(agent_id)
    assert len(sessions) == 2
    new_topic = window.topic_id
    assert new_topic != session_topic_id(session_id)
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "exec", lambda dialog: (dialog.setTextValue("Renamed"), 1)[1])
    window.rename_topic(new_topic)
    assert window.sidebar.item_for(new_topic).text(0) == "Renamed"
    task = window.delete_topic(new_topic, confirm=False)
    await task
    assert len(ui_core.repos.sessions.list_sessions(agent_id)) == 1
    assert window.topic_id is None and window.sidebar.item_for(new_topic) is None


async def test_long_session_loads_recent_rows_first_then_more_on_scroll(controller: Any, ui_core: Any) -> None:
    agent = ui_core.repos.agents.create_agent(type="claude-code", name="A")
    session = ui_core.repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="long")
    for i in range(300):
        ui_core.repos.session_messages.create_message(session_id=session.id, role="user" if i % 2 == 0 else "assistant",
                                                      parts=[TextPart(text=f"message {i}")])
    window = controller.open_window(session_topic_id(session.id))
    rows = window.message_view.rows()
    assert len(rows) == PAGE_SIZE
    assert rows[-1].text() == "message 299"
    bar = window.message_view.verticalScrollBar()
    await until(lambda: bar.maximum() > 0)
    bar.setValue(bar.minimum())  # the user scrolls to the top
    await until(lambda: len(window.message_view.rows()) == 2 * PAGE_SIZE)
    assert window.message_view.rows()[0].text() == f"message {300 - 2 * PAGE_SIZE}"



async def test_older_rows_come_in_a_few_per_loop_turn_and_the_rows_in_view_stay(controller: Any, ui_core: Any) -> None:
    """Scrolling up near the top brings the page before in over several loop turns (a whole
    page in one took ~200 ms: a stall); the row the user looks at does not move meanwhile."""
    agent = ui_core.repos.agents.create_agent(type="claude-code", name="A")
    session = ui_core.repos.sessions.create_session(agent_id=agent.id, workspace_id=None, name="long")
    for i in range(3 * PAGE_SIZE):
        ui_core.repos.session_messages.create_message(
            session_id=session.id, role="user" if i % 2 == 0 else "assistant",
            parts=[TextPart(text=f"message {i}\n\n" + "a longer paragraph of words " * (i % 5))])
    window = controller.open_window(session_topic_id(session.id))
    view = window.message_view
    bar = view.verticalScrollBar()
    await until(lambda: bar.maximum() > view.viewport().height() and bar.value() == bar.maximum())
    await asyncio.sleep(0.1)  # late layout passes settle
    looked_at = view.rows()[PAGE_SIZE // 2]
    view.ensureWidgetVisible(looked_at)  # the user scrolled up to it (the view stops following)
    await asyncio.sleep(0.05)
    assert bar.value() < bar.maximum() and len(view.rows()) == PAGE_SIZE

    def y_in_view() -> int:
        return looked_at.mapTo(view.viewport(), looked_at.rect().topLeft()).y()

    before = y_in_view()
    counts: list[int] = []
    view.near_top()
    while len(view.rows()) < 2 * PAGE_SIZE:
        counts.append(len(view.rows()))
        await asyncio.sleep(0)
        if view.viewport().updatesEnabled():  # what can be painted: the row where it was
            assert abs(y_in_view() - before) <= 2, "the row in view moved while older rows came in"
    await until(view.viewport().updatesEnabled)
    assert abs(y_in_view() - before) <= 2
    assert len(set(counts)) > 2  # over several loop turns, not one
    assert view.rows()[0].text().startswith(f"message {PAGE_SIZE}")
    assert view.load_older() == PAGE_SIZE and view.rows()[0].text().startswith("message 0")

async def test_agent_dialog_is_driven_by_capabilities(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES
    from cherry_desktop.ui.dialogs import AgentDialog

    repos = ui_core.repos
    for seeded in repos.providers.list_providers():  # start from no providers (first run is test_first_run's)
        repos.providers.delete_provider(seeded.id)
    repos.providers.upsert_provider(id="anth", name="Anthropic", type="anthropic")
    repos.providers.upsert_model(provider_id="anth", model_id="claude-x", name="Claude X")
    repos.providers.upsert_provider(id="oai", name="OpenAI", type="openai")
    repos.providers.upsert_model(provider_id="oai", model_id="gpt", name="GPT")
    repos.providers.upsert_provider(id="off", name="Disabled", type="anthropic", enabled=False)
    repos.providers.upsert_model(provider_id="off", model_id="m", name="M")
    dialog = AgentDialog(controller.bridges)
    caps = AGENT_RUNTIME_CAPABILITIES["claude-code"]
    assert [dialog.runtime_combo.itemData(i) for i in range(dialog.runtime_combo.count())] \
        == list(AGENT_RUNTIME_CAPABILITIES)
    assert [dialog.permission_combo.itemData(i) for i in range(dialog.permission_combo.count())] \
        == list(caps.permission_modes)
    assert dialog.permission_combo.currentData() == caps.create_defaults.permission_mode
    # The OpenAI model runs through the API gateway; a disabled provider's not at all.
    assert [dialog.model_combo.itemData(i) for i in range(dialog.model_combo.count())] == \
        ["anth::claude-x", "oai::gpt"]
    dialog.name_edit.setText("Reviewer")
    dialog.workspace_edit.setText(str(tmp_path))
    dialog.permission_combo.setCurrentIndex(dialog.permission_combo.findData("acceptEdits"))
    dialog.save()
    agent = repos.agents.get_agent(dialog.agent_id)
    assert (agent.name, agent.type, agent.permission_mode, agent.model) == \
        ("Reviewer", "claude-code", "acceptEdits", "anth::claude-x")
    assert [w.path for w in repos.agents.list_workspaces(agent.id)] == [str(tmp_path)]
    edit = AgentDialog(controller.bridges, agent.id)
    assert edit.name_edit.text() == "Reviewer" and not edit.runtime_combo.isEnabled()
    assert edit.permission_combo.currentData() == "acceptEdits"
    dialog.deleteLater()
    edit.deleteLater()


async def test_settings_store_key_in_keyring_and_apply_theme(controller: Any, ui_core: Any, qapp: Any) -> None:
    from cherry_desktop.ui.dialogs import SettingsDialog

    ui_core.repos.providers.upsert_provider(id="anth", name="Anthropic", type="anthropic")
    dialog = SettingsDialog(controller.bridges)
    dialog.providers.select_provider("anth")
    dialog.providers.key_edit.setText("sk-test-123")
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    dialog.background.setCurrentIndex(dialog.background.findData("abort"))
    dialog.save()
    assert ui_core.credentials.get(provider_key_name("anth")) == "sk-test-123"
    s = ui_core.settings.settings
    assert (s.theme, s.language, s.background_mode) == ("dark", "zh_CN", "abort")
    assert qapp.property("cherryTheme") == "dark"
    assert controller.translations.locale == "zh_CN"
    assert "sk-test-123" not in ui_core.settings.path.read_text()
    controller.bridges.settings.update_settings(language="en_US", theme="light")
    dialog.deleteLater()


async def test_screenshot_of_the_main_window(ui_core: Any, qapp: Any, no_leaked_windows: None) -> None:
    _agent_id, session_id = seed_agent_session(ui_core.repos, turns=2)
    controller = start_ui(ui_core)
    try:
        path = ARTIFACTS / "main_window.png"
        assert await controller.capture_when_idle(path)
        from PySide6.QtGui import QImage

        # What the screenshot shows: the newest session open in the window, its two turns.
        (window,) = controller.windows
        assert window.isVisible() and window.topic_id == session_topic_id(session_id)
        rows = window.message_view.rows()
        assert [r.role for r in rows] == ["user", "assistant"] * 2
        assert "Question 1?" in rows[2].text() and "Answer **1**." in rows[3].text()
        image = QImage(str(path))
        scale = window.devicePixelRatio()
        assert (image.width(), image.height()) == (round(window.width() * scale), round(window.height() * scale))
    finally:
        await controller.aclose()


async def test_open_in_new_window_shortcut_shows_the_same_topic(controller: Any, ui_core: Any, qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    _agent_id, session_id = seed_agent_session(ui_core.repos)
    topic_id = session_topic_id(session_id)
    first = controller.open_window(topic_id)
    first.activateWindow()
    await until(first.isActiveWindow)
    assert first.new_window_action.shortcut().toString() == "Ctrl+Shift+N"
    qtbot.keyClick(first, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    await until(lambda: len(controller.windows) == 2)
    second = controller.windows[1]
    assert second.topic_id == topic_id
    assert [r.text() for r in second.message_view.rows()] == [r.text() for r in first.message_view.rows()]
    second.close()  # closing a window only detaches it
    assert controller.windows == [first] and first.topic_id == topic_id


async def test_ctrl_w_closes_the_window_from_the_composer(controller: Any, ui_core: Any, qtbot: Any) -> None:
    """Close window has every binding of the platform's Close key (Ctrl+W and Ctrl+F4 here);
    it had only the first, so Ctrl+W did nothing on Linux."""
    from PySide6.QtCore import Qt

    from tests.gui.conftest import focused_window

    _agent_id, session_id = seed_agent_session(ui_core.repos)
    first = await focused_window(controller, session_topic_id(session_id))
    second = await focused_window(controller, session_topic_id(session_id))
    qtbot.keyClick(second.composer.editor, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: controller.windows == [first])
    first.activateWindow()
    await until(first.isActiveWindow)
    qtbot.keyClick(first, Qt.Key.Key_F4, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: controller.windows == [])


async def test_window_tolerates_a_core_without_stream_manager(controller: Any, ui_core: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    topic = ui_core.repos.topics.create_topic(name="t", model="demo::m")
    monkeypatch.setattr(ui_core, "stream_manager", None)
    window = controller.open_window(topic.id)
    task = window.submit("hello", "send")
    await until(task.done)
    assert window.last_error is not None and "stream_manager" in window.last_error
    assert not window.is_streaming()


def test_splash_needs_no_core() -> None:
    import os
    import subprocess
    import sys

    code = ("import sys; from PySide6.QtWidgets import QApplication; app = QApplication([]); "
            "from cherry_desktop.ui.shell.splash import show_splash; s = show_splash(); "
            "print(any(m.startswith('cherry_desktop.core') for m in sys.modules)); s.close()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.strip() == "False"


async def test_a_narrow_window_narrows_the_model_picker_before_the_sidebar(controller: Any, ui_core: Any) -> None:
    """At 640 pixels the sidebar keeps room for names and the chat's model picker elides; wide,
    the picker shows its longest model whole (it used to insist on that width at any size and
    squeeze the sidebar to a 50-pixel sliver)."""
    from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records
    from cherry_desktop.ui.shell import SIDEBAR_MIN_WIDTH

    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), "http://127.0.0.1:9")
    window = controller.open_window(ui_core.repos.topics.create_topic(name="Chat", model=DEMO_UNIQUE_MODEL_ID).id)
    picker = window.chat_header.picker
    longest = max(picker.fontMetrics().horizontalAdvance(picker.itemText(i)) for i in range(picker.count()))
    window.resize(1100, 600)
    window.show()
    await asyncio.sleep(0.1)
    assert picker.width() > longest
    window.resize(640, 600)
    await asyncio.sleep(0.1)
    assert window.search_panel.width() >= SIDEBAR_MIN_WIDTH
    assert picker.width() < longest and window.width() <= 700
    window.close()
