"""`AiService.stream_text` routing for agent sessions.

A request with `runtime` metadata goes to `AgentSessionRuntimeService.open_turn_stream`; an
`agent-session:*` request without it is rejected (fail fast: no fallback to a per-turn
generic agent); everything else goes to the chat path.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from cherry_desktop.core.ai.agent_session.errors import RuntimeMetadataMissingError
from cherry_desktop.core.ai.agent_session.service import AgentSessionRuntimeService
from cherry_desktop.core.ai.stream.types import AiStreamRequest, StreamTextFn
from cherry_desktop.core.messages import UIMessageChunk
from cherry_desktop.core.state.topics import AGENT_SESSION_TOPIC_PREFIX


def make_runtime_stream_text(runtime: AgentSessionRuntimeService, fallback: StreamTextFn | None = None) -> StreamTextFn:
    async def stream_text(request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        if request.runtime is not None and request.runtime.kind == "agent-session":
            return await runtime.open_turn_stream(request)
        if (request.topic_id or "").startswith(AGENT_SESSION_TOPIC_PREFIX):
            raise RuntimeMetadataMissingError(detail=request.topic_id or "")
        if fallback is None:
            raise RuntimeError("no chat stream_text configured")
        return await fallback(request)

    return stream_text
