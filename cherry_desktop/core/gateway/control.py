"""`GatewayControl`: the app's gateway as Settings says (enabled, port), with its status.

The one writer of the running `ApiGateway` and of the SharedCache key `GATEWAY_STATUS_KEY`
(`GatewayStatus`: off, running with its base URL, or the port in use), which Settings and the
agent views read. `apply()` follows the current settings (start, stop, or restart on another
port); `regenerate_key()` replaces the stored key and the running gateway takes it at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal, Protocol

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.gateway.agent_api import AgentApi, ApiCore
from cherry_desktop.core.gateway.keys import GatewayKeyCheck, ensure_gateway_key, regenerate_gateway_key
from cherry_desktop.core.gateway.model_routes import UsageBinding
from cherry_desktop.core.gateway.server import ApiGateway
from cherry_desktop.core.net import PortInUseError
from cherry_desktop.core.state.shared_cache import SharedCache
from cherry_desktop.core.storage.credentials import CredentialStore, KeyringUnavailableError
from cherry_desktop.core.storage.settings import SettingsStore

log = logging.getLogger(__name__)

GATEWAY_STATUS_KEY = "gateway.status"


@dataclass(frozen=True)
class GatewayStatus:
    state: Literal["off", "running", "port-in-use", "no-keyring"]
    port: int
    base_url: str = ""


class GatewayCore(ApiCore, Protocol):
    credentials: CredentialStore
    settings: SettingsStore


class GatewayControl:
    def __init__(self, core: GatewayCore, *, binding: UsageBinding | None = None) -> None:
        self.core = core
        self.binding = binding
        self.key_check = GatewayKeyCheck(core.credentials)
        self.gateway: ApiGateway | None = None

    @property
    def repos(self) -> Repositories:
        return self.core.repos

    @property
    def shared_cache(self) -> SharedCache:
        return self.core.shared_cache

    @property
    def base_url(self) -> str | None:
        """The running gateway's URL (what Claude Code agents on other providers use)."""
        return self.gateway.base_url if self.gateway is not None and self.gateway.running else None

    def key(self) -> str:
        return self.key_check.key

    def _publish(self, status: GatewayStatus) -> GatewayStatus:
        self.shared_cache.set_shared(GATEWAY_STATUS_KEY, status)
        return status

    async def apply(self) -> GatewayStatus:
        """Start, stop or move the gateway to match Settings; never raises for a taken port."""
        settings = self.core.settings.settings
        running = self.gateway
        if running is not None and (not settings.gateway_enabled or running.port != settings.gateway_port):
            await self.stop()
        if not settings.gateway_enabled:
            return self._publish(GatewayStatus("off", settings.gateway_port))
        if self.gateway is not None:
            return self._publish(GatewayStatus("running", self.gateway.port, self.gateway.base_url))
        try:
            ensure_gateway_key(self.core.credentials)
        except KeyringUnavailableError:
            log.warning("the gateway needs the keyring for its key; not started")
            return self._publish(GatewayStatus("no-keyring", settings.gateway_port))
        self.key_check.refresh()
        gateway = ApiGateway(self.repos, self.core.credentials, self.key_check, port=settings.gateway_port,
                             binding=self.binding, agent_api=AgentApi(self.core))
        try:
            url = await gateway.start()
        except PortInUseError:
            log.warning("gateway port %d is in use; not started", settings.gateway_port)
            return self._publish(GatewayStatus("port-in-use", settings.gateway_port))
        self.gateway = gateway
        return self._publish(GatewayStatus("running", gateway.port, url))

    def regenerate_key(self) -> str:
        key = regenerate_gateway_key(self.core.credentials)
        self.key_check.refresh()
        return key

    async def stop(self) -> None:
        gateway, self.gateway = self.gateway, None
        if gateway is not None:
            await gateway.stop()


__all__ = ["GATEWAY_STATUS_KEY", "GatewayControl", "GatewayCore", "GatewayStatus"]
