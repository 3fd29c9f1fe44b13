"""`cherry-desktop backup create` asking the instance that runs on the data dir: one request
line over the single-instance channel, one reply line when the backup is written.

Request: `backup-create\\t<absolute path>`. Reply: `ok\\t<bytes>\\t<path>`, or
`error\\t<fault>\\t<one English line>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.backup.errors import BackupError, BackupFault
from cherry_desktop.core.backup.service import BackupService

BACKUP_CREATE = "backup-create"


def backup_request(target: Path) -> str:
    return f"{BACKUP_CREATE}\t{target.expanduser().absolute()}"


def is_backup_request(request: str) -> bool:
    return request.startswith(BACKUP_CREATE + "\t")


async def answer_backup_request(service: BackupService, request: str) -> str:
    """Run the backup a later launch asked for (with this instance's write quiesce)."""
    target = Path(request.split("\t", 1)[1])
    try:
        result = await service.create(target)
    except BackupError as exc:
        return f"error\t{exc.kind.value}\t{exc.describe()}"
    return f"ok\t{result.size}\t{result.path}"


@dataclass(frozen=True)
class RemoteReply:
    ok: bool
    size: int = 0
    fault: BackupFault | None = None
    text: str = ""


def parse_backup_reply(reply: str | None) -> RemoteReply:
    if not reply:
        return RemoteReply(False, text="the instance running on this data folder did not answer "
                                       "(another backup or restore may be running there; try again when it is done)")
    parts = reply.split("\t")
    if parts[0] == "ok" and len(parts) == 3 and parts[1].isdigit():
        return RemoteReply(True, size=int(parts[1]), text=parts[2])
    if parts[0] == "error" and len(parts) == 3:
        try:
            fault: BackupFault | None = BackupFault(parts[1])
        except ValueError:
            fault = None
        return RemoteReply(False, fault=fault, text=parts[2])
    return RemoteReply(False, text=f"unexpected reply: {reply[:80]}")
