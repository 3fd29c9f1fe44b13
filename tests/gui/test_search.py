"""Search through the real window and core: Ctrl+K focuses the box, typing swaps the sidebar
for title and message hits with snippets, opening an old message's hit loads its page, scrolls
to it and highlights it; Escape brings the sidebar back; a deleted topic's hits are gone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.ui.chat import PAGE_SIZE
from tests.gui.conftest import ARTIFACTS, seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


def _seed(repos: Any) -> tuple[str, str, str]:
    topic = repos.topics.create_topic(name="Kitchen")
    target = ""
    parent = None
    for i in range(PAGE_SIZE * 3):
        text = "boil the artichoke for thirty minutes" if i == 3 else f"filler message {i}"
        m = repos.messages.create_message(topic_id=topic.id, role="user" if i % 2 == 0 else "assistant",
                                          parts=[TextPart(text=text)], parent_id=parent)
        parent = m.id
        if i == 3:
            target = m.id
    _agent, session_id = seed_agent_session(repos, name="Artichoke garden plan")
    repos.session_messages.create_message(session_id=session_id, role="user",
                                          parts=[TextPart(text="water the artichoke bed")])
    return topic.id, target, session_id


async def test_search_box_finds_titles_and_messages_and_reveals_an_old_hit(controller: Any, ui_core: Any) -> None:
    topic_id, target, session_id = _seed(ui_core.repos)
    window = controller.open_window(None)
    window.resize(1100, 700)
    window.show()
    window.activateWindow()
    await asyncio.sleep(0.05)
    panel = window.search_panel
    box = panel.box
    assert box.objectName() == "searchBox" and panel.results.objectName() == "searchResults"
    QTest.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    await until(box.hasFocus)
    QTest.keyClicks(box, "artichoke")
    await until(lambda: panel.stack.currentWidget() is panel.results and panel.entries())
    entries = panel.entries()
    # The session's title first, then messages newest first.
    assert [(e.topic_id, e.message_id == "") for e in entries] == [
        (session_topic_id(session_id), True), (session_topic_id(session_id), False), (topic_id, False)]
    hit = entries[2]
    assert hit.title == "Kitchen" and hit.snippet[hit.match_start:hit.match_end] == "artichoke"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert window.grab().save(str(ARTIFACTS / "search_results.png"))

    # Open the old hit: its page is loaded, the row scrolled into view and highlighted.
    panel.results.itemClicked.emit(panel.results.item(2))
    assert window.topic_id == topic_id
    view = window.message_view
    row = view.row(target)
    assert row is not None and row.property("searchHit") is True

    def visible() -> bool:
        top = row.mapTo(view.widget(), row.rect().topLeft()).y()
        value = view.verticalScrollBar().value()
        return value <= top and top + 10 <= value + view.viewport().height()

    await until(visible)
    await asyncio.sleep(0.2)  # the view's own follow-the-bottom does not take it away
    assert visible()
    assert window.grab().save(str(ARTIFACTS / "search_hit_opened.png"))

    # Escape clears the box and brings the sidebar back.
    box.setFocus()
    QTest.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == "" and window.sidebar.isVisibleTo(panel)

    # A title hit opens its topic; a deleted topic's messages are no longer found.
    box.setText("garden")
    panel.run_query()
    assert [e.message_id for e in panel.entries()] == [""]
    panel.results.itemClicked.emit(panel.results.item(0))
    assert window.topic_id == session_topic_id(session_id)
    await window.delete_topic(topic_id, confirm=False)
    box.setText("thirty minutes")
    panel.run_query()
    assert panel.entries() == [] and panel.results.count() == 1  # "No results"
    window.close()


async def test_hit_on_another_branch_opens_it(controller: Any, ui_core: Any) -> None:
    repos = ui_core.repos
    topic = repos.topics.create_topic(name="Branches")
    root = repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="question")])
    old = repos.messages.create_message(topic_id=topic.id, role="assistant", parent_id=root.id,
                                        parts=[TextPart(text="first pelican answer")])
    new = repos.messages.create_message(topic_id=topic.id, role="assistant", parent_id=root.id,
                                        parts=[TextPart(text="second answer")])
    repos.topics.set_active_node(topic.id, new.id)
    window = controller.open_window(None)
    window.search_panel.box.setText("pelican")
    window.search_panel.run_query()
    assert [e.message_id for e in window.search_panel.entries()] == [old.id]
    window.open_search_hit(topic.id, old.id)
    assert window.topic_id == topic.id and window.message_view.row(new.id) is None
    assert window.message_view.row(old.id) is not None
    assert "another branch" not in window.statusBar().currentMessage()
    window.close()
