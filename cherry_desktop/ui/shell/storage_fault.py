"""A storage fault at start, in words: a dialog (on a real screen) and one line for stderr.

Core raises `StorageError` with a `StorageFault`; this module says what it means and what the
user can do. No traceback reaches the user; nothing is deleted or repaired for them.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QMessageBox

from cherry_desktop.core.storage.storage_faults import StorageError, StorageFault

#: Platforms with no one to click a dialog away (tests, CI): the stderr line is enough.
HEADLESS_PLATFORMS = ("offscreen", "minimal")


class StorageFaultText(QObject):
    """The words for each `StorageFault` (a QObject for its `tr()` context)."""

    def title(self) -> str:
        return self.tr("Cherry Desktop cannot use its data")

    def explain(self, error: StorageError) -> str:
        where = str(error.path) if error.path is not None else self.tr("the data folder")
        texts = {
            StorageFault.READ_ONLY: self.tr("%1 cannot be written (a read-only folder or disk, or missing "
                                            "permissions). Make it writable, then start again."),
            StorageFault.DISK_FULL: self.tr("The disk holding %1 is full. Free some space, then start again."),
            StorageFault.CORRUPT: self.tr("The database %1 is damaged. It was left as it is: restore it from a "
                                          "backup, or move it away to start with an empty one."),
            StorageFault.NOT_A_DATABASE: self.tr("%1 is not a Cherry Desktop database (it is truncated or "
                                                 "another kind of file). It was left as it is: move it away "
                                                 "or restore it from a backup."),
            StorageFault.SCHEMA_TOO_NEW: self.tr("The database %1 was written by a newer Cherry Desktop. "
                                                 "Update the app to open it; it was left as it is."),
            StorageFault.UNAVAILABLE: self.tr("%1 cannot be opened. Check that it exists and that you may "
                                              "read and write it."),
        }
        return texts[error.fault].replace("%1", where)


def storage_fault_line(error: StorageError) -> str:
    """The one line for stderr (no traceback)."""
    words = StorageFaultText()
    return f"cherry-desktop: {words.explain(error)} ({error.detail})" if error.detail else \
        f"cherry-desktop: {words.explain(error)}"


def show_storage_fault(error: StorageError) -> QMessageBox | None:
    """A modal dialog saying what is wrong (None on headless platforms)."""
    app: Any = QApplication.instance()
    if app is None:
        # The fault came before the GUI started: make it only where there is a screen (Qt
        # aborts without one).
        no_display = sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        if no_display or os.environ.get("QT_QPA_PLATFORM", "") in HEADLESS_PLATFORMS:
            return None
        app = QApplication([])
    if QApplication.platformName() in HEADLESS_PLATFORMS:
        return None
    words = StorageFaultText()
    box = QMessageBox(QMessageBox.Icon.Critical, words.title(), words.explain(error))
    box.setDetailedText(error.detail)
    box.exec()
    return box


__all__ = ["StorageFaultText", "show_storage_fault", "storage_fault_line"]
