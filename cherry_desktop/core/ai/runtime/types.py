"""The driver contract between the agent-session host and a concrete runtime.

`AgentSessionRuntimeService` (the host) drives any runtime through these types only and never
branches on a concrete runtime. A driver package (`claude_code/`, later `pi/`) implements
`AgentSessionRuntimeDriver` and `AgentRuntimeConnection` and emits `AgentRuntimeEvent`s
(`events.py`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

from cherry_desktop.core.ai.runtime.events import AgentRuntimeEvent
from cherry_desktop.core.data.records import (
    AgentRecord,
    AgentSessionRecord,
    ProviderRecord,
    WorkspaceRecord,
)
from cherry_desktop.core.mcp.toolset import AgentToolset
from cherry_desktop.core.messages import UIMessage
from cherry_desktop.core.messages.json_value import JsonObject

PermissionMode = Literal["default", "acceptEdits", "plan", "bypassPermissions"]
ReconcileResult = Literal["current", "patched", "rebuild", "invalid", "failed"]


class RuntimeValidationError(Exception):
    """`validate_session` refused the session; `code` is stable, the UI words it."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


# -- inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuntimeSendInput:
    """A user message for the runtime. `system_reminder` marks a steer (wrap it with
    `wrap_steer_reminder`)."""

    message: UIMessage
    system_reminder: bool = False
    turn_id: str | None = None


@dataclass(frozen=True)
class RuntimeRedirectInput:
    message: UIMessage
    system_reminder: bool = True


@dataclass(frozen=True)
class ReconcileInput:
    """The desired connection state, re-derived from the database."""

    permission_mode: PermissionMode
    disabled_tools: frozenset[str]
    model_id: str | None
    signature: str = ""
    #: The registry servers and the skills the agent selected (spawn-frozen: a change rebuilds
    #: after the turn).
    mcp_servers: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()


@dataclass(frozen=True)
class ContextUsage:
    used_tokens: int
    max_tokens: int | None = None


@dataclass(frozen=True)
class ToolDescriptor:
    name: str
    category: str
    requires_approval: bool


@dataclass
class RuntimeSessionContext:
    """Everything a driver may need about one session (read by `validate_session`)."""

    session: AgentSessionRecord
    agent: AgentRecord
    workspace: WorkspaceRecord | None
    workspace_path: Path | None
    agent_data_dir: Path
    model_id: str | None
    provider: ProviderRecord | None


@dataclass(frozen=True)
class GatewayRoute:
    """A gateway-owned connection: the runtime reaches its model through Cherry's API gateway
    (the provider does not speak the runtime's dialect). The gateway records the usage of its
    requests, so the connection reports none; `session_header` tells the gateway whose
    requests they are."""

    base_url: str
    api_key: str = field(repr=False)
    # The model as the gateway names it: ``provider_id:model_id``.
    model: str = ""
    session_header: tuple[str, str] = ("", "")


@dataclass
class RuntimeConnectInput:
    """What `connect` gets. `get_api_key` reads the keyring at connect time (keys rotate
    per connection, never per validation)."""

    context: RuntimeSessionContext
    resume_token: str | None
    permission_mode: PermissionMode
    disabled_tools: frozenset[str]
    get_api_key: Callable[[], str | None]
    get_last_resume_token: Callable[[], str | None]
    extra_env: dict[str, str] = field(default_factory=dict)
    language: str = "en-US"
    username: str = ""
    # The tools the user allowed "always" in this session (persisted with it): the connection
    # does not ask for them, after its disabled-tools check (and, in plan mode, not at all).
    always_allowed_tools: frozenset[str] = frozenset()
    # Set for a gateway-owned connection (`GatewayRoute`); None: the provider's own endpoint.
    gateway: GatewayRoute | None = None
    # The agent's tools beyond the runtime's own (its MCP servers, Cherry's tools), read from
    # the catalog's cache when the input was built; `error` set: the connection fails closed.
    tools: AgentToolset = field(default_factory=AgentToolset)


#: What the model is told when the user denied a tool call (without a reason of their own), and
#: when the tool is disabled for the agent: the same words from every runtime.
DENIED_MESSAGE = "The user denied this tool call."
DISABLED_MESSAGE = "This tool is disabled for this agent."


@dataclass(frozen=True)
class ApprovalDecision:
    approved: bool
    reason: str | None = None
    updated_input: JsonObject | None = None
    # Allowed, and this tool is allowed without asking for the rest of the session: the live
    # connection remembers it, and the host saves it with the session for later connections.
    always_allow: bool = False


