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

from cherry_desktop.core.gateway.control import GatewayControl
from cherry_desktop.core.net.http_server import bind_loopback
from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.ui.dialogs import AgentDialog, SettingsDialog
from tests.gui._agent_turn import write_turn_allowed_on_the_card
from tests.gui._scripted import until
from tests.gui.conftest import ARTIFACTS

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
