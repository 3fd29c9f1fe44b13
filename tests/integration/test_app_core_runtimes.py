"""What every agent runtime does the same, through the whole app core with the real CLI and the
real pi (`open_runtime_app` runs each test once per runtime) against the scripted server:
Stop pauses the row and the session goes on; a queued follow-up is the next turn."""

from __future__ import annotations

import pytest

from cherry_desktop.core.ai.runtime.types import STEER_REMINDER_OPEN
from cherry_desktop.demo import HangReply, ScriptedModelServer, slow_text, text
from tests.integration.app_core import TURN_LIMIT_S, OpenApp, row_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]


async def test_user_stop_pauses_row_with_partial_text_and_next_turn_works(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_runtime_app()
    model_server.enqueue(HangReply(text_before="partial answer "), text("after the stop"))
    result = await app.send("start something long")
    assistant_id = result.placeholder_ids[0]
    await until(lambda: "partial" in app.text_streamed(assistant_id), limit=TURN_LIMIT_S)

    app.core.stream_manager.abort(app.topic, "user")
    # The window shows the stop as soon as its paused terminal arrives; the user may send at
    # once, while the runtime is still settling the interrupted turn.
    await until(lambda: any(t.status == "paused" for t in app.subscriber.terminals), limit=TURN_LIMIT_S)
    row = app.row(assistant_id)
    assert row.status == "paused"
    assert row_text(row) == "partial answer "

    await app.send("and now?")
    rows = await app.settled_rows(4)
    assert [(r.role, r.status) for r in rows] == [
        ("user", "success"), ("assistant", "paused"), ("user", "success"), ("assistant", "success")]
    assert row_text(rows[3]) == "after the stop"
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)
    # Same session: the stopped prompt is in the history the model sees next, and the new
    # message is a plain turn, not a steer into the stopped one.
    last = model_server.last_model_request()
    assert "start something long" in last.all_text()
    assert STEER_REMINDER_OPEN.split("\n")[1] not in last.last_user_text()


async def test_follow_up_in_queue_mode_runs_as_the_next_turn(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_runtime_app()
    model_server.enqueue(slow_text("First answer, streamed slowly.", delay_s=0.03, chunk_size=4),
                         text("Second answer."))
    first = await app.start_streaming("first question")
    queued = await app.send("second question", mode="queue")
    assert queued.follow_up == "queued"
    assert queued.placeholder_ids == []
    assert [r.user_message_id for r in app.core.agent_runtime.list_pending_turns(app.session_id)] == [
        queued.user_message_id]

    rows = await app.settled_rows(4)
    assert [(r.role, row_text(r)) for r in rows] == [
        ("user", "first question"),
        ("assistant", "First answer, streamed slowly."),
        ("user", "second question"),
        ("assistant", "Second answer."),
    ]
    assert all(r.status == "success" for r in rows)
    assert rows[1].id == first
    assert rows[2].id == queued.user_message_id
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2
    second_prompt = requests[1].last_user_text()
    assert "second question" in second_prompt
    assert STEER_REMINDER_OPEN.split("\n")[1] not in second_prompt  # a queued turn is not a steer
    # The same runtime session: the first answer is in the history of the queued turn.
    assert "First answer, streamed slowly." in requests[1].all_text()
