"""Send never loses a message: Enter then closing the window in the same tick (the last window:
the app then stops core) still saves the user row, and nothing raises about deleted widgets."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from tests.fakes.scripted_driver import ScriptedDriver
from tests.unit.agent_session.harness import add_model
from tests.waiting import until

pytestmark = pytest.mark.gui


def _no_deleted_object_errors(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or "already deleted" in r.getMessage()
           or (r.exc_info and "already deleted" in str(r.exc_info[1]))]
    assert not bad, [r.getMessage() for r in bad]


async def test_enter_then_close_in_a_chat_saves_the_message(live_controller: Any, live_core: Any,
                                                           scripted_ai: Any, qtbot: Any,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    topic_id = live_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = live_controller.open_window(topic_id)
    window.composer.editor.setPlainText("do not lose me")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    window.close()  # same tick: the send task has not run yet
    assert await live_controller.wait_closed() == 0  # the app's own end: drains the UI's tasks
    users = [m for m in live_core.repos.messages.branch(topic_id) if m.role == "user"]
    assert [p.text for m in users for p in m.parts] == ["do not lose me"]
    feed = await scripted_ai.feed()  # the turn runs on without any window
    feed.text("still answered")
    feed.end()
    await until(lambda: any(m.role == "assistant" and m.status == "success"
                            for m in live_core.repos.messages.branch(topic_id)))
    _no_deleted_object_errors(caplog)


async def test_enter_then_close_in_an_agent_session_saves_it_across_a_restart(
        qapp: Any, qtbot: Any, tmp_path: Path, no_leaked_windows: None,
        caplog: pytest.LogCaptureFixture) -> None:
    from cherry_desktop.ui import UiController

    caplog.set_level(logging.WARNING)
    paths = build_path_registry(tmp_path / "data-root")
    core = await start_core(paths)
    ctl = UiController(core)
    try:
        driver = ScriptedDriver(type="claude-code", supports_redirect=True)
        core.agent_runtime.registry.register(driver, replace=True)
        add_model(core.repos, "demo::sonnet")
        agent = core.repos.agents.create_agent(type="claude-code", name="Ada", model="demo::sonnet")
        ws = core.repos.agents.create_workspace(name="ws", path=str(tmp_path), agent_id=agent.id)
        session = core.repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="S")
        window = ctl.open_window(session_topic_id(session.id))
        window.composer.editor.setPlainText("agent, keep this")
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
        window.close()
        assert await ctl.wait_closed() == 0
    finally:
        await ctl.aclose()
        await core.stop()  # as the app does once the last window closed
    core = await start_core(paths)
    try:
        session_id = core.repos.sessions.list_sessions()[0].id
        rows = core.repos.session_messages.list_messages(session_id)
        assert [(r.role, "".join(p.text for p in r.parts if p.type == "text")) for r in rows][:1] == \
            [("user", "agent, keep this")]
        assert all(r.status not in ("pending", "streaming") for r in rows)
    finally:
        await core.stop()
    _no_deleted_object_errors(caplog)
