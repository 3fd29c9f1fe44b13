"""Breaking auto-naming and translation on purpose: the topic deleted while its name is being
asked for, the message deleted while its translation streams. Nothing is written for what is
gone, nothing crashes, nothing stays live."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cherry_desktop.core.ai.naming import NAMING_MARKER
from cherry_desktop.core.ai.translate import TRANSLATION_MARKER, translation_stream_id
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.shared_cache import topic_title_key
from cherry_desktop.demo import ScriptedModelServer, slow_text
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from cherry_desktop.ui.chat import TranslationBlock, translate_row
from tests.waiting import until

pytestmark = pytest.mark.gui


async def _generators_closed() -> None:
    """Wait for the provider's SSE generator to finish closing: asyncio closes a finished async
    generator in a task of its own, and the test loop's teardown cancelling that close midway
    hangs (seen: qasync's run_until_complete in _cancel_all_tasks)."""
    await until(lambda: not [t for t in asyncio.all_tasks() if "async_generator_athrow" in repr(t)], limit=10)


async def test_topic_deleted_while_naming_writes_nothing(controller: Any, ui_core: Any,
                                                          server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    server.add_rule(lambda r: NAMING_MARKER in r.system_text, slow_text("A slow title", delay_s=0.1, chunk_size=2))
    topic_id = controller.bridges.chats.create_topic(model=DEMO_UNIQUE_MODEL_ID)
    window = controller.open_window(topic_id)
    task = window.submit("What is a narwhal?", "send")
    assert task is not None
    await task
    await until(lambda: topic_id in ui_core.topic_naming.in_flight, limit=10)
    future = ui_core.topic_naming.in_flight[topic_id]
    await window.delete_topic(topic_id, confirm=False)
    assert await asyncio.wait_for(future, 15) == ""
    assert ui_core.repos.topics.find_topic(topic_id) is None
    assert ui_core.shared_cache.get(topic_title_key(topic_id)) is None
    assert not ui_core.stream_manager.has_live_stream("naming:" + topic_id)
    window.close()
    await _generators_closed()


async def test_message_deleted_while_its_translation_streams(controller: Any, ui_core: Any,
                                                              server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    server.add_rule(lambda r: TRANSLATION_MARKER in r.system_text,
                    slow_text("Bonjour tout le monde", delay_s=0.05, chunk_size=2))
    repos = ui_core.repos
    topic = repos.topics.create_topic(name="t", model=DEMO_UNIQUE_MODEL_ID)
    message = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="Hello everyone")])
    window = controller.open_window(topic.id)
    task = translate_row(window.message_view, window.bridges.streams, message.id, "fr")
    assert task is not None
    block = window.message_view.row(message.id).findChildren(TranslationBlock)[0]
    await until(lambda: block.text != "", limit=10)
    # A second request for the same message while it streams is refused, said in the block.
    assert await translate_row(window.message_view, window.bridges.streams, message.id, "fr") == "error"
    await window.delete_topic(topic.id, confirm=False)
    await asyncio.wait_for(task, 15)
    await until(lambda: not ui_core.stream_manager.has_live_stream(translation_stream_id(message.id)), limit=10)
    assert repos.messages.find_message(message.id) is None
    window.close()
    await _generators_closed()
