"""Settings > API gateway against the real core: turn it on (a key is made and shown, the base
URL answers with it), regenerate the key (the old one stops working), a port in use is said,
turn it off; and the copyable examples carry the URL and key."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from PySide6.QtGui import QGuiApplication

from cherry_desktop.core.gateway.control import GatewayControl
from cherry_desktop.core.net.http_server import bind_loopback
from cherry_desktop.ui.dialogs import SettingsDialog
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


@pytest.fixture
async def gateway(ui_core: Any) -> AsyncIterator[GatewayControl]:
    ui_core.gateway = GatewayControl(ui_core, binding=ui_core.agent_runtime)
    ui_core.agent_runtime.set_gateway_access(ui_core.gateway)
    await ui_core.gateway.apply()
    try:
        yield ui_core.gateway
    finally:
        await ui_core.gateway.stop()


def free_port() -> int:
    sock = bind_loopback(0)
    port = int(sock.getsockname()[1])
    sock.close()
    return port


async def test_enable_copy_regenerate_and_disable(controller: Any, ui_core: Any, gateway: GatewayControl) -> None:
    dialog = SettingsDialog(controller.bridges)
    panel = dialog.gateway
    assert not panel.enabled.isChecked() and panel.status.text() == "Off."
    assert panel.key.text() == ""  # no key before the first enable
    port = free_port()
    panel.port.setValue(port)
    panel.enabled.setChecked(True)
    await until(lambda: panel.status.text().startswith("Running"))
    assert panel.base_url.text() == f"http://127.0.0.1:{port}"
    key = panel.key.text()
    assert key.startswith("cs-sk-") and panel.key.echoMode() == panel.key.EchoMode.Password
    assert ui_core.settings.settings.gateway_enabled and ui_core.settings.settings.gateway_port == port
    panel.show_key.click()
    assert panel.key.echoMode() == panel.key.EchoMode.Normal
    dialog.tabs.setCurrentWidget(panel)
    dialog.show()
    await asyncio.sleep(0.2)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert dialog.grab().save(str(ARTIFACTS / "gateway_settings.png"))
    # The examples carry this gateway's URL and key; Copy puts them on the clipboard.
    for kind in ("curl", "openai", "claude"):
        panel.example_kind.setCurrentIndex(panel.example_kind.findData(kind))
        assert panel.base_url.text() in panel.example.toPlainText() and key in panel.example.toPlainText()
    panel.findChild(type(panel.show_key), "gatewayCopyExample").click()
    assert QGuiApplication.clipboard().text() == panel.example.toPlainText()
    panel.findChild(type(panel.show_key), "gatewayCopyKey").click()
    assert QGuiApplication.clipboard().text() == key
    async with httpx.AsyncClient(base_url=panel.base_url.text()) as client:
        assert (await client.get("/v1/models", headers={"x-api-key": key})).status_code == 200
        panel.regenerate.click()
        new_key = panel.key.text()
        assert new_key != key and new_key.startswith("cs-sk-")
        assert (await client.get("/v1/models", headers={"x-api-key": key})).status_code == 401
        assert (await client.get("/v1/models", headers={"x-api-key": new_key})).status_code == 200
    panel.enabled.setChecked(False)
    await until(lambda: panel.status.text() == "Off.")
    assert gateway.base_url is None
    dialog.close()


async def test_a_port_in_use_is_said(controller: Any, ui_core: Any, gateway: GatewayControl) -> None:
    taken = bind_loopback(0)
    try:
        port = int(taken.getsockname()[1])
        dialog = SettingsDialog(controller.bridges)
        panel = dialog.gateway
        panel.port.setValue(port)
        panel.enabled.setChecked(True)
        await until(lambda: "in use" in panel.status.text())
        assert panel.status.text() == \
            f"Port {port} on 127.0.0.1 is in use by another program: choose another port."
        dialog.close()
    finally:
        taken.close()


async def test_the_agent_dialog_says_a_model_runs_through_the_gateway(controller: Any, ui_core: Any,
                                                                     gateway: GatewayControl) -> None:
    from cherry_desktop.ui.dialogs import AgentDialog

    ui_core.repos.providers.upsert_provider(id="oai", name="OpenAI-compatible", type="openai-compatible",
                                            base_url="http://127.0.0.1:9/v1", settings={"demo": True})
    ui_core.repos.providers.upsert_model(provider_id="oai", model_id="m1", name="M1")
    dialog = AgentDialog(controller.bridges)
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("oai::m1"))
    assert dialog.model_hint.text() == \
        "Claude Code reaches this model through Cherry's API gateway (Settings, API gateway)."
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("anthropic::claude-sonnet-4-5"))
    assert "signs in with your own Claude Code login" in dialog.model_hint.text()
    dialog.close()
