"""Fold a chunk stream into a `UIMessage` (the spec's `readUIMessageStream`).

The accumulator keeps mutable builders and joins text only when a snapshot is asked for, so
folding a stream is linear in its length however many deltas it has. `snapshot()` is O(size
of the message); call it at terminal time or for a checkpoint, not per chunk.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from typing import Any

from cherry_desktop.core.messages.chunks import DataChunk, UIMessageChunk
from cherry_desktop.core.messages.errors import ErrorCode
from cherry_desktop.core.messages.ui_message import (
    DataPart,
    MessagePart,
    ReasoningPart,
    Role,
    StepStartPart,
    TextPart,
    ToolApproval,
    ToolPart,
    UIMessage,
    new_id,
)


class _TextBuilder:
    __slots__ = ("kind", "pieces", "provider_metadata", "state")

    def __init__(self, kind: str, provider_metadata: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.pieces: list[str] = []
        self.state = "streaming"
        self.provider_metadata = provider_metadata

    def build(self) -> MessagePart:
        text = "".join(self.pieces)
        if len(self.pieces) > 1:
            self.pieces = [text]
        fields: dict[str, Any] = {"type": self.kind, "text": text, "state": self.state,
                                  "provider_metadata": self.provider_metadata}
        if self.kind == "text":
            return TextPart.model_construct(**fields)
        return ReasoningPart.model_construct(**fields)


class _ToolBuilder:
    __slots__ = ("fields", "input_pieces")

    def __init__(self, tool_call_id: str, tool_name: str, dynamic: bool) -> None:
        self.fields: dict[str, Any] = {
            "type": "dynamic-tool" if dynamic else f"tool-{tool_name}",
            "tool_call_id": tool_call_id,
            "tool_name": tool_name,
            "state": "input-streaming",
        }
        self.input_pieces: list[str] = []

    def build(self) -> MessagePart:
        fields = dict(self.fields)
        if self.input_pieces and fields.get("input") is None:
            fields["input_text"] = "".join(self.input_pieces)
        return ToolPart.model_validate(fields)


class UIMessageAccumulator:
    """Applies chunks in order; `snapshot()` returns the message so far."""

    def __init__(self, *, message_id: str | None = None, role: Role = "assistant",
                 metadata: dict[str, Any] | None = None) -> None:
        self.message_id = message_id or new_id()
        self.role: Role = role
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._parts: list[Any] = []
        self._text: dict[str, _TextBuilder] = {}
        self._reasoning: dict[str, _TextBuilder] = {}
        self._tools: dict[str, _ToolBuilder] = {}
        self._data: dict[tuple[str, str], int] = {}
        self.error_text: str | None = None
        self.error_code: ErrorCode | None = None
        self.finish_reason: str | None = None
        self.chunk_count = 0

    # -- folding -------------------------------------------------------------------------
    def apply(self, chunk: UIMessageChunk) -> None:
        self.chunk_count += 1
        # Typed as Any on purpose: dispatching on `.type` is what narrows it, and this is the
        # hot path (no isinstance chain).
        c: Any = chunk
        t = c.type
        if t == "text-delta":
            b = self._text.get(c.id)
            if b is None:
                b = self._open_text(self._text, "text", c.id, None)
            b.pieces.append(c.delta)
        elif t == "reasoning-delta":
            b = self._reasoning.get(c.id)
            if b is None:
                b = self._open_text(self._reasoning, "reasoning", c.id, None)
            b.pieces.append(c.delta)
        elif t == "text-start":
            self._open_text(self._text, "text", c.id, c.provider_metadata)
        elif t == "reasoning-start":
            self._open_text(self._reasoning, "reasoning", c.id, c.provider_metadata)
        elif t == "text-end":
            self._close_text(self._text, c.id)
        elif t == "reasoning-end":
            self._close_text(self._reasoning, c.id)
        elif t.startswith("tool-"):
            self._apply_tool(c)
        elif t == "start":
            if c.message_id:
                self.message_id = c.message_id
            if c.message_metadata:
                self.metadata.update(c.message_metadata)
        elif t in ("message-metadata", "finish"):
            md = c.message_metadata
            if md:
                self.metadata.update(md)
            if t == "finish":
                self.finish_reason = c.finish_reason
        elif t == "start-step":
            self._parts.append(StepStartPart())
        elif t == "error":
            self.error_text = c.error_text
            self.error_code = c.error_code
        elif t.startswith("data-"):
            self._apply_data(c)
        # finish-step and abort carry nothing to keep.

    def _open_text(self, table: dict[str, _TextBuilder], kind: str, cid: str,
                   provider_metadata: dict[str, Any] | None) -> _TextBuilder:
        b = _TextBuilder(kind, provider_metadata)
        table[cid] = b
        self._parts.append(b)
        return b

    @staticmethod
    def _close_text(table: dict[str, _TextBuilder], cid: str) -> None:
        b = table.pop(cid, None)
        if b is not None:
            b.state = "done"

    def _tool(self, chunk: Any) -> _ToolBuilder:
        b = self._tools.get(chunk.tool_call_id)
        if b is None:
            b = _ToolBuilder(chunk.tool_call_id, getattr(chunk, "tool_name", None) or "unknown",
                             getattr(chunk, "dynamic", True))
            self._tools[chunk.tool_call_id] = b
            self._parts.append(b)
        return b

    def _apply_tool(self, chunk: Any) -> None:
        t = chunk.type
        b = self._tool(chunk)
        f = b.fields
        if t == "tool-input-start":
            for key in ("provider_executed", "provider_metadata"):
                if getattr(chunk, key, None) is not None:
                    f[key] = getattr(chunk, key)
        elif t == "tool-input-delta":
            b.input_pieces.append(chunk.input_text_delta)
        elif t == "tool-input-available":
            f["input"] = chunk.input
            f["state"] = "input-available"
            f["tool_name"] = chunk.tool_name
            for key in ("provider_executed", "provider_metadata"):
                if getattr(chunk, key, None) is not None:
                    f[key] = getattr(chunk, key)
        elif t == "tool-input-error":
            f["input"] = chunk.input
            f["state"] = "output-error"
            f["error_text"] = chunk.error_text
        elif t == "tool-approval-request":
            f["state"] = "approval-requested"
            f["approval"] = ToolApproval(id=chunk.approval_id)
        elif t == "tool-output-available":
            f["state"] = "output-available"
            f["output"] = chunk.output
            if chunk.duration_ms is not None:
                f["duration_ms"] = chunk.duration_ms
        elif t == "tool-output-error":
            f["state"] = "output-error"
            f["error_text"] = chunk.error_text
        elif t == "tool-output-denied":
            f["state"] = "output-denied"
            if chunk.reason:
                f["error_text"] = chunk.reason

    def _apply_data(self, chunk: DataChunk) -> None:
        if chunk.transient:
            return
        part = DataPart(type=chunk.type, id=chunk.id, data=chunk.data)
        if chunk.id is not None:
            key = (chunk.type, chunk.id)
            idx = self._data.get(key)
            if idx is not None:
                self._parts[idx] = part
                return
            self._data[key] = len(self._parts)
        self._parts.append(part)

    # -- reading -------------------------------------------------------------------------
    @property
    def has_content(self) -> bool:
        return bool(self._parts)

    def snapshot(self) -> UIMessage:
        parts: list[MessagePart] = []
        for p in self._parts:
            if isinstance(p, _TextBuilder | _ToolBuilder):
                parts.append(p.build())
            else:
                parts.append(p)
        return UIMessage.model_construct(
            id=self.message_id, role=self.role, parts=parts, metadata=dict(self.metadata)
        )


async def read_ui_message_stream(
    chunks: AsyncIterable[UIMessageChunk], *, message_id: str | None = None
) -> AsyncIterator[UIMessage]:
    """Yield a snapshot of the message after each chunk (parity with the AI SDK helper).

    Prefer `UIMessageAccumulator` directly on a hot path: a snapshot per chunk is O(n^2).
    """
    acc = UIMessageAccumulator(message_id=message_id)
    async for chunk in chunks:
        acc.apply(chunk)
        yield acc.snapshot()
