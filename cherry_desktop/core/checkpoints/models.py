"""What the checkpoint store hands out: a turn's changes, a rewind's plan and result, and the
typed faults the UI turns into words."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

ChangeKind = Literal["added", "modified", "deleted"]


class CheckpointFault(enum.Enum):
    NO_GIT = "no-git"                          # no `git` on PATH
    GIT_FAILED = "git-failed"                  # git refused (detail: its message)
    TIMEOUT = "timeout"
    NO_WORKSPACE = "no-workspace"              # the workspace folder is gone
    READ_ONLY = "read-only"                    # the workspace cannot be written
    TOO_MANY_FILES = "too-many-files"          # over the file cap: no checkpoints for it
    NO_CHECKPOINT = "no-checkpoint"            # the turn has none (before checkpoints, skipped)
    CHECKPOINT_PRUNED = "checkpoint-pruned"    # its commit is no longer in the store
    TURN_RUNNING = "turn-running"              # rewind refused while the session runs a turn
    STALE_PLAN = "stale-plan"                  # files changed after the plan was shown
    RESTORE_FAILED = "restore-failed"          # a file could not be written; the workspace was put back
    NOT_A_GIT_REPO = "not-a-git-repo"          # a worktree asked for a workspace outside git
    WORKTREE_FAILED = "worktree-failed"


class CheckpointError(Exception):
    """A checkpoint operation that could not be done; the workspace is as it was."""

    def __init__(self, fault: CheckpointFault, detail: str = "") -> None:
        super().__init__(f"{fault.value}: {detail}" if detail else fault.value)
        self.fault = fault
        self.detail = detail


@dataclass(frozen=True)
class FileChange:
    path: str             # relative to the workspace, '/'-separated
    kind: ChangeKind
    binary: bool = False
    added_lines: int = 0
    removed_lines: int = 0


@dataclass(frozen=True)
class Snapshot:
    """One saved state of the workspace: a commit of the store, with what it left out."""

    commit: str
    skipped: tuple[str, ...] = ()   # files over the size cap (not in the checkpoint)


@dataclass
class TurnRecord:
    """A turn's checkpoints (its user message names it; its assistant rows point to it)."""

    user_message_id: str
    start: str | None = None
    end: str | None = None
    assistant_message_ids: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notice: str = ""      # why the turn has no checkpoint (a `CheckpointFault` value)
    started_at: float = 0.0
    notice_detail: str = ""

    def as_json(self) -> dict[str, object]:
        return {"user_message_id": self.user_message_id, "start": self.start, "end": self.end,
                "assistant_message_ids": self.assistant_message_ids, "skipped": self.skipped,
                "notice": self.notice, "notice_detail": self.notice_detail, "started_at": self.started_at}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TurnRecord:
        def strs(key: str) -> list[str]:
            value = data.get(key)
            return [str(v) for v in value] if isinstance(value, list) else []

        def opt(key: str) -> str | None:
            value = data.get(key)
            return str(value) if value else None

        started = data.get("started_at")
        return cls(user_message_id=str(data["user_message_id"]), start=opt("start"), end=opt("end"),
                   assistant_message_ids=strs("assistant_message_ids"), skipped=strs("skipped"),
                   notice=str(data.get("notice") or ""), notice_detail=str(data.get("notice_detail") or ""),
                   started_at=float(started) if isinstance(started, int | float) else 0.0)


@dataclass(frozen=True)
class TurnChanges:
    """What one turn added, modified or deleted (checkpoint to checkpoint)."""

    user_message_id: str
    files: tuple[FileChange, ...]
    running: bool = False          # the turn has not ended: compared with the workspace now
    skipped: tuple[str, ...] = ()  # files too large to checkpoint


@dataclass(frozen=True)
class RewindPlan:
    """What a rewind to before `user_message_id` will change: shown to the user first."""

    session_id: str
    user_message_id: str
    target: str                          # the turn's start checkpoint
    current: str                         # the workspace as the plan saw it (the undo point)
    files: tuple[FileChange, ...]        # from now back to the target
    edited_by_user: tuple[str, ...]      # of those, changed outside any agent turn since then
    not_in_undo: tuple[str, ...] = ()    # files the rewind overwrites that are too large to keep


@dataclass(frozen=True)
class RewindResult:
    plan: RewindPlan
    undo_checkpoint: str                 # rewinding to it undoes the rewind
