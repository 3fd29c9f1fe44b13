"""Composition of the core services (no Qt): what `app.py` starts before any window.

`start_core` registers every service in the container, starts them in dependency order and
returns `CoreServices`, the one object the UI's bridge is built from.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from cherry_desktop.core.container import Application, Service
from cherry_desktop.core.credentials import CredentialStore
from cherry_desktop.core.data import DatabaseService, Repositories
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
    stream_manager: Any = None
    ai_service: Any = None
    agent_runtime: Any = None
    demo: Any = None

    async def stop(self) -> None:
        await self.app.stop()


class _ValueService(Service):
    """Wraps a plain object so the container knows about it (start/stop are no-ops)."""

    def __init__(self, name: str, value: Any) -> None:
        self.name = name  # type: ignore[misc]
        self.value = value


async def start_core(paths: PathRegistry) -> CoreServices:
    paths.ensure_all()
    app = Application(paths=paths)
    database = DatabaseService(paths.database_file)
    app.register(database)
    shared_cache = SharedCache()
    app.register(_ValueService("shared_cache", shared_cache))
    settings = SettingsStore(paths.get("app.config"))
    core = CoreServices(
        app=app, paths=paths, repos=database.repos, shared_cache=shared_cache,
        credentials=CredentialStore(), settings=settings,
    )
    await app.start()
    return core
