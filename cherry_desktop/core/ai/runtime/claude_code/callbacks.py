"""SDK callbacks (hooks, ``can_use_tool``) routed to whichever connection owns the query.

A warm query is built before any connection exists, so its options point at a router whose
target is set when a connection consumes it. Without a target the hooks do nothing and tool
permission is denied (nothing should run on an unowned query).
"""

from __future__ import annotations

from typing import Any, Protocol


class CallbackTarget(Protocol):
    async def on_pre_tool_use(self, data: dict[str, Any], tool_use_id: str | None) -> dict[str, Any]: ...

    def on_post_tool_use(self, data: dict[str, Any], tool_use_id: str | None) -> None: ...

    async def on_can_use_tool(self, tool_name: str, tool_input: dict[str, Any], context: Any) -> Any: ...


class CallbackRouter:
    """Hooks and the permission callback of one SDK query."""

    def __init__(self, target: CallbackTarget | None = None) -> None:
        self.target = target

    async def pre_tool_use(self, data: Any, tool_use_id: str | None, context: Any) -> Any:
        if self.target is None:
            return {}
        return await self.target.on_pre_tool_use(dict(data), tool_use_id)

    async def post_tool_use(self, data: Any, tool_use_id: str | None, context: Any) -> Any:
        if self.target is not None:
            self.target.on_post_tool_use(dict(data), tool_use_id)
        return {}

    async def can_use_tool(self, tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        if self.target is None:
            from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk

            return load_sdk().PermissionResultDeny(message="No Cherry session owns this query.")
        return await self.target.on_can_use_tool(tool_name, tool_input, context)

    def hooks(self) -> dict[str, list[Any]]:
        from cherry_desktop.core.ai.runtime.claude_code.sdk import load_sdk

        matcher = load_sdk().HookMatcher
        return {
            "PreToolUse": [matcher(matcher=None, hooks=[self.pre_tool_use])],
            "PostToolUse": [matcher(matcher=None, hooks=[self.post_tool_use])],
            "PostToolUseFailure": [matcher(matcher=None, hooks=[self.post_tool_use])],
        }
