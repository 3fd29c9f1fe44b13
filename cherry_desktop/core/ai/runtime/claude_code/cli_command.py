"""The Claude Code CLI a connection starts: where it is, its command line and its environment.

The SDK applies no `ClaudeAgentOptions` CLI flag to a custom `Transport` ("Command-line options
in options ... are not applied to a custom transport", `claude_agent_sdk.query`), so the app's
transport (`transport.CliTransport`) starts the CLI with the command built here from a
`CliLaunch`: the flags the SDK's own subprocess transport would pass for the same facts, in the
same order (`tests/unit/runtime/test_claude_sdk_surface.py` compares the two, so a changed SDK
fails a test instead of silently starting the CLI differently). Hooks and the permission
callback are not flags: the SDK sends them in its ``initialize`` control request.

The CLI is the one bundled in the claude-agent-sdk wheel (`bundled_cli_path`; the app pins the
CLI it ships), found without importing the SDK. Where the wheel has none, ``claude`` on PATH.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cherry_desktop.core.ai.runtime.prompt import AgentRuntimePrompt
from cherry_desktop.core.mcp.toolset import ToolServer

#: Where the SDK's wheel carries the CLI (``claude_agent_sdk/_bundled/claude``): the one private
#: layout the app relies on (a test fails when the SDK moves it).
BUNDLED_DIR = "_bundled"

#: Set by the SDK's own transport for every CLI it starts; the app's transport does the same.
ENTRYPOINT_ENV = "CLAUDE_CODE_ENTRYPOINT"
SDK_VERSION_ENV = "CLAUDE_AGENT_SDK_VERSION"
#: Asks the CLI for the ``session_state_changed`` frames the SDK's query reads (and drops).
READS_SESSION_STATE_ENV = "CLAUDE_CODE_SDK_READS_SESSION_STATE"
#: A label an outer SDK session derived for its app: never passed on to ours.
DERIVED_CLIENT_APP_ENV = "CLAUDE_AGENT_SDK_DERIVED_CLIENT_APP"
#: Set inside a Claude Code session: a CLI started with it thinks it runs inside another.
NESTED_SESSION_ENV = "CLAUDECODE"


def cli_name() -> str:
    return "claude.exe" if os.name == "nt" else "claude"


def bundled_cli_path() -> Path | None:
    """The CLI bundled in the claude-agent-sdk wheel, found without importing the SDK."""
    spec = importlib.util.find_spec("claude_agent_sdk")  # a literal: the bundle scan reads it
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        cli = Path(location) / BUNDLED_DIR / cli_name()
        if cli.is_file():
            return cli
    return None


def find_cli() -> str | None:
    """The CLI to start: the bundled one, else ``claude`` on PATH (None: there is none)."""
    bundled = bundled_cli_path()
    if bundled is not None:
        return str(bundled)
    return shutil.which(cli_name())


@dataclass(frozen=True)
class CliLaunch:
    """Everything one CLI process is started with (spawn-frozen: a change needs a new CLI)."""

    cwd: str | None
    model: str | None
    permission_mode: str
    disabled_tools: tuple[str, ...]
    prompt: AgentRuntimePrompt
    resume: str | None
    #: Overrides of the CLI's environment (the provider's endpoint...): never a secret.
    env: Mapping[str, str] = field(default_factory=dict)
    #: The keyring's key, handed to the CLI over a socket (`key_handoff`), never via `env`.
    api_key: str | None = field(default=None, repr=False)
    #: The SDK's permission callback is set: the CLI asks it over stdio before a tool runs.
    asks_permission: bool = True
    #: In-process servers (the SDK's ``sdk`` MCP configs) relaying to Cherry's tools: the CLI
    #: spawns no MCP server of its own, and loads none from the user's or workspace's config.
    tool_servers: tuple[ToolServer, ...] = ()
    #: Local plugin folders (the agent's enabled skills: `skills_plugin`).
    plugin_dirs: tuple[str, ...] = ()


def mcp_config_json(servers: tuple[ToolServer, ...]) -> str:
    """``--mcp-config``'s value: what the SDK's transport passes for ``sdk`` servers."""
    return json.dumps({"mcpServers": {s.key: {"type": "sdk", "name": s.key} for s in servers}})


def cli_arguments(launch: CliLaunch) -> list[str]:
    """The CLI's arguments (after its path) for `launch`: the SDK transport's flags for the same
    options (``system_prompt``, ``disallowed_tools``, ``model``, ``can_use_tool``,
    ``permission_mode``, ``resume``, ``mcp_servers``, ``include_partial_messages``,
    ``strict_mcp_config``, ``setting_sources``, ``plugins``)."""
    args = ["--output-format", "stream-json", "--verbose"]
    prompt = launch.prompt
    if prompt.base is None:
        # The CLI's own `claude_code` base prompt, Cherry's policy appended.
        args += ["--append-system-prompt", prompt.append]
    else:
        args += ["--system-prompt", f"{prompt.base}\n\n{prompt.append}"]
    if launch.disabled_tools:
        args += ["--disallowedTools", ",".join(launch.disabled_tools)]
    if launch.model:
        args += ["--model", launch.model]
    if launch.asks_permission:
        args += ["--permission-prompt-tool", "stdio"]
    if launch.permission_mode:
        args += ["--permission-mode", launch.permission_mode]
    if launch.resume:
        # The equals form binds the value to the flag even if it started with a dash.
        args.append(f"--resume={launch.resume}")
    if launch.tool_servers:
        args += ["--mcp-config", mcp_config_json(launch.tool_servers)]
    args.append("--include-partial-messages")
    # Only the servers above: never the user's ~/.claude.json or a workspace's .mcp.json.
    args.append("--strict-mcp-config")
    # Workspace CLAUDE.md / .claude settings the user vouched for by picking the workspace.
    args.append("--setting-sources=project")
    for plugin in launch.plugin_dirs:
        args += ["--plugin-dir", plugin]
    # Streaming input on stdin: the SDK's control protocol (hooks, permission prompts).
    args += ["--input-format", "stream-json"]
    return args


def cli_environment(launch: CliLaunch, *, sdk_version: str,
                    inherited: Mapping[str, str] | None = None) -> dict[str, str]:
    """The CLI's environment: the app's own, with the SDK transport's markers and `launch.env`
    (no key: the transport adds the key hand-off)."""
    base = os.environ if inherited is None else inherited
    env = {k: v for k, v in base.items() if k != NESTED_SESSION_ENV}
    env[ENTRYPOINT_ENV] = "sdk-py"
    env.update(launch.env)
    env[SDK_VERSION_ENV] = sdk_version
    env.pop(DERIVED_CLIENT_APP_ENV, None)
    if not any(key.upper() == READS_SESSION_STATE_ENV for key in env):
        env[READS_SESSION_STATE_ENV] = "1"
    if launch.cwd:
        env["PWD"] = launch.cwd
    return env
