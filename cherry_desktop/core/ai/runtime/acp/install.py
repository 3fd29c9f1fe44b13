"""Finding an ACP agent's command, and installing a preset's pinned npm package.

Order: a command on PATH with the preset's name (run as it is), else the pinned package the
app installed into its own runtime folder (``feature.agents.acp.install/<preset>``, an npm
``--prefix``), run on the Node `runtime.node` finds. A custom command is run as given.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from cherry_desktop.core.ai.runtime.acp_presets import AcpPreset, AgentChoice
from cherry_desktop.core.ai.runtime.node import (
    Progress,
    RuntimeUnavailableError,
    find_node,
    installed_version,
    npm_install,
)


@dataclass(frozen=True)
class AcpInstallation:
    """The argv prefix that starts one ACP agent (append nothing: it speaks ACP on stdio)."""

    argv: tuple[str, ...]
    source: str  # "path" | "app" | "custom"
    version: str = ""


def _package_dir(prefix: Path, preset: AcpPreset) -> Path:
    return prefix.absolute() / "node_modules" / preset.package


def app_agent(prefix: Path, preset: AcpPreset) -> AcpInstallation | None:
    """The preset's pinned package under `prefix`, if installed at the pinned version."""
    if installed_version(_package_dir(prefix, preset) / "package.json") != preset.version:
        return None
    if preset.entry is not None:
        entry = prefix.absolute() / preset.entry
        if not entry.exists():
            return None
        return AcpInstallation(argv=(str(find_node().node), str(entry), *preset.args), source="app",
                               version=preset.version)
    assert preset.native_bin is not None
    binary = prefix.absolute() / preset.native_bin
    if not binary.exists():
        return None
    return AcpInstallation(argv=(str(binary), *preset.args), source="app", version=preset.version)


def find_agent(choice: AgentChoice, prefix_root: Path) -> AcpInstallation:
    """The command of `choice`, or `RuntimeUnavailableError` ``acp-agent-missing``."""
    if choice.preset is None:
        program = choice.command[0]
        if shutil.which(program) is None and not Path(program).is_file():
            raise RuntimeUnavailableError("acp-agent-missing", program)
        return AcpInstallation(argv=choice.command, source="custom")
    preset = choice.preset
    on_path = shutil.which(preset.path_command)
    if on_path is not None:
        return AcpInstallation(argv=(on_path, *preset.args), source="path")
    found = app_agent(prefix_root / preset.id, preset)
    if found is None:
        raise RuntimeUnavailableError("acp-agent-missing", f"{preset.spec} is not installed")
    return found


async def install_preset(preset: AcpPreset, prefix_root: Path, progress: Progress | None = None) -> AcpInstallation:
    """`npm install` the preset's pinned package into ``prefix_root/<preset>``."""
    prefix = prefix_root / preset.id
    await npm_install(prefix, preset.spec, failed_code="acp-install-failed", progress=progress)
    installed = app_agent(prefix, preset)
    if installed is None:
        raise RuntimeUnavailableError("acp-install-failed", f"npm finished but {preset.spec} is incomplete")
    return installed
