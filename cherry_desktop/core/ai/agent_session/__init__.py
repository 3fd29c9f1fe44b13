"""The agent-session runtime host (`AgentSessionRuntimeService`) and its context provider."""

from cherry_desktop.core.ai.agent_session.context_provider import AgentChatContextProvider
from cherry_desktop.core.ai.agent_session.errors import (
    AgentSessionError,
    AgentSessionValidationError,
    RuntimeMetadataMissingError,
    SessionBusyError,
    UnknownRuntimeTurnError,
)
from cherry_desktop.core.ai.agent_session.host import HostSettings
from cherry_desktop.core.ai.agent_session.persistence import BeginTurnResult
from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService
from cherry_desktop.core.ai.agent_session.sessions_admin import agent_session_runtime_key
from cherry_desktop.core.ai.agent_session.tasks import DrainResult
from cherry_desktop.core.ai.agent_session.validation import resolve_session_context

__all__ = [
    "AgentChatContextProvider",
    "AgentSessionError",
    "AgentSessionRuntimeService",
    "AgentSessionValidationError",
    "BeginTurnResult",
    "DrainResult",
    "HostSettings",
    "RuntimeMetadataMissingError",
    "SessionBusyError",
    "UnknownRuntimeTurnError",
    "agent_session_runtime_key",
    "resolve_session_context",
]
