"""`PiApprovals`: Cherry's answers to pi's extension UI requests, for one connection.

Cherry's gate extension (`gate.py`) holds every tool call in an ``extension_ui_request`` until
Cherry answers it. Here each request is answered: the gate's readiness notice is noted, its
request for the provider's key answered over the RPC pipe, and each tool call decided by
`policy.decide` (allowed, refused as disabled, or held as an approval card until the user
answers, `respond`). A dialog anything else opens is cancelled: nothing may block pi on one.
The live policy (permission mode, disabled tools, whether the turn is being stopped) is the
connection's (`PolicyOwner`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Protocol

from cherry_desktop.core.ai.runtime.event_outlet import EventOutlet
from cherry_desktop.core.ai.runtime.events import ToolApprovalRequestEvent
from cherry_desktop.core.ai.runtime.pi.gate import (
    GateRequest,
    gate_answer,
    is_gate_ready,
    is_key_request,
    key_answer,
    parse_gate_request,
)
from cherry_desktop.core.ai.runtime.pi.launch import PiLaunch
from cherry_desktop.core.ai.runtime.pi.policy import GateVerdict, decide
from cherry_desktop.core.ai.runtime.types import DENIED_MESSAGE, DISABLED_MESSAGE, ApprovalDecision, PermissionMode
from cherry_desktop.core.mcp.config import MCP_PREFIX
from cherry_desktop.core.mcp.policy import Verdict
from cherry_desktop.core.messages.json_value import JsonObject

_DIALOG_METHODS = frozenset({"select", "confirm", "input", "editor"})


class PolicyOwner(Protocol):
    """The connection whose live policy decides each tool call."""

    @property
    def permission_mode(self) -> PermissionMode: ...

    @property
    def disabled_tools(self) -> Collection[str]: ...

    @property
    def stopping(self) -> bool:
        """The user stopped the turn: no tool call of it runs any more."""
        ...


class PiApprovals:
    """The tool calls pi's gate holds for one connection (see the module doc)."""

    def __init__(self, owner: PolicyOwner, *, launch: PiLaunch, write_roots: Sequence[Path], outlet: EventOutlet,
                 send: Callable[[JsonObject], None], released: Callable[[str], None],
                 denied_tool_ids: set[str]) -> None:
        self._owner = owner
        self._launch = launch
        self._write_roots = write_roots
        self._outlet = outlet
        self._send = send
        self._released = released
        self._denied = denied_tool_ids
        self._waiting: dict[str, GateRequest] = {}
        #: The gate announced itself: without it the connection refuses to run (fail closed).
        self.gate_ready = False
        # Tools the user allowed "always" in this session: not asked again (as the Claude Code
        # connection does; `ApprovalDecision.always_allow`; the driver seeds it with the
        # session's saved grants). Never a disabled tool: the gate's verdict comes first.
        self.always_allowed_tools: set[str] = set()

    def on_ui_request(self, record: JsonObject) -> None:
        if is_gate_ready(record):
            self.gate_ready = True
            return
        if is_key_request(record):
            self._send(key_answer(str(record.get("id")), self._launch.api_key))
            return
        request = parse_gate_request(record)
        if request is None:
            if record.get("method") in _DIALOG_METHODS:  # nothing else may block pi on a dialog
                self._send({"type": "extension_ui_response", "id": record.get("id"), "cancelled": True})
            return
        owner = self._owner
        verdict = self._verdict(request)
        if verdict is GateVerdict.ASK and request.tool_name in self.always_allowed_tools:
            verdict = GateVerdict.ALLOW
        if verdict is GateVerdict.ALLOW:
            self._released(request.tool_call_id)
            self._send(gate_answer(request.ui_request_id, allow=True))
        elif verdict is GateVerdict.DISABLED or owner.stopping:
            self._denied.add(request.tool_call_id)
            self._send(gate_answer(request.ui_request_id, allow=False, reason=DISABLED_MESSAGE))
        else:
            approval_id = f"approval-{uuid.uuid4().hex}"
            self._waiting[approval_id] = request
            self._outlet.emit(ToolApprovalRequestEvent(approval_id=approval_id, tool_call_id=request.tool_call_id,
                                                       tool_name=request.tool_name, input=request.input))

    def _verdict(self, request: GateRequest) -> GateVerdict:
        owner = self._owner
        if request.tool_name.startswith(MCP_PREFIX):
            # Cherry's tools and the MCP servers' tools: the one policy of every runtime.
            policy = self._launch.toolset.policy(set(owner.disabled_tools))
            verdict = policy.verdict(request.tool_name, owner.permission_mode)
            if verdict is Verdict.MODE:  # third-party MCP: asks unless the mode bypasses asking
                return GateVerdict.ALLOW if owner.permission_mode == "bypassPermissions" else GateVerdict.ASK
            return {Verdict.ALLOW: GateVerdict.ALLOW, Verdict.DENY: GateVerdict.DISABLED}.get(verdict, GateVerdict.ASK)
        return decide(request.tool_name, request.input, permission_mode=owner.permission_mode,
                      disabled_tools=owner.disabled_tools, cwd=self._launch.cwd, write_roots=self._write_roots)

    def respond(self, approval_id: str, decision: ApprovalDecision) -> bool:
        request = self._waiting.pop(approval_id, None)
        if request is None:
            return False
        if decision.approved:
            self._released(request.tool_call_id)
            if decision.always_allow:
                self.always_allowed_tools.add(request.tool_name)
        else:
            self._denied.add(request.tool_call_id)
        reason = decision.reason or DENIED_MESSAGE
        self._send(gate_answer(request.ui_request_id, allow=decision.approved, reason=reason))
        return True

    def resolve_all(self, *, allow: bool, reason: str) -> None:
        """Answer every held tool call at once (Stop, close, pi's exit)."""
        waiting, self._waiting = self._waiting, {}
        for request in waiting.values():
            self._denied.add(request.tool_call_id)
            self._send(gate_answer(request.ui_request_id, allow=allow, reason=reason))
