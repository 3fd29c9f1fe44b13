"""`SessionContextCache`: a session validated at one `config_version` reuses its rows until a
write to a session, agent, workspace, provider or model row bumps the counter (triggers in the
file); the folder, driver, capability and driver checks still run at every call."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import peewee as pw
import pytest

from cherry_desktop.core.ai.agent_session import AgentSessionValidationError
from cherry_desktop.core.ai.agent_session.validation import SessionContextCache, resolve_session_context
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import RuntimeSessionContext
from cherry_desktop.core.data import Repositories, open_database, schema_version
from cherry_desktop.core.data.database import MIGRATIONS
from cherry_desktop.core.data.models import AgentSession, database_proxy
from cherry_desktop.core.messages import TextPart
from cherry_desktop.core.paths import PathRegistry, build_path_registry
from tests.fakes.scripted_driver import ScriptedDriver
from tests.unit.agent_session.harness import make_harness

CONFIG_TABLES = ("agent_session", "agent", "agent_workspace", "provider", "model")


@dataclass
class Setup:
    repos: Repositories
    paths: PathRegistry
    registry: RuntimeDriverRegistry
    driver: ScriptedDriver
    cache: SessionContextCache
    agent_id: str
    session_id: str
    workspace: Path

    def resolve(self, session_id: str | None = None, *, cached: bool = True,
                registry: RuntimeDriverRegistry | None = None) -> RuntimeSessionContext:
        return resolve_session_context(session_id or self.session_id, repos=self.repos, paths=self.paths,
                                       registry=registry or self.registry, cache=self.cache if cached else None)

    def code(self, session_id: str | None = None, **kwargs: object) -> str:
        with pytest.raises(AgentSessionValidationError) as info:
            self.resolve(session_id, **kwargs)  # type: ignore[arg-type]
        return info.value.code


@pytest.fixture
def setup(repos: Repositories, tmp_path: Path) -> Setup:
    """A Claude Code agent (its capability check applies) on an Anthropic model, a user workspace."""
    driver = ScriptedDriver(type="claude-code")
    registry = RuntimeDriverRegistry()
    registry.register(driver)  # type: ignore[arg-type]
    repos.providers.upsert_provider(id="anth", name="A", type="anthropic")
    repos.providers.upsert_model(provider_id="anth", model_id="m", name="M")
    repos.providers.upsert_model(provider_id="anth", model_id="n", name="N")
    workspace = tmp_path / "ws"
    workspace.mkdir()
    agent = repos.agents.create_agent(type="claude-code", name="Ada", model="anth::m")
    ws = repos.agents.create_workspace(name="ws", path=str(workspace), agent_id=agent.id)
    session = repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="first")
    return Setup(repos=repos, paths=build_path_registry(tmp_path / "data"), registry=registry, driver=driver,
                 cache=SessionContextCache(), agent_id=agent.id, session_id=session.id, workspace=workspace)


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """The SQL statements this thread's connection runs (sqlite3's trace callback)."""
    seen: list[str] = []
    connection = AgentSession._meta.database.connection()
    connection.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        connection.set_trace_callback(None)


def test_a_hit_reads_only_the_counter_and_returns_an_equal_new_context(setup: Setup,
                                                                       statements: list[str]) -> None:
    first = setup.resolve()
    statements.clear()
    second = setup.resolve()
    assert statements == ['SELECT "value" FROM "config_version" WHERE "id" = 1']
    assert second == first == setup.resolve(cached=False)
    assert second is not first
    assert second.workspace_path == setup.workspace.resolve() and second.model_id == "anth::m"
    # The caller's changes to its context stay its own.
    second.model_id = "anth::other"
    assert setup.resolve().model_id == "anth::m"
    # The driver validated every call, hits included.
    assert len(setup.driver.validated) == 4


def test_a_miss_reads_the_rows_again(setup: Setup, statements: list[str]) -> None:
    setup.resolve()
    setup.repos.sessions.rename_session(setup.session_id, "renamed")
    statements.clear()
    assert setup.resolve().session.name == "renamed"
    assert any('FROM "agent_session" AS s' in sql for sql in statements)


def test_changed_session_agent_and_workspace_rows_are_seen(setup: Setup, tmp_path: Path) -> None:
    repos = setup.repos
    setup.resolve()
    repos.agents.update_agent(setup.agent_id, model="anth::n")
    assert setup.resolve().model_id == "anth::n"
    db = AgentSession._meta.database
    db.execute_sql('UPDATE "agent_session" SET "model" = ? WHERE "id" = ?', ("anth::m", setup.session_id))
    assert setup.resolve().model_id == "anth::m"
    other = tmp_path / "other"
    other.mkdir()
    ws = repos.agents.create_workspace(name="other", path=str(other), agent_id=setup.agent_id)
    db.execute_sql('UPDATE "agent_session" SET "workspace_id" = ? WHERE "id" = ?', (ws.id, setup.session_id))
    assert setup.resolve().workspace_path == other.resolve()
    db.execute_sql('UPDATE "agent_session" SET "model" = NULL WHERE "id" = ?', (setup.session_id,))
    repos.agents.update_agent(setup.agent_id, model=None)
    assert setup.code() == "model-missing"
    repos.agents.update_agent(setup.agent_id, model="anth::m")
    setup.resolve()
    db.execute_sql('UPDATE "agent_session" SET "agent_id" = NULL WHERE "id" = ?', (setup.session_id,))
    assert setup.code() == "agent-missing"
    assert len(setup.cache) == 0  # a failure caches nothing


def test_deleting_the_agent_deletes_its_sessions(setup: Setup) -> None:
    setup.resolve()
    setup.repos.agents.delete_agent(setup.agent_id)
    assert setup.code() == "session-not-found"


def test_changed_provider_and_model_rows_are_seen(setup: Setup) -> None:
    repos = setup.repos
    assert setup.resolve().provider == repos.providers.get_provider("anth")
    # Claude Code cannot drive a model of a disabled provider, nor one an OpenAI provider serves.
    repos.providers.update_provider("anth", enabled=False)
    assert setup.code() == "model-incompatible"
    repos.providers.update_provider("anth", enabled=True, base_url="http://127.0.0.1:9")
    assert setup.resolve().provider.base_url == "http://127.0.0.1:9"  # type: ignore[union-attr]
    repos.providers.update_provider("anth", type="openai")
    assert setup.code() == "model-incompatible"
    repos.providers.update_provider("anth", type="anthropic")
    setup.resolve()
    # A model that no longer exists is refused (typed), before anything is written or spawned.
    repos.providers.delete_model("anth::m")
    repos.providers.update_provider("anth", type="openai")
    assert setup.code() == "model-not-found"
    repos.providers.upsert_model(provider_id="anth", model_id="m")
    assert setup.code() == "model-incompatible"


def test_a_write_from_another_connection_is_seen(setup: Setup, db_path: Path) -> None:
    setup.resolve()
    other = sqlite3.connect(db_path)
    try:
        other.execute('UPDATE "agent" SET "model" = ? WHERE "id" = ?', ("anth::n", setup.agent_id))
        other.commit()
    finally:
        other.close()
    assert setup.resolve().model_id == "anth::n"


def test_a_vanished_user_workspace_fails_even_when_cached(setup: Setup) -> None:
    setup.resolve()
    setup.workspace.rmdir()
    assert setup.code() == "workspace-not-directory"
    setup.workspace.mkdir()
    assert setup.resolve().workspace_path == setup.workspace.resolve()


def test_a_retargeted_symlink_workspace_resolves_again(setup: Setup, tmp_path: Path) -> None:
    a, b, link = tmp_path / "a", tmp_path / "b", tmp_path / "link"
    a.mkdir()
    b.mkdir()
    link.symlink_to(a, target_is_directory=True)
    ws = setup.repos.agents.create_workspace(name="link", path=str(link), agent_id=setup.agent_id)
    session = setup.repos.sessions.create_session(agent_id=setup.agent_id, workspace_id=ws.id)
    assert setup.resolve(session.id).workspace_path == a.resolve()
    link.unlink()
    link.symlink_to(b, target_is_directory=True)
    assert setup.resolve(session.id).workspace_path == b.resolve()


def test_a_vanished_system_workspace_is_created_again(setup: Setup) -> None:
    ws = setup.repos.agents.create_workspace(name="home", path="ada-home", kind="system", agent_id=setup.agent_id)
    session = setup.repos.sessions.create_session(agent_id=setup.agent_id, workspace_id=ws.id)
    path = setup.resolve(session.id).workspace_path
    assert path is not None and path.is_dir()
    shutil.rmtree(path)
    assert setup.resolve(session.id).workspace_path == path
    assert path.is_dir()


def test_the_driver_is_looked_up_and_validates_at_every_hit(setup: Setup) -> None:
    setup.resolve()
    assert setup.code(registry=RuntimeDriverRegistry()) == "driver-not-registered"
    assert len(setup.cache) == 0
    setup.resolve()
    setup.driver.invalid_code = "cli-missing"
    assert setup.code() == "runtime-invalid:cli-missing"
    assert len(setup.cache) == 0
    setup.driver.invalid_code = None  # type: ignore[assignment]
    assert setup.resolve().model_id == "anth::m"


def test_the_cache_keeps_the_most_recently_used_sessions(setup: Setup, statements: list[str]) -> None:
    setup.cache = SessionContextCache(max_sessions=2)
    ws = setup.repos.agents.create_workspace(name="w", path=str(setup.workspace), agent_id=setup.agent_id)
    second, third = (setup.repos.sessions.create_session(agent_id=setup.agent_id, workspace_id=ws.id).id
                     for _ in range(2))
    for session_id in (setup.session_id, second, setup.session_id, third):
        setup.resolve(session_id)
    assert len(setup.cache) == 2
    statements.clear()
    setup.resolve(setup.session_id)  # used after `second`: kept
    assert len(statements) == 1
    setup.resolve(second)  # the least recently used: dropped, read again
    assert len(statements) > 2


def test_turn_writes_leave_the_counter_and_config_writes_bump_it(setup: Setup) -> None:
    repos = setup.repos
    version = repos.sessions.config_version()
    user, assistant = repos.session_messages.create_turn(session_id=setup.session_id,
                                                         user_parts=[TextPart(text="hi")], model_id="anth::m")
    repos.session_messages.update_message(assistant.id, parts=[TextPart(text="yo")], status="success",
                                          runtime_resume_token="tok", stats={"total_tokens": 1})
    repos.session_messages.move_to_end(user.id)
    repos.usage.add(session_id=setup.session_id, message_id=assistant.id, model_id="anth::m", input_tokens=3)
    queued = repos.session_messages.create_message(session_id=setup.session_id, role="user",
                                                   parts=[TextPart(text="next")])
    repos.pending_turns.add(session_id=setup.session_id, user_message_id=queued.id, text="next", is_steer=False)
    repos.pending_turns.remove_by_message(queued.id)
    repos.session_messages.delete_message(queued.id)
    topic = repos.topics.create_topic(name="chat")
    repos.messages.create_message(topic_id=topic.id, role="user", parts=[TextPart(text="hi")])
    assert repos.sessions.config_version() == version
    repos.sessions.rename_session(setup.session_id, "renamed")
    repos.agents.update_agent(setup.agent_id, name="Ada 2")
    repos.providers.upsert_model(provider_id="anth", model_id="o")
    assert repos.sessions.config_version() == version + 3


def _version_two_file(path: Path) -> None:
    """A file as the build with two migrations left it, holding an agent."""
    path.parent.mkdir(parents=True)
    db = pw.SqliteDatabase(str(path), pragmas={"foreign_keys": 1})
    database_proxy.initialize(db)
    for migration in MIGRATIONS[:2]:
        migration(db)
    db.execute_sql("PRAGMA user_version = 2")
    Repositories().agents.create_agent(type="claude-code", name="kept", id="a1")
    db.close()


def test_a_version_two_file_gains_the_counter_and_its_triggers(db_path: Path) -> None:
    _version_two_file(db_path)
    db = open_database(db_path)
    try:
        assert schema_version(db) == len(MIGRATIONS)
        triggers = {row[0] for row in db.execute_sql(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%config_version%'")}
        assert triggers == set(CONFIG_TABLES)
        repos = Repositories()
        assert repos.sessions.config_version() == 0
        assert repos.agents.get_agent("a1").name == "kept"
        repos.agents.update_agent("a1", model="anth::m")
        repos.agents.delete_agent("a1")
        assert repos.sessions.config_version() == 2
        with pytest.raises(pw.IntegrityError):  # one row only
            db.execute_sql('INSERT INTO "config_version" ("id", "value") VALUES (2, 0)')
    finally:
        db.close()


async def test_the_runtime_validates_fresh_turns_through_its_cache(repos: Repositories, tmp_path: Path) -> None:
    h = make_harness(repos, tmp_path)
    await h.send("first")
    conn = await h.driver.wait_connection()
    await conn.wait_sent(1)
    conn.complete("one")
    await h.idle()
    repos.agents.update_agent(h.session.agent_id or "", model="demo::opus")
    await h.send("second")
    await conn.wait_sent(2)
    assert h.rows()[-1].model_id == "demo::opus"
    conn.complete("two")
    await h.idle()
