"""The SDK client as the app drives it: what it uses of a `ClaudeSDKClient` (`SdkClient`), who
makes one (`ClientFactory`: `ClaudeCodeProcessManager.new_client`), and the callbacks its query
runs (`CallbackRouter`).

The SDK calls a query's hooks and its ``can_use_tool`` callback. A warm query is built before
any connection exists, so its options point at a router whose target (the owning connection's
`tool_calls.ToolCallBroker`) is set when a connection consumes it. Without a target the hooks
do nothing and tool permission is denied (nothing should run on an unowned query).

Typed against the SDK's own client and callback types, imported for type checking only:
importing this module imports no SDK. Unit tests pass stand-ins for the client and factory.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable, AsyncIterator, Mapping
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.ai.runtime.claude_code.cli_command import CliLaunch
from cherry_desktop.core.ai.runtime.types import PermissionMode
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue

if TYPE_CHECKING:
    from claude_agent_sdk import (
        HookContext,
        HookInput,
        HookJSONOutput,
        HookMatcher,
        Message,
        PermissionResult,
        ToolPermissionContext,
    )
    from claude_agent_sdk.types import HookEvent, SyncHookJSONOutput

log = logging.getLogger(__name__)

#: How long closing a client may take before it is given up on (its transport then SIGTERMs).
CLOSE_TIMEOUT_S = 5.0

#: What `SdkClient.query` takes: the text, or a stream of streaming-input user messages.
SdkPrompt = str | AsyncIterable[JsonObject]


class SdkClient(Protocol):
    async def connect(self) -> None: ...

    async def query(self, prompt: SdkPrompt) -> None: ...

    def receive_messages(self) -> AsyncIterator[Message]: ...

    async def interrupt(self) -> None: ...

    async def set_permission_mode(self, mode: PermissionMode) -> None: ...

    async def disconnect(self) -> None: ...


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


class ClientFactory(Protocol):
    def new_client(self, launch: CliLaunch, router: CallbackRouter) -> SdkClient: ...


async def close_client(client: SdkClient, timeout: float = CLOSE_TIMEOUT_S) -> None:
    """Disconnect an SDK client, bounded in time; never raises."""
    try:
        await asyncio.wait_for(client.disconnect(), timeout)
    except (Exception, asyncio.CancelledError):
        log.debug("closing a Claude Code client failed", exc_info=True)


def sdk_prompt(prompt: str | list[JsonValue]) -> SdkPrompt:
    """What `SdkClient.query` takes: the text, or one streaming-input user message whose content
    is the blocks (the SDK writes it to the CLI as it is)."""
    if isinstance(prompt, str):
        return prompt

    async def one_message() -> AsyncIterator[JsonObject]:
        yield {"type": "user", "message": {"role": "user", "content": list(prompt)}, "parent_tool_use_id": None}

    return one_message()