# -- protocols ------------------------------------------------------------------------------


@runtime_checkable
class AgentRuntimeConnection(Protocol):
    """A live runtime connection for one session.

    Optional shapes are their own protocols, which the host checks with `isinstance`: `Steers`
    (without it follow-ups queue as the next turn), `PushesEvents` and `HoldsToolGrants`.
    Without context usage the UI shows no meter.
    """

    def events(self) -> AsyncIterator[AgentRuntimeEvent]:
        """The connection's event stream (one iterator for the connection's lifetime)."""
        ...

    async def send(self, input: RuntimeSendInput) -> None: ...

    async def reconcile(self, input: ReconcileInput) -> ReconcileResult: ...

    async def interrupt(self) -> None:
        """Stop the running turn (user Stop)."""
        ...

    async def respond_tool_approval(self, approval_id: str, decision: ApprovalDecision) -> bool: ...

    def get_context_usage(self) -> ContextUsage | None: ...

    @property
    def is_alive(self) -> bool: ...

    async def close(self) -> None: ...


@runtime_checkable
class Steers(Protocol):
    """Optional for a connection: it takes a follow-up into the running turn (a steer), while
    `supports_redirect` says so."""

    supports_redirect: bool

    async def redirect(self, input: RuntimeRedirectInput) -> bool:
        """Stash a steer for injection into the running turn; False if it cannot."""
        ...


@runtime_checkable
class PushesEvents(Protocol):
    """Optional for a connection: it hands its events to a callback (None once the stream
    ended) instead of through `events()`, so the host routes them without a task switch each."""

    def set_event_sink(self, sink: Callable[[AgentRuntimeEvent | None], None] | None) -> None: ...


@runtime_checkable
class HoldsToolGrants(Protocol):
    """Optional for a connection: it keeps the session's always-allowed tools (seeded from
    `RuntimeConnectInput.always_allowed_tools`); a revoked grant is removed from it at once."""

    always_allowed_tools: set[str]


@runtime_checkable
class AgentSessionRuntimeDriver(Protocol):
    type: str
    capabilities: Sequence[str]

    def validate_session(self, context: RuntimeSessionContext) -> None:
        """Raise `RuntimeValidationError` if the session cannot be served. Side-effect free."""
        ...

    def list_available_tools(self, mcp_ids: Sequence[str] = ()) -> list[ToolDescriptor]: ...

    async def connect(self, input: RuntimeConnectInput) -> AgentRuntimeConnection: ...

    async def on_session_idle(self, input: RuntimeConnectInput) -> None:
        """The session went idle with a known resume token (prewarm hook); may do nothing."""
        ...

    async def shutdown(self) -> None:
        """App stop: close warm handles and sweep processes the driver started."""
        ...


@runtime_checkable
class ClosesWarmSessions(Protocol):
    """Optional for a driver: it keeps a prewarmed handle per session (`on_session_idle`), which
    the host closes when it lets go of the session (closed or deleted)."""

    async def close_session_warm(self, session_id: str) -> None: ...


STEER_REMINDER_OPEN = "<system-reminder>\nThe user sent the following message while you were working:\n"
STEER_REMINDER_CLOSE = "\nPlease address this message and continue with your tasks.\n</system-reminder>"


def wrap_steer_reminder(text: str) -> str:
    """Wrap a steer as a system-reminder (the same words for every runtime)."""
    return f"{STEER_REMINDER_OPEN}{text}{STEER_REMINDER_CLOSE}"


def validate_agent_and_workspace(context: RuntimeSessionContext, runtime_type: str) -> None:
    """The checks of `validate_session` every runtime makes first: the agent is of this
    runtime, and the session's workspace is an existing directory."""
    if context.agent.type != runtime_type:
        raise RuntimeValidationError("agent-type-mismatch", context.agent.type)
    if context.workspace_path is None:
        raise RuntimeValidationError("workspace-missing")
    if not context.workspace_path.is_dir():
        raise RuntimeValidationError("workspace-not-a-directory", str(context.workspace_path))


def last_resume_token(input: RuntimeConnectInput) -> str | None:
    """The session's newest persisted resume token, None when it has none or the lookup
    fails (a broken lookup must not block a fresh session)."""
    try:
        return input.get_last_resume_token() or None
    except Exception:
        logging.getLogger(__name__).exception("reading the last resume token failed")
        return None
