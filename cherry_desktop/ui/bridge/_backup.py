"""The bridge's backup facet: back up, stage a restore, and what the start found of one.

`Bridges.backup`. Core's `BackupService` (`core.backup`) is the one writer of backups and of
the restore journal; this facet runs its requests and re-emits their progress as a signal.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from cherry_desktop.core.backup import (
    BackupError,
    BackupFault,
    BackupProgress,
    BackupResult,
    BackupService,
    PromoteResult,
    StagedRestore,
    cancel_staged_restore,
    read_last_backup,
    restore_pending,
)
from cherry_desktop.core.backup.remote import answer_backup_request, is_backup_request
from cherry_desktop.ui.bridge._base import CoreBridge

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices

__all__ = ["BackupBridge", "BackupError", "BackupFault", "BackupProgress", "BackupResult", "PromoteResult",
           "StagedRestore", "is_backup_request"]


class BackupBridge(CoreBridge):
    """Backups and restores of this instance's data dir.

    Signals:
        progress(object): a `BackupProgress` (phase, bytes done, bytes in all) of the running job.
    """

    progress = Signal(object)

    def __init__(self, core: CoreServices, parent: QObject | None = None) -> None:
        super().__init__(core, parent)

    def _service(self) -> BackupService:
        service = self.core.backup
        if service is None:
            raise BackupError(BackupFault.UNAVAILABLE)
        return service

    @property
    def busy(self) -> bool:
        return self.core.backup is not None and self.core.backup.busy

    def default_file_name(self) -> str:
        import time

        return time.strftime("cherry-backup-%Y%m%d-%H%M%S.cherry-backup")

    async def create(self, target: Path, cancel: threading.Event | None = None) -> BackupResult:
        """Back up into `target` (raises `BackupError`: a full disk, a drain that timed out...)."""
        return await self._service().create(target, progress=self.progress.emit, cancel=cancel)

    async def stage_restore(self, archive: Path, cancel: threading.Event | None = None) -> StagedRestore:
        """Verify `archive` and stage it for the next start (raises `BackupError`)."""
        return await self._service().stage_restore(archive, progress=self.progress.emit, cancel=cancel)

    def restore_pending(self) -> bool:
        return restore_pending(self.core.paths)

    def cancel_staged_restore(self) -> bool:
        return cancel_staged_restore(self.core.paths)

    def restore_result(self) -> PromoteResult | None:
        """What this start did with a staged restore (None: there was none)."""
        result = self.core.restore_result
        return result if result is not None and result.state in ("promoted", "rolled-back", "failed") else None

    def restored_agents(self) -> list[str]:
        """Names of the agents restored from a backup and not allowed yet (they run no turn)."""
        return [a.name for a in self._repos.agents.restored_unconfirmed()]

    def allow_restored_agents(self) -> int:
        """The user's explicit yes: every restored agent runs turns again; returns how many."""
        agents = self._repos.agents.restored_unconfirmed()
        for agent in agents:
            self._repos.agents.allow_restored(agent.id)
        return len(agents)

    def last_backup(self) -> dict[str, object] | None:
        return read_last_backup(self.core.paths)

    async def answer_launch_request(self, request: str) -> str:
        """`cherry-desktop backup create` from another process: back up here, with this
        instance's streams held and drained."""
        return await answer_backup_request(self._service(), request)
