"""The message view cannot go blank: rows size to their content at every width, the scroll
content ends at the last row, the view follows a stream only while at the bottom, and "jump to
latest" brings it back. The real core (host, manager, SQLite) with a scripted runtime; two
windows; then a restart on the same data dir."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.ai.runtime.events import ChunkEvent
from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.messages import (
    ToolInputAvailableChunk,
    ToolInputStartChunk,
    ToolOutputAvailableChunk,
)
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.ui.chat import ROW_SPACING
from cherry_desktop.ui.shell import apply_theme
from tests.fakes.scripted_driver import ScriptedDriver
from tests.gui.conftest import ARTIFACTS, scripted_agent_session, send_turn
from tests.waiting import until

pytestmark = pytest.mark.gui

ANSWER = ("Here is the plan for step {i}:\n\n"
          "1. read the file\n2. change **one** line\n3. run the tests\n\n"
          "```python\ndef step_{i}() -> int:\n    return {i}\n```\n\n"
          "> Note: nothing else changes.\n\nDone with step {i}. " + "More words to wrap. " * 12)


def assert_fits(view: Any) -> None:
    """The last row's bottom is in the viewport; the content ends within one spacing of it."""
    rows = view.rows()
    assert rows, "no rows"
    last = rows[-1]
    content = view.widget()
    last_bottom = last.y() + last.height()
    assert 0 <= content.height() - last_bottom <= ROW_SPACING, (content.height(), last_bottom)
    top = view.verticalScrollBar().value()
    info = f"top={top} last_bottom={last_bottom} viewport={view.viewport().size()} content={content.size()}"
    assert top < last_bottom <= top + view.viewport().height(), info
    for row in rows:  # rows sit in boxes of their own content's height
        want = row.layout().totalHeightForWidth(row.width()) if row.layout().hasHeightForWidth() \
            else row.sizeHint().height()
        assert abs(row.height() - want) <= 1, (row.message_id, row.height(), want)


async def _settled(view: Any) -> None:
    """Wait until pending layout and the follow-the-bottom scroll ran (posted events)."""
    def done() -> bool:
        bar = view.verticalScrollBar()
        rows = view.rows()
        return bool(rows) and bar.value() == bar.maximum() \
            and view.widget().height() - (rows[-1].y() + rows[-1].height()) <= ROW_SPACING
    for _ in range(3):  # pending layout requests may move the range: settled three times
        await asyncio.sleep(0.02)  # (on the loop: a nested processEvents starves qasync)
        await until(done)


async def _turn(qtbot: Any, window: Any, driver: ScriptedDriver, i: int) -> None:
    conn = await send_turn(qtbot, window, driver, f"Step {i}: edit notes.md", sent=i + 1)
    conn.emit_text(ANSWER.format(i=i))
    call = f"c{i}"
    conn.emit(ChunkEvent(ToolInputStartChunk(tool_call_id=call, tool_name="Write")),
              ChunkEvent(ToolInputAvailableChunk(tool_call_id=call, tool_name="Write", input={
                  "file_path": "notes.md", "content": f"# Notes {i}\n" + "a line of notes\n" * 8})),
              ChunkEvent(ToolOutputAvailableChunk(tool_call_id=call, output="File written.\n" * 3)))
    conn.complete(f"Step {i} finished.")
    await until(lambda: not window.is_streaming() and len(window.message_view.rows()) == 2 * (i + 1)
                and not any(r.live for r in window.message_view.rows()))


async def test_five_tool_turns_in_two_windows_and_after_a_restart_never_go_blank(
        qapp: Any, qtbot: Any, tmp_path: Path, no_leaked_windows: None) -> None:
    from cherry_desktop.ui import UiController

    paths = build_path_registry(tmp_path / "data-root")
    core = await start_core(paths)
    ctl = UiController(core)
    try:
        topic_id, driver = scripted_agent_session(core, tmp_path / "ws", "Notes")
        first = ctl.open_window(topic_id)
        second = ctl.open_window(topic_id)
        second.resize(700, 560)
        for i in range(5):
            await _turn(qtbot, first, driver, i)
            for window in (first, second):
                await until(lambda w=window, n=2 * (i + 1): len(w.message_view.rows()) == n)
                await _settled(window.message_view)
                assert_fits(window.message_view)
        for width in (520, 900, 1400):  # every width, in both windows
            for window in (first, second):
                window.resize(width, 640)
                await _settled(window.message_view)
                assert_fits(window.message_view)
        apply_theme(qapp, "dark")
        await _settled(first.message_view)
        assert_fits(first.message_view)
        ARTIFACTS.mkdir(exist_ok=True)
        first.resize(1100, 720)
        await _settled(first.message_view)
        first.grab().save(str(ARTIFACTS / "five_turns_dark.png"))
        apply_theme(qapp, "light")
        await _settled(first.message_view)
        first.grab().save(str(ARTIFACTS / "five_turns_light.png"))
    finally:
        await ctl.aclose()
        await core.stop()
    # Restart: a new core and UI on the same data dir show the persisted turns, fitted.
    core = await start_core(paths)
    ctl = UiController(core)
    try:
        window = ctl.open_window(topic_id)
        await until(lambda: len(window.message_view.rows()) == 10)
        await _settled(window.message_view)
        assert_fits(window.message_view)
        assert [r.role for r in window.message_view.rows()] == ["user", "assistant"] * 5
    finally:
        await ctl.aclose()
        await core.stop()
    qapp.processEvents()


async def test_the_view_follows_a_stream_only_at_the_bottom_and_jumps_back(
        controller: Any, ui_core: Any, qtbot: Any, tmp_path: Path) -> None:
    topic_id, driver = scripted_agent_session(ui_core, tmp_path / "ws", "Long")
    window = controller.open_window(topic_id)
    view = window.message_view
    await _turn(qtbot, window, driver, 0)
    await _turn(qtbot, window, driver, 1)
    bar = view.verticalScrollBar()
    await _settled(view)
    assert not view.jump_button.isVisible()
    # A new turn streams (sending jumps to the latest); the user scrolls up: the view stays.
    window.composer.editor.setPlainText("more")
    qtbot.keyClick(window.composer.editor, Qt.Key.Key_Return)
    conn = driver.last
    await conn.wait_sent(3)
    conn.emit_text("first words\n\n")
    await until(lambda: "first words" in window.live_text())
    await _settled(view)
    bar.setValue(0)
    assert view.jump_button.isVisible()
    for n in range(6):
        conn.emit_text(f"paragraph {n} " * 30 + "\n\n")
    await until(lambda: "paragraph 5" in window.live_text())
    await asyncio.sleep(0.05)
    assert bar.value() == 0
    assert view.jump_button.isVisible()
    qtbot.mouseClick(view.jump_button, Qt.MouseButton.LeftButton)
    assert bar.value() == bar.maximum() and not view.jump_button.isVisible()
    # At the bottom again, it follows: more text keeps the newest line in sight.
    conn.emit_text("the very last words")
    await until(lambda: "the very last words" in window.live_text())
    await _settled(view)
    conn.complete()
    await until(lambda: not window.is_streaming() and not any(r.live for r in view.rows()))
    await _settled(view)
    assert_fits(view)
