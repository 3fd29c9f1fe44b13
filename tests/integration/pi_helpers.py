"""Helpers to drive `PiRuntimeDriver` directly against the scripted server with the real pi."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.install import (
    PiInstallation,
    PiUnavailableError,
    find_pi,
    install_pinned_pi,
)
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps
from cherry_desktop.core.ai.runtime.types import PermissionMode, RuntimeConnectInput, RuntimeSessionContext
from cherry_desktop.core.data.records import AgentRecord, AgentSessionRecord, ProviderRecord, WorkspaceRecord
from cherry_desktop.core.storage.paths import PathRegistry, build_path_registry
from cherry_desktop.demo import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[2]
#: Where tests keep the pinned pi (an npm --prefix); `.ci/run` installs it there first.
PI_PREFIX_ENV = "CHERRY_PI_PREFIX"
TEST_KEY = "sk-test-pi-key-7f3a"


def pi_test_prefix() -> Path:
    return Path(os.environ.get(PI_PREFIX_ENV) or ROOT / ".venv" / "pi")


def ensure_test_pi() -> PiInstallation:
    """The pinned pi for tests: found, else installed with npm (~15 s, once)."""
    prefix = pi_test_prefix()
    try:
        return find_pi(prefix)
    except PiUnavailableError as exc:
        if exc.code != "pi-missing":
            raise
    return asyncio.run(install_pinned_pi(prefix))


def pi_demo_session(core: Any, base_url: str, installation: PiInstallation | None = None) -> str:
    """The demo's pi agent and session on `core`, against the server at `base_url`, run by
    `installation` (the test's pi) when given; returns the session id."""
    from cherry_desktop.demo.bootstrap import ensure_demo_records, ensure_pi_demo_records

    root = core.paths.get("feature.agents.workspaces")
    ensure_demo_records(core.repos, root, base_url)
    _, session_id, _ = ensure_pi_demo_records(core.repos, root)
    if installation is not None:
        driver = core.agent_runtime.registry.get("pi")
        assert isinstance(driver, PiRuntimeDriver)
        driver.use_installation(installation)
    return str(session_id)


def make_pi_context(tmp_path: Path, workspace: Path, base_url: str, *, permission_mode: str = "default",
                    session_id: str = "session-1") -> RuntimeSessionContext:
    agent = AgentRecord(id="agent-pi", type="pi", name="Pi coder", description="", instructions="",
                        built_in_id=None, model="scripted::claude-demo", permission_mode=permission_mode,
                        disabled_tools=[], config={}, created_at=0, updated_at=0)
    session = AgentSessionRecord(id=session_id, agent_id=agent.id, workspace_id="ws-1", name="s",
                                 model=agent.model, created_at=0, updated_at=0)
    ws = WorkspaceRecord(id="ws-1", agent_id=agent.id, name="ws", path=str(workspace), kind="user")
    provider = ProviderRecord(id="scripted", name="Scripted", type="anthropic", base_url=base_url, enabled=True,
                              settings={})
    return RuntimeSessionContext(session=session, agent=agent, workspace=ws, workspace_path=workspace,
                                 agent_data_dir=tmp_path / "agent-data", model_id=agent.model, provider=provider)


@dataclass
class PiHarness:
    server: ScriptedModelServer
    tmp_path: Path
    workspace: Path
    installation: PiInstallation
    last_token: list[str | None] = field(default_factory=lambda: [None])
    home: Path | None = None

    def __post_init__(self) -> None:
        self.paths: PathRegistry = build_path_registry(self.tmp_path / "data")
        self.home = self.tmp_path / "home"
        self.home.mkdir(exist_ok=True)

    def driver(self) -> PiRuntimeDriver:
        return PiRuntimeDriver(RuntimeDriverDeps(paths=self.paths), installation=self.installation)

    def connect_input(self, *, resume_token: str | None = None, permission_mode: PermissionMode = "default",
                      disabled_tools: frozenset[str] = frozenset(),
                      get_last: Callable[[], str | None] | None = None) -> RuntimeConnectInput:
        return RuntimeConnectInput(
            context=make_pi_context(self.tmp_path, self.workspace, self.server.base_url),
            resume_token=resume_token, permission_mode=permission_mode, disabled_tools=disabled_tools,
            get_api_key=lambda: TEST_KEY, get_last_resume_token=get_last or (lambda: self.last_token[0]),
            # A throwaway HOME: the user's real ~/.pi is never read, and tests plant files here.
            extra_env={"HOME": str(self.home)})
