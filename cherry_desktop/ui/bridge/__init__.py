"""The doors from widgets into core: typed bridges per concern (the spec's IPC request
channels, `Bridges`), the Qt-side stream listener (its push channels) and the shared-cache
mirror (`QtSharedCache`, how windows follow each other's state).

The only ui package that imports `cherry_desktop.core.ai` and `cherry_desktop.core.data`
(an import-linter contract); every other ui package reaches core through the names below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cherry_desktop.core.checkpoints import CheckpointError, CheckpointFault
from cherry_desktop.core.data.sibling_groups import SiblingChoiceError
from cherry_desktop.core.mcp import (
    McpConfigError,
    McpConnectError,
    McpSecrets,
    McpServerConfig,
    McpToolSpec,
    McpTransport,
    ServerState,
    ServerStatus,
    ToolPolicy,
)
from cherry_desktop.core.skills import Skill, SkillError
from cherry_desktop.ui.bridge._attachments import (
    AttachmentCandidate,
    AttachmentError,
    AttachmentsBridge,
    candidate_from_bytes,
    candidate_from_path,
    is_image_type,
)
from cherry_desktop.ui.bridge._backup import (
    BackupBridge,
    BackupError,
    BackupFault,
    BackupProgress,
    BackupResult,
    PromoteResult,
    StagedRestore,
    is_backup_request,
)
from cherry_desktop.ui.bridge._base import BridgeUnavailableError
from cherry_desktop.ui.bridge._bridges import Bridges
from cherry_desktop.ui.bridge._cache_keys import (
    session_always_allowed_key,
    topic_continuation_key,
    topic_extra_models_key,
    topic_model_key,
)
from cherry_desktop.ui.bridge._cache_mirror import QtSharedCache
from cherry_desktop.ui.bridge._chats import ChatsBridge
from cherry_desktop.ui.bridge._checkpoints import CheckpointsBridge
from cherry_desktop.ui.bridge._gateway import GatewayBridge
from cherry_desktop.ui.bridge._listener import FRAME_MS, PHASES, QtStreamListener, StreamChunk, next_frame_delay_ms
from cherry_desktop.ui.bridge._mcp import McpBridge, parse_pairs
from cherry_desktop.ui.bridge._multi_model import MultiModelBridge
from cherry_desktop.ui.bridge._providers import ProviderCheckFailedError, ProvidersBridge
from cherry_desktop.ui.bridge._search import SearchBridge, SearchEntry
from cherry_desktop.ui.bridge._sessions import SessionsBridge
from cherry_desktop.ui.bridge._settings import SettingsBridge
from cherry_desktop.ui.bridge._skills import SkillsBridge
from cherry_desktop.ui.bridge._streams import StreamsBridge, TranslationRefusedError
from cherry_desktop.ui.bridge._tool_view import is_todo_list, tool_view
from cherry_desktop.ui.bridge._topic_status import TopicStatusView
from cherry_desktop.ui.bridge._types import (
    AgentDeletion,
    ChatIssue,
    ChatModelChoice,
    ProviderRecord,
    QueuedFollowUp,
    SidebarAgent,
    SidebarSession,
    SidebarTopic,
    UsageSums,
)
from cherry_desktop.ui.bridge._usage_rows import with_usage

if TYPE_CHECKING:
    # Core's types a widget annotates with, named here for type checking only: their modules
    # load with the stream services, after the first paint (re-exported, `as` themselves).
    from cherry_desktop.core.ai.providers.check import ConnectionResult as ConnectionResult
    from cherry_desktop.core.ai.providers.check import RemoteModel as RemoteModel
    from cherry_desktop.core.ai.runtime.capabilities import AgentRuntimeCapabilities as AgentRuntimeCapabilities
    from cherry_desktop.core.ai.runtime.capabilities import RuntimeVariant as RuntimeVariant
    from cherry_desktop.core.ai.stream.types import DispatchResult as DispatchResult
    from cherry_desktop.core.ai.stream.types import StreamTerminalResult as StreamTerminalResult
    from cherry_desktop.core.checkpoints import FileChange as FileChange
    from cherry_desktop.core.checkpoints import RewindPlan as RewindPlan
    from cherry_desktop.core.checkpoints import TurnChanges as TurnChanges
    from cherry_desktop.core.data import StoredMessage as StoredMessage
    from cherry_desktop.core.data.sibling_groups import SiblingGroup as SiblingGroup

__all__ = [
    "FRAME_MS",
    "PHASES",
    "AgentDeletion",
    "AttachmentCandidate",
    "AttachmentError",
    "AttachmentsBridge",
    "BackupBridge",
    "BackupError",
    "BackupFault",
    "BackupProgress",
    "BackupResult",
    "BridgeUnavailableError",
    "Bridges",
    "ChatIssue",
    "ChatModelChoice",
    "ChatsBridge",
    "CheckpointError",
    "CheckpointFault",
    "CheckpointsBridge",
    "GatewayBridge",
    "McpBridge",
    "McpConfigError",
    "McpConnectError",
    "McpSecrets",
    "McpServerConfig",
    "McpToolSpec",
    "McpTransport",
    "MultiModelBridge",
    "PromoteResult",
    "ProviderCheckFailedError",
    "ProviderRecord",
    "ProvidersBridge",
    "QtSharedCache",
    "QtStreamListener",
    "QueuedFollowUp",
    "SearchBridge",
    "SearchEntry",
    "ServerState",
    "ServerStatus",
    "SessionsBridge",
    "SettingsBridge",
    "SiblingChoiceError",
    "SidebarAgent",
    "SidebarSession",
    "SidebarTopic",
    "Skill",
    "SkillError",
    "SkillsBridge",
    "StagedRestore",
    "StreamChunk",
    "StreamsBridge",
    "ToolPolicy",
    "TopicStatusView",
    "TranslationRefusedError",
    "UsageSums",
    "candidate_from_bytes",
    "candidate_from_path",
    "is_backup_request",
    "is_image_type",
    "is_todo_list",
    "next_frame_delay_ms",
    "parse_pairs",
    "session_always_allowed_key",
    "tool_view",
    "topic_continuation_key",
    "topic_extra_models_key",
    "topic_model_key",
    "with_usage",
]
