"""Providers from the UI against the real core: add one pointed at a scripted OpenAI-compatible
server on 127.0.0.1, store its key in the keyring, chat with its model (streamed, persisted);
edit and delete; and a machine without a keyring is told how to fix it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import keyring
import pytest
from keyring.backends import fail
from keyring.errors import PasswordSetError

from cherry_desktop.core.storage.credentials import FIX_HINT, provider_key_name
from cherry_desktop.ui.chat import IssueWords
from cherry_desktop.ui.dialogs import ProvidersDialog
from tests.fakes.memory_keyring import MemoryKeyring
from tests.fakes.scripted_provider_server import Reply, ScriptedServer, openai_delta, sse
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


async def snap(widget: Any, name: str) -> None:
    """Show `widget`, let it lay out and paint, save it under artifacts/ to look at."""
    widget.show()
    await asyncio.sleep(0.15)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert widget.grab().save(str(ARTIFACTS / name))


def _texts(widget: Any) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


async def test_add_provider_store_key_then_chat_streams_and_persists(controller: Any, ui_core: Any,
                                                                    provider_server: ScriptedServer) -> None:
    window = controller.open_window(None)
    dialog = ProvidersDialog(controller.bridges.providers, None, window)
    panel = dialog.panel
    provider_id = panel.add_provider(None)
    assert panel.provider_id == provider_id and panel.name_edit.text() == "New provider"
    panel.name_edit.setText("Scripted")
    panel.name_edit.editingFinished.emit()
    panel.type_combo.setCurrentIndex(panel.type_combo.findData("openai-compatible"))
    panel.url_edit.setText(provider_server.base + "/v1")
    panel.url_edit.editingFinished.emit()
    panel.model_edit.setText("scripted-1")
    panel.add_model()
    assert panel.model_ids() == [f"{provider_id}::scripted-1"]
    panel.key_edit.setText("sk-local-123")
    assert panel.save_key()
    assert panel.key_status.text() == "A key is stored in the system keyring."
    assert panel.key_edit.text() == "" and panel.remove_key_button.isEnabled()
    record = ui_core.repos.providers.get_provider(provider_id)
    assert (record.name, record.type, record.base_url, record.enabled) == \
        ("Scripted", "openai-compatible", provider_server.base + "/v1", True)
    assert "Scripted" in _texts(panel.provider_list)
    await snap(dialog, "providers_dialog.png")
    dialog.reject()
    assert not dialog.isVisible()

    # A new chat starts on the model of the provider that has a key.
    window.new_chat()
    topic_id = window.topic_id
    assert ui_core.repos.topics.get_topic(topic_id).model == f"{provider_id}::scripted-1"
    assert window.chat_header.notice_text() == ""
    provider_server.replies.append(Reply(pieces=[
        (0, openai_delta(content="Hello")), (0.05, openai_delta(content=" from")),
        (0.05, openai_delta(content=" 127.0.0.1")), (0, openai_delta(finish="stop")),
        (0, sse("[DONE]"))]))
    deltas: list[str] = []
    window.listener.chunks_ready.connect(
        lambda batch: deltas.extend(c.chunk.delta for c in batch if c.chunk.type == "text-delta"))
    finished: list[str] = []
    window.turn_finished.connect(lambda _t, status: finished.append(status))
    task = window.submit("Hi model", "send")
    assert task is not None
    await until(lambda: finished)
    await until(lambda: "Hello from 127.0.0.1" in window.live_text())
    assert finished == ["success"]
    assert "".join(deltas) == "Hello from 127.0.0.1"  # arrived as chunks through the window's listener
    got = provider_server.received[0]
    assert got.path == "/v1/chat/completions" and got.headers["authorization"] == "Bearer sk-local-123"
    assert got.body["model"] == "scripted-1" and got.body["messages"][-1] == {"role": "user", "content": "Hi model"}
    await until(lambda: [m.status for m in ui_core.repos.messages.list_messages(topic_id)] == ["success", "success"])
    rows = ui_core.repos.messages.list_messages(topic_id)
    assert [r.role for r in rows] == ["user", "assistant"]
    assert rows[1].status == "success" and rows[1].model_id == f"{provider_id}::scripted-1"
    assert rows[1].to_ui_message().text() == "Hello from 127.0.0.1"
    # The key lives in the keyring only.
    assert ui_core.credentials.get(provider_key_name(provider_id)) == "sk-local-123"
    ui_core.repos.providers.list_providers()  # the DB is still readable while we look at its file
    assert b"sk-local-123" not in ui_core.paths.database_file.read_bytes()
    await controller.capture_when_idle(ARTIFACTS / "chat_with_added_provider.png", window=window)


async def test_edit_disable_and_delete_a_provider_with_models_and_key(controller: Any, ui_core: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = ProvidersDialog(controller.bridges.providers, "openai")
    panel = dialog.panel
    assert panel.provider_id == "openai" and panel.name_edit.text() == "OpenAI"
    assert panel.url_edit.text() == "https://api.openai.com/v1"
    assert panel.type_combo.currentData() == "openai"
    assert panel.provider_ids()[:5] == ["anthropic", "openai", "openrouter", "ollama", "lmstudio"]
    # Models: add one, remove one.
    panel.model_edit.setText("o3-mini")
    panel.model_edit.returnPressed.emit()
    assert "openai::o3-mini" in panel.model_ids()
    panel.model_list.setCurrentRow(panel.model_ids().index("openai::gpt-4o"))
    panel.remove_model_button.click()
    assert "openai::gpt-4o" not in panel.model_ids()
    assert ui_core.repos.providers.find_model("openai::gpt-4o") is None
    # A typed name is applied even when the dialog closes straight away.
    panel.name_edit.setText("OpenAI (work)")
    panel.key_edit.setText("sk-work")
    dialog.reject()
    assert ui_core.repos.providers.get_provider("openai").name == "OpenAI (work)"
    assert ui_core.credentials.get(provider_key_name("openai")) == "sk-work"
    # Turned off: listed as off, its models leave the chat picker.
    dialog = ProvidersDialog(controller.bridges.providers, "openai")
    panel = dialog.panel
    panel.enabled_check.setChecked(False)
    assert "OpenAI (work) (off)" in _texts(panel.provider_list)
    assert not any(c.provider_id == "openai" for c in controller.bridges.providers.chat_models())
    # Another type shows the Anthropic-compatibility switch; setting it makes Claude Code accept it.
    panel.select_provider("ollama")
    assert panel.anthropic_check.isVisibleTo(panel)
    assert panel.key_status.text() == "No key needed for a server on this computer."
    panel.anthropic_check.setChecked(True)
    assert ui_core.repos.providers.get_provider("ollama").settings == {"anthropic_compatible": True}
    panel.select_provider("anthropic")
    assert not panel.anthropic_check.isVisibleTo(panel)
    assert panel.key_status.text() == \
        "No key stored. Chats need one; Claude Code agents use your own Claude Code login."
    # Delete: the record, its models and its key go.
    panel.select_provider("openai")
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    panel.delete_button.click()
    assert ui_core.repos.providers.find_provider("openai") is None
    assert ui_core.repos.providers.list_models("openai") == []
    assert ui_core.credentials.get(provider_key_name("openai")) is None
    assert "openai" not in panel.provider_ids() and panel.provider_id is not None
    # From a preset: Anthropic again, with its models, under a fresh id.
    new_id = panel.add_provider("anthropic")
    assert new_id == "anthropic-2"
    assert {m.model_id for m in ui_core.repos.providers.list_models(new_id)} == \
        {"claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5"}
    dialog.reject()


async def test_settings_has_a_providers_tab_and_saves_a_typed_key(controller: Any, ui_core: Any) -> None:
    from cherry_desktop.ui.dialogs import SettingsDialog

    dialog = SettingsDialog(controller.bridges)
    tabs = [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
    assert tabs == ["General", "Providers", "API gateway", "Backups", "MCP servers", "Skills"]
    dialog.show_providers("openrouter")
    assert dialog.providers.name_edit.text() == "OpenRouter"
    dialog.providers.key_edit.setText("sk-or")
    await snap(dialog, "settings_providers_tab.png")
    dialog.save()
    assert ui_core.credentials.get(provider_key_name("openrouter")) == "sk-or"
    dialog.deleteLater()


async def test_without_a_keyring_the_fix_is_shown(controller: Any, ui_core: Any) -> None:
    assert IssueWords().keyring_hint() == FIX_HINT  # the UI words are core's, translated
    keyring.set_keyring(fail.Keyring())
    try:
        topic = ui_core.repos.topics.create_topic(name="K", model="anthropic::claude-sonnet-4-5")
        window = controller.open_window(topic.id)
        notice = window.chat_header.notice_text()
        assert notice.startswith("Anthropic needs an API key, but no key can be stored on this system.")
        assert FIX_HINT in notice
        assert window.submit("hello", "send") is None and FIX_HINT in window.last_error
        dialog = ProvidersDialog(controller.bridges.providers, "anthropic", window)
        panel = dialog.panel
        assert panel.keyring_banner.isVisibleTo(panel) and panel.keyring_banner.text() == FIX_HINT
        assert not panel.key_edit.isEnabled() and not panel.save_key_button.isEnabled()
        assert panel.key_status.text() == "Keys cannot be stored until a keyring is available (see above)."
        # Everything else still works without keys.
        panel.model_edit.setText("claude-extra")
        panel.add_model()
        assert "anthropic::claude-extra" in panel.model_ids()
        await snap(dialog, "providers_no_keyring.png")
        dialog.reject()
        await controller.capture_when_idle(ARTIFACTS / "chat_no_keyring.png", window=window)
    finally:
        keyring.set_keyring(MemoryKeyring())


class _LockedKeyring(MemoryKeyring):
    """A backend that is there but refuses to store (a locked or broken keychain)."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise PasswordSetError("the keychain is locked")


