"""`ToolCallBroker`: what happens around each tool call of one Claude Code connection.

The SDK calls it (through the query's `CallbackRouter`) before and after every tool call:

- the PreToolUse hook applies the one approval policy (`ToolApprovalPolicy`: a disabled or
  denied tool is refused in every permission mode, a Cherry-safe or allowed one runs, a Cherry
  tool that always asks is asked about even under bypassPermissions) and injects the steers the
  host stashed with `redirect` (as ``additionalContext``: the spec's steer path); the injected
  steers' message ids wait for the post-steer assistant message (`take_boundary`);
- the permission callback applies the same verdict, lets an always-allowed tool through (never
  in plan mode), else emits a `ToolApprovalRequestEvent` and waits for the user's answer
  (`respond`);
- the post-tool hooks record each call's duration for the tool's output chunk.

The broker owns this per-tool state; the turn and the permission mode are its owner's
(`BrokerOwner`, the connection).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.ai.runtime.claude_code.skills_plugin import plugin_skill_names
from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet
from cherry_desktop.core.ai.runtime.events import (
    SteerBoundaryEvent,
    SteerInjectedEvent,
    SteerUndeliveredEvent,
    ToolApprovalRequestEvent,
)
from cherry_desktop.core.ai.runtime.types import (
    DENIED_MESSAGE,
    DISABLED_MESSAGE,
    ApprovalDecision,
    PermissionMode,
    wrap_steer_reminder,
)
from cherry_desktop.core.mcp.policy import SKILL_TOOL, Verdict
from cherry_desktop.core.mcp.toolset import AgentToolset
from cherry_desktop.core.messages.json_value import JsonObject

if TYPE_CHECKING:
    from claude_agent_sdk import PermissionResult, ToolPermissionContext
    from claude_agent_sdk.types import PreToolUseHookSpecificOutput, SyncHookJSONOutput


#: What the model reads when it asks for a skill the agent does not have enabled in Cherry.
SKILL_REFUSED = "Only the skills enabled for this agent in Cherry can be loaded."


class BrokerOwner(Protocol):
    """The connection the broker serves: whether a turn runs, and its live permission mode."""

    @property
    def turn_active(self) -> bool: ...

    @property
    def permission_mode(self) -> PermissionMode: ...


class ToolCallBroker:
    """Disabled tools, approvals, always-allowed grants, steers and tool durations of one
    connection (see the module doc)."""

    def __init__(self, owner: BrokerOwner, outlet: EventOutlet, disabled_tools: Iterable[str],
                 tools: AgentToolset | None = None) -> None:
        self._owner = owner
        self._outlet = outlet
        #: Read live by the hooks: a reconcile changes it in place.
        self.disabled_tools: set[str] = set(disabled_tools)
        tools = tools or AgentToolset()
        self.policy = tools.policy(self.disabled_tools, plugin_skill_names(tools.skills))
        # Tools the user chose to always allow in this session (its approval card; the driver
        # seeds it with the session's saved grants). Not in plan mode, never a disabled tool.
        self.always_allowed_tools: set[str] = set()
        #: Tool calls the user (or the disabled list) refused: their results read "denied".
        self.denied_tool_ids: set[str] = set()
        #: tool call id -> duration_ms from the post-tool hooks (for the turn's output chunks).
        self.tool_durations: dict[str, float] = {}
        self._approvals: dict[str, asyncio.Future[ApprovalDecision]] = {}
        self._stashed_steers: list[tuple[str, str]] = []
        self._boundary_ids: list[str] = []

    # ---- turns and steers ----------------------------------------------------------------

    def start_turn(self) -> None:
        self.tool_durations.clear()

    def stash_steer(self, message_id: str, text: str) -> None:
        """The next PreToolUse hook of this turn injects it."""
        self._stashed_steers.append((message_id, text))

    def take_boundary(self) -> SteerBoundaryEvent | None:
        """The steer boundary to emit before the post-steer assistant message, if a steer was
        injected since the last one."""
        if not self._boundary_ids:
            return None
        ids, self._boundary_ids = tuple(self._boundary_ids), []
        return SteerBoundaryEvent(message_ids=ids)

    @property
    def has_boundary(self) -> bool:
        return bool(self._boundary_ids)

    def end_turn(self) -> None:
        """The turn settled: steers it never injected are undelivered (the host queues them)."""
        for message_id, _text in self._stashed_steers:
            self._outlet.emit(SteerUndeliveredEvent(message_id=message_id))
        self._stashed_steers = []
        self._boundary_ids = []

    # ---- approvals -----------------------------------------------------------------------

    def respond(self, approval_id: str, decision: ApprovalDecision) -> bool:
        future = self._approvals.pop(approval_id, None)
        if future is None or future.done():
            return False
        future.set_result(decision)
        return True

    def resolve_all(self, decision: ApprovalDecision) -> None:
        """Answer every waiting approval with `decision` (Stop, close, the stream's end)."""
        approvals, self._approvals = self._approvals, {}
        for future in approvals.values():
            if not future.done():
                future.set_result(decision)

    # ---- SDK callbacks (`CallbackTarget`) ------------------------------------------------

    async def on_pre_tool_use(self, data: Mapping[str, object], tool_use_id: str | None) -> SyncHookJSONOutput:
        tool_name = str(data.get("tool_name", ""))
        tool_input = data.get("tool_input")
        verdict = self.policy.verdict(tool_name, self._owner.permission_mode,
                                      tool_input if isinstance(tool_input, dict) else None)
        specific: PreToolUseHookSpecificOutput = {"hookEventName": "PreToolUse"}
        if verdict is Verdict.DENY:
            specific["permissionDecision"] = "deny"
            specific["permissionDecisionReason"] = SKILL_REFUSED if tool_name == SKILL_TOOL else DISABLED_MESSAGE
            return {"hookSpecificOutput": specific}
        if verdict is Verdict.ALLOW:
            specific["permissionDecision"] = "allow"
        elif verdict is Verdict.ASK:
            specific["permissionDecision"] = "ask"
        if self._stashed_steers and self._owner.turn_active:
            steers, self._stashed_steers = self._stashed_steers, []
            self._boundary_ids.extend(message_id for message_id, _ in steers)
            # Now, before the CLI's next request: the host reserves the continuation row's id.
            self._outlet.emit(SteerInjectedEvent(message_ids=tuple(message_id for message_id, _ in steers)))
            specific["additionalContext"] = wrap_steer_reminder("\n\n".join(t for _, t in steers))
        return {"hookSpecificOutput": specific} if len(specific) > 1 else {}

    def on_post_tool_use(self, data: Mapping[str, object], tool_use_id: str | None) -> None:
        duration = data.get("duration_ms")
        tool_id = tool_use_id or data.get("tool_use_id")
        # A hook with no active UI turn is not attached to the last message.
        if self._owner.turn_active and isinstance(duration, int | float) and tool_id:
            self.tool_durations[str(tool_id)] = float(duration)

    async def on_can_use_tool(self, tool_name: str, tool_input: JsonObject,
                              context: ToolPermissionContext) -> PermissionResult:
        from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

        tool_call_id = context.tool_use_id or str(uuid.uuid4())
        verdict = self.policy.verdict(tool_name, self._owner.permission_mode, tool_input)
        if verdict is Verdict.DENY:
            self.denied_tool_ids.add(tool_call_id)
            return PermissionResultDeny(message=DISABLED_MESSAGE)
        if verdict is Verdict.ALLOW:
            return PermissionResultAllow(updated_input=tool_input)
        if tool_name in self.always_allowed_tools and self._owner.permission_mode != "plan":
            return PermissionResultAllow(updated_input=tool_input)
        approval_id = f"approval-{uuid.uuid4().hex}"
        future: asyncio.Future[ApprovalDecision] = asyncio.get_running_loop().create_future()
        self._approvals[approval_id] = future
        self._outlet.emit(ToolApprovalRequestEvent(approval_id=approval_id, tool_call_id=tool_call_id,
                                                   tool_name=tool_name, input=tool_input))
        try:
            decision = await future
        finally:
            self._approvals.pop(approval_id, None)
        if decision.approved and decision.always_allow:
            self.always_allowed_tools.add(tool_name)
        if decision.approved:
            updated = decision.updated_input if isinstance(decision.updated_input, dict) else tool_input
            return PermissionResultAllow(updated_input=updated)
        self.denied_tool_ids.add(tool_call_id)
        return PermissionResultDeny(message=decision.reason or DENIED_MESSAGE)
