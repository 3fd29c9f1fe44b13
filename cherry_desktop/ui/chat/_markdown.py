"""A text part as Markdown: prose in `LiveText` segments, fenced code in `CodeBlock` widgets.

Live and stored text take the same path (a stored text is fed whole, then finished), so a
reloaded message looks like the streamed one. Streaming keeps the measured rule: finished
blocks render once, the growing tail stays plain; an open fence streams into its code frame
as plain monospace (never as a literal "```python" line).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from cherry_desktop.ui.chat._blocks import LiveText
from cherry_desktop.ui.chat._code_block import CodeBlock

FENCES = ("```", "~~~")
SEGMENT_SPACING = 6
# Prose segments settle one per timer tick once the part ended (see `finish`).
SETTLE_TICK_MS = 1


def fence_of(line: str) -> str | None:
    """The fence marker a line opens or closes with ("```"/"~~~"), or None."""
    stripped = line.strip()
    for fence in FENCES:
        if stripped.startswith(fence):
            return fence
    return None


def may_become_fence(partial: str) -> bool:
    """Whether an unfinished line could still turn out to be a fence (hold it back)."""
    stripped = partial.lstrip()
    if len(partial) - len(stripped) > 3:
        return False  # indented code, not a fence
    return any(f.startswith(stripped) or stripped.startswith(f) for f in FENCES)


class MarkdownView(QWidget):
    """One text (or reasoning) part. `append` + `commit` per frame while streaming, `finish`
    at its end; the same interface `LiveText` offers, so a row treats both alike."""

    def __init__(self, text: str = "", *, done: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("markdownView")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # Growing at the bottom repaints only the new strip (as the row and its text do).
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents, True)
        # Segments are stacked by hand, not by a box layout: a layout laid out before this
        # widget grew squeezed the segments above a growing one and moved them back a moment
        # later, and every move repainted the whole view while it followed a stream (measured).
        self._height = 0
        self._source: list[str] = []
        self._pending: list[str] = []
        self._line = ""  # the unfinished last line, not yet routed
        self._mid_line = False  # the start of the current line is already shown
        # In `finish` (stored text, or the end of a part): blocks render at once. While
        # streaming, the extra work at a fence waits for the next loop iteration.
        self._finishing = False
        self._prose: LiveText | None = None
        self._code: CodeBlock | None = None
        self._fence = ""
        self.segments: list[QWidget] = []
        self._unsettled: list[LiveText] = []
        self.done = False
        if text:
            self.append(text)
        if done:
            self.finish()
        else:
            self.commit()

    @property
    def markdown_source(self) -> str:
        return "".join(self._source) + "".join(self._pending)

    def append(self, delta: str) -> None:
        self._pending.append(delta)

    def commit(self) -> None:
        """Route the frame's text: whole lines to prose or code, then the unfinished line."""
        if not self._pending:
            return
        new = "".join(self._pending)
        self._pending.clear()
        self._source.append(new)
        text = self._line + new
        lines = text.split("\n")
        self._line = lines.pop()
        for line in lines:
            self._route_line(line + "\n")
        self._route_partial()
        if self._prose is not None:
            self._prose.commit()

    def finish(self) -> None:
        """The part ended: the unfinished line is routed, open blocks render (an unclosed
        fence is highlighted as if it had closed)."""
        self._source.extend(self._pending)
        text = self._line + "".join(self._pending)
        self._pending.clear()
        self._line = ""
        self._finishing = True
        for line in text.splitlines(keepends=True):
            self._route_line(line)
        if self._code is not None:
            self._code.finish()
            self._code = None
        if self._prose is not None:
            self._prose.finish()
            self._prose = None
        # Prose segments that ended at a fence while streaming render once more as a whole
        # (spaced as the reloaded message), one per timer tick: posted all at once they ran
        # back to back, ~1 ms each, and a long reply in three windows stalled the loop for
        # ~170 ms at its end (measured).
        self._unsettled = [s for s in self.segments if isinstance(s, LiveText) and s.needs_settle]
        if self._unsettled:
            QTimer.singleShot(SETTLE_TICK_MS, self, self._settle_next)
        self.done = True

    @property
    def settled(self) -> bool:
        """Finished, and every prose segment rendered as a whole (as a reloaded message)."""
        return self.done and not self._unsettled

    def _settle_next(self) -> None:
        if self._unsettled:
            self._unsettled.pop(0).settle()
        if self._unsettled:
            QTimer.singleShot(SETTLE_TICK_MS, self, self._settle_next)

    # -- routing ---------------------------------------------------------------------------
    def _route_line(self, line: str) -> None:
        if self._mid_line:  # the rest of a line shown in part: never a fence
            self._mid_line = False
            target = self._code if self._code is not None else self._prose_segment()
            target.append(line)
            return
        if self._code is not None:
            if fence_of(line) == self._fence and not line.strip().strip(self._fence[0]):
                self._code.finish(later=not self._finishing)
                self._code = None
            else:
                self._code.append(line)
            return
        fence = fence_of(line)
        if fence is not None:
            if self._prose is not None:
                self._prose.finish(settle=self._finishing)
                self._prose = None
            self._fence = fence
            language = line.strip()[len(fence):].strip().split(" ")[0] if line.strip() != fence else ""
            self._code = CodeBlock(language, done=False)
            self._add(self._code)
            return
        self._prose_segment().append(line)

    def _route_partial(self) -> None:
        """The unfinished line shows live unless it may still become a fence."""
        if not self._line:
            return
        if self._mid_line or not may_become_fence(self._line):
            target = self._code if self._code is not None else self._prose_segment()
            target.append(self._line)
            self._line = ""
            self._mid_line = True

    def _prose_segment(self) -> LiveText:
        if self._prose is None:
            self._prose = LiveText(done=False)
            self._add(self._prose)
        return self._prose

    def _add(self, widget: QWidget) -> None:
        above = self._height
        if isinstance(widget, LiveText):
            widget.height_above = above
        elif isinstance(widget, CodeBlock):
            widget.text.height_above = above
        self.segments.append(widget)
        widget.setParent(self)
        widget.show()
        self._stack(len(self.segments) - 1)  # below the last: the segments above stay

    # -- stacking ----------------------------------------------------------------------------
    @staticmethod
    def _segment_height(widget: QWidget, width: int) -> int:
        if isinstance(widget, LiveText):
            return widget.height()
        return widget.heightForWidth(width) if widget.hasHeightForWidth() else widget.sizeHint().height()

    def _stack(self, start: int = 0) -> None:
        """Place the segments from `start` on below each other (and size this view to them)."""
        width = self.width()
        y = self.segments[start - 1].geometry().bottom() + 1 if start else 0
        for i, widget in enumerate(self.segments[start:], start):
            if i:
                y += SEGMENT_SPACING
            height = self._segment_height(widget, width)
            if widget.geometry() != QRect(0, y, width, height):
                widget.setGeometry(0, y, width, height)
            y += height
        if y != self._height:
            self._height = y
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        return QSize(self.width(), self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self._height)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self._stack()  # a segment changed its size
        return super().event(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._stack()

    def toPlainText(self) -> str:
        out = []
        for segment in self.segments:
            if isinstance(segment, LiveText):
                out.append(segment.toPlainText())
            elif isinstance(segment, CodeBlock):
                out.append(segment.text.toPlainText())
        return "\n".join(out)
