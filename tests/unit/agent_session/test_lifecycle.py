"""Next-turn starts, resume tokens, idle and shutdown, write quiesce, Stop, failures."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cherry_desktop.core.ai.runtime.events import (
    ErrorEvent,
    ResumeTokenEvent,
    SteerBoundaryEvent,
    ToolApprovalRequestEvent,
)
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import message_text
from tests.unit.agent_session.harness import attach_harness, make_harness
from tests.waiting import until


async def test_start_next_turn_rechecks_ownership_before_touching_the_queue(repos: Repositories,
                                                                             tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("first")
    await h.send("queued")
    rows_before = len(h.rows())
    # premature: the runtime still owns the turn -> no queue, DB or stream side effects
    assert await h.runtime.start_next_turn(h.session.id) is False
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["queued"]
    assert len(h.rows()) == rows_before and len(conn.sent) == 1
    conn.complete("a")
    await conn.wait_sent(2)
    conn.complete("b")
    await h.idle()


async def test_error_turn_records_the_resume_token_and_a_cold_session_hydrates_it(repos: Repositories,
                                                                                  tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    assert h.driver.connect_inputs[0].resume_token is None  # brand-new session
    conn.emit(ResumeTokenEvent("tok-err"))
    conn.emit_text("partial")
    conn.emit(ErrorEvent(message="api exploded", code="api_error", fatal=True))
    await h.idle()
    _, assistant = h.rows()
    row = h.row(assistant.id)
    assert row.status == "error" and row.runtime_resume_token == "tok-err"
    assert message_text(row.to_ui_message()) == "partial"
    assert row.parts[-1].type == "data-error"
    await until(lambda: conn.closed)  # fatal: torn down
    # a new app run (cold entry) resumes from the newest persisted token
    await h.runtime.stop()
    h2 = attach_harness(repos, h.paths, h.driver, _registry(h), h.session, h.workspace)
    await h2.send("again")
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].resume_token == "tok-err"
    assert h.driver.connect_inputs[1].get_last_resume_token() == "tok-err"
    conn2.complete("ok", resume_token="tok-2")
    await h2.idle()
    assert repos.session_messages.get_last_runtime_resume_token(h.session.id) == "tok-2"
    await h2.runtime.stop()


def _registry(h: object) -> RuntimeDriverRegistry:
    reg = RuntimeDriverRegistry()
    reg.register(h.driver)  # type: ignore[attr-defined]
    return reg


async def test_idle_window_keeps_then_closes_and_prewarms(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, idle_window_s=0.05)
    conn = await h.first_turn("one")
    conn.complete("1", resume_token="tok-a")
    await h.idle()
    # within the window a new turn reuses the entry and its connection
    await h.send("two")
    await conn.wait_sent(2)
    assert len(h.driver.connections) == 1
    assert conn.reconciles  # live agent state re-derived on the warm connection
    conn.complete("2", resume_token="tok-b")
    await h.idle()
    await asyncio.wait_for(h.driver.idle_event.wait(), 5)
    assert conn.closed
    assert h.driver.idle_inputs[0].resume_token == "tok-b"  # prewarm with the latest token
    assert h.runtime.get_entry(h.session.id) is None
    # next turn: a new connection, resuming from the persisted token
    await h.send("three")
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].resume_token == "tok-b"
    conn2.complete("3")
    await h.idle()
    await h.runtime.stop()


async def test_a_message_sent_while_the_idle_close_runs_starts_its_turn(repos: Repositories, tmp_path: Path) -> None:
    """The idle window ran out and the runtime is still closing (the entry is CLOSING) when the
    user sends: the turn waits for the close, then starts on a new connection (no error row)."""
    h = make_harness(repos, tmp_path, idle_window_s=0.05)
    conn = await h.first_turn("one")
    conn.complete("1", resume_token="tok-a")
    await h.idle()
    h.driver.close_gate = asyncio.Event()
    await until(lambda: conn.closed)
    entry = h.runtime.get_entry(h.session.id)
    assert entry is not None and entry.closed  # mid-close
    sending = asyncio.ensure_future(h.send("two"))
    await asyncio.sleep(0.05)
    assert not sending.done()  # it waits for the close
    h.driver.close_gate.set()
    result = await sending
    assert result.mode == "started"
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].resume_token == "tok-a"
    conn2.complete("2")
    await h.idle()
    assert [r.status for r in h.rows()] == ["success"] * 4
    await h.runtime.stop()


async def test_stop_closes_every_connection_and_the_drivers(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("x")
    conn.complete("y")
    await h.idle()
    await h.runtime.stop()
    assert conn.closed and h.driver.shut_down
    assert h.runtime.get_entry(h.session.id) is None


async def test_write_quiesce_gates_successor_starts_before_the_queue(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("first")
    await h.send("queued")
    hold = h.runtime.pause("backup")
    assert h.runtime.writes_paused
    conn.complete("done")
    await until(lambda: h.topic_status() == "done")
    await asyncio.sleep(0.01)
    # suppressed: the queue is untouched, the session stays busy, dispatches keep queueing
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["queued"]
    assert h.runtime.is_session_busy(h.session.id) and len(conn.sent) == 1
    res = await h.send("another")
    assert res.follow_up == "queued"
    assert (await h.runtime.drain_in_flight(1000)).straggler_ids == []
    assert h.runtime.list_active_work() == []
    hold.dispose()
    sent = await conn.wait_sent(2)
    assert message_text(sent.message) == "queued"
    conn.complete("q1")
    sent = await conn.wait_sent(3)
    assert message_text(sent.message) == "another"
    conn.complete("q2")
    await h.idle()
    assert h.runtime.list_pending_turns(h.session.id) == []


async def test_quiesce_defers_a_steer_continuation_until_resumed(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    conn.emit_text("before ")
    await h.send("steer")
    steer = h.rows()[-1]
    hold = h.runtime.pause("restore")
    conn.emit(SteerBoundaryEvent(message_ids=(steer.id,)))
    conn.emit_text("after")
    conn.complete()
    await until(lambda: h.subscriber.terminals)
    await asyncio.sleep(0.01)
    assert len(h.rows()) == 3  # no continuation placeholder while paused
    assert h.manager.has_live_stream(h.topic)  # held across the roll
    hold.dispose()
    await h.idle()
    rows = h.rows()
    assert [message_text(r.to_ui_message()) for r in rows] == ["go", "before ", "steer", "after"]


async def test_continuation_placeholder_failure_terminates_the_held_stream(repos: Repositories, tmp_path: Path,
                                                                           monkeypatch: object) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    conn.emit_text("a")
    await h.send("s")
    steer = h.rows()[-1]
    real = repos.session_messages.create_message

    def failing(**kw: object) -> object:
        if kw.get("role") == "assistant":
            raise OSError("disk full")
        return real(**kw)  # type: ignore[arg-type]

    repos.session_messages.create_message = failing  # type: ignore[method-assign]
    conn.emit(SteerBoundaryEvent(message_ids=(steer.id,)))
    conn.emit_text("b")
    await until(lambda: h.topic_status() == "error")
    await until(lambda: not h.runtime.is_session_busy(h.session.id))
    assert conn.interrupts == 1
    assert h.subscriber.terminals[-1].status == "error"
    repos.session_messages.create_message = real  # type: ignore[method-assign]


async def test_user_stop_interrupts_the_runtime_and_holds_the_queue(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("long task")
    conn.emit_text("part")
    await until(lambda: h.subscriber.chunks)
    await h.send("then this")
    h.manager.abort(h.topic, "user")
    await until(lambda: not h.runtime.is_session_busy(h.session.id))
    assert conn.interrupts == 1
    assistant = h.rows()[1]
    assert h.row(assistant.id).status == "paused"
    # the queued follow-up is kept and offered, not fired after a Stop
    assert h.runtime.is_queue_held(h.session.id)
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["then this"]
    assert await h.runtime.resume_pending_turns(h.session.id)
    sent = await conn.wait_sent(2)
    assert message_text(sent.message) == "then this"
    conn.complete("ok")
    await h.idle()


async def test_tool_approval_request_reaches_the_ui_and_the_answer_the_runtime(repos: Repositories,
                                                                              tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("rm -rf build")
    conn.emit(ToolApprovalRequestEvent(approval_id="ap1", tool_call_id="t1", tool_name="Bash"))
    await until(lambda: any(c.type == "tool-approval-request" for _, c in h.subscriber.chunks))
    ok = await h.runtime.respond_tool_approval(h.session.id, "ap1", ApprovalDecision(approved=True))
    assert ok and conn.approvals[0][0] == "ap1" and conn.approvals[0][1].approved
    conn.complete("done")
    await h.idle()


async def test_connection_dying_mid_turn_fails_the_turn_and_reconnects_next(repos: Repositories,
                                                                            tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    conn.emit(ResumeTokenEvent("tok-x"))
    conn.die(RuntimeError("cli crashed"))
    await h.idle()
    row = h.rows()[1]
    assert row.status == "error" and row.runtime_resume_token == "tok-x"
    await h.send("retry")
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].resume_token == "tok-x"
    conn2.complete("fine")
    await h.idle()


async def test_send_failure_is_a_pre_stream_error_and_releases(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    h.driver.fail_connect = True
    await h.send("go")
    await h.idle()
    row = h.rows()[1]
    assert row.status == "error" and "connect failed" in str(row.parts[-1].data)  # type: ignore[union-attr]
    h.driver.fail_connect = False
    conn = await h.first_turn("again")
    conn.complete("ok")
    await h.idle()


async def test_queued_follow_ups_sort_with_their_answers(repos: Repositories, tmp_path: Path) -> None:
    """Two follow-ups queued during one turn: each user row sorts right above its own answer
    (U1 A1 U2 A2 U3 A3), not all questions first."""
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("one")
    assert (await h.send("two", mode="queue")).follow_up == "queued"
    assert (await h.send("three", mode="queue")).follow_up == "queued"
    conn.complete("answer one")
    await conn.wait_sent(2)
    conn.complete("answer two")
    await conn.wait_sent(3)
    conn.complete("answer three")
    await h.idle()
    rows = h.rows()
    assert [(r.role, message_text(r.to_ui_message())) for r in rows] == [
        ("user", "one"), ("assistant", "answer one"),
        ("user", "two"), ("assistant", "answer two"),
        ("user", "three"), ("assistant", "answer three"),
    ]
    assert [r.ordering for r in rows] == sorted(r.ordering for r in rows)


async def test_the_resume_token_is_written_to_the_running_row_as_soon_as_reported(repos: Repositories,
                                                                                  tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    assistant = h.rows()[1]
    conn.emit(ResumeTokenEvent("tok-early"))
    await until(lambda: h.row(assistant.id).runtime_resume_token == "tok-early")
    assert h.row(assistant.id).status == "pending"  # mid-turn: a crash now still resumes
    assert repos.session_messages.get_last_runtime_resume_token(h.session.id) == "tok-early"
    conn.complete("done", resume_token="tok-late")
    await h.idle()
    assert h.row(assistant.id).runtime_resume_token == "tok-late"
