"""Data layer: peewee on SQLite (WAL), migrations, and repositories returning plain records."""

from cherry_desktop.core.data.agent_repository import AgentRepository, AgentSessionRepository, NotFoundError
from cherry_desktop.core.data.chat_repository import (
    MessageRepository,
    ProviderRepository,
    TopicRepository,
    UsageRepository,
    split_unique_model_id,
    unique_model_id,
)
from cherry_desktop.core.data.database import (
    SCHEMA_VERSION,
    SchemaTooNewError,
    journal_mode,
    migrate,
    open_database,
    schema_version,
    table_names,
)
from cherry_desktop.core.data.records import (
    RESTORE_UNCONFIRMED,
    AgentRecord,
    AgentSessionRecord,
    MessageStatus,
    ModelRecord,
    PendingTurnRecord,
    ProviderRecord,
    SessionWorktree,
    StoredMessage,
    TopicRecord,
    WorkspaceRecord,
)
from cherry_desktop.core.data.service import DatabaseService, Repositories
from cherry_desktop.core.data.session_message_repository import AgentSessionMessageRepository, PendingTurnRepository

__all__ = [
    "RESTORE_UNCONFIRMED",
    "SCHEMA_VERSION",
    "AgentRecord",
    "AgentRepository",
    "AgentSessionMessageRepository",
    "AgentSessionRecord",
    "AgentSessionRepository",
    "DatabaseService",
    "MessageRepository",
    "MessageStatus",
    "ModelRecord",
    "NotFoundError",
    "PendingTurnRecord",
    "PendingTurnRepository",
    "ProviderRecord",
    "ProviderRepository",
    "Repositories",
    "SchemaTooNewError",
    "SessionWorktree",
    "StoredMessage",
    "TopicRecord",
    "TopicRepository",
    "UsageRepository",
    "WorkspaceRecord",
    "journal_mode",
    "migrate",
    "open_database",
    "schema_version",
    "split_unique_model_id",
    "table_names",
    "unique_model_id",
]
