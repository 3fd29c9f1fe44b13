"""Options of one Claude Code SDK query (`build_claude_code_query_request`).

The resume id is, in order: the explicit token from the host, else the newest persisted token
of the session, else none (a brand-new SDK session). Never ``continue_conversation``, never
cwd-based discovery. The system prompt is `build_agent_runtime_prompt`'s, mapped onto the CLI's
flags by the transport (`cli_command`: the ``claude_code`` base plus ``append``; a workspace
``system.md`` base replaces it). The API key never goes into the child's environment (a tool
the CLI runs could read it there, `printenv` or ``/proc/<cli>/environ``): it rides in
`QueryRequest.api_key` to the transport, which hands it over a socket (`key_handoff`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from cherry_desktop.core.ai.runtime.claude_code.cli_command import CliLaunch
from cherry_desktop.core.ai.runtime.claude_code.skills_plugin import ensure_skills_plugin
from cherry_desktop.core.ai.runtime.prompt import AgentRuntimePrompt, build_connection_prompt
from cherry_desktop.core.ai.runtime.types import PermissionMode, RuntimeConnectInput, RuntimeValidationError
from cherry_desktop.core.data.records import ProviderRecord
from cherry_desktop.core.mcp.toolset import AgentToolset, agent_server_ids, agent_skill_names

log = logging.getLogger(__name__)

ENDPOINT_ONLY_ENV: dict[str, str] = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS": "1",
}


def resolve_resume_token(explicit: str | None, get_last: Callable[[], str | None]) -> str | None:
    """Explicit host token, else the newest persisted token, else None."""
    if explicit:
        return explicit
    try:
        return get_last() or None
    except Exception:  # a broken lookup must not block a fresh session
        log.exception("reading the last resume token failed")
        return None


def sdk_model_name(model_id: str | None) -> str | None:
    """The model name the CLI expects from Cherry's unique model id (``provider:model`` or plain)."""
    if not model_id:
        return None
    for separator in ("::", ":", "/"):
        if separator in model_id:
            return model_id.split(separator, 1)[1]
    return model_id


def system_prompt_option(prompt: AgentRuntimePrompt) -> str | dict[str, str]:
    """The prompt as `ClaudeAgentOptions.system_prompt` takes it (the bare SDK side of
    bench/claude_turn.py, the SDK-surface test): the ``claude_code`` preset with Cherry's policy
    appended, or a string replacing it."""
    if prompt.base is None:
        return {"type": "preset", "preset": "claude_code", "append": prompt.append}
    return f"{prompt.base}\n\n{prompt.append}"


#: A provider setting: the provider stands for the user's own Claude Code login (no endpoint,
#: no key of ours). Only this explicit choice lets the CLI run without a configured endpoint.
CLAUDE_LOGIN_SETTING = "claude_login"


def uses_claude_login(provider: ProviderRecord) -> bool:
    return provider.settings.get(CLAUDE_LOGIN_SETTING) is True


def child_env(input: RuntimeConnectInput) -> dict[str, str]:
    """The CLI child's environment overrides: provider endpoint, then extra env. No secret.

    Without an endpoint the provider must be the explicit Claude-login kind
    (`uses_claude_login`): the CLI then uses the user's own Claude Code login (real HOME);
    anything else is refused. The key is `child_api_key`'s, never in here.
    """
    # The app pins the CLI it ships: never let it update itself.
    env: dict[str, str] = {"DISABLE_AUTOUPDATER": "1"}
    provider = input.context.provider
    gateway = input.gateway
    if gateway is not None:
        # A gateway-owned connection: every request (side requests too) goes to the provider's
        # model through Cherry's gateway, marked with the session.
        name, value = gateway.session_header
        env.update({"ANTHROPIC_BASE_URL": gateway.base_url.rstrip("/"), **ENDPOINT_ONLY_ENV,
                    "ANTHROPIC_CUSTOM_HEADERS": f"{name}: {value}",
                    "ANTHROPIC_DEFAULT_HAIKU_MODEL": gateway.model, "ANTHROPIC_SMALL_FAST_MODEL": gateway.model})
    elif provider is not None and provider.base_url:
        env["ANTHROPIC_BASE_URL"] = provider.base_url.rstrip("/")
        # A configured endpoint is the only address the CLI may talk to.
        env.update(ENDPOINT_ONLY_ENV)
    elif provider is None or not uses_claude_login(provider):
        raise RuntimeValidationError("provider-endpoint-missing", provider.id if provider else "")
    env.update(input.extra_env)
    return env


