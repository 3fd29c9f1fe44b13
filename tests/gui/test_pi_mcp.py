"""A pi agent with an MCP server, in the real window: `mcp-server-time` saved in Settings > MCP
servers, ticked in the New agent dialog for a pi agent; the real pi calls it through Cherry's
relay extension, the approval card names the server, Allow runs it, the answer is persisted.
Screenshots: artifacts/pi_mcp_approval_card.png, artifacts/pi_mcp_tool_turn.png."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.messages import ToolPart
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from cherry_desktop.ui.dialogs import AgentDialog, SettingsDialog
from tests.gui.conftest import ARTIFACTS
from tests.integration.pi_helpers import ensure_test_pi
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(150)]


async def test_a_pi_agent_calls_an_mcp_server_with_the_card(controller: Any, ui_core: Any, qtbot: Any,
                                                             server: ScriptedModelServer, tmp_path: Path) -> None:
    installation = await asyncio.to_thread(ensure_test_pi)
    driver = ui_core.agent_runtime.registry.get("pi")
    assert isinstance(driver, PiRuntimeDriver)
    driver.use_installation(installation)
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)

    settings = SettingsDialog(controller.bridges)
    panel = settings.mcp
    panel.new_server()
    panel.name_edit.setText("time")
    panel.command_edit.setText(str(Path(sys.executable).parent / "mcp-server-time"))
    assert panel.save()
    await until(lambda: panel.status_label.text() == "Ready: 2 tools", limit=60)
    settings.close()

    window = controller.open_window(None)
    dialog = AgentDialog(controller.bridges, None, window)
    dialog.runtime_combo.setCurrentIndex(dialog.runtime_combo.findData("pi"))
    assert not dialog.mcp_list.isHidden()  # pi's descriptor: supports_mcp
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData(DEMO_UNIQUE_MODEL_ID))
    workspace = tmp_path / "pi-project"
    workspace.mkdir()
    dialog.name_edit.setText("Pi with time")
    dialog.workspace_edit.setText(str(workspace))
    dialog.mcp_list.item(0).setCheckState(Qt.CheckState.Checked)
    dialog.save()
    window.sidebar.reload()
    window.new_session(dialog.agent_id)

    server.enqueue(tool_use("mcp__time__get_current_time", {"timezone": "Etc/UTC"}, preamble="Asking the clock."),
                   text("It is Wednesday in UTC."))
    window.composer.editor.setPlainText("what time is it?")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    card = window.approval_card
    await until(lambda: window.approval_waiting() and card.armed, limit=60)
    assert "get_current_time (MCP server time)" in card.title.text()
    window.resize(1000, 700)
    await asyncio.sleep(0.2)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "pi_mcp_approval_card.png"))
    qtbot.mouseClick(card.allow_button, Qt.MouseButton.LeftButton)
    await until(lambda: not window.is_streaming()
                and "It is Wednesday in UTC." in window.message_view.rows()[-1].text(), limit=60)
    session_id = window.topic_id.split(":", 1)[1]
    rows = ui_core.repos.session_messages.list_messages(session_id)
    [part] = [p for p in rows[-1].parts if isinstance(p, ToolPart)]
    assert part.tool_name == "mcp__time__get_current_time" and "day_of_week" in json.dumps(part.output)
    window.resize(1000, 700)
    await asyncio.sleep(0.3)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "pi_mcp_tool_turn.png"))
