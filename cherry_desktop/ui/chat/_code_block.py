"""A fenced code block as its own widget: language name, copy button, highlighted text.

Highlighting uses Pygments, imported shortly after the first window opened
(`warm_up_highlighting`; not at start: importing it and its lexers would cost the first
paint). While a fence is still open the block streams as plain monospace text; it is
highlighted once, when the fence closes (or the part ends).
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QEvent, QSizeF, Qt, QTimer
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QResizeEvent, QTextCursor, QTextOption
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QTextBrowser, QToolButton, QVBoxLayout, QWidget

from cherry_desktop.ui.chat._blocks import MESSAGE_MENU
from cherry_desktop.ui.chat._markdown_text import grow_height

# Guessing a lexer tries every lexer on the text: only for short blocks without a language.
GUESS_LIMIT = 2000
HIGHLIGHT_LIMIT = 60_000
DARK_STYLE = "monokai"
LIGHT_STYLE = "friendly"


@lru_cache(maxsize=16)
def highlight_html(code: str, language: str, *, dark: bool) -> tuple[str, str]:
    """(HTML with inline colours, the lexer's display name); plain escaped text when no lexer
    fits. Imports Pygments on first use.

    Cached: every window attached to a streaming topic highlights the same block as its fence
    closes, and a reloaded message the blocks it streamed."""
    from pygments import highlight
    from pygments.lexers import guess_lexer
    from pygments.util import ClassNotFound

    lexer: Any = None
    try:
        if language:
            lexer = _lexer(language)
        elif len(code) <= GUESS_LIMIT and code.strip():
            guessed = guess_lexer(code)
            # A weak guess names no language (Pygments falls back to plain text lexers).
            lexer = None if guessed.name in ("Text only", "Text output") else guessed
    except ClassNotFound:
        lexer = None
    if lexer is None or len(code) > HIGHLIGHT_LIMIT:
        return f"<pre>{html.escape(code)}</pre>", language
    body = highlight(code, lexer, _formatter(dark)).replace("\n</pre>", "</pre>").strip()
    # Qt's rich text keeps the spans' colours; the block's own background comes from the theme.
    return body, language or str(lexer.name)


@lru_cache(maxsize=32)
def _lexer(language: str) -> Any:
    """The lexer for a language name (raises Pygments' ClassNotFound); lexers are reusable."""
    from pygments.lexers import get_lexer_by_name

    return get_lexer_by_name(language)


@lru_cache(maxsize=2)
def _formatter(dark: bool) -> Any:
    """The HTML formatter for a theme (building one resolves its whole style: done once)."""
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(noclasses=True, nobackground=True, style=DARK_STYLE if dark else LIGHT_STYLE)


def highlight_cache_info() -> dict[str, Any]:
    """The caches' `cache_info()` by name ("html", "lexers", "formatters"): what was built."""
    return {"html": highlight_html.cache_info(), "lexers": _lexer.cache_info(),
            "formatters": _formatter.cache_info()}


def clear_highlight_caches() -> None:
    """Forget every highlighted block, lexer and formatter (as at start)."""
    for cached in (highlight_html, _lexer, _formatter):
        cached.cache_clear()


def warm_up_highlighting() -> None:
    """Import Pygments and build the Python lexer and the theme's formatter, once, while the
    app is idle: the first fence closing mid-stream paid ~30 ms for it in every window's
    loop (measured), and the first paint must not pay for it either."""
    highlight_html("import os", "python", dark=is_dark_theme())


def is_dark_theme() -> bool:
    app = QGuiApplication.instance()
    return bool(app is not None and app.property("cherryTheme") == "dark")


class _CodeText(QTextBrowser):
    """The code itself: monospace, no wrapping (scrolls sideways), as tall as its lines."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeText")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setContextMenuPolicy(MESSAGE_MENU)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWordWrapMode(QTextOption.WrapMode.NoWrap)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.document().setDefaultFont(font)
        self.document().setDocumentMargin(6)
        self.document().setUndoRedoEnabled(False)
        self.streaming = False
        self.height_above = 0
        self.document().documentLayout().documentSizeChanged.connect(self.fit)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.fit()  # the sideways scroll bar may come or go

    def fit(self, size: QSizeF | None = None) -> None:
        height = int(size.height() if size is not None else self.document().size().height())
        bar = self.horizontalScrollBar()
        if self.document().idealWidth() > self.viewport().width():
            height += bar.sizeHint().height()
        if self.streaming:
            if height <= self.height():
                return  # growing only, in steps, while the fence is open (as prose does)
            height = grow_height(height, self.height_above)
        if height != self.height():
            self.setFixedHeight(height)


class CodeBlock(QFrame):
    """One fenced block. `append` streams plain text; `finish` highlights once."""

    def __init__(self, language: str = "", code: str = "", *, done: bool = True,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeBlock")
        # Fixed height: a box layout short of room squeezes shrinkable items, which moved every
        # block below a growing one up and back (full repaints while streaming; measured).
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.language = language.strip()
        self.code = ""
        self.done = False
        self._dark = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        header = QHBoxLayout()
        header.setContentsMargins(10, 3, 4, 0)
        self.language_label = QLabel(self.language or self.tr("code"), self)
        self.language_label.setObjectName("codeLanguage")
        header.addWidget(self.language_label, 1)
        self.copy_button = QToolButton(self)
        self.copy_button.setObjectName("copyCodeButton")
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the code"))
        self.copy_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.copy_button.clicked.connect(self.copy)
        header.addWidget(self.copy_button)
        layout.addLayout(header)
        self.text = _CodeText(self)
        layout.addWidget(self.text)
        self.text.streaming = not done
        if code:
            self.append(code)
        if done:
            self.finish()

    def append(self, code: str) -> None:
        """Streamed code: plain text at the end, no highlighting yet."""
        self.code += code
        cursor = QTextCursor(self.text.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(code)

    def finish(self, *, later: bool = False) -> None:
        """The fence closed: highlight once (the trailing newline is the fence's, not code's);
        `later`: in the next loop iteration (mid-stream, so one frame does not pay for it)."""
        if self.done:
            return
        self.done = True
        if later:
            QTimer.singleShot(0, self, self.highlight)
        else:
            self.highlight()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        # The theme changed (a new application style sheet): colours for the other background.
        if event.type() == QEvent.Type.StyleChange and self.done and self._dark != is_dark_theme():
            self.highlight()

    def highlight(self) -> None:
        self.text.streaming = False
        code = self.code[:-1] if self.code.endswith("\n") else self.code
        self._dark = is_dark_theme()
        body, name = highlight_html(code, self.language, dark=self._dark)
        self.text.setHtml(body)
        self.text.fit()
        if name and not self.language:
            self.language_label.setText(name)

    def copy(self) -> None:
        code = self.code[:-1] if self.code.endswith("\n") else self.code
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(code)
        self.copy_button.setText(self.tr("Copied"))
        QTimer.singleShot(1500, self._reset_copy)

    def _reset_copy(self) -> None:
        try:
            self.copy_button.setText(self.tr("Copy"))
        except RuntimeError:
            pass  # the block was deleted meanwhile