async def test_a_key_that_cannot_be_stored_keeps_the_dialog_open_with_the_fix(controller: Any) -> None:
    keyring.set_keyring(_LockedKeyring())
    try:
        dialog = ProvidersDialog(controller.bridges.providers, "openai")
        dialog.show()
        dialog.panel.key_edit.setText("sk-nope")
        dialog.reject()
        assert dialog.isVisible()
        assert dialog.panel.key_error.text() == FIX_HINT
        await snap(dialog, "providers_key_not_stored.png")
        dialog.panel.key_edit.clear()
        dialog.reject()
        assert not dialog.isVisible()
    finally:
        keyring.set_keyring(MemoryKeyring())


async def test_a_chat_whose_provider_was_deleted_is_explained(controller: Any, ui_core: Any) -> None:
    """The header says it at once; a send is not refused (a model missing from the records may
    still be served), so the turn fails in core and the row shows that error, not a hang."""
    from cherry_desktop.ui.chat import ErrorBlock

    topic = ui_core.repos.topics.create_topic(name="Old", model="gone::model-x")
    window = controller.open_window(topic.id)
    expected = "The model of this chat is no longer available. Choose another one."
    assert window.chat_header.notice_text() == expected
    assert window.chat_header.picker.currentText() == "gone::model-x (unavailable)"
    finished: list[str] = []
    window.turn_finished.connect(lambda _t, status: finished.append(status))
    assert window.submit("still there?", "send") is not None
    await until(lambda: finished == ["error"])
    await until(lambda: bool(window.message_view.rows()[-1].findChildren(ErrorBlock)))
    error = window.message_view.rows()[-1].findChildren(ErrorBlock)[0].text()
    assert "no provider 'gone'" in error
    assert ui_core.repos.messages.branch(topic.id)[-1].status == "error"
    assert window.chat_header.notice_text() == expected


