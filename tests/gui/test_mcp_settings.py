"""What a person does, in the real windows: Settings > MCP servers, add `mcp-server-time` (the
real PyPI server, over stdio), test it (its tools listed), save it (ready), choose a tool's
approval; tick it for the demo agent in the agent dialog; then in the agent's session the real
Claude Code CLI calls it, the approval card asks, Allow runs it on the server and the answer
is persisted. Screenshots: artifacts/mcp_settings.png, artifacts/mcp_tool_turn.png."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.messages import ToolPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import ensure_demo_records
from cherry_desktop.ui.dialogs import AgentDialog, SettingsDialog
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(150)]

TIME_SERVER = str(Path(sys.executable).parent / "mcp-server-time")


async def test_add_a_server_in_settings_use_it_from_an_agent_with_the_card(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer) -> None:
    settings = SettingsDialog(controller.bridges)
    panel = settings.mcp
    settings.tabs.setCurrentWidget(panel)
    settings.resize(900, 640)
    settings.show()
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    panel.name_edit.setText("time")
    panel.command_edit.setText(TIME_SERVER)
    panel.env_edit.setPlainText("TZ_HINT=Etc/UTC")
    qtbot.mouseClick(panel.test_button, Qt.MouseButton.LeftButton)
    await until(lambda: panel.status_label.text() and not panel.status_label.text().startswith("Testing"), limit=60)
    assert panel.status_label.text() == "The test connected: 2 tools"
    assert panel.tools_table.rowCount() == 2
    qtbot.mouseClick(panel.save_button, Qt.MouseButton.LeftButton)
    [config] = ui_core.mcp.repository.list()
    assert config.env_names == ("TZ_HINT",)
    await until(lambda: panel.status_label.text() == "Ready: 2 tools", limit=60)
    assert "Ready: 2 tools" in panel.server_list.item(0).text()
    # convert_time never runs for anyone; get_current_time asks (the default).
    controls = panel.tool_controls("convert_time")
    assert controls is not None
    _switch, combo = controls
    combo.setCurrentIndex(combo.findData("deny"))
    assert ui_core.mcp.hub.rule_for("mcp__time__convert_time").value == "deny"
    await asyncio.sleep(0.3)
    ARTIFACTS.mkdir(exist_ok=True)
    assert settings.grab().save(str(ARTIFACTS / "mcp_settings.png"))
    settings.close()

    repos = ui_core.repos
    agent_id, session_id, _workspace = ensure_demo_records(
        repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    dialog = AgentDialog(controller.bridges, agent_id)
    item = dialog.mcp_list.item(0)
    assert item.text() == "time" and not dialog.mcp_list.isHidden()
    item.setCheckState(Qt.CheckState.Checked)
    dialog.save()
    assert repos.agents.get_agent(agent_id).config["mcps"] == [config.id]

    window = controller.open_window(session_topic_id(session_id))
    server.enqueue(tool_use("mcp__time__get_current_time", {"timezone": "Etc/UTC"}, preamble="Let me look."),
                   text("It is Wednesday in UTC."))
    window.composer.editor.setPlainText("what time is it?")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    card = window.approval_card
    await until(lambda: window.approval_waiting() and card.armed, limit=60)
    qtbot.mouseClick(card.allow_button, Qt.MouseButton.LeftButton)
    await until(lambda: not window.is_streaming()
                and "It is Wednesday in UTC." in window.message_view.rows()[-1].text(), limit=60)
    rows = repos.session_messages.list_messages(session_id)
    assert [r.status for r in rows][-2:] == ["success", "success"]
    [part] = [p for p in rows[-1].parts if isinstance(p, ToolPart)]
    assert part.tool_name == "mcp__time__get_current_time" and "day_of_week" in json.dumps(part.output)
    window.resize(1000, 700)
    await asyncio.sleep(0.3)
    assert window.grab().save(str(ARTIFACTS / "mcp_tool_turn.png"))
