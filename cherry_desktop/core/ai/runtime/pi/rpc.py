"""`PiRpcProcess`: one ``pi --mode rpc`` child and its JSON-lines protocol.

Records are split on ``\\n`` only (pi's framing; ``message_update`` repeats the whole message,
so lines are long: the reader's limit is raised far above asyncio's 64 KiB). Commands carry an
``id``; their ``response`` resolves the awaiting `command()`. Every other record goes to
`on_record` in order, from the one reader task. `parse` turns a line into its record
(`json.loads`; the connection passes `records.parse_record`, which skips what it never reads).
pi has no ready event: `start()` returns once ``get_state`` answers. stdin stays a pipe for the
child's whole life: closing it is how pi is told to exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import signal
from collections.abc import Callable, Sequence
from pathlib import Path

from cherry_desktop.core.messages.json_value import JsonObject, JsonValue
from cherry_desktop.core.process import process_tie

log = logging.getLogger(__name__)

#: pi lines can be far longer than asyncio's default 64 KiB (a whole message per update).
LINE_LIMIT = 64 * 1024 * 1024
READY_TIMEOUT_S = 30.0
COMMAND_TIMEOUT_S = 30.0
EXIT_GRACE_S = 2.0


class PiProcessError(RuntimeError):
    """The pi child failed to start, answered a command with an error, or exited."""


class PiRpcProcess:
    """A running pi RPC child. `on_record(record)` gets events; `on_exit()` once at EOF."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: dict[str, str],
        on_record: Callable[[JsonObject], None],
        on_exit: Callable[[], None] | None = None,
        parse: Callable[[bytes], JsonValue] = json.loads,
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.env = env
        self._on_record = on_record
        self._on_exit = on_exit
        self._parse = parse
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[JsonObject]] = {}
        self._ids = itertools.count(1)
        self.stderr_tail: list[str] = []
        self.exited = False

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        return self._process.returncode if self._process is not None else None

    async def start(self) -> JsonObject:
        """Spawn pi and wait until it answers ``get_state``; returns the state."""
        # Tied to the app (`process_tie`): pi leads its own process group and dies with the app,
        # SIGTERM first, SIGKILL 0.5 s later, its bash tool's processes too.
        self._process = await asyncio.create_subprocess_exec(
            *process_tie.tied_command(self.argv),
            cwd=str(self.cwd),
            env=self.env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=LINE_LIMIT,
        )
        process_tie.adopt(self._process.pid)
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read(), name="pi-rpc-reader")
        self._stderr_task = loop.create_task(self._read_stderr(), name="pi-rpc-stderr")
        try:
            response = await self.command({"type": "get_state"}, timeout=READY_TIMEOUT_S)
        except Exception:
            await self.terminate()
            raise
        data = response.get("data")
        return data if isinstance(data, dict) else {}

    def send_record(self, record: JsonObject) -> None:
        """Write one record (no response awaited)."""
        process = self._process
        if process is None or process.stdin is None or self.exited:
            raise PiProcessError("pi is not running")
        process.stdin.write(json.dumps(record, ensure_ascii=False).encode() + b"\n")

    async def command(self, record: JsonObject, *, timeout: float = COMMAND_TIMEOUT_S) -> JsonObject:
        """Send a command and await its response; `PiProcessError` when pi refuses it."""
        command_id = f"c{next(self._ids)}"
        future: asyncio.Future[JsonObject] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = future
        try:
            self.send_record({**record, "id": command_id})
            response = await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(command_id, None)
        if not response.get("success", False):
            raise PiProcessError(f"pi refused {record.get('type')}: {response.get('error')}")
        return response

    async def _read(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None
        stdout = process.stdout
        try:
            while True:
                try:
                    line = await stdout.readuntil(b"\n")
                except asyncio.IncompleteReadError as exc:
                    line = exc.partial
                    if not line:
                        break
                line = line.rstrip(b"\r\n")
                if not line:
                    continue
                try:
                    record = self._parse(line)
                except ValueError:
                    log.debug("pi: non-JSON stdout line %r", line[:200])
                    continue
                if not isinstance(record, dict):
                    continue
                command_id = record.get("id")
                if record.get("type") == "response" and isinstance(command_id, str) and command_id in self._pending:
                    future = self._pending[command_id]
                    if not future.done():
                        future.set_result(record)
                    continue
                try:
                    self._on_record(record)
                except Exception:
                    log.exception("handling a pi record failed")
        except (asyncio.CancelledError, ConnectionError):
            pass
        finally:
            self.exited = True
            error = PiProcessError("pi exited" + (f": {self.stderr_tail[-1]}" if self.stderr_tail else ""))
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(error)
            if self._on_exit is not None:
                self._on_exit()

    async def _read_stderr(self) -> None:
        process = self._process
        assert process is not None and process.stderr is not None
        with contextlib.suppress(asyncio.CancelledError, ValueError, ConnectionError):
            async for raw in process.stderr:
                line = raw.decode(errors="replace").rstrip()
                self.stderr_tail = [*self.stderr_tail[-19:], line]
                log.debug("pi: %s", line)

    async def terminate(self) -> None:
        """Close stdin (pi exits on EOF), then SIGTERM, then SIGKILL its process group."""
        process = self._process
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
            self._signal_group(sig)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), EXIT_GRACE_S)
        if self.exited or process.returncode is not None:
            # Children pi's bash tool left in its group go with it.
            self._signal_group(signal.SIGKILL)
        for task in (self._reader, self._stderr_task):
            if task is not None and task is not asyncio.current_task():
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, EXIT_GRACE_S)

    def kill_now(self) -> None:
        """SIGKILL pi's process group at once (app stop, after the graceful close ran out)."""
        if self._process is not None and self._process.returncode is None:
            self._signal_group(signal.SIGKILL)

    def _signal_group(self, sig: signal.Signals) -> None:
        process = self._process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            if hasattr(os, "killpg"):
                try:
                    # pi leads its own group (the tie launcher's setpgid); the group outlives pi
                    # while its bash tool's children are in it.
                    os.killpg(process.pid, sig)
                except ProcessLookupError:
                    if process.returncode is None:  # the launcher had not made the group yet
                        process.send_signal(sig)
            else:  # pragma: no cover - Windows
                process.send_signal(sig)
