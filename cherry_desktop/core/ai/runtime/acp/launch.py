"""Everything spawn-frozen about one ACP agent child: argv, environment, its Cherry-owned home.

Resource boundary: the agent runs with ``HOME`` (and the XDG dirs, and ``CLAUDE_CONFIG_DIR``)
under ``feature.agents.acp.homes/<agent id>``, never the user's own: their global agent
config, extensions and logins are not loaded. The home is per agent, not per connection, so
the agent's own session store survives a restart (``session/load`` reads it). Variables that
configure an agent from the app's environment (``ANTHROPIC_*``, ``OPENAI_*``, ``CLAUDE_*``,
``OPENCODE_*``...) are dropped.

Credentials: the provider's key never reaches the agent. The driver starts a `KeyRelay`
(core/net/key_relay.py) per connection and gives the agent the relay's loopback URL and a random
token instead (`child`): claude-agent-acp gets them over ACP (its ``gateway`` authentication:
`auth_meta`, which it passes on to its Claude Code CLI's environment), opencode in its
environment (`OPENCODE_KEY_ENV`, the only way it reads a key). A tool that reads either finds a
token that works only on this machine and only while the connection lives.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from cherry_desktop.core.ai.runtime.acp.install import AcpInstallation
from cherry_desktop.core.ai.runtime.acp_presets import AgentChoice
from cherry_desktop.core.ai.runtime.claude_code.skills_plugin import ensure_skills_plugin, plugin_skill_names
from cherry_desktop.core.ai.runtime.prompt import build_connection_prompt
from cherry_desktop.core.ai.runtime.types import RuntimeConnectInput, RuntimeValidationError
from cherry_desktop.core.mcp.policy import SKILL_TOOL
from cherry_desktop.core.mcp.toolset import AgentToolset, agent_server_ids, agent_skill_names
from cherry_desktop.core.messages.json_value import JsonObject

_SCRUBBED_PREFIXES = ("ANTHROPIC_", "OPENAI_", "CLAUDE_", "OPENCODE_", "GEMINI_", "GOOGLE_", "XDG_", "CODEX_")
#: The app pins the agents it ships and keeps them to the configured endpoint.
_QUIET_ENV = {"DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
              "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1"}
_DEFAULT_BASE_URL = {"anthropic": "https://api.anthropic.com"}
#: The opencode provider id Cherry's config names.
OPENCODE_PROVIDER = "cherry"
OPENCODE_KEY_ENV = "CHERRY_OPENCODE_API_KEY"


def acp_model_name(model_id: str | None) -> str | None:
    """The agent's model id from Cherry's unique id (``provider::model`` or plain)."""
    if not model_id:
        return None
    return model_id.split("::", 1)[1] if "::" in model_id else model_id


@dataclass(frozen=True)
class AcpLaunch:
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    home: Path
    model: str
    #: The system prompt as claude-agent-acp reads it (``_meta.systemPrompt`` of session/new).
    system_prompt: JsonObject | str
    signature: str
    #: For an agent that authenticates over ACP (`gateway`): the endpoint and key headers.
    auth_meta: JsonObject | None = field(default=None, repr=False)
    #: Cherry's tools and the agent's MCP servers, served to the agent by Cherry's relay
    #: (`mcp_relay`), and the agent's skills; spawn-frozen, with the ids they came from.
    toolset: AgentToolset = field(default_factory=AgentToolset)
    mcp_servers: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    #: The skills' names as the agent's skill tool gives them (the approval policy's).
    skill_names: tuple[str, ...] = ()
    #: claude-agent-acp's ``_meta.claudeCode.options`` (the Claude Agent SDK's query options).
    claude_options: JsonObject | None = None

    def session_meta(self) -> JsonObject:
        """``session/new``'s and ``session/load``'s ``_meta``."""
        meta: JsonObject = {"systemPrompt": self.system_prompt}
        if self.claude_options is not None:
            meta["claudeCode"] = {"options": self.claude_options}
        return meta


def _api_key(input: RuntimeConnectInput, names: tuple[str, ...]) -> str:
    # A provider's non-secret placeholder key (the offline demo's) rides in its child env; the
    # keyring is then not asked.
    for name in names:
        value = input.extra_env.get(name)
        if value:
            return value
    return input.get_api_key() or ""


def _is_root() -> bool:
    geteuid = getattr(os, "geteuid", None)
    return bool(geteuid and geteuid() == 0)


def _base_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED_PREFIXES)}
    env.update({"HOME": str(home), "USERPROFILE": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_STATE_HOME": str(home / ".local" / "state"),
                "XDG_CACHE_HOME": str(home / ".cache"), "CLAUDE_CONFIG_DIR": str(home / ".claude"), **_QUIET_ENV})
    return env


def _endpoint(input: RuntimeConnectInput, dialect: str) -> str:
    provider = input.context.provider
    if provider is None:
        raise RuntimeValidationError("provider-missing")
    wanted = "anthropic" if dialect == "anthropic" else "openai-compatible"
    if provider.type != wanted and not (dialect == "anthropic" and provider.settings.get("anthropic_compatible")):
        raise RuntimeValidationError("provider-unsupported", provider.type)
    base_url = (provider.base_url or _DEFAULT_BASE_URL.get(provider.type, "")).rstrip("/")
    if not base_url:
        raise RuntimeValidationError("provider-endpoint-missing", provider.id)
    return base_url


def opencode_config(base_url: str, model: str) -> JsonObject:
    """opencode's config (``OPENCODE_CONFIG_CONTENT``): one OpenAI-compatible provider whose key
    is read from `OPENCODE_KEY_ENV` (opencode's ``{env:...}``), never written here."""
    return {
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": False, "share": "disabled",
        "model": f"{OPENCODE_PROVIDER}/{model}",
        "provider": {OPENCODE_PROVIDER: {
            "npm": "@ai-sdk/openai-compatible", "name": "Cherry",
            "options": {"baseURL": base_url, "apiKey": f"{{env:{OPENCODE_KEY_ENV}}}"},
            "models": {model: {"name": model}}}},
        "permission": {"edit": "ask", "bash": "ask", "webfetch": "ask"},
    }


def _write_cli_model(config_dir: Path, model: str) -> None:
    """Set ``model`` in the CLI's settings under the agent's Cherry-owned home (no secret)."""
    config_dir.mkdir(parents=True, exist_ok=True)
    path = config_dir / "settings.json"
    try:
        settings = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, ValueError):
        settings = {}
    if not isinstance(settings, dict):
        settings = {}
    settings["model"] = model
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")


