"""A message sent after Stop, while the runtime still settles the stopped turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cherry_desktop.core.ai.runtime.events import TurnCompleteEvent
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import message_text
from tests.unit.agent_session.harness import Harness, make_harness
from tests.waiting import until


async def _stop_without_settling(h: Harness) -> None:
    h.driver.complete_on_interrupt = False  # the runtime settles only when told
    await h.send("long task")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.emit_text("part")
    await until(lambda: h.subscriber.chunks)


async def test_message_sent_after_stop_runs_as_the_next_turn(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    await _stop_without_settling(h)
    h.manager.abort(h.topic, "user")
    await until(lambda: any(t.status == "paused" for t in h.subscriber.terminals))
    assert h.runtime.is_session_busy(h.session.id)  # still settling the stopped turn

    result = await h.send("next question", mode="steer")
    assert result.follow_up == "queued"
    conn = h.driver.last
    conn.emit(TurnCompleteEvent(finish_reason="aborted"))
    sent = await asyncio.wait_for(conn.wait_sent(2), 5)  # bounds a hang, not a timing assertion
    assert message_text(sent.message) == "next question"
    assert not sent.system_reminder  # a new turn, not a steer into the stopped one
    conn.complete("answer")
    await h.idle()
    assert not h.runtime.is_queue_held(h.session.id)
    assert [(r.role, r.status) for r in h.rows()] == [
        ("user", "success"), ("assistant", "paused"), ("user", "success"), ("assistant", "success")]


async def test_follow_up_queued_before_stop_keeps_the_queue_held(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    await _stop_without_settling(h)
    await h.send("queued before the stop", mode="queue")
    h.manager.abort(h.topic, "user")
    await until(lambda: any(t.status == "paused" for t in h.subscriber.terminals))
    await h.send("sent after the stop")
    conn = h.driver.last
    conn.emit(TurnCompleteEvent(finish_reason="aborted"))
    await until(lambda: not h.runtime.is_session_busy(h.session.id))
    # The Stop holds the earlier follow-up; the later message waits behind it, nothing is sent.
    assert h.runtime.is_queue_held(h.session.id)
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == [
        "queued before the stop", "sent after the stop"]
    assert len(conn.sent) == 1
