"""`ClaudeCodeRuntimeDriver`: the Claude Code runtime behind the agent-session host.

Importing this module does not import `claude_agent_sdk`; the SDK is imported on the first
connect or prewarm.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from cherry_desktop.core.ai.runtime.capabilities import builtin_tool_catalog
from cherry_desktop.core.ai.runtime.claude_code.connection import ClaudeCodeConnection
from cherry_desktop.core.ai.runtime.claude_code.process_manager import ClaudeCodeProcessManager
from cherry_desktop.core.ai.runtime.claude_code.query_builder import (
    QueryRequest,
    build_claude_code_query_request,
    uses_claude_login,
)
from cherry_desktop.core.ai.runtime.claude_code.sdk_client import CallbackRouter, SdkClient
from cherry_desktop.core.ai.runtime.claude_code.warm_query import DEFAULT_WARM_TTL_S, ClaudeCodeWarmQueryManager
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    RuntimeConnectInput,
    RuntimeSessionContext,
    RuntimeValidationError,
    ToolDescriptor,
    validate_agent_and_workspace,
)

log = logging.getLogger(__name__)

#: How long app stop waits for connections and warm queries to close gracefully.
SHUTDOWN_GRACE_S = 5.0


class ClaudeCodeRuntimeDriver:
    """Claude Code on claude-agent-sdk (see the spec's "Claude Code driver")."""

    type = "claude-code"
    capabilities: Sequence[str] = ("agent-session",)

    def __init__(self, deps: RuntimeDriverDeps | None = None, *, warm_ttl_s: float = DEFAULT_WARM_TTL_S) -> None:
        self.deps = deps
        self.process_manager = ClaudeCodeProcessManager()
        self.warm_queries = ClaudeCodeWarmQueryManager(ttl_s=warm_ttl_s)
        self._connections: set[ClaudeCodeConnection] = set()

    # ---- validation / catalog ------------------------------------------------------------

    def validate_session(self, context: RuntimeSessionContext) -> None:
        """Side-effect free: no keyring read, no process, no write."""
        validate_agent_and_workspace(context, self.type)
        if not context.model_id:
            raise RuntimeValidationError("model-missing")
        provider = context.provider
        if provider is None:
            # Never a silent fall back to the public endpoint or the user's own Claude login.
            raise RuntimeValidationError("provider-missing", context.model_id)
        if not provider.enabled:
            raise RuntimeValidationError("provider-disabled", provider.id)
        if not provider.base_url and not uses_claude_login(provider):
            raise RuntimeValidationError("provider-endpoint-missing", provider.id)

    def list_available_tools(self, mcp_ids: Sequence[str] = ()) -> list[ToolDescriptor]:
        return builtin_tool_catalog(self.type)

    # ---- connections ---------------------------------------------------------------------

    @property
    def connections(self) -> list[ClaudeCodeConnection]:
        return list(self._connections)

    async def connect(self, input: RuntimeConnectInput) -> AgentRuntimeConnection:
        request = build_claude_code_query_request(input, input.resume_token)
        warm = self.warm_queries.consume(input.context.session.id, request.signature, request.resume)
        connection = ClaudeCodeConnection(
            request=request, process_manager=self.process_manager, on_closed=self._connections.discard
        )
        connection.always_allowed_tools.update(input.always_allowed_tools)
        await connection.start(warm)
        self._connections.add(connection)
        return connection

    async def on_session_idle(self, input: RuntimeConnectInput) -> None:
        """Prewarm a query for the session when its resume token is known."""
        request = build_claude_code_query_request(input, input.resume_token)
        if request.resume is None:
            return
        await self.prewarm(input.context.session.id, request)

    async def prewarm(self, session_id: str, request: QueryRequest) -> bool:
        async def factory(router: CallbackRouter) -> SdkClient:
            client = self.process_manager.new_client(request.launch(request.resume), router)
            await client.connect()
            return client

        return await self.warm_queries.prewarm(session_id, request.signature, request.resume, factory)

    async def close_session_warm(self, session_id: str) -> None:
        await self.warm_queries.close(session_id)

    async def shutdown(self) -> None:
        """Close connections and warm queries (bounded), then SIGTERM any CLI still alive."""
        closers = [c.close() for c in list(self._connections)]
        closers.append(self.warm_queries.close_all())
        try:
            await asyncio.wait_for(asyncio.gather(*closers, return_exceptions=True), SHUTDOWN_GRACE_S)
        except TimeoutError:
            log.warning("Claude Code connections did not close within %.1f s", SHUTDOWN_GRACE_S)
        self._connections.clear()
        self.process_manager.sweep()
