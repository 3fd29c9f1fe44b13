"""A first start without --demo: default providers, an empty state that says what to do, a new
chat that picks a model and says what is missing, and a Claude Code agent on the Anthropic models."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.state.topics import is_agent_session_topic
from cherry_desktop.ui import start_ui
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


async def test_fresh_start_says_what_to_do_and_keeps_the_composer_off(ui_core: Any, qapp: Any,
                                                                      no_leaked_windows: None) -> None:
    controller = start_ui(ui_core)
    try:
        window = controller.windows[0]
        assert window.topic_id is None
        assert window.empty_state.isVisibleTo(window) and not window.message_view.isVisibleTo(window)
        assert not window.chat_header.isVisibleTo(window)
        assert window.empty_state.heading.text() == "Welcome to Cherry Desktop"
        assert "cherry-desktop --demo" in window.empty_state.hint.text()
        assert not window.composer.isEnabled()
        assert window.composer.editor.placeholderText() == "Open or create a chat to write a message"
        assert window.submit("hello", "send") is None
        # The first start created the default providers, so models can be picked at once.
        assert {"anthropic", "openai", "openrouter", "ollama", "lmstudio"} <= \
            {p.id for p in ui_core.repos.providers.list_providers()}
        assert await controller.capture_when_idle(ARTIFACTS / "first_run_empty.png", window=window)
    finally:
        await controller.aclose()


async def test_empty_state_new_chat_opens_a_chat_on_a_default_model(controller: Any, ui_core: Any) -> None:
    window = controller.open_window(None)
    window.empty_state.new_chat_button.click()
    topic_id = window.topic_id
    assert topic_id is not None and not is_agent_session_topic(topic_id)
    assert window.composer.isEnabled() and not window.empty_state.isVisibleTo(window)
    assert window.chat_header.isVisibleTo(window)
    # No key stored anywhere yet: the first model, and the header says what it still needs.
    model = ui_core.repos.topics.get_topic(topic_id).model
    assert model is not None and model.startswith("anthropic::")
    assert window.chat_header.current_model() == model
    picker = window.chat_header.picker
    listed = [picker.itemData(i) for i in range(picker.count()) if picker.itemData(i)]
    assert {"anthropic::claude-sonnet-4-5", "openai::gpt-4o", "ollama::llama3.2"} <= set(listed)
    assert window.chat_header.notice_text() == "Anthropic needs an API key. Add it in Providers, then send again."
    assert window.chat_header.fix_button.isVisibleTo(window)
    # Sending is refused with the same words; nothing is written, the text stays.
    window.composer.editor.setPlainText("Hi there")
    window.composer.send_button.click()
    assert window.last_error == "Anthropic needs an API key. Add it in Providers, then send again."
    assert window.composer.editor.toPlainText() == "Hi there"
    assert ui_core.repos.messages.list_messages(topic_id) == []
    # A local model needs no key: picking it clears the notice and is stored on the topic.
    window.chat_header.choose("ollama::llama3.2")
    assert ui_core.repos.topics.get_topic(topic_id).model == "ollama::llama3.2"
    assert window.chat_header.notice_text() == ""
    # The next new chat starts on the model that works.
    window.new_chat()
    assert ui_core.repos.topics.get_topic(window.topic_id).model == "ollama::llama3.2"
    await controller.capture_when_idle(ARTIFACTS / "first_run_new_chat.png", window=window)


async def test_chat_without_a_model_is_explained(controller: Any, ui_core: Any) -> None:
    topic = ui_core.repos.topics.create_topic(name="Plain")
    window = controller.open_window(topic.id)
    assert window.chat_header.current_model() is None
    assert window.chat_header.picker.currentText() == "Choose a model…"
    expected = "This chat has no model yet. Choose one in the Model list above."
    assert window.chat_header.notice_text() == expected
    assert window.submit("hello", "send") is None
    assert window.last_error == expected
    assert ui_core.repos.messages.list_messages(topic.id) == []


async def test_a_turned_off_provider_is_explained_and_picker_follows_providers(controller: Any, ui_core: Any) -> None:
    topic = ui_core.repos.topics.create_topic(name="Off", model="openai::gpt-4o")
    ui_core.credentials.set("provider:openai:api_key", "sk-x")
    window = controller.open_window(topic.id)
    assert window.chat_header.notice_text() == ""
    controller.bridges.providers.update_provider("openai", enabled=False)
    assert window.chat_header.notice_text() == \
        "OpenAI is turned off. Turn it on in Providers, or choose another model."
    picker = window.chat_header.picker
    assert picker.itemText(picker.currentIndex()) == "openai::gpt-4o (unavailable)"
    assert "openai::gpt-4.1-mini" not in [picker.itemData(i) for i in range(picker.count())]
    assert window.submit("hello", "send") is None


async def test_issue_words_are_translated(controller: Any, ui_core: Any) -> None:
    topic = ui_core.repos.topics.create_topic(name="T", model="anthropic::claude-sonnet-4-5")
    controller.bridges.settings.update_settings(language="zh_CN", theme="dark")
    try:
        window = controller.open_window(topic.id)
        assert window.chat_header.notice_text() == "Anthropic 需要 API 密钥。请在“服务商”中添加，然后重新发送。"
        assert window.empty_state.new_chat_button.text() == "新建对话"
        assert window.submit("你好", "send") is None
        assert window.last_error == "Anthropic 需要 API 密钥。请在“服务商”中添加，然后重新发送。"
        await controller.capture_when_idle(ARTIFACTS / "first_run_chat_zh_CN_dark.png", window=window)
        empty = controller.open_window(None)
        await controller.capture_when_idle(ARTIFACTS / "first_run_empty_zh_CN_dark.png", window=empty)
    finally:
        controller.bridges.settings.update_settings(language="en_US", theme="light")


async def test_claude_code_agent_takes_every_enabled_model_and_opens_a_session(controller: Any, ui_core: Any,
                                                                              tmp_path: Path) -> None:
    from cherry_desktop.ui.dialogs import AgentDialog

    window = controller.open_window(None)
    dialog = AgentDialog(controller.bridges, None, window)
    models = [dialog.model_combo.itemData(i) for i in range(dialog.model_combo.count())]
    # The models of providers that do not speak Anthropic Messages run through the API gateway.
    enabled = {p.id for p in ui_core.repos.providers.list_providers() if p.enabled}
    assert sorted(models) == sorted(m.unique_model_id for m in ui_core.repos.providers.list_models()
                                    if m.provider_id in enabled)
    assert "anthropic::claude-sonnet-4-5" in models
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("anthropic::claude-sonnet-4-5"))
    assert dialog.model_hint.text() == \
        "No API key is stored for Anthropic: Claude Code signs in with your own Claude Code login."
    # pi has no login of its own: the hint follows the runtime's descriptor.
    dialog.runtime_combo.setCurrentIndex(dialog.runtime_combo.findData("pi"))
    assert dialog.runtime_combo.currentText() == "pi"
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("anthropic::claude-sonnet-4-5"))
    assert dialog.model_hint.text() == "No API key is stored for Anthropic, and pi needs one: add it in Providers."
    dialog.runtime_combo.setCurrentIndex(dialog.runtime_combo.findData("claude-code"))
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("anthropic::claude-sonnet-4-5"))
    workspace = tmp_path / "project"
    workspace.mkdir()
    dialog.name_edit.setText("Coder")
    dialog.workspace_edit.setText(str(workspace))
    dialog.show()
    await asyncio.sleep(0.15)
    dialog.grab().save(str(ARTIFACTS / "first_run_agent_dialog.png"))
    dialog.save()
    agent = ui_core.repos.agents.get_agent(dialog.agent_id)
    assert (agent.type, agent.model) == ("claude-code", "anthropic::claude-sonnet-4-5")
    window.sidebar.reload()
    window.new_session(agent.id)
    topic_id = window.topic_id
    assert topic_id is not None and is_agent_session_topic(topic_id)
    session = ui_core.repos.sessions.get_session(topic_id.split(":", 1)[1])
    assert session.model == "anthropic::claude-sonnet-4-5"
    assert ui_core.repos.agents.get_workspace(session.workspace_id).path == str(workspace)
    # An agent session has no chat model picker and sends through the agent host.
    assert not window.chat_header.isVisibleTo(window) and window.composer.isEnabled()
    assert controller.bridges.providers.chat_issue(topic_id) is None
    ui_core.credentials.set("provider:anthropic:api_key", "sk-ant")
    dialog2 = AgentDialog(controller.bridges, agent.id, window)
    assert dialog2.model_hint.text() == ""
    await until(lambda: not window.is_streaming())