async def test_an_abandoned_async_generator_is_closed_on_the_loop(controller: Any) -> None:
    """What a provider leaves behind at `[DONE]`: its cleanup must run on the qasync loop
    (httpcore awaits there), not synchronously in the garbage collector."""
    import gc

    cleaned: list[str] = []

    async def reader() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            await asyncio.sleep(0)  # an await in cleanup, as httpcore's
            cleaned.append("on the loop")

    agen = reader()
    async for _ in agen:
        break
    del agen
    gc.collect()
    await until(lambda: cleaned)
    assert cleaned == ["on the loop"]


async def test_with_the_demo_and_no_key_a_new_chat_gets_the_demo_model(controller: Any, ui_core: Any) -> None:
    """`--demo` on a fresh machine: no key stored for the seeded cloud providers, so a new
    chat uses the demo model (it answers offline) instead of the first cloud model, whose
    header could only say a key is missing."""
    from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records

    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), "http://127.0.0.1:9")
    choices = controller.bridges.providers.chat_models()
    assert choices[0].unique_model_id != DEMO_UNIQUE_MODEL_ID  # the seeded providers come first
    # A data dir that once ran --demo, started without it: the demo's server is not there.
    assert controller.bridges.providers.default_chat_model() == choices[0].unique_model_id
    ui_core.demo = object()  # --demo: its server runs
    assert controller.bridges.providers.default_chat_model() == DEMO_UNIQUE_MODEL_ID
    window = controller.open_window(None)
    window.new_chat()
    assert window.chat_header.current_model() == DEMO_UNIQUE_MODEL_ID
    assert not window.chat_header.notice.isVisibleTo(window)
    window.close()
    ui_core.demo = None
