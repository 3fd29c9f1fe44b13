"""The system tray: `TrayMenu` lists the live conversations with their states (a click opens
one), "Open window" and "Quit"; `make_tray` shows it on the platform's tray, where there is one.

The menu is built from `Attention` alone, so it exists (and is tested) without a platform tray;
the tray icon only shows it."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from cherry_desktop.ui.shell._attention import Attention
from cherry_desktop.ui.shell._resources import icon


class TrayMenu(QMenu):
    """Rebuilt each time it is about to show (and when made), from `Attention.live_topics`.

    Signals:
        open_topic_requested(str): the user picked a conversation (topic id).
        open_window_requested(): "Open window".
        quit_requested(): "Quit".
    """

    open_topic_requested = Signal(str)
    open_window_requested = Signal()
    quit_requested = Signal()

    def __init__(self, attention: Attention, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trayMenu")
        self.attention = attention
        self.aboutToShow.connect(self.rebuild)
        self.rebuild()

    def rebuild(self) -> None:
        self.clear()
        live = self.attention.live_topics()
        for topic_id, state in live:
            action = self.addAction(self.tr("Open “%1” — %2").replace("%1", self.attention.topic_title(topic_id))
                                    .replace("%2", self.attention.state_words(state)))
            action.setData(topic_id)
            action.triggered.connect(lambda _checked=False, t=topic_id: self.open_topic_requested.emit(t))
        if not live:
            self.addAction(self.tr("No conversation is running")).setEnabled(False)
        self.addSeparator()
        self.addAction(self.tr("Open window")).triggered.connect(self.open_window_requested)
        self.addAction(self.tr("Quit")).triggered.connect(self.quit_requested)


def make_tray(menu: TrayMenu, attention: Attention, parent: QObject) -> QSystemTrayIcon | None:
    """The tray icon showing `menu`, its tooltip following what waits; None without a tray."""
    if not QSystemTrayIcon.isSystemTrayAvailable():
        return None
    tray = QSystemTrayIcon(icon("cherry"), parent)
    tray.setContextMenu(menu)
    tray.setToolTip(attention.window_title())
    attention.waiting_changed.connect(lambda _count: tray.setToolTip(attention.window_title()))
    tray.show()
    return tray
