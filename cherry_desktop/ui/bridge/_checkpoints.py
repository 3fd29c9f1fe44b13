"""Per-turn checkpoints of agent sessions: a turn's changed files and their diffs, the
session's running total, and rewinding the workspace to before a message (a plan shown
first, then the rewind the user confirmed, and its undo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal

from cherry_desktop.core.state.topics import session_id_from_topic
from cherry_desktop.ui.bridge._base import BridgeUnavailableError, CoreBridge

if TYPE_CHECKING:
    from cherry_desktop.core.checkpoints import CheckpointService, RewindPlan, RewindResult, TurnChanges


class CheckpointsBridge(CoreBridge):
    """The checkpoint service for the windows.

    Signals:
        rewound(str): the workspace of this session id was restored (or a restore undone).
    """

    rewound = Signal(str)

    def _service(self) -> CheckpointService | None:
        return self.core.checkpoints if self.core.stream_services_composed else None

    async def _checkpoints(self) -> CheckpointService:
        await self.services()
        service = self._service()
        if service is None:
            raise BridgeUnavailableError("checkpoints")
        return service

    @staticmethod
    def _session(topic_id: str) -> str:
        session_id = session_id_from_topic(topic_id)
        if session_id is None:
            raise ValueError(f"{topic_id} is not an agent session")
        return session_id

    def has_checkpoint(self, topic_id: str, message_id: str) -> bool:
        """Whether the turn of this row (its user message or an answer) has a checkpoint."""
        session_id = session_id_from_topic(topic_id)
        service = self._service()
        return session_id is not None and service is not None and service.has_checkpoint(session_id, message_id)

    def prepare(self, topic_id: str) -> None:
        """The session is on screen: its workspace is snapshotted ahead of its next turn."""
        session_id = session_id_from_topic(topic_id)
        service = self._service()
        if session_id is not None and service is not None:
            service.prepare(session_id)

    async def turn_changes(self, topic_id: str, message_id: str) -> TurnChanges:
        return await (await self._checkpoints()).turn_changes(self._session(topic_id), message_id)

    async def session_changes(self, topic_id: str) -> TurnChanges:
        return await (await self._checkpoints()).session_changes(self._session(topic_id))

    async def file_diff(self, topic_id: str, message_id: str, path: str) -> list[str]:
        return await (await self._checkpoints()).file_diff(self._session(topic_id), message_id, path)

    async def plan_rewind(self, topic_id: str, user_message_id: str) -> RewindPlan:
        return await (await self._checkpoints()).plan_rewind(self._session(topic_id), user_message_id)

    async def rewind(self, plan: RewindPlan) -> RewindResult:
        result = await (await self._checkpoints()).rewind(plan)
        self.rewound.emit(plan.session_id)
        return result

    async def undo_rewind(self, topic_id: str) -> bool:
        session_id = self._session(topic_id)
        undone = await (await self._checkpoints()).undo_rewind(session_id)
        if undone:
            self.rewound.emit(session_id)
        return undone

    def can_undo_rewind(self, topic_id: str) -> bool:
        session_id = session_id_from_topic(topic_id)
        service = self._service()
        return session_id is not None and service is not None and session_id in service.last_rewind
