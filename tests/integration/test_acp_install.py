"""The first turn of an ACP agent that is not installed yet installs its pinned package with
npm into the app's runtime folder, and every window sees the install while it runs (the
`AgentRuntimeSetup` under `agent_runtime_setup_key("acp")`), gone once it is done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cherry_desktop.core.ai.runtime.acp.driver import AcpRuntimeDriver
from cherry_desktop.core.ai.runtime.acp.install import app_agent
from cherry_desktop.core.ai.runtime.acp_presets import CLAUDE_AGENT_ACP, agent_choice
from cherry_desktop.core.ai.runtime.register_drivers import RuntimeDriverDeps
from cherry_desktop.core.data.records import AgentRecord
from cherry_desktop.core.state.shared_cache import AgentRuntimeSetup, SharedCache, agent_runtime_setup_key
from cherry_desktop.core.storage.paths import build_path_registry

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


async def test_a_missing_preset_is_installed_on_first_use_with_progress_in_every_window(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", f"{tmp_path / 'empty-bin'}")  # no claude-agent-acp on PATH
    cache = SharedCache()
    seen: list[Any] = []

    def on_setup(key: str, value: Any) -> None:  # held here: the cache holds subscribers weakly
        seen.append(value)

    cache.subscribe(agent_runtime_setup_key("acp"), on_setup)
    driver = AcpRuntimeDriver(RuntimeDriverDeps(paths=build_path_registry(tmp_path / "data"), shared_cache=cache))
    assert driver.install_root.is_relative_to(tmp_path)  # the app's runtime folder (under its data dir)
    agent = AgentRecord(id="a", type="acp", name="A", description="", instructions="", built_in_id=None, model="p::m",
                        permission_mode="default", disabled_tools=[], config={}, created_at=0, updated_at=0)
    installed = await driver.ensure_installation(agent_choice(agent))
    assert installed.source == "app" and installed.version == CLAUDE_AGENT_ACP.version
    assert app_agent(driver.install_root / CLAUDE_AGENT_ACP.id, CLAUDE_AGENT_ACP) is not None
    progress = [v for v in seen if isinstance(v, AgentRuntimeSetup)]
    assert progress and all(v.version == CLAUDE_AGENT_ACP.version for v in progress)
    assert seen[-1] is None and cache.get(agent_runtime_setup_key("acp")) is None  # done: gone
    # Found from now on, not installed again.
    assert (await driver.ensure_installation(agent_choice(agent))).argv == installed.argv
