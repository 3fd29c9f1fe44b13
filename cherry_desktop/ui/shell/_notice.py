"""A desktop notification: the tray icon's message where there is a tray, else the desktop's
notification service through `notify-send` (freedesktop notifications: a Linux desktop
without a tray, such as GNOME without its tray extension, still shows them)."""

from __future__ import annotations

import logging
import shutil
import sys

from PySide6.QtCore import QProcess
from PySide6.QtWidgets import QSystemTrayIcon

from cherry_desktop.ui.shell._resources import icon

log = logging.getLogger(__name__)
NOTICE_MS = 5000
APP_NAME = "Cherry Desktop"


def show_notice(tray: QSystemTrayIcon | None, title: str, text: str) -> str:
    """Show `title` / `text` on the desktop; returns how ("tray", "notify-send" or "")."""
    if tray is not None and QSystemTrayIcon.supportsMessages():
        tray.showMessage(title, text, icon("cherry"), NOTICE_MS)
        return "tray"
    program = shutil.which("notify-send") if sys.platform.startswith("linux") else None
    if program is None:
        return ""
    # Detached: the notice needs no answer, and no child is left for the app to reap.
    started, _pid = QProcess.startDetached(
        program, [f"--app-name={APP_NAME}", f"--expire-time={NOTICE_MS}", "--", title, text])
    if not started:
        log.warning("notify-send could not start: notice not shown")
    return "notify-send" if started else ""
