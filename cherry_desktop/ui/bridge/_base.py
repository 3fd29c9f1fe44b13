"""What every bridge shares: the typed `CoreServices` it is built from, and the wait for core's
stream services (the app starts them just after the first window is painted)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

if TYPE_CHECKING:
    from cherry_desktop.core.ai.agent_session import AgentSessionRuntimeService
    from cherry_desktop.core.ai.stream import AiStreamManager
    from cherry_desktop.core.app.bootstrap import CoreServices
    from cherry_desktop.core.data import Repositories


class BridgeUnavailableError(RuntimeError):
    """The core service behind a channel is not there (yet)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class CoreBridge(QObject):
    """Base of the bridges: core's services, and whether its stream services are composed.

    A request made before the stream services run waits for them (`services`) instead of
    failing; a read made before then answers from the database.
    """

    def __init__(self, core: CoreServices, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core

    @property
    def _repos(self) -> Repositories:
        return self.core.repos

    def services_running(self) -> bool:
        """Whether core's stream services run (the app starts them just after the first paint)."""
        return self.core.services_ready.is_set()

    async def services(self) -> None:
        """Wait until core's stream services run (at once when they already do)."""
        await self.core.services_ready.wait()

    def _stream_manager(self) -> AiStreamManager | None:
        return self.core.stream_manager if self.core.stream_services_composed else None

    def _agent_runtime(self) -> AgentSessionRuntimeService | None:
        return self.core.agent_runtime if self.core.stream_services_composed else None

    def _manager(self) -> AiStreamManager:
        manager = self._stream_manager()
        if manager is None:
            raise BridgeUnavailableError("stream_manager")
        return manager

    async def _runtime(self) -> AgentSessionRuntimeService:
        await self.services()
        runtime = self._agent_runtime()
        if runtime is None:
            raise BridgeUnavailableError("agent_runtime")
        return runtime
