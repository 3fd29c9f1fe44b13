"""File ▸ Back up… and File ▸ Restore… on real windows (offscreen) and a real core: a backup
with its progress bar and result (the keys are not in it), then on an empty data dir a
restore that is staged, the "Quit now" it offers, and the next start showing the restored
session with its notice. The restore asks first, and Enter on that question is "Cancel"."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMessageBox

from cherry_desktop.core.app.bootstrap import start_core
from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.core.storage.paths import build_path_registry
from cherry_desktop.ui.shell._backup_actions import back_up, restore
from tests.gui.conftest import ARTIFACTS, save_screenshot, seed_agent_session
from tests.waiting import until

pytestmark = pytest.mark.gui


def _grab(widget: Any, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    assert widget.grab().save(str(path))
    return path


async def test_back_up_from_the_menu_then_restore_into_an_empty_data_dir(
        controller: Any, ui_core: Any, tmp_path: Path, qapp: Any) -> None:
    _, session_id = seed_agent_session(ui_core.repos, name="Release notes", turns=2)
    (ui_core.paths.get("feature.agents.data") / "memory.bin").write_bytes(os.urandom(24 << 20))
    window = controller.open_window(session_topic_id(session_id))
    await until(lambda: len(window.message_view.rows()) == 4)
    assert window.findChild(QAction, "backupAction") is not None
    assert window.findChild(QAction, "restoreAction") is not None

    archive = tmp_path / "mine.cherry-backup"
    grabbed: list[Path] = []
    dialog = back_up(window, controller.bridges.backup, archive)
    assert dialog is not None

    def on_progress(p: Any) -> None:  # connected after the dialog's own slot: it has updated
        if p.phase == "writing" and 200 < dialog.bar.value() < 900 and not grabbed:
            grabbed.append(_grab(dialog, "backup-progress"))

    controller.bridges.backup.progress.connect(on_progress)
    await until(lambda: dialog.task.done(), limit=60)
    controller.bridges.backup.progress.disconnect(on_progress)
    assert dialog.succeeded, dialog.result_label.text()
    assert "API keys are not in the backup" in dialog.result_label.text()
    assert dialog.cancel_button.text() == "Close"
    assert grabbed, "the progress bar was seen moving"
    save_screenshot(dialog, "backup-done", width=520)
    dialog.close()
    window.close()

    # Another (empty) data dir: File ▸ Restore…, staged, Quit now.
    other_paths = build_path_registry(tmp_path / "empty")
    other = await start_core(other_paths)
    from cherry_desktop.ui import UiController

    second = UiController(other)
    try:
        empty_window = second.open_window(None)
        quits: list[int] = []
        second.quit = lambda code=0: quits.append(code)  # type: ignore[method-assign]
        staged = restore(empty_window, second.bridges.backup, second.quit, archive, confirmed=True)
        assert staged is not None
        await until(lambda: staged.task.done(), limit=60)
        assert staged.succeeded, staged.result_label.text()
        assert "Quit and start Cherry Desktop again" in staged.result_label.text()
        assert staged.quit_button is not None
        save_screenshot(staged, "restore-staged", width=520)
        staged.quit_button.click()
        assert quits == [0]
        empty_window.close()
    finally:
        await second.aclose()
        await other.stop()
    QApplication.processEvents()

    # The next start restores: the session is there, with a notice.
    restored = await start_core(other_paths)
    third = UiController(restored)
    try:
        assert restored.restore_result is not None and restored.restore_result.state == "promoted"
        win = third.open_window(session_topic_id(session_id))
        await until(lambda: len(win.message_view.rows()) == 4)
        await until(lambda: any(isinstance(w, QMessageBox) and w.objectName() == "restoreNotice"
                                and w.isVisible() for w in QApplication.topLevelWidgets()))
        notice = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "restoreNotice")
        assert "restored from the backup" in notice.text()
        assert "stay off until you allow them" in notice.text() and "Coder" in notice.text()
        win.resize(1000, 640)
        QApplication.processEvents()
        _grab(win, "restored-session")
        _grab(notice, "restore-notice")
        notice.close()
        # Settings, Backups: the explicit "Allow restored agents".
        from cherry_desktop.ui.dialogs import SettingsDialog

        settings = SettingsDialog(third.bridges, win)
        settings.tabs.setCurrentWidget(settings.backups)
        assert "Coder" in settings.backups.restored_label.text()
        save_screenshot(settings, "settings-restored-agents", width=760)
        assert restored.repos.agents.restored_unconfirmed()
        settings.backups.allow_button.click()
        assert restored.repos.agents.restored_unconfirmed() == []
        settings.close()
        assert (restored.paths.get("feature.agents.data") / "memory.bin").stat().st_size == 24 << 20
        win.close()
    finally:
        await third.aclose()
        await restored.stop()


async def test_enter_on_the_restore_question_is_cancel(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    window = controller.open_window(None)
    archive = tmp_path / "a.cherry-backup"
    archive.write_bytes(b"whatever")

    def press_enter() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox) and box.objectName() == "confirmRestore"
        box.defaultButton().click() if box.defaultButton() is not None else None

    QTimer.singleShot(50, press_enter)
    assert restore(window, controller.bridges.backup, controller.quit, archive) is None
    assert not controller.bridges.backup.restore_pending()
    window.close()


async def test_a_bad_file_says_why_in_the_dialog(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    window = controller.open_window(None)
    foreign = tmp_path / "photo.jpg"
    foreign.write_bytes(b"\xff\xd8\xff" + b"0" * 4000)
    dialog = restore(window, controller.bridges.backup, controller.quit, foreign, confirmed=True)
    assert dialog is not None
    await until(lambda: dialog.task.done())
    assert not dialog.succeeded and dialog.quit_button is None
    assert "not a Cherry Desktop backup" in dialog.result_label.text()
    save_screenshot(dialog, "restore-refused", width=520)
    dialog.close()
    window.close()


async def test_settings_turn_on_daily_backups_into_a_folder(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    from cherry_desktop.ui.dialogs import SettingsDialog

    dialog = SettingsDialog(controller.bridges, None)
    panel = dialog.backups
    dialog.tabs.setCurrentWidget(panel)
    panel.enabled.setChecked(True)
    dialog.save()  # no folder: refused, said why
    assert "Choose a folder" in dialog.error_label.text()
    assert ui_core.settings.settings.auto_backup_enabled is False
    panel.folder.setText(str(tmp_path / "daily"))
    panel.keep.setValue(3)
    save_screenshot(dialog, "settings-backups", width=760)
    dialog.save()
    current = ui_core.settings.settings
    assert (current.auto_backup_enabled, current.auto_backup_folder, current.auto_backup_keep) == (
        True, str(tmp_path / "daily"), 3)
    dialog.close()


async def test_cancel_in_the_dialog_writes_nothing(controller: Any, ui_core: Any, tmp_path: Path) -> None:
    (ui_core.paths.get("feature.agents.data") / "big.bin").write_bytes(os.urandom(8 << 20))
    window = controller.open_window(None)
    archive = tmp_path / "never.cherry-backup"
    dialog = back_up(window, controller.bridges.backup, archive)
    assert dialog is not None
    dialog.cancel_button.click()  # before the job got to its first bytes
    await until(lambda: dialog.task.done(), limit=30)
    assert not dialog.succeeded
    assert "Cancelled. Nothing was written." in dialog.result_label.text()
    assert list(tmp_path.glob("never.cherry-backup*")) == []
    dialog.close()
    window.close()
