"""Words for core's error codes (`ErrorCode`), in the user's language.

Core never words an error: a failed row's `data-error` part, a stream's `SerializedError`, an
`error` chunk and the typed errors a send raises carry a stable code beside their source's
own message. Here each code gets a sentence (`tr()`, context `ErrorWords`); the provider's or
the runtime's message is shown under it, as is, as the detail line. A row stored before codes
existed has none: `describe` returns None and the caller shows the message as it always did.

`ErrorCode` lives in `core.messages` (pydantic behind it), which loads after the first paint;
an error is shown only once messages are, so the codes are imported where they are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from PySide6.QtCore import QObject

if TYPE_CHECKING:
    from cherry_desktop.core.messages.errors import ErrorCode


@runtime_checkable
class _CodedError(Protocol):
    """An exception of core that says what failed (its typed errors have a `code`)."""

    code: str


@runtime_checkable
class _SerializedError(Protocol):
    """Core's `SerializedError` (a stream's terminal error), seen from the UI."""

    message: str
    code: str


@runtime_checkable
class _FailedResult(Protocol):
    """A stream's error terminal (`StreamErrorResult`), seen from the UI."""

    error: _SerializedError


def error_fields(data: object) -> tuple[str, str | None]:
    """(message, code) of a `data-error` part's data (a dict; a row stored before codes has
    no code), of a `SerializedError`, or of a plain text."""
    if isinstance(data, dict):
        message = data.get("message") or data.get("error") or data
        code = data.get("code")
        return str(message), str(code) if code else None
    if isinstance(data, _SerializedError):
        return data.message, data.code
    return str(data), None


def terminal_error(result: object) -> tuple[str | None, str | None]:
    """(message, code) of a stream terminal: both None unless it is an error."""
    if isinstance(result, _FailedResult):
        return result.error.message, result.error.code
    return None, None


