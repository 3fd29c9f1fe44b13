"""Translating a chat message: the row's context menu offers languages; the translation streams
into a block under the original and is saved with it (a `data-translation` part)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QFrame, QLabel, QMenu, QVBoxLayout, QWidget
from shiboken6 import isValid

from cherry_desktop.ui.bridge import StreamsBridge, TranslationRefusedError
from cherry_desktop.ui.chat._blocks import MESSAGE_MENU
from cherry_desktop.ui.chat._markdown import MarkdownView
from cherry_desktop.ui.common import spawn

#: The menu's languages, by the code core's translation takes.
MENU_LANGUAGES = ("en", "zh-CN", "zh-TW", "ja", "ko", "fr", "de", "es")


def language_name(code: str) -> str:
    translate = QCoreApplication.translate
    return {
        "en": translate("Translate", "English"), "zh-CN": "简体中文", "zh-TW": "繁體中文", "ja": "日本語",
        "ko": "한국어", "fr": "Français", "de": "Deutsch", "es": "Español",
    }.get(code, code)


class TranslationBlock(QFrame):
    """A translation under the original text, rendered as Markdown (as the original is), also
    while it streams; then shows what was saved. A failure's words go below it (`note`)."""

    def __init__(self, language: str, text: str = "", *, done: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("translationBlock")
        self.language = language
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(10, 6, 10, 6)
        self.header = QLabel(self)
        self.header.setObjectName("translationHeader")
        self.body = self._new_body(text, done=done)
        self.note = QLabel(self)
        self.note.setObjectName("translationNote")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note.setContextMenuPolicy(MESSAGE_MENU)
        self._layout.addWidget(self.header)
        self._layout.addWidget(self.body)
        self._layout.addWidget(self.note)
        self.text = text
        self.state = "done" if done else "streaming"
        self.error_text = ""
        self._render()

    def _new_body(self, text: str = "", *, done: bool = False) -> MarkdownView:
        body = MarkdownView(text, done=done, parent=self)
        body.setObjectName("translationText")
        return body

    @property
    def alive(self) -> bool:
        """False once Qt deleted the block or its parts (its row was removed or reloaded)."""
        return isValid(self) and isValid(self.header) and isValid(self.body)

    def restart(self) -> None:
        """Empty, for a new translation into the same language."""
        old, self.body = self.body, self._new_body()
        self._layout.replaceWidget(old, self.body)
        old.deleteLater()
        self.text = ""
        self.finish("streaming")

    def append(self, delta: str) -> None:
        self.text += delta
        self.body.append(delta)
        self.body.commit()

    def finish(self, state: str, error: str = "") -> None:
        self.state = state
        self.error_text = error
        if state != "streaming" and not self.body.done:
            self.body.finish()
        self._render()

    def _render(self) -> None:
        name = language_name(self.language)
        words = {
            "streaming": self.tr("Translating to %1…"),
            "done": self.tr("Translation (%1)"),
            "error": self.tr("Translation to %1 failed"),
            "paused": self.tr("Translation to %1 stopped"),
        }
        self.header.setText(words.get(self.state, words["done"]).replace("%1", name))
        error = self.error_text if self.state == "error" else ""
        self.note.setText(error)
        self.note.setVisible(bool(error))
        self.body.setVisible(bool(self.text))
        self.setProperty("state", self.state)
        self.style().unpolish(self)
        self.style().polish(self)


class TranslationListener:
    """The stream's listener on the UI side: deltas into the block, then its end."""

    def __init__(self, block: TranslationBlock) -> None:
        self.id = f"translation-ui-{id(self)}"
        self.block = block
        self.ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_chunk(self, chunk: Any, source_model_id: str | None = None, anchor_message_id: str | None = None) -> None:
        if chunk.type == "text-delta" and self.block.alive:
            self.block.append(chunk.delta)

    def _end(self, state: str, error: str = "") -> None:
        if not self.ended.done():
            self.ended.set_result(state)
        if self.block.alive:
            self.block.finish(state, error)

    async def on_done(self, result: Any) -> None:
        self._end("done")

    async def on_paused(self, result: Any) -> None:
        self._end("paused")

    async def on_error(self, result: Any) -> None:
        error = getattr(result, "error", None)  # a `StreamErrorResult` (its type loads with the stream)
        self._end("error", str(getattr(error, "message", "") or ""))

    def is_alive(self) -> bool:
        return True


def block_for(row: Any, language: str) -> TranslationBlock:
    """The row's block for `language`, emptied for a new translation (made if missing)."""
    for found in row.findChildren(TranslationBlock):
        if found.language == language:
            existing: TranslationBlock = found
            existing.restart()
            return existing
    block = TranslationBlock(language, done=False)
    row.body.addWidget(block)
    return block


def add_translate_menu(menu: QMenu, pick: Callable[[str], None]) -> QMenu:
    sub = menu.addMenu(QCoreApplication.translate("Translate", "Translate to"))
    for code in MENU_LANGUAGES:
        sub.addAction(language_name(code), functools.partial(pick, code))
    return sub


class RowFinder(Protocol):
    """The message view, as a translation needs it (its rows import this module)."""

    def row(self, message_id: str) -> Any: ...  # a MessageRow (its module imports this one)


def translate_row(view: RowFinder, streams: StreamsBridge, message_id: str,
                  language: str) -> asyncio.Task[Any] | None:
    """Stream a translation of the row's message into a block under it (saved on success)."""
    row = view.row(message_id)
    if row is None:
        return None
    block = block_for(row, language)
    listener = TranslationListener(block)

    async def run() -> str:
        try:
            await streams.translate_message(message_id, language, listener)
        except TranslationRefusedError as exc:
            words = {
                "no-text": QCoreApplication.translate("Translate", "This message has no text to translate."),
                "no-model": QCoreApplication.translate(
                    "Translate", "Choose a model for this chat (or a naming model in Settings) to translate."),
                "busy": QCoreApplication.translate("Translate", "This message is already being translated."),
            }
            block.finish("error", words.get(exc.code, exc.code))
            return "error"
        return await listener.ended

    return spawn(run())
