"""Versions of a chat message (issue #30, item 3): after Regenerate or Edit-and-resend the earlier
versions stay reachable through ‹ n/m › on the message, by mouse and by keyboard; the choice is
saved (a new window shows it), every window of the chat follows it, and a search hit on another
branch opens that branch. The real window, core and SQLite."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QToolButton

from cherry_desktop.core.messages import TextPart
from cherry_desktop.ui.chat._versions import VersionSwitcher
from tests.gui.conftest import ARTIFACTS
from tests.waiting import until

pytestmark = pytest.mark.gui


def _seed(repos: Any) -> dict[str, str]:
    """question -> answer one (regenerated:) answer two -> follow-up -> its answer; and the first
    question edited at the root once."""
    topic = repos.topics.create_topic(name="Versions")

    def add(role: str, text: str, parent: str | None) -> str:
        return repos.messages.create_message(topic_id=topic.id, role=role, parts=[TextPart(text=text)],
                                             parent_id=parent).id

    ids = {"topic": topic.id}
    ids["q"] = add("user", "What is a pelican?", None)
    ids["a1"] = add("assistant", "A pelican is a bird.", ids["q"])
    ids["a2"] = add("assistant", "A large water bird with a pouch.", ids["q"])
    ids["f"] = add("user", "How big?", ids["a2"])
    ids["fa"] = add("assistant", "Up to three metres of wingspan.", ids["f"])
    ids["q2"] = add("user", "What is a cormorant?", None)
    ids["q2a"] = add("assistant", "A diving bird.", ids["q2"])
    repos.topics.set_active_node(topic.id, ids["fa"])
    return ids


def _texts(window: Any) -> list[str]:
    """The rows' texts (a row added to a shown window becomes visible on the next event loop turn;
    the second window is never shown)."""
    return [r.text() for r in window.message_view.rows()]


async def _shown(window: Any, texts: list[str]) -> None:
    await until(lambda: [r.text() for r in window.message_view.rows() if r.isVisible()] == texts)


def _switcher(window: Any, message_id: str) -> VersionSwitcher:
    row = window.message_view.row(message_id)
    assert row is not None, message_id
    switcher = row.findChild(VersionSwitcher)
    assert switcher is not None and not switcher.isHidden(), message_id
    return switcher


async def test_switch_versions_by_mouse_and_keyboard_saved_and_followed_by_every_window(
        controller: Any, ui_core: Any, qtbot: Any) -> None:
    ids = _seed(ui_core.repos)
    topic_id = ids["topic"]
    window = controller.open_window(topic_id)
    window.resize(900, 700)
    window.show()
    await asyncio.sleep(0.05)
    other = controller.open_window(topic_id)
    assert _texts(window) == ["What is a pelican?", "A large water bird with a pouch.", "How big?",
                              "Up to three metres of wingspan."]
    # The first question was edited once (1/2 at the root), the answer regenerated once (2/2).
    assert _switcher(window, ids["q"]).label.text() == "1/2"
    answer = _switcher(window, ids["a2"])
    assert answer.label.text() == "2/2" and not answer.next_button.isEnabled()
    assert window.message_view.row(ids["f"]).findChild(VersionSwitcher) is None
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "message_versions.png"))
    # Mouse: the previous answer, without what followed the newer one.
    qtbot.mouseClick(answer.previous_button, Qt.MouseButton.LeftButton)
    await _shown(window, ["What is a pelican?", "A pelican is a bird."])
    assert _switcher(window, ids["a1"]).label.text() == "1/2"
    assert ui_core.repos.topics.get_topic(topic_id).active_node_id == ids["a1"]
    assert _texts(other) == _texts(window)  # the other window of the chat follows
    # Keyboard: focus stays on the switcher; Right goes back to the newer answer and the
    # conversation that went on from it.
    window.activateWindow()
    button = _switcher(window, ids["a1"]).next_button
    button.setFocus()
    await until(button.hasFocus)
    qtbot.keyClick(button, Qt.Key.Key_Right)
    await until(lambda: len(_texts(window)) == 4)
    assert _texts(window)[1:] == ["A large water bird with a pouch.", "How big?", "Up to three metres of wingspan."]
    focused = QApplication.focusWidget()
    assert isinstance(focused, QToolButton) and isinstance(focused.parent(), VersionSwitcher)
    # Space on the root question's ›: the edited version and its answer.
    root_next = _switcher(window, ids["q"]).next_button
    root_next.setFocus()
    await until(root_next.hasFocus)
    qtbot.keyClick(root_next, Qt.Key.Key_Space)
    await _shown(window, ["What is a cormorant?", "A diving bird."])
    assert _texts(other) == _texts(window)
    window.grab().save(str(ARTIFACTS / "message_versions_switched.png"))
    assert _switcher(window, ids["q2"]).label.text() == "2/2"
    # Saved: a new window (as after a restart) shows the chosen branch.
    other.close()
    window.close()
    again = controller.open_window(topic_id)
    assert _texts(again) == ["What is a cormorant?", "A diving bird."]
    assert again.message_view.row(ids["q2"]).findChild(VersionSwitcher).label.text() == "2/2"
    again.close()


async def test_search_hit_on_another_branch_opens_that_branch(controller: Any, ui_core: Any) -> None:
    ids = _seed(ui_core.repos)
    window = controller.open_window(None)
    window.search_panel.box.setText("is a bird")
    window.search_panel.run_query()
    assert [e.message_id for e in window.search_panel.entries()] == [ids["a1"]]
    window.open_search_hit(ids["topic"], ids["a1"])
    assert window.topic_id == ids["topic"]
    assert _texts(window) == ["What is a pelican?", "A pelican is a bird."]
    assert window.message_view.row(ids["a1"]).property("searchHit") is True
    assert "another branch" not in window.statusBar().currentMessage()
    assert ui_core.repos.topics.get_topic(ids["topic"]).active_node_id == ids["a1"]
    window.close()
