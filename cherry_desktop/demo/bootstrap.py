"""`cherry-desktop --demo`: the scripted model server plus, on first run, a demo agent.

The server listens on an ephemeral 127.0.0.1 port, so every start rewrites the demo
provider's base URL. The demo key is a placeholder the scripted server accepts; it is not a
credential and lives in the provider's settings, not in the keyring.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cherry_desktop.core.state.topics import session_topic_id
from cherry_desktop.demo.chat import DEMO_CHAT_HEADER
from cherry_desktop.demo.cli_env import DEMO_API_KEY, QUIET_CLI_ENV
from cherry_desktop.demo.script import demo_script
from cherry_desktop.demo.server import ScriptedModelServer

log = logging.getLogger(__name__)

DEMO_PROVIDER_ID = "cherry-demo"
DEMO_MODEL_ID = "claude-demo"
DEMO_AGENT_ID = "cherry-demo-agent"
DEMO_UNIQUE_MODEL_ID = f"{DEMO_PROVIDER_ID}::{DEMO_MODEL_ID}"
# A second model on the demo provider, so a chat can ask two models at once offline.
DEMO_SECOND_MODEL_ID = "claude-demo-fast"
DEMO_SECOND_UNIQUE_MODEL_ID = f"{DEMO_PROVIDER_ID}::{DEMO_SECOND_MODEL_ID}"
DEMO_PI_AGENT_ID = "cherry-demo-pi-agent"
# The same scripted server as an OpenAI-compatible provider: a model Claude Code can only run
# through the API gateway (which translates its Anthropic requests).
DEMO_OPENAI_PROVIDER_ID = "cherry-demo-openai"
DEMO_OPENAI_MODEL_ID = "demo-openai"


@dataclass
class DemoHandle:
    server: ScriptedModelServer
    agent_id: str
    session_id: str
    workspace: Path
    pi_session_id: str | None = None

    @property
    def topic_id(self) -> str:
        return session_topic_id(self.session_id)

    async def stop(self) -> None:
        await self.server.stop()


def demo_provider_settings() -> dict[str, Any]:
    """Settings of the demo provider: the child env that keeps the CLI on the local server, and
    the header that marks Cherry's own chat requests (`demo/chat.py`)."""
    return {"demo": True, "env": {**QUIET_CLI_ENV, "ANTHROPIC_API_KEY": DEMO_API_KEY},
            "headers": {DEMO_CHAT_HEADER: "1"}}


def ensure_demo_records(repos: Any, workspaces_root: Path, base_url: str) -> tuple[str, str, Path]:
    """Create (first run) or refresh the demo provider, model, agent, workspace and session.

    Returns (agent_id, session_id, workspace_path).
    """
    repos.providers.upsert_provider(id=DEMO_PROVIDER_ID, name="Cherry demo (offline)", type="anthropic",
                                    base_url=base_url, settings=demo_provider_settings())
    repos.providers.upsert_model(provider_id=DEMO_PROVIDER_ID, model_id=DEMO_MODEL_ID, name="Demo model")
    repos.providers.upsert_model(provider_id=DEMO_PROVIDER_ID, model_id=DEMO_SECOND_MODEL_ID, name="Demo model (fast)")
    return _ensure_demo_agent_session(
        repos, workspaces_root / "demo", agent_id=DEMO_AGENT_ID, agent_type="claude-code",
        names=("Demo agent", "Demo workspace", "Demo session"),
        description="Claude Code against Cherry's offline demo model")


def ensure_demo_openai_provider(repos: Any, base_url: str) -> str:
    """The demo's OpenAI-compatible provider on the scripted server; returns its unique model id."""
    repos.providers.upsert_provider(id=DEMO_OPENAI_PROVIDER_ID, name="Cherry demo, OpenAI-compatible (offline)",
                                    type="openai-compatible", base_url=base_url.rstrip("/") + "/v1",
                                    settings={"demo": True, "headers": {DEMO_CHAT_HEADER: "1"}})
    repos.providers.upsert_model(provider_id=DEMO_OPENAI_PROVIDER_ID, model_id=DEMO_OPENAI_MODEL_ID,
                                 name="Demo model (OpenAI-compatible)")
    return f"{DEMO_OPENAI_PROVIDER_ID}::{DEMO_OPENAI_MODEL_ID}"


