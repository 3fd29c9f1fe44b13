"""A session's runtime connection: the slot that holds it (`ConnectionSlot`), what the host
hands it (its connect input, its reconcile input), and the bounded close / interrupt calls."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Protocol

from cherry_desktop.core.ai.agent_session.errors import UnknownRuntimeTurnError
from cherry_desktop.core.ai.agent_session.host import SessionHost
from cherry_desktop.core.ai.runtime.capabilities import get_capabilities
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    AgentSessionRuntimeDriver,
    ContextUsage,
    GatewayRoute,
    PermissionMode,
    ReconcileInput,
    ReconcileResult,
    RuntimeConnectInput,
    RuntimeSessionContext,
    RuntimeValidationError,
)
from cherry_desktop.core.data.records import ProviderRecord
from cherry_desktop.core.mcp.toolset import AgentToolProvider, AgentToolset, agent_server_ids, agent_skill_names
from cherry_desktop.core.storage.credentials import provider_key_name

log = logging.getLogger(__name__)
#: How long dropping a connection waits for its cancelled event pump to finish.
PUMP_STOP_S = 2.0

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


class KeyReader(Protocol):
    """Where a provider's API key is read at connect time (`CredentialStore`: the keyring)."""

    def try_get(self, name: str) -> str | None: ...


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
                          disabled_tools=frozenset(agent.disabled_tools), model_id=context.model_id,
                          mcp_servers=tuple(sorted(agent_server_ids(agent.config))),
                          skills=tuple(sorted(agent_skill_names(agent.config))))


def build_connect_input(context: RuntimeSessionContext, *, resume_token: str | None, credentials: KeyReader | None,
                        get_last_resume_token: Callable[[], str | None], language: str,
                        username: str, always_allowed_tools: Iterable[str] = (),
                        gateway: GatewayAccess | None = None, tools: AgentToolset | None = None) -> RuntimeConnectInput:
    agent = context.agent
    provider = context.provider

    def get_api_key() -> str | None:
        if credentials is None or provider is None:
            return None
        return credentials.try_get(provider_key_name(provider.id))

    return RuntimeConnectInput(
        context=context, resume_token=resume_token, permission_mode=permission_mode(agent.permission_mode),
        disabled_tools=frozenset(agent.disabled_tools), get_api_key=get_api_key,
        get_last_resume_token=get_last_resume_token, extra_env=provider_child_env(provider),
        language=language, username=username,
        # A grant never reaches the runtime for a tool the agent disables (`tool_grants.py`).
        always_allowed_tools=frozenset(always_allowed_tools) - frozenset(agent.disabled_tools),
        gateway=gateway_route(context, gateway), tools=tools or AgentToolset(),
    )


def agent_toolset(context: RuntimeSessionContext, provider: AgentToolProvider | None) -> AgentToolset | None:
    """The session's toolset from `provider` (None: the runtime takes no tools of Cherry's)."""
    caps = get_capabilities(context.agent.type)
    if provider is None or caps is None or not (caps.supports_mcp or caps.supports_skills):
        return None
    return provider.toolset(agent_config=context.agent.config, agent_data_dir=context.agent_data_dir,
                            workspace=context.workspace_path, tools=caps.supports_mcp, skills=caps.supports_skills)


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


