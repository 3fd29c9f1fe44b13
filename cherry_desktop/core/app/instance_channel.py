"""The single-instance channel without Qt, for `cherry-desktop serve`.

The app takes requests from later launches on a `QLocalServer` (`ui.shell.single_instance`);
`serve` runs no Qt, yet holds the same lock, so a later `backup create` or window launch must
find someone there too. On POSIX a `QLocalServer` named N is the Unix socket `$TMPDIR/N`
(`QDir::tempPath()`, else `/tmp`): this server listens on that path and speaks the same
protocol, one request line in, one reply line out. Windows (a named pipe) is not served.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

log = logging.getLogger(__name__)

#: The reply of a `serve` to a window launch: it has no windows to open.
REPLY_HEADLESS = "headless"
READ_LIMIT_S = 5.0


def channel_path(name: str) -> Path:
    """Where a `QLocalServer` named `name` listens on POSIX (Qt's `QDir::tempPath()`)."""
    return Path(os.environ.get("TMPDIR") or "/tmp") / name


class InstanceChannel:
    """Answers later launches: `on_request(line)` returns the reply line (awaited)."""

    def __init__(self, name: str, on_request: Callable[[str], Awaitable[str]]) -> None:
        self.path = channel_path(name)
        self._on_request = on_request
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> bool:
        """Listen; False where it cannot (Windows, a path it may not bind): logged, not fatal."""
        if not hasattr(asyncio, "start_unix_server"):
            return False
        try:
            # We hold the instance lock: a socket file left here is a dead instance's.
            self.path.unlink(missing_ok=True)
            self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
            self.path.chmod(0o700)  # as QLocalServer's UserAccessOption
        except OSError as exc:
            log.warning("cannot take requests from later launches on %s: %s", self.path, exc)
            return False
        return True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), READ_LIMIT_S)
            request = line.decode("utf-8", "replace").strip()
            log.info("a later launch asks: %s", request.split("\t", 1)[0])
            reply = await self._on_request(request)
            writer.write(f"{reply}\n".encode())
            await writer.drain()
        except (TimeoutError, OSError) as exc:
            log.info("a later launch left before its reply (%s)", exc.__class__.__name__)
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):  # a backup still answering is not waited for
                await asyncio.wait_for(self._server.wait_closed(), 1.0)
            self._server = None
            self.path.unlink(missing_ok=True)


__all__ = ["REPLY_HEADLESS", "InstanceChannel", "channel_path"]
