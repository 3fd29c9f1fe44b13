"""`McpService`: the registry and the hub in the app's container (warmed at start, closed at
stop, after the agent runtime that uses them)."""

from __future__ import annotations

from collections.abc import Callable

from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.mcp.hub import HubTimeouts, McpHub
from cherry_desktop.core.mcp.registry import McpServerRepository, SecretStore


class McpService(Service):
    name = "mcp"
    depends_on = ("database",)

    def __init__(self, secrets: SecretStore | None, timeouts: HubTimeouts | None = None, *,
                 prepare_import: Callable[[], None] | None = None) -> None:
        self.repository = McpServerRepository(secrets)
        self.hub = McpHub(self.repository, timeouts, prepare_import=prepare_import)

    async def on_init(self, app: Application) -> None:
        self.hub.start()

    async def on_stop(self) -> None:
        await self.hub.stop()
