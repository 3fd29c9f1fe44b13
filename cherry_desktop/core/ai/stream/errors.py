"""The stream broker's errors: `SerializedError` (an error as data) and the typed errors it raises.

Core never words an error for a person: every error carries a stable `ErrorCode` (see
`core/messages/errors.py`) and keeps its source's own message as the detail; the UI words the
code.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol, runtime_checkable

from cherry_desktop.core.messages.errors import ErrorCode, error_code_for


@runtime_checkable
class CodedError(Protocol):
    """An exception that says what failed (`code`), as the typed errors of core do."""

    code: str


@dataclasses.dataclass(frozen=True, init=False)
class SerializedError:
    """An error as data: what listeners, the DB (a `data-error` part) and the UI see.

    `message` is the source's own words (the provider's, the runtime's): the UI's detail
    line. `code` is always a stable `ErrorCode`; another vocabulary's code given here (a
    runtime's `stream-ended`, the host's `placeholder-failed`) is mapped onto one, with
    `status` (an HTTP status the source saw) deciding where the code alone cannot.
    """

    message: str
    name: str
    code: ErrorCode
    status: int | None

    def __init__(self, message: str, name: str = "Error", code: ErrorCode | str | None = None,
                 status: int | None = None) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "code", error_code_for(code, status=status))
        object.__setattr__(self, "status", status)

    @classmethod
    def from_exception(cls, exc: BaseException, *, code: ErrorCode | str | None = None) -> SerializedError:
        """`exc` as data: `code` when given, else the exception's own (a `CodedError`), else
        what its type says (a timeout, a broken connection)."""
        if code is None:
            if isinstance(exc, CodedError):
                code = exc.code
            elif isinstance(exc, TimeoutError):
                code = ErrorCode.TIMEOUT
            elif isinstance(exc, ConnectionError):
                code = ErrorCode.NETWORK_ERROR
        return cls(message=str(exc) or type(exc).__name__, name=type(exc).__name__, code=code)

    def to_dict(self) -> dict[str, str | int | None]:
        """The `data-error` part's data (the code as its plain string value)."""
        return {"message": self.message, "name": self.name, "code": self.code.value, "status": self.status}


class StreamManagerError(Exception):
    """Base of the typed errors the stream manager and its context providers raise."""

    code: str = ErrorCode.UNKNOWN


class WritesPausedError(StreamManagerError):
    """A write quiesce hold is active (`AiStreamManager.pause`): no new turn is admitted."""

    code = ErrorCode.WRITES_PAUSED


class DispatchError(StreamManagerError):
    """`dispatch_stream_request` could not prepare the request (no model, unknown message...).

    `code` is an `ErrorCode` value or a provider's own code (the agent host's
    `session-not-found`); `ErrorCode` words them alike through `error_code_for`.
    """

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class DuplicateModelError(DispatchError):
    """A send (or a request) names the same model twice: refused before any row is written."""

    def __init__(self, model_id: str) -> None:
        super().__init__(ErrorCode.DUPLICATE_MODEL, model_id)
        self.model_id = model_id


class PersistenceWriteError(StreamManagerError):
    """A terminal write failed twice: the windows are told the turn failed, never success."""

    code = ErrorCode.PERSIST_FAILED
