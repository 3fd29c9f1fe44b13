"""What the connection and the warm-query manager use of a `ClaudeSDKClient`, as a protocol.

`SdkClient` is the part of the SDK's public client the app calls; `ClientFactory` makes one for
a `CliLaunch` (`ClaudeCodeProcessManager.new_client`). Unit tests pass stand-ins for both.
Importing this module imports no SDK (its types are for type checking only).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterable, AsyncIterator
from typing import TYPE_CHECKING, Protocol

from cherry_desktop.core.ai.runtime.claude_code.callbacks import CallbackRouter
from cherry_desktop.core.ai.runtime.claude_code.cli_command import CliLaunch
from cherry_desktop.core.ai.runtime.types import PermissionMode
from cherry_desktop.core.messages.json_value import JsonObject, JsonValue

if TYPE_CHECKING:
    from claude_agent_sdk import Message

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
