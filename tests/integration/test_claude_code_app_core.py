"""End to end through the whole app core: `start_core` (AiService -> AiStreamManager ->
AgentSessionRuntimeService -> ClaudeCodeRuntimeDriver -> the bundled CLI) against the scripted
model server, with the demo's provider / agent / workspace / session records
(`ensure_demo_records`): provider type "anthropic", base URL = the server, the CLI child's
environment from the provider's settings."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

from cherry_desktop.core.ai.runtime.claude_code.driver import ClaudeCodeRuntimeDriver
from cherry_desktop.core.ai.runtime.types import STEER_REMINDER_OPEN
from cherry_desktop.core.ai.stream import AiStreamOpenRequest, DispatchResult, dispatch_stream_request
from cherry_desktop.core.bootstrap import CoreServices, start_core
from cherry_desktop.core.data.records import StoredMessage
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.paths import build_path_registry
from cherry_desktop.core.topics import session_topic_id
from cherry_desktop.demo import HangReply, ScriptedModelServer, http_error, slow_text, text, tool_use
from cherry_desktop.demo.bootstrap import DEMO_MODEL_ID, DEMO_PROVIDER_ID, demo_provider_settings, ensure_demo_records
from cherry_desktop.demo.cli_env import NO_RETRY_CLI_ENV
from tests.unit.agent_session.harness import Subscriber, until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(60)]

BOGUS_TOKEN = "00000000-0000-4000-8000-000000000000"
# Waits bound a hang, they are never what a test asserts.
TURN_LIMIT_S = 20.0


def row_text(row: StoredMessage) -> str:
    return "".join(p.text for p in row.parts if isinstance(p, TextPart))


@dataclass
class App:
    """One running core with the demo session, and a window-like subscriber."""

    core: CoreServices
    session_id: str
    workspace: Path
    subscriber: Subscriber = field(default_factory=Subscriber)

    @property
    def topic(self) -> str:
        return session_topic_id(self.session_id)

    @property
    def driver(self) -> ClaudeCodeRuntimeDriver:
        driver = self.core.agent_runtime.registry.get("claude-code")
        assert isinstance(driver, ClaudeCodeRuntimeDriver)
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

    async def idle(self) -> None:
        await until(self.is_idle, limit=TURN_LIMIT_S)

    async def finished(self, message_id: str) -> StoredMessage:
        """The row once terminal persistence wrote it and the runtime went idle."""
        await until(lambda: self.row(message_id).status != "pending", limit=TURN_LIMIT_S)
        await self.idle()
        return self.row(message_id)

    async def start_streaming(self, message: str) -> str:
        """Start a fresh turn and wait for its first text; returns the assistant row id."""
        result = await self.send(message)
        assistant_id = result.placeholder_ids[0]
        await until(lambda: self.text_streamed(assistant_id), limit=TURN_LIMIT_S)
        return assistant_id

    async def settled_rows(self, count: int) -> list[StoredMessage]:
        """The session's rows once there are `count`, none pending, and the runtime is idle."""
        await until(lambda: len(rows := self.rows()) == count and all(r.status != "pending" for r in rows),
                    limit=TURN_LIMIT_S)
        await self.idle()
        return self.rows()

    async def turn(self, message: str) -> StoredMessage:
        """A fresh turn from an idle session, to its finished assistant row."""
        result = await self.send(message)
        assert result.mode == "started"
        return await self.finished(result.placeholder_ids[0])

    def text_streamed(self, message_id: str) -> str:
        return self.subscriber.text_for(message_id)


OpenApp = Callable[..., Awaitable[App]]