class ErrorWords(QObject):
    """The headline for each `ErrorCode`, and the two-line text of an error with its detail."""

    def headline(self, code: ErrorCode) -> str:
        from cherry_desktop.core.messages.errors import ErrorCode

        words = {
            ErrorCode.AUTH_FAILED: self.tr("The model's service refused the API key. Check the key in Providers."),
            ErrorCode.RATE_LIMITED: self.tr(
                "The model's service is limiting requests right now. Wait a moment, then try again."),
            ErrorCode.PROVIDER_OVERLOADED: self.tr("The model's service is overloaded. Try again in a little while."),
            ErrorCode.PROVIDER_UNAVAILABLE: self.tr("The model's service had a problem of its own. Try again later."),
            ErrorCode.REQUEST_REJECTED: self.tr("The model's service refused the request."),
            ErrorCode.PROVIDER_ERROR: self.tr("The model's service reported an error."),
            ErrorCode.NETWORK_ERROR: self.tr(
                "The model's service could not be reached. Check the network connection and the provider's address."),
            ErrorCode.TIMEOUT: self.tr("The model's service took too long to answer."),
            ErrorCode.STREAM_INCOMPLETE: self.tr("The connection ended before the reply was complete."),
            ErrorCode.MALFORMED_RESPONSE: self.tr("The model's service sent a reply that could not be read."),
            ErrorCode.MODEL_UNAVAILABLE: self.tr("The model of this chat is no longer available. Choose another one."),
            ErrorCode.PROVIDER_DISABLED: self.tr(
                "The provider of this model is turned off. Turn it on in Providers, or choose another model."),
            ErrorCode.NO_MODEL: self.tr("This chat has no model yet. Choose one in the Model list above."),
            ErrorCode.RUNTIME_EXITED: self.tr("The agent's process ended during the turn."),
            ErrorCode.RUNTIME_FAILED: self.tr("The agent reported an error."),
            ErrorCode.RUNTIME_UNAVAILABLE: self.tr("The agent could not be started."),
            ErrorCode.SESSION_INVALID: self.tr(
                "This session cannot run: its agent, workspace or model is not usable."),
            ErrorCode.AGENT_UNCONFIRMED: self.tr(
                "This agent was restored from a backup and stays off until you allow it: "
                "Settings, Backups, Allow restored agents."),
            ErrorCode.SESSION_CLOSED: self.tr("The session was closed during the turn."),
            ErrorCode.TURN_START_FAILED: self.tr("The queued message could not be started."),
            ErrorCode.PLACEHOLDER_FAILED: self.tr("The reply could not be saved, so the turn did not start."),
            ErrorCode.GATEWAY_OFF: self.tr(
                "This agent reaches its model through Cherry's API gateway, which is off. "
                "Turn it on in Settings, API gateway, then send again."),
            ErrorCode.MCP_TOOLS_AMBIGUOUS: self.tr(
                "Two of this agent's MCP tools have the same name, so none of them can be told apart. "
                "Turn one off in Settings, MCP servers, or untick a server in the agent's dialog."),
            ErrorCode.IDLE_TIMEOUT: self.tr("The reply stopped: the model sent nothing for too long."),
            ErrorCode.PERSIST_FAILED: self.tr("The reply could not be saved."),
            ErrorCode.INTERRUPTED: self.tr("The reply was interrupted when the app stopped."),
            ErrorCode.CONTINUATION_FAILED: self.tr("The turn could not continue."),
            ErrorCode.WRITES_PAUSED: self.tr("A backup or restore is in progress. Send again when it is done."),
            ErrorCode.TOPIC_NOT_FOUND: self.tr("This conversation no longer exists."),
            ErrorCode.MESSAGE_NOT_FOUND: self.tr("That message no longer exists."),
            ErrorCode.NOT_REGENERABLE: self.tr("Only a reply of the model can be regenerated."),
            ErrorCode.EMPTY_MESSAGE: self.tr("The message is empty."),
            ErrorCode.TOPIC_BUSY: self.tr("Wait until the current reply has finished."),
            ErrorCode.DUPLICATE_MODEL: self.tr("The same model was asked twice."),
            ErrorCode.UNSUPPORTED: self.tr("This chat cannot do that."),
            ErrorCode.UNKNOWN: self.tr("The reply failed."),
        }
        return words[code]

    def fix_label(self, code: str | None) -> str | None:
        """The button of the fix the app can make for `code` itself (None: the user fixes it)."""
        from cherry_desktop.core.messages.errors import ErrorCode, error_code_for

        if code and error_code_for(code) is ErrorCode.GATEWAY_OFF:
            return self.tr("Turn on the API gateway")
        return None

    def describe(self, code: str | None, detail: str) -> str | None:
        """The headline of `code` with `detail` (the source's own message) on the line below;
        None without a code (a row stored before codes: show its message as it is)."""
        from cherry_desktop.core.messages.errors import error_code_for

        if not code:
            return None
        headline = self.headline(error_code_for(code))
        detail = detail.strip()
        return f"{headline}\n{detail}" if detail and detail != headline else headline

    def describe_exception(self, exc: BaseException) -> str | None:
        """One line for the status bar: the headline of a typed error's code and its detail;
        None when the error has no code these words know."""
        from cherry_desktop.core.messages.errors import ErrorCode, error_code_for

        if not isinstance(exc, _CodedError):
            return self.storage_words(exc)
        code = error_code_for(exc.code)
        if code is ErrorCode.UNKNOWN:
            return self.storage_words(exc)
        detail = str(exc).removeprefix(f"{exc.code}: ").strip()
        headline = self.headline(code)
        return f"{headline} ({detail})" if detail and detail != exc.code else headline

    def storage_words(self, exc: BaseException) -> str | None:
        """What a full or read-only disk under the running app means, never SQLite's own words
        ("database or disk is full"); None for another error. A refused send keeps its text
        in the composer, so the words say nothing typed is lost."""
        from cherry_desktop.core.storage.storage_faults import StorageFault, classify

        fault = classify(exc)
        if fault is None:
            return None
        if fault.fault is StorageFault.DISK_FULL:
            return self.tr("The disk is full, so this could not be saved. Free some space, then try again; "
                           "what you typed stays in the message box.")
        if fault.fault is StorageFault.READ_ONLY:
            return self.tr("The data folder cannot be written (a read-only disk or missing permissions), so this "
                           "could not be saved. Make it writable, then try again.")
        return None
