"""Fresh turn and live follow-up (steer / queue) through the real AiStreamManager."""

from __future__ import annotations

from pathlib import Path

from cherry_desktop.core.ai.runtime.events import ResumeTokenEvent, SteerBoundaryEvent, SteerUndeliveredEvent
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import message_text
from tests.unit.agent_session.harness import MODEL, make_harness
from tests.waiting import until


async def test_fresh_turn_saves_rows_begins_and_streams(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    result = await h.send("hello")
    # 3. user row + pending assistant row saved before the stream
    user, assistant = h.rows()
    assert (user.role, message_text(user.to_ui_message())) == ("user", "hello")
    assert (assistant.role, assistant.status, assistant.model_id) == ("assistant", "pending", MODEL)
    assert result.mode == "started" and result.placeholder_ids == [assistant.id]
    assert result.user_message_id == user.id
    # 5. begin_turn's listeners are on the stream, in persistence -> terminal -> trace order
    snap = h.manager.inspect(h.topic)
    assert snap is not None
    ids = list(snap.listener_ids)
    assert ids[0] == "wc:1"
    assert ids[1].startswith("persistence:agents-db:") and ids[2].startswith("runtime:terminal:")
    assert ids[3].startswith("persistence:trace:")
    # 7/8. stream_text routed to open_turn_stream: a connection was made and the turn admitted by send()
    conn = await h.driver.wait_connection()
    sent = await conn.wait_sent(1)
    assert sent.message.id == user.id and not sent.system_reminder
    # 6. the prepared request carried the runtime metadata and the seed messages
    assert h.driver.connect_inputs[0].context.session.id == h.session.id
    conn.complete("hi there", resume_token="tok-1")
    await h.idle()
    row = h.row(assistant.id)
    assert row.status == "success"
    assert message_text(row.to_ui_message()) == "hi there"
    assert row.runtime_resume_token == "tok-1"
    assert h.subscriber.text_for(assistant.id) == "hi there"
    assert h.topic_status() == "done"
    assert not h.runtime.is_session_busy(h.session.id)


async def test_follow_up_is_redirected_and_rolled_at_the_steer_boundary(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=True)
    await h.send("build it")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.emit_text("working on it. ")
    await until(lambda: h.subscriber.chunks)
    _, a1 = h.rows()
    # live follow-up: user row only, no placeholder, no second begin_turn; redirect into the turn
    res = await h.send("also add tests")
    assert res.mode == "injected" and res.follow_up == "injected" and res.placeholder_ids == []
    assert len(h.rows()) == 3
    steer = h.rows()[-1]
    assert steer.role == "user" and len(conn.sent) == 1
    assert [r.message.id for r in conn.redirects] == [steer.id] and conn.redirects[0].system_reminder
    assert h.runtime.list_pending_turns(h.session.id) == []
    # the driver injects it: boundary, then the post-steer assistant message
    conn.emit(SteerBoundaryEvent(message_ids=(steer.id,)))
    conn.emit_text("tests added.")
    conn.emit(ResumeTokenEvent("tok-2"))
    conn.complete()
    await h.idle()
    rows = h.rows()
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    assert rows[1].id == a1.id and rows[2].id == steer.id
    a2 = rows[3]
    assert message_text(rows[1].to_ui_message()) == "working on it. " and rows[1].status == "success"
    assert message_text(a2.to_ui_message()) == "tests added." and a2.status == "success"
    assert a2.runtime_resume_token == "tok-2"
    # the topic stream stayed alive across the roll: the window got both rows' chunks, one done
    assert h.subscriber.text_for(a1.id) == "working on it. "
    assert h.subscriber.text_for(a2.id) == "tests added."
    assert [t.anchor_message_id for t in h.subscriber.terminals] == [a1.id, a2.id]
    assert [t.is_topic_done for t in h.subscriber.terminals] == [False, True]
    assert h.topic_status() == "done"


async def test_a_roll_in_one_burst_keeps_each_rows_text_while_the_pre_steer_execution_still_waits(
        repos: Repositories, tmp_path: Path) -> None:
    """Pre-steer text, the boundary, post-steer text and the result arrive in one reader burst:
    the continuation's chunks buffer in its own queue while the pre-steer execution has not yet
    taken its end, and each row, the window and the order stay right."""
    h = make_harness(repos, tmp_path, supports_redirect=True)
    await h.send("build it")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    await h.send("also add tests")
    _, a1, steer = h.rows()
    # One tick, no await in between: nothing the executions do runs until the burst is over.
    conn.emit_text("working on it. ")
    conn.emit(SteerBoundaryEvent(message_ids=(steer.id,)))
    conn.emit_text("tests ")
    conn.emit_text("added.")
    conn.emit(ResumeTokenEvent("tok-2"))
    conn.complete()
    await h.idle()
    rows = h.rows()
    assert [r.id for r in rows[:3]] == [rows[0].id, a1.id, steer.id] and len(rows) == 4
    a2 = rows[3]
    assert [message_text(r.to_ui_message()) for r in (rows[1], a2)] == ["working on it. ", "tests added."]
    assert rows[1].status == a2.status == "success" and a2.runtime_resume_token == "tok-2"
    assert h.subscriber.text_for(a1.id) == "working on it. "
    assert h.subscriber.text_for(a2.id) == "tests added."
    assert [t.anchor_message_id for t in h.subscriber.terminals] == [a1.id, a2.id]
    assert [t.is_topic_done for t in h.subscriber.terminals] == [False, True]
    assert h.topic_status() == "done" and h.runtime.is_session_settled(h.session.id)


async def test_follow_up_without_redirect_support_queues_and_runs_next(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    await h.send("first")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    res = await h.send("second")
    assert res.mode == "injected" and res.follow_up == "queued"
    queued = h.runtime.list_pending_turns(h.session.id)
    assert [q.text for q in queued] == ["second"] and queued[0].is_steer
    assert h.runtime.is_session_busy(h.session.id)
    assert not h.runtime.is_session_settled(h.session.id)
    conn.complete("one")
    # the successor starts once terminal persistence returned the runtime to idle
    sent = await conn.wait_sent(2)
    assert message_text(sent.message) == "second" and sent.system_reminder  # wrapped as a steer
    assert h.runtime.list_pending_turns(h.session.id) == []
    conn.complete("two")
    await h.idle()
    assert h.runtime.is_session_settled(h.session.id) and not h.manager.has_live_stream(h.topic)
    rows = h.rows()
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    assert [message_text(r.to_ui_message()) for r in rows] == ["first", "one", "second", "two"]
    assert all(r.status == "success" for r in rows)
    assert len(h.driver.connections) == 1  # the connection stayed on the entry
    assert h.subscriber.text_for(rows[3].id) == "two"  # the successor carried the window


async def test_queue_mode_is_never_redirected_and_is_not_a_steer(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=True)
    await h.send("first")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    res = await h.send("later", mode="queue")
    assert res.follow_up == "queued" and conn.redirects == []
    conn.complete("ok")
    sent = await conn.wait_sent(2)
    assert not sent.system_reminder
    conn.complete("done")
    await h.idle()


async def test_steer_undelivered_is_queued_as_the_next_turn(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=True)
    await h.send("first")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.emit_text("thinking")
    await h.send("steer me")
    steer = h.rows()[-1]
    assert conn.redirects
    conn.emit(SteerUndeliveredEvent(message_id=steer.id))
    conn.complete()
    sent = await conn.wait_sent(2)
    assert sent.message.id == steer.id and sent.system_reminder
    conn.complete("answered")
    await h.idle()
    assert [r.role for r in h.rows()] == ["user", "assistant", "user", "assistant"]
