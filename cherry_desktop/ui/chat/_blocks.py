"""The pieces a message row is made of: Markdown blocks, the live text tail, reasoning,
tool cards, error blocks and the usage footer.

Streaming rule (measured): re-rendering a whole message as Markdown every frame costs about
250 ms p99 at 2 000 chunks/s, appending costs about 5 ms. So `LiveText` renders each
finished Markdown block once, and only the growing tail (the open paragraph, at most about
`TAIL_SOFT_LIMIT` characters) is laid out per frame: appended as plain text while it holds no
Markdown syntax, rendered again as Markdown when it does (raw `**` never shows mid-stream).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSizeF, Qt
from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QTextBrowser, QToolButton, QVBoxLayout, QWidget

from cherry_desktop.ui.chat._error_words import ErrorWords
from cherry_desktop.ui.chat._markdown_text import (
    grow_height,
    has_markup,
    insert_markdown_block,
    split_finished_blocks,
    style_blockquotes,
)
from cherry_desktop.ui.common import JsonObject

# A right-click on a message's text opens the message's menu (the view adds the text's own
# Copy and Select all to it), not Qt's text menu: the event goes on to the row's view.
MESSAGE_MENU = Qt.ContextMenuPolicy.NoContextMenu


def _label(text: str = "", *, markdown: bool, object_name: str = "") -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.MarkdownText if markdown else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                  | Qt.TextInteractionFlag.LinksAccessibleByMouse)
    label.setOpenExternalLinks(True)
    label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)
    label.setContextMenuPolicy(MESSAGE_MENU)
    if object_name:
        label.setObjectName(object_name)
    if text:
        label.setText(text)
    return label




class LiveText(QTextBrowser):
    """A text (or reasoning) part in one `QTextDocument` sized to its content.

    Finished Markdown blocks are inserted once (`insertMarkdown`); the open tail is plain text
    appended at the document's end, so a frame costs an incremental layout of the last block
    instead of a relayout of the message.
    """

    def __init__(self, text: str = "", *, done: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("liveText")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContextMenuPolicy(MESSAGE_MENU)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setOpenExternalLinks(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        # The document is anchored top-left: growing by a step only needs the new strip
        # painted (Qt repaints a whole widget on resize otherwise), and a width change
        # relayouts the document, which repaints it anyway.
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents, True)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_StaticContents, True)
        self.document().setDocumentMargin(0)
        # Read-only: an undo stack would only keep a copy of every streamed edit.
        self.document().setUndoRedoEnabled(False)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._rendered: list[str] = []
        self._tail = ""
        self._pending: list[str] = []
        self._tail_pos = 0
        self.done = False
        # Height of the message's parts above this one (set by its container; sizes steps).
        self.height_above = 0
        if text:
            self._pending.append(text)
        if done:
            self.finish()
        else:
            self.commit()

    @property
    def rendered_blocks(self) -> list[str]:
        """The finished blocks rendered as Markdown so far, in order."""
        return list(self._rendered)

    @property
    def tail(self) -> str:
        """The growing tail after the last finished block (shown as plain text until it ends)."""
        return self._tail

    @property
    def markdown_source(self) -> str:
        return "".join(self._rendered) + self._tail + "".join(self._pending)

    def append(self, delta: str) -> None:
        self._pending.append(delta)

    def commit(self) -> None:
        """Apply the frame's deltas: render newly finished blocks once, extend the tail."""
        if not self._pending:
            return
        new = "".join(self._pending)
        self._pending.clear()
        finished, tail = split_finished_blocks(self._tail + new)
        cursor = QTextCursor(self.document())
        if not finished and not has_markup(tail):
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(new)
            self._tail = tail
            return
        # One edit block: the document lays out once, not after each step.
        cursor.beginEditBlock()
        self._drop_tail(cursor)
        if finished:
            self._insert_markdown(cursor, finished)
        self._tail = tail
        if tail and has_markup(tail):
            insert_markdown_block(cursor, tail)  # the open paragraph, rendered again next frame
        elif tail:
            cursor.insertText(tail)
        cursor.endEditBlock()

    def finish(self, *, settle: bool = True) -> None:
        """The part ended: the remaining tail becomes Markdown, once. A part that streamed in
        several pieces is then rendered again as one document (`settle`), so it is spaced
        exactly as the same message reloaded from the database. Without `settle` (a prose
        segment that ends mid-stream, at a code fence) its owner settles it once the whole
        message ended: while streaming, a re-render moved everything below it."""
        self._tail += "".join(self._pending)
        self._pending.clear()
        pieces = len(self._rendered) + bool(self._tail)
        if self._tail:
            cursor = QTextCursor(self.document())
            cursor.beginEditBlock()
            self._drop_tail(cursor)
            self._insert_markdown(cursor, self._tail, open_tail=False)
            cursor.endEditBlock()
            self._tail = ""
        self.done = True
        if pieces > 1 and settle:
            self.settle()
        self._fit()

    @property
    def needs_settle(self) -> bool:
        """Whether `settle` would render anything (the part was rendered in pieces)."""
        return len(self._rendered) > 1

    def settle(self) -> None:
        """Render the finished part again as one Markdown document (see `finish`)."""
        if not self.needs_settle:
            return
        source = "".join(self._rendered)
        self._rendered.clear()
        self._tail_pos = 0
        self.document().clear()
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        self._insert_markdown(cursor, source, open_tail=False)
        cursor.endEditBlock()
        self._fit()

    def _drop_tail(self, cursor: QTextCursor) -> None:
        cursor.setPosition(self._tail_pos)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        # A tail rendered as Markdown may have left its block a list item, a heading or bold:
        # what comes next starts from a plain block.
        shown_list = cursor.currentList()
        if shown_list is not None:
            shown_list.remove(cursor.block())
        cursor.setBlockFormat(QTextBlockFormat())
        cursor.setCharFormat(QTextCharFormat())

    def _insert_markdown(self, cursor: QTextCursor, text: str, *, open_tail: bool = True) -> None:
        self._rendered.append(text)
        if text.strip():
            if self._tail_pos > 0 and not cursor.atBlockStart():
                cursor.insertBlock()
            shown = text.strip("\n")
            if "$" in shown or "\\" in shown:
                from cherry_desktop.ui.chat._math import has_math, replace_math  # ziamath on first formula

                if has_math(shown):
                    shown = replace_math(shown, self.document())
            start = insert_markdown_block(cursor, shown)
            if ">" in text:
                style_blockquotes(self.document(), start, cursor.position())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self._tail_pos = cursor.position()
        if open_tail and self._tail_pos > 0:
            # The tail starts on its own line below the finished blocks.
            cursor.insertBlock()
            cursor.setBlockFormat(QTextBlockFormat())
            self._tail_pos = cursor.position()

    def _fit(self, size: QSizeF | None = None) -> None:
        doc_height = int(size.height() if size is not None else self.document().size().height()) + 2
        if self.done:
            height = doc_height
        elif doc_height <= self.height():
            return  # still fits: growing only, while streaming
        else:
            # While streaming, grow in steps: a height change relayouts the whole message view,
            # which costs far more per frame than painting the appended text.
            height = grow_height(doc_height, self.height_above)
        if height != self.height():
            self.setFixedHeight(height)