def _claude_options(input: RuntimeConnectInput) -> tuple[JsonObject, tuple[str, ...]]:
    """claude-agent-acp's query options, as the Claude Code runtime launches its CLI: only the
    MCP servers Cherry relays (``strictMcpConfig``: never a workspace's ``.mcp.json``), and the
    agent's enabled skills as the Cherry-owned plugin (`skills_plugin`), named
    ``cherry-skills:<name>``. The CLI's Skill tool would load a workspace's own skill without
    asking: the ``ask`` rule (flag settings) makes every skill load ask Cherry, whose approval
    policy lets only those skills load."""
    options: JsonObject = {"strictMcpConfig": True, "settings": {"permissions": {"ask": [SKILL_TOOL]}}}
    skills = input.tools.skills
    if not skills:
        return options, ()
    plugin = ensure_skills_plugin(skills, input.context.agent_data_dir)
    options["plugins"] = [{"type": "local", "path": str(plugin)}]
    return options, tuple(plugin_skill_names(skills))


@dataclass(frozen=True)
class ModelEndpoint:
    """Where an agent sends its model requests, and the key it presents there."""

    base_url: str
    key: str = field(repr=False)
    #: How the key is presented: Anthropic's ``x-api-key`` or an OpenAI-style bearer.
    dialect: Literal["anthropic", "openai"] = "anthropic"


