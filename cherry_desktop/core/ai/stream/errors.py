"""The typed errors of the stream broker (`core` raises these; the UI words them)."""

from __future__ import annotations


class StreamManagerError(Exception):
    """Base of the typed errors the stream manager and its context providers raise."""

    code: str = "stream-error"


class WritesPausedError(StreamManagerError):
    """A write quiesce hold is active (`AiStreamManager.pause`): no new turn is admitted."""

    code = "writes-paused"


class DispatchError(StreamManagerError):
    """`dispatch_stream_request` could not prepare the request (no model, unknown message...)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


class DuplicateModelError(DispatchError):
    """A send (or a request) names the same model twice: refused before any row is written."""

    def __init__(self, model_id: str) -> None:
        super().__init__("duplicate-model", model_id)
        self.model_id = model_id


class PersistenceWriteError(StreamManagerError):
    """A terminal write failed twice: the windows are told the turn failed, never success."""

    code = "persist-failed"
