"""A turn cut short (its agent process ended mid-answer) says so in the window, live and from
the stored row: the partial text stays, a note gives the reason, the header says "cut short"."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLabel

from cherry_desktop.core.ai.runtime.events import CUT_SHORT_METADATA_KEY, CutShortReason
from cherry_desktop.core.messages import MessageMetadataChunk, TextDeltaChunk, TextPart, TextStartChunk
from cherry_desktop.ui.chat import CUT_SHORT_KEY, MessageRow

pytestmark = pytest.mark.gui

REASON_TEXT = "The agent process ended before finishing; this answer is incomplete."


def test_ui_key_is_cores() -> None:
    assert CUT_SHORT_KEY == CUT_SHORT_METADATA_KEY


def test_live_row_shows_why_it_was_cut_short(qtbot: Any) -> None:
    row = MessageRow("m", "assistant")
    qtbot.addWidget(row)
    row.set_status("pending")
    row.apply_chunk(TextStartChunk(id="t"))
    row.apply_chunk(TextDeltaChunk(id="t", delta="Once upon"))
    row.apply_chunk(MessageMetadataChunk(message_metadata={CUT_SHORT_METADATA_KEY: CutShortReason.RUNTIME_EXITED}))
    row.finish_live("success")
    assert row.text() == "Once upon"
    assert row.cut_short_text == REASON_TEXT
    assert "cut short" in row.header.text()


def test_stored_row_shows_why_it_was_cut_short(qtbot: Any) -> None:
    row = MessageRow("m", "assistant")
    qtbot.addWidget(row)
    row.set_parts([TextPart(text="Once upon", state="done")], status="success")
    row.apply_metadata({CUT_SHORT_METADATA_KEY: "runtime-exited"})
    assert row.cut_short_text == REASON_TEXT
    assert "cut short" in row.header.text()
    row.set_parts([TextPart(text="A whole answer", state="done")], status="success")
    row.apply_metadata({})
    assert row.cut_short is None and "cut short" not in row.header.text()


def test_row_says_when_the_agent_lost_its_history(qtbot: Any) -> None:
    from cherry_desktop.core.ai.runtime.events import HISTORY_RESET_METADATA_KEY
    from cherry_desktop.ui.chat import HISTORY_RESET_KEY

    assert HISTORY_RESET_KEY == HISTORY_RESET_METADATA_KEY
    row = MessageRow("m", "assistant")
    qtbot.addWidget(row)
    row.apply_chunk(MessageMetadataChunk(message_metadata={HISTORY_RESET_METADATA_KEY: True}))
    row.apply_chunk(MessageMetadataChunk(message_metadata={HISTORY_RESET_METADATA_KEY: True}))
    assert row.history_reset
    notes = [label.text() for label in row.findChildren(QLabel, "cutShortNote")]
    assert len(notes) == 1 and "does not remember" in notes[0]