def child_api_key(input: RuntimeConnectInput) -> str | None:
    """The keyring's key for the CLI, read now (per connection); None when the provider's env
    sets one itself (the demo's placeholder): the keyring is then not asked for one it would
    drop (its first use imports its backends, ~13 MB with cryptography)."""
    if input.gateway is not None:
        return input.gateway.api_key
    if "ANTHROPIC_API_KEY" in input.extra_env:
        return None
    return input.get_api_key() or None


@dataclass(frozen=True)
class QueryRequest:
    """What one query needs besides its callbacks; `signature` keys warm-query reuse."""

    resume: str | None
    cwd: str | None
    model: str | None
    permission_mode: PermissionMode
    disabled_tools: tuple[str, ...]
    prompt: AgentRuntimePrompt
    env: dict[str, str]
    signature: str
    #: The keyring's key, handed to the CLI over a socket by the transport, never via `env`.
    api_key: str | None = field(default=None, repr=False)
    #: Through Cherry's API gateway: the gateway records usage, the connection reports none.
    gateway_owned: bool = False
    #: The agent's MCP servers and Cherry's tools (relayed in-process) and their policy.
    tools: AgentToolset = field(default_factory=AgentToolset)
    #: The registry servers and skills the agent had selected (a reconcile with others rebuilds).
    mcp_servers: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    #: The plugin folder of the agent's enabled skills (`skills_plugin`).
    plugin_dirs: tuple[str, ...] = ()

    def launch(self, resume: str | None, *, permission_mode: PermissionMode | None = None,
               disabled_tools: Iterable[str] | None = None) -> CliLaunch:
        """The CLI process of this query, on `resume` (and the connection's live policy, when a
        rebuild starts it after a reconcile changed them)."""
        return CliLaunch(
            cwd=self.cwd, model=self.model, permission_mode=permission_mode or self.permission_mode,
            disabled_tools=self.disabled_tools if disabled_tools is None else tuple(sorted(disabled_tools)),
            prompt=self.prompt, resume=resume, env=dict(self.env), api_key=self.api_key,
            tool_servers=self.tools.servers, plugin_dirs=self.plugin_dirs)


def query_signature(
    *,
    model: str | None,
    env: dict[str, str],
    api_key: str | None = None,
    permission_mode: str,
    disabled_tools: tuple[str, ...],
    prompt: AgentRuntimePrompt,
    cwd: str | None,
    tools: str = "",
) -> str:
    """A digest of everything spawn-frozen (credentials hashed, never stored in clear)."""
    facts = {
        "model": model,
        "env": env,
        "api_key": api_key,
        "permission_mode": permission_mode,
        "disabled_tools": disabled_tools,
        "prompt": system_prompt_option(prompt),
        "cwd": cwd,
        "tools": tools,
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()


def build_claude_code_query_request(input: RuntimeConnectInput, resume_token: str | None) -> QueryRequest:
    """Resolve the resume id and every spawn-time fact of a query for this session."""
    ctx = input.context
    if input.tools.error is not None:
        # Ambiguous approval and routing: never start a runtime on it.
        raise RuntimeValidationError("mcp-tools-ambiguous", input.tools.error)
    resume = resolve_resume_token(resume_token, input.get_last_resume_token)
    prompt = build_connection_prompt(input, sdk_model_name(ctx.model_id))
    env = child_env(input)
    api_key = child_api_key(input)
    cwd = str(ctx.workspace_path) if ctx.workspace_path else None
    model = input.gateway.model if input.gateway is not None else sdk_model_name(ctx.model_id)
    disabled = tuple(sorted(input.disabled_tools))
    skills = input.tools.skills
    plugin_dirs = (str(ensure_skills_plugin(skills, ctx.agent_data_dir)),) if skills else ()
    signature = query_signature(
        model=model,
        env=env,
        api_key=api_key,
        permission_mode=input.permission_mode,
        disabled_tools=disabled,
        prompt=prompt,
        cwd=cwd,
        tools=input.tools.signature(),
    )
    return QueryRequest(resume, cwd, model, input.permission_mode, disabled, prompt, env, signature, api_key,
                        gateway_owned=input.gateway is not None, tools=input.tools,
                        mcp_servers=tuple(sorted(agent_server_ids(ctx.agent.config))),
                        skills=tuple(sorted(agent_skill_names(ctx.agent.config))),
                        plugin_dirs=plugin_dirs)


def log_cli_stderr(line: str) -> None:
    """Where a CLI's stderr goes: the debug log, never the app's own stderr."""
    log.debug("claude cli: %s", line.rstrip())
