"""Plain records the repositories return (no peewee objects leak out of the data layer)."""

from __future__ import annotations

from dataclasses import dataclass, field

# `Any`: the JSON cells records carry as stored (provider settings, agent config, message stats and
# metadata): dicts whose values each reader narrows; the UI and the stream read them by key.
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    # Loaded at the first message read: a window paints before any (startup).
    from cherry_desktop.core.messages import MessagePart, UIMessage
    from cherry_desktop.core.messages.ui_message import Role

MessageStatus = Literal["pending", "success", "error", "paused"]


@dataclass
class ProviderRecord:
    id: str
    name: str
    type: str
    base_url: str
    enabled: bool
    settings: dict[str, Any]


@dataclass
class ModelRecord:
    unique_model_id: str
    provider_id: str
    model_id: str
    name: str


#: `AgentRecord.config` key of an agent restored from a backup: it runs no turn until the user
#: allows it (`AgentRepository.allow_restored`), since an archive from elsewhere is not trusted.
RESTORE_UNCONFIRMED = "restore_unconfirmed"


@dataclass
class AgentRecord:
    id: str
    type: str
    name: str
    description: str
    instructions: str
    built_in_id: str | None
    model: str | None
    permission_mode: str
    disabled_tools: list[str]
    config: dict[str, Any]
    created_at: int
    updated_at: int
    load_error: str | None = None


@dataclass
class WorkspaceRecord:
    id: str
    agent_id: str | None
    name: str
    path: str
    kind: str


@dataclass
class AgentSessionRecord:
    id: str
    agent_id: str | None
    workspace_id: str | None
    name: str
    model: str | None
    created_at: int
    updated_at: int
    # Tools the user allowed without asking for the rest of this session (its settings).
    always_allowed_tools: tuple[str, ...] = ()
    # The session's own git worktree, when it runs on a branch of its own (its settings).
    worktree: SessionWorktree | None = None


@dataclass(frozen=True)
class SessionWorktree:
    """A session's git worktree: `path` (where the agent works), on `branch`, of the repository
    at `repo` (the session's workspace), branched from commit `base`."""

    path: str
    branch: str
    repo: str
    base: str = ""

    def as_json(self) -> dict[str, str]:
        return {"path": self.path, "branch": self.branch, "repo": self.repo, "base": self.base}


@dataclass
class StoredMessage:
    """A message row of either table: agent-session messages or chat-topic messages.

    `load_error` is set when a JSON cell of the row was unreadable; the row is still listed.
    """

    id: str
    owner_id: str  # session_id or topic_id
    role: str
    parts: list[MessagePart]
    status: MessageStatus
    model_id: str | None
    created_at: int
    updated_at: int
    ordering: int
    stats: dict[str, Any] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    runtime_resume_token: str | None = None
    parent_id: str | None = None
    siblings_group_id: int | None = None
    load_error: str | None = None

    def to_ui_message(self) -> UIMessage:
        from cherry_desktop.core.messages import UIMessage

        role: Role = "assistant"
        if self.role in ("user", "system"):
            role = "user" if self.role == "user" else "system"
        return UIMessage.model_construct(id=self.id, role=role, parts=list(self.parts),
                                         metadata=dict(self.metadata))


@dataclass
class TopicRecord:
    id: str
    name: str
    model: str | None
    active_node_id: str | None
    created_at: int
    updated_at: int


@dataclass
class PendingTurnRecord:
    id: str
    session_id: str
    user_message_id: str
    text: str
    is_steer: bool
    ordering: int