def provider_endpoint(input: RuntimeConnectInput, choice: AgentChoice) -> ModelEndpoint:
    """The session's provider endpoint and key, as the agent's dialect reaches it (reads the
    keyring: call off the loop)."""
    if choice.dialect == "anthropic":
        return ModelEndpoint(_endpoint(input, "anthropic"), _api_key(input, ("ANTHROPIC_API_KEY",)), "anthropic")
    return ModelEndpoint(_endpoint(input, choice.dialect), _api_key(input, ("OPENAI_API_KEY",)), "openai")


def build_acp_launch(input: RuntimeConnectInput, *, choice: AgentChoice, installation: AcpInstallation,
                     homes: Path, provider: ModelEndpoint | None = None,
                     child: ModelEndpoint | None = None) -> AcpLaunch:
    """The launch of an ACP agent for `input` (creates its home; writes nothing else).

    `provider` is the session's endpoint (default: `provider_endpoint`); `child` is what the
    agent is given instead, a `KeyRelay`'s (default: the provider's own, for a bare client)."""
    ctx = input.context
    model = acp_model_name(ctx.model_id)
    if model is None:
        raise RuntimeValidationError("model-missing")
    if ctx.workspace_path is None:
        raise RuntimeValidationError("workspace-missing")
    if input.tools.error is not None:
        # Ambiguous approval and routing: never start an agent on it.
        raise RuntimeValidationError("mcp-tools-ambiguous", input.tools.error)
    home = homes / ctx.agent.id
    home.mkdir(parents=True, exist_ok=True)
    env = _base_env(home)
    public_env = {k: v for k, v in input.extra_env.items() if not k.endswith(("_API_KEY", "_AUTH_TOKEN"))}
    env.update(public_env)
    provider = provider or provider_endpoint(input, choice)
    child = child or provider
    base_url, key = child.base_url, child.key
    auth_meta: JsonObject | None = None
    claude_options: JsonObject | None = None
    skill_names: tuple[str, ...] = ()
    if choice.dialect == "anthropic":
        if _is_root():
            # As root, claude-agent-acp's CLI exits at session/new unless told it runs
            # sandboxed (measured on 0.23.1). It only lets the agent offer its bypass mode,
            # which Cherry never selects (the descriptor offers "default" only).
            env["IS_SANDBOX"] = "1"
        # claude-agent-acp picks its session's model from the CLI settings' ``model`` (else its
        # own default, whatever ANTHROPIC_MODEL says; measured on 0.23.1), matching it against
        # the CLI's aliases: every alias names the session's model too.
        env.update({"ANTHROPIC_MODEL": model, "ANTHROPIC_SMALL_FAST_MODEL": model,
                    **{f"ANTHROPIC_DEFAULT_{tier}_MODEL": model for tier in ("HAIKU", "SONNET", "OPUS")}})
        _write_cli_model(home / ".claude", model)
        auth_meta = {"gateway": {"baseUrl": base_url, "headers": {"x-api-key": key}}}
        claude_options, skill_names = _claude_options(input)
    else:
        env["OPENCODE_CONFIG_CONTENT"] = json.dumps(opencode_config(base_url, model))
        env[OPENCODE_KEY_ENV] = key  # opencode reads its key from its environment only (a relay's token)
    prompt = build_connection_prompt(input, model)
    system_prompt: JsonObject | str = (f"{prompt.base}\n\n{prompt.append}" if prompt.base is not None
                                       else {"append": prompt.append})
    signature = hashlib.sha256(json.dumps(
        {"argv": list(installation.argv), "env": public_env, "model": model, "base_url": provider.base_url,
         "prompt": system_prompt, "cwd": str(ctx.workspace_path), "dialect": choice.dialect,
         "key": hashlib.sha256(provider.key.encode()).hexdigest(), "tools": input.tools.signature(),
         "claude": claude_options},
        sort_keys=True).encode()).hexdigest()
    return AcpLaunch(argv=list(installation.argv), env=env, cwd=ctx.workspace_path, home=home, model=model,
                     system_prompt=system_prompt, signature=signature, auth_meta=auth_meta, toolset=input.tools,
                     mcp_servers=tuple(sorted(agent_server_ids(ctx.agent.config))),
                     skills=tuple(sorted(agent_skill_names(ctx.agent.config))), skill_names=skill_names,
                     claude_options=claude_options)
