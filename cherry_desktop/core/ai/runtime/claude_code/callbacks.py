"""SDK callbacks (hooks, ``can_use_tool``) routed to whichever connection owns the query.

A warm query is built before any connection exists, so its options point at a router whose
target is set when a connection consumes it. Without a target the hooks do nothing and tool
permission is denied (nothing should run on an unowned query). Typed against the SDK's own
callback types (imported for type checking only: importing this module imports no SDK).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.messages.json_value import JsonObject

if TYPE_CHECKING:
    from claude_agent_sdk import (
        HookContext,
        HookInput,
        HookJSONOutput,
        HookMatcher,
        PermissionResult,
        ToolPermissionContext,
    )
    from claude_agent_sdk.types import HookEvent, SyncHookJSONOutput


class CallbackTarget(Protocol):
    """What a query's callbacks reach (`tool_calls.ToolCallBroker` of the owning connection)."""

    async def on_pre_tool_use(self, data: Mapping[str, object], tool_use_id: str | None) -> SyncHookJSONOutput: ...

    def on_post_tool_use(self, data: Mapping[str, object], tool_use_id: str | None) -> None: ...

    async def on_can_use_tool(self, tool_name: str, tool_input: JsonObject,
                              context: ToolPermissionContext) -> PermissionResult: ...


class CallbackRouter:
    """Hooks and the permission callback of one SDK query."""

    def __init__(self, target: CallbackTarget | None = None) -> None:
        self.target = target

    async def pre_tool_use(self, data: HookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        if self.target is None:
            return {}
        return await self.target.on_pre_tool_use(data, tool_use_id)

    async def post_tool_use(self, data: HookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        if self.target is not None:
            self.target.on_post_tool_use(data, tool_use_id)
        return {}

    async def can_use_tool(self, tool_name: str, tool_input: JsonObject,
                           context: ToolPermissionContext) -> PermissionResult:
        if self.target is None:
            from claude_agent_sdk import PermissionResultDeny

            return PermissionResultDeny(message="No Cherry session owns this query.")
        return await self.target.on_can_use_tool(tool_name, tool_input, context)

    def hooks(self) -> dict[HookEvent, list[HookMatcher]]:
        """The query's hooks (call once the SDK is loaded: at connect or prewarm)."""
        from claude_agent_sdk import HookMatcher

        return {
            "PreToolUse": [HookMatcher(matcher=None, hooks=[self.pre_tool_use])],
            "PostToolUse": [HookMatcher(matcher=None, hooks=[self.post_tool_use])],
            "PostToolUseFailure": [HookMatcher(matcher=None, hooks=[self.post_tool_use])],
        }
