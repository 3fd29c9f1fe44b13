"""What a person does, in the real window: create an ACP agent (Claude Agent) in the New agent
dialog, then run a tool turn and allow it on the approval card: the real claude-agent-acp
(pinned, from npm) against the scripted server. Screenshots: artifacts/acp_new_agent.png,
artifacts/acp_agent_turn.png."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_openai_provider, ensure_demo_records
from cherry_desktop.ui.dialogs import AgentDialog
from tests.gui._agent_turn import write_turn_allowed_on_the_card
from tests.gui.conftest import ARTIFACTS, save_screenshot
from tests.integration.acp_helpers import ensure_test_agent

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(150)]


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
    dialog.variant_combo.setCurrentIndex(dialog.variant_combo.findData("claude-agent-acp"))
    assert dialog.model_combo.findData(DEMO_UNIQUE_MODEL_ID) >= 0 and dialog.model_combo.findData(openai_model) < 0
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
