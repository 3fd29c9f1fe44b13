"""`ClaudeCodeProcessManager`: owns every Claude Code CLI process this app spawns.

Every SDK client is built on `tracked_transport(...)`, a subclass of the SDK's subprocess
transport that records the child from spawn to exit and starts it through
`cherry_desktop.core.process.process_tie` (the SDK has no spawn hook, so its command is prefixed):
the CLI runs in its own process group and the OS kills it when the app dies, however it dies
(the CLI does not exit on stdin EOF while a model request is in flight). The stdio contract is
otherwise the SDK's: stdin stays a pipe. A client's API key goes to its CLI over an inherited
socket (`key_handoff`), never in the options' environment. `sweep()` — run at app stop after connections were
closed gracefully — sends SIGTERM to any tracked child's group still alive. It waits for
nothing and never looks processes up by name.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import signal
from typing import Any

from cherry_desktop.core.ai.runtime.claude_code import key_handoff
from cherry_desktop.core.ai.runtime.claude_code.sdk import (
    configure_can_use_tool,
    ignore_shadowed_can_use_tool_warning,
    load_sdk,
)
from cherry_desktop.core.process import process_tie

log = logging.getLogger(__name__)


class ClaudeCodeProcessManager:
    """The registry of live CLI children."""

    def __init__(self) -> None:
        self._processes: dict[int, Any] = {}
        self._transport_class: type[Any] | None = None

    # ---- registry ------------------------------------------------------------------------

    def register(self, process: Any) -> None:
        self._processes[int(process.pid)] = process

    def unregister(self, process: Any) -> None:
        self._processes.pop(int(process.pid), None)

    def alive_pids(self) -> list[int]:
        """PIDs of tracked children that have not exited (exited ones are dropped)."""
        for pid, process in list(self._processes.items()):
            if process.returncode is not None:
                self._processes.pop(pid, None)
        return sorted(self._processes)

    def sweep(self) -> list[int]:
        """SIGTERM every tracked child still alive; returns their PIDs. Never waits."""
        signalled = []
        for pid in self.alive_pids():
            self._processes.pop(pid)
            with contextlib.suppress(ProcessLookupError, OSError):
                process_tie.kill_tree(pid, signal.SIGTERM)
                signalled.append(pid)
        if signalled:
            log.info("sent SIGTERM to %d Claude Code process(es) still alive at stop", len(signalled))
        return signalled

    # ---- transport -----------------------------------------------------------------------

    def transport_class(self) -> type[Any]:
        """The SDK subprocess transport, subclassed to report spawn and close to this manager."""
        if self._transport_class is None:
            load_sdk()
            from claude_agent_sdk._internal.transport import subprocess_cli
            from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport

            key_handoff.install_pass_fds_hook(subprocess_cli)
            manager = self

            class TrackedSubprocessCLITransport(SubprocessCLITransport):
                def __init__(self, *args: Any, api_key: str | None = None, **kwargs: Any) -> None:
                    super().__init__(*args, **kwargs)
                    self._cherry_api_key = api_key

                def _build_command(self) -> list[str]:
                    return process_tie.tied_command(super()._build_command())

                def _with_env(self, **extra: str) -> None:
                    self._options = dataclasses.replace(self._options, env={**self._options.env, **extra})

                async def connect(self) -> None:
                    key = self._cherry_api_key
                    if not key:
                        await self._connect_tracked()
                    elif not key_handoff.fd_handoff_supported():
                        self._with_env(**{key_handoff.KEY_ENV: key})
                        await self._connect_tracked()
                    else:
                        with key_handoff.key_socket(key) as fd:
                            # An empty ANTHROPIC_API_KEY hides one the app itself inherited.
                            self._with_env(**{key_handoff.KEY_ENV: "", key_handoff.KEY_FD_ENV: str(fd)})
                            with key_handoff.passing_fds((fd,)):
                                await self._connect_tracked()

                async def _connect_tracked(self) -> None:
                    try:
                        await super().connect()
                    finally:
                        process = getattr(self, "_process", None)
                        if process is not None:
                            process_tie.adopt(int(process.pid))
                            manager.register(process)

                async def close(self) -> None:
                    process = getattr(self, "_process", None)
                    try:
                        await super().close()
                    finally:
                        if process is not None and process.returncode is not None:
                            manager.unregister(process)

            self._transport_class = TrackedSubprocessCLITransport
        return self._transport_class

    def new_client(self, options: Any, *, api_key: str | None = None) -> Any:
        """A `ClaudeSDKClient` whose CLI process this manager tracks; ``api_key`` reaches the
        CLI over a socket (`key_handoff`), never through ``options.env``."""
        sdk = load_sdk()
        ignore_shadowed_can_use_tool_warning()

        async def _no_input() -> Any:
            return
            yield {}

        configured = configure_can_use_tool(options)
        transport = self.transport_class()(prompt=_no_input(), options=configured, api_key=api_key)
        return sdk.ClaudeSDKClient(options=options, transport=transport)
