"""`ApiGateway`: the local API server of one core (model routes, agent API), on its loop.

The GUI runs it while the gateway is enabled in Settings; `cherry-desktop serve` always does.
It binds 127.0.0.1 only; a port in use raises `PortInUseError` (the caller says so, nothing
crashes). It owns one httpx client for its upstream calls, closed at `stop()`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from cherry_desktop.core.data import Repositories
from cherry_desktop.core.gateway.app import RouteSource, build_gateway_app
from cherry_desktop.core.gateway.keys import GatewayKeyCheck
from cherry_desktop.core.gateway.model_routes import ModelGateway, UsageBinding
from cherry_desktop.core.net import LoopbackHttpServer
from cherry_desktop.core.storage.credentials import CredentialStore

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)


class ApiGateway:
    """Args:
        repos / credentials: where providers, models and their keys are read.
        key_check: the key every request must carry.
        port: the port to bind on 127.0.0.1 (0: a free one, for tests).
        binding: the agent host, for usage of gateway-owned agent connections.
        agent_api: extra routes (the agent and topic API), when a stream manager runs.
    """

    def __init__(self, repos: Repositories, credentials: CredentialStore, key_check: GatewayKeyCheck, *,
                 port: int, binding: UsageBinding | None = None, agent_api: RouteSource | None = None) -> None:
        self.key_check = key_check
        self._client: httpx.AsyncClient | None = None
        self.models = ModelGateway(repos, credentials, self.client, binding)
        self._http = LoopbackHttpServer(build_gateway_app(self.models, key_check, agent_api), port=port)

    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            import httpx

            from cherry_desktop.core.ai.service import default_timeout

            self._client = httpx.AsyncClient(timeout=default_timeout())
        return self._client

    @property
    def running(self) -> bool:
        return self._http.running

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def port(self) -> int:
        return self._http.port

    def key(self) -> str:
        """The key requests must carry (what Cherry's own gateway-owned connections send)."""
        return self.key_check.key

    def set_binding(self, binding: UsageBinding | None) -> None:
        self.models.binding = binding

    async def start(self) -> str:
        """Listen; returns the base URL. Raises `PortInUseError`."""
        url = await self._http.start()
        log.info("API gateway on %s", url)
        return url

    async def stop(self) -> None:
        await self._http.stop()
        if self._client is not None:
            await self._client.aclose()
            self._client = None


__all__ = ["ApiGateway"]
