"""`SessionCheckpoints`: one session's checkpoint store, the only writer of it.

The store is a folder under the data dir: `git/` (the shadow repository over the session's
workspace) and `turns.json` (each turn's start and end checkpoints, named by the turn's user
message, with the assistant rows that belong to it). Its operations run one at a time, in the
order asked (one git index): a turn start waits only for its capture; the commit, a turn's end
and everything else runs behind it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from cherry_desktop.core.checkpoints.git import ShadowGit
from cherry_desktop.core.checkpoints.models import (
    CheckpointError,
    CheckpointFault,
    RewindPlan,
    RewindResult,
    Snapshot,
    TurnChanges,
    TurnRecord,
)
from cherry_desktop.core.checkpoints.snapshots import Snapshots, writable

log = logging.getLogger(__name__)
T = TypeVar("T")
START_WAIT_S = 15.0


def _log_unexpected(task: asyncio.Future[Any]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None and not isinstance(exc, CheckpointError):
        log.error("checkpoint operation failed", exc_info=exc)


class SessionCheckpoints:
    """The checkpoints of one session over its workspace (see the module docstring)."""

    def __init__(self, root: Path, session_id: str, workspace: Path, **caps: int) -> None:
        self.root = root
        self.session_id = session_id
        self.workspace = workspace
        self.snapshots = Snapshots(ShadowGit(root / "git", workspace), **caps)
        self._turns_file = root / "turns.json"
        #: What the last rewind replaced (rewinding to it undoes that rewind); kept across restarts.
        self.undo_point: str | None = None
        self.turns: dict[str, TurnRecord] = self._load()
        self._tail: asyncio.Future[object] | None = None
        #: How long a turn start waits for its capture before it runs without a checkpoint.
        self.start_wait_s = START_WAIT_S

    # -- the serial queue ---------------------------------------------------------------------
    def _enqueue(self, op: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        previous = self._tail

        async def run() -> T:
            if previous is not None:
                await asyncio.wait([previous])
            return await op()

        task: asyncio.Future[T] = asyncio.ensure_future(run())
        # A caller that does not await (a turn's end, a prepare) has its failure logged here.
        task.add_done_callback(_log_unexpected)
        self._tail = task  # type: ignore[assignment]
        return task

    async def idle(self, timeout: float | None = None) -> bool:
        """Every operation asked so far has run (False: `timeout` passed first)."""
        if self._tail is None:
            return True
        done, _ = await asyncio.wait([self._tail], timeout=timeout)
        return bool(done)

    def cancel_pending(self) -> None:
        """Cancel the operation still queued or running (a stop that cannot wait longer); the
        store on disk stays as its last finished operation left it."""
        if self._tail is not None and not self._tail.done():
            self._tail.cancel()

    # -- turns --------------------------------------------------------------------------------
    def prepare(self) -> asyncio.Future[None]:
        """Take a first snapshot ahead of the first turn (a big workspace's first capture
        hashes every file; later ones only what changed)."""

        async def op() -> None:
            try:
                await self._snapshot_now("prepared")
            except CheckpointError as exc:
                log.info("session %s: workspace not prepared for checkpoints: %s", self.session_id, exc)

        return self._enqueue(op)

    async def turn_started(self, user_message_id: str, assistant_message_id: str = "") -> None:
        """Capture the workspace before the turn's first tool runs (returns once captured;
        the commit follows in the background). A failure is noted on the turn, never raised:
        the turn runs without a checkpoint. So does a turn whose capture takes longer than
        `start_wait_s` (queued behind a big folder's first snapshot): it is not held up, and
        the capture, which may then see the agent's first writes, is not its checkpoint."""
        captured = asyncio.get_running_loop().create_future()
        record = self.turns.setdefault(user_message_id, TurnRecord(user_message_id, started_at=time.time()))
        if assistant_message_id and assistant_message_id not in record.assistant_message_ids:
            record.assistant_message_ids.append(assistant_message_id)
        abandoned: list[bool] = []

        async def op() -> None:
            try:
                if abandoned:
                    return
                await self.snapshots.git.init()
                await self.snapshots.capture()
            except CheckpointError as exc:
                log.warning("session %s: no checkpoint for turn %s: %s", self.session_id, user_message_id, exc)
                record.notice, record.notice_detail = exc.fault.value, exc.detail
                self._save()
                return
            finally:
                if not captured.done():
                    captured.set_result(None)
            snap = await self._commit_noting(record, f"turn start {user_message_id}")
            if snap is not None and not abandoned:
                record.start = snap.commit
                record.skipped = list(snap.skipped)
            self._save()

        task = self._enqueue(op)
        done, _ = await asyncio.wait([captured, task], timeout=self.start_wait_s,
                                     return_when=asyncio.FIRST_COMPLETED)
        if not done:
            abandoned.append(True)
            log.warning("session %s: turn %s started without its checkpoint (over %.0f s)", self.session_id,
                        user_message_id, self.start_wait_s)
            record.notice, record.notice_detail = CheckpointFault.TIMEOUT.value, f"{self.start_wait_s:.0f} s"
            self._save()

    def turn_ended(self, user_message_id: str, assistant_message_ids: list[str]) -> asyncio.Future[None]:
        """Checkpoint the workspace at the turn's end (in the background)."""

        async def op() -> None:
            record = self.turns.get(user_message_id)
            if record is None or record.start is None:
                return
            record.assistant_message_ids = list(dict.fromkeys([*record.assistant_message_ids,
                                                                *assistant_message_ids]))
            try:
                await self.snapshots.capture()
            except CheckpointError as exc:
                log.warning("session %s: turn %s end not checkpointed: %s", self.session_id, user_message_id, exc)
                self._save()
                return
            snap = await self._commit_noting(record, f"turn end {user_message_id}")
            if snap is not None:
                record.end = snap.commit
                record.skipped = sorted(set(record.skipped) | set(snap.skipped))
            self._save()

        return self._enqueue(op)

    async def _commit_noting(self, record: TurnRecord, message: str) -> Snapshot | None:
        try:
            return await self.snapshots.commit(message)
        except CheckpointError as exc:
            log.warning("session %s: checkpoint not written: %s", self.session_id, exc)
            record.notice, record.notice_detail = exc.fault.value, exc.detail
            return None

    def skip_notice(self) -> CheckpointError | None:
        """Why the latest turn has no checkpoint (None: it has one, or there is no turn)."""
        latest = max(self.turns.values(), key=lambda t: t.started_at, default=None)
        if latest is None or latest.start is not None or not latest.notice:
            return None
        try:
            return CheckpointError(CheckpointFault(latest.notice), latest.notice_detail)
        except ValueError:
            return None

    def turn_of(self, message_id: str) -> TurnRecord | None:
        """The turn of a user message or of one of its assistant rows."""
        record = self.turns.get(message_id)
        if record is not None:
            return record
        return next((t for t in self.turns.values() if message_id in t.assistant_message_ids), None)

    # -- review -------------------------------------------------------------------------------
    def changes(self, message_id: str, *, running: bool = False) -> asyncio.Future[TurnChanges]:
        """What the turn of `message_id` changed: start to end, or to the workspace now while it
        has no end (running, or cut short by a crash)."""

        async def op() -> TurnChanges:
            record = self._checkpointed(message_id)
            assert record.start is not None
            end = record.end
            if end is None:
                end = await self._snapshot_now("review")
            await self._check_exists(record.start)
            files = await self.snapshots.changes(record.start, end)
            return TurnChanges(record.user_message_id, files, running=record.end is None and running,
                               skipped=tuple(record.skipped))

        return self._enqueue(op)

    def file_diff(self, message_id: str, path: str) -> asyncio.Future[list[str]]:
        async def op() -> list[str]:
            record = self._checkpointed(message_id)
            assert record.start is not None
            end = record.end or await self._snapshot_now("review")
            return await self.snapshots.file_diff(record.start, end, path)

        return self._enqueue(op)

    def session_changes(self) -> asyncio.Future[TurnChanges]:
        """The running total: from the first turn's start to the workspace now."""

        async def op() -> TurnChanges:
            starts = sorted((t for t in self.turns.values() if t.start), key=lambda t: t.started_at)
            if not starts or not self.workspace.is_dir():
                return TurnChanges("", ())
            first = starts[0]
            assert first.start is not None
            now = await self._snapshot_now("review")
            return TurnChanges(first.user_message_id, await self.snapshots.changes(first.start, now))

        return self._enqueue(op)

    # -- rewind -------------------------------------------------------------------------------
    def plan_rewind(self, user_message_id: str) -> asyncio.Future[RewindPlan]:
        """What restoring the workspace to before `user_message_id` will change (nothing changed yet)."""

        async def op() -> RewindPlan:
            return await self._plan(user_message_id)

        return self._enqueue(op)

    async def _plan(self, user_message_id: str) -> RewindPlan:
        record = self.turns.get(user_message_id)
        if record is None or record.start is None:
            raise CheckpointError(CheckpointFault.NO_CHECKPOINT, user_message_id)
        self._require_workspace()
        await self._check_exists(record.start)
        current = await self._snapshot_now(f"before rewind to {user_message_id}")
        files = await self.snapshots.changes(record.start, current)
        by_user = await self._edited_by_user(record, current)
        paths = {f.path for f in files}
        too_large = set(self.snapshots.skipped())
        return RewindPlan(self.session_id, user_message_id, record.start, current, files,
                          edited_by_user=tuple(sorted(paths & by_user)),
                          not_in_undo=tuple(sorted(paths & too_large)))

    async def _edited_by_user(self, target: TurnRecord, current: str) -> set[str]:
        """Files changed outside agent turns since `target` started: between a turn's end and
        the next turn's start, and since the last turn's end."""
        later = sorted((t for t in self.turns.values() if t.start and t.started_at >= target.started_at),
                       key=lambda t: t.started_at)
        edited: set[str] = set()
        for turn, nxt in zip(later, [*later[1:], None], strict=True):
            if turn.end is None:
                continue
            following = nxt.start if nxt is not None else current
            if following is not None:
                edited |= await self.snapshots.changed_paths(turn.end, following)
        return edited

    def rewind(self, plan: RewindPlan) -> asyncio.Future[RewindResult]:
        """Restore the workspace to `plan.target`, after checking that nothing changed since
        the plan was shown (else `STALE_PLAN`: the user confirms a new one). A file that cannot
        be written puts the workspace back as it was (`RESTORE_FAILED`)."""

        async def op() -> RewindResult:
            self._require_workspace()
            if not writable(self.workspace):
                raise CheckpointError(CheckpointFault.READ_ONLY, str(self.workspace))
            now = await self._snapshot_now(f"rewind to {plan.user_message_id}")
            if now != plan.current:
                raise CheckpointError(CheckpointFault.STALE_PLAN)
            try:
                await self.snapshots.restore(plan.current, plan.target)
            except CheckpointError as exc:
                if exc.fault is not CheckpointFault.RESTORE_FAILED:  # refused before any change otherwise
                    await self._put_back(plan.current)
                raise CheckpointError(CheckpointFault.RESTORE_FAILED, exc.detail) from exc
            # The index now holds the target: the next capture starts from it.
            self.undo_point = plan.current
            self._save()
            return RewindResult(plan, undo_checkpoint=plan.current)

        return self._enqueue(op)

    def undo_rewind(self) -> asyncio.Future[bool]:
        """Put back what the last rewind replaced (False: there is none); itself checkpointed first."""

        async def op() -> bool:
            undo = self.undo_point
            if undo is None:
                return False
            self._require_workspace()
            await self._check_exists(undo)
            now = await self._snapshot_now("before undoing a rewind")
            try:
                await self.snapshots.restore(now, undo)
            except CheckpointError as exc:
                if exc.fault is not CheckpointFault.RESTORE_FAILED:
                    await self._put_back(now)
                raise CheckpointError(CheckpointFault.RESTORE_FAILED, exc.detail) from exc
            self.undo_point = None
            self._save()
            return True

        return self._enqueue(op)

    async def _put_back(self, commit: str) -> None:
        """After a restore failed part-way: the workspace back to `commit`."""
        try:
            await self.snapshots.git.run("read-tree", "-u", "--reset", commit)
        except CheckpointError:
            log.exception("session %s: the workspace could not be put back after a failed rewind", self.session_id)

    async def _snapshot_now(self, message: str) -> str:
        await self.snapshots.git.init()
        await self.snapshots.capture()
        return (await self.snapshots.commit(message)).commit

    def _checkpointed(self, message_id: str) -> TurnRecord:
        record = self.turn_of(message_id)
        if record is None or record.start is None:
            raise CheckpointError(CheckpointFault.NO_CHECKPOINT,
                                  record.notice if record is not None else message_id)
        return record

    def _require_workspace(self) -> None:
        if not self.workspace.is_dir():
            raise CheckpointError(CheckpointFault.NO_WORKSPACE, str(self.workspace))

    async def _check_exists(self, commit: str) -> None:
        if not await self.snapshots.git.exists(commit):
            raise CheckpointError(CheckpointFault.CHECKPOINT_PRUNED, commit)

    # -- persistence --------------------------------------------------------------------------
    def _load(self) -> dict[str, TurnRecord]:
        try:
            data = json.loads(self._turns_file.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):
            log.exception("session %s: unreadable %s; its turns have no checkpoints", self.session_id,
                          self._turns_file)
            return {}
        if data.get("workspace") != str(self.workspace):
            return {}  # another workspace: the old turns' checkpoints do not apply to it
        undo = data.get("undo_point")
        self.undo_point = str(undo) if undo else None
        return {t["user_message_id"]: TurnRecord.from_json(t) for t in data.get("turns", [])
                if isinstance(t, dict) and t.get("user_message_id")}

    def _save(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        data = {"workspace": str(self.workspace), "undo_point": self.undo_point,
                "turns": [t.as_json() for t in self.turns.values()]}
        tmp = self._turns_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), "utf-8")
        tmp.replace(self._turns_file)

    async def remove(self) -> None:
        """Delete the store (the session is gone)."""
        await self.idle()
        await asyncio.to_thread(shutil.rmtree, self.root, True)