class SessionConnection:
    """One session's runtime connection (and the process behind it): the driver and input it was
    made with, its event pump, the context it runs under, the newest resume token
    (`last_resume_token`) and context usage. `LiveSession` owns one; this object is the only
    writer of what it holds, and reaches the service through `SessionHost`."""

    def __init__(self, host: SessionHost, session_id: str,
                 pump: Callable[[AgentRuntimeConnection], Coroutine[object, object, None]]) -> None:
        self.host = host
        self.session_id = session_id
        self._pump = pump
        self.driver: AgentSessionRuntimeDriver | None = None
        self.connection: AgentRuntimeConnection | None = None
        self.connect_input: RuntimeConnectInput | None = None
        self.pump_task: asyncio.Task[None] | None = None
        self.context: RuntimeSessionContext | None = None
        self.last_resume_token: str | None = None
        self.context_usage: ContextUsage | None = None
        # The runtime's own commands, as it announced them (() until it does).
        self.slash_commands: tuple[str, ...] = ()
        self._lock = asyncio.Lock()
        #: Clear while `drop` runs (a close under way), set otherwise.
        self.not_dropping = asyncio.Event()
        self.not_dropping.set()
        # An agent edit the live connection cannot take: rebuild it once the turn is over.
        self._rebuild = False

    def use_context(self, context: RuntimeSessionContext, *, model_id: str | None = None) -> None:
        """The session's rows as last validated (with `model_id`: a running turn keeps its model)."""
        if model_id is not None:
            context.model_id = model_id
        self.context = context

    def record_context_usage(self, usage: ContextUsage) -> None:
        self.context_usage = usage

    def record_slash_commands(self, commands: tuple[str, ...]) -> bool:
        """Keep the commands the runtime announced; whether they changed."""
        changed = commands != self.slash_commands
        self.slash_commands = commands
        return changed

    def record_resume_token(self, token: str, row_id: str | None) -> None:
        """Keep the token, and write it to the running row at once when it is new (a crash
        during the turn still resumes it); a row that is gone is skipped quietly."""
        changed = token != self.last_resume_token
        self.last_resume_token = token
        if not changed or row_id is None:
            return
        try:
            self.host.messages.update_message(row_id, runtime_resume_token=token)
        except Exception:
            log.debug("resume token of %s not written to %s", self.session_id, row_id, exc_info=True)

    async def ensure(self, model_id: str, *, closed: Callable[[], bool]) -> AgentRuntimeConnection:
        """The live connection for a turn on `model_id`: the current one when it is alive and
        takes the agent's rows (reconcile), else a new one (resuming from the newest token)."""
        async with self._lock:
            context = self.context if self.context is not None else self.host.resolve_context(self.session_id)
            self.context = context
            context.model_id = model_id
            conn = self.connection
            if conn is not None and not conn.is_alive:
                await self.drop()
                conn = None
            if conn is not None:
                result = await self.reconcile(conn)
                if result in ("current", "patched"):
                    return conn
                # rebuild: spawn-frozen facts changed; invalid/failed: fail closed.
                log.info("session %s: reconcile said %s, reconnecting", self.session_id, result)
                await self.drop()
            driver = self.host.registry.get(context.agent.type)
            if self.last_resume_token is None:
                # A cold session resumes from the newest persisted token.
                self.last_resume_token = self.host.messages.get_last_runtime_resume_token(self.session_id)
            connect_input = self.host.connect_input(context, self.last_resume_token)
            conn = await driver.connect(connect_input)
            if closed():
                # Deleted or closed while connecting: this connection never serves it.
                await close_connection(self.session_id, conn)
                raise UnknownRuntimeTurnError("unknown-runtime-turn", "the session closed while connecting")
            self.driver, self.connect_input, self.connection = driver, connect_input, conn
            self.pump_task = self.host.spawn(self._pump(conn))
            return conn

    async def reconcile(self, conn: AgentRuntimeConnection) -> ReconcileResult:
        """Carry the agent's current permission mode, disabled tools and model onto `conn`."""
        context = self.context
        if context is None:
            return "current"
        return await conn.reconcile(reconcile_input(context))

    def detach(self, conn: AgentRuntimeConnection) -> bool:
        """Forget `conn` if it is still the session's (its events ended or it was torn down)."""
        if self.connection is not conn:
            return False
        self.connection = None
        self.pump_task = None
        return True

    def tear_down(self, conn: AgentRuntimeConnection) -> None:
        """The driver tore `conn` down: forget it and close it; the next turn reconnects."""
        if self.detach(conn):
            self.host.spawn(close_connection(self.session_id, conn))

    async def drop(self) -> None:
        """Close the connection (bounded) and stop its pump; the driver and input stay known
        (the idle close prewarms with them)."""
        conn, self.connection = self.connection, None
        pump, self.pump_task = self.pump_task, None
        self.not_dropping.clear()
        try:
            if conn is not None:
                await close_connection(self.session_id, conn)
            if pump is not None and not pump.done() and pump is not asyncio.current_task():
                pump.cancel()
                # Its cancellation runs now, not after the next connection's pump has started.
                await asyncio.wait([pump], timeout=PUMP_STOP_S)
        finally:
            self.not_dropping.set()

    def rebuild_after_turn(self) -> None:
        self._rebuild = True

    def take_rebuild(self) -> bool:
        """True (once) when an edit asked for a rebuild while the turn ran."""
        rebuild, self._rebuild = self._rebuild, False
        return rebuild

    async def prewarm(self) -> None:
        """The session closed idle: its driver may prewarm on the newest resume token."""
        driver, connect_input, token, host = self.driver, self.connect_input, self.last_resume_token, self.host
        if driver is None or connect_input is None or not token or host.stopped or host.is_deleted(self.session_id):
            return
        connect_input.resume_token = token
        try:
            await driver.on_session_idle(connect_input)
        except Exception:
            log.exception("on_session_idle of %s failed", self.session_id)
