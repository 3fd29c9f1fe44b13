"""Claude Code on any provider: a Claude Code agent whose model is on an OpenAI-compatible
provider runs the real CLI against Cherry's gateway, which translates onto the scripted
server's OpenAI side. Usage is recorded once, by the gateway (one record per provider call,
bound to the row it belongs to; the SDK's usage messages are not recorded)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.gateway.control import GatewayControl
from cherry_desktop.core.net.http_server import bind_loopback
from cherry_desktop.demo import ScriptedModelServer, StreamErrorReply, http_error, slow_text, text, tool_use
from cherry_desktop.demo.cli_env import NO_RETRY_CLI_ENV
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp, row_text
from tests.waiting import until

pytestmark = pytest.mark.integration

MODEL = "oai::m1"


def free_port() -> int:
    sock = bind_loopback(0)
    port = int(sock.getsockname()[1])
    sock.close()
    return port


@pytest.fixture
async def gw(open_app: OpenApp, model_server: ScriptedModelServer) -> AsyncIterator[tuple[App[Any], GatewayControl]]:
    demo = await open_app()
    core = demo.core
    core.repos.providers.upsert_provider(id="oai", name="Scripted OpenAI", type="openai-compatible",
                                         base_url=model_server.base_url + "/v1",
                                         settings={"demo": True, "env": dict(NO_RETRY_CLI_ENV)})
    core.repos.providers.upsert_model(provider_id="oai", model_id="m1", name="Model one")
    demo_session = core.repos.sessions.get_session(demo.session_id)
    session = core.repos.sessions.create_session(agent_id=demo_session.agent_id, workspace_id=demo_session.workspace_id,
                                                 name="On an OpenAI-compatible model", model=MODEL)
    control = GatewayControl(core, binding=core.agent_runtime)
    core.agent_runtime.set_gateway_access(control)
    core.settings.update(gateway_enabled=True, gateway_port=free_port())
    assert (await control.apply()).state == "running"
    try:
        yield App(core=core, agent_type="claude-code", session_id=session.id, workspace=demo.workspace), control
    finally:
        await control.stop()


def usage_rows(app: App[Any]) -> list[dict[str, Any]]:
    return app.core.repos.usage.list(session_id=app.session_id)


async def test_a_text_turn_through_the_gateway(gw: tuple[App[Any], GatewayControl],
                                               model_server: ScriptedModelServer) -> None:
    app, _ = gw
    model_server.enqueue(text("Hello through the gateway."))
    row = await app.turn("hi")
    assert row.status == "success" and row_text(row) == "Hello through the gateway."
    requests = model_server.requests_for_model_turns()
    assert [r.path for r in requests] == ["/v1/chat/completions"]
    assert requests[0].json["model"] == "m1" and "hi" in requests[0].last_user_text()
    # The CLI's request carried the gateway key over the gateway, never the provider's key.
    assert requests[0].key_sha256 == ""
    records = usage_rows(app)
    assert len(records) == 1  # the gateway's record; the SDK's usage message is not recorded
    assert records[0]["message_id"] == row.id and records[0]["model_id"] == MODEL
    assert records[0]["output_tokens"] > 0


async def test_a_tool_turn_with_an_approval(gw: tuple[App[Any], GatewayControl],
                                            model_server: ScriptedModelServer) -> None:
    app, _ = gw
    note = app.workspace / "gateway-note.md"
    model_server.enqueue(tool_use("Write", {"file_path": str(note), "content": "via the gateway\n"},
                                  preamble="Writing the note."), text("The note is written."))
    result = await app.send("write a note")
    await until(lambda: bool(app.approval_ids()), limit=TURN_LIMIT_S)
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, app.approval_ids()[0],
                                                              ApprovalDecision(approved=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success" and "The note is written." in row_text(row)
    assert note.read_text() == "via the gateway\n"
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2 and requests[1].tool_results()  # the tool result went back translated
    assert [r["message_id"] for r in usage_rows(app)] == [row.id, row.id]


async def test_a_steer_binds_usage_to_a1a_and_a2(gw: tuple[App[Any], GatewayControl],
                                                 model_server: ScriptedModelServer) -> None:
    app, _ = gw
    notes = app.workspace / "notes.txt"
    notes.write_text("one\ntwo\n")
    model_server.enqueue(
        tool_use("Read", {"file_path": str(notes)}, preamble="Reading your notes slowly enough to be steered.",
                 delay_s=0.03),
        text("Post-steer answer."))
    first = await app.start_streaming("summarise my notes")
    steer = await app.send("also count the lines", mode="steer")
    assert steer.follow_up == "injected"
    rows = await app.settled_rows(4)
    a1a, a2 = rows[1], rows[3]
    assert a1a.id == first and row_text(a2) == "Post-steer answer."
    assert [a1a.status, a2.status] == ["success", "success"]
    # One record per provider call: the pre-steer request on A1a, the post-steer one on A2
    # (its id was reserved when the steer was injected, before that request reached the gateway).
    assert [r["message_id"] for r in usage_rows(app)] == [a1a.id, a2.id]
    assert "also count the lines" in model_server.requests_for_model_turns()[1].all_text()


async def test_stop_pauses_the_turn(gw: tuple[App[Any], GatewayControl], model_server: ScriptedModelServer) -> None:
    app, _ = gw
    answer = "a long answer that is stopped " * 8
    model_server.enqueue(slow_text(answer, delay_s=0.05))
    assistant_id = await app.start_streaming("long")
    app.core.stream_manager.abort(app.topic)
    row = await app.finished(assistant_id)
    kept = row_text(row)
    assert row.status == "paused" and kept and answer.startswith(kept) and kept != answer


@pytest.mark.parametrize("reply", [http_error(500, "upstream broke"),
                                   StreamErrorReply(text_before="Partial answer", error_type="api_error",
                                                    message="upstream broke")],
                         ids=["before-the-first-chunk", "after-the-first-chunk"])
async def test_an_upstream_500_ends_the_turn_as_an_error(gw: tuple[App[Any], GatewayControl],
                                                         model_server: ScriptedModelServer, reply: Any) -> None:
    app, _ = gw
    model_server.enqueue(reply)
    result = await app.send("hi")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error"
    assert "upstream broke" in str(row.parts)  # the provider's own words reach the row
    # The session stays usable: the next turn answers.
    model_server.enqueue(text("Better now."))
    assert row_text(await app.turn("again")) == "Better now."


async def test_with_the_gateway_off_the_agent_says_so(gw: tuple[App[Any], GatewayControl],
                                                      model_server: ScriptedModelServer) -> None:
    app, control = gw
    app.core.settings.update(gateway_enabled=False)
    await control.apply()
    result = await app.send("hi")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error"
    errors = [p.data for p in row.parts if getattr(p, "type", "") == "data-error"]
    assert errors and errors[-1]["code"] == "gateway-off"
    assert model_server.requests_for_model_turns() == []
