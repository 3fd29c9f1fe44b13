"""PersistenceListener's observer protocol (TemporaryChatBackend as the vehicle), stats,
translation backend, trace flush, compact replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamRequest,
    LocalTraceStorage,
    ModelDispatch,
    PersistenceListener,
    PersistenceWriteError,
    PersistInput,
    SendInput,
    SerializedError,
    StreamDoneResult,
    StreamErrorResult,
    StreamPausedResult,
    TemporaryChatBackend,
    TemporaryChatService,
    TraceFlushListener,
    TranslationBackend,
    TransportTimings,
    build_compact_replay,
    fold_error,
    stats_from_terminal,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import (
    DataPart,
    ReasoningDeltaChunk,
    StartChunk,
    TextDeltaChunk,
    TextPart,
    UIMessage,
)
from tests.unit.stream.helpers import END, FakeAi, reasoning_chunks, text_chunks
from tests.waiting import until

M1, M2 = "p::m1", "p::m2"


def message(text: str, **meta: Any) -> UIMessage:
    return UIMessage(id="a1", role="assistant", parts=[TextPart(text=text, state="done")], metadata=meta)


def timings() -> TransportTimings:
    return TransportTimings(started_at=1000.0, completed_at=1800.4)


class Recording(TemporaryChatBackend):
    def __init__(self, service: TemporaryChatService, topic: str, *, fail: bool = False) -> None:
        super().__init__(service, topic)
        self.inputs: list[PersistInput] = []
        self.after: list[UIMessage] = []
        self.fail = fail

    async def persist_assistant(self, input: PersistInput) -> None:
        self.inputs.append(input)
        if self.fail:
            raise OSError("disk full")
        await super().persist_assistant(input)

    async def after_persist(self, final_message: UIMessage) -> None:
        self.after.append(final_message)


def setup(**kw: Any) -> tuple[TemporaryChatService, Recording, PersistenceListener]:
    service = TemporaryChatService()
    service.create_topic(topic_id="t", model_id=M1)
    backend = Recording(service, "t", **kw)
    return service, backend, PersistenceListener(backend=backend, topic_id="t", model_id=M1)


async def test_success_persists_with_stats_and_fires_after_persist() -> None:
    service, backend, listener = setup()
    assert listener.id == f"persistence:temp:t:{M1}" and listener.is_alive()
    listener.on_chunk(StartChunk())
    listener.on_chunk(TextDeltaChunk(id="x", delta="h"))
    await listener.on_done(StreamDoneResult(topic_id="t", model_id=M1, timings=timings(),
                                            final_message=message("hi", total_tokens=9, prompt_tokens=4)))
    (inp,) = backend.inputs
    assert inp.status == "success" and inp.model_id == M1
    assert inp.stats is not None and inp.stats["total_tokens"] == 9 and inp.stats["time_completion_ms"] == 800
    assert "time_first_token_ms" in inp.stats and "time_thinking_ms" not in inp.stats
    assert [m.text() for m in backend.after] == ["hi"]
    assert service.messages("t")[0].metadata["status"] == "success"


async def test_model_filter_ignores_other_executions() -> None:
    _, backend, listener = setup()
    await listener.on_done(StreamDoneResult(topic_id="t", model_id=M2, timings=timings(), final_message=message("x")))
    assert backend.inputs == []


async def test_error_part_is_folded_exactly_once_and_no_after_persist() -> None:
    _, backend, listener = setup()
    err = SerializedError(message="HTTP 429: slow down", status=429)
    already = fold_error(message("part"), err)
    assert fold_error(already, err) is already
    await listener.on_error(StreamErrorResult(topic_id="t", model_id=M1, timings=timings(), final_message=already,
                                              error=err))
    parts = backend.inputs[0].final_message.parts  # type: ignore[union-attr]
    assert [p.type for p in parts] == ["text", "data-error"]
    assert isinstance(parts[1], DataPart) and parts[1].data["status"] == 429
    assert backend.inputs[0].status == "error" and backend.after == []


async def test_paused_persists_and_missing_final_message_is_skipped() -> None:
    _, backend, listener = setup()
    await listener.on_paused(StreamPausedResult(topic_id="t", model_id=M1, timings=timings(),
                                                final_message=message("half")))
    await listener.on_error(StreamErrorResult(topic_id="t", model_id=M1, timings=timings(), final_message=None))
    assert [i.status for i in backend.inputs] == ["paused"] and backend.after == []


async def test_a_failed_write_is_retried_once_then_reported_as_a_typed_error() -> None:
    _, backend, listener = setup(fail=True)
    with pytest.raises(PersistenceWriteError):
        await listener.on_done(StreamDoneResult(topic_id="t", model_id=M1, timings=timings(),
                                                final_message=message("x")))
    assert [i.status for i in backend.inputs] == ["success", "success"] and backend.after == []


async def test_semantic_timings_follow_reasoning_and_first_text() -> None:
    _, _, listener = setup()
    for c in reasoning_chunks("ab"):
        listener.on_chunk(c)
    assert listener.semantic.reasoning_started_at is not None and listener.semantic.first_text_at is None
    listener.on_chunk(TextDeltaChunk(id="x", delta="t"))
    assert listener.semantic.reasoning_ended_at is not None and listener.semantic.first_text_at is not None
    other = PersistenceListener(backend=TemporaryChatBackend(TemporaryChatService(), "t"), topic_id="t",
                                model_id=M1)
    other.on_chunk(TextDeltaChunk(id="x", delta="t"), M2)
    assert other.semantic.first_text_at is None


def test_stats_from_terminal_projection() -> None:
    stats = stats_from_terminal(message("x", total_tokens=10, prompt_tokens=3, completion_tokens=7,
                                        thoughts_tokens=2),
                                {"started_at": 100.0, "first_text_at": 150.6, "completed_at": 400.2})
    assert stats == {"total_tokens": 10, "prompt_tokens": 3, "completion_tokens": 7, "thoughts_tokens": 2,
                     "time_first_token_ms": 51, "time_completion_ms": 300}
    assert stats_from_terminal(None, {"started_at": None}) == {}


async def test_translation_backend_writes_a_data_translation_part_on_success_only(repos: Repositories) -> None:
    topic = repos.topics.create_topic()
    target = repos.messages.create_message(topic_id=topic.id, role="assistant",
                                           parts=[TextPart(text="Hello", state="done")])
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    backend = TranslationBackend(repos.messages, target_message_id=target.id, target_language="fr")
    listener = PersistenceListener(backend=backend, topic_id=f"translate:{target.id}", model_id=M1)
    mgr.stream_prompt(stream_id=f"translate:{target.id}", unique_model_id=M1, prompt="Translate: Hello",
                      listener=listener)
    (await fake.feed(f"translate:{target.id}", M1)).push(*text_chunks("Bonjour"), END)
    await until(lambda: len(repos.messages.get_message(target.id).parts) == 2, limit=3.0)
    part = repos.messages.get_message(target.id).parts[1]
    assert part.type == "data-translation" and part.data["text"] == "Bonjour"  # type: ignore[union-attr]
    await backend.persist_assistant(PersistInput(final_message=message("Salut"), status="paused"))
    assert len(repos.messages.get_message(target.id).parts) == 2


async def test_trace_flush_listener_saves_spans_only_when_the_topic_is_done(tmp_path: Path) -> None:
    storage = LocalTraceStorage(tmp_path / "traces")
    storage.record_span("agent-session:s1", {"name": "turn"})
    listener = TraceFlushListener("agent-session:s1", storage)
    assert listener.id == "persistence:trace:agent-session:s1"
    not_done = StreamDoneResult(topic_id="agent-session:s1", model_id=M1, timings=timings(), final_message=None,
                                is_topic_done=False)
    await listener.on_done(not_done)
    assert not storage.path_for("agent-session:s1").exists()
    await listener.on_paused(StreamPausedResult(topic_id="agent-session:s1", model_id=M1, timings=timings(),
                                                final_message=None))
    assert '"turn"' in storage.path_for("agent-session:s1").read_text()


def test_compact_replay_merges_runs_per_part_id_and_keeps_order() -> None:
    chunks = [*text_chunks("abc"), TextDeltaChunk(id="t2", delta="x"), TextDeltaChunk(id="t1", delta="y"),
              ReasoningDeltaChunk(id="r", delta="1"), ReasoningDeltaChunk(id="r", delta="2")]
    out = build_compact_replay(chunks)
    assert [(c.type, getattr(c, "delta", None)) for c in out] == [
        ("text-start", None), ("text-delta", "abc"), ("text-end", None), ("text-delta", "x"), ("text-delta", "y"),
        ("reasoning-delta", "12")]
    assert build_compact_replay([]) == []


async def test_manager_persistence_through_send_with_temporary_backend() -> None:
    service, backend, listener = setup()
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    mgr.send(SendInput(topic_id="t", models=[ModelDispatch(M1, AiStreamRequest(model_id=M1))], listeners=[listener]))
    (await fake.feed("t", M1)).push(*reasoning_chunks("hmm"), *text_chunks("ok"), END)
    await until(lambda: bool(backend.inputs), limit=3.0)
    assert backend.inputs[0].stats is not None and "time_first_token_ms" in backend.inputs[0].stats
    assert [p.type for p in service.messages("t")[0].parts] == ["reasoning", "text"]
