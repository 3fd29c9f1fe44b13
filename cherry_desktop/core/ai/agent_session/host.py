"""What the runtime host needs from the stream manager (`AiStreamManager` satisfies it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cherry_desktop.core.ai.stream.types import AiStreamRequest, SerializedError, StreamListener, UniqueModelId


class RuntimeStreamHost(Protocol):
    def has_live_stream(self, topic_id: str) -> bool: ...

    def will_continue_topic(self, topic_id: str) -> bool:
        """Keep the topic stream open across its next terminal (a continuation follows)."""
        ...

    def start_runtime_turn(self, *, topic_id: str, model_id: UniqueModelId, request: AiStreamRequest,
                           listeners: Sequence[StreamListener] = (),
                           anchor_message_id: str | None = None) -> Any:
        """Launch a runtime turn's execution on the topic, carrying its subscribers."""
        ...

    async def terminate_held_topic_stream(self, topic_id: str,
                                          error: SerializedError | str | None = None) -> bool:
        """A continuation could not start: end the held topic as `error`."""
        ...

    def abort(self, topic_id: str, reason: str = "user") -> None: ...
