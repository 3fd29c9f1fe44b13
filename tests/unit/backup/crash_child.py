"""A child process for crash tests: `backup DATA TARGET` (slowed down so that it can be
killed mid-way) or `promote DATA N` (SIGKILLs itself at the N-th rename of the promotion)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from cherry_desktop.core.backup import BackupService, promote_staged_restore
from cherry_desktop.core.backup import archive as archive_module
from cherry_desktop.core.storage.paths import build_path_registry


def main() -> None:
    command, data = sys.argv[1], Path(sys.argv[2])
    paths = build_path_registry(data)
    if command == "backup":
        archive_module.CHUNK = 64 << 10
        real = archive_module.ArchiveWriter._count

        def slow(self: archive_module.ArchiveWriter, n: int) -> None:
            time.sleep(0.01)  # the kill lands mid-archive
            real(self, n)

        archive_module.ArchiveWriter._count = slow  # type: ignore[method-assign]
        print("started", flush=True)
        asyncio.run(BackupService(paths).create(Path(sys.argv[3])))
        print("finished", flush=True)
        return
    if command == "promote":
        kill_at = int(sys.argv[3])
        seen = 0
        real_replace = Path.replace

        def replace(self: Path, target: object) -> Path:
            nonlocal seen
            if seen == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            seen += 1
            return real_replace(self, target)  # type: ignore[arg-type]

        Path.replace = replace  # type: ignore[method-assign]
        result = promote_staged_restore(paths)
        print(f"{result.state} {seen}", flush=True)


if __name__ == "__main__":
    main()