class ReasoningBlock(QFrame):
    """Collapsible reasoning; collapsed unless the user opens it."""

    def __init__(self, text: str = "", *, done: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reasoningBlock")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("reasoningToggle")
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setText(self.tr("Reasoning"))
        self.toggle.toggled.connect(self._on_toggled)
        self.text = LiveText(text, done=done)
        self.text.setVisible(False)
        layout.addWidget(self.toggle)
        layout.addWidget(self.text)

    def _on_toggled(self, on: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.text.setVisible(on)


class ToolCard(QFrame):
    """A tool call: name and state, its arguments as fields (a diff for file edits), then its
    output (folded when long), error or denial."""

    def __init__(self, fields: JsonObject, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from cherry_desktop.ui.chat._tool_view import FoldingText

        self.setObjectName("toolCard")
        self.fields: JsonObject = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(4)
        self.header = QLabel(self)
        self.header.setObjectName("toolHeader")
        self.input_label = _label(markdown=False, object_name="toolInput")
        self.input_label.setTextFormat(Qt.TextFormat.RichText)
        self.result_label = FoldingText("toolOutput", self)
        self.result_label.label.setContextMenuPolicy(MESSAGE_MENU)
        for w in (self.header, self.input_label, self.result_label):
            layout.addWidget(w)
        self._input_key: Any = None
        self.update_fields(fields)

    def _state_text(self, state: str, unanswered: bool) -> str:
        if unanswered:
            return self.tr("not run")
        return {
            "input-streaming": self.tr("preparing"),
            "input-available": self.tr("running"),
            "approval-requested": self.tr("waiting for approval"),
            "approval-responded": self.tr("approved"),
            "output-available": self.tr("done"),
            "output-error": self.tr("failed"),
            "output-denied": self.tr("denied"),
        }.get(state, state)

    def update_fields(self, fields: JsonObject) -> None:
        from cherry_desktop.core.messages import UNANSWERED
        from cherry_desktop.ui.chat._tool_view import display_tool_name, readable_output, tool_input_html

        self.fields.update(fields)
        f = self.fields
        state = str(f.get("state") or "input-streaming")
        # Closed because the turn ended (a Stop) before anyone answered: not the user's denial.
        unanswered = state == "output-denied" and bool((f.get("provider_metadata") or {}).get(UNANSWERED))
        self.setProperty("state", state)
        duration = f.get("duration_ms")
        suffix = ""
        if isinstance(duration, int | float):
            suffix = f" · {duration:.0f} ms" if duration < 1000 else f" · {duration / 1000:.1f} s"
        name = str(f.get("tool_name") or "?")
        self.header.setText(f"{display_tool_name(name)} — {self._state_text(state, unanswered)}{suffix}")
        tool_input = f.get("input")
        if tool_input is None:
            tool_input = f.get("input_text")
        key = (name, id(tool_input), tool_input if isinstance(tool_input, str) else None)
        if key != self._input_key:  # rendered once per input, not per state change
            self._input_key = key
            self.input_label.setText(tool_input_html(name, tool_input, provider_metadata=f.get("provider_metadata")))
        self.input_label.setVisible(tool_input not in (None, "", {}))
        if state == "output-available":
            result = readable_output(f.get("output"))
        elif state == "output-error":
            result = self.tr("Error: %1").replace("%1", str(f.get("error_text") or ""))
        elif unanswered:
            result = self.tr("Not run: the turn ended before it was answered")
        elif state == "output-denied":
            reason = f.get("error_text")
            result = self.tr("Denied by the user") + (f" ({reason})" if reason else "")
        else:
            result = ""
        self.result_label.set_text(result)
        self.result_label.label.setProperty("state", state)
        self.result_label.label.style().unpolish(self.result_label.label)
        self.result_label.label.style().polish(self.result_label.label)
        self.style().unpolish(self)
        self.style().polish(self)


class ErrorBlock(QLabel):
    """A failed turn's error, readable (never a raw traceback): the words for its `code`, the
    source's own `message` below them; a row stored without a code shows its message."""

    def __init__(self, message: str, parent: QWidget | None = None, code: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBlock")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setContextMenuPolicy(MESSAGE_MENU)
        worded = ErrorWords().describe(code, message)
        self.setText(worded or self.tr("The reply failed: %1").replace("%1", message))
