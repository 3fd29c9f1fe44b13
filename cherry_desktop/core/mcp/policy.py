"""The one approval policy of every tool an agent can call, for every runtime.

Each tool carries one class: a Cherry-owned safe tool (runs without asking), a Cherry tool that
always asks (even under bypassPermissions), a third-party MCP tool (its server's choice per
tool: ask, allow, deny; "ask" follows the permission mode), or a runtime built-in (the runtime's
own rules, through its permission mode). The agent's `disabled_tools` hard-blocks every class.
`verdict` says what happens to one call; the runtimes' gates (Claude Code's hooks and
permission callback, pi's approval extension) act on it. The rules are read at each call, so a
tightened choice applies to a live connection at once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from enum import StrEnum
from typing import Protocol

from cherry_desktop.core.mcp.config import MCP_PREFIX, ToolPolicy

#: Claude Code's tool that loads a skill (its input names the skill).
SKILL_TOOL = "Skill"


class ToolClass(StrEnum):
    CHERRY_SAFE = "cherry-safe"
    CHERRY_APPROVAL = "cherry-approval"
    MCP = "mcp"
    BUILTIN = "builtin"


class Verdict(StrEnum):
    ALLOW = "allow"  # runs without asking
    ASK = "ask"  # asks the user, whatever the permission mode
    DENY = "deny"  # never runs
    MODE = "mode"  # the permission mode decides (asks in the default mode)


class RuleSource(Protocol):
    """Where the MCP tools' choices live (`McpHub.rule_for`, read live)."""

    def rule_for(self, tool_name: str) -> ToolPolicy | None: ...


class ToolApprovalPolicy:
    """The verdicts of one connection's tool calls (see the module doc)."""

    def __init__(self, *, disabled: Collection[str], rules: RuleSource | None = None,
                 cherry_classes: Mapping[str, ToolClass] | None = None, skills: Collection[str] = ()) -> None:
        #: Read live: the connection's reconcile changes the set in place.
        self.disabled = disabled
        self._rules = rules
        self._cherry = dict(cherry_classes or {})
        #: The skills the runtime's skill tool may load (by the name the runtime gives them).
        self.skills = frozenset(skills)

    def tool_class(self, tool_name: str) -> ToolClass:
        if tool_name in self._cherry:
            return self._cherry[tool_name]
        return ToolClass.MCP if tool_name.startswith(MCP_PREFIX) else ToolClass.BUILTIN

    def verdict(self, tool_name: str, permission_mode: str, tool_input: Mapping[str, object] | None = None) -> Verdict:
        if tool_name in self.disabled:
            return Verdict.DENY
        if tool_name == SKILL_TOOL:
            # Only the agent's enabled Cherry skills load: never one the runtime found in the
            # user's or the workspace's own skill folders.
            name = (tool_input or {}).get("skill") or (tool_input or {}).get("command")
            return Verdict.MODE if str(name or "").lstrip("/") in self.skills else Verdict.DENY
        kind = self.tool_class(tool_name)
        if kind is ToolClass.CHERRY_SAFE:
            return Verdict.ALLOW
        if kind is ToolClass.CHERRY_APPROVAL:
            return Verdict.ASK
        if kind is ToolClass.MCP:
            rule = self._rules.rule_for(tool_name) if self._rules is not None else None
            if rule is ToolPolicy.DENY:
                return Verdict.DENY
            if rule is ToolPolicy.ALLOW and permission_mode != "plan":
                return Verdict.ALLOW
        return Verdict.MODE
