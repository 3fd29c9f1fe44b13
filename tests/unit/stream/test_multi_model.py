"""Multi-model chat turns end to end in core: the sibling group, stopping one model, regenerating
one answer inside its group, and which answer the next turn's history holds (chosen, or the
first that succeeded when nothing was chosen)."""

from __future__ import annotations

import pytest

from cherry_desktop.core.ai.stream import (
    AiStreamManager,
    AiStreamOpenRequest,
    dispatch_stream_request,
)
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.sibling_groups import SiblingChoiceError, choose_answer, load_group
from tests.unit.stream.helpers import END, FakeAi, Recorder, submit, text_chunks
from tests.waiting import until

M1 = "p::m1"
M2 = "p::m2"


async def _idle(mgr: AiStreamManager, topic_id: str) -> None:
    await until(lambda: not mgr.has_live_stream(topic_id), limit=3.0)


async def _two_answers(mgr: AiStreamManager, fake: FakeAi, repos: Repositories, topic_id: str,
                       first: str = "one", second: str = "two") -> list[str]:
    res = await dispatch_stream_request(mgr, Recorder(), submit(topic_id, "Q", M1, M2))
    (await fake.feed(topic_id, M1)).push(*text_chunks(first), END)
    (await fake.feed(topic_id, M2)).push(*text_chunks(second), END)
    await _idle(mgr, topic_id)
    return list(res.placeholder_ids)


async def _history(fake: FakeAi, topic_id: str, model: str, index: int) -> list[str]:
    return [m.text() for m in (await fake.feed(topic_id, model, index)).request.messages]


