"""Queue UI API, restart survival, boot recovery, validation errors, routing rejection."""

from __future__ import annotations

from pathlib import Path

import pytest

from cherry_desktop.core.ai.agent_session import AgentSessionValidationError
from cherry_desktop.core.ai.agent_session.validation import resolve_session_context, resolve_workspace_path
from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.core.ai.runtime.claude_code.query_builder import CLAUDE_LOGIN_SETTING, child_env
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput, RuntimeValidationError
from cherry_desktop.core.ai.service import RuntimeMetadataRequiredError
from cherry_desktop.core.ai.stream.types import AiStreamRequest
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.data.records import WorkspaceRecord
from cherry_desktop.core.messages import TextPart, ToolApproval, ToolPart, message_text
from cherry_desktop.core.storage.paths import build_path_registry
from tests.fakes.scripted_driver import ScriptedDriver
from tests.integration.claude_driver_helpers import make_context
from tests.unit.agent_session.harness import attach_harness, make_harness


async def _queue_two(h):  # type: ignore[no-untyped-def]
    await h.send("first")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    await h.send("q1", mode="queue")
    await h.send("q2", mode="queue")
    return conn


async def test_queue_edit_remove_reorder_and_steer_now(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=True)
    conn = await _queue_two(h)
    q1, q2 = h.runtime.list_pending_turns(h.session.id)
    assert h.runtime.edit_pending_turn(h.session.id, q1.user_message_id, "q1 edited")
    assert message_text(h.row(q1.user_message_id).to_ui_message()) == "q1 edited"
    h.runtime.reorder_pending_turns(h.session.id, [q2.user_message_id, q1.user_message_id])
    assert [q.text for q in h.runtime.list_pending_turns(h.session.id)] == ["q2", "q1 edited"]
    with pytest.raises(ValueError):
        h.runtime.reorder_pending_turns(h.session.id, [q2.user_message_id])
    # steer now: the turn is open and the driver can steer -> injected, leaves the queue
    assert await h.runtime.steer_now(h.session.id, q1.user_message_id) == "injected"
    assert conn.redirects[-1].message.id == q1.user_message_id
    assert h.runtime.remove_pending_turn(h.session.id, q2.user_message_id)
    assert repos.session_messages.find_message(q2.user_message_id) is None
    assert h.runtime.list_pending_turns(h.session.id) == []
    # the turn ends without injecting it (no boundary, no undelivered report): the host's
    # safety net queues the steer as the next turn rather than losing it
    conn.complete("done")
    sent = await conn.wait_sent(2)
    assert sent.message.id == q1.user_message_id and sent.system_reminder
    conn.complete("answered")
    await h.idle()


