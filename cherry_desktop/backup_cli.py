"""`cherry-desktop backup create [--data-dir DIR] FILE` and `backup restore [--data-dir DIR] FILE`.

`create`: with no instance on the data dir, this process takes its instance lock and writes
the archive; with an instance running, it asks that instance over the single-instance channel
(which pauses and drains its own streams) and waits for its reply. `restore`: verifies and
stages the archive; with no instance running it promotes it at once (the same journal as a
start), else it tells the user to restart that instance. Exit codes: 0 done, 1 refused (a
bad archive, a full disk, ...: one line on stderr, the data untouched), 3 staged for a restart.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from cherry_desktop.core.app.instance_lock import InstanceLock, LockState, instance_channel_name
from cherry_desktop.core.backup import BackupError, BackupService, promote_staged_restore, stage_restore
from cherry_desktop.core.storage.credentials import CredentialStore
from cherry_desktop.core.storage.paths import PathRegistry

STAGED_EXIT_CODE = 3
#: How long `create` waits for a running instance to write its backup.
REMOTE_BACKUP_TIMEOUT_S = 3600.0
NOT_IN_BACKUP = ("Not in the backup: API keys and the gateway key (they stay in this machine's "
                 "keyring; enter them again after restoring elsewhere).")


def _say(text: str, *, error: bool = False) -> None:
    print(text, file=sys.stderr if error else sys.stdout, flush=True)


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n >= 1 << 20 else f"{n / 1024:.0f} KB"


def backup_command(paths: PathRegistry, action: str, file: Path) -> int:
    file = file.expanduser().absolute()
    paths.ensure_all()
    lock = InstanceLock(paths.get("file.instance_lock"))
    state = lock.acquire()
    if state is LockState.UNAVAILABLE:
        _say(f"cherry-desktop backup: cannot use {paths.get('app.data')}: {lock.error}", error=True)
        return 1
    try:
        if action == "create":
            return _create_here(paths, file) if state is LockState.ACQUIRED else _create_remote(paths, file, lock)
        return _restore(paths, file, running=state is LockState.HELD)
    finally:
        lock.release()


def _create_here(paths: PathRegistry, file: Path) -> int:
    try:
        result = asyncio.run(BackupService(paths, credentials=CredentialStore()).create(file))
    except BackupError as exc:
        _say(f"cherry-desktop backup: {exc.describe()}", error=True)
        return 1
    _say(f"backup written: {result.path} ({_size(result.size)}, {result.files} files)")
    _say(NOT_IN_BACKUP)
    return 0


def _create_remote(paths: PathRegistry, file: Path, lock: InstanceLock) -> int:
    from cherry_desktop.core.backup.remote import backup_request, parse_backup_reply
    from cherry_desktop.ui.shell.single_instance import hand_over

    _say(f"Cherry Desktop (pid {lock.holder_pid() or '?'}) runs on this data folder: asking it to back up")
    reply = parse_backup_reply(hand_over(instance_channel_name(paths.get("app.data")), backup_request(file),
                                         reply_timeout_s=REMOTE_BACKUP_TIMEOUT_S))
    if not reply.ok:
        _say(f"cherry-desktop backup: {reply.text}", error=True)
        return 1
    _say(f"backup written: {reply.text} ({_size(reply.size)})")
    _say(NOT_IN_BACKUP)
    return 0


def _restore(paths: PathRegistry, file: Path, *, running: bool) -> int:
    try:
        staged = stage_restore(paths, file, credentials=CredentialStore())
    except BackupError as exc:
        _say(f"cherry-desktop restore: {exc.describe()}; nothing was changed", error=True)
        return 1
    made = staged.manifest
    _say(f"verified: {file} (Cherry Desktop {made.app_version}, schema {made.schema_version}, "
         f"{len(made.entries)} files)")
    if running:
        _say("staged: Cherry Desktop is running on this data folder; quit it and start it again to "
             "finish the restore (the current data is kept until then)")
        code = STAGED_EXIT_CODE
    else:
        try:
            result = promote_staged_restore(paths)
        except BackupError as exc:
            _say(f"cherry-desktop restore: {exc.describe()}", error=True)
            return 1
        if result.state != "promoted":
            _say(f"cherry-desktop restore: {result.detail}; the data in use was kept", error=True)
            return 1
        _say(f"restored into {paths.get('app.data')} (the replaced data is kept in restore-previous "
             "until the next start)")
        code = 0
    if staged.keys_to_enter:
        _say("Enter the API keys again for: " + ", ".join(staged.keys_to_enter))
    if staged.agents_held:
        _say("The restored agents stay off until you allow them (Settings > Backups): "
             + ", ".join(staged.agents_held))
    return code
