"""Per-turn checkpoints of agent sessions: what a turn changed, and rewinding it
(`CheckpointService`; the store per session is `SessionCheckpoints`)."""

from cherry_desktop.core.checkpoints.models import (
    CheckpointError,
    CheckpointFault,
    FileChange,
    RewindPlan,
    RewindResult,
    TurnChanges,
)
from cherry_desktop.core.checkpoints.service import CheckpointService
from cherry_desktop.core.checkpoints.store import SessionCheckpoints

__all__ = [
    "CheckpointError",
    "CheckpointFault",
    "CheckpointService",
    "FileChange",
    "RewindPlan",
    "RewindResult",
    "SessionCheckpoints",
    "TurnChanges",
]
