"""`AcpProcess`: one ACP agent child, tied to the app (`process_tie`), with its stdio pipes.

stdout carries ACP's JSON-RPC lines (read by the ACP client library, whose reader skips a line
that is not JSON); stderr is kept as a short tail for error messages. `terminate` closes stdin
(agents exit on EOF), then SIGTERMs and SIGKILLs the child's process group (its tools' children
go with it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Sequence
from pathlib import Path

from cherry_desktop.core.process import process_tie

log = logging.getLogger(__name__)

#: ACP lines carry whole tool inputs and outputs: far above asyncio's default 64 KiB.
LINE_LIMIT = 64 * 1024 * 1024
EXIT_GRACE_S = 2.0


class AcpProcess:
    def __init__(self, argv: Sequence[str], *, cwd: Path, env: dict[str, str]) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self.process: asyncio.subprocess.Process | None = None
        self.stderr_tail: list[str] = []
        self._stderr_task: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def exited(self) -> bool:
        return self.process is None or self.process.returncode is not None

    async def start(self) -> tuple[asyncio.StreamWriter, asyncio.StreamReader]:
        """Spawn the agent; returns its (stdin, stdout). `OSError` when it cannot start."""
        self.process = await asyncio.create_subprocess_exec(
            *process_tie.tied_command(self.argv), cwd=str(self.cwd), env=self.env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT)
        process_tie.adopt(self.process.pid)
        self._stderr_task = asyncio.get_running_loop().create_task(self._read_stderr(), name="acp-stderr")
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    async def _read_stderr(self) -> None:
        process = self.process
        assert process is not None and process.stderr is not None
        with contextlib.suppress(asyncio.CancelledError, ValueError, ConnectionError):
            async for raw in process.stderr:
                line = raw.decode(errors="replace").rstrip()
                self.stderr_tail = [*self.stderr_tail[-19:], line]
                log.debug("acp agent: %s", line)

    def last_words(self) -> str:
        """The agent's last stderr line (for an error message), "" when it said nothing."""
        return next((line for line in reversed(self.stderr_tail) if line.strip()), "")

    async def wait(self) -> int:
        assert self.process is not None
        code = await self.process.wait()
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._stderr_task, EXIT_GRACE_S)
        return code

    async def terminate(self) -> None:
        process = self.process
        if process is None:
            return
        if process.returncode is None and process.stdin is not None:
            with contextlib.suppress(Exception):
                process.stdin.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), EXIT_GRACE_S)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if process.returncode is not None:
                break
            process_tie.kill_tree(process.pid, sig)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), EXIT_GRACE_S)
        # What its tools left in its group goes with it.
        process_tie.kill_tree(process.pid, signal.SIGKILL)

    def kill_now(self) -> None:
        if self.process is not None and self.process.returncode is None:
            process_tie.kill_tree(self.process.pid, signal.SIGKILL)