async def test_steer_now_starts_an_idle_session(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await _queue_two(h)
    h.manager.abort(h.topic, "user")  # Stop: the queue is held
    await h.idle()
    q1, q2 = h.runtime.list_pending_turns(h.session.id)
    assert await h.runtime.steer_now(h.session.id, q2.user_message_id) == "started"
    sent = await conn.wait_sent(2)
    assert sent.message.id == q2.user_message_id
    conn.complete("ok")
    await h.idle()
    # the held queue keeps its other item until the user resumes it
    assert [q.user_message_id for q in h.runtime.list_pending_turns(h.session.id)] == [q1.user_message_id]


async def test_queued_follow_ups_survive_a_restart_and_are_offered_not_sent(repos: Repositories,
                                                                             tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path, supports_redirect=False)
    await _queue_two(h)
    # crash: the app dies with a running turn and a queue (no stop, no terminal)
    registry = h.runtime.registry
    h2 = attach_harness(repos, h.paths, h.driver, registry, h.session, h.workspace)
    # boot recovery: the orphaned pending row is an interrupted error, parts kept
    assistant = h2.rows()[1]
    assert assistant.status == "error" and assistant.parts[-1].type == "data-error"
    assert assistant.parts[-1].data["code"] == "interrupted"  # type: ignore[union-attr]
    queued = h2.runtime.list_pending_turns(h.session.id)
    assert [q.text for q in queued] == ["q1", "q2"]
    assert h2.runtime.is_queue_held(h.session.id)
    # a fresh message runs; the held queue is not fired after it
    await h2.send("new")
    conn = await h.driver.wait_connection(2)
    await conn.wait_sent(1)
    conn.complete("ok")
    await h2.idle()
    assert len(conn.sent) == 1
    assert [q.text for q in h2.runtime.list_pending_turns(h.session.id)] == ["q1", "q2"]
    assert await h2.runtime.resume_pending_turns(h.session.id)
    sent = await conn.wait_sent(2)
    assert message_text(sent.message) == "q1"
    conn.complete("a1")
    sent = await conn.wait_sent(3)
    assert message_text(sent.message) == "q2"
    conn.complete("a2")
    await h2.idle()
    await h2.runtime.stop()


async def test_boot_recovery_keeps_checkpointed_parts(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    _, a = repos.session_messages.create_turn(session_id=h.session.id, user_parts=[TextPart(text="u")],
                                              model_id="m")
    repos.session_messages.update_message(a.id, parts=[TextPart(text="half an ans")])
    h.runtime.initialize()
    row = h.row(a.id)
    assert row.status == "error"
    assert [p.type for p in row.parts] == ["text", "data-error"]


async def test_boot_recovery_offers_no_approval_a_crash_left_open(repos: Repositories, tmp_path: Path) -> None:
    # A crash while a tool waited on the user: after the restart nothing can answer it.
    h = make_harness(repos, tmp_path)
    _, a = repos.session_messages.create_turn(session_id=h.session.id, user_parts=[TextPart(text="u")],
                                              model_id="m")
    asking = ToolPart(tool_call_id="c1", tool_name="Bash", state="approval-requested", input={"command": "ls"},
                      approval=ToolApproval(id="ap-1"))
    repos.session_messages.update_message(a.id, parts=[TextPart(text="I will list"), asking])
    h.runtime.initialize()
    row = h.row(a.id)
    assert row.status == "error"
    tool = row.parts[1]
    assert isinstance(tool, ToolPart) and tool.state == "output-denied" and tool.tool_call_id == "c1"


@pytest.mark.parametrize("case", ["no-workspace", "not-a-dir", "no-driver", "no-model", "driver-refuses",
                                  "no-agent"])
async def test_validation_errors_are_typed(repos: Repositories, tmp_path: Path, case: str) -> None:
    h = make_harness(repos, tmp_path, model=None if case == "no-model" else "demo::m")
    session = h.session
    if case == "no-workspace":
        session = repos.sessions.create_session(agent_id=session.agent_id or "", workspace_id=None)
    elif case == "not-a-dir":
        ws = repos.agents.create_workspace(name="gone", path=str(tmp_path / "missing"))
        session = repos.sessions.create_session(agent_id=session.agent_id or "", workspace_id=ws.id)
    elif case == "no-driver":
        other = repos.agents.create_agent(type="unknown-runtime", name="x", model="demo::m")
        session = repos.sessions.create_session(agent_id=other.id, workspace_id=session.workspace_id)
    elif case == "driver-refuses":
        h.driver.invalid_code = "provider-disabled"
    elif case == "no-agent":
        # deleting the agent cascades to its sessions
        repos.agents.delete_agent(session.agent_id or "")
    h.session = session
    expected = {"no-workspace": "workspace-missing", "not-a-dir": "workspace-not-directory",
                "no-driver": "driver-not-registered", "no-model": "model-missing",
                "driver-refuses": "runtime-invalid:provider-disabled", "no-agent": "session-not-found"}[case]
    with pytest.raises(AgentSessionValidationError) as info:
        await h.send("hi")
    assert info.value.code == expected
    assert h.driver.connections == []


async def test_system_workspace_is_created_under_the_managed_root(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    ws = repos.agents.create_workspace(name="sys", path="ada-home", kind="system")
    h.session = repos.sessions.create_session(agent_id=h.session.agent_id or "", workspace_id=ws.id)
    await h.send("hi")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    path = h.driver.connect_inputs[0].context.workspace_path
    assert path is not None and path.is_dir()
    assert path == (h.paths.get("feature.agents.workspaces") / "ada-home").resolve()
    conn.complete("ok")
    await h.idle()


async def test_agent_session_request_without_runtime_metadata_is_rejected(repos: Repositories,
                                                                          tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    # Through what the app streams with: no per-turn fallback behind the host's back.
    with pytest.raises(RuntimeMetadataRequiredError):
        await h.ai_service.stream_text(AiStreamRequest(model_id="m", topic_id=h.topic))
    assert h.driver.connections == []


def test_system_workspace_outside_the_managed_root_is_refused(tmp_path: Path) -> None:
    paths = build_path_registry(tmp_path / "data")
    root = paths.get("feature.agents.workspaces")
    root.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "link").symlink_to(outside, target_is_directory=True)
    for path in ("../escape", str(outside), "link", f"{root}-sibling"):
        ws = WorkspaceRecord(id="w", agent_id=None, name="w", path=path, kind="system")
        with pytest.raises(AgentSessionValidationError) as info:
            resolve_workspace_path(ws, paths)
        assert info.value.code == "workspace-unavailable"
    assert not (tmp_path / "data" / "Agents" / "escape").exists()
    inside = resolve_workspace_path(WorkspaceRecord(id="w2", agent_id=None, name="w", path="", kind="system"), paths)
    assert inside == (root / "w2").resolve() and inside.is_dir()


def test_session_context_reads_agent_workspace_provider_and_model(repos: Repositories, tmp_path: Path) -> None:
    """The session, its agent and workspace come from one joined read, the provider and model from
    another: each missing or unusable piece still fails with its own code."""
    paths = build_path_registry(tmp_path / "data")
    registry = RuntimeDriverRegistry()
    registry.register(ScriptedDriver(type="claude-code"))  # type: ignore[arg-type]
    repos.providers.upsert_provider(id="anth", name="A", type="anthropic")
    repos.providers.upsert_model(provider_id="anth", model_id="m", name="M")
    # Disabled: Claude Code reaches an enabled OpenAI-compatible provider through the gateway.
    repos.providers.upsert_provider(id="oai", name="O", type="openai", enabled=False)
    repos.providers.upsert_model(provider_id="oai", model_id="m", name="M")
    agent = repos.agents.create_agent(type="claude-code", name="Ada", model="oai::m")
    ws = repos.agents.create_workspace(name="ws", path=str(tmp_path), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, model="anth::m")

    def code(session_id: str) -> str:
        with pytest.raises(AgentSessionValidationError) as info:
            resolve_session_context(session_id, repos=repos, paths=paths, registry=registry)
        return info.value.code

    context = resolve_session_context(session.id, repos=repos, paths=paths, registry=registry)
    assert (context.session, context.agent, context.workspace) == (session, agent, ws)
    assert context.model_id == "anth::m" and context.provider == repos.providers.get_provider("anth")
    assert context.workspace_path == tmp_path.resolve()
    # The agent's own model is served by a provider Claude Code cannot drive (a disabled one).
    on_agent_model = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id)
    assert code(on_agent_model.id) == "model-incompatible"
    db = database_proxy
    db.execute_sql('UPDATE "agent" SET "config" = ? WHERE "id" = ?', ("{not json", agent.id))
    assert code(session.id) == "agent-unreadable"
    db.execute_sql('UPDATE "agent_session" SET "agent_id" = NULL WHERE "id" = ?', (session.id,))
    assert code(session.id) == "agent-missing"


@pytest.mark.parametrize("case", ["no-base-url", "claude-login", "endpoint"])
async def test_claude_code_needs_an_endpoint_or_the_explicit_claude_login(repos: Repositories, tmp_path: Path,
                                                                         case: str) -> None:
    """Never a silent fall back to the public endpoint or the user's own Claude login: a provider
    without a base URL is refused before anything is written or spawned, unless it is the
    explicit Claude-login kind."""

    driver = ClaudeCodeRuntimeDriver()
    h = make_harness(repos, tmp_path, driver=driver)  # type: ignore[arg-type]
    if case != "endpoint":
        repos.providers.update_provider("demo", base_url="")
    if case == "claude-login":
        repos.providers.update_provider("demo", settings={CLAUDE_LOGIN_SETTING: True})
    if case == "no-base-url":
        with pytest.raises(AgentSessionValidationError) as info:
            await h.send("hi")
        assert info.value.code == "runtime-invalid:provider-endpoint-missing"
        assert h.rows() == [] and driver.connections == []
        return
    context = h.runtime.resolve_context(h.session.id)
    connect_input = h.runtime.connect_input(context, None)
    env = child_env(connect_input)
    if case == "claude-login":
        assert "ANTHROPIC_BASE_URL" not in env  # the user's own login, chosen explicitly
    else:
        assert env["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9"
    await h.runtime.stop()


def test_claude_code_refuses_a_session_whose_provider_is_gone(tmp_path: Path) -> None:

    context = make_context(tmp_path, tmp_path)
    context.provider = None
    with pytest.raises(RuntimeValidationError) as info:
        ClaudeCodeRuntimeDriver().validate_session(context)
    assert info.value.code == "provider-missing"
    connect_input = RuntimeConnectInput(context=context, resume_token=None, permission_mode="default",
                                        disabled_tools=frozenset(), get_api_key=lambda: None,
                                        get_last_resume_token=lambda: None)
    with pytest.raises(RuntimeValidationError):
        child_env(connect_input)  # and never spawned without one


async def test_the_queue_is_read_once_and_every_change_is_seen(repos: Repositories, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The host reads a session's queue at each turn's start and end: from memory, while every
    change of it (add, take, edit, reorder, remove) is seen at once."""
    reads: list[str | None] = []
    real_list = repos.pending_turns.list

    def counted(session_id: str | None = None):  # type: ignore[no-untyped-def]
        reads.append(session_id)
        return real_list(session_id)

    monkeypatch.setattr(repos.pending_turns, "list", counted)
    h = make_harness(repos, tmp_path, supports_redirect=False)
    conn = await h.first_turn("first")
    conn.complete("one")
    await h.idle()
    await h.send("second")
    await conn.wait_sent(2)
    conn.complete("two")
    await h.idle()
    assert len(reads) == 1  # the live session's first look, none per turn

    await h.send("third")
    await conn.wait_sent(3)
    await h.send("q1", mode="queue")
    await h.send("q2", mode="queue")
    q1, q2 = h.runtime.list_pending_turns(h.session.id)
    live = h.runtime.get_entry(h.session.id)
    assert live is not None and live.pending_turns.ids() == [q1.user_message_id, q2.user_message_id]
    assert h.runtime.edit_pending_turn(h.session.id, q2.user_message_id, "q2 edited")
    assert [r.text for r in live.pending_turns.records()] == ["q1", "q2 edited"]
    h.runtime.reorder_pending_turns(h.session.id, [q2.user_message_id, q1.user_message_id])
    assert live.pending_turns.ids() == [q2.user_message_id, q1.user_message_id]
    assert h.runtime.remove_pending_turn(h.session.id, q1.user_message_id)
    assert live.pending_turns.ids() == [q2.user_message_id]
    conn.complete("three")
    sent = await conn.wait_sent(4)  # the queue's head runs next, and leaves the queue
    assert sent.message.id == q2.user_message_id
    assert live.pending_turns.ids() == [] == [r.user_message_id for r in real_list(h.session.id)]
    conn.complete("four")
    await h.idle()
