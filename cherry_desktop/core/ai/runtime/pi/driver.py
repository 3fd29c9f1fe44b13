"""`PiRuntimeDriver`: the pi coding agent (``pi --mode rpc``) behind the agent-session host.

One pi child per connection, tracked here from spawn to close; `shutdown` closes them all.
The resume token is pi's session id, resolved under ``feature.agents.pi.sessions``. A token
that is malformed or has no session file, or a session file pi cannot open, costs the
connection its one recovery: it starts a new pi session instead (the next turn-complete
persists the new id).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

from cherry_desktop.core.ai.runtime.capabilities import AGENT_RUNTIME_CAPABILITIES, builtin_tool_catalog
from cherry_desktop.core.ai.runtime.pi.connection import PiConnection
from cherry_desktop.core.ai.runtime.pi.install import (
    PI_PINNED_VERSION,
    PiInstallation,
    PiUnavailableError,
    find_pi,
    install_pinned_pi,
)
from cherry_desktop.core.ai.runtime.pi.launch import (
    PiLaunch,
    build_pi_launch,
    find_session_file,
    pi_model_name,
    plan_pi_launch,
    remove_home,
)
from cherry_desktop.core.ai.runtime.pi.rpc import PiProcessError
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

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_S = 5.0
#: How long a prewarmed pi waits for its session's next turn before it is closed.
DEFAULT_WARM_TTL_S = 120.0


class PiRuntimeDriver:
    """pi over its RPC mode (see the module doc and the spec's pi resource boundary)."""

    type = "pi"
    capabilities: Sequence[str] = ("agent-session",)

    def __init__(self, deps: RuntimeDriverDeps | None = None, *, installation: PiInstallation | None = None,
                 warm_ttl_s: float = DEFAULT_WARM_TTL_S) -> None:
        self.deps = deps
        self.warm_ttl_s = warm_ttl_s
        self._warm: dict[str, tuple[PiConnection, asyncio.TimerHandle | None]] = {}
        paths = deps.paths if deps is not None else None
        self.paths: PathRegistry = paths if paths is not None else build_path_registry()
        self._installation = installation
        self._connections: set[PiConnection] = set()
        self._install_lock = asyncio.Lock()

    # ---- validation / catalog ------------------------------------------------------------

    def validate_session(self, context: RuntimeSessionContext) -> None:
        """Side-effect free: no keyring read, no process, no write (pi is looked up on connect)."""
        validate_agent_and_workspace(context, self.type)
        if not pi_model_name(context.model_id):
            raise RuntimeValidationError("model-missing")
        provider = context.provider
        if provider is None:
            raise RuntimeValidationError("provider-missing")
        if not provider.enabled:
            raise RuntimeValidationError("provider-disabled", provider.id)
        if not AGENT_RUNTIME_CAPABILITIES[self.type].is_model_compatible(provider, _model_of(context)):
            raise RuntimeValidationError("provider-unsupported", provider.type)

    def list_available_tools(self, mcp_ids: Sequence[str] = ()) -> list[ToolDescriptor]:
        return builtin_tool_catalog(self.type)

    # ---- connections ---------------------------------------------------------------------

    @property
    def connections(self) -> list[PiConnection]:
        return list(self._connections)

    def alive_pids(self) -> list[int]:
        return sorted(c.process.pid for c in self._connections
                      if c.process.pid is not None and c.process.returncode is None)

    def use_installation(self, installation: PiInstallation) -> None:
        """Run this pi from now on (tests, or a pi the UI just installed)."""
        self._installation = installation

    def installation(self) -> PiInstallation:
        """The pi in use (`PiUnavailableError` when none was found or installed yet)."""
        if self._installation is None:
            self._installation = find_pi(self.paths.get("feature.agents.pi.install"))
        return self._installation

    async def ensure_installation(self) -> PiInstallation:
        """pi on PATH or in the app's runtime folder; when neither, install the pinned pi there
        with npm first (once, ~15 s; npm's progress goes to the log and, as an
        `AgentRuntimeSetup` under `agent_runtime_setup_key("pi")`, to the windows). Without Node
        this raises `PiUnavailableError` ``node-missing`` (the turn fails with that code)."""
        async with self._install_lock:
            if self._installation is not None:
                return self._installation
            install_dir = self.paths.get("feature.agents.pi.install")
            try:
                self._installation = await asyncio.to_thread(find_pi, install_dir)
            except PiUnavailableError as exc:
                if exc.code != "pi-missing":
                    raise
                log.info("pi is not installed; installing %s into %s", PI_PINNED_VERSION, install_dir)
                self._report_setup("")
                try:
                    self._installation = await install_pinned_pi(install_dir, progress=self._on_install_line)
                finally:
                    self._report_setup(None)
            return self._installation

    def _on_install_line(self, line: str) -> None:
        log.info("npm: %s", line)
        if line.strip():
            self._report_setup(line.strip())

    def _report_setup(self, line: str | None) -> None:
        """Tell the windows that pi is being installed (`line`: npm's newest), or no more (None)."""
        cache = self.deps.shared_cache if self.deps is not None else None
        if cache is None:
            return
        key = agent_runtime_setup_key(self.type)
        if line is None:
            cache.delete(key)
        else:
            cache.set_shared(key, AgentRuntimeSetup(self.type, PI_PINNED_VERSION, line))

    def launch_for(self, input: RuntimeConnectInput, token: str | None) -> PiLaunch:
        """Write a connection home and build the launch of a pi for `input` (also used by
        bench/pi_turn.py to start a bare pi exactly as the app would)."""
        return self._launch(input, token)

    def _launch(self, input: RuntimeConnectInput, token: str | None) -> PiLaunch:
        return build_pi_launch(input, installation=self.installation(),
                               root=self.paths.get("feature.agents.pi.root"),
                               sessions_dir=self.paths.get("feature.agents.pi.sessions"), resume_token=token)

    async def connect(self, input: RuntimeConnectInput) -> AgentRuntimeConnection:
        await self.ensure_installation()
        token = input.resume_token or last_resume_token(input)
        warm = await self._consume_warm(input, token)
        if warm is not None:
            warm.always_allowed_tools = set(input.always_allowed_tools)  # the grants of now
            return warm
        launch = await asyncio.to_thread(self._launch, input, token)
        recovered_from: str | None = None
        if token and launch.session_file is None:
            log.warning("pi resume token %r has no session file; starting a new pi session", token)
            recovered_from = token
        try:
            connection = await self._start(input, launch)
        except PiProcessError:
            if launch.session_file is None or recovered_from is not None:
                raise
            log.warning("pi could not open session %s; starting a new pi session", token, exc_info=True)
            recovered_from = token
            connection = await self._start(input, await asyncio.to_thread(self._launch, input, None))
        connection.recovered_from = recovered_from
        return connection

    async def _start(self, input: RuntimeConnectInput, launch: PiLaunch) -> PiConnection:
        roots = [p for p in (input.context.workspace_path, input.context.agent_data_dir) if p is not None]
        connection = PiConnection(launch=launch, permission_mode=input.permission_mode,
                                  disabled_tools=input.disabled_tools, write_roots=roots,
                                  on_closed=self._connections.discard)
        connection.always_allowed_tools.update(input.always_allowed_tools)
        self._connections.add(connection)
        try:
            await connection.start()
        except BaseException:
            self._connections.discard(connection)
            await connection.process.terminate()
            remove_home(launch)
            raise
        return connection

    def session_file_of(self, token: str) -> Path | None:
        return find_session_file(self.paths.get("feature.agents.pi.sessions"), token)

    # ---- warm connections ----------------------------------------------------------------

    def has_warm(self, session_id: str) -> bool:
        return session_id in self._warm

    async def on_session_idle(self, input: RuntimeConnectInput) -> None:
        """Prewarm a pi on the session's resume token (spawn, load the session file, answer
        ``get_state``: about a second a cold first turn would otherwise wait for); it is closed
        after `warm_ttl_s` unless the session's next turn takes it."""
        session_id = input.context.session.id
        await self.close_session_warm(session_id)
        token = input.resume_token or last_resume_token(input)
        if not token or self.session_file_of(token) is None:
            return
        await self.ensure_installation()
        launch = await asyncio.to_thread(self._launch, input, token)
        connection = await self._start(input, launch)
        if session_id in self._warm:  # a racing prewarm won
            await connection.close()
            return
        handle = asyncio.get_running_loop().call_later(
            self.warm_ttl_s, lambda: asyncio.ensure_future(self.close_session_warm(session_id)))
        self._warm[session_id] = (connection, handle)

    async def _consume_warm(self, input: RuntimeConnectInput, token: str | None) -> PiConnection | None:
        entry = self._warm.pop(input.context.session.id, None)
        if entry is None:
            return None
        connection, handle = entry
        if handle is not None:
            handle.cancel()
        plan = await asyncio.to_thread(plan_pi_launch, input, token)
        if connection.is_alive and connection.launch.signature == plan.signature:
            connection.apply_policy(input.permission_mode, input.disabled_tools)
            return connection
        await connection.close()  # spawn-frozen facts changed while it waited
        return None

    async def close_session_warm(self, session_id: str) -> None:
        entry = self._warm.pop(session_id, None)
        if entry is not None:
            connection, handle = entry
            if handle is not None:
                handle.cancel()
            await connection.close()

    async def shutdown(self) -> None:
        for _warm, handle in self._warm.values():
            if handle is not None:
                handle.cancel()
        self._warm.clear()
        closers = [c.close() for c in list(self._connections)]
        try:
            await asyncio.wait_for(asyncio.gather(*closers, return_exceptions=True), SHUTDOWN_GRACE_S)
        except TimeoutError:
            log.warning("pi connections did not close within %.1f s", SHUTDOWN_GRACE_S)
        for connection in list(self._connections):
            connection.process.kill_now()
        self._connections.clear()


def _model_of(context: RuntimeSessionContext) -> ModelRecord:
    model = pi_model_name(context.model_id) or ""
    provider_id = context.provider.id if context.provider is not None else ""
    return ModelRecord(unique_model_id=context.model_id or "", provider_id=provider_id, model_id=model, name=model)

