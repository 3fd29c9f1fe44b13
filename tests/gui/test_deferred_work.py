"""Work the UI moves out of the frames that would pay for it (issue 14's loop-lag bar), asserted
as order and scheduling, never as durations:
- at the end of a streamed text part, its prose segments that ended at a fence are rendered
  again as a whole one per timer callback, in order, none in `finish` itself
  (`MarkdownView.finish`);
- Pygments is warmed up by a timer the first window's opening starts, after that window's
  first paint; the first fence then finds its lexer and formatter built, and a second window
  starts no second warm-up (`UiController.open_window`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QTimer

from cherry_desktop.ui.chat import (
    CodeBlock,
    LiveText,
    MarkdownView,
    clear_highlight_caches,
    highlight_cache_info,
    warm_up_highlighting,
)
from cherry_desktop.ui.shell import HIGHLIGHT_WARM_UP_MS
from tests.gui.test_code_blocks import LONG_ANSWER
from tests.waiting import until

pytestmark = pytest.mark.gui


class RecordedTimers:
    """Stands in for `QTimer` in one module: `singleShot` calls are kept, not run; the test
    runs them one at a time (one timer callback = one event-loop turn of the app)."""

    def __init__(self) -> None:
        self.pending: list[tuple[int, Callable[[], None]]] = []

    def singleShot(self, ms: int, context: Any, callback: Callable[[], None] | None = None) -> None:
        self.pending.append((ms, callback if callback is not None else context))

    def run_next(self) -> None:
        _, callback = self.pending.pop(0)
        callback()


def _streamed_view(qtbot: Any) -> MarkdownView:
    view = MarkdownView(done=False)
    qtbot.addWidget(view)
    view.resize(700, 400)
    for i in range(0, len(LONG_ANSWER), 7):  # as a stream's frames deliver it
        view.append(LONG_ANSWER[i:i + 7])
        view.commit()
    return view


def _unsettled(view: MarkdownView) -> list[LiveText]:
    return [s for s in view.segments if isinstance(s, LiveText) and s.needs_settle]


def _ended_at_a_fence(view: MarkdownView) -> list[LiveText]:
    """The prose segments that ended at a fence mid-stream and were rendered in pieces (the
    open last segment is the live tail: `finish` renders it, as it did while streaming)."""
    *ended, tail = view.segments
    assert isinstance(tail, LiveText) and not tail.done
    return [s for s in ended if isinstance(s, LiveText) and s.needs_settle]


def test_a_finished_part_settles_its_prose_segments_one_per_timer_callback_in_order(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    timers = RecordedTimers()
    monkeypatch.setattr("cherry_desktop.ui.chat._markdown.QTimer", timers)
    view = _streamed_view(qtbot)
    waiting = _ended_at_a_fence(view)
    assert len(waiting) >= 2, "the answer must have several prose segments rendered in pieces"
    assert timers.pending == []  # nothing settles while the part streams

    view.finish()
    # `finish` settles none of them itself: it starts one timer.
    assert _unsettled(view) == waiting and not view.settled
    assert len(timers.pending) == 1
    settled_order: list[LiveText] = []
    while timers.pending:
        before = _unsettled(view)
        timers.run_next()
        after = _unsettled(view)
        assert len(after) == len(before) - 1  # exactly one segment per callback...
        settled_order.append(next(s for s in before if s not in after))
        assert len(timers.pending) == (1 if after else 0)  # ...and the next one waits its turn
    assert settled_order == waiting  # top to bottom
    assert view.settled


def test_the_settle_runs_on_the_real_loop_and_renders_as_the_reloaded_message(qtbot: Any) -> None:
    view = _streamed_view(qtbot)
    order: list[int] = []
    waiting = _ended_at_a_fence(view)
    for index, segment in enumerate(view.segments):
        if segment in waiting:
            real = segment.settle
            segment.settle = lambda real=real, index=index: (order.append(index), real())  # type: ignore[method-assign]
    view.finish()
    assert order == []
    qtbot.waitUntil(lambda: view.settled)
    assert order == [view.segments.index(s) for s in waiting]  # each once, top to bottom
    reloaded = MarkdownView(LONG_ANSWER)
    qtbot.addWidget(reloaded)
    assert view.toPlainText() == reloaded.toPlainText()


class _PaintSeen(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.painted = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted = True
        return False


async def test_pygments_warms_up_after_the_first_window_painted_and_before_the_first_fence(
        controller: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    clear_highlight_caches()
    warm_ups: list[bool] = []  # for each warm-up: had the first window painted?
    paint = _PaintSeen()

    def recording_warm_up() -> None:
        warm_ups.append(paint.painted)
        warm_up_highlighting()

    monkeypatch.setattr("cherry_desktop.ui.shell._controller.warm_up_highlighting", recording_warm_up)
    controller.window_opened.connect(lambda window: window.installEventFilter(paint))
    first = controller.open_window(controller.bridges.chats.create_topic())
    # Opening the window neither imports nor builds anything for highlighting...
    assert warm_ups == [] and highlight_cache_info()["html"].currsize == 0
    await until(lambda: warm_ups)
    # ...the timer it started does, once the window painted.
    assert warm_ups == [True]
    caches = highlight_cache_info()
    assert caches["formatters"].currsize == 1 and caches["lexers"].currsize == 1

    # The first fence closing mid-stream builds no lexer or formatter: the warm-up did.
    lexers, formatters = highlight_cache_info()["lexers"].misses, highlight_cache_info()["formatters"].misses
    view = MarkdownView(done=False)
    qtbot.addWidget(view)
    for delta in ("Code:\n\n```python\nprint('hi')\n", "```\n\nDone."):
        view.append(delta)
        view.commit()
    code = next(s for s in view.segments if isinstance(s, CodeBlock))
    await until(lambda: not code.text.streaming)  # highlighted
    assert (highlight_cache_info()["lexers"].misses, highlight_cache_info()["formatters"].misses) == (
        lexers, formatters)

    # A second window starts no second warm-up: a timer started after it, twice the warm-up's
    # delay, fires with the count unchanged.
    second = controller.open_window(controller.bridges.chats.create_topic())
    marker: list[bool] = []
    QTimer.singleShot(2 * HIGHLIGHT_WARM_UP_MS, lambda: marker.append(True))
    await until(lambda: marker)
    assert warm_ups == [True]
    for window in (first, second):
        window.close()
