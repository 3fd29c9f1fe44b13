"""What a person does, in the real window: create an ACP agent (Claude Agent) in the New agent
dialog, then run a tool turn and allow it on the approval card; queue a follow-up, stop, restart
and resume: the real claude-agent-acp (pinned, from npm) against the scripted server.
Screenshots: artifacts/acp_new_agent.png, acp_agent_turn.png, acp_queued_and_stopped.png,
acp_resumed.png."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import HangReply, ScriptedModelServer, slow_text, text
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_openai_provider, ensure_demo_records
from cherry_desktop.ui.dialogs import AgentDialog
from tests.gui._agent_turn import write_turn_allowed_on_the_card
from tests.gui.conftest import ARTIFACTS, save_screenshot
from tests.integration.acp_helpers import ensure_test_agent
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def claude_acp_root() -> Path:
    return ensure_test_agent("claude-agent-acp")


async def test_a_new_acp_agent_runs_a_tool_turn_allowed_on_the_card(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer, tmp_path: Path,
        claude_acp_root: Path) -> None:
    repos = ui_core.repos
    ensure_demo_records(repos, tmp_path / "demo-root", server.base_url)
    openai_model = ensure_demo_openai_provider(repos, server.base_url)
    ui_core.agent_runtime.registry.get("acp").install_root = claude_acp_root
    workspace = tmp_path / "project"
    workspace.mkdir()

    dialog = AgentDialog(controller.bridges)
    assert not dialog.variant_combo.isVisibleTo(dialog)  # Claude Code runs one agent: no choice
    dialog.runtime_combo.setCurrentIndex(dialog.runtime_combo.findData("acp"))
    assert dialog.variant_combo.isVisibleTo(dialog)
    assert [dialog.variant_combo.itemText(i) for i in range(dialog.variant_combo.count())] == [
        "Claude Agent", "opencode"]
    # Each agent lists the models it can run: opencode the OpenAI-compatible ones only.
    dialog.variant_combo.setCurrentIndex(dialog.variant_combo.findData("opencode"))
    assert dialog.model_combo.findData(openai_model) >= 0 and dialog.model_combo.findData(DEMO_UNIQUE_MODEL_ID) < 0
    assert not dialog.skill_list.isVisibleTo(dialog)  # Cherry's skills do not reach opencode
    dialog.variant_combo.setCurrentIndex(dialog.variant_combo.findData("claude-agent-acp"))
    assert dialog.model_combo.findData(DEMO_UNIQUE_MODEL_ID) >= 0 and dialog.model_combo.findData(openai_model) < 0
    assert dialog.skill_list.isVisibleTo(dialog)
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData(DEMO_UNIQUE_MODEL_ID))
    dialog.name_edit.setText("Claude over ACP")
    dialog.workspace_edit.setText(str(workspace))
    save_screenshot(dialog, "acp_new_agent", width=560)
    dialog.save()
    agent = repos.agents.get_agent(dialog.agent_id)
    assert (agent.type, agent.config["acp_agent"]) == ("acp", "claude-agent-acp")

    window, session_id = await write_turn_allowed_on_the_card(
        controller, repos, qtbot, server, agent.id, workspace / "note.md", "# Written over ACP\n")
    rows = repos.session_messages.list_messages(session_id)
    assert [r.status for r in rows] == ["success", "success"]
    window.resize(1000, 700)
    await asyncio.sleep(0.3)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "acp_agent_turn.png"))


def _texts(window: Any) -> list[str]:
    return [r.text() for r in window.message_view.rows()]


async def test_an_acp_session_queues_a_follow_up_stops_and_resumes_after_a_restart(
        qapp: Any, qtbot: Any, no_leaked_windows: None, server: ScriptedModelServer, tmp_path: Path,
        claude_acp_root: Path) -> None:
    """The spec's manual smoke for the ACP runtime in the real window: during a turn the
    composer offers Queue only (no mid-turn steer, from the descriptor), a queued follow-up is
    the next turn, Stop pauses the row, and after a restart the agent's session is loaded
    again (session/load): the model is sent the first exchange. Screenshots:
    artifacts/acp_queued_and_stopped.png, artifacts/acp_resumed.png."""
    from cherry_desktop.core.app.bootstrap import start_core
    from cherry_desktop.core.storage.paths import build_path_registry
    from cherry_desktop.demo.bootstrap import ensure_acp_demo_records
    from cherry_desktop.ui import UiController

    paths = build_path_registry(tmp_path / "data-root")

    async def one_run(rows_before: int, drive: Any) -> list[str]:
        core = await start_core(paths)
        ctl = UiController(core)
        try:
            root = core.paths.get("feature.agents.workspaces")
            ensure_demo_records(core.repos, root, server.base_url)
            _, session_id, _ = ensure_acp_demo_records(core.repos, root)
            core.agent_runtime.registry.get("acp").install_root = claude_acp_root
            window = ctl.open_window(session_topic_id(session_id))
            window.resize(1000, 700)
            await until(lambda: len(_texts(window)) == rows_before, limit=10)
            await drive(window, session_id, core)
            texts = _texts(window)
            window.close()
            return texts
        finally:
            await ctl.aclose()
            await core.stop()

    async def first_run(window: Any, session_id: str, core: Any) -> None:
        server.enqueue(slow_text("I will remember kumquat, slowly.", delay_s=0.03), text("Queued answer."),
                       HangReply(text_before="A long answer that will be stopped "))
        window.composer.editor.setPlainText("remember the word kumquat")
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
        await until(lambda: "remember kumquat" in window.live_text(), limit=60)
        composer = window.composer
        assert composer.queue_button.isVisible() and not composer.steer_button.isVisible()
        composer.editor.setPlainText("and then say hi")
        qtbot.mouseClick(composer.queue_button, Qt.MouseButton.LeftButton)
        await until(lambda: not window.is_streaming() and len(_texts(window)) == 4, limit=60)
        window.composer.editor.setPlainText("write an essay")
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
        await until(lambda: "will be stopped" in window.live_text(), limit=60)
        qtbot.mouseClick(composer.stop_button, Qt.MouseButton.LeftButton)
        await until(lambda: not window.is_streaming(), limit=60)
        rows = core.repos.session_messages.list_messages(session_id)
        assert [r.status for r in rows] == ["success"] * 5 + ["paused"]
        await asyncio.sleep(0.3)
        ARTIFACTS.mkdir(exist_ok=True)
        assert window.grab().save(str(ARTIFACTS / "acp_queued_and_stopped.png"))

    texts = await one_run(0, first_run)
    assert texts[:4] == ["remember the word kumquat", "I will remember kumquat, slowly.", "and then say hi",
                         "Queued answer."]

    async def second_run(window: Any, session_id: str, core: Any) -> None:
        server.enqueue(text("The word was kumquat."))
        window.composer.editor.setPlainText("what was the word?")
        qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
        await until(lambda: not window.is_streaming() and len(_texts(window)) == 8, limit=60)
        await asyncio.sleep(0.3)
        assert window.grab().save(str(ARTIFACTS / "acp_resumed.png"))

    texts = await one_run(6, second_run)
    assert texts[-2:] == ["what was the word?", "The word was kumquat."]
    sent = server.requests_for_model_turns()[-1].all_text()
    assert "remember the word kumquat" in sent and "I will remember kumquat, slowly." in sent
    qapp.processEvents()
