"""`CliTransport`: the app's own `claude_agent_sdk.Transport`, one Claude Code CLI process.

The SDK's public seam (`ClaudeSDKClient(options, transport=...)`): the SDK runs its control
protocol (initialize, hooks, permission prompts, interrupts) over `write` and `read_messages`;
what the process is and how it starts is the app's. That is what the app needs from it:

- the process tie: the CLI starts through `process_tie.tied_command`, in its own process group,
  and the OS ends it when the app dies, however it dies (the CLI does not exit on stdin EOF
  while a model request is in flight);
- the key hand-off: the provider's key reaches the CLI over an inherited socket
  (`key_handoff`), never in its environment or its arguments;
- the stdio contract: stdin stays a pipe for the CLI's whole life (its EOF is how the CLI is
  told to exit), stdout carries the SDK's JSON lines, stderr goes to the debug log;
- the registry: every spawned process is reported to a `ChildRegistry` (the process manager's
  sweep at app stop) and dropped from it once it exited.

Imported lazily (at the first connect): it imports the SDK (`load_sdk` first, so the SDK's
first import leaves out what the app never runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk

load_sdk()  # before the imports below: the SDK's first import goes through `prepare_sdk_import`
from claude_agent_sdk import (  # noqa: E402
    CLIConnectionError,
    CLIJSONDecodeError,
    CLINotFoundError,
    ProcessError,
    Transport,
)
from claude_agent_sdk import __version__ as sdk_version  # noqa: E402

from cherry_desktop.core.ai.runtime.claude_code import key_handoff  # noqa: E402
from cherry_desktop.core.ai.runtime.claude_code.cli_command import (  # noqa: E402
    CliLaunch,
    cli_arguments,
    cli_environment,
    find_cli,
)
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue  # noqa: E402
from cherry_desktop.core.process import process_tie  # noqa: E402

log = logging.getLogger(__name__)

#: A CLI line carries a whole message (a tool's result among them): far above asyncio's 64 KiB.
LINE_LIMIT = 64 * 1024 * 1024
#: After stdin EOF the CLI flushes its session transcript, then exits (the SDK's grace, too).
EXIT_GRACE_S = 5.0
#: Each further step of `close` (SIGTERM, then SIGKILL) waits this long.
SIGNAL_GRACE_S = 5.0


class ChildRegistry(Protocol):
    """Who tracks the CLI processes (`ClaudeCodeProcessManager`)."""

    def register(self, process: asyncio.subprocess.Process) -> None: ...

    def unregister(self, process: asyncio.subprocess.Process) -> None: ...


class CliTransport(Transport):
    """One CLI process for one `ClaudeSDKClient` (see the module doc)."""

    def __init__(self, launch: CliLaunch, *, children: ChildRegistry, stderr: Callable[[str], None]) -> None:
        self._launch = launch
        self._children = children
        self._stderr = stderr
        self._process: asyncio.subprocess.Process | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self._write_lock = asyncio.Lock()
        self._ready = False
        self._exit_error: Exception | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def connect(self) -> None:
        if self._process is not None:
            return
        cli = find_cli()
        if cli is None:
            raise CLINotFoundError("Claude Code not found (the claude-agent-sdk wheel bundles none here)")
        launch = self._launch
        argv = process_tie.tied_command([cli, *cli_arguments(launch)])
        env = cli_environment(launch, sdk_version=sdk_version)
        with key_handoff.key_handoff(launch.api_key) as (key_env, pass_fds):
            env.update(key_env)
            try:
                process = await asyncio.create_subprocess_exec(
                    *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, cwd=launch.cwd, env=env, pass_fds=pass_fds,
                    limit=LINE_LIMIT)
            except FileNotFoundError as exc:
                if launch.cwd and not await asyncio.to_thread(os.path.isdir, launch.cwd):
                    raise CLIConnectionError(f"Working directory does not exist: {launch.cwd}") from exc
                raise CLINotFoundError(f"Claude Code not found at: {cli}") from exc
            except OSError as exc:
                raise CLIConnectionError(f"Failed to start Claude Code: {exc}") from exc
        process_tie.adopt(process.pid)
        self._children.register(process)
        self._process = process
        self._stderr_task = asyncio.get_running_loop().create_task(self._read_stderr(), name="claude-cli-stderr")
        self._ready = True

    async def write(self, data: str) -> None:
        async with self._write_lock:
            process = self._process
            if not self._ready or process is None or process.stdin is None:
                raise CLIConnectionError("ProcessTransport is not ready for writing")
            if process.returncode is not None:
                raise CLIConnectionError(f"Cannot write to terminated process (exit code: {process.returncode})")
            if self._exit_error is not None:
                raise CLIConnectionError(
                    f"Cannot write to process that exited with error: {self._exit_error}") from self._exit_error
            try:
                process.stdin.write(data.encode())
                await process.stdin.drain()
            except (OSError, RuntimeError) as exc:
                self._ready = False
                self._exit_error = CLIConnectionError(f"Failed to write to process stdin: {exc}")
                raise self._exit_error from exc

    def read_messages(self) -> AsyncIterator[JsonObject]:
        return self._read_messages()

    async def _read_messages(self) -> AsyncIterator[JsonObject]:
        process = self._process
        if process is None or process.stdout is None:
            raise CLIConnectionError("Not connected")
        stdout = process.stdout
        while True:
            try:
                line = await stdout.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                line = exc.partial  # the last line without its newline, or nothing at EOF
            except (ConnectionError, asyncio.LimitOverrunError) as exc:
                log.warning("reading the Claude Code CLI failed: %s", exc)
                break
            if not line:
                break
            message = _parse_line(line)
            if message is not None:
                yield message
        returncode = await process.wait()
        if returncode != 0:
            self._exit_error = ProcessError(f"Command failed with exit code {returncode}", exit_code=returncode,
                                            stderr="Check stderr output for details")
            raise self._exit_error

    async def _read_stderr(self) -> None:
        process = self._process
        assert process is not None and process.stderr is not None
        with contextlib.suppress(ValueError, ConnectionError):
            async for raw in process.stderr:
                line = raw.decode(errors="replace").rstrip()
                if line:
                    try:
                        self._stderr(line)
                    except Exception:
                        log.debug("the stderr callback failed", exc_info=True)

    async def end_input(self) -> None:
        async with self._write_lock:
            self._close_stdin()

    def is_ready(self) -> bool:
        return self._ready

    async def close(self) -> None:
        """Close stdin (the CLI flushes its transcript and exits), then SIGTERM, then SIGKILL its
        process group, each step bounded. A raw cancellation (which pierces the SDK's anyio
        shield) still SIGTERMs the CLI before it propagates: nothing is left running."""
        process = self._process
        self._ready = False
        if process is None:
            return
        try:
            self._close_stdin()
            await self._wait(process, EXIT_GRACE_S)
            for sig, grace in ((signal.SIGTERM, SIGNAL_GRACE_S), (signal.SIGKILL, SIGNAL_GRACE_S)):
                if process.returncode is not None:
                    break
                process_tie.kill_tree(process.pid, sig)
                await self._wait(process, grace)
        except asyncio.CancelledError:
            if process.returncode is None:
                process_tie.kill_tree(process.pid, signal.SIGTERM)
            raise
        finally:
            if process.returncode is not None:
                self._children.unregister(process)
            self._process = None
            if self._stderr_task is not None and process.returncode is None:
                self._stderr_task.cancel()
        if self._stderr_task is not None:
            # The reader ends with the pipe; awaited so no task outlives the transport.
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._stderr_task, SIGNAL_GRACE_S)
            self._stderr_task = None

    def _close_stdin(self) -> None:
        process = self._process
        if process is not None and process.stdin is not None and not process.stdin.is_closing():
            with contextlib.suppress(OSError, RuntimeError):
                process.stdin.close()

    @staticmethod
    async def _wait(process: asyncio.subprocess.Process, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), timeout)


def _parse_line(line: bytes) -> JsonObject | None:
    """One stdout line's message; None for a blank or non-JSON line (some CLI builds print
    diagnostics to stdout). A line that starts as JSON but does not parse is corrupt."""
    text = line.strip()
    if not text.startswith(b"{"):
        if text:
            log.debug("skipping a non-JSON line from the Claude Code CLI: %r", text[:200])
        return None
    decoded = text.decode(errors="replace")
    try:
        message: JsonValue = json.loads(decoded)
    except json.JSONDecodeError as exc:
        raise CLIJSONDecodeError(decoded, exc) from exc
    return message if isinstance(message, dict) else None
