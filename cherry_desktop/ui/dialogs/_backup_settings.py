"""Settings ▸ Backups: automatic daily backups (on or off, the folder, how many to keep) and
when the last backup was made."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from cherry_desktop.ui.bridge import BackupBridge


class BackupSettingsPanel(QWidget):
    """The Backups tab of Settings; `values()` are saved with the dialog's Save."""

    def __init__(self, bridge: BackupBridge, settings: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("backupSettings")
        form = QFormLayout(self)
        self.enabled = QCheckBox(self.tr("Back up automatically once a day"), self)
        self.enabled.setObjectName("autoBackupEnabled")
        self.enabled.setChecked(bool(settings.get("auto_backup_enabled", False)))
        form.addRow(self.enabled)
        self.folder = QLineEdit(str(settings.get("auto_backup_folder", "")), self)
        self.folder.setObjectName("autoBackupFolder")
        self.folder.setPlaceholderText(self.tr("A folder on another disk is best"))
        choose = QPushButton(self.tr("Choose…"), self)
        choose.clicked.connect(self._choose)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(choose)
        form.addRow(self.tr("Folder"), row)
        self.keep = QSpinBox(self)
        self.keep.setObjectName("autoBackupKeep")
        self.keep.setRange(1, 365)
        self.keep.setValue(int(settings.get("auto_backup_keep", 7)))
        form.addRow(self.tr("Keep the newest"), self.keep)
        last = bridge.last_backup()
        when = (time.strftime("%Y-%m-%d %H:%M", time.localtime(float(str(last.get("at", 0)))))
                if last else self.tr("never"))
        self.last_label = QLabel(self.tr("Last backup: %1").replace("%1", when), self)
        self.last_label.setObjectName("lastBackup")
        form.addRow(self.last_label)
        note = QLabel(self.tr("API keys are not in backups: they stay in this computer's keyring."), self)
        note.setWordWrap(True)
        form.addRow(note)
        self.bridge = bridge
        restored = bridge.restored_agents()
        self.restored_label = QLabel(self)
        self.restored_label.setObjectName("restoredAgents")
        self.restored_label.setWordWrap(True)
        self.allow_button = QPushButton(self.tr("Allow restored agents"), self)
        self.allow_button.setObjectName("allowRestoredAgents")
        self.allow_button.clicked.connect(self._allow)
        if restored:
            self.restored_label.setText(self.tr(
                "Agents restored from a backup run commands in your workspaces, so they stay off until "
                "you allow them: %1").replace("%1", ", ".join(restored)))
            form.addRow(self.restored_label)
            form.addRow(self.allow_button)
        else:
            self.restored_label.hide()
            self.allow_button.hide()

    def _allow(self) -> None:
        count = self.bridge.allow_restored_agents()
        self.restored_label.setText(self.tr("Allowed: %1 agent(s).").replace("%1", str(count)))
        self.allow_button.setEnabled(False)

    def _choose(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Folder for automatic backups"),
                                                  self.folder.text() or str(Path.home()))
        if chosen:
            self.folder.setText(chosen)

    def problem(self) -> str | None:
        """Why the tab cannot be saved as it is (None: it can)."""
        if self.enabled.isChecked() and not self.folder.text().strip():
            return self.tr("Choose a folder for automatic backups.")
        return None

    def values(self) -> dict[str, Any]:
        return {"auto_backup_enabled": self.enabled.isChecked(), "auto_backup_folder": self.folder.text().strip(),
                "auto_backup_keep": self.keep.value()}
