"""`CheckpointService`: per-turn checkpoints of agent sessions, taken by Cherry for every
runtime alike (Claude Code, pi, ACP): the runtime host calls `turn_started` before a turn's
first message goes to the runtime and `turn_ended` when the turn is over, so whatever tool made
a change (an edit, a shell command, an MCP tool) is in the turn's checkpoints.

Stores live under `feature.checkpoints`, one folder per session (`SessionCheckpoints`); they
survive a restart and go with their session (`session_deleted`, and a sweep at start for what
a crash left behind).
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from collections.abc import Callable
from pathlib import Path

from cherry_desktop.core.checkpoints.models import (
    CheckpointError,
    CheckpointFault,
    RewindPlan,
    RewindResult,
    TurnChanges,
)
from cherry_desktop.core.checkpoints.store import SessionCheckpoints
from cherry_desktop.core.lifecycle.container import Application, Service

log = logging.getLogger(__name__)

#: session id -> its workspace now (None: the session or its workspace is gone).
WorkspaceOf = Callable[[str], Path | None]
STOP_WAIT_S = 10.0


class CheckpointService(Service):
    """The checkpoint stores of every session (see the module docstring)."""

    name = "checkpoints"
    depends_on = ("database",)

    def __init__(self, root: Path, *, workspace_of: WorkspaceOf, session_exists: Callable[[str], bool],
                 **caps: int) -> None:
        self.root = root
        self.workspace_of = workspace_of
        self.session_exists = session_exists
        self.caps = caps
        self.stores: dict[str, SessionCheckpoints] = {}
        #: Whether the session runs a turn now (set by the composition: the runtime host).
        self.is_busy: Callable[[str], bool] = lambda _session_id: False
        self.stopped = False
        #: How long a stop waits, in all, for the stores' queued operations.
        self.stop_wait_s = STOP_WAIT_S

    async def on_init(self, app: Application) -> None:
        await asyncio.to_thread(self.sweep)

    async def on_stop(self) -> None:
        """Let the queued operations finish, for at most `stop_wait_s` in all; what is still
        running then is logged and cancelled, so a stuck git never holds the app's exit."""
        self.stopped = True
        deadline = asyncio.get_running_loop().time() + self.stop_wait_s
        for store in list(self.stores.values()):
            left = max(0.0, deadline - asyncio.get_running_loop().time())
            if not await store.idle(timeout=left):
                log.warning("session %s: checkpoint work still running at stop (over %.0f s): cancelled",
                            store.session_id, self.stop_wait_s)
                store.cancel_pending()

    def sweep(self) -> int:
        """Remove the stores of sessions that no longer exist; how many went."""
        if not self.root.is_dir():
            return 0
        removed = 0
        for folder in self.root.iterdir():
            if folder.is_dir() and not self.session_exists(folder.name):
                shutil.rmtree(folder, ignore_errors=True)
                removed += 1
        return removed

    # -- the store of a session ----------------------------------------------------------------
    def store(self, session_id: str, workspace: Path | None = None) -> SessionCheckpoints:
        """The session's store over `workspace` (default: the session's workspace now)."""
        path = workspace if workspace is not None else self.workspace_of(session_id)
        if path is None:
            raise CheckpointError(CheckpointFault.NO_WORKSPACE, session_id)
        path = path.resolve()
        store = self.stores.get(session_id)
        if store is None or store.workspace != path:
            store = self.stores[session_id] = SessionCheckpoints(self.root / session_id, session_id, path,
                                                                 **self.caps)
        return store

    # -- the runtime host's calls (`TurnCheckpoints`) -------------------------------------------
    async def turn_started(self, session_id: str, workspace: Path, user_message_id: str,
                           assistant_message_id: str) -> None:
        try:
            await self.store(session_id, workspace).turn_started(user_message_id, assistant_message_id)
        except Exception:
            # A checkpoint never stops a turn.
            log.exception("session %s: checkpoint at turn start failed", session_id)

    def turn_ended(self, session_id: str, user_message_id: str, assistant_message_ids: list[str]) -> None:
        store = self.stores.get(session_id)
        if store is not None:
            store.turn_ended(user_message_id, assistant_message_ids)

    async def session_deleted(self, session_id: str) -> None:
        store = self.stores.pop(session_id, None)
        if store is not None:
            await store.remove()
        else:
            await asyncio.to_thread(shutil.rmtree, self.root / session_id, True)

    # -- review and rewind (the UI's calls) ----------------------------------------------------
    def prepare(self, session_id: str) -> None:
        """The session is on screen: snapshot its workspace in the background, so its next
        turn start only captures what changed since."""
        if self.stopped:
            return
        try:
            self.store(session_id).prepare()
        except CheckpointError:
            pass

    def has_checkpoint(self, session_id: str, message_id: str) -> bool:
        try:
            record = self.store(session_id).turn_of(message_id)
        except CheckpointError:
            return False
        return record is not None and record.start is not None

    async def turn_changes(self, session_id: str, message_id: str) -> TurnChanges:
        """The files the turn of `message_id` (its user message or an assistant row) changed."""
        return await self.store(session_id).changes(message_id, running=self.is_busy(session_id))

    async def file_diff(self, session_id: str, message_id: str, path: str) -> list[str]:
        return await self.store(session_id).file_diff(message_id, path)

    async def session_changes(self, session_id: str) -> TurnChanges:
        return await self.store(session_id).session_changes()

    async def plan_rewind(self, session_id: str, user_message_id: str) -> RewindPlan:
        self._refuse_if_busy(session_id)
        return await self.store(session_id).plan_rewind(user_message_id)

    async def rewind(self, plan: RewindPlan) -> RewindResult:
        """Carry out a plan the user confirmed (refused while a turn runs)."""
        self._refuse_if_busy(plan.session_id)
        return await self.store(plan.session_id).rewind(plan)

    async def undo_rewind(self, session_id: str) -> bool:
        """Put back what the session's last rewind replaced (after a restart too); False when
        there is none."""
        self._refuse_if_busy(session_id)
        return await self.store(session_id).undo_rewind()

    def skip_notice(self, session_id: str) -> CheckpointError | None:
        """Why the session's latest turn has no checkpoint (too many files, no git, ...)."""
        try:
            return self.store(session_id).skip_notice()
        except CheckpointError as exc:
            return exc

    def can_undo_rewind(self, session_id: str) -> bool:
        try:
            return self.store(session_id).undo_point is not None
        except CheckpointError:
            return False

    def _refuse_if_busy(self, session_id: str) -> None:
        if self.is_busy(session_id):
            raise CheckpointError(CheckpointFault.TURN_RUNNING, session_id)
