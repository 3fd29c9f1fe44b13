"""File ▸ Back up… / Restore… of a window, and the notice after a start that restored."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from cherry_desktop.ui.bridge import BackupBridge

if TYPE_CHECKING:  # the dialogs load on first use, not before the first window paints
    from cherry_desktop.ui.dialogs import BackupDialog

#: The .ts context of these words is "BackupDialog" (lupdate reads `translate(...)` calls).
translate = QCoreApplication.translate


def _filter() -> str:
    return translate("BackupDialog", "Cherry Desktop backup (*.cherry-backup);;All files (*)")


def back_up(parent: QWidget, bridge: BackupBridge, path: Path | None = None) -> BackupDialog | None:
    """Ask where (unless `path`), then run the backup in its progress dialog (shown, not modal)."""
    if path is None:
        title = translate("BackupDialog", "Back up to")
        chosen, _ = QFileDialog.getSaveFileName(parent, title, str(Path.home() / bridge.default_file_name()),
                                                _filter())
        if not chosen:
            return None
        path = Path(chosen)
    from cherry_desktop.ui.dialogs import BackupDialog

    dialog = BackupDialog(bridge, "backup", path, parent)
    dialog.open()
    return dialog


def restore(parent: QWidget, bridge: BackupBridge, quit_app: Callable[[], None], path: Path | None = None,
            *, confirmed: bool = False) -> BackupDialog | None:
    """Ask which file (unless `path`) and for the user's yes (unless `confirmed`: a test's),
    then verify and stage it; the dialog's "Quit now" quits so the next start restores."""
    if path is None:
        title = translate("BackupDialog", "Restore from")
        chosen, _ = QFileDialog.getOpenFileName(parent, title, str(Path.home()), _filter())
        if not chosen:
            return None
        path = Path(chosen)
    from cherry_desktop.ui.dialogs import BackupDialog, confirm_restore

    if not confirmed and not confirm_restore(parent, path):
        return None
    dialog = BackupDialog(bridge, "restore", path, parent)
    dialog.accepted.connect(quit_app)
    dialog.open()
    return dialog


def show_restore_notice(parent: QWidget, bridge: BackupBridge) -> None:
    """Once, in the first window: the start restored a backup (or had to keep the old data)."""
    result = bridge.restore_result()
    if result is not None:
        from cherry_desktop.ui.dialogs import restore_notice

        agents = bridge.restored_agents() if result.state == "promoted" else []
        restore_notice(parent, result.state, result.detail, result.keys_to_enter, agents).open()
