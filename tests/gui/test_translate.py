"""Translating a chat message through the real window and core against the scripted model
server: the menu offers languages, the translation streams under the original, is saved as a
data-translation part and shows again on reopening; a second language adds a block, the same
language replaces it; a failure and a message without a model are said in the block."""

from __future__ import annotations

from typing import Any

import pytest

from cherry_desktop.core.ai.translate import TRANSLATION_MARKER
from cherry_desktop.core.messages import TextPart
from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.demo.bootstrap import DEMO_MODEL_ID, DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from cherry_desktop.demo.replies import http_error
from cherry_desktop.ui.chat import TranslationBlock, translate_row

pytestmark = pytest.mark.gui


def _blocks(window: Any, message_id: str) -> dict[str, TranslationBlock]:
    row = window.message_view.row(message_id)
    return {b.language: b for b in row.findChildren(TranslationBlock)}


async def test_translation_streams_under_the_message_and_is_saved(controller: Any, ui_core: Any,
                                                                   server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    repos = ui_core.repos
    topic = repos.topics.create_topic(name="Greetings", model=DEMO_UNIQUE_MODEL_ID)
    user = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="Say hello")])
    answer = repos.messages.create_message(topic_id=topic.id, role="assistant", parent_id=user.id,
                                           parts=[TextPart(text="Hello, **world**!")], model_id=DEMO_UNIQUE_MODEL_ID)
    window = controller.open_window(topic.id)
    row = window.message_view.row(answer.id)
    assert window.message_view.can_translate(row)

    assert await translate_row(window.message_view, window.bridges.streams, answer.id, "fr") == "done"
    block = _blocks(window, answer.id)["fr"]
    assert block.text == "[French] Hello, **world**!" and block.header.text() == "Translation (Français)"
    request = [r for r in server.requests if TRANSLATION_MARKER in r.system_text][-1]
    assert "into French." in request.system_text and request.last_user_text() == "Hello, **world**!"
    stored = repos.messages.get_message(answer.id)
    parts = [p for p in stored.parts if p.type == "data-translation"]
    assert [(p.id, p.data["text"]) for p in parts] == [("fr", "[French] Hello, **world**!")]  # type: ignore[union-attr]

    # Another language adds a block; the same language again replaces its text.
    assert await translate_row(window.message_view, window.bridges.streams, user.id, "ja") == "done"
    assert await translate_row(window.message_view, window.bridges.streams, answer.id, "zh-CN") == "done"
    assert await translate_row(window.message_view, window.bridges.streams, answer.id, "fr") == "done"
    assert set(_blocks(window, answer.id)) == {"fr", "zh-CN"}
    assert len([p for p in repos.messages.get_message(answer.id).parts if p.type == "data-translation"]) == 2
    # Reopened from the database: the saved translations are shown under their messages.
    window.message_view.reload()
    assert _blocks(window, answer.id)["zh-CN"].text == "[Simplified Chinese] Hello, **world**!"
    assert _blocks(window, user.id)["ja"].text == "[Japanese] Say hello"

    # A failing model: the block says so and nothing is saved.
    server.add_rule(lambda r: TRANSLATION_MARKER in r.system_text, http_error(400, "translator refused"))
    assert await translate_row(window.message_view, window.bridges.streams, answer.id, "de") == "error"
    assert _blocks(window, answer.id)["de"].header.text() == "Translation to Deutsch failed"
    assert "de" not in {p.id for p in repos.messages.get_message(answer.id).parts if p.type == "data-translation"}

    # No model anywhere: said in the block, no request made.
    bare = repos.topics.create_topic(name="bare")
    lonely = repos.messages.create_message(topic_id=bare.id, role="user", parts=[TextPart(text="hi")])
    window.show_topic(bare.id)
    before = len(server.requests)
    assert await translate_row(window.message_view, window.bridges.streams, lonely.id, "fr") == "error"
    assert "Choose a model" in _blocks(window, lonely.id)["fr"].note.text()
    assert len(server.requests) == before
    window.close()


async def test_an_agent_session_message_is_translated_and_saved_with_it(controller: Any, ui_core: Any,
                                                                       server: ScriptedModelServer) -> None:
    """An agent's answer translates like a chat's: by the session's model through the chat
    provider (never through the runtime), saved as the session message's data-translation part."""
    from cherry_desktop.core.state.topics import session_topic_id

    _agent_id, session_id, _ws = ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"),
                                                     server.base_url)
    messages = ui_core.repos.session_messages
    messages.create_message(session_id=session_id, role="user", parts=[TextPart(text="What changed?")])
    answer = messages.create_message(session_id=session_id, role="assistant", model_id=DEMO_UNIQUE_MODEL_ID,
                                     parts=[TextPart(text="I fixed the `parser`.")])
    window = controller.open_window(session_topic_id(session_id))
    assert window.message_view.can_translate(window.message_view.row(answer.id))

    assert await translate_row(window.message_view, window.bridges.streams, answer.id, "de") == "done"
    assert _blocks(window, answer.id)["de"].text == "[German] I fixed the `parser`."
    request = [r for r in server.requests if TRANSLATION_MARKER in r.system_text][-1]
    assert request.json["model"] == DEMO_MODEL_ID and request.last_user_text() == "I fixed the `parser`."
    stored = [p for p in messages.get_message(answer.id).parts if p.type == "data-translation"]
    assert [(p.id, p.data["text"]) for p in stored] == [("de", "[German] I fixed the `parser`.")]  # type: ignore[union-attr]
    assert ui_core.repos.messages.find_message(answer.id) is None  # nothing written to the chat tables
    window.message_view.reload()
    assert _blocks(window, answer.id)["de"].text == "[German] I fixed the `parser`."
    window.close()
