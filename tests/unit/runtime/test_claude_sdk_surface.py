"""What the Claude Code driver relies on of claude-agent-sdk, checked against the installed SDK.

The driver uses the SDK's public surface (its `Transport` seam, `ClaudeSDKClient(options,
transport=...)`, its message, permission and hook types) and mirrors two things its own
subprocess transport does, which no public API exposes. These tests read the SDK's private
transport on purpose: they fail when the SDK changes what the driver mirrors, instead of the
app silently starting the CLI differently.
"""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import claude_agent_sdk
import pytest
from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, Transport
from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport
from packaging.requirements import Requirement

from cherry_desktop.core.ai.runtime.claude_code.cli_command import CliLaunch, bundled_cli_path, cli_arguments
from cherry_desktop.core.ai.runtime.claude_code.query_builder import system_prompt_option
from cherry_desktop.core.ai.runtime.prompt import AgentRuntimePrompt
from cherry_desktop.core.mcp import McpToolSpec
from cherry_desktop.core.mcp.toolset import ToolResult, ToolServer
from cherry_desktop.core.messages.json_value import JsonObject

ROOT = Path(__file__).resolve().parents[3]


def test_the_installed_sdk_is_one_the_driver_was_checked_on() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (spec,) = [Requirement(d) for d in deps if d.startswith("claude-agent-sdk")]
    assert spec.specifier.contains(claude_agent_sdk.__version__), (spec, claude_agent_sdk.__version__)


def test_the_public_seam_the_driver_uses_is_there() -> None:
    assert "transport" in inspect.signature(ClaudeSDKClient).parameters
    abstract = {name for name, member in vars(Transport).items() if getattr(member, "__isabstractmethod__", False)}
    assert abstract == {"connect", "write", "read_messages", "close", "is_ready", "end_input"}


def test_the_bundled_cli_is_where_the_driver_looks_for_it() -> None:
    ours = bundled_cli_path()
    assert ours is not None and ours.is_file()
    sdk_transport = SubprocessCLITransport(prompt="", options=ClaudeAgentOptions())
    assert sdk_transport._find_bundled_cli() == str(ours)


async def _no_call(tool: str, arguments: JsonObject) -> ToolResult:
    return ToolResult.error("not called")


LAUNCHES = [
    CliLaunch(cwd="/tmp", model="claude-x", permission_mode="default", disabled_tools=(),
              prompt=AgentRuntimePrompt(base=None, append="policy"), resume=None),
    CliLaunch(cwd="/tmp", model="claude-x", permission_mode="acceptEdits", disabled_tools=("Bash", "Write"),
              prompt=AgentRuntimePrompt(base="own base", append="policy"),
              resume="0b9a5c3e-1d2f-4e5a-8b7c-6d5e4f3a2b1c"),
    CliLaunch(cwd=None, model=None, permission_mode="bypassPermissions", disabled_tools=("Task",),
              prompt=AgentRuntimePrompt(base=None, append="x"), resume="-looks-like-a-flag"),
    CliLaunch(cwd="/tmp", model="claude-x", permission_mode="default", disabled_tools=(),
              prompt=AgentRuntimePrompt(base=None, append="policy"), resume=None,
              tool_servers=(ToolServer("time", (McpToolSpec("get_current_time"),), _no_call),
                            ToolServer("cherry-tools", (), _no_call)), plugin_dirs=("/data/plugin",)),
]


@pytest.mark.parametrize("launch", LAUNCHES)
def test_the_cli_command_is_the_one_the_sdk_transport_builds(launch: CliLaunch) -> None:
    """Our transport's command line == the SDK transport's for the same options (what the
    SDK would apply, had the driver used its transport)."""

    options = ClaudeAgentOptions(
        cwd=launch.cwd, model=launch.model, permission_mode=launch.permission_mode,  # type: ignore[arg-type]
        disallowed_tools=list(launch.disabled_tools), system_prompt=system_prompt_option(launch.prompt),  # type: ignore[arg-type]
        resume=launch.resume, include_partial_messages=True, setting_sources=["project"], strict_mcp_config=True,
        mcp_servers={s.key: {"type": "sdk", "name": s.key, "instance": None}  # type: ignore[typeddict-item]
                     for s in launch.tool_servers},
        plugins=[{"type": "local", "path": p} for p in launch.plugin_dirs],
        # What the SDK's `ClaudeSDKClient.connect` sets when a `can_use_tool` callback is given.
        permission_prompt_tool_name="stdio")
    sdk_transport = SubprocessCLITransport(prompt="", options=options)
    sdk_transport._cli_path = "claude"
    assert cli_arguments(launch) == sdk_transport._build_command()[1:]
