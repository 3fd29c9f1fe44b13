"""What the host hands a runtime connection: its connect input, its reconcile input, and the
bounded close / interrupt calls."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from cherry_desktop.core.ai.runtime.capabilities import get_capabilities
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    GatewayRoute,
    PermissionMode,
    ReconcileInput,
    RuntimeConnectInput,
    RuntimeSessionContext,
    RuntimeValidationError,
)
from cherry_desktop.core.data.records import ProviderRecord
from cherry_desktop.core.storage.credentials import provider_key_name

log = logging.getLogger(__name__)

CLOSE_TIMEOUT_S = 5.0
#: The header that tells the gateway which session a request of a gateway-owned connection is of
#: (`core.gateway.INTERNAL_SESSION_HEADER`).
GATEWAY_SESSION_HEADER = "x-cherry-session"


class GatewayAccess(Protocol):
    """The running API gateway, as a connection needs it (the app's `GatewayControl`)."""

    @property
    def base_url(self) -> str | None: ...

    def key(self) -> str: ...


def gateway_route(context: RuntimeSessionContext, gateway: GatewayAccess | None) -> GatewayRoute | None:
    """The route of a connection whose runtime reaches the session's provider only through the
    gateway; None when it reaches it directly. Raises `RuntimeValidationError("gateway-off")`
    when it needs the gateway and the gateway does not run."""
    caps = get_capabilities(context.agent.type)
    provider = context.provider
    if caps is None or provider is None or not caps.via_gateway(provider):
        return None
    base_url = gateway.base_url if gateway is not None else None
    if gateway is None or not base_url:
        raise RuntimeValidationError("gateway-off", provider.id)
    provider_id, _, model = (context.model_id or "").partition("::")
    return GatewayRoute(base_url=base_url, api_key=gateway.key(), model=f"{provider_id}:{model}",
                        session_header=(GATEWAY_SESSION_HEADER, context.session.id))


def provider_child_env(provider: ProviderRecord | None) -> dict[str, str]:
    """Non-secret environment a provider hands its runtime child (`settings["env"]`), e.g. the
    offline demo's placeholder key; real keys come from the keyring at connect time."""
    if provider is None:
        return {}
    env = provider.settings.get("env")
    if not isinstance(env, dict):
        return {}
    return {str(k): str(v) for k, v in env.items()}


def permission_mode(value: str) -> PermissionMode:
    if value in ("default", "acceptEdits", "plan", "bypassPermissions"):
        return value  # type: ignore[return-value]
    return "default"


def reconcile_input(context: RuntimeSessionContext) -> ReconcileInput:
    """The connection state the agent's rows ask for now."""
    agent = context.agent
    return ReconcileInput(permission_mode=permission_mode(agent.permission_mode),
                          disabled_tools=frozenset(agent.disabled_tools), model_id=context.model_id)


def build_connect_input(context: RuntimeSessionContext, *, resume_token: str | None, credentials: object,
                        get_last_resume_token: Callable[[], str | None], language: str,
                        username: str, always_allowed_tools: Iterable[str] = (),
                        gateway: GatewayAccess | None = None) -> RuntimeConnectInput:
    agent = context.agent
    provider = context.provider

    def get_api_key() -> str | None:
        try_get = getattr(credentials, "try_get", None)
        if try_get is None or provider is None:
            return None
        key: str | None = try_get(provider_key_name(provider.id))
        return key

    return RuntimeConnectInput(
        context=context, resume_token=resume_token, permission_mode=permission_mode(agent.permission_mode),
        disabled_tools=frozenset(agent.disabled_tools), get_api_key=get_api_key,
        get_last_resume_token=get_last_resume_token, extra_env=provider_child_env(provider),
        language=language, username=username,
        # A grant never reaches the runtime for a tool the agent disables (`tool_grants.py`).
        always_allowed_tools=frozenset(always_allowed_tools) - frozenset(agent.disabled_tools),
        gateway=gateway_route(context, gateway),
    )


async def close_connection(session_id: str, conn: AgentRuntimeConnection) -> None:
    """Close one connection, bounded in time (`close()` is idempotent)."""
    try:
        async with asyncio.timeout(CLOSE_TIMEOUT_S):
            await conn.close()
    except Exception:
        log.exception("closing the runtime connection of %s failed", session_id)


async def call_interrupt(conn: AgentRuntimeConnection) -> None:
    try:
        await conn.interrupt()
    except Exception:
        log.exception("interrupting the runtime turn failed")

