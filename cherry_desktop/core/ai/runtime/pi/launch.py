"""Everything spawn-frozen about one pi child: argv, env, its Cherry-owned home, the session.

Resource boundary (the spec's "pi driver resource boundary"):

- ``PI_CODING_AGENT_DIR`` is a Cherry-owned home per connection under
  ``feature.agents.pi.root`` (never ``~/.pi/agent``): it holds only ``models.json``, the
  approval gate and the prompt files Cherry writes;
- ``--no-extensions --no-skills --no-prompt-templates --no-themes``: nothing is discovered from
  the user's home or the workspace; the gate loads only because Cherry passes it with ``-e``;
- ``--system-prompt`` and ``--append-system-prompt`` always name Cherry's files, which also
  keeps pi from discovering ``SYSTEM.md`` / ``APPEND_SYSTEM.md`` (workspace ``.pi/`` or home);
- context files (AGENTS.md / CLAUDE.md of the workspace the user picked) may load: no
  ``--no-context-files``.

Credentials: never in a file nor in pi's environment (its tools inherit that). ``models.json``
names an environment variable (`API_KEY_ENV`), which holds only `KEY_PLACEHOLDER` (pi would
send an unset variable's name as the key); the key, read from the keyring at connect time,
is kept on the `PiLaunch` and handed to Cherry's gate extension over the RPC pipe before pi's
first agent run (`gate.KEY_TITLE`), which registers it for the provider.

The resume token is pi's session id (a UUID). It is validated, then resolved under the
Cherry-owned session directory (``<dir>/<ISO time>_<id>.jsonl``); absolute paths are never
persisted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from cherry_desktop.core.ai.runtime.capabilities import PI_BUILTIN_TOOLS
from cherry_desktop.core.ai.runtime.pi.gate import PROVIDER_NAME, write_gate
from cherry_desktop.core.ai.runtime.pi.install import PiInstallation
from cherry_desktop.core.ai.runtime.pi.tool_relay import relay_tool_names, write_relay
from cherry_desktop.core.ai.runtime.prompt import AgentRuntimePrompt, build_connection_prompt
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput
from cherry_desktop.core.mcp.toolset import AgentToolset, agent_skill_names

#: The env var models.json names as the provider's key; it holds `KEY_PLACEHOLDER` only.
API_KEY_ENV = "CHERRY_PI_API_KEY"
KEY_PLACEHOLDER = "cherry-key-comes-over-rpc"
_SESSION_ID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_PROVIDER_API = {"anthropic": "anthropic-messages", "openai-compatible": "openai-completions"}
_DEFAULT_BASE_URL = {"anthropic": "https://api.anthropic.com"}
#: Variables the child never inherits from the app (pi would read them as its own config).
_SCRUBBED_ENV = ("PI_CODING_AGENT_DIR", "PI_PACKAGE_DIR")

#: pi's native base (the opening of its default prompt): Cherry always passes a base so pi never
#: falls back to a discovered SYSTEM.md. pi itself appends context files, date and cwd.
PI_BASE_PROMPT = (
    "You are an expert coding assistant operating inside pi, a coding agent harness. You help users "
    "by reading files, executing commands, editing code, and writing new files.\n\n"
    "Available tools: {tools}.\n\nGuidelines:\n- Be concise in your responses\n"
    "- Show file paths clearly when working with files"
)


class PiLaunchError(Exception):
    """The session cannot be launched as configured; `code` is stable."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def pi_model_name(model_id: str | None) -> str | None:
    """pi's model id from Cherry's unique id (``provider::model``, ``provider:model`` or plain)."""
    if not model_id:
        return None
    for separator in ("::", ":"):
        if separator in model_id:
            return model_id.split(separator, 1)[1]
    return model_id


def is_valid_session_id(token: str | None) -> bool:
    return bool(token) and _SESSION_ID.match(token or "") is not None


def find_session_file(sessions_dir: Path, token: str | None) -> Path | None:
    """The session file of a resume token under Cherry's session dir; None when the token is
    malformed (never used to build a path) or no file has it."""
    if not is_valid_session_id(token):
        return None
    matches = sorted(sessions_dir.glob(f"*_{token}.jsonl"))
    return matches[-1] if matches else None


def enabled_tools(disabled: frozenset[str]) -> list[str]:
    """The builtin tools offered to the model: the table minus the agent's disabled ones."""
    return [t.name for t in PI_BUILTIN_TOOLS if t.name not in disabled]


def prompt_texts(prompt: AgentRuntimePrompt, tools: list[str]) -> tuple[str, str]:
    """(base, append) for pi: the workspace ``system.md`` base, else pi's native base."""
    base = prompt.base if prompt.base is not None else PI_BASE_PROMPT.format(tools=", ".join(tools) or "none")
    return base, prompt.append


def models_json(input: RuntimeConnectInput, model: str) -> dict[str, object]:
    provider = input.context.provider
    if provider is None:
        raise PiLaunchError("provider-missing")
    api = _PROVIDER_API.get(provider.type)
    if api is None:
        raise PiLaunchError("provider-unsupported", provider.type)
    base_url = (provider.base_url or _DEFAULT_BASE_URL.get(provider.type, "")).rstrip("/")
    if not base_url:
        raise PiLaunchError("provider-endpoint-missing", provider.id)
    # `input` with "image": pi (0.73) drops a prompt's images for a model declared text-only,
    # its default; the user attached them, so they go (a text-only model's API then says no).
    return {"providers": {PROVIDER_NAME: {"baseUrl": base_url, "api": api, "apiKey": API_KEY_ENV,
                                          "models": [{"id": model, "input": ["text", "image"]}]}}}


