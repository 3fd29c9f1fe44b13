"""The pinned ACP agents for tests: installed once per test session with npm into a cache
folder under the worktree (`.cache/acp`, gitignored; `CHERRY_ACP_PREFIX` points elsewhere),
through the app's own installer (`install_preset`, what `cherry-desktop install-acp-agent`
runs)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from cherry_desktop.core.ai.runtime.acp.install import app_agent, install_preset
from cherry_desktop.core.ai.runtime.acp.presets import ACP_PRESETS

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
