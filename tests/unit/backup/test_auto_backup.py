"""Automatic backups on a real core: off by default; once turned on with a folder, one per day
(not two within a day), the newest N kept while the user's own files there stay; a folder
that cannot be written is an error kept for the next try, and the app goes on."""

from __future__ import annotations

import os
from pathlib import Path

from cherry_desktop.core.backup import read_archive
from cherry_desktop.core.backup.auto import DAY_S, AutoBackupService, automatic_backups
from tests.unit.backup.helpers import populated_core, read_only_dir


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_daily_backups_keep_the_newest_n_and_leave_other_files_alone(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a", messages=3)
    folder = tmp_path / "auto"
    folder.mkdir()
    mine = folder / "my-own.cherry-backup"
    mine.write_bytes(b"the user's file")
    clock = Clock()
    try:
        assert core.backup is not None
        auto = AutoBackupService(core.backup, core.settings, clock=clock)
        assert await auto.run_due() is None  # off by default
        core.settings.update(auto_backup_enabled=True, auto_backup_folder=str(folder), auto_backup_keep=2)
        made = []
        for _ in range(4):
            result = await auto.run_due()
            assert result is not None
            os.utime(result.path, (clock.now, clock.now))
            made.append(result.path)
            clock.now += 3600
            assert await auto.run_due() is None  # not twice within a day
            clock.now += DAY_S
        assert automatic_backups(folder) == made[-2:]
        assert mine.read_bytes() == b"the user's file"
        assert read_archive(made[-1], None).entries
    finally:
        await core.stop()


async def test_a_folder_that_cannot_be_written_is_kept_as_an_error_and_retried(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a", messages=3)
    try:
        assert core.backup is not None
        with read_only_dir(tmp_path / "ro") as ro:
            target = ro if ro is not None else tmp_path / "missing" / "folder"
            core.settings.update(auto_backup_enabled=True, auto_backup_folder=str(target))
            auto = AutoBackupService(core.backup, core.settings, clock=Clock())
            assert await auto.run_due() is None
            assert auto.last_error is not None
            assert not core.backup.busy
        good = tmp_path / "good"
        good.mkdir()
        core.settings.update(auto_backup_folder=str(good))
        assert await auto.run_due() is not None and auto.last_error is None
    finally:
        await core.stop()


async def test_the_app_runs_the_service_with_its_stream_services(tmp_path: Path) -> None:
    core = await populated_core(tmp_path / "a", messages=1)
    try:
        service = core.app.get("auto_backup", AutoBackupService)
        assert service.backup is core.backup and not service.due()
    finally:
        await core.stop()
