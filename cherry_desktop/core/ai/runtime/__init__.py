"""Agent runtimes: the contract the agent-session host drives every runtime through, and the
drivers behind it (`adding-an-agent-runtime.md`).

The contract, imported here (light: no SDK, no child process):

- events a connection emits (`AgentRuntimeEvent` and its members), from `events`; the inputs it
  takes, and the `AgentRuntimeConnection` / `AgentSessionRuntimeDriver` protocols with their
  optional shapes (`PushesEvents`, `HoldsToolGrants`), from `types`;
- one descriptor per agent type (`AGENT_RUNTIME_CAPABILITIES`), from `capabilities`;
- the driver registry and `register_drivers`, from `register_drivers`;
- the runtime-neutral prompt materializer `build_agent_runtime_prompt`, from `prompt`;
- `EventOutlet`, the ordered event stream every connection hands its events through.

The drivers themselves (`ClaudeCodeRuntimeDriver`, `PiRuntimeDriver`) are imported on first
access only: the host registers them by name (`DRIVER_CLASSES`), and importing a driver must
not load what its runtime needs at connect time (`claude_agent_sdk`: ~0.7 s, ~40 MB).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cherry_desktop.core.ai.runtime.capabilities import (
    AGENT_RUNTIME_CAPABILITIES,
    AGENT_TYPES,
    CLAUDE_CODE_TRANSPORT,
    PI_TRANSPORT,
    AgentRuntimeCapabilities,
    AgentType,
    BuiltinToolDescriptor,
    CreateDefaults,
    get_capabilities,
)
from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet, EventSink
from cherry_desktop.core.ai.runtime.events import (
    CUT_SHORT_METADATA_KEY,
    HISTORY_RESET_METADATA_KEY,
    AgentRuntimeEvent,
    ChunkEvent,
    CompactionCompleteEvent,
    CompactionErrorEvent,
    CompactionStartEvent,
    ContextUsageEvent,
    CutShortReason,
    ErrorEvent,
    ResumeTokenEvent,
    SlashCommandsEvent,
    SteerBoundaryEvent,
    SteerUndeliveredEvent,
    ToolApprovalRequestEvent,
    TurnCompleteEvent,
    UsageEvent,
)
from cherry_desktop.core.ai.runtime.prompt import AgentRuntimePrompt, LinkedChannel, build_agent_runtime_prompt
from cherry_desktop.core.ai.runtime.register_drivers import (
    DRIVER_CLASSES,
    DriverNotRegisteredError,
    RuntimeDriverDeps,
    RuntimeDriverRegistry,
    register_drivers,
)
from cherry_desktop.core.ai.runtime.types import (
    DENIED_MESSAGE,
    DISABLED_MESSAGE,
    AgentRuntimeConnection,
    AgentSessionRuntimeDriver,
    ApprovalDecision,
    ContextUsage,
    HoldsToolGrants,
    PermissionMode,
    PushesEvents,
    ReconcileInput,
    ReconcileResult,
    RuntimeConnectInput,
    RuntimeRedirectInput,
    RuntimeSendInput,
    RuntimeSessionContext,
    RuntimeValidationError,
    ToolDescriptor,
    validate_agent_and_workspace,
    wrap_steer_reminder,
)

if TYPE_CHECKING:
    from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
    from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver

#: Imported on first access (see the module doc).
_LAZY_DRIVERS = {
    "ClaudeCodeRuntimeDriver": "cherry_desktop.core.ai.runtime.claude_code.driver",
    "PiRuntimeDriver": "cherry_desktop.core.ai.runtime.pi.driver",
}


def __getattr__(name: str) -> type[ClaudeCodeRuntimeDriver] | type[PiRuntimeDriver]:
    module = _LAZY_DRIVERS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    # A module's lazy attribute is found by name: that is what this hook is for.
    driver: type[ClaudeCodeRuntimeDriver] | type[PiRuntimeDriver] = getattr(importlib.import_module(module), name)
    return driver


__all__ = [
    "AGENT_RUNTIME_CAPABILITIES",
    "AGENT_TYPES",
    "CLAUDE_CODE_TRANSPORT",
    "CUT_SHORT_METADATA_KEY",
    "DENIED_MESSAGE",
    "DISABLED_MESSAGE",
    "DRIVER_CLASSES",
    "HISTORY_RESET_METADATA_KEY",
    "PI_TRANSPORT",
    "AgentRuntimeCapabilities",
    "AgentRuntimeConnection",
    "AgentRuntimeEvent",
    "AgentRuntimePrompt",
    "AgentSessionRuntimeDriver",
    "AgentType",
    "ApprovalDecision",
    "BuiltinToolDescriptor",
    "ChunkEvent",
    "ClaudeCodeRuntimeDriver",
    "CompactionCompleteEvent",
    "CompactionErrorEvent",
    "CompactionStartEvent",
    "ContextUsage",
    "ContextUsageEvent",
    "CreateDefaults",
    "CutShortReason",
    "DriverNotRegisteredError",
    "ErrorEvent",
    "EventOutlet",
    "EventSink",
    "HoldsToolGrants",
    "LinkedChannel",
    "PermissionMode",
    "PiRuntimeDriver",
    "PushesEvents",
    "ReconcileInput",
    "ReconcileResult",
    "ResumeTokenEvent",
    "RuntimeConnectInput",
    "RuntimeDriverDeps",
    "RuntimeDriverRegistry",
    "RuntimeRedirectInput",
    "RuntimeSendInput",
    "RuntimeSessionContext",
    "RuntimeValidationError",
    "SlashCommandsEvent",
    "SteerBoundaryEvent",
    "SteerUndeliveredEvent",
    "ToolApprovalRequestEvent",
    "ToolDescriptor",
    "TurnCompleteEvent",
    "UsageEvent",
    "build_agent_runtime_prompt",
    "get_capabilities",
    "register_drivers",
    "validate_agent_and_workspace",
    "wrap_steer_reminder",
]
