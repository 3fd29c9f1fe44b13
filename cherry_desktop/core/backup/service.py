"""Backups of a running app, in the spec's orchestration order: pause admission on every
write gate (the stream manager, the agent session host), drain the writes in flight with a
timeout, snapshot, release; then write the archive with the app running again.

A drain that times out aborts the backup with the stragglers named (nothing is written).
Turns still streaming are never aborted nor awaited: they are in the backup as far as they
were persisted, and boot recovery marks them interrupted in a restored copy. New turns wait
for the hold only (`pause_ms`: a read transaction and a file listing).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cherry_desktop.core.backup.errors import BackupError, BackupFault
from cherry_desktop.core.backup.restore import StagedRestore, stage_restore
from cherry_desktop.core.backup.snapshot import BackupResult, Snapshot, check_target, take_snapshot, write_archive
from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.storage.credentials import CredentialStore, provider_key_name
from cherry_desktop.core.storage.paths import PathRegistry

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_MS = 5_000
LAST_BACKUP_FILE = "last-backup.json"


class Disposable(Protocol):
    def dispose(self) -> None: ...


class WriteGate(Protocol):
    """A writer that can hold its new writes and drain those under way (`AiStreamManager`)."""

    def pause(self, reason: str = "") -> Disposable: ...

    async def drain_writes(self, timeout_ms: float = ...) -> list[str]: ...


class _Drained(Protocol):
    @property
    def straggler_ids(self) -> list[str]: ...


class LaunchQuiesce(Protocol):
    """The agent session host's quiesce (`AgentSessionRuntimeService`)."""

    def pause(self, reason: str = "") -> Disposable: ...

    async def drain_in_flight(self, timeout_ms: float = ...) -> _Drained: ...


class LaunchGate:
    """`WriteGate` over the agent host: its drain awaits the launches admitted before the
    pause (a placeholder write and the hand-off), never whole turns."""

    def __init__(self, host: LaunchQuiesce) -> None:
        self.host = host

    def pause(self, reason: str = "") -> Disposable:
        return self.host.pause(reason)

    async def drain_writes(self, timeout_ms: float = DRAIN_TIMEOUT_MS) -> list[str]:
        return list((await self.host.drain_in_flight(timeout_ms)).straggler_ids)


@dataclass(frozen=True)
class BackupProgress:
    phase: str  # "draining" | "snapshot" | "writing" | "verifying" | "staging" | "done"
    done_bytes: int = 0
    total_bytes: int = 0


ProgressCallback = Callable[[BackupProgress], None]


def last_backup_path(paths: PathRegistry) -> Path:
    return paths.get("app.config") / LAST_BACKUP_FILE


def record_last_backup(paths: PathRegistry, result: BackupResult) -> None:
    try:
        last_backup_path(paths).parent.mkdir(parents=True, exist_ok=True)
        last_backup_path(paths).write_text(json.dumps({
            "path": str(result.path), "size": result.size, "at": time.time()}), encoding="utf-8")
    except OSError as exc:
        log.warning("could not record the last backup: %s", exc)


def read_last_backup(paths: PathRegistry) -> dict[str, object] | None:
    try:
        data = json.loads(last_backup_path(paths).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


class BackupService(Service):
    """Backup and restore staging of one app instance (one at a time)."""

    name = "backup"

    def __init__(self, paths: PathRegistry, gates: Sequence[WriteGate] = (), *,
                 credentials: CredentialStore | None = None, drain_timeout_ms: float = DRAIN_TIMEOUT_MS) -> None:
        self.paths = paths
        self.gates = list(gates)
        self.credentials = credentials
        self.drain_timeout_ms = drain_timeout_ms
        self.busy = False
        #: How long the last backup held new writes (ms).
        self.last_pause_ms = 0.0

    def add_gate(self, gate: WriteGate) -> None:
        self.gates.append(gate)

    def _claim(self) -> None:
        if self.busy:
            raise BackupError(BackupFault.BUSY)
        self.busy = True

    async def create(self, target: Path, *, progress: ProgressCallback | None = None,
                     cancel: threading.Event | None = None) -> BackupResult:
        check_target(self.paths, target)
        self._claim()
        try:
            snapshot = await self._snapshot(progress)
            try:
                result = await self._write(snapshot, target, progress, cancel)
            finally:
                snapshot.close()
        finally:
            self.busy = False
        record_last_backup(self.paths, result)
        log.info("backup written: %s (%d bytes, held writes %.1f ms)", result.path, result.size, self.last_pause_ms)
        return result

    async def _snapshot(self, progress: ProgressCallback | None) -> Snapshot:
        _report(progress, BackupProgress("draining"))
        started = time.perf_counter()
        holds = [gate.pause("backup") for gate in self.gates]
        try:
            drained = await asyncio.gather(*(g.drain_writes(self.drain_timeout_ms) for g in self.gates))
            stragglers = tuple(s for ids in drained for s in ids)
            if stragglers:
                raise BackupError(BackupFault.DRAIN_TIMEOUT, stragglers=stragglers)
            _report(progress, BackupProgress("snapshot"))
            return await asyncio.to_thread(take_snapshot, self.paths)
        finally:
            for hold in holds:
                hold.dispose()
            self.last_pause_ms = (time.perf_counter() - started) * 1000.0

    async def _write(self, snapshot: Snapshot, target: Path, progress: ProgressCallback | None,
                     cancel: threading.Event | None) -> BackupResult:
        loop = asyncio.get_running_loop()
        total = sum(s.size for s in snapshot.files) + await asyncio.to_thread(_size_of, self.paths.database_file)

        def on_bytes(done: int) -> None:
            loop.call_soon_threadsafe(_report, progress, BackupProgress("writing", done, total))

        extra: dict[str, object] = {"workspaces_root": str(self.paths.get("feature.agents.workspaces")),
                                    "providers_with_keys": await asyncio.to_thread(self._keyed, snapshot)}
        return await asyncio.to_thread(write_archive, snapshot, target, progress=on_bytes, cancel=cancel,
                                       extra=extra)

    def _keyed(self, snapshot: Snapshot) -> list[list[str]]:
        """[id, name] of the providers whose key the keyring holds (never the key: the restore
        names them for the user to enter again)."""
        if self.credentials is None or not self.credentials.available():
            return []
        out = []
        for provider_id, name in snapshot.connection.execute("SELECT id, name FROM provider ORDER BY name"):
            try:
                held = self.credentials.try_get(provider_key_name(str(provider_id)))
            except Exception:
                held = None
            if held:
                out.append([str(provider_id), str(name)])
        return out

    async def stage_restore(self, archive: Path, *, progress: ProgressCallback | None = None,
                            cancel: threading.Event | None = None) -> StagedRestore:
        """Verify and stage `archive`; it replaces the data at the next start."""
        self._claim()
        try:
            loop = asyncio.get_running_loop()
            total = await asyncio.to_thread(_size_of, archive)

            def on_bytes(done: int) -> None:
                loop.call_soon_threadsafe(_report, progress, BackupProgress("staging", done, total))

            return await asyncio.to_thread(stage_restore, self.paths, archive, progress=on_bytes,
                                           cancel=cancel, credentials=self.credentials)
        finally:
            self.busy = False

    async def on_init(self, app: Application) -> None:
        pass


def _size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _report(progress: ProgressCallback | None, value: BackupProgress) -> None:
    if progress is not None:
        progress(value)