def _ensure_demo_agent_session(repos: Any, workspace: Path, *, agent_id: str, agent_type: str,
                               names: tuple[str, str, str], description: str) -> tuple[str, str, Path]:
    """The demo agent `agent_id`, its system workspace `workspace` and its first session, each
    created on first run; `names`: (agent, workspace, session). Returns (agent_id, session_id,
    workspace)."""
    name, workspace_name, session_name = names
    workspace.mkdir(parents=True, exist_ok=True)
    agent = repos.agents.find_agent(agent_id)
    if agent is None:
        agent = repos.agents.create_agent(id=agent_id, type=agent_type, name=name, model=DEMO_UNIQUE_MODEL_ID,
                                          description=description, permission_mode="default")
        log.info("created the demo agent %s", agent_id)
    ws = next((w for w in repos.agents.list_workspaces(agent.id) if Path(w.path) == workspace), None)
    if ws is None:
        ws = repos.agents.create_workspace(name=workspace_name, path=str(workspace),
                                           kind="system", agent_id=agent.id)
    sessions = repos.sessions.list_sessions(agent.id)
    session = sessions[0] if sessions else repos.sessions.create_session(
        agent_id=agent.id, workspace_id=ws.id, name=session_name, model=DEMO_UNIQUE_MODEL_ID)
    return agent.id, session.id, workspace


#: Seconds before each streamed piece of the demo's answers (default `delay_s`): tests and QA
#: slow the demo down to stop, kill or signal the app mid-turn.
DEMO_DELAY_ENV = "CHERRY_DESKTOP_DEMO_DELAY_S"


def ensure_pi_demo_records(repos: Any, workspaces_root: Path) -> tuple[str, str, Path]:
    """The pi demo agent on the same demo provider (created on first run); returns
    (agent_id, session_id, workspace_path). Call after `ensure_demo_records`."""
    return _ensure_demo_agent_session(
        repos, workspaces_root / "demo-pi", agent_id=DEMO_PI_AGENT_ID, agent_type="pi",
        names=("Demo pi agent", "Demo pi workspace", "Demo pi session"),
        description="pi against Cherry's offline demo model")


async def start_demo(core: Any, *, delay_s: float = 0.04, openai_provider: bool = False) -> DemoHandle:
    """Start the scripted server and make sure the demo agent and session exist (with
    `openai_provider`, also the demo's OpenAI-compatible provider)."""
    delay_s = float(os.environ.get(DEMO_DELAY_ENV) or delay_s)
    workspaces_root = core.paths.get("feature.agents.workspaces")
    server = ScriptedModelServer(default=demo_script(workspaces_root / "demo", delay_s=delay_s))
    base_url = await server.start()
    agent_id, session_id, workspace = ensure_demo_records(core.repos, workspaces_root, base_url)
    _, pi_session_id, _ = ensure_pi_demo_records(core.repos, workspaces_root)
    if openai_provider:
        ensure_demo_openai_provider(core.repos, base_url)
    log.info("demo model server on %s", base_url)
    return DemoHandle(server=server, agent_id=agent_id, session_id=session_id, workspace=workspace,
                      pi_session_id=pi_session_id)


DEMO_ACP_AGENT_ID = "cherry-demo-acp-agent"


def ensure_acp_demo_records(repos: Any, workspaces_root: Path) -> tuple[str, str, Path]:
    """The ACP demo agent (Claude Agent over ACP, the default preset) on the same demo provider
    (created on first run); returns (agent_id, session_id, workspace_path). Call after
    `ensure_demo_records`."""
    return _ensure_demo_agent_session(
        repos, workspaces_root / "demo-acp", agent_id=DEMO_ACP_AGENT_ID, agent_type="acp",
        names=("Demo ACP agent", "Demo ACP workspace", "Demo ACP session"),
        description="An ACP agent (Claude Agent) against Cherry's offline demo model")
