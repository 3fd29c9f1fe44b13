"""`ClaudeCodeProcessManager`: owns every Claude Code CLI process this app spawns.

Every SDK client is built here (`new_client`) on the app's own `Transport`
(`transport.CliTransport`, the SDK's public seam), which starts the CLI through
`cherry_desktop.core.process.process_tie` (its own process group; the OS kills it when the app
dies, however it dies: the CLI does not exit on stdin EOF while a model request is in flight),
keeps its stdin a pipe, hands it the provider's key over an inherited socket (`key_handoff`),
never in its environment, and reports the child here from spawn to exit. `sweep()` — run at
app stop after connections were closed gracefully — sends SIGTERM to any tracked child's group
still alive. It waits for nothing and never looks processes up by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.runtime.claude_code.cli_command import CliLaunch
from cherry_desktop.core.ai.runtime.claude_code.query_builder import log_cli_stderr
from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk
from cherry_desktop.core.ai.runtime.claude_code.sdk_client import CallbackRouter
from cherry_desktop.core.process import process_tie

if TYPE_CHECKING:
    from claude_agent_sdk import ClaudeSDKClient

log = logging.getLogger(__name__)


class ClaudeCodeProcessManager:
    """The registry of live CLI children, and the factory of SDK clients on them."""

    def __init__(self) -> None:
        self._processes: dict[int, asyncio.subprocess.Process] = {}

    # ---- registry (`transport.ChildRegistry`) ---------------------------------------------

    def register(self, process: asyncio.subprocess.Process) -> None:
        self._processes[process.pid] = process

    def unregister(self, process: asyncio.subprocess.Process) -> None:
        self._processes.pop(process.pid, None)

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

    # ---- clients (`sdk_client.ClientFactory`) --------------------------------------------

    def new_client(self, launch: CliLaunch, router: CallbackRouter) -> ClaudeSDKClient:
        """A `ClaudeSDKClient` on a CLI started for `launch`, tracked here.

        The options carry only what the SDK itself applies over its control protocol (the
        hooks and the permission callback, sent in ``initialize``, and the in-process MCP
        servers it serves); what the CLI is started with is the transport's (`cli_command`)."""
        load_sdk()
        from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient

        from cherry_desktop.core.ai.runtime.claude_code.mcp_relay import sdk_mcp_servers
        from cherry_desktop.core.ai.runtime.claude_code.transport import CliTransport

        # The relays' instances: the SDK serves the CLI's `mcp_message` requests with them.
        options = ClaudeAgentOptions(hooks=router.hooks(), can_use_tool=router.can_use_tool,
                                     mcp_servers=sdk_mcp_servers(launch.tool_servers))
        transport = CliTransport(launch, children=self, stderr=log_cli_stderr)
        return ClaudeSDKClient(options=options, transport=transport)
