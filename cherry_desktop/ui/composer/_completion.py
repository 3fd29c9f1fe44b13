"""Completion in the composer, as in Claude Code, Zed or Cherry Studio: "/" at the start of a
message offers the agent's commands, "@" after a space (or at the start) the files of the
session's workspace. A list opens above the box; the keyboard stays in the box: Up and Down
move, Tab or Enter pick (Enter then does not send), Esc closes the list (and nothing else).
What is picked replaces the word typed: "/compact ", "@src/app.py " (the agent reads the path)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QPlainTextEdit, QWidget

from cherry_desktop.ui.common import spawn

#: At most this many entries in the list (the best matches first).
MAX_SHOWN = 50
VISIBLE_ROWS = 8
#: A file list older than this is listed again at the next "@".
FILES_STALE_S = 20.0

FileLister = Callable[[], Awaitable[list[str]]]


@dataclass(frozen=True)
class Trigger:
    """The word being completed: "/" or "@", where it starts in the text, what follows it."""

    kind: str
    start: int
    query: str


def find_trigger(text: str, cursor: int, *, commands: bool, files: bool) -> Trigger | None:
    """The completion the cursor is in: a "/" word that starts the message, or an "@" word."""
    before = text[:cursor]
    if commands and before.startswith("/") and not any(c.isspace() for c in before):
        return Trigger("/", 0, before[1:])
    at = before.rfind("@")
    if files and at >= 0 and (at == 0 or before[at - 1].isspace()) and not any(
            c.isspace() for c in before[at + 1:]):
        return Trigger("@", at, before[at + 1:])
    return None


def rank(candidates: Sequence[str], query: str, *, limit: int = MAX_SHOWN) -> list[str]:
    """Candidates matching `query` (case-insensitive), best first: the name starts with it, the
    path does, the name holds it, the path does, then its letters in order; shorter first."""
    q = query.lower().lstrip("/")
    if not q:
        return list(candidates[:limit])
    scored: list[tuple[int, int, str]] = []
    for candidate in candidates:
        path = candidate.lower().lstrip("/")
        name = path.rsplit("/", 1)[-1]
        if name.startswith(q):
            score = 0
        elif path.startswith(q):
            score = 1
        elif q in name:
            score = 2
        elif q in path:
            score = 3
        elif _in_order(q, path):
            score = 4
        else:
            continue
        scored.append((score, len(path), candidate))
    scored.sort()
    return [candidate for _, _, candidate in scored[:limit]]


def _in_order(query: str, text: str) -> bool:
    letters = iter(text)
    return all(ch in letters for ch in query)


class CompletionList(QListWidget):
    """The list above the composer: it never takes the focus (the box keeps the keyboard)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("composerCompletion")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setUniformItemSizes(True)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.hide()

    def entries(self) -> list[str]:
        """The choices shown, in order (a note such as "Listing files…" is not one)."""
        return [self.item(i).text() for i in range(self.count())
                if self.item(i).flags() & Qt.ItemFlag.ItemIsSelectable]


