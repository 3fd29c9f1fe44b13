"""Providers: "Test connection" (one cheap request, a failure worded in each locale) and "Fetch
models…" (the provider's model list, picked from a dialog), clicked in the real panel against
scripted model servers on 127.0.0.1; a missing keyring is warned about once, not per provider."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import socket
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import Qt

from cherry_desktop.core.messages import ErrorCode
from cherry_desktop.core.storage.credentials import provider_key_name
from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.ui.chat import ErrorWords
from cherry_desktop.ui.dialogs import ProvidersDialog
from cherry_desktop.ui.shell import i18n
from tests.fakes.scripted_provider_server import Reply, ScriptedServer
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


def json_reply(status: int, body: Any) -> Reply:
    return Reply(status=status, pieces=[(0, json.dumps(body))], content_type="application/json")


async def snap(widget: Any, name: str) -> None:
    widget.show()
    await asyncio.sleep(0.15)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert widget.grab().save(str(ARTIFACTS / name))


def scripted_provider(panel: Any, base_url: str, kind: str = "openai-compatible", model: str = "scripted-1") -> str:
    provider_id = str(panel.add_provider(None))
    panel.name_edit.setText("Scripted")
    panel.name_edit.editingFinished.emit()
    panel.type_combo.setCurrentIndex(panel.type_combo.findData(kind))
    panel.type_combo.activated.emit(panel.type_combo.currentIndex())
    panel.url_edit.setText(base_url)
    panel.url_edit.editingFinished.emit()
    if model:
        panel.model_edit.setText(model)
        panel.add_model()
    return provider_id


async def click_and_wait(qtbot: Any, panel: Any, button: Any) -> str:
    row = panel.check_row
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    await until(lambda: row.test_button.isEnabled() and not row.status.isHidden())
    return str(row.status.text())


async def test_test_connection_words_a_refused_key_in_each_locale_then_connects(
        controller: Any, ui_core: Any, provider_server: ScriptedServer, qtbot: Any, tmp_path: Any) -> None:
    dialog = ProvidersDialog(controller.bridges.providers, None)
    panel = dialog.panel
    provider_id = scripted_provider(panel, provider_server.base + "/v1")
    panel.key_edit.setText("sk-wrong")  # typed, not saved: the test stores it first and uses it
    refused = {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
    translations = i18n.Translations(cache_dir=tmp_path)
    try:
        for locale in ("en_US", "zh_CN", "zh_TW"):
            translations.install(locale)
            provider_server.replies.append(json_reply(401, refused))
            text = await click_and_wait(qtbot, panel, panel.check_row.test_button)
            headline = ErrorWords().headline(ErrorCode.AUTH_FAILED)
            assert text == f"{headline}\nHTTP 401 Unauthorized: Incorrect API key provided", locale
            if locale != "en_US":
                assert headline != "The model's service refused the API key. Check the key in Providers."
            if locale == "zh_CN":
                await snap(dialog, "provider_test_refused_zh_CN.png")
    finally:
        translations.install("en_US")
    assert ui_core.credentials.get(provider_key_name(provider_id)) == "sk-wrong"
    assert len(provider_server.received) == 3
    sent = provider_server.received[0]
    # One cheap request: one word in, one token out, not streamed, with the key.
    assert sent.path == "/v1/chat/completions" and sent.headers["authorization"] == "Bearer sk-wrong"
    assert sent.body == {"model": "scripted-1", "max_tokens": 1, "stream": False,
                         "messages": [{"role": "user", "content": "ping"}]}

    panel.key_edit.setText("sk-right")
    provider_server.replies.append(json_reply(200, {"id": "c1", "object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "p"}, "finish_reason": "length"}]}))
    assert await click_and_wait(qtbot, panel, panel.check_row.test_button) == "Connected: scripted-1 answered."
    assert provider_server.received[-1].headers["authorization"] == "Bearer sk-right"
    assert panel.check_row.status.property("ok") is True
    await snap(dialog, "provider_test_connected.png")

    # Another provider selected: the outcome was not about it.
    panel.select_provider("openai")
    assert panel.check_row.status.isHidden()
    dialog.reject()
    dialog.deleteLater()


async def test_an_unreachable_provider_is_said_so(controller: Any, qtbot: Any) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    dialog = ProvidersDialog(controller.bridges.providers, None)
    scripted_provider(dialog.panel, f"http://127.0.0.1:{port}/v1")
    text = await click_and_wait(qtbot, dialog.panel, dialog.panel.check_row.test_button)
    assert text.startswith(ErrorWords().headline(ErrorCode.NETWORK_ERROR) + "\ncould not reach http://127.0.0.1:")
    assert dialog.panel.check_row.status.property("ok") is False
    dialog.reject()
    dialog.deleteLater()


async def test_fetch_models_from_the_demo_server_and_add_the_picked_ones(
        controller: Any, ui_core: Any, server: ScriptedModelServer, qtbot: Any) -> None:
    dialog = ProvidersDialog(controller.bridges.providers, None)
    panel = dialog.panel
    provider_id = scripted_provider(panel, server.base_url, kind="anthropic", model="claude-demo")
    panel.key_edit.setText("sk-ant-demo")
    text = await click_and_wait(qtbot, panel, panel.check_row.fetch_button)
    assert text == "Models the provider lists: 2."
    picker = panel.check_row.picker
    assert picker is not None
    await until(picker.isVisible)
    listed = {item.data(Qt.ItemDataRole.UserRole)[0]: item for item in picker.items()}
    assert sorted(listed) == ["claude-demo", "claude-demo-fast"]
    # The model already added is ticked and cannot be unticked.
    assert listed["claude-demo"].checkState() == Qt.CheckState.Checked
    assert not listed["claude-demo"].flags() & Qt.ItemFlag.ItemIsEnabled
    picker.filter.setText("fast")
    assert listed["claude-demo"].isHidden() and not listed["claude-demo-fast"].isHidden()
    rect = picker.list.visualItemRect(listed["claude-demo-fast"])
    qtbot.mouseClick(picker.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    if listed["claude-demo-fast"].checkState() != Qt.CheckState.Checked:  # a click on the text selects
        qtbot.keyClick(picker.list, Qt.Key.Key_Space)
    assert listed["claude-demo-fast"].checkState() == Qt.CheckState.Checked
    await snap(picker, "provider_fetched_models.png")
    qtbot.mouseClick(picker.add_button, Qt.MouseButton.LeftButton)
    assert panel.model_ids() == [f"{provider_id}::claude-demo", f"{provider_id}::claude-demo-fast"]
    assert panel.check_row.status.text() == "Models added: 1."
    got = next(r for r in server.requests if r.path == "/v1/models")
    assert got.method == "GET" and got.headers["anthropic-version"] == "2023-06-01"
    assert got.key_sha256 == hashlib.sha256(b"sk-ant-demo").hexdigest()  # the key went along (as x-api-key)

    # The connection test asks the selected model for one token, through the Messages API.
    panel.model_list.setCurrentRow(1)
    assert await click_and_wait(qtbot, panel, panel.check_row.test_button) == "Connected: claude-demo-fast answered."
    ping = [r for r in server.requests if r.path == "/v1/messages"][-1]
    assert ping.json["max_tokens"] == 1 and ping.json["model"] == "claude-demo-fast" and not ping.stream
    dialog.reject()
    dialog.deleteLater()


async def test_a_provider_without_a_model_list_says_to_add_models_by_id(
        controller: Any, provider_server: ScriptedServer, qtbot: Any) -> None:
    dialog = ProvidersDialog(controller.bridges.providers, None)
    scripted_provider(dialog.panel, provider_server.base + "/v1", model="")
    provider_server.replies.append(json_reply(404, {"error": {"message": "Not found"}}))
    text = await click_and_wait(qtbot, dialog.panel, dialog.panel.check_row.fetch_button)
    assert text == "This provider does not list its models: add them by id below.\nHTTP 404 Status: Not found"
    assert provider_server.received[-1].path == "/v1/models"
    assert dialog.panel.check_row.picker is None
    # Without a model, the connection test asks the model list instead.
    provider_server.replies.append(json_reply(200, {"object": "list", "data": [{"id": "m1"}, {"id": "m2"}]}))
    text = await click_and_wait(qtbot, dialog.panel, dialog.panel.check_row.test_button)
    assert text == "Connected. Models the provider lists: 2."
    dialog.reject()
    dialog.deleteLater()


async def test_without_a_keyring_the_warning_is_logged_once(controller: Any, caplog: pytest.LogCaptureFixture) -> None:
    keyring.set_keyring(fail.Keyring())
    caplog.set_level(logging.WARNING, logger="cherry_desktop.core.storage.credentials")
    window = controller.open_window(None)
    dialog = ProvidersDialog(controller.bridges.providers, None, window)
    for provider_id in dialog.panel.provider_ids():  # every provider's key status is read
        dialog.panel.select_provider(provider_id)
    controller.bridges.providers.default_chat_model()
    warnings = [r for r in caplog.records if r.getMessage().startswith("keyring unavailable")]
    assert len(warnings) == 1
    dialog.reject()
    window.close()
