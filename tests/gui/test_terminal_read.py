"""After a turn ends the window reads the database once (the broker tells windows about a
terminal only after the terminal write), even when that write failed: no polling."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.stream import MessageServiceBackend, PersistInput
from cherry_desktop.core.ai.stream.context import persistent as persistent_module
from tests.waiting import until

pytestmark = pytest.mark.gui


class FullDisk(MessageServiceBackend):
    async def persist_assistant(self, input: PersistInput) -> None:
        raise OSError("disk full")


def _counting(window: Any) -> list[str]:
    calls: list[str] = []
    real = window.bridges.chats.load_messages

    def load_messages(topic_id: str, **kw: Any) -> Any:
        calls.append(topic_id)
        return real(topic_id, **kw)

    window.bridges.chats.load_messages = load_messages
    return calls


async def _turn(qtbot: Any, window: Any, scripted_ai: Any) -> list[str]:
    window.composer.editor.setPlainText("hi")
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    feed = await scripted_ai.feed()
    feed.text("answer")
    await until(lambda: "answer" in window.live_text())
    calls = _counting(window)
    feed.end()
    await until(lambda: window.live_text_at_terminal is not None)
    # Give a poller every chance to show itself.
    for _ in range(20):
        await asyncio.sleep(0.02)
    return calls


async def test_window_reads_once_after_a_terminal(live_controller: Any, live_core: Any, scripted_ai: Any,
                                                  qtbot: Any) -> None:
    topic_id = live_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = live_controller.open_window(topic_id)
    calls = await _turn(qtbot, window, scripted_ai)
    assert calls == [topic_id]
    assert live_core.repos.messages.branch(topic_id)[-1].status == "success"


async def test_a_failed_final_write_shows_failed_and_is_not_polled(live_controller: Any, live_core: Any,
                                                                   scripted_ai: Any, qtbot: Any,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(persistent_module, "MessageServiceBackend", FullDisk)
    topic_id = live_core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = live_controller.open_window(topic_id)
    calls = await _turn(qtbot, window, scripted_ai)
    assert calls == [topic_id]
    # The row could not be written (it stays pending for boot recovery); the window was told
    # the turn failed, never that it succeeded.
    assert live_core.repos.messages.branch(topic_id)[-1].status == "pending"
    assert live_core.stream_manager.inspect(topic_id).status == "error"
