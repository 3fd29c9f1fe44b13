"""Typed errors of the agent-session host (the UI words them by `code`)."""

from __future__ import annotations


class AgentSessionError(Exception):
    """Base of the host's errors; `code` is stable."""

    code: str = "agent-session-error"

    def __init__(self, code: str | None = None, detail: str = "") -> None:
        if code is not None:
            self.code = code
        super().__init__(f"{self.code}: {detail}" if detail else self.code)
        self.detail = detail


class AgentSessionValidationError(AgentSessionError):
    """The session cannot run: session-not-found, agent-missing, agent-unreadable, agent-unconfirmed
    (restored from a backup, not allowed yet), workspace-missing, workspace-not-directory,
    workspace-unavailable, worktree-missing (its own git worktree is gone), driver-not-registered,
    model-missing, provider-not-found, model-not-found (the model or its provider no longer
    exists), model-incompatible, or a driver's own code (`runtime-invalid:<code>`)."""

    code = "session-invalid"


class RuntimeMetadataMissingError(AgentSessionError):
    """An `agent-session:*` request reached `stream_text` without runtime metadata."""

    code = "runtime-metadata-missing"


class UnknownRuntimeTurnError(AgentSessionError):
    """`open_turn_stream` for a turn the host did not begin (or already finished)."""

    code = "unknown-runtime-turn"


class SessionBusyError(AgentSessionError):
    """A fresh turn was begun while the session's runtime still owns a turn."""

    code = "session-busy"


class RuntimeConnectionClosedError(AgentSessionError):
    """The runtime connection ended while a turn was running."""

    code = "runtime-connection-closed"