@pytest.fixture
async def open_app(tmp_path: Path, model_server: ScriptedModelServer) -> AsyncIterator[OpenApp]:
    """Start a core on `tmp_path/data` (the same data dir each call: a restart) with the demo
    records pointing at the scripted server; every core is stopped at teardown."""
    cores: list[CoreServices] = []

    async def _open(*, extra_env: dict[str, str] | None = None) -> App:
        core = await start_core(build_path_registry(tmp_path / "data"))
        cores.append(core)
        root = core.paths.get("feature.agents.workspaces")
        _, session_id, workspace = ensure_demo_records(core.repos, root, model_server.base_url)
        if extra_env:
            settings = demo_provider_settings()
            settings["env"].update(extra_env)
            provider = core.repos.providers.get_provider(DEMO_PROVIDER_ID)
            core.repos.providers.upsert_provider(id=provider.id, name=provider.name, type=provider.type,
                                                 base_url=provider.base_url, settings=settings)
            # Replacing the provider row drops its models: put the demo model back.
            core.repos.providers.upsert_model(provider_id=DEMO_PROVIDER_ID, model_id=DEMO_MODEL_ID, name="Demo model")
        return App(core=core, session_id=session_id, workspace=workspace)

    try:
        yield _open
    finally:
        for core in cores:
            await core.stop()


def alive_children() -> set[int]:
    """PIDs of this process's live descendants (zombies are dead)."""
    pids = set()
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                pids.add(child.pid)
        except psutil.NoSuchProcess:
            pass
    return pids


def cli_cmdline(app: App) -> list[str]:
    pids = app.driver.process_manager.alive_pids()
    assert len(pids) == 1, pids
    return psutil.Process(pids[0]).cmdline()


# ---- stop / pause ------------------------------------------------------------------------


