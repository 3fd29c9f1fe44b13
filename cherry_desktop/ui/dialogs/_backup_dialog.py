"""File ▸ Back up… and File ▸ Restore…: one dialog that runs the job with a progress bar and
Cancel, then says what happened (and, for a backup, that the API keys are not in it).

A restore asks first (it replaces every chat, agent and session at the next start); only the
explicit "Restore" button starts it. Once staged, the dialog offers to quit now; the data in
use stays until the app starts again.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from cherry_desktop.ui.bridge import BackupBridge, BackupError, BackupFault, BackupProgress
from cherry_desktop.ui.common import spawn

#: The words' .ts context is "BackupDialog" (lupdate reads these `translate(...)` calls).
translate = QCoreApplication.translate


def fault_words(error: BackupError) -> str:
    """The user's words for a backup or restore fault (core names it, the UI says it)."""
    words = {
        BackupFault.DISK_FULL: translate(
            "BackupDialog", "The disk is full. Free some space or choose another folder."),
        BackupFault.READ_ONLY: translate(
            "BackupDialog", "This folder cannot be written. Choose another folder."),
        BackupFault.NOT_AN_ARCHIVE: translate("BackupDialog", "This file is not a Cherry Desktop backup."),
        BackupFault.TRUNCATED: translate("BackupDialog", "This backup is incomplete: the file was cut short."),
        BackupFault.CORRUPT: translate("BackupDialog", "This backup is damaged and cannot be restored."),
        BackupFault.TOO_NEW: translate(
            "BackupDialog", "This backup was made by a newer Cherry Desktop. Update the app to restore it."),
        BackupFault.DRAIN_TIMEOUT: translate(
            "BackupDialog", "Some work was still being saved and did not finish in time. "
            "Nothing was written; try again in a moment."),
        BackupFault.CANCELLED: translate("BackupDialog", "Cancelled. Nothing was written."),
        BackupFault.BUSY: translate("BackupDialog", "Another backup or restore is running."),
        BackupFault.INSTANCE_RUNNING: translate("BackupDialog", "Cherry Desktop is running on this data folder."),
        BackupFault.UNAVAILABLE: translate("BackupDialog", "The file or folder cannot be read."),
        BackupFault.INSIDE_DATA: translate(
            "BackupDialog", "Choose a place outside Cherry Desktop's own data: this one would overwrite it, "
            "or be backed up itself."),
    }[error.kind]
    if error.stragglers:
        words += "\n" + translate("BackupDialog", "Still running: %1").replace("%1", ", ".join(error.stragglers))
    elif error.path is not None:
        words += "\n" + str(error.path)
    return words


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n >= 1 << 20 else f"{max(1, n // 1024)} KB"


def _phase_words(phase: str) -> str:
    return {
        "draining": translate("BackupDialog", "Pausing new writes…"),
        "snapshot": translate("BackupDialog", "Taking a snapshot of the database…"),
        "writing": translate("BackupDialog", "Writing the backup…"),
        "staging": translate("BackupDialog", "Checking the backup…"),
    }.get(phase, "")


