"""Deleting sessions and agents, editing agents, and models or providers that no longer exist:
all through the host, so the live runtime follows at once."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.agent_session import AgentSessionValidationError, agent_session_runtime_key
from cherry_desktop.core.ai.agent_session.sessions_admin import EDIT_NOT_APPLIED
from cherry_desktop.core.ai.agent_session.state import SessionState
from cherry_desktop.core.ai.runtime.events import ResumeTokenEvent, UsageEvent
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.messages import message_text
from tests.unit.agent_session.harness import Harness, make_harness
from tests.waiting import until


def published(h: Harness) -> dict[str, Any]:
    value = h.runtime.shared_cache.get(agent_session_runtime_key(h.session.id))  # type: ignore[union-attr]
    assert isinstance(value, dict)
    return value


# ---- deleting ------------------------------------------------------------------------------------


async def test_deleting_a_session_mid_turn_releases_its_runtime_and_drops_the_late_save(
        repos: Repositories, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("long task")
    conn.emit(ResumeTokenEvent("tok-1"))
    conn.emit_text("partial")
    await until(lambda: h.subscriber.chunks)
    conn.emit(UsageEvent(input_tokens=3, output_tokens=4))
    caplog.set_level(logging.WARNING)
    await h.runtime.delete_session(h.session.id)
    # Released at once: the connection is closed when delete returns, the entry is gone.
    assert conn.closed
    assert h.runtime.get_entry(h.session.id) is None
    assert repos.sessions.find_session(h.session.id) is None
    await until(lambda: not h.manager.has_live_stream(h.topic))
    await asyncio.sleep(0.02)
    # What the turn still wanted to save (its row, its usage) is dropped quietly.
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert repos.session_messages.list_messages(h.session.id) == []
    # A late event of the closed connection, and a new send, find no session.
    conn.emit_text("late")
    with pytest.raises(AgentSessionValidationError):
        await h.send("again")
    assert len(h.driver.connections) == 1


async def test_a_deleted_idle_session_is_never_prewarmed(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, idle_window_s=0.05)
    conn = await h.first_turn("one")
    conn.complete("1", resume_token="tok-a")
    await h.idle()
    await h.runtime.delete_session(h.session.id)
    assert conn.closed
    await asyncio.sleep(0.2)  # well past the idle window
    assert h.driver.idle_inputs == []


async def test_deleting_an_agent_releases_every_live_session_of_it(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    await h.runtime.delete_agent(h.session.agent_id or "")
    assert conn.closed
    assert repos.agents.find_agent(h.session.agent_id or "") is None
    assert h.runtime.get_entry(h.session.id) is None


# ---- models or providers that no longer exist ------------------------------------------------------


@pytest.mark.parametrize("gone", ["model", "provider"])
async def test_a_turn_on_a_vanished_model_is_refused_before_anything_is_written(
        repos: Repositories, tmp_path: Path, gone: str) -> None:
    h = make_harness(repos, tmp_path)
    if gone == "model":
        repos.providers.delete_model("demo::sonnet")
    else:
        repos.providers.delete_provider("demo")
    with pytest.raises(AgentSessionValidationError) as info:
        await h.send("hi")
    assert info.value.code == ("model-not-found" if gone == "model" else "provider-not-found")
    assert h.rows() == [] and h.driver.connections == []


async def test_a_queued_turn_on_a_vanished_model_is_held_with_the_error_shown(repos: Repositories,
                                                                             tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("first")
    await h.send("queued")
    repos.providers.delete_model("demo::sonnet")
    conn.complete("done")
    await h.idle()
    # Not sent; kept and held; the windows on the session see why.
    assert len(conn.sent) == 1
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["queued"]
    assert h.runtime.is_queue_held(h.session.id)
    assert published(h)["issue"]["code"] == "model-not-found"
    assert published(h)["held"] is True
    assert [r.role for r in h.rows()] == ["user", "assistant", "user"]


async def test_a_queued_turn_whose_placeholder_cannot_be_saved_shows_an_error(repos: Repositories,
                                                                            tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("first")
    await h.send("queued")
    real = repos.session_messages.create_message

    def failing(**kw: Any) -> Any:
        if kw.get("role") == "assistant":
            raise OSError("disk full")
        return real(**kw)

    repos.session_messages.create_message = failing  # type: ignore[method-assign]
    conn.complete("done")
    await h.idle()
    repos.session_messages.create_message = real  # type: ignore[method-assign]
    assert len(conn.sent) == 1
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["queued"]
    assert published(h)["issue"]["code"] == "placeholder-failed"
    # The window on the session is told: the stream held for the queued turn ends as an error.
    last = h.subscriber.terminals[-1]
    assert last.status == "error" and last.error.code == "placeholder-failed"  # type: ignore[attr-defined]
    # Resumed by the user once the disk is fine again: it runs.
    assert await h.runtime.resume_pending_turns(h.session.id)
    sent = await conn.wait_sent(2)
    assert message_text(sent.message) == "queued"
    conn.complete("ok")
    await h.idle()
    assert published(h)["issue"] is None


# ---- editing an agent --------------------------------------------------------------------------------


async def test_an_agent_edit_reaches_the_live_connection_at_once(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    task = h.runtime.update_agent(h.session.agent_id or "", permission_mode="plan", disabled_tools=["Bash"])
    assert task is not None
    await task
    assert conn.reconciles[-1].permission_mode == "plan"
    assert conn.reconciles[-1].disabled_tools == frozenset({"Bash"})
    assert not conn.closed and h.runtime.is_session_busy(h.session.id)
    conn.complete("ok")
    await h.idle()
    assert h.rows()[-1].status == "success"


async def test_an_agent_edit_needing_a_rebuild_waits_for_the_turn_to_end(repos: Repositories,
                                                                        tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    conn = await h.first_turn("go")
    h.driver.reconcile_result = "rebuild"
    task = h.runtime.update_agent(h.session.agent_id or "", permission_mode="bypassPermissions")
    assert task is not None
    await task
    assert not conn.closed  # the running turn is not cut
    conn.complete("ok")
    await h.idle()
    assert conn.closed
    h.driver.reconcile_result = "current"
    await h.send("next")
    conn2 = await h.driver.wait_connection(2)
    await conn2.wait_sent(1)
    assert h.driver.connect_inputs[1].permission_mode == "bypassPermissions"
    conn2.complete("fine")
    await h.idle()


async def test_an_agent_edit_the_connection_refuses_fails_closed(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("go")
    conn.emit_text("working")
    await until(lambda: h.subscriber.chunks)
    await h.send("queued")
    h.driver.reconcile_result = "failed"
    task = h.runtime.update_agent(h.session.agent_id or "", permission_mode="plan")
    assert task is not None
    await task
    # The stream pauses, the connection goes, the queue stays (held), the user sees why.
    assert conn.closed
    await h.idle()
    assert h.rows()[1].status == "paused"
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["queued"]
    assert h.runtime.is_queue_held(h.session.id)
    assert published(h)["issue"]["code"] == EDIT_NOT_APPLIED
    assert len(conn.sent) == 1
    entry = h.runtime.get_entry(h.session.id)
    assert entry is not None and entry.state is SessionState.IDLE


async def test_a_session_deleted_while_it_connects_never_keeps_the_connection(repos: Repositories,
                                                                             tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    gate, connecting = asyncio.Event(), asyncio.Event()
    real_connect = h.driver.connect

    async def slow_connect(input: Any) -> Any:
        connecting.set()
        await gate.wait()
        return await real_connect(input)

    h.driver.connect = slow_connect  # type: ignore[method-assign]
    await h.send("go")
    await asyncio.wait_for(connecting.wait(), 5)
    await h.runtime.delete_session(h.session.id)
    gate.set()
    await until(lambda: not h.manager.has_live_stream(h.topic))
    await asyncio.sleep(0.02)
    # The connect was abandoned with its turn (or, had it finished, closed at once): no
    # connection of the deleted session is left open, nothing was sent.
    assert all(c.closed and c.sent == [] for c in h.driver.connections)
    assert h.runtime.get_entry(h.session.id) is None
