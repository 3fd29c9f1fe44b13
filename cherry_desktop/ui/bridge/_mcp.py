"""The bridge's MCP facet: the user's MCP servers, their status and tools, for Settings and the
agent dialog.

`Bridges.mcp`. Core's `McpService` (composed with the stream services) is the one writer of
the registry and of the connections; this facet asks it, and re-emits the hub's status changes
as a Qt signal. Secret values (env, headers) go to the keyring through the registry, never to a
widget's own storage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from cherry_desktop.core.mcp import McpSecrets, McpServerConfig, McpToolSpec, ServerState, ToolPolicy, ToolSetting
from cherry_desktop.ui.bridge._base import BridgeUnavailableError, CoreBridge

if TYPE_CHECKING:
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.core.mcp.service import McpService


def parse_pairs(text: str, separator: str) -> dict[str, str]:
    """``KEY=VALUE`` (or ``Name: value``) lines as a dict; blank lines and ``#`` comments skipped."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(separator)
        if key.strip():
            out[key.strip()] = value.strip()
    return out


class McpBridge(CoreBridge):
    """The MCP servers page and the agent dialog's server list.

    Signals:
        status_changed(str, object): a server's id and its new `ServerState`.
    """

    status_changed = Signal(str, object)

    def __init__(self, core: CoreServices, parent: QObject | None = None) -> None:
        super().__init__(core, parent)
        self._unsubscribe: object = None

    def _service(self) -> McpService:
        if not self.core.stream_services_composed:
            raise BridgeUnavailableError("mcp")
        service = self.core.mcp
        if self._unsubscribe is None:
            self._unsubscribe = service.hub.subscribe(self._on_state)
        return service

    def _on_state(self, state: ServerState) -> None:
        self.status_changed.emit(state.server_id, state)

    @property
    def available(self) -> bool:
        return self.core.stream_services_composed

    def servers(self) -> list[McpServerConfig]:
        return self._service().repository.list()

    def find(self, server_id: str) -> McpServerConfig | None:
        return self._service().repository.find(server_id)

    def state(self, server_id: str) -> ServerState:
        return self._service().hub.state(server_id)

    def stored_secrets(self, server_id: str) -> McpSecrets:
        return self._service().repository.secrets(server_id)

    def merge_secrets(self, server_id: str, env: dict[str, str], headers: dict[str, str]) -> McpSecrets:
        """What to store: a name whose value was left empty keeps the stored value."""
        stored = self.stored_secrets(server_id) if server_id else McpSecrets()
        return McpSecrets(env={k: v or stored.env.get(k, "") for k, v in env.items()},
                          headers={k: v or stored.headers.get(k, "") for k, v in headers.items()})

    def save(self, config: McpServerConfig, secrets: McpSecrets) -> McpServerConfig:
        """Store the server (raises `McpConfigError`) and (re)connect it."""
        service = self._service()
        saved = service.repository.save(config, secrets)
        service.hub.reload(saved.id, reconnect=True)
        return saved

    def delete(self, server_id: str) -> None:
        service = self._service()
        service.repository.delete(server_id)
        service.hub.reload(server_id)

    def set_enabled(self, server_id: str, enabled: bool) -> None:
        service = self._service()
        service.repository.set_enabled(server_id, enabled)
        service.hub.reload(server_id)

    def set_tool(self, server_id: str, tool: str, enabled: bool, policy: ToolPolicy | None) -> None:
        """A tool's switch and approval; applies to live connections at once."""
        service = self._service()
        service.repository.set_tool(server_id, tool, ToolSetting(enabled=enabled, policy=policy))
        service.hub.reload(server_id)

    def set_default_policy(self, server_id: str, policy: ToolPolicy) -> None:
        service = self._service()
        service.repository.set_default_policy(server_id, policy)
        service.hub.reload(server_id)

    async def test(self, config: McpServerConfig, secrets: McpSecrets) -> tuple[McpToolSpec, ...]:
        """Connect once with the form's values; the tools, or `McpConnectError` with the reason."""
        return await self._service().hub.test(config, secrets)

