"""`AcpApprovals`: Cherry's answers to an agent's ``session/request_permission``, for one
connection, under the same consent rules as the other runtimes.

Each request is decided by the one approval policy of every runtime (`ToolApprovalPolicy`, by
the agent's tool name: ``mcp__<server>__<tool>`` for Cherry's tools and the MCP servers'): a
disabled tool, a tool its MCP server's rule denies, a skill Cherry did not enable, or any
request while the turn is being stopped, is rejected; a Cherry-safe tool (report_artifacts) or
one its server's rule allows runs without a card; a tool the user allowed "always" in this
session is allowed once; everything else is held as Cherry's approval card until the user
answers (`respond`). The answer picks one of the agent's own options by its ``kind``: allow
once (also for the user's "always": Cherry keeps that grant), reject. ACP's reject carries no
reason: a reason the user typed does not reach the agent (a gap of the protocol). A request
nobody can answer (Stop, close, the agent's exit) is rejected.

Each MCP call allowed here is remembered until Cherry's MCP relay runs it (`admit`): the relay
runs no ask-tool's call Cherry did not allow, whoever holds its token.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from acp import schema

from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet
from cherry_desktop.core.ai.runtime.events import ToolApprovalRequestEvent
from cherry_desktop.core.ai.runtime.types import DISABLED_MESSAGE, ApprovalDecision, PermissionMode
from cherry_desktop.core.mcp.config import MCP_PREFIX
from cherry_desktop.core.mcp.policy import SKILL_TOOL, Verdict
from cherry_desktop.core.mcp.toolset import AgentToolset
from cherry_desktop.core.messages.json_value import JsonValue


class PolicyOwner(Protocol):
    @property
    def disabled_tools(self) -> Collection[str]: ...

    @property
    def permission_mode(self) -> PermissionMode: ...

    @property
    def stopping(self) -> bool: ...


@dataclass
class _Waiting:
    tool_call_id: str
    tool_name: str
    options: Sequence[schema.PermissionOption]
    future: asyncio.Future[schema.RequestPermissionResponse]


def _pick(options: Sequence[schema.PermissionOption], *kinds: str) -> schema.RequestPermissionResponse:
    """The first option of the first kind offered; none offered: the request is cancelled."""
    for kind in kinds:
        for option in options:
            if option.kind == kind:
                return schema.RequestPermissionResponse(
                    outcome=schema.AllowedOutcome(outcome="selected", option_id=option.option_id))
    return schema.RequestPermissionResponse(outcome=schema.DeniedOutcome(outcome="cancelled"))


def allow(options: Sequence[schema.PermissionOption]) -> schema.RequestPermissionResponse:
    # The user allowed this call. The agent is told "allow once" even when the user said always:
    # Cherry keeps the grant (`always_allowed_tools`), so the agent keeps asking and a tool turned
    # off later, or a grant revoked, is still refused. An agent offering only "always" gets it.
    return _pick(options, "allow_once", "allow_always")


def reject(options: Sequence[schema.PermissionOption]) -> schema.RequestPermissionResponse:
    return _pick(options, "reject_once", "reject_always")


class AcpApprovals:
    def __init__(self, owner: PolicyOwner, *, outlet: EventOutlet, denied_tool_ids: set[str],
                 toolset: AgentToolset | None = None, skill_names: Collection[str] = ()) -> None:
        self._owner = owner
        self._toolset = toolset or AgentToolset()
        #: The skills the agent's skill tool may load, by the name the agent gives them.
        self._skill_names = tuple(skill_names)
        self._outlet = outlet
        self._denied = denied_tool_ids
        self._waiting: dict[str, _Waiting] = {}
        # The session's always-allowed tools (`HoldsToolGrants`), by the agent's tool names.
        self.always_allowed_tools: set[str] = set()
        # The calls allowed and not yet run by the relay: (tool call id, tool name).
        self._released: list[tuple[str, str]] = []

    def _verdict(self, tool_name: str, tool_input: JsonValue) -> Verdict:
        owner = self._owner
        policy = self._toolset.policy(set(owner.disabled_tools), self._skill_names)
        return policy.verdict(tool_name, owner.permission_mode, tool_input if isinstance(tool_input, dict) else None)

    def _allow(self, tool_call_id: str, tool_name: str,
               options: Sequence[schema.PermissionOption]) -> schema.RequestPermissionResponse:
        if tool_name.startswith(MCP_PREFIX):  # only the relay's calls are checked again
            self._released.append((tool_call_id, tool_name))
        return allow(options)

    def admit(self, tool_name: str, tool_call_id: str | None) -> str | None:
        """The MCP relay's check of one call before it runs (None: it runs; else why not): the
        policy's deny, an allowed tool, else a call allowed here (by its id, else its name)."""
        verdict = self._verdict(tool_name, {})
        if verdict is Verdict.DENY or self._owner.stopping:
            return DISABLED_MESSAGE
        if verdict is Verdict.ALLOW:
            return None
        for index, (call_id, name) in enumerate(self._released):
            if name == tool_name and (tool_call_id is None or call_id == tool_call_id):
                del self._released[index]
                return None
        return "Cherry did not approve this tool call."

    async def decide(self, tool_call_id: str, tool_name: str, tool_input: JsonValue,
                     options: Sequence[schema.PermissionOption],
                     before_card: Callable[[], None]) -> schema.RequestPermissionResponse:
        owner = self._owner
        verdict = self._verdict(tool_name, tool_input)
        if verdict is Verdict.DENY or owner.stopping:
            self._denied.add(tool_call_id)
            return reject(options)
        if verdict is Verdict.ALLOW or (verdict is Verdict.MODE and tool_name == SKILL_TOOL):
            # An enabled skill loads as the runtime's own Skill tool would: without a card (it
            # asks at all only so that Cherry can refuse every other skill).
            return self._allow(tool_call_id, tool_name, options)
        if tool_name in self.always_allowed_tools:
            return self._allow(tool_call_id, tool_name, options)
        before_card()
        approval_id = f"approval-{uuid.uuid4().hex}"
        future: asyncio.Future[schema.RequestPermissionResponse] = asyncio.get_running_loop().create_future()
        self._waiting[approval_id] = _Waiting(tool_call_id, tool_name, options, future)
        self._outlet.emit(ToolApprovalRequestEvent(approval_id=approval_id, tool_call_id=tool_call_id,
                                                   tool_name=tool_name, input=tool_input))
        try:
            return await future
        finally:
            self._waiting.pop(approval_id, None)

    def respond(self, approval_id: str, decision: ApprovalDecision) -> bool:
        waiting = self._waiting.pop(approval_id, None)
        if waiting is None or waiting.future.done():
            return False
        if decision.approved:
            if decision.always_allow:
                self.always_allowed_tools.add(waiting.tool_name)
            waiting.future.set_result(self._allow(waiting.tool_call_id, waiting.tool_name, waiting.options))
        else:
            self._denied.add(waiting.tool_call_id)
            waiting.future.set_result(reject(waiting.options))
        return True

    def resolve_all(self) -> None:
        """Reject every held request at once (Stop, close, the agent's exit)."""
        self._released.clear()
        waiting, self._waiting = self._waiting, {}
        for held in waiting.values():
            self._denied.add(held.tool_call_id)
            if not held.future.done():
                held.future.set_result(reject(held.options))
