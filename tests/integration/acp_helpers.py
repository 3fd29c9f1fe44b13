"""The pinned ACP agents for tests: installed once per test session with npm into a cache
folder under the worktree (`.cache/acp`, gitignored; `CHERRY_ACP_PREFIX` points elsewhere),
through the app's own installer (`install_preset`, what `cherry-desktop install-acp-agent`
runs)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from cherry_desktop.core.ai.runtime.acp.install import app_agent, install_preset
from cherry_desktop.core.ai.runtime.acp_presets import ACP_PRESETS

ROOT = Path(__file__).resolve().parents[2]
ACP_PREFIX_ENV = "CHERRY_ACP_PREFIX"


def acp_test_root() -> Path:
    return Path(os.environ.get(ACP_PREFIX_ENV) or ROOT / ".cache" / "acp")


def ensure_test_agent(preset_id: str) -> Path:
    """The install root holding `preset_id`'s pinned package (installed first when missing)."""
    root = acp_test_root()
    preset = ACP_PRESETS[preset_id]
    if app_agent(root / preset.id, preset) is None:
        asyncio.run(install_preset(preset, root))
    return root


def opencode_session(core: Any, base_url: str, workspace: Path) -> str:
    """An ACP agent running opencode on the demo's OpenAI-compatible provider (the scripted
    server), with a workspace and a session; returns the session id."""
    from cherry_desktop.demo.bootstrap import ensure_demo_openai_provider

    model = ensure_demo_openai_provider(core.repos, base_url)
    workspace.mkdir(parents=True, exist_ok=True)
    agents = core.repos.agents
    agent = agents.create_agent(type="acp", name="opencode", model=model, permission_mode="default",
                                config={"acp_agent": "opencode"})
    ws = agents.create_workspace(name="oc", path=str(workspace), agent_id=agent.id)
    return str(core.repos.sessions.create_session(agent_id=agent.id, workspace_id=ws.id, name="oc", model=model).id)