class ComposerCompletion(QObject):
    """The completion of one composer box (`editor`): its commands (`set_commands`) and the
    lister of its session's files (`set_files`); the list shows in the box's window."""

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self.editor = editor
        self.popup = CompletionList(editor)  # moved into the window when shown (above the box)
        self.commands: tuple[str, ...] = ()
        self._lister: FileLister | None = None
        self._files: list[str] | None = None
        self._files_at = 0.0
        self._listing: asyncio.Task[None] | None = None
        self._dismissed: Trigger | None = None
        self.popup.itemClicked.connect(lambda item: self.pick(item.text()))
        editor.textChanged.connect(self.refresh)
        editor.cursorPositionChanged.connect(self.refresh)
        editor.installEventFilter(self)

    def set_commands(self, commands: Sequence[str]) -> None:
        self.commands = tuple(commands)
        self.refresh()

    def set_files(self, lister: FileLister | None) -> None:
        """Where "@" finds files (None: no "@" completion); the list is read at the next "@"."""
        self._lister = lister
        self._files = None
        if self._listing is not None:
            self._listing.cancel()
            self._listing = None
        self.refresh()

    @property
    def showing(self) -> bool:
        return self.popup.isVisible()

    def trigger(self) -> Trigger | None:
        cursor = self.editor.textCursor()
        if cursor.hasSelection():
            return None
        return find_trigger(self.editor.toPlainText(), cursor.position(),
                            commands=bool(self.commands), files=self._lister is not None)

    def refresh(self) -> None:
        trigger = self.trigger()
        if trigger is None:
            self._dismissed = None
        if trigger is None or trigger == self._dismissed or not self.editor.hasFocus():
            self.hide()
            return
        self._dismissed = None
        if trigger.kind == "/":
            self._show(rank(self.commands, trigger.query), note=None)
            return
        if self._files is None or time.monotonic() - self._files_at > FILES_STALE_S:
            self._list_files()
        if self._files is None:
            self._show([], note=self.tr("Listing files…"))
        else:
            self._show(rank(self._files, trigger.query), note=None)

    def _list_files(self) -> None:
        if self._lister is None or (self._listing is not None and not self._listing.done()):
            return
        lister = self._lister

        async def run() -> None:
            files = await lister()
            if lister is self._lister:
                self._files, self._files_at = files, time.monotonic()
                self.refresh()

        self._listing = spawn(run())

    def _show(self, entries: list[str], *, note: str | None) -> None:
        popup = self.popup
        popup.clear()
        if note is not None:
            item = QListWidgetItem(note)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            popup.addItem(item)
        popup.addItems(entries)
        if popup.count() == 0:
            self.hide()
            return
        if entries:
            popup.setCurrentRow(popup.count() - len(entries))
        self._place()

    def _place(self) -> None:
        popup, editor = self.popup, self.editor
        window = editor.window()
        if popup.parentWidget() is not window:
            popup.setParent(window)
            window.installEventFilter(self)  # a resized window moves the box: the list follows
        rows = min(VISIBLE_ROWS, popup.count())
        height = rows * max(popup.sizeHintForRow(0), 1) + 2 * popup.frameWidth() + 2
        width = min(max(320, editor.width() // 2), editor.width())
        x = editor.cursorRect().left() if self.trigger() else 0
        top_left = editor.mapTo(window, QPoint(min(x, editor.width() - width), 0))
        popup.setGeometry(top_left.x(), max(0, top_left.y() - height - 2), width, height)
        popup.show()
        popup.raise_()

    def hide(self) -> None:
        self.popup.hide()

    def pick(self, entry: str | None = None) -> bool:
        """Put `entry` (the current one when None) in place of the word being completed."""
        trigger = self.trigger()
        current = self.popup.currentItem()
        if entry is None and current is not None and current.flags() & Qt.ItemFlag.ItemIsSelectable:
            entry = current.text()
        if trigger is None or entry is None:
            return False
        cursor = self.editor.textCursor()
        cursor.setPosition(trigger.start)
        cursor.setPosition(self.editor.textCursor().position(), cursor.MoveMode.KeepAnchor)
        cursor.insertText(f"{entry} " if trigger.kind == "/" else f"@{entry} ")
        self.editor.setTextCursor(cursor)
        self.hide()
        return True

    def _move(self, step: int) -> None:
        popup = self.popup
        selectable = [i for i in range(popup.count()) if popup.item(i).flags() & Qt.ItemFlag.ItemIsSelectable]
        if not selectable:
            return
        at = selectable.index(popup.currentRow()) if popup.currentRow() in selectable else -1
        popup.setCurrentRow(selectable[(at + step) % len(selectable)])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The box's keys while the list shows: Up/Down move, Tab/Enter pick, Esc closes it."""
        if watched is not self.editor:
            if event.type() == QEvent.Type.Resize and self.showing:
                self._place()
            return False
        if event.type() == QEvent.Type.FocusOut:
            self.hide()
        if event.type() != QEvent.Type.KeyPress or not self.showing or not isinstance(event, QKeyEvent):
            return False
        key, mods = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods not in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            return False
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and not mods:
            self._move(-1 if key == Qt.Key.Key_Up else 1)
            return True
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Return, Qt.Key.Key_Enter) and not mods:
            # A list still being read ("Listing files…") has nothing to pick: the key is eaten,
            # never a send.
            self.pick()
            return True
        if key == Qt.Key.Key_Escape and not mods:
            self._dismissed = self.trigger()
            self.hide()
            return True
        return False