async def test_next_turn_continues_from_the_chosen_answer_only(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    a, b = await _two_answers(mgr, fake, repos, topic.id)
    group = load_group(repos, repos.messages.get_message(a))
    assert group is not None and group.member_ids() == [a, b] and group.is_tip
    assert group.continues_from == a  # nothing chosen: the first answer that succeeded
    choose_answer(repos, b)
    assert repos.topics.get_topic(topic.id).active_node_id == b
    res = await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Next"))
    assert repos.messages.get_message(res.user_message_id or "").parent_id == b
    feed = await fake.feed(topic.id, M1, 1)
    assert [m.text() for m in feed.request.messages] == ["Q", "two", "Next"]
    feed.push(*text_chunks("three"), END)
    await _idle(mgr, topic.id)
    # The conversation went on: the group is closed to new choices and shows where it went.
    after = load_group(repos, repos.messages.get_message(a))
    assert after is not None and not after.is_tip and after.continues_from == b
    with pytest.raises(SiblingChoiceError) as e:
        choose_answer(repos, a)
    assert e.value.code == "group-continued"


async def test_without_a_choice_a_failed_first_answer_is_skipped(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    res = await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Q", M1, M2))
    (await fake.feed(topic.id, M1)).fail(RuntimeError("model one is down"))
    (await fake.feed(topic.id, M2)).push(*text_chunks("two"), END)
    await _idle(mgr, topic.id)
    a = res.placeholder_ids[0]
    assert repos.messages.get_message(a).status == "error"
    with pytest.raises(SiblingChoiceError) as e:
        choose_answer(repos, a)
    assert e.value.code == "not-finished"
    await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Next"))
    assert await _history(fake, topic.id, M1, 1) == ["Q", "two", "Next"]


async def test_stop_one_model_while_the_other_finishes(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    win = Recorder()
    res = await dispatch_stream_request(mgr, win, submit(topic.id, "Q", M1, M2))
    f1, f2 = await fake.feed(topic.id, M1), await fake.feed(topic.id, M2)
    f1.push(*text_chunks("partial")[:-1])
    await until(lambda: "partial" in win.text(), limit=3.0)
    mgr.abort(topic.id, model_id=M1)
    await until(lambda: repos.messages.get_message(res.placeholder_ids[0]).status == "paused", limit=3.0)
    assert mgr.has_live_stream(topic.id)  # the other model still answers
    f2.push(*text_chunks("full answer"), END)
    await _idle(mgr, topic.id)
    assert [repos.messages.get_message(p).status for p in res.placeholder_ids] == ["paused", "success"]
    group = load_group(repos, repos.messages.get_message(res.placeholder_ids[0]))
    assert group is not None and group.continues_from == res.placeholder_ids[1]


async def test_regenerating_one_answer_keeps_the_group_and_the_others(chat_with_history: tuple) -> None:
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    a, b = await _two_answers(mgr, fake, repos, topic.id)
    regen = await dispatch_stream_request(mgr, Recorder(), AiStreamOpenRequest(
        topic_id=topic.id, trigger="regenerate-message", message_id=b))
    assert regen.execution_ids == [M2]
    new_b = regen.placeholder_ids[0]
    assert repos.topics.get_topic(topic.id).active_node_id == a  # the choice did not move
    (await fake.feed(topic.id, M2, 1)).push(*text_chunks("two again"), END)
    await _idle(mgr, topic.id)
    group = load_group(repos, repos.messages.get_message(a))
    assert group is not None and group.member_ids() == [a, new_b]
    assert repos.messages.get_message(b).status == "success"  # the old version stays in the tree
    assert repos.messages.get_message(a).parts[0].text == "one"  # type: ignore[union-attr]
    # Regenerating the answer the conversation continues from moves the choice onto the new one.
    regen_a = await dispatch_stream_request(mgr, Recorder(), AiStreamOpenRequest(
        topic_id=topic.id, trigger="regenerate-message", message_id=a))
    (await fake.feed(topic.id, M1, 1)).push(*text_chunks("one again"), END)
    await _idle(mgr, topic.id)
    assert repos.topics.get_topic(topic.id).active_node_id == regen_a.placeholder_ids[0]
    group = load_group(repos, repos.messages.get_message(a))
    assert group is not None and group.member_ids() == [regen_a.placeholder_ids[0], new_b]


async def test_a_crash_mid_turn_leaves_no_answer_pending_and_the_next_turn_goes_on(chat_with_history: tuple) -> None:
    """kill -9 while both models stream: boot recovery turns both rows into error rows with
    their partial text; the group still shows both, none can be chosen, and the next turn
    continues from the first model's row (nothing succeeded)."""
    from cherry_desktop.core.ai.stream import recover_interrupted_messages

    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    res = await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Q", M1, M2))
    await fake.feed(topic.id, M1)
    await fake.feed(topic.id, M2)
    # The process dies here: nothing is told, the rows stay pending in the database.
    recovered = recover_interrupted_messages(repos)
    assert set(res.placeholder_ids) <= set(recovered)
    group = load_group(repos, repos.messages.get_message(res.placeholder_ids[0]))
    assert group is not None and [m.status for m in group.members] == ["error", "error"]
    assert group.continues_from == res.placeholder_ids[0]
    with pytest.raises(SiblingChoiceError):
        choose_answer(repos, res.placeholder_ids[1])
    await mgr.shutdown()


async def test_the_first_answer_to_finish_is_continued_from_and_stays(chat_with_history: tuple) -> None:
    """The second model finishes first: saved as the answer the chat continues from at once,
    and kept when the first model finishes later (nothing chosen)."""
    mgr, fake, repos = chat_with_history
    topic = repos.topics.create_topic(model=M1)
    res = await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Q", M1, M2))
    a, b = res.placeholder_ids
    f1, f2 = await fake.feed(topic.id, M1), await fake.feed(topic.id, M2)
    group = load_group(repos, repos.messages.get_message(a))
    assert group is not None and group.continues_from == a  # still being written: nothing else claims it
    f2.push(*text_chunks("two"), END)
    await until(lambda: repos.messages.get_message(b).status == "success", limit=3.0)
    assert repos.topics.get_topic(topic.id).active_node_id == b
    f1.push(*text_chunks("one"), END)
    await _idle(mgr, topic.id)
    group = load_group(repos, repos.messages.get_message(a))
    assert group is not None and group.continues_from == b
    await dispatch_stream_request(mgr, Recorder(), submit(topic.id, "Next"))
    assert await _history(fake, topic.id, M1, 1) == ["Q", "two", "Next"]