async def test_user_stop_pauses_row_with_partial_text_and_next_turn_works(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_app()
    model_server.enqueue(HangReply(text_before="partial answer "), text("after the stop"))
    result = await app.send("start something long")
    assistant_id = result.placeholder_ids[0]
    await until(lambda: "partial" in app.text_streamed(assistant_id), limit=TURN_LIMIT_S)

    app.core.stream_manager.abort(app.topic, "user")
    # The window shows the stop as soon as its paused terminal arrives; the user may send at
    # once, while the CLI is still settling the interrupted turn.
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


# ---- follow-ups --------------------------------------------------------------------------


async def test_undelivered_steer_becomes_the_next_turn(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(slow_text("An answer with no tool call at all.", delay_s=0.03, chunk_size=4),
                         text("Answer to the steer."))
    first = await app.start_streaming("answer without tools")
    steer = await app.send("late steer: mention otters", mode="steer")
    assert steer.follow_up == "injected"  # stashed by the driver; the turn never reaches a tool

    rows = await app.settled_rows(4)
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    assert rows[1].id == first
    assert row_text(rows[1]) == "An answer with no tool call at all."
    assert rows[2].id == steer.user_message_id
    assert row_text(rows[3]) == "Answer to the steer."
    assert [r.status for r in rows[1::2]] == ["success", "success"]
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2
    assert "mention otters" not in requests[0].all_text()
    assert "late steer: mention otters" in requests[1].last_user_text()


async def test_follow_up_in_queue_mode_runs_as_the_next_turn(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_app()
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
    # One CLI for both turns: the queued turn ran on the same connection.
    assert "First answer, streamed slowly." in requests[1].all_text()


async def test_follow_up_in_steer_mode_is_injected_and_rows_roll(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    app = await open_app()
    notes = app.workspace / "notes.txt"
    notes.write_text("one\ntwo\n")
    model_server.enqueue(
        tool_use("Read", {"file_path": str(notes)},
                 preamble="Reading your notes slowly enough to be steered.", delay_s=0.03),
        text("Post-steer answer."),
    )
    first = await app.start_streaming("summarise my notes")
    steer = await app.send("also count the lines", mode="steer")
    assert steer.follow_up == "injected"

    rows = await app.settled_rows(4)
    assert [r.role for r in rows] == ["user", "assistant", "user", "assistant"]
    a1a, steer_row, a2 = rows[1], rows[2], rows[3]
    assert a1a.id == first
    assert row_text(a1a) == "Reading your notes slowly enough to be steered."
    assert any(getattr(p, "tool_name", None) == "Read" for p in a1a.parts)  # the tool stays on A1a
    assert steer_row.id == steer.user_message_id
    assert row_text(steer_row) == "also count the lines"
    assert row_text(a2) == "Post-steer answer."
    assert [a1a.status, a2.status] == ["success", "success"]
    requests = model_server.requests_for_model_turns()
    assert len(requests) == 2  # one runtime turn: the steer rode on the tool result
    # The CLI passes the hook's context after the tool result (its own wrapping, not a user turn).
    assert "also count the lines" not in requests[0].all_text()
    assert "also count the lines" in requests[1].all_text()
    assert not app.core.agent_runtime.list_pending_turns(app.session_id)


# ---- restart / resume ----------------------------------------------------------------------


async def test_restart_resumes_the_persisted_token(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    app = await open_app()
    model_server.enqueue(text("I will remember kumquat."), text("The word was kumquat."))
    first = await app.turn("remember the word kumquat")
    assert first.status == "success"
    token = first.runtime_resume_token
    assert token
    await app.core.stop()

    app = await open_app()
    assert app.core.repos.session_messages.get_last_runtime_resume_token(app.session_id) == token
    result = await app.send("what was the word?")
    await until(lambda: app.driver.process_manager.alive_pids(), limit=TURN_LIMIT_S)
    assert f"--resume={token}" in cli_cmdline(app)
    second = await app.finished(result.placeholder_ids[0])
    assert second.status == "success"
    assert row_text(second) == "The word was kumquat."
    assert second.runtime_resume_token
    history = model_server.last_model_request().all_text()
    assert "remember the word kumquat" in history
    assert "I will remember kumquat." in history


async def test_bogus_persisted_token_recovers_without_resume(
    open_app: OpenApp, model_server: ScriptedModelServer, tmp_path: Path
) -> None:
    app = await open_app()
    model_server.enqueue(text("first life"), text("second life"))
    first = await app.turn("the first conversation")
    assert first.status == "success"
    database = app.core.paths.database_file
    await app.core.stop()

    with sqlite3.connect(database) as db:
        changed = db.execute("UPDATE agent_session_message SET runtime_resume_token = ? WHERE id = ?",
                             (BOGUS_TOKEN, first.id)).rowcount
    assert changed == 1

    app = await open_app()
    result = await app.send("after the corruption")
    await until(lambda: app.driver.connections, limit=TURN_LIMIT_S)
    second = await app.finished(result.placeholder_ids[0])
    assert second.status == "success", second
    assert row_text(second) == "second life"
    assert [c.recovered_from for c in app.driver.connections] == [BOGUS_TOKEN]
    assert f"--resume={BOGUS_TOKEN}" not in cli_cmdline(app)  # rebuilt without resume
    new_token = second.runtime_resume_token
    assert new_token
    assert new_token != BOGUS_TOKEN
    assert app.core.repos.session_messages.get_last_runtime_resume_token(app.session_id) == new_token
    # A new SDK session: the corrupt history is not replayed to the model.
    last = model_server.last_model_request()
    assert "after the corruption" in last.last_user_text()
    assert "the first conversation" not in last.all_text()


# ---- API errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [529, 401])
async def test_api_error_row_keeps_token_and_user_message(
    open_app: OpenApp, model_server: ScriptedModelServer, status: int
) -> None:
    app = await open_app(extra_env=NO_RETRY_CLI_ENV)
    model_server.enqueue(http_error(status, f"scripted {status}"), text("recovered answer"))
    result = await app.send("a prompt that fails")
    row = await app.finished(result.placeholder_ids[0])
    # The failed result tore the connection down, and its CLI with it (not only at app stop).
    await until(lambda: not app.driver.process_manager.alive_pids() and not app.driver.connections,
                limit=TURN_LIMIT_S)
    assert row.status == "error"
    assert row.runtime_resume_token
    user = app.row(result.user_message_id or "")
    assert user.role == "user"
    assert row_text(user) == "a prompt that fails"
    error_terminals = [t for t in app.subscriber.terminals if t.status == "error"]
    assert len(error_terminals) == 1
    assert str(status) in error_terminals[0].error.message  # type: ignore[union-attr]

    # The failed result tore the connection down; the next turn reconnects from the error
    # row's token, and the failed prompt is still part of the conversation.
    second = await app.turn("try again")
    assert second.status == "success"
    assert row_text(second) == "recovered answer"
    assert f"--resume={row.runtime_resume_token}" in cli_cmdline(app)
    assert "a prompt that fails" in model_server.last_model_request().all_text()


# ---- shutdown ----------------------------------------------------------------------------------


async def test_no_cli_process_outlives_core_stop(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    before = alive_children()
    app = await open_app()
    model_server.enqueue(HangReply(text_before="streaming at stop"))
    result = await app.send("a turn still streaming at stop")
    await until(lambda: app.text_streamed(result.placeholder_ids[0]) == "streaming at stop", limit=TURN_LIMIT_S)
    cli_pids = set(app.driver.process_manager.alive_pids())
    assert cli_pids
    assert cli_pids <= alive_children()

    await app.core.stop()
    assert app.driver.process_manager.alive_pids() == []
    assert alive_children() - before == set()
    assert not app.driver.connections
    # Quitting stops the turn as the user's Stop does: `paused`, partial kept, before the
    # database closed.
    with sqlite3.connect(app.core.paths.database_file) as db:
        status, data = db.execute("SELECT status, data FROM agent_session_message WHERE id = ?",
                                  (result.placeholder_ids[0],)).fetchone()
    assert status == "paused"
    assert '"text":"streaming at stop"' in data


async def test_no_prewarmed_cli_outlives_core_stop(open_app: OpenApp, model_server: ScriptedModelServer) -> None:
    before = alive_children()
    app = await open_app()
    app.core.agent_runtime.idle_window_s = 0.1
    model_server.enqueue(text("done"))
    row = await app.turn("one turn, then idle")
    assert row.status == "success"
    # Idle window over: the connection closes and a query is prewarmed on the resume token.
    await until(lambda: app.driver.warm_queries.has(app.session_id), limit=TURN_LIMIT_S)
    assert f"--resume={row.runtime_resume_token}" in cli_cmdline(app)

    await app.core.stop()
    assert app.driver.process_manager.alive_pids() == []
    assert alive_children() - before == set()


async def test_first_turn_names_the_session_through_the_naming_prompt(
    open_app: OpenApp, model_server: ScriptedModelServer
) -> None:
    from cherry_desktop.core.ai.naming import NAMING_MARKER
    from cherry_desktop.core.shared_cache import topic_title_key

    app = await open_app()
    model_server.enqueue(text("Sure, here is the plan."))
    await app.turn("Refactor the payment module please")
    await until(lambda: app.core.repos.sessions.get_session(app.session_id).name != "Demo session",
                limit=TURN_LIMIT_S)
    title = "Demo: Refactor the payment module please"
    assert app.core.repos.sessions.get_session(app.session_id).name == title
    assert app.core.shared_cache.get(topic_title_key(app.topic)) == title
    naming = [r for r in model_server.requests if NAMING_MARKER in r.system_text]
    assert len(naming) == 1 and "Sure, here is the plan." in naming[0].last_user_text()
    # The naming prompt went to the provider directly, not into the agent's conversation.
    assert all(NAMING_MARKER not in r.all_text() for r in model_server.requests_for_model_turns())
    model_server.enqueue(text("Second."))
    await app.turn("and the tests")
    assert len([r for r in model_server.requests if NAMING_MARKER in r.system_text]) == 1
