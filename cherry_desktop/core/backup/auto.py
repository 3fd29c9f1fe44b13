"""Automatic backups: once a day into the folder the user chose, the newest N kept.

`AutoBackupService` checks every `check_interval_s` (the first a minute after the start)
whether one is due:
Settings turn it on and name a folder, and the newest `cherry-auto-*.cherry-backup` there is
older than a day (or there is none). A backup runs through the same `BackupService` (the
write quiesce, the atomic rename), so a killed one never counts as the latest. After a
success the oldest automatic archives beyond `auto_backup_keep` are removed; the user's own
files in that folder are never touched. A failure (a full disk, a missing folder) is logged
and kept in `last_error`; the next check tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from pathlib import Path

from cherry_desktop.core.backup.errors import BackupError
from cherry_desktop.core.backup.service import BackupService
from cherry_desktop.core.backup.snapshot import BackupResult
from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.storage.settings import SettingsStore

log = logging.getLogger(__name__)

PREFIX = "cherry-auto-"
SUFFIX = ".cherry-backup"
_NAME = re.compile(r"^cherry-auto-\d{8}-\d{6}\.cherry-backup$")
DAY_S = 24 * 3600.0
CHECK_INTERVAL_S = 600.0
#: The first check waits this long: the app's start is not slowed down by a backup.
FIRST_CHECK_DELAY_S = 60.0


def automatic_backups(folder: Path) -> list[Path]:
    """The complete automatic archives in `folder`, oldest first (names sort by time)."""
    try:
        return sorted(p for p in folder.iterdir() if _NAME.match(p.name) and p.is_file())
    except OSError:
        return []


class AutoBackupService(Service):
    name = "auto_backup"
    depends_on = ("backup", "stream_manager")

    def __init__(self, backup: BackupService, settings: SettingsStore, *,
                 clock: Callable[[], float] = time.time, check_interval_s: float = CHECK_INTERVAL_S,
                 first_check_delay_s: float = FIRST_CHECK_DELAY_S) -> None:
        self.backup = backup
        self.settings = settings
        self.clock = clock
        self.check_interval_s = check_interval_s
        self.first_check_delay_s = first_check_delay_s
        self.last_error: BackupError | None = None
        self._task: asyncio.Task[None] | None = None

    def folder(self) -> Path | None:
        current = self.settings.settings
        if not current.auto_backup_enabled or not current.auto_backup_folder:
            return None
        return Path(current.auto_backup_folder).expanduser()

    def due(self) -> bool:
        folder = self.folder()
        if folder is None:
            return False
        existing = automatic_backups(folder)
        if not existing:
            return True
        try:
            newest = existing[-1].stat().st_mtime
        except OSError:
            return True
        return self.clock() - newest >= DAY_S

    async def run_due(self) -> BackupResult | None:
        """Back up now if one is due (and no other backup runs); prune after a success."""
        folder = self.folder()
        if folder is None or not self.due() or self.backup.busy:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.clock()))
        try:
            result = await self.backup.create(folder / f"{PREFIX}{stamp}{SUFFIX}")
        except BackupError as exc:
            self.last_error = exc
            log.warning("automatic backup failed: %s", exc.describe())
            return None
        self.last_error = None
        self.prune(folder)
        return result

    def prune(self, folder: Path) -> list[Path]:
        keep = self.settings.settings.auto_backup_keep
        existing = automatic_backups(folder)
        removed = existing[:-keep] if len(existing) > keep else []
        for path in removed:
            with contextlib.suppress(OSError):
                path.unlink()
                log.info("automatic backup removed (keeping %d): %s", keep, path.name)
        return removed

    async def _loop(self) -> None:
        await asyncio.sleep(self.first_check_delay_s)
        while True:
            try:
                await self.run_due()
            except Exception:
                log.exception("automatic backup check failed")
            await asyncio.sleep(self.check_interval_s)

    async def on_init(self, app: Application) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def on_stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
