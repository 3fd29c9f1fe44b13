"""Chat steering: enqueue + yield + chain, drop on abort/error, approval gate, launch failure."""

from __future__ import annotations

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    DispatchContext,
    MainDispatchRequest,
    PersistentChatContextProvider,
    PreparedDispatch,
    StreamListener,
    TopicStatusSnapshotEntry,
    dispatch_stream_request,
    user_parts,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.state.shared_cache import topic_stream_status_key
from tests.unit.stream.helpers import END, FakeAi, Recorder, approval_chunks, step_boundary, text_chunks
from tests.waiting import until

M1 = "p::m1"
M2 = "p::m2"


def submit(topic: str, text: str, *models: str) -> AiStreamOpenRequest:
    return AiStreamOpenRequest(topic_id=topic, user_message_parts=user_parts(text), mentioned_model_ids=list(models))


def topic_status(mgr: AiStreamManager, topic: str) -> str | None:
    entry = mgr.shared_cache.get(topic_stream_status_key(topic))
    return entry.status if isinstance(entry, TopicStatusSnapshotEntry) else None


async def test_resubmit_mid_stream_yields_persists_success_and_chains_a_continuation(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    win = Recorder("wc:1")
    first = await dispatch_stream_request(mgr, win, submit(topic.id, "Tell me about cats"))
    feed = await fake.feed(topic.id, M1)
    feed.push(*text_chunks("Cats are"))
    await until(lambda: len(win.chunks) == 10, limit=3.0)

    steer = await dispatch_stream_request(mgr, Recorder("wc:2"), submit(topic.id, "and dogs?"))
    assert steer.mode == "injected" and steer.execution_ids == [M1]
    assert mgr.has_pending_steer(topic.id)
    assert feed.request.steer_yield is not None and feed.request.steer_yield() is True
    steer_row = repos.messages.get_message(steer.user_message_id or "")
    assert steer_row.role == "user" and steer_row.parent_id == first.placeholder_ids[0]

    # The turn reaches a step boundary and yields because a steer is queued.
    feed.push(step_boundary(), *text_chunks(" never sent"))
    cont = await fake.feed(topic.id, M1, 1)
    prior = repos.messages.get_message(first.placeholder_ids[0])
    assert prior.status == "success" and prior.parts[0].text == "Cats are"  # type: ignore[union-attr]
    assert win.done and not win.done[0].is_topic_done
    assert not mgr.has_pending_steer(topic.id)
    assert [m.text() for m in cont.request.messages] == ["Tell me about cats", "Cats are", "and dogs?"]
    new_anchor = cont.request.message_id
    assert repos.messages.get_message(new_anchor or "").parent_id == steer_row.id

    cont.push(*text_chunks("Dogs too."), END)
    await until(lambda: topic_status(mgr, topic.id) == "done", limit=3.0)
    # Both windows were carried forward onto the continuation, tagged with its anchor.
    assert win.chunks[-1][2] == new_anchor
    assert win.done[-1].is_topic_done and win.done[-1].anchor_message_id == new_anchor
    assert repos.messages.get_message(new_anchor or "").status == "success"


async def test_steer_is_dropped_when_the_turn_is_aborted(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "one"))
    feed = await fake.feed(topic.id, M1)
    steer = await dispatch_stream_request(mgr, None, submit(topic.id, "two"))
    assert mgr.has_pending_steer(topic.id)
    mgr.abort(topic.id)
    await until(lambda: topic_status(mgr, topic.id) == "aborted", limit=3.0)
    assert feed.closed and len(fake.requests) == 1
    assert repos.messages.get_message(steer.user_message_id or "").role == "user"  # dangling, resendable
    assert mgr.enqueue_pending_steer(topic.id, "late") is False  # a late steer after a stop is dropped


async def test_steer_is_dropped_when_the_turn_errors(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "one"))
    feed = await fake.feed(topic.id, M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "two"))
    feed.fail(RuntimeError("upstream 500"))
    await until(lambda: topic_status(mgr, topic.id) == "error", limit=3.0)
    assert not mgr.has_pending_steer(topic.id) and len(fake.requests) == 1


