"""The ACP agents Cherry knows (presets), and which one an agent runs.

One runtime serves many agents: which ACP agent an agent runs is a per-agent setting in its
``config``: ``acp_agent`` names a preset (default `DEFAULT_PRESET`), or ``acp_command`` (a list
of words) runs any other ACP agent as given ("custom command"; it gets the provider's endpoint
the way ``acp_dialect`` says, "anthropic" by default).

Each preset says how its agent reads its endpoint, model and key (`dialect`): the offline facts
measured here (claude-agent-acp 0.23.1 and opencode 1.18.33 against the scripted server work;
gemini-cli and codex-acp did not run offline; pi-acp needs another pi than Cherry's).

Beside `acp/`, not in it: the descriptor table (`capabilities`) lists the presets as the ACP
runtime's variants, and `acp/` reads that table, so the presets sit below both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cherry_desktop.core.data.records import AgentRecord

Dialect = Literal["anthropic", "opencode"]

PRESET_KEY = "acp_agent"
COMMAND_KEY = "acp_command"
DIALECT_KEY = "acp_dialect"


@dataclass(frozen=True)
class AcpPreset:
    """A known ACP agent: its pinned npm package and how it is started and configured."""

    id: str
    label: str
    package: str
    version: str
    #: The JS entry under the npm prefix (started as ``node <entry>``), or None for a package
    #: whose bin is a native binary (`native_bin`).
    entry: Path | None
    #: Extra arguments after the entry (opencode: ``acp``).
    args: tuple[str, ...]
    dialect: Dialect
    #: The command name a matching agent on PATH has.
    path_command: str
    #: For a package whose bin is a native binary: that binary under the prefix (run as is).
    native_bin: Path | None = None

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"


CLAUDE_AGENT_ACP = AcpPreset(
    id="claude-agent-acp", label="Claude Agent", package="@zed-industries/claude-agent-acp", version="0.23.1",
    entry=Path("node_modules/@zed-industries/claude-agent-acp/dist/index.js"), args=(), dialect="anthropic",
    path_command="claude-agent-acp")

OPENCODE = AcpPreset(
    id="opencode", label="opencode", package="opencode-ai", version="1.18.33",
    entry=None, args=("acp",), dialect="opencode", path_command="opencode",
    # npm links the platform package's binary there (its postinstall is not needed).
    native_bin=Path("node_modules/opencode-ai/bin/opencode.exe"))

ACP_PRESETS: dict[str, AcpPreset] = {p.id: p for p in (CLAUDE_AGENT_ACP, OPENCODE)}
DEFAULT_PRESET = CLAUDE_AGENT_ACP.id


@dataclass(frozen=True)
class AgentChoice:
    """What an agent runs: a preset, or a custom command (``preset`` None)."""

    preset: AcpPreset | None
    command: tuple[str, ...] = ()
    dialect: Dialect = "anthropic"


class AcpConfigError(ValueError):
    """The agent's ACP settings name no runnable agent; `code` is stable."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def agent_choice(agent: AgentRecord) -> AgentChoice:
    """The ACP agent `agent` runs (`AcpConfigError` for an unknown preset or a bad command)."""
    config = agent.config or {}
    command = config.get(COMMAND_KEY)
    if command:
        if not isinstance(command, list) or not all(isinstance(w, str) and w for w in command):
            raise AcpConfigError("acp-command-invalid", repr(command))
        dialect = config.get(DIALECT_KEY, "anthropic")
        if dialect not in ("anthropic", "opencode"):
            raise AcpConfigError("acp-dialect-unknown", str(dialect))
        return AgentChoice(preset=None, command=tuple(command), dialect=dialect)
    preset_id = config.get(PRESET_KEY) or DEFAULT_PRESET
    preset = ACP_PRESETS.get(str(preset_id))
    if preset is None:
        raise AcpConfigError("acp-agent-unknown", str(preset_id))
    return AgentChoice(preset=preset, dialect=preset.dialect)
