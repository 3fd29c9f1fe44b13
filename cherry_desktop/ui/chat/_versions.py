"""The version switcher on a chat message (‹ 2/3 ›): after Regenerate or Edit-and-resend, the
earlier versions stay in the tree and this bar shows which one the conversation follows.

Choosing another version asks the chats bridge to show its branch (saved as the topic's active
node, told to every window of the chat); the view then rebuilds from the database.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QToolButton, QWidget


class VersionSwitcher(QWidget):
    """‹ n/m › under a message that has other versions. Left and Right switch when it has focus.

    Signals:
        switch_requested(str): the id of the version to show instead.
    """

    switch_requested = Signal(str)

    def __init__(self, version_ids: list[str], current_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("versionSwitcher")
        self.version_ids = list(version_ids)
        self.index = self.version_ids.index(current_id)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        self.previous_button = self._button("‹", "versionPrevious", self.tr("Previous version"), -1)
        self.label = QLabel(f"{self.index + 1}/{len(self.version_ids)}", self)
        self.label.setObjectName("versionLabel")
        self.next_button = self._button("›", "versionNext", self.tr("Next version"), 1)
        box.addWidget(self.previous_button)
        box.addWidget(self.label)
        box.addWidget(self.next_button)
        box.addStretch(1)
        self.setAccessibleName(self.tr("Version %1 of %2").replace("%1", str(self.index + 1))
                               .replace("%2", str(len(self.version_ids))))
        self.previous_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < len(self.version_ids) - 1)

    def _button(self, text: str, name: str, tip: str, step: int) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.setAutoRaise(True)
        button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        button.clicked.connect(lambda: self.step(step))
        button.installEventFilter(self)
        return button

    @property
    def current_id(self) -> str:
        return self.version_ids[self.index]

    def step(self, step: int) -> None:
        """Ask for the previous (-1) or next (+1) version, when there is one."""
        target = self.index + step
        if 0 <= target < len(self.version_ids):
            self.switch_requested.emit(self.version_ids[target])

    def _arrow(self, event: QKeyEvent) -> bool:
        step = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}.get(Qt.Key(event.key()))
        if step is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        self.step(step)
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._arrow(event):
            super().keyPressEvent(event)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        # A button would move focus on an arrow key: on this bar, arrows switch versions.
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            return self._arrow(event)
        return super().eventFilter(obj, event)


def sync_switcher(row: QWidget, version_ids: list[str] | None, message_id: str) -> VersionSwitcher | None:
    """Give `row` (a MessageRow) the switcher its versions call for, replacing an older one;
    none when the message has a single version. Returns the switcher shown."""
    old = row.findChild(VersionSwitcher, "versionSwitcher", Qt.FindChildOption.FindDirectChildrenOnly)
    if old is not None:
        if version_ids is not None and old.version_ids == version_ids and old.current_id == message_id:
            return old
        old.setParent(None)
        old.deleteLater()
    if not version_ids or message_id not in version_ids:
        return None
    switcher = VersionSwitcher(version_ids, message_id, row)
    layout = row.layout()
    if layout is not None:
        layout.addWidget(switcher)
    return switcher


class _View(Protocol):
    topic_id: str | None
    reloads: int

    def rows(self) -> list[Any]: ...
    def row(self, message_id: str) -> Any: ...
    def reload(self) -> None: ...


class _Chats(Protocol):
    def message_versions(self, topic_id: str) -> dict[str, list[str]]: ...
    def show_version(self, topic_id: str, message_id: str) -> bool: ...


class RowVersions:
    """The versions of the rows a message view shows, and switching between them."""

    def __init__(self, view: _View, chats: _Chats) -> None:
        self.view = view
        self.chats = chats
        self.by_id: dict[str, list[str]] = {}

    def load(self, topic_id: str | None) -> None:
        self.by_id = self.chats.message_versions(topic_id) if topic_id else {}

    def sync(self, row: Any) -> None:
        switcher = sync_switcher(row, self.by_id.get(row.message_id), row.message_id)
        if switcher is not None and not switcher.property("connected"):
            switcher.setProperty("connected", True)
            switcher.switch_requested.connect(self.show)

    def show(self, message_id: str) -> bool:
        """Show the branch of this version. Refused while a row is streaming. Keyboard focus
        stays on the switcher's button that asked."""
        view = self.view
        focus = QApplication.focusWidget()
        button = focus.objectName() if focus is not None and isinstance(focus.parent(), VersionSwitcher) else None
        if view.topic_id is None or any(r.live for r in view.rows()):
            return False
        before = view.reloads
        if not self.chats.show_version(view.topic_id, message_id):
            return False
        if view.reloads == before:  # no window followed the shared cache (a bare view)
            view.reload()
        row = view.row(message_id)
        switcher = row.findChild(VersionSwitcher) if row is not None else None
        if switcher is not None and button is not None:
            # The same button, else the other one (the first or last version disables one).
            targets = [b for b in (switcher.findChild(QWidget, button), switcher.previous_button,
                                   switcher.next_button) if b is not None and b.isEnabled()]
            (targets[0] if targets else switcher).setFocus()
        return True
