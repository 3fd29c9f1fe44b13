"""Backup and restore that lose nothing (issue 27): archives of the database snapshot and the
user's folders, made behind the write quiesce; restores staged, then promoted at start."""

from cherry_desktop.core.backup.archive import FORMAT_VERSION, Manifest, read_archive
from cherry_desktop.core.backup.errors import BackupError, BackupFault
from cherry_desktop.core.backup.restore import (
    PromoteResult,
    StagedRestore,
    cancel_staged_restore,
    promote_staged_restore,
    restore_pending,
    stage_restore,
)
from cherry_desktop.core.backup.service import (
    BackupProgress,
    BackupService,
    LaunchGate,
    WriteGate,
    read_last_backup,
    record_last_backup,
)
from cherry_desktop.core.backup.snapshot import BackupResult, take_snapshot, write_archive

__all__ = [
    "FORMAT_VERSION",
    "BackupError",
    "BackupFault",
    "BackupProgress",
    "BackupResult",
    "BackupService",
    "LaunchGate",
    "Manifest",
    "PromoteResult",
    "StagedRestore",
    "WriteGate",
    "cancel_staged_restore",
    "promote_staged_restore",
    "read_archive",
    "read_last_backup",
    "record_last_backup",
    "restore_pending",
    "stage_restore",
    "take_snapshot",
    "write_archive",
]
