"""Session validation reads the session's rows at every call: an edit to the session, its agent,
workspace, provider or model (from this connection or another) is seen by the next call, and
the folder, driver, capability and driver checks run every time."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from cherry_desktop.core.ai.agent_session import AgentSessionValidationError
from cherry_desktop.core.ai.agent_session.validation import resolve_session_context
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverRegistry
from cherry_desktop.core.ai.runtime.types import RuntimeSessionContext
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.data.models import database_proxy
from cherry_desktop.core.storage.paths import PathRegistry, build_path_registry
from tests.fakes.scripted_driver import ScriptedDriver
from tests.unit.agent_session.harness import make_harness


@dataclass
class Setup:
    repos: Repositories
    paths: PathRegistry
    registry: RuntimeDriverRegistry
    driver: ScriptedDriver
    agent_id: str
    session_id: str
    workspace: Path

    def resolve(self, session_id: str | None = None, *,
                registry: RuntimeDriverRegistry | None = None) -> RuntimeSessionContext:
        return resolve_session_context(session_id or self.session_id, repos=self.repos, paths=self.paths,
                                       registry=registry or self.registry)

    def code(self, session_id: str | None = None, **kwargs: RuntimeDriverRegistry) -> str:
        with pytest.raises(AgentSessionValidationError) as info:
            self.resolve(session_id, **kwargs)
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
                 agent_id=agent.id, session_id=session.id, workspace=workspace)


def test_each_call_returns_a_new_context_from_the_rows(setup: Setup) -> None:
    first = setup.resolve()
    second = setup.resolve()
    assert second == first and second is not first
    assert second.workspace_path == setup.workspace.resolve() and second.model_id == "anth::m"
    assert second.session.name == "first" and second.provider == setup.repos.providers.get_provider("anth")
    # The caller's changes to its context stay its own.
    second.model_id = "anth::other"
    assert setup.resolve().model_id == "anth::m"
    assert len(setup.driver.validated) == 3


def test_changed_session_agent_and_workspace_rows_are_seen(setup: Setup, tmp_path: Path) -> None:
    repos = setup.repos
    setup.resolve()
    repos.sessions.rename_session(setup.session_id, "renamed")
    assert setup.resolve().session.name == "renamed"
    repos.agents.update_agent(setup.agent_id, model="anth::n")
    assert setup.resolve().model_id == "anth::n"
    db = database_proxy.obj
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
    db.execute_sql('UPDATE "agent_session" SET "workspace_id" = NULL WHERE "id" = ?', (setup.session_id,))
    assert setup.code() == "workspace-missing"
    db.execute_sql('UPDATE "agent_session" SET "agent_id" = NULL WHERE "id" = ?', (setup.session_id,))
    assert setup.code() == "agent-missing"


def test_deleting_the_agent_deletes_its_sessions(setup: Setup) -> None:
    setup.resolve()
    setup.repos.agents.delete_agent(setup.agent_id)
    assert setup.code() == "session-not-found"


def test_changed_provider_and_model_rows_are_seen(setup: Setup) -> None:
    repos = setup.repos
    assert setup.resolve().provider == repos.providers.get_provider("anth")
    # Claude Code cannot drive a model of a disabled provider (an OpenAI one it drives through
    # the gateway, see tests/integration/test_claude_code_gateway.py).
    repos.providers.update_provider("anth", enabled=False)
    assert setup.code() == "model-incompatible"
    repos.providers.update_provider("anth", enabled=True, base_url="http://127.0.0.1:9")
    assert setup.resolve().provider.base_url == "http://127.0.0.1:9"  # type: ignore[union-attr]
    repos.providers.update_provider("anth", type="openai")
    assert setup.resolve().provider.type == "openai"  # type: ignore[union-attr]
    repos.providers.update_provider("anth", type="anthropic")
    setup.resolve()
    # A model that no longer exists is refused (typed), before anything is written or spawned.
    repos.providers.delete_model("anth::m")
    assert setup.code() == "model-not-found"
    repos.providers.upsert_model(provider_id="anth", model_id="m")
    repos.providers.update_provider("anth", enabled=False)
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


def test_a_vanished_user_workspace_fails_until_it_is_back(setup: Setup) -> None:
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


def test_the_driver_is_looked_up_and_validates_at_every_call(setup: Setup) -> None:
    setup.resolve()
    assert setup.code(registry=RuntimeDriverRegistry()) == "driver-not-registered"
    setup.driver.invalid_code = "cli-missing"
    assert setup.code() == "runtime-invalid:cli-missing"
    setup.driver.invalid_code = None
    assert setup.resolve().model_id == "anth::m"
    assert len(setup.driver.validated) == 3


async def test_the_runtime_validates_each_fresh_turn_from_the_rows(repos: Repositories, tmp_path: Path) -> None:
    """An agent edited between two turns of a live session: the second turn runs on the new model."""
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
    await h.aclose()
