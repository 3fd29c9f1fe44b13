"""`PromptStreams`: what topic naming and translation use of the stream manager.

Both start an ad-hoc prompt stream (`AiStreamManager.stream_prompt`, the silent lifecycle) and
look whether one runs; they take this narrow protocol rather than the manager itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from cherry_desktop.core.ai.stream import SendResult, StreamListener


class PromptStreams(Protocol):
    def stream_prompt(self, *, stream_id: str, unique_model_id: str, prompt: str | None = None,
                      listener: StreamListener | Sequence[StreamListener],
                      system: str | None = None) -> SendResult: ...

    def has_live_stream(self, topic_id: str) -> bool: ...