class BackupDialog(QDialog):
    """Runs one backup (`mode="backup"`) or restore staging (`mode="restore"`) of `path`."""

    def __init__(self, bridge: BackupBridge, mode: str, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("backupDialog")
        self.bridge, self.mode, self.path = bridge, mode, path
        backup = mode == "backup"
        self.setWindowTitle(translate("BackupDialog", "Back up") if backup else translate("BackupDialog", "Restore"))
        self.setMinimumWidth(460)
        self.cancel_event = threading.Event()
        self.succeeded = False
        layout = QVBoxLayout(self)
        self.phase = QLabel(self)
        self.phase.setObjectName("backupPhase")
        self.bar = QProgressBar(self)
        self.bar.setObjectName("backupProgress")
        self.bar.setRange(0, 0)  # busy until the first bytes are counted
        self.result_label = QLabel(self)
        self.result_label.setObjectName("backupResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(self)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.clicked.connect(self.cancel)
        self.quit_button: QPushButton | None = None
        for widget in (self.phase, self.bar, self.result_label, self.buttons):
            layout.addWidget(widget)
        bridge.progress.connect(self._on_progress)
        self.task = spawn(self._run())

    def _on_progress(self, progress: BackupProgress) -> None:
        self.phase.setText(_phase_words(progress.phase))
        if progress.total_bytes > 0:
            self.bar.setRange(0, 1000)
            self.bar.setValue(min(1000, int(progress.done_bytes * 1000 / progress.total_bytes)))

    def cancel(self) -> None:
        if self.task.done():
            self.reject()
            return
        self.cancel_event.set()
        self.phase.setText(translate("BackupDialog", "Cancelling…"))

    async def _run(self) -> None:
        try:
            if self.mode == "backup":
                made = await self.bridge.create(self.path, self.cancel_event)
                text = translate("BackupDialog", "Backup written: %1 (%2).").replace(
                    "%1", str(made.path)).replace("%2", _size(made.size))
                text += "\n\n" + translate(
                    "BackupDialog", "API keys are not in the backup: they stay in this computer's keyring. "
                    "After restoring on another computer, enter them again.")
            else:
                staged = await self.bridge.stage_restore(self.path, self.cancel_event)
                text = translate(
                    "BackupDialog", "The backup is verified and ready. Quit and start Cherry Desktop again to "
                    "finish the restore; until then you keep working on the current data.")
                if staged.keys_to_enter:
                    text += "\n\n" + translate("BackupDialog", "Then enter the API keys again for: %1").replace(
                        "%1", ", ".join(staged.keys_to_enter))
        except BackupError as exc:
            self._finish(False, fault_words(exc))
            return
        self._finish(True, text)

    def _finish(self, ok: bool, text: str) -> None:
        self.succeeded = ok
        self.bar.setRange(0, 1000)
        self.bar.setValue(1000 if ok else 0)
        self.phase.setText(translate("BackupDialog", "Done") if ok else translate("BackupDialog", "Not done"))
        self.result_label.setText(text)
        self.cancel_button.setText(translate("BackupDialog", "Close"))
        if ok and self.mode == "restore":
            self.quit_button = self.buttons.addButton(translate("BackupDialog", "Quit now"),
                                                      QDialogButtonBox.ButtonRole.AcceptRole)
            self.quit_button.setObjectName("backupQuitNow")
            self.quit_button.clicked.connect(self.accept)

    def done(self, result: int) -> None:
        if not self.task.done():
            self.cancel_event.set()  # closing the dialog cancels the job (nothing is written)
        try:
            self.bridge.progress.disconnect(self._on_progress)
        except (RuntimeError, TypeError):
            pass
        super().done(result)


def confirm_restore(parent: QWidget | None, path: Path) -> bool:
    """The user's explicit yes: a restore replaces all current data at the next start."""
    text = translate(
        "BackupDialog", "Restoring %1 replaces all chats, agents and sessions with the backup's when "
        "Cherry Desktop starts again. The current data is kept aside until then.").replace("%1", path.name)
    box = QMessageBox(QMessageBox.Icon.Warning, translate("BackupDialog", "Restore from a backup?"), text,
                      parent=parent)
    box.setObjectName("confirmRestore")
    restore = box.addButton(translate("BackupDialog", "Restore"), QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is restore


def restore_notice(parent: QWidget | None, state: str, detail: str, keys: tuple[str, ...],
                   agents: list[str] | None = None) -> QMessageBox:
    """What the start did with a staged restore (shown once, not modal to the app)."""
    if state == "promoted":
        text = translate(
            "BackupDialog", "Your data was restored from the backup. The replaced data is kept until the next start.")
        if agents:
            text += "\n\n" + translate(
                "BackupDialog", "The restored agents stay off until you allow them in Settings, Backups: %1").replace(
                "%1", ", ".join(agents))
        if keys:
            again = translate("BackupDialog", "Enter the API keys again for: %1")
            text += "\n\n" + again.replace("%1", ", ".join(keys))
        box = QMessageBox(QMessageBox.Icon.Information, translate("BackupDialog", "Restored"), text, parent=parent)
    else:
        text = translate("BackupDialog", "The backup could not be put in place, so your previous data was kept.")
        box = QMessageBox(QMessageBox.Icon.Warning, translate("BackupDialog", "Restore not done"),
                          text + "\n" + detail, parent=parent)
    box.setObjectName("restoreNotice")
    return box
