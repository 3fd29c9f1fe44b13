"""Stable error codes: what failed, as data (core sets the code, the UI words it).

Every error a turn can end with carries one `ErrorCode`: an `error` chunk
(`ErrorChunk.error_code`), the stream manager's `SerializedError`, and so the `data-error`
part folded into the failed row. The provider's or runtime's own message travels beside the
code, unchanged: the UI shows it as the detail line under its own words for the code. Rows
written before codes existed have no code; the UI then shows their message as it is.

`error_code_for` turns what a source knows (its own code, an HTTP status) into a member, so a
runtime keeps its own vocabulary (`api_error`, `stream-ended`) and core still stores a stable
code. The values are kebab-case and never change meaning (they are stored in the database).
"""

from __future__ import annotations

import enum


class ErrorCode(enum.StrEnum):
    # -- the model's service (a chat provider, or the API behind an agent runtime) --------
    AUTH_FAILED = "auth-failed"  # HTTP 401 / 403: the key is missing, wrong or not allowed
    RATE_LIMITED = "rate-limited"  # HTTP 429
    PROVIDER_OVERLOADED = "provider-overloaded"  # HTTP 529 / 503, "overloaded"
    PROVIDER_UNAVAILABLE = "provider-unavailable"  # other HTTP 5xx
    REQUEST_REJECTED = "request-rejected"  # other HTTP 4xx: bad request, unknown model, too long
    PROVIDER_ERROR = "provider-error"  # an error the service reported inside its stream
    NETWORK_ERROR = "network-error"  # could not connect, or the connection broke
    TIMEOUT = "timeout"  # the request or the stream timed out
    STREAM_INCOMPLETE = "stream-incomplete"  # the server hung up before the reply was complete
    MALFORMED_RESPONSE = "malformed-response"  # the stream's data could not be read
    # -- which model answers ---------------------------------------------------------------
    MODEL_UNAVAILABLE = "model-unavailable"  # no such provider / model id / provider type
    PROVIDER_DISABLED = "provider-disabled"
    NO_MODEL = "no-model"  # the chat has no model and none was mentioned
    # -- agent runtimes --------------------------------------------------------------------
    RUNTIME_EXITED = "runtime-exited"  # the runtime's process or connection ended mid-turn
    RUNTIME_FAILED = "runtime-failed"  # the runtime reported a failure of its own
    RUNTIME_UNAVAILABLE = "runtime-unavailable"  # the runtime could not be started
    SESSION_INVALID = "session-invalid"  # agent, workspace or model of the session is unusable
    AGENT_UNCONFIRMED = "agent-unconfirmed"  # restored from a backup, off until the user allows it
    SESSION_CLOSED = "session-closed"  # the session was deleted, or the app shut down mid-turn
    TURN_START_FAILED = "turn-start-failed"  # a queued turn could not start
    PLACEHOLDER_FAILED = "placeholder-failed"  # the reply's row could not be created
    GATEWAY_OFF = "gateway-off"  # the agent reaches its model only through the API gateway, which is off
    MCP_TOOLS_AMBIGUOUS = "mcp-tools-ambiguous"  # two of the agent's MCP tools share one name
    # -- the stream and its rows -------------------------------------------------------------
    IDLE_TIMEOUT = "idle-timeout"  # nothing came for too long: the reply was stopped
    PERSIST_FAILED = "persist-failed"  # the reply could not be saved
    INTERRUPTED = "interrupted"  # the app stopped while the reply streamed
    CONTINUATION_FAILED = "continuation-failed"  # the turn's continuation could not start
    WRITES_PAUSED = "writes-paused"  # a backup or restore holds new turns
    # -- a request the chat cannot take --------------------------------------------------------
    TOPIC_NOT_FOUND = "topic-not-found"
    MESSAGE_NOT_FOUND = "message-not-found"
    NOT_REGENERABLE = "not-regenerable"
    EMPTY_MESSAGE = "empty-message"
    TOPIC_BUSY = "topic-busy"
    DUPLICATE_MODEL = "duplicate-model"
    UNSUPPORTED = "unsupported"
    UNKNOWN = "unknown"


