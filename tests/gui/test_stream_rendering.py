"""How live text reaches the screen: frame phases, one layout per commit, blitted scrolling."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject

from cherry_desktop.core.messages import TextDeltaChunk
from cherry_desktop.ui.bridge import FRAME_MS, PHASES, QtStreamListener, StreamChunk, next_frame_delay_ms
from cherry_desktop.ui.chat import LiveText
from tests.waiting import until

pytestmark = pytest.mark.gui


def test_frames_land_on_the_shared_grid_at_each_listeners_phase() -> None:
    phase = FRAME_MS / PHASES
    # The first grid point at or after `earliest`, whatever `now` is.
    assert next_frame_delay_ms(100.0, 100.0, 0.0) == pytest.approx(12.0)  # 112 = 7 * 16
    assert next_frame_delay_ms(100.0, 112.0, 0.0) == pytest.approx(12.0)
    assert next_frame_delay_ms(100.0, 112.1, 0.0) == pytest.approx(28.0)
    assert next_frame_delay_ms(100.0, 100.0, phase) == pytest.approx(112 + phase - 16 - 100)
    # Three windows that got the same chunk at the same moment fire in three different slots.
    fire = sorted((100.0 + next_frame_delay_ms(100.0, 105.0, i * phase)) % FRAME_MS for i in range(PHASES))
    assert [round(b - a, 3) for a, b in pairwise(fire)] == [round(phase, 3)] * (PHASES - 1)


def test_a_listener_keeps_its_phase_while_chunks_keep_coming(qtbot: Any) -> None:
    listeners = [QtStreamListener(key, "topic") for key in ("w1", "w2", "w3")]
    phases = {round(lst.phase_ms, 3) for lst in listeners}
    assert len(phases) == PHASES
    for lst in listeners:
        batches: list[Any] = []
        lst.chunks_ready.connect(batches.append)
        for frame in range(3):
            lst.on_chunk(TextDeltaChunk(id="t", delta=str(frame)), None, "a")
            # Armed for a grid point of its own phase.
            slots = (lst.due_ms - lst.phase_ms) / FRAME_MS
            assert slots == pytest.approx(round(slots), abs=1e-6)
            qtbot.waitUntil(lambda b=batches, n=frame + 1: len(b) == n)
        lst.close()
        lst.deleteLater()


def test_a_commit_that_finishes_blocks_changes_the_document_once(qtbot: Any) -> None:
    text = LiveText(done=False)
    qtbot.addWidget(text)
    changes: list[tuple[int, int, int]] = []
    text.document().contentsChange.connect(lambda pos, removed, added: changes.append((pos, removed, added)))
    text.append("First paragraph with **bold**")
    text.commit()
    assert len(changes) == 1  # the open tail: plain text appended
    changes.clear()
    text.append(" text.\n\nSecond `code` para\n\nthe tail")
    text.commit()  # drops the tail, inserts two Markdown blocks and the new tail
    assert len(changes) == 1
    assert text.rendered_blocks == ["First paragraph with **bold** text.\n\nSecond `code` para\n\n"]
    assert text.document().toPlainText().endswith("the tail")
    assert not text.document().isUndoRedoEnabled()  # no undo copy of every streamed edit


class _PaintRecorder(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.areas: list[int] = []

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.areas.append(sum(r.width() * r.height() for r in event.region()))  # type: ignore[attr-defined]
        return False


def _delta(i: int) -> str:
    return "\n\n" if i % 40 == 39 else ("**bold** " if i % 7 == 0 else "streamed words ")


async def test_following_the_bottom_scrolls_by_blitting_and_the_screen_stays_right(
        controller: Any, ui_core: Any) -> None:
    """While a reply grows and the view follows it, a frame repaints only what changed (the
    tail and the strip a scroll uncovers), never the whole visible text; and what is on
    screen (the backing store) always equals a fresh render of the window."""
    topic = ui_core.repos.topics.create_topic(name="Stream")
    window = controller.open_window(topic.id)
    await until(window.isVisible)
    view = window.message_view
    recorder = _PaintRecorder()
    bar = view.verticalScrollBar()
    screen = window.screen()
    full = 0
    scrolled = 0
    for frame in range(40):
        view.apply_batch([StreamChunk(TextDeltaChunk(id="t", delta=_delta(frame * 12 + i)), None, "a")
                          for i in range(12)])
        before = bar.value()
        # The frame's paint, then the follow-the-bottom scroll and its paint. Under load the
        # sleep can end before that chain (layout, zero-timer scroll, update request) has run:
        # let the pending events run out, which paints only what they dirtied.
        await asyncio.sleep(2 * FRAME_MS / 1000)
        for _ in range(4):
            QCoreApplication.processEvents()
            await asyncio.sleep(0)
        live = view.rows()[-1]._texts[0].segments[0]  # the prose segment
        if frame == 0:
            live.viewport().installEventFilter(recorder)
            continue
        scrolled += bar.value() != before
        if before > 0:  # already scrolled (the scroll bar came, and the text rewrapped, before)
            view_area = view.viewport().width() * view.viewport().height()
            full += any(area >= 0.7 * view_area for area in recorder.areas)
        shown = screen.grabWindow(window.winId()).toImage()
        fresh = window.grab().toImage().convertToFormat(shown.format())  # paints everything anew
        assert shown == fresh, f"frame {frame}: the screen differs from a fresh render"
        recorder.areas.clear()
    assert bar.value() == bar.maximum() > 0
    assert scrolled >= 3  # the reply outgrew the view several times
    assert full == 0
