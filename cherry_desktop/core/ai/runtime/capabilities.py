"""`AGENT_RUNTIME_CAPABILITIES`: one descriptor per agent type, read by the host and the UI.

The UI never branches on a concrete runtime: the runtime selector, permission-mode choices,
create defaults, model filter, transport routing and the builtin-tools catalog all derive from
the entry here. Adding a runtime means one entry here plus one driver package registered in
`register_drivers.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from cherry_desktop.core.ai.runtime.acp_presets import ACP_PRESETS, PRESET_KEY
from cherry_desktop.core.ai.runtime.types import PermissionMode, ToolDescriptor
from cherry_desktop.core.data.records import ModelRecord, ProviderRecord

AgentType = Literal["claude-code", "pi", "acp"]
AGENT_TYPES: tuple[str, ...] = get_args(AgentType)
ToolCategory = Literal["read", "write", "execute", "web", "agent", "plan"]

# Transport tags: stamped by each stream adapter on every tool part
# (`provider_metadata["cherry"]["transport"]`); import them from here, never re-declare.
CLAUDE_CODE_TRANSPORT = "claude-code"
PI_TRANSPORT = "pi"
ACP_TRANSPORT = "acp"


@dataclass(frozen=True)
class BuiltinToolDescriptor:
    """One runtime-native tool: its exact native name, a category and its approval default.

    Approval lives with the tool on purpose: a side table with an 'auto' fallback would make a
    newly added tool silently auto-approved.
    """

    name: str
    category: ToolCategory
    requires_approval: bool


@dataclass(frozen=True)
class RuntimeVariant:
    """One agent a runtime can run (ACP: each known agent), picked per agent in the agent
    dialog and stored in the agent's ``config[variant_key]``. `provider_types`: the providers
    whose models it runs (the dialog lists only those)."""

    id: str
    label_key: str
    label: str
    provider_types: tuple[str, ...]
    #: Whether Cherry's skills reach this agent (ACP: Claude Agent takes Cherry's skills plugin;
    #: opencode has no way in), within the runtime's own `supports_skills`.
    supports_skills: bool = True

    def runs(self, provider: ProviderRecord | None) -> bool:
        """Whether this agent runs the models of `provider` (an Anthropic-compatible provider
        that says so counts as Anthropic)."""
        if provider is None:
            return False
        return provider.type in self.provider_types or (
            "anthropic" in self.provider_types and provider.settings.get("anthropic_compatible") is True)


@dataclass(frozen=True)
class CreateDefaults:
    permission_mode: PermissionMode
    model: str | None = None


@dataclass(frozen=True)
class AgentRuntimeCapabilities:
    """The descriptor of one agent type. Each field is read by the UI, or says below who reads it."""

    type: str
    # Qt translation context/key of the runtime's label; `label` is the untranslated source.
    label_key: str
    label: str
    permission_modes: tuple[PermissionMode, ...]
    create_defaults: CreateDefaults
    is_model_compatible: Callable[[ProviderRecord | None, ModelRecord], bool]
    # Whether the window offers "Steer now" during a turn: the host then redirects the message
    # into the running turn, or queues it as the next turn when the connection cannot.
    supports_steer: bool
    # The tag the runtime's stream adapter stamps on every tool part (the constants above) and
    # the runtime's own tool catalog (its drivers' `list_available_tools`, pi's approval gate):
    # the next issues' tool cards and agent edit dialog read them from here.
    transport: str
    builtin_tools: tuple[BuiltinToolDescriptor, ...]
    # Whether the runtime takes Cherry's tools and the agent's MCP servers (the host hands them
    # only then; the agent dialog shows its MCP section only then). The skills and the
    # composer's slash commands are for later issues.
    supports_mcp: bool = True
    supports_skills: bool = True
    slash_commands: tuple[str, ...] = field(default_factory=tuple)
    # Whether the runtime signs in with its own login (its CLI's) when the provider has no
    # stored key. False: a model without a key cannot run, and the New agent dialog says so.
    own_login: bool = False
    # Whether the runtime reaches this (enabled) provider's models only through Cherry's API
    # gateway (a gateway-owned connection: the provider does not speak the runtime's dialect).
    via_gateway: Callable[[ProviderRecord], bool] = field(default=lambda provider: False)
    # The agents one runtime of this type can run (the dialog's "Agent" choice, the first is
    # the default), and the agent-config key that stores the choice; () for a runtime that
    # runs one agent only.
    variants: tuple[RuntimeVariant, ...] = ()
    variant_key: str = ""


def _claude_code_via_gateway(provider: ProviderRecord) -> bool:
    # Claude Code speaks Anthropic Messages only. An Anthropic provider, an OpenAI-compatible one
    # that also serves that format (it says so), or the user's own Claude login is reached
    # directly; every other provider (OpenAI-compatible: DeepSeek, Qwen, GLM, OpenRouter,
    # Ollama...) through Cherry's API gateway, which translates.
    return (provider.type != "anthropic" and not provider.settings.get("anthropic_compatible")
            and provider.settings.get("claude_login") is not True)


def _claude_code_model_compatible(provider: ProviderRecord | None, model: ModelRecord) -> bool:
    # Fail closed: an orphan model (provider deleted / not loaded) gives no endpoint, so it
    # cannot run; a disabled provider cannot either. Any other provider runs, directly or
    # through the gateway (`_claude_code_via_gateway`).
    return provider is not None and provider.enabled


# Claude Code's own tool set with its native names and casing (approval lookups and the
# disabled-tools write-back use these exact strings).
CLAUDE_CODE_BUILTIN_TOOLS: tuple[BuiltinToolDescriptor, ...] = (
    BuiltinToolDescriptor("Read", "read", False),
    BuiltinToolDescriptor("Glob", "read", False),
    BuiltinToolDescriptor("Grep", "read", False),
    BuiltinToolDescriptor("LS", "read", False),
    BuiltinToolDescriptor("Write", "write", True),
    BuiltinToolDescriptor("Edit", "write", True),
    BuiltinToolDescriptor("MultiEdit", "write", True),
    BuiltinToolDescriptor("NotebookEdit", "write", True),
    BuiltinToolDescriptor("Bash", "execute", True),
    BuiltinToolDescriptor("BashOutput", "execute", False),
    BuiltinToolDescriptor("KillShell", "execute", True),
    BuiltinToolDescriptor("WebFetch", "web", True),
    BuiltinToolDescriptor("WebSearch", "web", True),
    BuiltinToolDescriptor("Task", "agent", False),
    BuiltinToolDescriptor("TodoWrite", "plan", False),
    BuiltinToolDescriptor("ExitPlanMode", "plan", False),
)

def _pi_model_compatible(provider: ProviderRecord | None, model: ModelRecord) -> bool:
    # Fail closed: Cherry hands pi the provider's endpoint in its models.json (pi's
    # `anthropic-messages` or `openai-completions` API). An orphan model has no endpoint to
    # write there, and a disabled provider must not run.
    if provider is None or not provider.enabled:
        return False
    return provider.type in ("anthropic", "openai-compatible")


# pi's own tool set (@mariozechner/pi-coding-agent 0.73.x `allToolNames`), in pi's casing.
# Every tool call passes Cherry's approval gate (an inline extension); the defaults here say
# which ones ask the user. A tool missing from this table asks too (see pi/policy.py).
PI_BUILTIN_TOOLS: tuple[BuiltinToolDescriptor, ...] = (
    BuiltinToolDescriptor("read", "read", False),
    BuiltinToolDescriptor("grep", "read", False),
    BuiltinToolDescriptor("find", "read", False),
    BuiltinToolDescriptor("ls", "read", False),
    BuiltinToolDescriptor("edit", "write", True),
    BuiltinToolDescriptor("write", "write", True),
    BuiltinToolDescriptor("bash", "execute", True),
)

def _acp_variants() -> tuple[RuntimeVariant, ...]:
    types = {"anthropic": ("anthropic",), "opencode": ("openai-compatible",)}
    return tuple(RuntimeVariant(id=p.id, label_key=f"agent.runtime.acp.{p.id}", label=p.label,
                                provider_types=types[p.dialect], supports_skills=p.dialect == "anthropic")
                 for p in ACP_PRESETS.values())


def _acp_model_compatible(provider: ProviderRecord | None, model: ModelRecord) -> bool:
    # Fail closed: Cherry hands the ACP agent the provider's endpoint (each agent preset reads
    # it its own way: Anthropic Messages or OpenAI-compatible). An orphan model has no endpoint
    # and a disabled provider must not run; which dialect the chosen agent speaks is checked by
    # the driver's `validate_session` (the preset is a per-agent setting, not the type's).
    if provider is None or not provider.enabled:
        return False
    return provider.type in ("anthropic", "openai-compatible")


AGENT_RUNTIME_CAPABILITIES: Mapping[str, AgentRuntimeCapabilities] = {
    "claude-code": AgentRuntimeCapabilities(
        type="claude-code",
        label_key="agent.runtime.claude_code",
        label="Claude Code",
        permission_modes=("default", "acceptEdits", "plan", "bypassPermissions"),
        # The SDK brokers tool execution and asks before mutations: default is the honest posture.
        create_defaults=CreateDefaults(permission_mode="default"),
        is_model_compatible=_claude_code_model_compatible,
        transport=CLAUDE_CODE_TRANSPORT,
        builtin_tools=CLAUDE_CODE_BUILTIN_TOOLS,
        # Mid-turn steers are injected by a PreToolUse hook (the spec's steer path).
        supports_steer=True,
        slash_commands=("/compact", "/clear", "/context", "/cost"),
        # Without a key of ours the CLI uses the user's own `claude` login.
        own_login=True,
        via_gateway=_claude_code_via_gateway,
    ),
    "pi": AgentRuntimeCapabilities(
        type="pi",
        label_key="agent.runtime.pi",
        label="pi",
        # No plan mode (pi has none) and no `auto` (it needs Claude's approval classifier).
        permission_modes=("default", "acceptEdits", "bypassPermissions"),
        # Cherry's gate sees every tool call before pi runs it: writes confined to the
        # workspace and the agent's data folder go through; shell, outside paths and symlink
        # escapes still ask (the spec's permission-posture rule).
        create_defaults=CreateDefaults(permission_mode="acceptEdits"),
        is_model_compatible=_pi_model_compatible,
        transport=PI_TRANSPORT,
        builtin_tools=PI_BUILTIN_TOOLS,
        # pi's RPC `steer` delivers a steer after the current message or tool.
        supports_steer=True,
        # Cherry's tools and the agent's MCP servers reach pi through a Cherry-owned inline
        # extension that relays each call (`pi.tool_relay`).
        # The agent's enabled Cherry skills, as explicit `--skill <path>` (under --no-skills).
        supports_skills=True,
        # pi's slash commands are its TUI's; in RPC mode a "/compact" prompt would reach the
        # model as text (compaction is an RPC command the driver could map later).
        slash_commands=(),
    ),
    "acp": AgentRuntimeCapabilities(
        type="acp",
        label_key="agent.runtime.acp",
        label="ACP agent",
        # The agent decides which of its tool calls need consent and asks over
        # `session/request_permission`; Cherry shows every such ask on its card. No plan or
        # bypass mode: ACP's modes are the agent's own, not yet mapped (`current_mode_update`).
        permission_modes=("default",),
        create_defaults=CreateDefaults(permission_mode="default"),
        is_model_compatible=_acp_model_compatible,
        transport=ACP_TRANSPORT,
        # The agent's tools are its own and unknown to Cherry before it runs them.
        builtin_tools=(),
        # ACP has no mid-turn steer: follow-ups queue as the next turn (the spec's fallback).
        supports_steer=False,
        # Cherry's tools and the agent's MCP servers go to `session/new` as `mcpServers`: Cherry
        # serves them itself over MCP Streamable HTTP on 127.0.0.1 (`acp.mcp_relay`).
        supports_mcp=True,
        # The agent's enabled Cherry skills: claude-agent-acp takes Cherry's skills plugin in
        # `_meta.claudeCode.options` (another agent gets none).
        supports_skills=True,
        # An ACP agent announces its commands at run time (`available_commands_update`).
        slash_commands=(),
        variants=_acp_variants(),
        variant_key=PRESET_KEY,
    ),
}


def get_capabilities(agent_type: str) -> AgentRuntimeCapabilities | None:
    return AGENT_RUNTIME_CAPABILITIES.get(agent_type)


def builtin_tool_catalog(agent_type: str) -> list[ToolDescriptor]:
    """The runtime's own tools as its driver lists them (`list_available_tools`)."""
    caps = AGENT_RUNTIME_CAPABILITIES[agent_type]
    return [ToolDescriptor(t.name, t.category, t.requires_approval) for t in caps.builtin_tools]
