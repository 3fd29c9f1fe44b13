"""Shared integration fixtures: the scripted model server, a workspace directory, the pinned pi,
and the whole app core for either runtime (`open_app`: claude-code, `open_pi_app`: pi); the
gateway in front of the scripted server (`upstream`, `gateway`, `GATEWAY_KEY`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cherry_desktop.core.ai.runtime.pi.driver import PiRuntimeDriver
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.data import Repositories
from cherry_desktop.core.gateway import ApiGateway, GatewayKeyCheck
from cherry_desktop.core.storage.credentials import CredentialStore
from cherry_desktop.demo import ScriptedModelServer
from tests.integration.acp_helpers import ensure_test_agent
from tests.integration.app_core import AgentType, OpenApp, app_opener
from tests.integration.pi_helpers import PiHarness, ensure_test_pi


@pytest.fixture
async def model_server() -> AsyncIterator[ScriptedModelServer]:
    """A started :class:`ScriptedModelServer` (empty script), stopped after the test."""
    server = ScriptedModelServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty agent workspace directory under ``tmp_path``."""
    path = tmp_path / "workspace"
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def pi_installation() -> PiInstallation:
    """The pinned pi (installed with npm into the test prefix on first use)."""
    return ensure_test_pi()


@pytest.fixture
def pi_harness(model_server: ScriptedModelServer, tmp_path: Path, workspace: Path,
               pi_installation: PiInstallation) -> PiHarness:
    """`PiRuntimeDriver`s on the pinned pi against the scripted server (see `PiHarness`)."""
    return PiHarness(model_server, tmp_path, workspace, pi_installation)


@pytest.fixture
async def pi_driver(pi_harness: PiHarness) -> AsyncIterator[PiRuntimeDriver]:
    """A `PiRuntimeDriver` of `pi_harness`, shut down (no pi left) after the test."""
    driver = pi_harness.driver()
    try:
        yield driver
    finally:
        await driver.shutdown()


@pytest.fixture
async def open_app(tmp_path: Path, model_server: ScriptedModelServer) -> AsyncIterator[OpenApp]:
    """`await open_app()`: the app core with the Claude Code demo session (see `app_opener`)."""
    async with app_opener(tmp_path, model_server, "claude-code") as opener:
        yield opener


@pytest.fixture
async def open_pi_app(tmp_path: Path, model_server: ScriptedModelServer,
                      pi_installation: PiInstallation) -> AsyncIterator[OpenApp]:
    """`await open_pi_app()`: the app core with the pi demo session on the pinned pi."""
    async with app_opener(tmp_path, model_server, "pi", pi_installation=pi_installation) as opener:
        yield opener


@pytest.fixture(params=["claude-code", "pi", "acp"])
def runtime_under_test(request: pytest.FixtureRequest) -> tuple[AgentType, PiInstallation | Path | None]:
    """Each agent runtime in turn, with the pinned pi for pi and the pinned claude-agent-acp's
    install root for acp (asked for outside the event loop: a first use installs it)."""
    if request.param == "pi":
        return "pi", request.getfixturevalue("pi_installation")
    if request.param == "acp":
        return "acp", request.getfixturevalue("claude_acp_root")
    return request.param, None


@pytest.fixture
async def open_runtime_app(runtime_under_test: tuple[AgentType, PiInstallation | Path | None], tmp_path: Path,
                           model_server: ScriptedModelServer) -> AsyncIterator[OpenApp]:
    """`open_app` for each runtime in turn: a behaviour the spec asks of every runtime."""
    agent_type, extra = runtime_under_test
    pi = extra if isinstance(extra, PiInstallation) else None
    acp_root = extra if isinstance(extra, Path) else None
    async with app_opener(tmp_path, model_server, agent_type, pi_installation=pi, acp_install_root=acp_root) as opener:
        yield opener


# The gateway in front of the scripted model server as both kinds of upstream: provider `anth`
# speaks Anthropic Messages, `oai` OpenAI chat completions, each with model `m1`.
GATEWAY_KEY = "cs-sk-test-key"


@pytest.fixture
async def upstream() -> AsyncIterator[ScriptedModelServer]:
    async with ScriptedModelServer(script_all=True) as server:
        yield server


@pytest.fixture
async def gateway(repos: Repositories, upstream: ScriptedModelServer) -> AsyncIterator[ApiGateway]:
    repos.providers.upsert_provider(id="anth", name="Scripted Anthropic", type="anthropic",
                                    base_url=upstream.base_url, settings={"demo": True})
    repos.providers.upsert_provider(id="oai", name="Scripted OpenAI", type="openai-compatible",
                                    base_url=upstream.base_url + "/v1", settings={"demo": True})
    for provider in ("anth", "oai"):
        repos.providers.upsert_model(provider_id=provider, model_id="m1", name="Model one")
    gw = ApiGateway(repos, CredentialStore(), GatewayKeyCheck(fixed_key=GATEWAY_KEY), port=0)
    await gw.start()
    try:
        yield gw
    finally:
        await gw.stop()


@pytest.fixture(scope="session")
def claude_acp_root() -> Path:
    """The install root with the pinned claude-agent-acp (npm-installed on first use)."""
    return ensure_test_agent("claude-agent-acp")


@pytest.fixture(scope="session")
def opencode_root() -> Path:
    """The install root with the pinned opencode (npm-installed on first use)."""
    return ensure_test_agent("opencode")


@pytest.fixture
async def open_acp_app(tmp_path: Path, model_server: ScriptedModelServer,
                       claude_acp_root: Path) -> AsyncIterator[OpenApp]:
    """`await open_acp_app()`: the app core with the ACP demo session (Claude Agent over ACP)."""
    async with app_opener(tmp_path, model_server, "acp", acp_install_root=claude_acp_root) as opener:
        yield opener
