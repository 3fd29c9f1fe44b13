""""Always allow <tool> in this session" belongs to the session, for every runtime (the real CLI
and the real pi, through the whole app core, against the scripted server): the grant is saved
on the session row, so an idle close, a rebuilt connection and an app restart do not ask again;
revoking it asks again from the live connection's next call; a disabled tool never runs, grant
or not; deleting the session deletes its grants."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.core.ai.runtime.types import ApprovalDecision
from cherry_desktop.core.data.models import AgentSession
from cherry_desktop.core.data.records import StoredMessage
from cherry_desktop.demo import ScriptedModelServer, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_PROVIDER_ID
from tests.integration.app_core import TURN_LIMIT_S, App, OpenApp
from tests.integration.claude_driver_helpers import EventReader, Harness, send_text
from tests.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(150)]


def shell_tool(app: App[Any]) -> str:
    return "Bash" if app.claude_tools else "bash"


def touch(app: App[Any], path: Path) -> Any:
    args: dict[str, Any] = {"command": f"touch {path}"}
    if app.claude_tools:
        args["description"] = "touch a file"
    return tool_use(shell_tool(app), args)


async def run_turn(app: App[Any], message: str) -> tuple[StoredMessage, bool]:
    """A turn to its end, or to its first approval request (answered "deny" so the turn ends):
    (the finished row, whether the runtime asked)."""
    asked_before = len(app.approval_ids())
    result = await app.send(message)
    assert result.mode == "started"
    row_id = result.placeholder_ids[0]
    await until(lambda: app.row(row_id).status != "pending" or len(app.approval_ids()) > asked_before,
                limit=TURN_LIMIT_S)
    asked = len(app.approval_ids()) > asked_before
    if asked:
        assert await app.core.agent_runtime.respond_tool_approval(
            app.session_id, app.approval_ids()[-1], ApprovalDecision(approved=False))
    return await app.finished(row_id), asked


async def always_allow_first_call(app: App[Any], model_server: ScriptedModelServer, path: Path) -> None:
    model_server.enqueue(touch(app, path), text("touched"))
    result = await app.send("touch the first file")
    await until(app.approval_ids, limit=TURN_LIMIT_S)
    assert await app.core.agent_runtime.respond_tool_approval(
        app.session_id, app.approval_ids()[-1], ApprovalDecision(approved=True, always_allow=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success" and path.exists()


async def connection_closed(app: App[Any]) -> None:
    runtime = app.core.agent_runtime
    await until(lambda: runtime.get_entry(app.session_id) is None, limit=TURN_LIMIT_S)


async def test_the_grant_outlives_idle_close_and_restart_and_revoking_asks_again(
    open_runtime_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_runtime_app()
    tool = shell_tool(app)
    files = [app.workspace / f"f{i}.txt" for i in range(4)]
    app.core.agent_runtime.idle_window_s = 0.2
    await always_allow_first_call(app, model_server, files[0])
    assert app.core.repos.sessions.always_allowed_tools(app.session_id) == (tool,)

    # The idle window closes the connection; the next turn's connection does not ask.
    await connection_closed(app)
    app.core.agent_runtime.idle_window_s = 300.0
    model_server.enqueue(touch(app, files[1]), text("touched again"))
    row, asked = await run_turn(app, "touch the second file")
    assert not asked and row.status == "success" and files[1].exists()

    # Restart: a new core on the same data dir; still not asked.
    await app.core.stop()
    app = await open_runtime_app()
    model_server.enqueue(touch(app, files[2]), text("after the restart"))
    row, asked = await run_turn(app, "touch the third file")
    assert not asked and row.status == "success" and files[2].exists()
    assert app.core.agent_runtime.get_entry(app.session_id).connection is not None  # live

    # Revoked in the header: the live connection asks at its next call (denied: nothing ran).
    assert app.core.agent_runtime.revoke_always_allowed_tools(app.session_id, [tool]) == ()
    model_server.enqueue(touch(app, files[3]), text("asked"))
    row, asked = await run_turn(app, "touch the fourth file")
    assert asked and not files[3].exists()
    assert app.core.repos.sessions.always_allowed_tools(app.session_id) == ()


async def test_a_rebuilt_connection_keeps_the_grant(open_runtime_app: OpenApp,
                                                    model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    first, second = app.workspace / "a.txt", app.workspace / "b.txt"
    await always_allow_first_call(app, model_server, first)
    runtime, repos = app.core.agent_runtime, app.core.repos
    old = runtime.get_entry(app.session_id).connection
    # An edit the connection can only take by a rebuild: the session's model changes.
    repos.providers.upsert_model(provider_id=DEMO_PROVIDER_ID, model_id="claude-demo-b", name="Demo model B")
    AgentSession.update(model=f"{DEMO_PROVIDER_ID}::claude-demo-b").where(
        AgentSession.id == app.session_id).execute()
    agent_id = repos.sessions.get_session(app.session_id).agent_id
    assert await runtime.reconcile_agent(agent_id) == {app.session_id: "next-turn"}
    # The idle session's runtime is let go (`close_session`): the next turn connects anew.
    assert runtime.get_entry(app.session_id) is None and not old.is_alive
    model_server.enqueue(touch(app, second), text("rebuilt"))
    row, asked = await run_turn(app, "touch the second file")
    assert runtime.get_entry(app.session_id).connection not in (None, old)
    assert not asked and row.status == "success" and second.exists()


async def test_a_disabled_tool_never_runs_with_a_grant(open_runtime_app: OpenApp,
                                                       model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    tool = shell_tool(app)
    first, live, cold = (app.workspace / name for name in ("a.txt", "live.txt", "cold.txt"))
    await always_allow_first_call(app, model_server, first)
    runtime = app.core.agent_runtime
    agent_id = app.core.repos.sessions.get_session(app.session_id).agent_id
    # Disabled while the connection (which holds the grant) is live.
    await runtime.update_agent(agent_id, disabled_tools=[tool])
    model_server.enqueue(touch(app, live), text("refused"))
    row, asked = await run_turn(app, "touch it anyway")
    assert not asked and not live.exists() and row.status == "success"
    # And on a new connection after a restart: the grant is still saved, not handed over.
    await app.core.stop()
    app = await open_runtime_app()
    assert app.core.repos.sessions.always_allowed_tools(app.session_id) == (tool,)
    model_server.enqueue(touch(app, cold), text("refused again"))
    row, asked = await run_turn(app, "touch it after the restart")
    assert not asked and not cold.exists() and row.status == "success"
    assert tool not in app.core.agent_runtime.get_entry(app.session_id).link.connect_input.always_allowed_tools


async def test_deleting_the_session_deletes_its_grants(open_runtime_app: OpenApp,
                                                       model_server: ScriptedModelServer) -> None:
    app = await open_runtime_app()
    await always_allow_first_call(app, model_server, app.workspace / "a.txt")
    await app.core.agent_runtime.delete_session(app.session_id)
    assert app.core.repos.sessions.find_session(app.session_id) is None
    assert app.core.repos.sessions.always_allowed_tools(app.session_id) == ()


async def test_plan_mode_asks_even_for_an_always_allowed_tool(model_server: ScriptedModelServer, tmp_path: Path,
                                                               workspace: Path) -> None:
    """Claude Code's plan mode comes before a grant: the CLI hands the call to the approval
    callback, and the connection asks rather than running it."""
    harness = Harness(model_server, tmp_path, workspace)
    target = workspace / "planned.txt"
    model_server.enqueue(tool_use("Bash", {"command": f"touch {target}", "description": "t"}), text("asked"))
    driver = ClaudeCodeRuntimeDriver()
    try:
        connection = await driver.connect(replace(harness.connect_input(permission_mode="plan"),
                                                  always_allowed_tools=frozenset({"Bash"})))
        reader = EventReader(connection)
        await send_text(connection, "touch it while planning")
        events = await reader.read_until(lambda e: e.type in ("tool-approval-request", "turn-complete", "error"))
        assert events[-1].type == "tool-approval-request", [e.type for e in events]
        assert await connection.respond_tool_approval(events[-1].approval_id,  # type: ignore[union-attr]
                                                      ApprovalDecision(approved=False))
        await reader.turn()
        assert not target.exists()
    finally:
        await driver.shutdown()
