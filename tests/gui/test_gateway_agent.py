"""What a person does, in the real window: turn the gateway on in Settings, add an
OpenAI-compatible provider (the scripted server's OpenAI side), create a Claude Code agent on its
model, and run a tool turn with its approval: the real CLI, through the gateway. Screenshot:
artifacts/gateway_agent_turn.png."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from cherry_desktop.core.gateway.control import GatewayControl
from cherry_desktop.core.net.http_server import bind_loopback
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo import ScriptedModelServer, text
from cherry_desktop.ui.chat import ErrorBlock
from cherry_desktop.ui.dialogs import AgentDialog, SettingsDialog
from tests.gui._agent_turn import write_turn_allowed_on_the_card
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = [pytest.mark.gui, pytest.mark.integration, pytest.mark.timeout(120)]


@pytest.fixture
async def gateway(ui_core: Any) -> AsyncIterator[GatewayControl]:
    ui_core.gateway = GatewayControl(ui_core, binding=ui_core.agent_runtime)  # as app.py does
    ui_core.agent_runtime.set_gateway_access(ui_core.gateway)
    await ui_core.gateway.apply()
    try:
        yield ui_core.gateway
    finally:
        await ui_core.gateway.stop()


async def test_a_claude_code_tool_turn_on_an_openai_compatible_model(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer, gateway: GatewayControl,
        tmp_path: Path) -> None:
    settings = SettingsDialog(controller.bridges)
    sock = bind_loopback(0)
    port = int(sock.getsockname()[1])
    sock.close()
    settings.gateway.port.setValue(port)
    settings.gateway.enabled.setChecked(True)
    await until(lambda: settings.gateway.status.text().startswith("Running"))
    settings.close()
    repos = ui_core.repos
    repos.providers.upsert_provider(id="local-oai", name="Local OpenAI-compatible", type="openai-compatible",
                                    base_url=server.base_url + "/v1", settings={"demo": True})
    repos.providers.upsert_model(provider_id="local-oai", model_id="qwen-demo", name="Qwen (demo)")
    workspace = tmp_path / "project"
    workspace.mkdir()
    dialog = AgentDialog(controller.bridges)
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("local-oai::qwen-demo"))
    assert "through Cherry's API gateway" in dialog.model_hint.text()
    dialog.name_edit.setText("Coder on Qwen")
    dialog.workspace_edit.setText(str(workspace))
    dialog.save()
    window, session_id = await write_turn_allowed_on_the_card(
        controller, repos, qtbot, server, str(dialog.agent_id), workspace / "note.md",
        "# Written through the gateway\n")
    assert {r.path for r in server.requests_for_model_turns()} == {"/v1/chat/completions"}
    rows = repos.session_messages.list_messages(session_id)
    assert [r.status for r in rows] == ["success", "success"]
    assert [u["message_id"] for u in repos.usage.list(session_id=session_id)] == [rows[1].id, rows[1].id]
    window.resize(1000, 700)
    await asyncio.sleep(0.3)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "gateway_agent_turn.png"))


async def test_with_the_gateway_off_the_error_row_turns_it_on(
        controller: Any, ui_core: Any, qtbot: Any, server: ScriptedModelServer, gateway: GatewayControl,
        tmp_path: Path) -> None:
    sock = bind_loopback(0)
    port = int(sock.getsockname()[1])
    sock.close()
    ui_core.settings.update(gateway_enabled=False, gateway_port=port)
    await gateway.apply()
    repos = ui_core.repos
    repos.providers.upsert_provider(id="local-oai", name="Local OpenAI-compatible", type="openai-compatible",
                                    base_url=server.base_url + "/v1", settings={"demo": True})
    repos.providers.upsert_model(provider_id="local-oai", model_id="qwen-demo", name="Qwen (demo)")
    workspace = tmp_path / "project"
    workspace.mkdir()
    dialog = AgentDialog(controller.bridges)
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("local-oai::qwen-demo"))
    dialog.name_edit.setText("Coder on Qwen")
    dialog.workspace_edit.setText(str(workspace))
    dialog.save()
    agent = repos.agents.get_agent(dialog.agent_id)
    workspace_id = repos.agents.list_workspaces(agent.id)[0].id
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=workspace_id, name="Gateway off",
                                            model=agent.model)
    window = controller.open_window(session_topic_id(session.id))
    window.composer.editor.setPlainText("hello")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)

    def fix_button() -> QPushButton | None:
        rows = window.message_view.rows()
        return rows[-1].findChild(QPushButton, "errorFixButton") if rows else None

    await until(lambda: fix_button() is not None, limit=30)
    row = window.message_view.rows()[-1]
    error = row.findChild(ErrorBlock)
    assert error is not None and "Cherry's API gateway, which is off" in error.text()
    assert server.requests_for_model_turns() == []
    button = fix_button()
    assert button is not None and button.text() == "Turn on the API gateway"
    window.resize(1000, 700)
    await asyncio.sleep(0.2)
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "gateway_off_error_row.png"))
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    await until(lambda: "The API gateway is on" in window.statusBar().currentMessage(), limit=20)
    status = controller.bridges.gateway.status()
    assert status.state == "running" and status.port == port
    assert ui_core.settings.settings.gateway_enabled is True
    # Sent again, the turn runs through the gateway it just turned on.
    server.enqueue(text("Through the gateway now."))
    window.composer.editor.setPlainText("hello again")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    await until(lambda: not window.is_streaming()
                and "Through the gateway now." in window.message_view.rows()[-1].text(), limit=60)
    assert {r.path for r in server.requests_for_model_turns()} == {"/v1/chat/completions"}
