"""Composition of the core services (no Qt): what `app.py` starts before any window.

`start_core` registers every service in the container, starts them in dependency order and
returns `CoreServices`, the one object the UI's bridge is built from.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from cherry_desktop.core.ai.agent_session import (
    AgentChatContextProvider,
    AgentSessionRuntimeService,
    HostSettings,
)
from cherry_desktop.core.ai.service import AiService
from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamManagerConfig,
    LocalTraceStorage,
    PersistentChatContextProvider,
    TemporaryChatContextProvider,
    TemporaryChatService,
    recover_interrupted_messages,
)
from cherry_desktop.core.container import Application, Service
from cherry_desktop.core.credentials import CredentialStore
from cherry_desktop.core.data import DatabaseService, Repositories
from cherry_desktop.core.data.seed import ProviderSeedService
from cherry_desktop.core.paths import PathRegistry
from cherry_desktop.core.settings import SettingsStore
from cherry_desktop.core.shared_cache import SharedCache

log = logging.getLogger(__name__)


@dataclass
class CoreServices:
    """Everything the UI reaches through the bridge."""

    app: Application
    paths: PathRegistry
    repos: Repositories
    shared_cache: SharedCache
    credentials: CredentialStore
    settings: SettingsStore
    stream_manager: AiStreamManager
    ai_service: AiService
    agent_runtime: AgentSessionRuntimeService
    temporary_chats: TemporaryChatService
    demo: Any = None

    async def stop(self) -> None:
        await self.app.stop()


class _ValueService(Service):
    """Wraps a plain object so the container knows about it (start/stop are no-ops)."""

    def __init__(self, name: str, value: Any) -> None:
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
        recovered = recover_interrupted_messages(self.repos)
        if recovered:
            log.info("boot recovery: %d interrupted chat message(s)", len(recovered))

    async def on_stop(self) -> None:
        await self.manager.shutdown()


def build_core(paths: PathRegistry) -> CoreServices:
    """Compose the services (nothing started yet)."""
    app = Application(paths=paths)
    database = DatabaseService(paths.database_file)
    repos = database.repos
    app.register(database)
    # First run: default providers exist before any window lists models.
    app.register(ProviderSeedService(repos))
    shared_cache = SharedCache()
    app.register(_ValueService("shared_cache", shared_cache))
    settings = SettingsStore(paths.get("app.config"))
    credentials = CredentialStore()

    ai_service = AiService(repos, credentials)
    app.register(ai_service)
    manager = AiStreamManager(
        AiStreamManagerConfig(background_mode=settings.settings.background_mode),
        stream_text=ai_service.stream_text, shared_cache=shared_cache,
    )
    app.register(StreamManagerService(manager, repos))

    trace_storage = LocalTraceStorage(paths.get("feature.traces"))

    def host_settings() -> HostSettings:
        current = settings.settings
        return HostSettings(username=current.username, language=current.language)

    runtime = AgentSessionRuntimeService(
        repos=repos, paths=paths, stream_host=manager, credentials=credentials, settings=host_settings,
        idle_window_s=settings.settings.agent_idle_window_s, shared_cache=shared_cache,
        trace_storage=trace_storage,
    )
    app.register(runtime)
    ai_service.set_runtime_stream_handler(runtime.open_turn_stream)
    temporary = TemporaryChatService()
    # Agent -> Temporary -> Persistent (catch-all): the first provider that can handle wins.
    manager.set_context_providers([
        AgentChatContextProvider(runtime),
        TemporaryChatContextProvider(temporary),
        PersistentChatContextProvider(repos, trace_storage=trace_storage),
    ])
    return CoreServices(
        app=app, paths=paths, repos=repos, shared_cache=shared_cache, credentials=credentials,
        settings=settings, stream_manager=manager, ai_service=ai_service, agent_runtime=runtime,
        temporary_chats=temporary,
    )


async def start_core(paths: PathRegistry) -> CoreServices:
    """Compose and start every core service in dependency order."""
    paths.ensure_all()
    core = build_core(paths)
    await core.app.start()
    return core
