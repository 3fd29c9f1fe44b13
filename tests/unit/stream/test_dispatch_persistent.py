"""dispatch_stream_request through the persistent (SQLite) and temporary context providers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    DispatchContext,
    DispatchError,
    LocalTraceStorage,
    MainContinueConversationRequest,
    PersistenceListener,
    PersistentChatContextProvider,
    TemporaryChatContextProvider,
    TemporaryChatService,
    TopicStatusSnapshotEntry,
    WritesPausedError,
    dispatch_stream_request,
    recover_interrupted_messages,
    user_parts,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from tests.unit.stream.helpers import END, FakeAi, Recorder, approval_chunks, reply, text_chunks
from tests.waiting import until

M1 = "p::m1"
M2 = "p::m2"


@pytest.fixture
def setup(repos: Repositories, tmp_path: Path) -> tuple[AiStreamManager, FakeAi, Repositories, LocalTraceStorage]:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0)
    traces = LocalTraceStorage(tmp_path / "traces")
    temp = TemporaryChatService()
    mgr.set_context_providers([TemporaryChatContextProvider(temp),
                               PersistentChatContextProvider(repos, trace_storage=traces)])
    return mgr, fake, repos, traces


def submit(topic: str, text: str, *models: str) -> AiStreamOpenRequest:
    return AiStreamOpenRequest(topic_id=topic, user_message_parts=user_parts(text), mentioned_model_ids=list(models))


async def wait_status(mgr: AiStreamManager, topic: str, status: str) -> None:
    def check() -> bool:
        entry = mgr.shared_cache.get(topic_stream_status_key(topic))
        return isinstance(entry, TopicStatusSnapshotEntry) and entry.status == status
    await until(check, limit=3.0)


async def test_submit_persists_user_row_and_placeholder_then_finalises_it(setup: tuple) -> None:
    mgr, fake, repos, traces = setup
    topic = repos.topics.create_topic(name="t", model=M1)
    traces.record_span(topic.id, {"name": "chat", "ms": 3})
    win = Recorder("wc:1")
    res = await dispatch_stream_request(mgr, win, submit(topic.id, "Explain"))
    assert res.mode == "started" and res.execution_ids == [M1] and len(res.placeholder_ids) == 1
    rows = repos.messages.list_messages(topic.id)
    assert [(r.role, r.status) for r in rows] == [("user", "success"), ("assistant", "pending")]
    assert rows[1].parent_id == rows[0].id == res.user_message_id
    assert repos.topics.get_topic(topic.id).active_node_id == res.placeholder_ids[0]
    feed = await fake.feed(topic.id, M1)
    assert [m.text() for m in feed.request.messages] == ["Explain"]
    assert feed.request.message_id == res.placeholder_ids[0]
    feed.push(*reply("Waves.", usage={"total_tokens": 12, "prompt_tokens": 5, "completion_tokens": 7}), END)
    await wait_status(mgr, topic.id, "done")
    row = repos.messages.get_message(res.placeholder_ids[0])
    assert row.status == "success" and "".join(getattr(p, "text", "") for p in row.parts) == "Waves."
    assert row.stats is not None and row.stats["total_tokens"] == 12 and "time_completion_ms" in row.stats
    assert "time_first_token_ms" in row.stats
    assert repos.usage.list(message_id=row.id)[0]["output_tokens"] == 7
    assert win.done and traces.path_for(topic.id).read_text().count("\n") == 1


async def test_multi_model_submit_creates_siblings_group_and_one_persistence_listener_each(setup: tuple) -> None:
    mgr, fake, repos, _ = setup
    topic = repos.topics.create_topic(model=M1)
    res = await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Q", M1, M2))
    assert res.execution_ids == [M1, M2]
    snap = mgr.inspect(topic.id)
    assert snap is not None and snap.is_multi_model
    assert sum(1 for lid in snap.listener_ids if lid.startswith("persistence:sqlite:")) == 2
    placeholders = [repos.messages.get_message(p) for p in res.placeholder_ids]
    assert {p.model_id for p in placeholders} == {M1, M2}
    assert placeholders[0].siblings_group_id is not None
    assert placeholders[0].siblings_group_id == placeholders[1].siblings_group_id
    (await fake.feed(topic.id, M1)).push(*text_chunks("one"), END)
    (await fake.feed(topic.id, M2)).push(*text_chunks("two"), END)
    await wait_status(mgr, topic.id, "done")
    texts = {repos.messages.get_message(p).model_id: repos.messages.get_message(p).parts[0].text  # type: ignore[union-attr]
             for p in res.placeholder_ids}
    assert texts == {M1: "one", M2: "two"}


async def test_regenerate_creates_a_sibling_placeholder_under_the_same_user_row(setup: tuple) -> None:
    mgr, fake, repos, _ = setup
    topic = repos.topics.create_topic(model=M1)
    first = await dispatch_stream_request(mgr, None, submit(topic.id, "Q"))
    (await fake.feed(topic.id, M1)).push(*text_chunks("v1"), END)
    await wait_status(mgr, topic.id, "done")
    regen = await dispatch_stream_request(mgr, None, AiStreamOpenRequest(
        topic_id=topic.id, trigger="regenerate-message", message_id=first.placeholder_ids[0]))
    assert regen.mode == "started"
    new = repos.messages.get_message(regen.placeholder_ids[0])
    assert new.parent_id == first.user_message_id and new.status == "pending"
    feed = await fake.feed(topic.id, M1, 1)
    assert [m.text() for m in feed.request.messages] == ["Q"]
    feed.push(*text_chunks("v2"), END)
    await wait_status(mgr, topic.id, "done")
    assert [c.id for c in repos.messages.children(first.user_message_id or "")] == [
        first.placeholder_ids[0], regen.placeholder_ids[0]]


async def test_provider_errors_are_typed(setup: tuple) -> None:
    mgr, _, repos, _ = setup
    topic = repos.topics.create_topic()  # no model
    with pytest.raises(DispatchError) as e:
        await dispatch_stream_request(mgr, None, submit(topic.id, "Q"))
    assert e.value.code == "no-model"
    with pytest.raises(DispatchError):
        await dispatch_stream_request(mgr, None, submit("missing-topic", "Q", M1))
    assert repos.messages.list_messages(topic.id) == []
    hold = mgr.pause("backup")
    with pytest.raises(WritesPausedError):
        await dispatch_stream_request(mgr, None, submit(topic.id, "Q", M1))
    hold.dispose()


async def test_provider_prepares_without_a_manager(repos: Repositories) -> None:
    topic = repos.topics.create_topic(model=M1)
    provider = PersistentChatContextProvider(repos)
    prepared = await provider.prepare_dispatch(Recorder("sub"), submit(topic.id, "hello"),
                                               DispatchContext(has_live_stream=False))
    assert [m.model_id for m in prepared.models] == [M1] and not prepared.is_multi_model
    assert [lst.id for lst in prepared.listeners] == ["sub", f"persistence:sqlite:{topic.id}:{M1}"]
    assert [m.role for m in prepared.reserved_messages] == ["user", "assistant"]
    steer = await provider.prepare_dispatch(None, submit(topic.id, "also this"), DispatchContext(has_live_stream=True))
    assert steer.models == [] and steer.pending_steer_user_message_id == steer.user_message_id
    assert repos.messages.get_message(steer.user_message_id or "").parent_id == prepared.models[0].anchor_message_id


async def test_continue_conversation_appends_to_the_anchor_after_an_approval(setup: tuple) -> None:
    mgr, fake, repos, _ = setup
    topic = repos.topics.create_topic(model=M1)
    first = await dispatch_stream_request(mgr, Recorder("wc:1"), submit(topic.id, "write a file"))
    anchor = first.placeholder_ids[0]
    (await fake.feed(topic.id, M1)).push(*text_chunks("ok"), *approval_chunks(), END)
    await wait_status(mgr, topic.id, "awaiting-approval")
    assert repos.messages.get_message(anchor).status == "success"
    seen: list[str] = []

    def on_status(key: str, value: TopicStatusSnapshotEntry) -> None:
        seen.append(value.status)

    mgr.shared_cache.subscribe(topic_stream_status_key(topic.id), on_status)
    res = await dispatch_stream_request(mgr, Recorder("wc:1"), MainContinueConversationRequest(
        topic_id=topic.id, anchor_message_id=anchor, model_id=M1))
    assert res.mode == "started" and seen[0] == "pending"  # the approval card clears on `pending`
    feed = await fake.feed(topic.id, M1, 1)
    assert feed.request.message_id == anchor
    feed.push(*text_chunks("written", part_id="t9"), END)
    await wait_status(mgr, topic.id, "done")
    row = repos.messages.get_message(anchor)
    assert row.status == "success"
    assert [p.type for p in row.parts] == ["text", "dynamic-tool", "text"]
    assert row.parts[-1].text == "written"  # type: ignore[union-attr]


async def test_temporary_topic_appends_in_memory_and_is_picked_before_persistent(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text)
    temp = TemporaryChatService()
    mgr.set_context_providers([TemporaryChatContextProvider(temp), PersistentChatContextProvider(repos)])
    t = temp.create_topic(model_id=M1)
    res = await dispatch_stream_request(mgr, None, submit(t.id, "hi"))
    assert res.mode == "started"
    snap = mgr.inspect(t.id)
    assert snap is not None and f"persistence:temp:{t.id}:{M1}" in snap.listener_ids
    (await fake.feed(t.id, M1)).push(*text_chunks("hey"), END)
    await until(lambda: len(temp.messages(t.id)) == 2, limit=3.0)
    msgs = temp.messages(t.id)
    assert [m.role for m in msgs] == ["user", "assistant"] and msgs[1].text() == "hey"
    assert msgs[1].metadata["status"] == "success"
    assert repos.topics.list_topics() == []


async def test_checkpoints_write_the_partial_onto_the_pending_row(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=20)
    mgr.set_context_providers([PersistentChatContextProvider(repos)])
    topic = repos.topics.create_topic(model=M1)
    res = await dispatch_stream_request(mgr, None, submit(topic.id, "long answer please"))
    pid = res.placeholder_ids[0]
    feed = await fake.feed(topic.id, M1)
    feed.push(*text_chunks("first half ")[:-1])

    def partial_text() -> str:
        row = repos.messages.get_message(pid)
        return "".join(getattr(p, "text", "") for p in row.parts)

    await until(lambda: partial_text() == "first half ", limit=3.0)
    assert repos.messages.get_message(pid).status == "pending"
    listener = next(lst for lst in mgr.registry.get(topic.id).listener_seq if isinstance(lst, PersistenceListener))
    writes_before = listener.backend.checkpoints  # type: ignore[attr-defined]
    feed.push(*text_chunks("second"))
    await until(lambda: partial_text().endswith("second"), limit=3.0)
    assert listener.backend.checkpoints > writes_before  # type: ignore[attr-defined]
    # The process dies here: at the next start the row keeps its parts and says why it stopped.
    recovered = recover_interrupted_messages(repos)
    assert recovered == [pid]
    row = repos.messages.get_message(pid)
    assert row.status == "error" and row.parts[-1].type == "data-error"
    assert row.parts[-1].data["code"] == "interrupted"  # type: ignore[union-attr]
    assert partial_text().startswith("first half ")
    assert recover_interrupted_messages(repos) == []
    mgr.abort(topic.id)
    await mgr.drain_in_flight(2000)
