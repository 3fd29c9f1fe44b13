"""`AcpRuntimeDriver`: any agent that speaks the Agent Client Protocol, behind the host.

One runtime type serves many agents: which ACP agent an agent runs is its own setting
(`presets.agent_choice`: a preset such as claude-agent-acp or opencode, or a custom command).
A preset's agent is a command on PATH, else its pinned npm package, installed into the app's
runtime folder on first use (npm's progress goes to the windows as an `AgentRuntimeSetup`
under `agent_runtime_setup_key("acp")`). One agent child per connection, tracked here from
spawn to close; `shutdown` closes them all. The resume token is the agent's ACP session id.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cherry_desktop.core.ai.runtime.acp.install import AcpInstallation, find_agent, install_preset
from cherry_desktop.core.ai.runtime.acp.launch import (
    AcpLaunch,
    ModelEndpoint,
    acp_model_name,
    build_acp_launch,
    provider_endpoint,
)
from cherry_desktop.core.ai.runtime.acp_presets import AcpConfigError, AgentChoice, agent_choice
from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES
from cherry_desktop.core.ai.runtime.node import RuntimeUnavailableError
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps
from cherry_desktop.core.ai.runtime.types import (
    AgentRuntimeConnection,
    RuntimeConnectInput,
    RuntimeSessionContext,
    RuntimeValidationError,
    ToolDescriptor,
    last_resume_token,
    validate_agent_and_workspace,
)
from cherry_desktop.core.data.records import ModelRecord
from cherry_desktop.core.state.shared_cache import AgentRuntimeSetup, agent_runtime_setup_key
from cherry_desktop.core.storage.paths import PathRegistry, build_path_registry

if TYPE_CHECKING:
    # The ACP client library costs ~0.6 s to import: only a connect loads it.
    from cherry_desktop.core.ai.runtime.acp.connection import AcpConnection

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_S = 5.0


class AcpRuntimeDriver:
    type = "acp"
    capabilities: Sequence[str] = ("agent-session",)

    def __init__(self, deps: RuntimeDriverDeps | None = None, *, install_root: Path | None = None) -> None:
        self.deps = deps
        paths = deps.paths if deps is not None else None
        self.paths: PathRegistry = paths if paths is not None else build_path_registry()
        self.install_root = install_root or self.paths.get("feature.agents.acp.install")
        self._connections: set[AcpConnection] = set()
        self._install_lock = asyncio.Lock()
        #: How long an agent has to answer ``initialize`` and open its session.
        self.start_timeout_s = 60.0

    # ---- validation / catalog ------------------------------------------------------------

    def validate_session(self, context: RuntimeSessionContext) -> None:
        """Side-effect free: no keyring read, no process, no write."""
        validate_agent_and_workspace(context, self.type)
        try:
            choice = agent_choice(context.agent)
        except AcpConfigError as exc:
            raise RuntimeValidationError(exc.code, exc.detail) from exc
        model = acp_model_name(context.model_id)
        if not model:
            raise RuntimeValidationError("model-missing")
        provider = context.provider
        if provider is None:
            raise RuntimeValidationError("provider-missing")
        if not provider.enabled:
            raise RuntimeValidationError("provider-disabled", provider.id)
        record = ModelRecord(unique_model_id=context.model_id or "", provider_id=provider.id, model_id=model,
                             name=model)
        if not AGENT_RUNTIME_CAPABILITIES[self.type].is_model_compatible(provider, record):
            raise RuntimeValidationError("provider-unsupported", provider.type)
        wanted = "anthropic" if choice.dialect == "anthropic" else "openai-compatible"
        if provider.type != wanted and not (wanted == "anthropic" and provider.settings.get("anthropic_compatible")):
            raise RuntimeValidationError("provider-unsupported", provider.type)

    def list_available_tools(self, mcp_ids: Sequence[str] = ()) -> list[ToolDescriptor]:
        return []  # the agent's tools are its own: unknown before it runs them

    # ---- installation --------------------------------------------------------------------

    async def ensure_installation(self, choice: AgentChoice) -> AcpInstallation:
        """The agent's command; a preset's pinned package is installed first when missing."""
        async with self._install_lock:
            try:
                return await asyncio.to_thread(find_agent, choice, self.install_root)
            except RuntimeUnavailableError as exc:
                if exc.code != "acp-agent-missing" or choice.preset is None:
                    raise
            preset = choice.preset
            log.info("ACP agent %s is not installed; installing it into %s", preset.spec, self.install_root)
            self._report_setup(preset.version, "")
            try:
                return await install_preset(preset, self.install_root,
                                            progress=lambda line: self._report_setup(preset.version, line))
            finally:
                self._report_setup(preset.version, None)

    def _report_setup(self, version: str, line: str | None) -> None:
        if line:
            log.info("npm: %s", line)
        cache = self.deps.shared_cache if self.deps is not None else None
        if cache is None:
            return
        key = agent_runtime_setup_key(self.type)
        if line is None:
            cache.delete(key)
        else:
            cache.set_shared(key, AgentRuntimeSetup(self.type, version, line.strip()))

    # ---- connections ---------------------------------------------------------------------

    @property
    def connections(self) -> list[AcpConnection]:
        return list(self._connections)

    def alive_pids(self) -> list[int]:
        return sorted(c.process.pid for c in self._connections if c.process.pid is not None and not c.process.exited)

    def launch_for(self, input: RuntimeConnectInput, installation: AcpInstallation, *,
                   provider: ModelEndpoint | None = None, child: ModelEndpoint | None = None) -> AcpLaunch:
        """The launch of an agent for `input` (also used by bench/acp_turn.py for a bare client,
        which talks to the provider itself: no `child` endpoint)."""
        return build_acp_launch(input, choice=agent_choice(input.context.agent), installation=installation,
                                homes=self.paths.get("feature.agents.acp.homes"), provider=provider, child=child)

    async def connect(self, input: RuntimeConnectInput) -> AgentRuntimeConnection:
        try:
            choice = agent_choice(input.context.agent)
        except AcpConfigError as exc:
            raise RuntimeValidationError(exc.code, exc.detail) from exc
        from cherry_desktop.core.ai.runtime.acp.connection import AcpConnection
        from cherry_desktop.core.net.key_relay import KeyRelay

        installation = await self.ensure_installation(choice)
        # The agent reaches its provider through a relay of Cherry's that adds the key
        # (launch.py, "Credentials"): it never holds the key itself.
        provider = await asyncio.to_thread(provider_endpoint, input, choice)
        relay = KeyRelay(provider.base_url, provider.key, provider.dialect)
        await relay.start()
        try:
            child = ModelEndpoint(relay.child_base_url, relay.token, provider.dialect)
            launch = await asyncio.to_thread(self.launch_for, input, installation, provider=provider, child=child)
        except BaseException:
            await relay.stop()
            raise
        token = input.resume_token or last_resume_token(input)
        connection = AcpConnection(launch=launch, permission_mode=input.permission_mode,
                                   disabled_tools=input.disabled_tools, resume_token=token,
                                   start_timeout_s=self.start_timeout_s,
                                   on_closed=self._connections.discard, key_relay=relay)
        connection.always_allowed_tools.update(input.always_allowed_tools)
        self._connections.add(connection)
        try:
            await connection.start()
        except BaseException:
            self._connections.discard(connection)
            # All of it, not only the process: the ACP connection's send loop and the exit
            # watcher would stay pending on the loop.
            await connection.close()
            raise
        return connection

    async def on_session_idle(self, input: RuntimeConnectInput) -> None:
        return None  # no prewarm: an agent's start is its own (claude-agent-acp: ~2 s session/new)

    async def shutdown(self) -> None:
        closers = [c.close() for c in list(self._connections)]
        try:
            await asyncio.wait_for(asyncio.gather(*closers, return_exceptions=True), SHUTDOWN_GRACE_S)
        except TimeoutError:
            log.warning("ACP connections did not close within %.1f s", SHUTDOWN_GRACE_S)
        for connection in list(self._connections):
            connection.process.kill_now()
        self._connections.clear()