# Codes of other vocabularies (typed errors of core, runtime drivers) that mean the same.
_ALIASES: dict[str, ErrorCode] = {
    # the stream manager and its providers (dispatch codes, `AiService.ModelResolutionError`)
    "no-models": ErrorCode.NO_MODEL,
    "no-provider": ErrorCode.TOPIC_NOT_FOUND,
    "session-not-found": ErrorCode.TOPIC_NOT_FOUND,
    "unsupported-trigger": ErrorCode.UNSUPPORTED,
    "provider-not-found": ErrorCode.MODEL_UNAVAILABLE,
    "model-not-found": ErrorCode.MODEL_UNAVAILABLE,
    "bad-model-id": ErrorCode.MODEL_UNAVAILABLE,
    "unknown-provider-type": ErrorCode.MODEL_UNAVAILABLE,
    "no-database": ErrorCode.MODEL_UNAVAILABLE,
    # the agent-session host and the runtime drivers
    "api_error": ErrorCode.PROVIDER_ERROR,
    "stream-ended": ErrorCode.RUNTIME_EXITED,
    "runtime-connection-closed": ErrorCode.RUNTIME_EXITED,
    "recovery-failed": ErrorCode.RUNTIME_FAILED,
    "session-busy": ErrorCode.RUNTIME_FAILED,
    "unknown-runtime-turn": ErrorCode.RUNTIME_FAILED,
    "session-deleted": ErrorCode.SESSION_CLOSED,
    "shutdown": ErrorCode.SESSION_CLOSED,
    "runtime-handler-missing": ErrorCode.RUNTIME_UNAVAILABLE,
    "runtime-metadata-required": ErrorCode.RUNTIME_UNAVAILABLE,
    "runtime-metadata-missing": ErrorCode.RUNTIME_UNAVAILABLE,
    "driver-not-registered": ErrorCode.RUNTIME_UNAVAILABLE,
    "node-missing": ErrorCode.RUNTIME_UNAVAILABLE,
    "node-too-old": ErrorCode.RUNTIME_UNAVAILABLE,
    "pi-missing": ErrorCode.RUNTIME_UNAVAILABLE,
    "pi-install-failed": ErrorCode.RUNTIME_UNAVAILABLE,
    "acp-agent-missing": ErrorCode.RUNTIME_UNAVAILABLE,
    "acp-install-failed": ErrorCode.RUNTIME_UNAVAILABLE,
    "acp-start-failed": ErrorCode.RUNTIME_FAILED,
    # Anthropic's error types (its `error` events, and Claude Code's results)
    "authentication_error": ErrorCode.AUTH_FAILED,
    "permission_error": ErrorCode.AUTH_FAILED,
    "rate_limit_error": ErrorCode.RATE_LIMITED,
    "overloaded_error": ErrorCode.PROVIDER_OVERLOADED,
    "invalid_request_error": ErrorCode.REQUEST_REJECTED,
    "not_found_error": ErrorCode.REQUEST_REJECTED,
    "request_too_large": ErrorCode.REQUEST_REJECTED,
    "timeout_error": ErrorCode.TIMEOUT,
}

_BY_VALUE: dict[str, ErrorCode] = {code.value: code for code in ErrorCode}


def code_for_status(status: int | None) -> ErrorCode | None:
    """The code an HTTP error status means; None for no status or a non-error one."""
    if status is None or status < 400:
        return None
    if status in (401, 403):
        return ErrorCode.AUTH_FAILED
    if status == 429:
        return ErrorCode.RATE_LIMITED
    if status in (408, 504):
        return ErrorCode.TIMEOUT
    if status in (503, 529):
        return ErrorCode.PROVIDER_OVERLOADED
    return ErrorCode.PROVIDER_UNAVAILABLE if status >= 500 else ErrorCode.REQUEST_REJECTED


def error_code_for(raw: str | None, *, status: int | None = None,
                   default: ErrorCode = ErrorCode.UNKNOWN) -> ErrorCode:
    """The stable code for `raw` (a member's value, or another vocabulary's code) and the
    HTTP `status` the source saw: a member stays itself, then the status decides, then the
    aliases; anything else is `default`."""
    if raw is not None:
        exact = _BY_VALUE.get(raw)
        if exact is not None:
            return exact
    by_status = code_for_status(status)
    if by_status is not None:
        return by_status
    return _ALIASES.get(raw or "", default)
