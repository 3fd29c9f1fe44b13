"""Closing the last window never stops a stream: without a tray (offscreen has none), the app
stays alive windowless while a turn runs, quits once it is saved; a later launch meanwhile
opens a window in the same process, and then the app lives on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.waiting import until

pytestmark = pytest.mark.gui


async def _start_turn(controller: Any, core: Any, scripted_ai: Any, qtbot: Any) -> tuple[str, Any]:
    topic_id = core.repos.topics.create_topic(name="Chat", model="demo::m").id
    window = controller.open_window(topic_id)
    window.composer.editor.setPlainText("tell me a story")
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    feed = await scripted_ai.feed()
    feed.text("Once ", "upon ")
    await until(lambda: "Once upon" in window.live_text())
    return topic_id, feed


def _saved_text(core: Any, topic_id: str) -> tuple[str, str]:
    row = core.repos.messages.branch(topic_id)[-1]
    return row.status, "".join(p.text for p in row.parts if p.type == "text")


async def test_app_stays_windowless_until_the_turn_is_saved(live_controller: Any, live_core: Any,
                                                           scripted_ai: Any, qtbot: Any) -> None:
    assert live_controller.tray is None  # offscreen: no system tray
    closed = asyncio.ensure_future(live_controller.wait_closed())
    topic_id, feed = await _start_turn(live_controller, live_core, scripted_ai, qtbot)
    live_controller.windows[0].close()
    feed.text("a time, ", "while no window watched.")
    await asyncio.sleep(0.8)  # several background checks: the turn still runs
    assert not closed.done()
    assert live_controller.bridges.streams.running_work() == 1
    feed.end()
    assert await asyncio.wait_for(closed, 10) == 0
    assert _saved_text(live_core, topic_id) == ("success", "Once upon a time, while no window watched.")


async def test_a_later_launch_while_windowless_opens_a_window_and_the_app_lives_on(
        live_controller: Any, live_core: Any, scripted_ai: Any, qtbot: Any) -> None:
    closed = asyncio.ensure_future(live_controller.wait_closed())
    topic_id, feed = await _start_turn(live_controller, live_core, scripted_ai, qtbot)
    live_controller.windows[0].close()
    window = live_controller.open_window_for_launch()
    feed.end()
    await until(lambda: _saved_text(live_core, topic_id)[0] == "success")
    await asyncio.sleep(1.0)  # past the background checks
    assert not closed.done() and live_controller.windows == [window]
    window.close()  # the last window, nothing running: the app quits
    assert await asyncio.wait_for(closed, 10) == 0


async def test_closing_the_last_idle_window_quits_at_once(live_controller: Any, live_core: Any) -> None:
    closed = asyncio.ensure_future(live_controller.wait_closed())
    window = live_controller.open_window(None)
    await asyncio.sleep(0)
    window.close()
    assert await asyncio.wait_for(closed, 1) == 0
