"""Per-request usage records of a runtime turn: bound to the segment's assistant row when the
request ends, written once the turn settled (not between the last chunk and the result)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cherry_desktop.core.ai.runtime.events import ErrorEvent, SteerBoundaryEvent, UsageEvent
from cherry_desktop.core.data import Repositories
from tests.fakes.scripted_driver import ScriptedConnection
from tests.unit.agent_session.harness import Harness, make_harness
from tests.waiting import until


def _usage(output_tokens: int) -> UsageEvent:
    return UsageEvent(input_tokens=5, output_tokens=output_tokens, cache_read_tokens=0, cache_write_tokens=0,
                      time_first_token_ms=10, time_completion_ms=20, model="claude-x")


async def _running_turn(repos: Repositories, tmp_path: Path) -> tuple[Harness, ScriptedConnection]:
    h = make_harness(repos, tmp_path)
    await h.send("hello")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    return h, conn


def _usage_rows(h: Harness) -> list[dict[str, Any]]:
    return h.repos.usage.list(session_id=h.session.id)


async def test_usage_rows_are_written_after_the_turn_settles(repos: Repositories, tmp_path: Path) -> None:
    h, conn = await _running_turn(repos, tmp_path)
    conn.emit_text("first request ")
    conn.emit(_usage(3))
    conn.emit_text("second request")
    conn.emit(_usage(4))
    await until(lambda: "second request" in h.subscriber.text_for(h.rows()[1].id))
    assert _usage_rows(h) == []  # the turn is still live
    conn.complete()
    await h.idle()
    await until(lambda: len(_usage_rows(h)) == 2)
    assistant = h.rows()[1]
    rows = _usage_rows(h)
    assert [(r["message_id"], r["model_id"], r["output_tokens"]) for r in rows] == [
        (assistant.id, "claude-x", 3), (assistant.id, "claude-x", 4)]


async def test_usage_of_a_failed_turn_is_written_too(repos: Repositories, tmp_path: Path) -> None:
    h, conn = await _running_turn(repos, tmp_path)
    conn.emit_text("partial")
    conn.emit(_usage(2))
    conn.emit(ErrorEvent(message="api failed", code="api_error"))
    await h.idle()
    await until(lambda: len(_usage_rows(h)) == 1)
    assert h.rows()[1].status == "error"
    assert _usage_rows(h)[0]["message_id"] == h.rows()[1].id


async def test_usage_outside_a_live_turn_is_written_at_once(repos: Repositories, tmp_path: Path) -> None:
    h, conn = await _running_turn(repos, tmp_path)
    conn.complete("done")
    await h.idle()
    conn.emit(_usage(7))  # e.g. a late request report after the result
    await until(lambda: len(_usage_rows(h)) == 1)
    assert _usage_rows(h)[0]["message_id"] is None


async def test_usage_before_a_steer_boundary_binds_to_the_pre_steer_row(repos: Repositories, tmp_path: Path) -> None:
    """Spec: the pre-steer request's usage binds to A1a, the next request's to the continuation
    A2 (bound when each request ends, though both are written after the turn settled)."""
    h, conn = await _running_turn(repos, tmp_path)
    conn.emit_text("working. ")
    conn.emit(_usage(3))
    await until(lambda: h.subscriber.chunks)
    assert (await h.send("also this")).follow_up == "injected"
    steer = h.rows()[-1]
    conn.emit(SteerBoundaryEvent(message_ids=(steer.id,)))
    conn.emit_text("done.")
    conn.emit(_usage(4))
    conn.complete()
    await h.idle()
    await until(lambda: len(_usage_rows(h)) == 2)
    rows = h.rows()
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    a1, a2 = rows[1], rows[3]
    assert [(r["message_id"], r["output_tokens"]) for r in _usage_rows(h)] == [(a1.id, 3), (a2.id, 4)]
