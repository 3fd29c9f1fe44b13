"""Auto-naming through the real window and core against the scripted model server: after a
chat's first exchange the server is asked for a title (in the UI language) and the name shows
in every window's sidebar and header; a later exchange does not rename; a user's rename (F2,
double click) is never replaced."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cherry_desktop.core.ai.naming import NAMING_MARKER, clean_title, ui_locale
from cherry_desktop.demo import ScriptedModelServer
from cherry_desktop.demo.bootstrap import DEMO_UNIQUE_MODEL_ID, ensure_demo_records
from tests.waiting import until

pytestmark = pytest.mark.gui


def _naming_requests(server: ScriptedModelServer) -> list[Any]:
    return [r for r in server.requests if NAMING_MARKER in r.system_text]


async def _exchange(window: Any, text_: str) -> None:
    task = window.submit(text_, "send")
    assert task is not None
    await task
    await until(lambda: not window.is_streaming(), limit=10)


async def test_first_exchange_names_the_chat_everywhere_and_only_once(controller: Any, ui_core: Any,
                                                                      server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    ui_core.settings.update(language="zh_CN")
    topic_id = controller.bridges.chats.create_topic(model=DEMO_UNIQUE_MODEL_ID)
    window = controller.open_window(topic_id)
    other = controller.open_window(topic_id)
    assert window.sidebar.item_for(topic_id).text(0) == "New chat"
    await _exchange(window, "How do I bake sourdough bread at home?")
    title = "演示: How do I bake sourdough"
    await until(lambda: window.sidebar.item_for(topic_id).text(0) == title, limit=10)
    assert other.sidebar.item_for(topic_id).text(0) == title
    assert window.title.text() == other.title.text() == title
    assert ui_core.repos.topics.get_topic(topic_id).name == title
    naming = _naming_requests(server)
    assert len(naming) == 1 and "Simplified Chinese" in naming[0].system_text
    answer = "".join(getattr(p, "text", "") for p in ui_core.repos.messages.list_messages(topic_id)[1].parts)
    asked = naming[0].last_user_text()
    assert asked.startswith("User:\nHow do I bake sourdough bread at home?\n\nAssistant:\n" + answer)
    # The naming prompt left no row and no status behind.
    assert [m.role for m in ui_core.repos.messages.list_messages(topic_id)] == ["user", "assistant"]

    # A second exchange is not a first one: no new naming request.
    await _exchange(window, "And rye?")
    await asyncio.sleep(0.2)
    assert len(_naming_requests(server)) == 1

    # F2 renames (the dialog), in every window; the user's name sticks.
    from PySide6.QtWidgets import QInputDialog

    asked: list[str] = []

    def get_text(dialog: Any) -> int:  # QInputDialog.exec: the user types a name and accepts
        asked.append(dialog.textValue())
        dialog.setTextValue("Bread notes")
        return 1

    import unittest.mock as mock

    with mock.patch.object(QInputDialog, "exec", get_text):
        window.sidebar.setCurrentItem(window.sidebar.item_for(topic_id))
        QTest.keyClick(window.sidebar, Qt.Key.Key_F2)
        assert asked == [title]
        window.sidebar.itemDoubleClicked.emit(window.sidebar.item_for(other.topic_id), 0)
        assert len(asked) == 2
    assert other.sidebar.item_for(topic_id).text(0) == "Bread notes" and other.title.text() == "Bread notes"
    assert ui_core.repos.names.name_source(topic_id) == "user"
    assert ui_core.topic_naming.maybe_name(topic_id) is None
    window.close()
    other.close()


async def test_a_rename_during_naming_wins_and_a_failed_naming_leaves_the_name(controller: Any, ui_core: Any,
                                                                               server: ScriptedModelServer) -> None:
    ensure_demo_records(ui_core.repos, ui_core.paths.get("feature.agents.workspaces"), server.base_url)
    from cherry_desktop.demo.replies import HangReply, http_error

    gate = asyncio.Event()
    server.add_rule(lambda r: NAMING_MARKER in r.system_text and not gate.is_set(), HangReply())
    topic_id = controller.bridges.chats.create_topic(model=DEMO_UNIQUE_MODEL_ID)
    window = controller.open_window(topic_id)
    await _exchange(window, "Plan a trip to Kyoto")
    await until(lambda: len(_naming_requests(server)) == 1, limit=10)
    future = ui_core.topic_naming.in_flight[topic_id]
    controller.bridges.chats.rename_topic(topic_id, "Mine")
    ui_core.stream_manager.abort("naming:" + topic_id)
    assert await asyncio.wait_for(future, 10) == ""
    assert ui_core.repos.topics.get_topic(topic_id).name == "Mine"

    # A failing naming model: nothing is written, nothing is left running.
    gate.set()
    server.add_rule(lambda r: NAMING_MARKER in r.system_text, http_error(500))
    second = controller.bridges.chats.create_topic(model=DEMO_UNIQUE_MODEL_ID)
    window.show_topic(second)
    await _exchange(window, "Another question")
    await until(lambda: second not in ui_core.topic_naming.in_flight and len(_naming_requests(server)) >= 2,
                limit=10)
    assert ui_core.repos.topics.get_topic(second).name == ""
    assert ui_core.repos.names.name_source(second) == ""
    window.close()


def test_title_cleaning_and_locale() -> None:
    assert clean_title('Title: "Sourdough at home."\nmore') == "Sourdough at home"
    assert clean_title("标题：「烤面包」。") == "烤面包"
    assert clean_title("  \n") == ""
    assert len(clean_title("x" * 200)) == 60
    assert ui_locale("zh_TW") == "zh_TW" and ui_locale("fr_FR") == "en_US"


async def test_f2_renames_the_open_topic_wherever_the_keyboard_focus_is(controller: Any) -> None:
    """The sidebar never takes the keyboard focus (a click leaves it in the search box or the
    composer), so F2 is the window's: it renames the topic selected in the sidebar."""
    import unittest.mock as mock

    from PySide6.QtWidgets import QInputDialog

    topic_id = controller.bridges.chats.create_topic("Soup")
    window = controller.open_window(topic_id)
    window.show()
    window.activateWindow()
    await asyncio.sleep(0.05)
    asked: list[str] = []

    def get_text(dialog: Any) -> int:  # QInputDialog.exec: the user types a name and accepts
        asked.append(dialog.textValue())
        dialog.setTextValue("Soup notes")
        return 1

    with mock.patch.object(QInputDialog, "exec", get_text):
        for focused in (window.composer.editor, window.search_panel.box):
            focused.setFocus()
            await until(focused.hasFocus)
            QTest.keyClick(focused, Qt.Key.Key_F2)
    assert asked == ["Soup", "Soup notes"]
    assert window.title.text() == "Soup notes" and window.sidebar.item_for(topic_id).text(0) == "Soup notes"
    window.close()
