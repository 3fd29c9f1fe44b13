"""Agent sessions in the window: steer and queue from the composer, the queued follow-ups dock,
and the tool approval card — the real core (host, manager, SQLite) with a scripted runtime."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.runtime.events import ChunkEvent, SteerBoundaryEvent, ToolApprovalRequestEvent
from cherry_desktop.core.messages import ToolInputAvailableChunk, ToolInputStartChunk, ToolOutputAvailableChunk
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.ui.chat import ToolCard
from tests.fakes.scripted_driver import ScriptedDriver
from tests.gui.conftest import ARTIFACTS, send_turn
from tests.unit.agent_session.harness import add_model
from tests.waiting import until

pytestmark = pytest.mark.gui


@pytest.fixture
def agent_topic(ui_core: Any, tmp_path: Any) -> tuple[str, ScriptedDriver]:
    """A claude-code agent whose runtime is the scripted driver (the host and manager are real)."""
    driver = ScriptedDriver(type="claude-code", supports_redirect=True)
    ui_core.agent_runtime.registry.register(driver, replace=True)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    repos = ui_core.repos
    add_model(repos, "demo::sonnet")
    agent = repos.agents.create_agent(type="claude-code", name="Ada", model="demo::sonnet")
    ws = repos.agents.create_workspace(name="ws", path=str(workspace), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="Build")
    return session_topic_id(session.id), driver


async def _queue_behind_a_turn(controller: Any, qtbot: Any, agent_topic: Any) -> tuple[Any, Any]:
    """A window running "first task" with "second task" queued from the composer."""
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    conn = await _start_turn(qtbot, window, driver, "first task")
    _type(window, "second task")
    qtbot.mouseClick(window.composer.queue_button, Qt.MouseButton.LeftButton)
    await until(lambda: window.queue_dock.items)
    return window, conn


def _type(window: Any, text: str) -> None:
    window.composer.editor.setPlainText(text)


def _roles(window: Any) -> list[str]:
    return [r.role for r in window.message_view.rows()]


def _ask_approval(conn: Any) -> None:
    """The runtime wants to run `rm *.tmp` (call c1) and asks first (approval ap-1)."""
    conn.emit(ChunkEvent(ToolInputStartChunk(tool_call_id="c1", tool_name="Bash")),
              ChunkEvent(ToolInputAvailableChunk(tool_call_id="c1", tool_name="Bash", input={"command": "rm *.tmp"})),
              ToolApprovalRequestEvent(approval_id="ap-1", tool_call_id="c1", tool_name="Bash",
                                       input={"command": "rm *.tmp"}))


async def _start_turn(qtbot: Any, window: Any, driver: ScriptedDriver, text: str) -> Any:
    conn = await send_turn(qtbot, window, driver, text)
    conn.emit_text("working on it. ")
    await until(lambda: "working on it." in window.live_text())
    assert window.composer.steer_button.isVisibleTo(window)
    return conn


async def test_steer_now_from_the_composer_is_injected_and_rolled(controller: Any, ui_core: Any, agent_topic: Any,
                                                                  qtbot: Any) -> None:
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    conn = await _start_turn(qtbot, window, driver, "build it")
    _type(window, "also add tests")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    await until(lambda: conn.redirects)
    steer_id = conn.redirects[0].message.id
    assert window.message_view.row(steer_id) is not None and window.message_view.row(steer_id).steer
    conn.emit(SteerBoundaryEvent(message_ids=(steer_id,)))
    conn.emit_text("tests added.")
    conn.complete()
    await until(lambda: window.live_text_at_terminal is not None and not window.is_streaming())
    await until(lambda: _roles(window) == ["user", "assistant", "user", "assistant"])
    rows = window.message_view.rows()
    assert rows[2].message_id == steer_id  # the steer sits between the rolled assistant rows
    assert [r.text() for r in rows] == ["build it", "working on it. ", "also add tests", "tests added."]


async def test_queue_from_the_composer_lists_in_dock_then_runs_next(controller: Any, ui_core: Any, agent_topic: Any,
                                                                   qtbot: Any) -> None:
    window, conn = await _queue_behind_a_turn(controller, qtbot, agent_topic)
    assert not window.queue_dock.isHidden()
    assert [i.text for i in window.queue_dock.items] == ["second task"]
    assert conn.redirects == []  # queued, never injected
    assert "second task" not in [r.text() for r in window.message_view.rows()]
    queued_id = window.queue_dock.items[0].message_id
    session_id = window.controller.core.repos.sessions.list_sessions()[0].id
    await window.bridges.sessions.edit_queued(session_id, queued_id, "second, edited")
    await until(lambda: [i.text for i in window.queue_dock.items] == ["second, edited"])
    conn.complete()
    sent = await conn.wait_sent(2)  # the queued follow-up starts as the next turn
    assert sent.message.id == queued_id
    await until(lambda: not window.queue_dock.items and window.queue_dock.isHidden())
    # The follow-up's user row is back in the conversation while its turn streams.
    await until(lambda: "second, edited" in [r.text() for r in window.message_view.rows()])
    conn.emit_text("second done.")
    conn.complete()
    await until(lambda: _roles(window) == ["user", "assistant", "user", "assistant"] and not window.is_streaming())
    assert [r.text() for r in window.message_view.rows()][2:] == ["second, edited", "second done."]


@pytest.mark.parametrize("allow", [True, False])
async def test_approval_card_shows_above_the_composer_and_answers(controller: Any, ui_core: Any, agent_topic: Any,
                                                           qtbot: Any, allow: bool) -> None:
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    conn = await _start_turn(qtbot, window, driver, "delete the temp files")
    _ask_approval(conn)
    card = window.approval_card
    await until(lambda: window.approval_waiting() and card.armed)
    assert "Bash" in card.title.text() and "rm *.tmp" in card.input_label.text()
    assert window.composer.isVisibleTo(window)  # the composer stays usable
    observer = controller.open_window(None)
    await until(lambda: observer.sidebar.badges[topic_id].state == "approval")  # the pill, in every window
    button = card.allow_button if allow else card.deny_button
    assert button.objectName() == ("allowButton" if allow else "denyButton")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.approvals)
    assert conn.approvals[0][0] == "ap-1" and conn.approvals[0][1].approved is allow
    await until(lambda: not window.approval_waiting())
    await until(lambda: observer.sidebar.badges[topic_id].state != "approval")
    if allow:
        conn.emit(ChunkEvent(ToolOutputAvailableChunk(tool_call_id="c1", output="removed 2 files")))
    conn.complete("ok")
    await until(lambda: window.live_text_at_terminal is not None and not window.is_streaming())


async def test_a_turn_stopped_while_asking_offers_no_approval_afterwards(controller: Any, ui_core: Any,
                                                                        agent_topic: Any, qtbot: Any) -> None:
    # The runtime asks inside its turn: once Stop ended the turn nothing can take the answer, so
    # the topic must not stay awaiting-approval, nor the stored row offer the card again (a
    # window opened later, or after a restart, showed one for a turn that no longer runs).
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    conn = await _start_turn(qtbot, window, driver, "delete the temp files")
    _ask_approval(conn)
    await until(lambda: window.approval_waiting() and window.approval_card.armed)
    qtbot.mouseClick(window.composer.stop_button, Qt.MouseButton.LeftButton)
    await until(lambda: conn.interrupts, what="the runtime is interrupted")
    await until(lambda: not window.is_streaming(), what="the turn stops")
    repos = ui_core.repos
    session_id = repos.sessions.list_sessions()[0].id
    await until(lambda: repos.session_messages.list_messages(session_id)[-1].status == "paused")
    tool = next(p for p in repos.session_messages.list_messages(session_id)[-1].parts if p.type == "dynamic-tool")
    assert tool.state == "output-denied" and conn.approvals == []  # it never ran, nobody answered
    await until(lambda: not window.approval_waiting(), what="the live window drops the card")
    later = controller.open_window(topic_id)  # reads the stored rows
    await until(lambda: len(later.message_view.rows()) == 2)
    assert not later.approval_waiting()
    # The live window's tool card reads as the reopened one's (it said "waiting for approval"
    # until the window was reopened).
    [live_card], [later_card] = (w.message_view.rows()[-1].findChildren(ToolCard) for w in (window, later))
    assert later_card.fields["state"] == "output-denied"
    await until(lambda: live_card.header.text() == later_card.header.text(), what="the live card settled")
    assert live_card.result_label.label.text() == later_card.result_label.label.text() != ""
    # Nobody denied it: the turn ended first (it read "Denied by the user" after a Stop).
    assert live_card.header.text() == "Bash — not run"
    assert live_card.result_label.label.text() == "Not run: the turn ended before it was answered"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "stopped_approval_live.png"))
    later.resize(900, 420)
    later.show()
    await asyncio.sleep(0.15)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert later.grab().save(str(ARTIFACTS / "stopped_approval.png"))


async def test_a_message_a_full_disk_could_not_save_stays_in_the_composer(
        controller: Any, ui_core: Any, agent_topic: Any, qtbot: Any, tmp_path: Any) -> None:
    # SQLite's own "database or disk is full" (its page limit reached): the send fails before
    # its row is saved, and what the person typed must not vanish with it (it did: the composer
    # was cleared and the row shown was never saved). The status bar says it in the app's words
    # and language (it showed SQLite's English words in every language).
    from cherry_desktop.core.data.models import database_proxy
    from cherry_desktop.ui.shell import i18n

    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    typed = ("a long request " * 2000).strip()
    pages = database_proxy.execute_sql("PRAGMA page_count").fetchone()[0]
    database_proxy.execute_sql(f"PRAGMA max_page_count = {pages}")
    try:
        _type(window, typed)
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
        await until(lambda: window.last_error, what="the failed send is said")
        await until(lambda: not window.is_streaming())
        full = ("The disk is full, so this could not be saved. Free some space, then try again; "
                "what you typed stays in the message box.")
        assert window.last_error == full and window.statusBar().currentMessage() == full
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(ARTIFACTS / "full_disk_status.png"))
        translations = i18n.Translations(cache_dir=tmp_path)
        translations.install("zh_CN")
        try:
            window.last_error = ""
            qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)  # again, the text still there
            await until(lambda: window.last_error, what="the failed send is said")
            await until(lambda: not window.is_streaming())
            assert window.last_error == "磁盘已满，无法保存。请释放一些空间后重试；您输入的内容仍保留在消息框中。"
        finally:
            translations.install("en_US")
    finally:
        database_proxy.execute_sql("PRAGMA max_page_count = 1073741823")
    assert window.composer.editor.toPlainText() == typed
    assert window.message_view.rows() == []  # no row the database does not have
    session_id = ui_core.repos.sessions.list_sessions()[0].id
    assert ui_core.repos.session_messages.list_messages(session_id) == []
    assert all(c.sent == [] for c in driver.connections)


async def test_held_queue_after_stop_offers_resume(controller: Any, ui_core: Any, agent_topic: Any,
                                                   qtbot: Any) -> None:
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    conn = await _start_turn(qtbot, window, driver, "first")
    _type(window, "queued one")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)  # Enter while streaming queues
    await until(lambda: window.queue_dock.items)
    qtbot.mouseClick(window.composer.stop_button, Qt.MouseButton.LeftButton)
    await until(lambda: not window.is_streaming())
    await until(lambda: window.queue_dock.held)  # a Stop holds the queue instead of running it
    resume = window.queue_dock.resume_button
    assert resume.isVisibleTo(window)
    qtbot.mouseClick(resume, Qt.MouseButton.LeftButton)
    from cherry_desktop.core.messages import message_text

    def sent_texts() -> list[str]:
        return [message_text(s.message) for c in driver.connections for s in c.sent]

    await until(lambda: "queued one" in sent_texts())  # the held follow-up runs now
    assert sent_texts() == ["first", "queued one"] and conn in driver.connections
    await until(lambda: not window.queue_dock.items)


async def test_a_queued_turn_that_cannot_start_says_why(controller: Any, ui_core: Any, agent_topic: Any,
                                                        qtbot: Any) -> None:
    window, conn = await _queue_behind_a_turn(controller, qtbot, agent_topic)
    ui_core.repos.providers.delete_model("demo::sonnet")  # the session's model is gone meanwhile
    conn.complete()
    await until(lambda: window.last_error == window.words.describe_session_issue("model-not-found"))
    assert len(conn.sent) == 1
    assert [i.text for i in window.queue_dock.items] == ["second task"]  # kept, on hold


async def test_saving_the_agent_in_the_dialog_reaches_the_live_session(controller: Any, ui_core: Any,
                                                                       agent_topic: Any, qtbot: Any) -> None:
    """The agent dialog's save goes through the host: the running session's connection takes
    the new permission mode at once (not only at its next turn)."""
    topic_id, driver = agent_topic
    window = controller.open_window(topic_id)
    conn = await _start_turn(qtbot, window, driver, "first task")
    session = ui_core.repos.sessions.list_sessions()[0]
    agent = ui_core.repos.agents.get_agent(session.agent_id)
    window.bridges.sessions.save_agent(agent.id, {"name": agent.name, "permission_mode": "plan", "model": agent.model})
    await until(lambda: conn.reconciles and conn.reconciles[-1].permission_mode == "plan")
    assert ui_core.repos.agents.get_agent(agent.id).permission_mode == "plan"
    assert len(conn.sent) == 1
    conn.complete()
    await until(lambda: not window.is_streaming())
