"""End to end through the whole app core (`start_core` -> AiStreamManager ->
AgentSessionRuntimeService -> PiRuntimeDriver -> the real pi) against the scripted model
server, with the demo's records (`ensure_demo_records` + `ensure_pi_demo_records`): rows,
steers, Stop, errors, restart and idle close as the user sees them in the database."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.runtime.types import STEER_REMINDER_OPEN, ApprovalDecision
from cherry_desktop.core.ai.stream import AiStreamOpenRequest, DispatchResult, dispatch_stream_request
from cherry_desktop.core.bootstrap import CoreServices, start_core
from cherry_desktop.core.data.records import StoredMessage
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.paths import build_path_registry
from cherry_desktop.core.topics import session_topic_id
from cherry_desktop.demo import HangReply, ScriptedModelServer, http_error, slow_text, text, tool_use
from cherry_desktop.demo.bootstrap import ensure_demo_records, ensure_pi_demo_records
from cherry_desktop.demo.script import demo_script
from tests.unit.agent_session.harness import Subscriber, until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(90)]

BOGUS_TOKEN = "00000000-0000-4000-8000-000000000000"
TURN_LIMIT_S = 30.0


def approvals(app: App) -> list[str]:
    return [c.approval_id for _, c in app.subscriber.chunks if c.type == "tool-approval-request"]  # type: ignore[attr-defined]


def row_text(row: StoredMessage) -> str:
    return "".join(p.text for p in row.parts if isinstance(p, TextPart))


@dataclass
class App:
    core: CoreServices
    session_id: str
    workspace: Path
    subscriber: Subscriber = field(default_factory=Subscriber)

    @property
    def topic(self) -> str:
        return session_topic_id(self.session_id)

    @property
    def driver(self) -> PiRuntimeDriver:
        driver = self.core.agent_runtime.registry.get("pi")
        assert isinstance(driver, PiRuntimeDriver)
        return driver

    async def send(self, message: str, *, mode: str = "steer") -> DispatchResult:
        request = AiStreamOpenRequest(topic_id=self.topic, user_message_parts=[TextPart(text=message, state="done")],
                                      follow_up_mode=mode)  # type: ignore[arg-type]
        return await dispatch_stream_request(self.core.stream_manager, self.subscriber, request)

    def rows(self) -> list[StoredMessage]:
        return self.core.repos.session_messages.list_messages(self.session_id)

    def row(self, message_id: str) -> StoredMessage:
        return self.core.repos.session_messages.get_message(message_id)

    def is_idle(self) -> bool:
        return bool(self.core.agent_runtime.is_session_settled(self.session_id))

    async def finished(self, message_id: str) -> StoredMessage:
        await until(lambda: self.row(message_id).status != "pending", limit=TURN_LIMIT_S)
        await until(self.is_idle, limit=TURN_LIMIT_S)
        return self.row(message_id)

    async def start_streaming(self, message: str) -> str:
        result = await self.send(message)
        assistant_id = result.placeholder_ids[0]
        await until(lambda: self.subscriber.text_for(assistant_id), limit=TURN_LIMIT_S)
        return assistant_id

    async def settled_rows(self, count: int) -> list[StoredMessage]:
        await until(lambda: len(rows := self.rows()) == count and all(r.status != "pending" for r in rows),
                    limit=TURN_LIMIT_S)
        await until(self.is_idle, limit=TURN_LIMIT_S)
        return self.rows()

    async def turn(self, message: str) -> StoredMessage:
        result = await self.send(message)
        assert result.mode == "started"
        return await self.finished(result.placeholder_ids[0])


OpenApp = Callable[[], Awaitable[App]]


@pytest.fixture
async def open_app(tmp_path: Path, model_server: ScriptedModelServer,
                   pi_installation: PiInstallation) -> AsyncIterator[OpenApp]:
    cores: list[CoreServices] = []

    async def _open() -> App:
        core = await start_core(build_path_registry(tmp_path / "data"))
        cores.append(core)
        root = core.paths.get("feature.agents.workspaces")
        ensure_demo_records(core.repos, root, model_server.base_url)
        _, session_id, workspace = ensure_pi_demo_records(core.repos, root)
        app = App(core=core, session_id=session_id, workspace=workspace)
        app.driver.use_installation(pi_installation)
        return app

    try:
        yield _open
    finally:
        for core in cores:
            await core.stop()


async def test_fresh_turn_and_tool_approval_through_the_host(open_app: OpenApp,
                                                             model_server: ScriptedModelServer) -> None:
    app = await open_app()
    target = app.workspace / "note.txt"
    model_server.enqueue(tool_use("write", {"path": str(target), "content": "hello"}, preamble="Writing."),
                         text("Written."))
    result = await app.send("write a note")
    assistant_id = result.placeholder_ids[0]
    await until(lambda: approvals(app), limit=TURN_LIMIT_S)
    assert not target.exists()
    assert await app.core.agent_runtime.respond_tool_approval(app.session_id, approvals(app)[0],
                                                              ApprovalDecision(approved=True))
    row = await app.finished(assistant_id)
    assert row.status == "success"
    assert row_text(row) == "Writing.Written."
    assert any(getattr(p, "tool_name", None) == "write" for p in row.parts)
    assert target.read_text() == "hello"
    assert row.runtime_resume_token and app.driver.session_file_of(row.runtime_resume_token)


async def test_steer_mid_turn_rolls_rows(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(slow_text("A long answer, streamed slowly enough to steer.", delay_s=0.03, chunk_size=4),
                         text("Post-steer answer."))
    first = await app.start_streaming("explain slowly")
    steer = await app.send("also mention otters", mode="steer")
    assert steer.follow_up == "injected"
    rows = await app.settled_rows(4)
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    a1a, steer_row, a2 = rows[1], rows[2], rows[3]
    assert a1a.id == first
    assert row_text(a1a) == "A long answer, streamed slowly enough to steer."
    assert steer_row.id == steer.user_message_id and row_text(steer_row) == "also mention otters"
    assert row_text(a2) == "Post-steer answer."
    assert [a1a.status, a2.status] == ["success", "success"]
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2
    assert "also mention otters" in requests[1].all_text() and STEER_REMINDER_OPEN.strip() in requests[1].all_text()
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)


async def test_queued_follow_up_runs_as_the_next_turn(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(slow_text("First answer, streamed slowly.", delay_s=0.03, chunk_size=4),
                         text("Second answer."))
    first = await app.start_streaming("first question")
    queued = await app.send("second question", mode="queue")
    assert queued.follow_up == "queued"
    rows = await app.settled_rows(4)
    assert [(r.role, row_text(r)) for r in rows] == [
        ("user", "first question"), ("assistant", "First answer, streamed slowly."),
        ("user", "second question"), ("assistant", "Second answer.")]
    assert rows[1].id == first and all(r.status == "success" for r in rows)
    requests = model_server.requests_for_model_turns()
    assert "First answer, streamed slowly." in requests[1].all_text()  # same pi session
    assert STEER_REMINDER_OPEN.split("\n")[1] not in requests[1].last_user_text()


async def test_stop_pauses_the_row_with_its_partial_text(open_app: OpenApp,
                                                         model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(HangReply(text_before="partial answer "), text("after the stop"))
    result = await app.send("start something long")
    assistant_id = result.placeholder_ids[0]
    await until(lambda: "partial" in app.subscriber.text_for(assistant_id), limit=TURN_LIMIT_S)
    app.core.stream_manager.abort(app.topic, "user")
    await until(lambda: any(t.status == "paused" for t in app.subscriber.terminals), limit=TURN_LIMIT_S)
    row = app.row(assistant_id)
    assert row.status == "paused"
    assert row_text(row) == "partial answer "
    await app.send("and now?")
    rows = await app.settled_rows(4)
    assert [(r.role, r.status) for r in rows] == [
        ("user", "success"), ("assistant", "paused"), ("user", "success"), ("assistant", "success")]
    assert row_text(rows[3]) == "after the stop"
    assert "start something long" in model_server.last_model_request().all_text()


async def test_api_error_row_keeps_token_and_user_message(open_app: OpenApp,
                                                          model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(http_error(401, "scripted 401"), text("recovered answer"))
    result = await app.send("a prompt that fails")
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "error"
    assert row.runtime_resume_token
    user = app.row(result.user_message_id or "")
    assert row_text(user) == "a prompt that fails"
    errors = [t for t in app.subscriber.terminals if t.status == "error"]
    assert len(errors) == 1 and "401" in errors[0].error.message  # type: ignore[union-attr]
    second = await app.turn("try again")
    assert second.status == "success" and row_text(second) == "recovered answer"
    assert second.runtime_resume_token == row.runtime_resume_token  # the same pi session
    assert "a prompt that fails" in model_server.last_model_request().all_text()


async def test_restart_resumes_and_a_bogus_token_recovers_once(open_app: OpenApp,
                                                               model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(text("I will remember kumquat."), text("The word was kumquat."),
                         text("first life"), text("second life"))
    first = await app.turn("remember the word kumquat")
    token = first.runtime_resume_token
    assert first.status == "success" and token
    await app.core.stop()

    app = await open_app()
    second = await app.turn("what was the word?")
    assert second.status == "success" and row_text(second) == "The word was kumquat."
    assert second.runtime_resume_token == token
    history = model_server.last_model_request().all_text()
    assert "remember the word kumquat" in history and "I will remember kumquat." in history
    database = app.core.paths.database_file
    await app.core.stop()

    with sqlite3.connect(database) as db:
        db.execute("UPDATE agent_session_message SET runtime_resume_token = ? WHERE id = ?",
                   (BOGUS_TOKEN, second.id))
    app = await open_app()
    third = await app.turn("after the corruption")
    assert third.status == "success", third
    assert [c.recovered_from for c in app.driver.connections] == [BOGUS_TOKEN]
    assert third.runtime_resume_token and third.runtime_resume_token not in (BOGUS_TOKEN, token)
    assert "remember the word kumquat" not in model_server.last_model_request().all_text()


async def test_idle_close_and_core_stop_leave_no_pi_process(open_app: OpenApp,
                                                            model_server: ScriptedModelServer) -> None:
    app = await open_app()
    app.core.agent_runtime.idle_window_s = 0.1
    model_server.enqueue(text("done"))
    row = await app.turn("one turn, then idle")
    assert row.status == "success"
    turn_pids = app.driver.alive_pids()
    # The idle window closes the connection (its pi exits) and prewarms one on the token.
    await until(lambda: app.driver.has_warm(app.session_id), limit=TURN_LIMIT_S)
    assert len(turn_pids) == 1 and turn_pids[0] not in app.driver.alive_pids()
    assert not psutil.pid_exists(turn_pids[0]) or psutil.Process(turn_pids[0]).status() == psutil.STATUS_ZOMBIE
    warm_pids = app.driver.alive_pids()
    assert len(warm_pids) == 1

    app.core.agent_runtime.idle_window_s = 60.0
    model_server.enqueue(HangReply(text_before="streaming at stop"))
    result = await app.send("a turn still streaming at stop")
    await until(lambda: app.subscriber.text_for(result.placeholder_ids[0]), limit=TURN_LIMIT_S)
    pids = app.driver.alive_pids()
    assert pids == warm_pids  # the next turn took the prewarmed pi
    await app.core.stop()
    assert app.driver.alive_pids() == []
    assert not psutil.pid_exists(pids[0]) or psutil.Process(pids[0]).status() == psutil.STATUS_ZOMBIE
    with sqlite3.connect(app.core.paths.database_file) as db:
        status, = db.execute("SELECT status FROM agent_session_message WHERE id = ?",
                             (result.placeholder_ids[0],)).fetchone()
    assert status == "paused"


async def test_the_demo_script_drives_the_pi_demo_agent(open_app: OpenApp, model_server: ScriptedModelServer,
                                                        tmp_path: Path) -> None:
    app = await open_app()
    model_server.default = demo_script(app.workspace.with_name("demo"), delay_s=0.0)
    result = await app.send("hello demo")
    await until(lambda: approvals(app), limit=TURN_LIMIT_S)
    await app.core.agent_runtime.respond_tool_approval(app.session_id, approvals(app)[0],
                                                       ApprovalDecision(approved=True))
    row = await app.finished(result.placeholder_ids[0])
    assert row.status == "success"
    assert (app.workspace / "cherry-demo" / "note-1.md").exists()
    assert "Done: the note is in your workspace." in row_text(row)
