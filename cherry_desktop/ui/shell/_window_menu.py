"""A window's File menu: its actions, their shortcuts (also live while the menu is closed) and
object names. The texts keep the window's translation context ("ChatWindow")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow

from cherry_desktop.ui.shell._backup_actions import back_up, restore

if TYPE_CHECKING:
    from cherry_desktop.ui.shell._window_parts import WindowHost


def build_menu(window: QMainWindow, host: WindowHost, *, open_in_new_window: Callable[[], object],
               new_chat: Callable[[], object], export_markdown: Callable[[], object]) -> QAction:
    """Fill `window`'s menu bar; returns its "Open in new window" action."""
    menu = window.menuBar().addMenu(QCoreApplication.translate("ChatWindow", "&File"))

    def action(text: str, slot: Callable[[], object], shortcut: QKeySequence.StandardKey | str | None = None,
               name: str = "") -> QAction:
        a = QAction(text, window)
        if isinstance(shortcut, QKeySequence.StandardKey):
            a.setShortcuts(QKeySequence.keyBindings(shortcut))  # all of them: Close is Ctrl+W and Ctrl+F4
        elif shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if name:
            a.setObjectName(name)
        a.triggered.connect(slot)
        menu.addAction(a)
        window.addAction(a)
        return a

    translate = QCoreApplication.translate
    new_window = action(translate("ChatWindow", "Open in new window"), open_in_new_window, "Ctrl+Shift+N",
                        "openInNewWindow")
    action(translate("ChatWindow", "New chat"), new_chat, QKeySequence.StandardKey.New)
    action(translate("ChatWindow", "New agent…"), lambda: host.edit_agent(window, None))
    action(translate("ChatWindow", "Export to Markdown…"), export_markdown, "Ctrl+Shift+E", "exportMarkdown")
    menu.addSeparator()
    action(translate("ChatWindow", "Back up…"), lambda: back_up(window, host.bridges.backup), name="backupAction")
    action(translate("ChatWindow", "Restore…"), lambda: restore(window, host.bridges.backup, host.quit),
           name="restoreAction")
    menu.addSeparator()
    action(translate("ChatWindow", "Providers and API keys…"), lambda: host.open_providers(window, None),
           name="providersAction")
    action(translate("ChatWindow", "Settings…"), lambda: host.open_settings(window),
           QKeySequence.StandardKey.Preferences)
    menu.addSeparator()
    action(translate("ChatWindow", "Close window"), window.close, QKeySequence.StandardKey.Close)
    action(translate("ChatWindow", "Quit"), host.quit, QKeySequence.StandardKey.Quit)
    return new_window
