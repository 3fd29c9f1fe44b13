"""Composition of the core services (no Qt): what `app.py` starts around the first window.

`start_core` registers every service in the container, starts them in dependency order and
returns `CoreServices`, the one object the UI's bridge is built from.

Two stages: the *base* (database, first-run seed, settings, credentials, shared cache) is what
a window needs to paint its sidebar; the *stream services* (AiService, AiStreamManager, the
agent session runtime, temporary chats) import most of core's code (~0.15 s here), so the app
starts them right after its first window is painted (`start_core(paths, services=False)`,
then `core.start_services()`). Until then `services_ready` is unset, and the UI's bridge waits
on it before any stream request. Tests and tools use `start_core(paths)`: both stages at once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cherry_desktop.core.attachments.cleanup import AttachmentService
from cherry_desktop.core.attachments.store import AttachmentStore
from cherry_desktop.core.backup import BackupService, LaunchGate, PromoteResult, promote_staged_restore
from cherry_desktop.core.data import DatabaseService, Repositories
from cherry_desktop.core.data.seed import ProviderSeedService
from cherry_desktop.core.lifecycle.container import Application, Service
from cherry_desktop.core.skills import SkillStore
from cherry_desktop.core.state.shared_cache import SharedCache
from cherry_desktop.core.storage.credentials import CredentialStore
from cherry_desktop.core.storage.paths import PathRegistry
from cherry_desktop.core.storage.settings import SettingsStore

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session import AgentSessionRuntimeService
    from cherry_desktop.core.ai.naming import TopicNamingService
    from cherry_desktop.core.ai.service import AiService
    from cherry_desktop.core.ai.stream import AiStreamManager, TemporaryChatService
    from cherry_desktop.core.checkpoints import CheckpointService
    from cherry_desktop.core.mcp.service import McpService

log = logging.getLogger(__name__)


@dataclass
class CoreServices:
    """Everything the UI reaches through its bridges (`cherry_desktop.ui.bridge`, built from this).

    The stream services (`stream_manager`, `ai_service`, `agent_runtime`, `temporary_chats`)
    exist once `start_services()` ran; `services_ready` is set then.
    """

    app: Application
    paths: PathRegistry
    repos: Repositories
    shared_cache: SharedCache
    credentials: CredentialStore
    settings: SettingsStore
    # The demo's `DemoHandle` (scripted server and records), set by the app in demo mode. Typed
    # Any: the demo package imports core, so core cannot name its type without a cycle.
    demo: Any = None
    # The local API gateway's control (`core.gateway.control.GatewayControl`) once the app runs it.
    gateway: Any = None
    attachments: AttachmentStore | None = None
    backup: BackupService | None = None
    # What the start found of a staged restore (promoted, rolled back, nothing).
    restore_result: PromoteResult | None = None
    #: Cherry-managed skills (`Skills/<name>/SKILL.md` under the data folder).
    skills: SkillStore | None = None
    stream_manager: AiStreamManager = field(init=False)
    ai_service: AiService = field(init=False)
    agent_runtime: AgentSessionRuntimeService = field(init=False)
    temporary_chats: TemporaryChatService = field(init=False)
    topic_naming: TopicNamingService = field(init=False)
    checkpoints: CheckpointService = field(init=False)
    #: The MCP servers' registry and hub (`McpService`), composed with the stream services.
    mcp: McpService = field(init=False)
    services_ready: asyncio.Event = field(init=False, default_factory=asyncio.Event)

    @property
    def stream_services_composed(self) -> bool:
        """Whether the stream services exist (composed; `services_ready` says when they run)."""
        # The fields are `init=False`: unset until `add_stream_services` composes them.
        return hasattr(self, "stream_manager")

    async def start_services(self) -> None:
        """Compose and start the stream services (once; later calls wait for the first)."""
        if not self.stream_services_composed:
            add_stream_services(self)
            await self.app.start()
            self.services_ready.set()
        await self.services_ready.wait()

    async def stop(self) -> None:
        await self.app.stop()


class _ValueService(Service):
    """Wraps a plain object so the container knows about it (start/stop are no-ops)."""

    def __init__(self, name: str, value: object) -> None:
        self.name = name  # type: ignore[misc]
        self.value = value


class StreamManagerService(Service):
    """The broker in the container: recovers crash-orphaned chat rows before any stream runs,
    and at stop ends every stream (partials persist as `paused`).

    It depends on the agent runtime so that it stops first: quitting the app stops agent turns
    the way the user's Stop does (a `paused` row), and only then are runtime connections closed.
    """

    name = "stream_manager"
    depends_on = ("database", "ai", "agent_session_runtime")

    def __init__(self, manager: AiStreamManager, repos: Repositories) -> None:
        self.manager = manager
        self.repos = repos

    async def on_init(self, app: Application) -> None:
        from cherry_desktop.core.ai.stream import recover_interrupted_messages

        recovered = recover_interrupted_messages(self.repos)
        if recovered:
            log.info("boot recovery: %d interrupted chat message(s)", len(recovered))
        # The agent runtime (a dependency, initialised before this) has flipped its rows too:
        # dispatches may now write placeholders.
        self.manager.open_boot_gate()

    async def on_stop(self) -> None:
        await self.manager.shutdown()


def build_core(paths: PathRegistry, *, services: bool = True) -> CoreServices:
    """Compose the services (nothing started yet); `services=False` composes only the base."""
    app = Application(paths=paths)
    database = DatabaseService(paths.database_file)
    repos = database.repos
    app.register(database)
    # First run: default providers exist before any window lists models.
    app.register(ProviderSeedService(repos))
    shared_cache = SharedCache()
    app.register(_ValueService("shared_cache", shared_cache))
    attachments = AttachmentStore(paths.get("feature.attachments"))
    # The files follow their rows: removed with a message, topic, session or agent.
    app.register(AttachmentService(attachments))
    core = CoreServices(app=app, paths=paths, repos=repos, shared_cache=shared_cache,
                        credentials=CredentialStore(), settings=SettingsStore(paths.get("app.config")),
                        attachments=attachments, skills=SkillStore(paths.get("feature.skills")))
    core.backup = BackupService(paths, credentials=core.credentials)
    app.register(core.backup)
    if services:
        add_stream_services(core)
    return core


def add_stream_services(core: CoreServices) -> None:
    """Compose the stream services onto `core` (registered, not started)."""
    from cherry_desktop.core.ai.agent_session import (
        AgentChatContextProvider,
        AgentSessionRuntimeService,
        HostSettings,
    )
    from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps
    from cherry_desktop.core.ai.service import AiService
    from cherry_desktop.core.ai.stream import (
        AiStreamManager,
        AiStreamManagerConfig,
        LocalTraceStorage,
        PersistentChatContextProvider,
        TemporaryChatContextProvider,
        TemporaryChatService,
    )

    app, paths, repos, settings = core.app, core.paths, core.repos, core.settings
    ai_service = AiService(repos, core.credentials)
    ai_service.attachments = core.attachments
    app.register(ai_service)
    manager = AiStreamManager(
        AiStreamManagerConfig(background_mode=settings.settings.background_mode,
                              idle_timeout_ms=settings.settings.stream_idle_timeout_s * 1000.0,
                              require_boot_reconcile=True),
        stream_text=ai_service.stream_text, shared_cache=core.shared_cache,
    )
    app.register(StreamManagerService(manager, repos))

    trace_storage = LocalTraceStorage(paths.get("feature.traces"))
    # Before the runtime: started first, stopped after it (its connections relay to the hub).
    from cherry_desktop.core.ai.runtime.claude_code.sdk_import import prepare_sdk_import
    from cherry_desktop.core.mcp.service import McpService

    core.mcp = McpService(core.credentials, prepare_import=prepare_sdk_import)
    app.register(core.mcp)

    def host_settings() -> HostSettings:
        current = settings.settings
        return HostSettings(username=current.username, language=current.language)

    checkpoints = build_checkpoint_service(paths, repos)
    app.register(checkpoints)
    runtime = AgentSessionRuntimeService(
        repos=repos, paths=paths, stream_host=manager, credentials=core.credentials, settings=host_settings,
        idle_window_s=settings.settings.agent_idle_window_s, shared_cache=core.shared_cache,
        trace_storage=trace_storage, checkpoints=checkpoints,
        driver_deps=RuntimeDriverDeps(paths=paths, repos=repos, credentials=core.credentials,
                                      shared_cache=core.shared_cache),
    )
    from cherry_desktop.core.ai.runtime.cherry_tools import CHERRY_TOOL_CLASSES, cherry_tools_server
    from cherry_desktop.core.mcp.toolset import AgentTools

    # Every connection's tools beyond its runtime's own: Cherry's, then the agent's MCP servers.
    runtime.set_tool_provider(AgentTools(core.mcp.hub, cherry=cherry_tools_server, cherry_classes=CHERRY_TOOL_CLASSES,
                                         skill_paths=core.skills.paths_for if core.skills else None))
    app.register(runtime)
    checkpoints.is_busy = runtime.is_session_busy
    core.checkpoints = checkpoints
    ai_service.set_runtime_stream_handler(runtime.open_turn_stream)
    temporary = TemporaryChatService()
    # Agent -> Temporary -> Persistent (catch-all): the first provider that can handle wins.
    manager.set_context_providers([
        AgentChatContextProvider(runtime),
        TemporaryChatContextProvider(temporary),
        PersistentChatContextProvider(repos, trace_storage=trace_storage),
    ])
    from cherry_desktop.core.ai.naming import TopicNamingService

    def naming_settings() -> tuple[str, str]:
        return settings.settings.language, settings.settings.naming_model

    core.topic_naming = TopicNamingService(manager, repos, core.shared_cache, naming_settings)
    app.register(core.topic_naming)
    from cherry_desktop.core.app.memory import MemoryReleaseService

    app.register(MemoryReleaseService(core.shared_cache))
    if core.backup is not None:  # a backup holds both writers (the spec's orchestration)
        core.backup.add_gate(manager)
        core.backup.add_gate(LaunchGate(runtime))
        from cherry_desktop.core.backup.auto import AutoBackupService

        app.register(AutoBackupService(core.backup, settings))
    core.ai_service, core.stream_manager, core.agent_runtime = ai_service, manager, runtime
    core.temporary_chats = temporary


def build_checkpoint_service(paths: PathRegistry, repos: Repositories) -> CheckpointService:
    """The checkpoint stores under the data dir, over each session's workspace as it is now."""
    from cherry_desktop.core.ai.agent_session.validation import session_workspace_path
    from cherry_desktop.core.checkpoints import CheckpointService

    def session_exists(session_id: str) -> bool:
        return repos.sessions.find_session(session_id) is not None

    return CheckpointService(paths.get("feature.checkpoints"), session_exists=session_exists,
                             workspace_of=lambda session_id: session_workspace_path(session_id, repos, paths))


async def start_core(paths: PathRegistry, *, services: bool = True) -> CoreServices:
    """Compose and start core in dependency order; `services=False` starts only the base
    (then `await core.start_services()`). The caller holds the data dir's instance lock: a
    restore staged for this start is promoted here, before the database opens."""
    paths.ensure_all()
    restored = promote_staged_restore(paths)
    core = build_core(paths, services=services)
    core.restore_result = restored
    await core.app.start()
    if services:
        core.services_ready.set()
    return core
