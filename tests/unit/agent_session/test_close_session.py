"""`close_session`: the host lets go of one session's runtime on demand, as the idle timer does but
without a prewarm, and keeps the session (its rows, queue and resume token) for its next turn.
The app uses it when an agent edit needs a new connection of an idle session."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cherry_desktop.core.ai.runtime.events import ResumeTokenEvent
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import message_text
from tests.unit.agent_session.harness import make_harness
from tests.waiting import until


async def test_closing_an_idle_session_lets_go_of_its_runtime_and_keeps_the_session(repos: Repositories,
                                                                                     tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, idle_window_s=0.05)
    conn = await h.first_turn("one")
    conn.complete("1", resume_token="tok-a")
    await h.idle()
    assert await h.runtime.close_session(h.session.id)
    assert conn.closed and h.runtime.get_entry(h.session.id) is None
    await asyncio.sleep(0.2)  # well past the idle window: nothing was prewarmed
    assert h.driver.idle_inputs == []
    assert [(r.role, r.status) for r in h.rows()] == [("user", "success"), ("assistant", "success")]
    # The next turn connects anew and resumes where the runtime was.
    await h.send("two")
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].resume_token == "tok-a"
    conn2.complete("2")
    await h.idle()
    assert [message_text(r.to_ui_message()) for r in h.rows()] == ["one", "1", "two", "2"]


async def test_closing_a_session_mid_turn_stops_the_turn_and_keeps_its_row_and_queue(repos: Repositories,
                                                                                      tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("long task")
    conn.emit(ResumeTokenEvent("tok-1"))
    conn.emit_text("partial")
    await until(lambda: h.subscriber.chunks)
    await h.send("queued", mode="queue")
    assert await h.runtime.close_session(h.session.id)
    assert conn.closed and h.runtime.get_entry(h.session.id) is None
    await until(lambda: h.subscriber.terminals)  # the windows are told once the row is saved
    assert [t.status for t in h.subscriber.terminals] == ["paused"]
    row = h.rows()[1]
    # Nothing is left streaming: the partial answer is kept as a stopped row, with its token.
    assert row.status == "paused" and message_text(row.to_ui_message()) == "partial"
    assert row.runtime_resume_token == "tok-1"
    # The queued follow-up stays, held for the user: never sent on its own, never dropped.
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["queued"]
    assert h.runtime.is_queue_held(h.session.id)
    assert len(conn.sent) == 1 and len(h.driver.connections) == 1


async def test_closing_a_session_with_no_live_runtime_does_nothing(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    assert not await h.runtime.close_session(h.session.id)
    assert h.driver.connections == [] and h.rows() == []
    assert repos.sessions.find_session(h.session.id) is not None


async def test_an_agent_edit_needing_a_rebuild_closes_an_idle_session(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, idle_window_s=0.05)
    conn = await h.first_turn("go")
    conn.complete("ok", resume_token="tok-a")
    await h.idle()
    h.driver.reconcile_result = "rebuild"
    task = h.runtime.update_agent(h.session.agent_id or "", permission_mode="bypassPermissions")
    assert task is not None
    await task
    # Let go at once, not at the end of the idle window, and not prewarmed on the old rows.
    assert conn.closed and h.runtime.get_entry(h.session.id) is None
    await asyncio.sleep(0.2)
    assert h.driver.idle_inputs == []
    h.driver.reconcile_result = "current"
    await h.send("next")
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].permission_mode == "bypassPermissions"
    assert h.driver.connect_inputs[1].resume_token == "tok-a"
    conn2.complete("fine")
    await h.idle()


def test_both_runtimes_close_their_prewarmed_handles_through_the_typed_hook() -> None:
    """The host finds the hook by protocol (`isinstance`): a runtime that renamed it would keep a
    prewarmed process of a closed or deleted session without an error; this says so first."""
    from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
    from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
    from cherry_desktop.core.ai.runtime.types import ClosesWarmSessions

    assert isinstance(ClaudeCodeRuntimeDriver(), ClosesWarmSessions)
    assert isinstance(PiRuntimeDriver(), ClosesWarmSessions)