def _api_key(input: RuntimeConnectInput) -> str:
    key = input.get_api_key()
    if key:
        return key
    # A provider's non-secret placeholder key (the offline demo's) rides in its child env.
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        value = input.extra_env.get(name)
        if value:
            return value
    return ""


@dataclass(frozen=True)
class PiLaunch:
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    home: Path
    model: str
    tools: tuple[str, ...]
    session_file: Path | None
    signature: str
    #: What the gate is answered when it asks for the provider's key (kept out of reprs/logs).
    api_key: str = field(default="", repr=False)
    #: The skills the agent had enabled (names; a reconcile with others rebuilds).
    skills: tuple[str, ...] = ()
    #: Cherry's tools and the agent's MCP servers the relay extension exposes (`tool_relay`),
    #: with their policy.
    toolset: AgentToolset = field(default_factory=AgentToolset, repr=False)


@dataclass(frozen=True)
class PiLaunchPlan:
    """The spawn-frozen facts of a launch, computed without writing anything; `signature`
    keys warm-connection reuse (the key enters it hashed, never in clear)."""

    model: str
    config: dict[str, object]
    tools: tuple[str, ...]
    base: str
    append: str
    api_key: str = field(repr=False)
    resume_token: str | None
    signature: str


def plan_pi_launch(input: RuntimeConnectInput, resume_token: str | None) -> PiLaunchPlan:
    ctx = input.context
    model = pi_model_name(ctx.model_id)
    if model is None:
        raise PiLaunchError("model-missing")
    if ctx.workspace_path is None:
        raise PiLaunchError("workspace-missing")
    if input.tools.error is not None:
        # Ambiguous approval and routing: never start pi on it.
        raise PiLaunchError("mcp-tools-ambiguous", input.tools.error)
    config = models_json(input, model)
    tools = enabled_tools(input.disabled_tools)
    base, append = prompt_texts(build_connection_prompt(input, model), tools)
    key = _api_key(input)
    signature = hashlib.sha256(json.dumps(
        {"models": config, "tools": tools, "base": base, "append": append, "cwd": str(ctx.workspace_path),
         "env": input.extra_env, "key": hashlib.sha256(key.encode()).hexdigest(), "resume": resume_token,
         "skills": [str(p) for p in input.tools.skills], "mcp": input.tools.signature()},
        sort_keys=True).encode()).hexdigest()
    return PiLaunchPlan(model=model, config=config, tools=tuple(tools), base=base, append=append, api_key=key,
                        resume_token=resume_token, signature=signature)


def build_pi_launch(
    input: RuntimeConnectInput,
    *,
    installation: PiInstallation,
    root: Path,
    sessions_dir: Path,
    resume_token: str | None,
    plan: PiLaunchPlan | None = None,
) -> PiLaunch:
    """Write the connection's home (models.json, gate, prompt files) and build argv/env."""
    ctx = input.context
    plan = plan or plan_pi_launch(input, resume_token)
    assert ctx.workspace_path is not None
    model, config, tools, base, append = plan.model, plan.config, list(plan.tools), plan.base, plan.append
    signature = plan.signature

    home = root / "connections" / uuid.uuid4().hex
    home.mkdir(parents=True, exist_ok=True)
    (home / "models.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    gate = write_gate(home / "cherry")
    (home / "cherry" / "system.md").write_text(base, encoding="utf-8")
    (home / "cherry" / "append.md").write_text(append, encoding="utf-8")
    sessions_dir.mkdir(parents=True, exist_ok=True)
    session_file = find_session_file(sessions_dir, resume_token)

    argv = [
        *installation.command(), "--mode", "rpc", "--provider", PROVIDER_NAME, "--model", model,
        "--session-dir", str(sessions_dir),
        "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--offline",
        "-e", str(gate),
        "--system-prompt", str(home / "cherry" / "system.md"),
        "--append-system-prompt", str(home / "cherry" / "append.md"),
    ]
    servers = input.tools.servers
    if servers:
        # Cherry's tools and the agent's MCP servers, relayed to Cherry (never discovered).
        argv += ["-e", str(write_relay(home / "cherry", servers))]
    relayed = [name for name in relay_tool_names(servers) if name not in input.disabled_tools]
    # An allowlist names extension tools too: the relayed ones stay visible beside the built-ins.
    argv += ["--tools", ",".join([*tools, *relayed])] if tools else ["--no-builtin-tools"]
    for skill in input.tools.skills:
        # Additive even under --no-skills: exactly the agent's enabled Cherry skills.
        argv += ["--skill", str(skill)]
    if session_file is not None:
        argv += ["--session", str(session_file)]
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
    env.update(input.extra_env)
    env.update({"PI_CODING_AGENT_DIR": str(home), "PI_OFFLINE": "1", "PI_TELEMETRY": "0",
                API_KEY_ENV: KEY_PLACEHOLDER})
    return PiLaunch(argv=argv, env=env, cwd=ctx.workspace_path, home=home, model=model, tools=tuple(tools),
                    session_file=session_file, signature=signature, api_key=plan.api_key,
                    skills=tuple(sorted(agent_skill_names(ctx.agent.config))), toolset=input.tools)


def remove_home(launch: PiLaunch) -> None:
    shutil.rmtree(launch.home, ignore_errors=True)
