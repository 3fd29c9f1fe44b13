"""One streamed reply as UI message chunks: the bookkeeping every chat provider shares.

A provider reads its own wire format (OpenAI chat-completion deltas, Anthropic content
blocks); `ReplyChunks` turns what it read into chunks: the opening chunks, text and reasoning
blocks started, extended and ended under the provider's own key for each block, error chunks
that name the provider, and the ending (nothing after a stop, an error when the server hung up
before the reply was complete, else finish-step and finish with the message metadata).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any, Literal

from cherry_desktop.core.ai.providers.sse import SseEvent
from cherry_desktop.core.ai.stream.types import AbortSignal
from cherry_desktop.core.messages import (
    ErrorChunk,
    ErrorCode,
    FinishChunk,
    FinishStepChunk,
    ReasoningDeltaChunk,
    ReasoningEndChunk,
    ReasoningStartChunk,
    StartChunk,
    StartStepChunk,
    TextDeltaChunk,
    TextEndChunk,
    TextStartChunk,
    UIMessageChunk,
)

BlockKind = Literal["text", "reasoning"]


def provider_error(provider_name: str, detail: str, code: ErrorCode = ErrorCode.PROVIDER_ERROR) -> ErrorChunk:
    """An `error` chunk: `code` says what failed, its text which provider and how (in the
    provider's own words where it gave any: the UI's detail line)."""
    return ErrorChunk(error_text=f"{provider_name}: {detail}", error_code=code)


def parse_json(data: str) -> dict[str, Any] | None:
    """`data` as a JSON object, or None when it is not one."""
    try:
        obj = json.loads(data)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


class ReplyChunks:
    """Chunk bookkeeping for one provider reply.

    Open blocks are held by a key the provider chooses (Anthropic's content-block index; the
    chunk id where a provider has one block of each kind), each with its kind and chunk id, in
    the order they opened.

    Attributes:
        provider_name: Names the provider in every error text.
        meta: Message metadata for the finish chunk (starts with the request's `model_id`).
    """

    def __init__(self, provider_name: str, model_id: str | None) -> None:
        self.provider_name = provider_name
        self.meta: dict[str, Any] = {"model_id": model_id}
        self._open: dict[Hashable, tuple[BlockKind, str]] = {}

    @staticmethod
    def opening() -> list[UIMessageChunk]:
        """What every reply starts with, before the request is even sent."""
        return [StartChunk(), StartStepChunk()]

    def start(self, kind: BlockKind, block_id: str, *, key: Hashable | None = None) -> UIMessageChunk:
        """Open a block under `key` (default: `block_id`); a block open there before is forgotten."""
        self._open[block_id if key is None else key] = (kind, block_id)
        return TextStartChunk(id=block_id) if kind == "text" else ReasoningStartChunk(id=block_id)

    def delta(self, key: Hashable, kind: BlockKind, text: str) -> UIMessageChunk | None:
        """`text` for the block open under `key`; None unless a block of `kind` is open there."""
        kind_and_id = self._open.get(key)
        if kind_and_id is None or kind_and_id[0] != kind:
            return None
        return _delta_chunk(kind, kind_and_id[1], text)

    def append(self, kind: BlockKind, block_id: str, text: str) -> list[UIMessageChunk]:
        """`text` for block `block_id`, opening it first when it is not open."""
        opened = [] if block_id in self._open else [self.start(kind, block_id)]
        return [*opened, _delta_chunk(kind, block_id, text)]

    def end(self, key: Hashable) -> UIMessageChunk | None:
        """Close the block open under `key`; None when none is."""
        kind_and_id = self._open.pop(key, None)
        if kind_and_id is None:
            return None
        kind, block_id = kind_and_id
        return TextEndChunk(id=block_id) if kind == "text" else ReasoningEndChunk(id=block_id)

    def end_all(self) -> list[UIMessageChunk]:
        """Close every open block, the newest first."""
        ends = [self.end(key) for key in reversed(list(self._open))]
        return [chunk for chunk in ends if chunk is not None]

    def error(self, detail: str, code: ErrorCode = ErrorCode.PROVIDER_ERROR) -> ErrorChunk:
        return provider_error(self.provider_name, detail, code)

    def decode(self, event: SseEvent) -> dict[str, Any] | ErrorChunk:
        """The event's JSON object, or the error chunk that ends a reply with malformed data."""
        obj = parse_json(event.data)
        return obj if obj is not None else self.error(f"malformed stream data: {event.data[:120]!r}",
                                                      ErrorCode.MALFORMED_RESPONSE)

    def ending(self, signal: AbortSignal | None, *, complete: bool, finish_reason: str,
               close_blocks: bool = False) -> list[UIMessageChunk]:
        """The chunks after the last event.

        Nothing after a stop (the stream manager ends the message); an error when the server
        hung up before the reply was `complete`; else finish-step and finish, with
        `finish_reason` in the metadata, after closing the open blocks if `close_blocks`.
        """
        if signal is not None and signal.aborted:
            return []
        if not complete:
            return [self.error("the stream ended before the reply was complete", ErrorCode.STREAM_INCOMPLETE)]
        closing = self.end_all() if close_blocks else []
        self.meta["finish_reason"] = finish_reason
        return [*closing, FinishStepChunk(), FinishChunk(finish_reason=finish_reason, message_metadata=self.meta)]


def _delta_chunk(kind: BlockKind, block_id: str, text: str) -> UIMessageChunk:
    return TextDeltaChunk(id=block_id, delta=text) if kind == "text" else ReasoningDeltaChunk(id=block_id, delta=text)