async def test_no_chaining_while_awaiting_approval_until_the_continuation_completes(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    first = await dispatch_stream_request(mgr, None, submit(topic.id, "edit a file"))
    feed = await fake.feed(topic.id, M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "also tests"))
    feed.push(*approval_chunks(), END)
    await until(lambda: topic_status(mgr, topic.id) == "awaiting-approval", limit=3.0)
    assert len(fake.requests) == 1 and mgr.has_pending_steer(topic.id)
    from cherry_desktop.core.ai.stream import MainContinueConversationRequest

    await dispatch_stream_request(mgr, None, MainContinueConversationRequest(
        topic_id=topic.id, anchor_message_id=first.placeholder_ids[0], model_id=M1))
    resumed = await fake.feed(topic.id, M1, 1)
    assert resumed.request.message_id == first.placeholder_ids[0]
    resumed.push(*text_chunks("edited"), END)
    chained = await fake.feed(topic.id, M1, 2)
    assert chained.request.messages[-1].text() == "also tests"
    chained.push(*text_chunks("tests added"), END)
    await until(lambda: topic_status(mgr, topic.id) == "done", limit=3.0)


async def test_multi_model_resubmit_queues_once_every_model_yields_one_continuation(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "Q", M1, M2))
    f1, f2 = await fake.feed(topic.id, M1), await fake.feed(topic.id, M2)
    await dispatch_stream_request(mgr, None, submit(topic.id, "steer"))
    assert mgr.inspect(topic.id).pending_steers != ()  # type: ignore[union-attr]
    assert len(mgr.inspect(topic.id).pending_steers) == 1  # type: ignore[union-attr]
    f1.push(*text_chunks("a"), step_boundary(), *text_chunks("x"))
    f2.push(*text_chunks("b"), step_boundary(), *text_chunks("y"))
    c1, c2 = await fake.feed(topic.id, M1, 1), await fake.feed(topic.id, M2, 1)
    assert c1.request.messages[-1].text() == "steer" == c2.request.messages[-1].text()
    c1.push(END)
    c2.push(END)
    await until(lambda: topic_status(mgr, topic.id) == "done", limit=3.0)
    assert len(fake.requests) == 4


class _FailingContinuation(PersistentChatContextProvider):
    async def prepare_dispatch(self, subscriber: StreamListener | None, req: MainDispatchRequest,
                               ctx: DispatchContext) -> PreparedDispatch:
        if req.trigger == "steer-continuation":
            raise OSError("disk full")
        return await super().prepare_dispatch(subscriber, req, ctx)


async def test_continuation_launch_failure_drives_the_topic_to_error(repos: Repositories) -> None:
    fake = FakeAi()
    mgr = AiStreamManager(stream_text=fake.stream_text, checkpoint_interval_ms=0)
    mgr.set_context_providers([_FailingContinuation(repos)])
    topic = repos.topics.create_topic(model=M1)
    win = Recorder("wc:1")
    await dispatch_stream_request(mgr, win, submit(topic.id, "one"))
    feed = await fake.feed(topic.id, M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "two"))
    feed.push(*text_chunks("ok"), END)
    await until(lambda: topic_status(mgr, topic.id) == "error", limit=3.0)
    assert win.errors and win.errors[0].is_topic_done and "disk full" in win.errors[0].error.message
    assert not mgr.has_live_stream(topic.id)


async def test_chaining_waits_for_the_last_quiesce_hold(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "one"))
    feed = await fake.feed(topic.id, M1)
    await dispatch_stream_request(mgr, None, submit(topic.id, "two"))
    a, b = mgr.pause("backup"), mgr.pause("restore")
    feed.push(*text_chunks("ok"), END)
    await until(lambda: feed.closed, limit=3.0)
    await until(lambda: mgr.inspect(topic.id).held, limit=3.0)
    assert mgr.has_live_stream(topic.id) and len(fake.requests) == 1
    a.dispose()
    assert len(fake.requests) == 1
    b.dispose()
    cont = await fake.feed(topic.id, M1, 1)
    cont.push(END)
    await until(lambda: topic_status(mgr, topic.id) == "done", limit=3.0)
