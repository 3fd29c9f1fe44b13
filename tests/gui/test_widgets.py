"""Widgets on their own: coalescing, composer keys, queue dock, approval card, message rows."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from cherry_desktop.core.messages import (
    DataPart,
    ReasoningPart,
    TextDeltaChunk,
    TextPart,
    ToolPart,
)
from cherry_desktop.ui.bridge import QtStreamListener, QueuedFollowUp
from cherry_desktop.ui.chat import MessageRow, split_finished_blocks
from cherry_desktop.ui.composer import Composer, QueueDock

pytestmark = pytest.mark.gui


def test_chunks_are_coalesced_into_one_batch_per_frame(qtbot: Any) -> None:
    listener = QtStreamListener("w1", "topic")
    batches: list[list[Any]] = []
    listener.chunks_ready.connect(batches.append)
    for i in range(500):
        listener.on_chunk(TextDeltaChunk(id="t", delta=str(i)), None, "anchor")
    assert batches == []  # nothing is painted per chunk
    qtbot.waitUntil(lambda: len(batches) == 1)
    assert len(batches[0]) == 500
    assert [c.chunk.delta for c in batches[0]][:3] == ["0", "1", "2"]
    assert listener.id == "wc:w1:topic"
    assert listener.is_alive()
    listener.close()
    assert not listener.is_alive()
    listener.on_chunk(TextDeltaChunk(id="t", delta="late"))
    qtbot.wait(40)
    assert len(batches) == 1
    listener.deleteLater()


def test_listener_is_dead_once_its_window_is_destroyed(qtbot: Any) -> None:
    from PySide6.QtWidgets import QWidget

    window = QWidget()
    listener = QtStreamListener("w2", "topic", window)
    assert listener.is_alive()
    window.deleteLater()
    qtbot.waitUntil(lambda: not listener.is_alive())


def test_finished_blocks_split_outside_code_fences() -> None:
    assert split_finished_blocks("para one\n\npara tw") == ("para one\n\n", "para tw")
    assert split_finished_blocks("```py\nx = 1\n\ny = 2") == ("", "```py\nx = 1\n\ny = 2")
    assert split_finished_blocks("```py\nx = 1\n```\nafter") == ("```py\nx = 1\n```\n", "after")
    assert split_finished_blocks("no break yet") == ("", "no break yet")


def test_live_row_renders_blocks_once_and_keeps_the_tail_plain(qtbot: Any) -> None:
    row = MessageRow("a1", "assistant")
    qtbot.addWidget(row)
    for delta in ["# Title\n", "\nSome **bold", "** text\n\nTail"]:  # one delta per frame
        row.apply_chunk(TextDeltaChunk(id="t", delta=delta))
        row.end_frame()
    assert row.text() == "# Title\n\nSome **bold** text\n\nTail"
    (texts,) = row.text_views()[0].segments  # prose only: one LiveText
    assert texts.rendered_blocks == ["# Title\n\n", "Some **bold** text\n\n"]
    assert texts.tail == "Tail"
    row.finish_live("success")
    # At its end the part is rendered once as a whole: spaced as the reloaded message is.
    assert texts.rendered_blocks == ["# Title\n\nSome **bold** text\n\nTail"]


def test_composer_keys_choose_send_steer_queue_and_stop(qtbot: Any) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    sent: list[tuple[str, str]] = []
    stops: list[bool] = []
    composer.submitted.connect(lambda text, mode: sent.append((text, mode)))
    composer.stop_requested.connect(lambda: stops.append(True))
    composer.editor.setPlainText("first")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return)
    assert sent == [("first", "send")]
    composer.set_streaming(True, can_steer=True)
    assert composer.steer_button.isVisibleTo(composer) and composer.queue_button.isVisibleTo(composer)
    assert not composer.send_button.isVisibleTo(composer)
    composer.editor.setPlainText("steer me")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    composer.editor.setPlainText("later")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return)
    composer.editor.setPlainText("by button")
    qtbot.mouseClick(composer.steer_button, Qt.MouseButton.LeftButton)
    assert sent[1:] == [("steer me", "steer"), ("later", "queue"), ("by button", "steer")]
    qtbot.keyClick(composer.editor, Qt.Key.Key_Escape)
    assert stops == [True]
    composer.set_streaming(True, can_steer=False)
    composer.editor.setPlainText("cannot steer")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert sent[-1] == ("cannot steer", "queue")


def test_queue_dock_edit_remove_reorder_steer(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    dock = QueueDock()
    qtbot.addWidget(dock)
    events: list[Any] = []
    dock.reorder_requested.connect(lambda ids: events.append(("reorder", ids)))
    dock.remove_requested.connect(lambda mid: events.append(("remove", mid)))
    dock.steer_now_requested.connect(lambda mid: events.append(("steer", mid)))
    dock.edit_requested.connect(lambda mid, text: events.append(("edit", mid, text)))
    dock.set_items([QueuedFollowUp("m1", "one", False), QueuedFollowUp("m2", "two", False)])
    assert dock.isVisibleTo(dock.parentWidget() or dock) or not dock.isHidden()
    rows = dock.findChildren(type(dock.rows()[0]), "queueItem")
    assert len(rows) == 2
    from PySide6.QtWidgets import QInputDialog, QToolButton

    monkeypatch.setattr(QInputDialog, "exec", lambda dialog: (dialog.setTextValue("one, edited"), 1)[1])
    second = dock.rows()[1]
    qtbot.mouseClick(second.findChild(QToolButton, "queueUp"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dock.rows()[0].findChild(QToolButton, "queueEdit"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dock.rows()[0].findChild(QToolButton, "queueSteer"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dock.rows()[1].findChild(QToolButton, "queueRemove"), Qt.MouseButton.LeftButton)
    assert events == [("reorder", ["m2", "m1"]), ("edit", "m1", "one, edited"), ("steer", "m1"), ("remove", "m2")]
    dock.set_items([])
    assert dock.isHidden()


def test_stored_row_shows_reasoning_tools_errors_and_footer(qtbot: Any) -> None:
    from cherry_desktop.ui.chat import CodeBlock, ErrorBlock, MarkdownView, ReasoningBlock, ToolCard

    row = MessageRow("m", "assistant")
    qtbot.addWidget(row)
    row.set_parts([
        ReasoningPart(text="hmm", state="done"),
        TextPart(text="Here:\n\n```sh\nls\n```"),
        ToolPart(tool_call_id="1", tool_name="Bash", state="output-error", input={"command": "x"},
                 error_text="exit 1"),
        ToolPart(tool_call_id="2", tool_name="Write", state="output-denied", input={"file_path": "a"}),
        DataPart(type="data-error", data={"message": "rate limited", "name": "APIError"}),
    ], status="error", stats={"input_tokens": 5, "output_tokens": 7, "time_completion_ms": 2500})
    reasoning = row.findChild(ReasoningBlock)
    assert reasoning is not None and not reasoning.text.isVisibleTo(row)  # collapsed
    reasoning.toggle.click()
    assert reasoning.text.isVisibleTo(row)
    cards = row.findChildren(ToolCard)
    assert [c.property("state") for c in cards] == ["output-error", "output-denied"]
    assert "exit 1" in cards[0].result_label.text()
    assert "Denied" in cards[1].result_label.text()
    error = row.findChild(ErrorBlock)
    assert error is not None and "rate limited" in error.text()
    assert "5 in · 7 out" in row.footer.text() and "2.5 s" in row.footer.text()
    assert "failed" in row.header.text()
    text = row.findChild(MarkdownView)
    assert text is not None and text.toPlainText().splitlines() == ["Here:", "ls"]  # Markdown rendered
    code = row.findChild(CodeBlock)
    assert code is not None and code.language_label.text() == "sh" and code.text.toPlainText() == "ls"
