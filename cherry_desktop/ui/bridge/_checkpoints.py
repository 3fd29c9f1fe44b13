"""Per-turn checkpoints of agent sessions: a turn's changed files and their diffs, the
session's running total, and rewinding the workspace to before a message (a plan shown
first, then the rewind the user confirmed, and its undo); and a git worktree per session
(a new session on its own branch, what removing its worktree would lose, removing it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal

from cherry_desktop.core.checkpoints import CheckpointError, CheckpointFault
from cherry_desktop.core.state.topics import session_id_from_topic, session_topic_id
from cherry_desktop.ui.bridge._base import BridgeUnavailableError, CoreBridge

if TYPE_CHECKING:
    from cherry_desktop.core.checkpoints import CheckpointService, RewindPlan, RewindResult, TurnChanges
    from cherry_desktop.core.checkpoints.worktrees import WorktreeState
    from cherry_desktop.core.data import SessionWorktree


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

    async def fork_conversation(self, plan: RewindPlan, name: str) -> str:
        """After `plan`'s rewind: a new session holding the rows before its message (its runtime
        seeded with them); returns the new session's topic id."""
        from cherry_desktop.core.checkpoints.fork import fork_conversation

        fork = fork_conversation(self._repos, plan.session_id, plan.user_message_id, name)
        return session_topic_id(fork.id)

    async def undo_rewind(self, topic_id: str) -> bool:
        session_id = self._session(topic_id)
        undone = await (await self._checkpoints()).undo_rewind(session_id)
        if undone:
            self.rewound.emit(session_id)
        return undone

    def skip_notice(self, topic_id: str) -> CheckpointError | None:
        """Why the session's latest turn has no checkpoint (None: it has one)."""
        session_id = session_id_from_topic(topic_id)
        service = self._service()
        return service.skip_notice(session_id) if session_id is not None and service is not None else None

    def can_undo_rewind(self, topic_id: str) -> bool:
        session_id = session_id_from_topic(topic_id)
        service = self._service()
        return session_id is not None and service is not None and service.can_undo_rewind(session_id)

    # -- a worktree per session -------------------------------------------------------------------
    async def create_worktree_session(self, agent_id: str, name: str) -> str:
        """A new session of `agent_id` on its own branch, in its own git worktree of the agent's
        first workspace; returns its topic id (raises `CheckpointError` NOT_A_GIT_REPO etc.)."""
        from cherry_desktop.core.ai.agent_session.validation import resolve_workspace_path
        from cherry_desktop.core.checkpoints.worktrees import create_session_with_worktree

        agent = self._repos.agents.get_agent(agent_id)
        workspaces = self._repos.agents.list_workspaces(agent_id)
        if not workspaces:
            raise CheckpointError(CheckpointFault.NO_WORKSPACE, agent.name)
        try:
            path = resolve_workspace_path(workspaces[0], self.core.paths)
        except Exception as exc:
            raise CheckpointError(CheckpointFault.NO_WORKSPACE, workspaces[0].path) from exc
        session = await create_session_with_worktree(
            self._repos, self.core.paths.get("feature.worktrees"), agent_id=agent_id, workspace=workspaces[0],
            workspace_path=path, name=name, model=agent.model)
        return session_topic_id(session.id)

    def session_worktree(self, topic_id: str) -> SessionWorktree | None:
        session_id = session_id_from_topic(topic_id)
        session = self._repos.sessions.find_session(session_id) if session_id is not None else None
        return session.worktree if session is not None else None

    async def worktree_state(self, worktree: SessionWorktree) -> WorktreeState:
        from cherry_desktop.core.checkpoints.worktrees import inspect

        return await inspect(worktree)

    async def remove_worktree(self, worktree: SessionWorktree, *, force: bool) -> bool:
        """Remove the worktree (its branch too when that loses no commit); True: the branch went."""
        from cherry_desktop.core.checkpoints.worktrees import remove_worktree

        return await remove_worktree(worktree, force=force)
