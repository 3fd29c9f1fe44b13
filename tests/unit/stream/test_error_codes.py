"""Stable error codes: every error a turn ends with carries an `ErrorCode`, and the source's
own message stays the detail (chat streams, agent runtimes, the stream manager's own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.events import ErrorEvent
from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    DispatchError,
    MessageServiceBackend,
    ModelDispatch,
    PersistenceListener,
    SendInput,
    SerializedError,
    WritesPausedError,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, code_for_status, error_code_for
from tests.unit.agent_session.harness import make_harness
from tests.unit.stream.helpers import FakeAi, Recorder, text_chunks
from tests.waiting import until

M1 = "p::m1"


@pytest.mark.parametrize(("raw", "status", "expected"), [
    ("rate-limited", None, ErrorCode.RATE_LIMITED),  # a member stays itself
    ("rate-limited", 500, ErrorCode.RATE_LIMITED),
    ("api_error", 401, ErrorCode.AUTH_FAILED),  # a runtime's own code: the status decides
    ("api_error", 403, ErrorCode.AUTH_FAILED),
    ("api_error", 429, ErrorCode.RATE_LIMITED),
    ("api_error", 529, ErrorCode.PROVIDER_OVERLOADED),
    ("api_error", 502, ErrorCode.PROVIDER_UNAVAILABLE),
    ("api_error", 400, ErrorCode.REQUEST_REJECTED),
    ("api_error", 504, ErrorCode.TIMEOUT),
    ("api_error", None, ErrorCode.PROVIDER_ERROR),
    ("stream-ended", None, ErrorCode.RUNTIME_EXITED),  # a runtime process that went away
    ("runtime-connection-closed", None, ErrorCode.RUNTIME_EXITED),
    ("session-deleted", None, ErrorCode.SESSION_CLOSED),
    ("provider-not-found", None, ErrorCode.MODEL_UNAVAILABLE),
    ("overloaded_error", None, ErrorCode.PROVIDER_OVERLOADED),
    ("node-missing", None, ErrorCode.RUNTIME_UNAVAILABLE),
    (None, None, ErrorCode.UNKNOWN),
    ("something-new", None, ErrorCode.UNKNOWN),
])
def test_error_code_for_maps_other_vocabularies_onto_stable_codes(raw: str | None, status: int | None,
                                                                  expected: ErrorCode) -> None:
    assert error_code_for(raw, status=status) is expected


def test_statuses_that_are_no_error_have_no_code_and_values_are_kebab_case() -> None:
    assert code_for_status(None) is None and code_for_status(200) is None and code_for_status(304) is None
    assert error_code_for("whatever", default=ErrorCode.RUNTIME_FAILED) is ErrorCode.RUNTIME_FAILED
    for code in ErrorCode:
        assert code.value == code.value.lower() and "_" not in code.value and " " not in code.value


def test_serialized_error_always_carries_a_member_and_keeps_the_message() -> None:
    err = SerializedError(message="Scripted: HTTP 429: slow down", code="api_error", status=429)
    assert err.code is ErrorCode.RATE_LIMITED and err.message == "Scripted: HTTP 429: slow down"
    assert err.to_dict() == {"message": "Scripted: HTTP 429: slow down", "name": "Error",
                             "code": "rate-limited", "status": 429}
    assert type(err.to_dict()["code"]) is str  # stored as JSON, read back by any version
    assert SerializedError("x").code is ErrorCode.UNKNOWN
    assert SerializedError("x", code="placeholder-failed").code is ErrorCode.PLACEHOLDER_FAILED


def test_from_exception_takes_the_typed_code_or_what_the_exception_type_says() -> None:
    assert SerializedError.from_exception(WritesPausedError("backup")).code is ErrorCode.WRITES_PAUSED
    assert SerializedError.from_exception(DispatchError(ErrorCode.TOPIC_BUSY, "busy")).code is ErrorCode.TOPIC_BUSY
    assert SerializedError.from_exception(TimeoutError()).code is ErrorCode.TIMEOUT
    assert SerializedError.from_exception(TimeoutError()).message == "TimeoutError"
    refused = SerializedError.from_exception(ConnectionRefusedError("refused"))
    assert refused.code is ErrorCode.NETWORK_ERROR and refused.message == "refused"
    assert SerializedError.from_exception(RuntimeError("boom")).code is ErrorCode.UNKNOWN
    forced = SerializedError.from_exception(RuntimeError("x"), code=ErrorCode.CONTINUATION_FAILED)
    assert forced.code is ErrorCode.CONTINUATION_FAILED


async def test_a_coded_error_chunk_reaches_listeners_and_the_row_with_its_code(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    topic = repos.topics.create_topic().id
    row = repos.messages.create_message(topic_id=topic, role="assistant", parts=[], status="pending", model_id=M1)
    persist = PersistenceListener(backend=MessageServiceBackend(repos, message_id=row.id, topic_id=topic),
                                  topic_id=topic, model_id=M1)
    win = Recorder("wc:1")
    models = [ModelDispatch(M1, AiStreamRequest(model_id=M1, topic_id=topic), anchor_message_id=row.id)]
    mgr.send(SendInput(topic_id=topic, models=models, listeners=[win, persist]))
    feed = await fake.feed(topic, M1)
    feed.push(*text_chunks("half"), ErrorChunk(error_text="Scripted: HTTP 429: slow down",
                                               error_code=ErrorCode.RATE_LIMITED))
    feed.end()
    await until(lambda: bool(win.errors), limit=3.0)
    assert win.errors[0].error.code is ErrorCode.RATE_LIMITED
    assert win.errors[0].error.message == "Scripted: HTTP 429: slow down"
    stored = repos.messages.get_message(row.id)
    assert stored.status == "error"
    assert stored.parts[-1].data == {"message": "Scripted: HTTP 429: slow down",  # type: ignore[union-attr]
                                     "name": "StreamError", "code": "rate-limited", "status": None}

    # A source that gives no code: the turn still fails with a code, `unknown`.
    mgr.send(SendInput(topic_id="t2", models=[ModelDispatch(M1, AiStreamRequest(model_id=M1, topic_id="t2"))],
                       listeners=[other := Recorder("wc:2")]))
    (await fake.feed("t2", M1)).push(ErrorChunk(error_text="their words")).end()
    await until(lambda: bool(other.errors), limit=3.0)
    assert other.errors[0].error.code is ErrorCode.UNKNOWN and other.errors[0].error.message == "their words"


async def test_a_runtime_error_is_stored_with_a_stable_code_and_the_runtimes_words(repos: Repositories,
                                                                                   tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    conn.emit_text("partial")
    conn.emit(ErrorEvent(message="API Error: 429 rate limited", code="api_error", status=429, fatal=True))
    await h.idle()
    _, assistant = h.rows()
    part = h.row(assistant.id).parts[-1]
    assert part.type == "data-error"
    assert part.data["code"] == "rate-limited"  # type: ignore[union-attr]
    assert part.data["message"] == "API Error: 429 rate limited"  # type: ignore[union-attr]
    await h.aclose()
