"""Anthropic Messages API, streamed: text and thinking blocks, usage into message metadata."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

from cherry_desktop.core.ai.providers.base import HttpStreamingProvider
from cherry_desktop.core.ai.providers.reply import BlockKind
from cherry_desktop.core.ai.stream.types import AiStreamRequest
from cherry_desktop.core.attachments.content import anthropic_image_block, api_content
from cherry_desktop.core.messages import ErrorChunk, ErrorCode, UIMessageChunk, error_code_for, message_text

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096
# Content-block type -> our block kind; delta type -> (block kind, the delta's text field).
_BLOCK_KINDS: dict[str, BlockKind] = {"text": "text", "thinking": "reasoning"}
_DELTA_KINDS: dict[str, tuple[BlockKind, str]] = {"text_delta": ("text", "text"),
                                                  "thinking_delta": ("reasoning", "thinking")}


def _as_blocks(content: str | list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def anthropic_messages(request: AiStreamRequest) -> list[dict[str, Any]]:
    """User/assistant turns; same-role neighbours merged, user first."""
    out: list[dict[str, Any]] = []
    for m in request.messages:
        if m.role == "system":
            continue
        content = api_content(m, anthropic_image_block)
        if not content:
            continue
        if out and out[-1]["role"] == m.role:
            previous = out[-1]["content"]
            if isinstance(previous, str) and isinstance(content, str):
                out[-1]["content"] = previous + "\n\n" + content
            else:
                out[-1]["content"] = _as_blocks(previous) + _as_blocks(content)
        else:
            out.append({"role": m.role, "content": content})
    while out and out[0]["role"] != "user":
        out.pop(0)
    return out


class AnthropicProvider(HttpStreamingProvider):
    label = "anthropic"

    def url(self) -> str:
        base = (self.record.base_url or DEFAULT_BASE_URL).rstrip("/")
        return base + ("/messages" if base.endswith("/v1") else "/v1/messages")

    def body(self, model: str, request: AiStreamRequest) -> dict[str, Any]:
        params = request.parameters
        body: dict[str, Any] = {"model": model, "messages": anthropic_messages(request), "stream": True,
                                "max_tokens": int(params.get("max_tokens", DEFAULT_MAX_TOKENS))}
        system = "\n\n".join(s for s in [request.system or "", *(message_text(m) for m in request.messages
                                                                   if m.role == "system")] if s)
        if system:
            body["system"] = system
        for key in ("temperature", "top_p", "top_k", "stop_sequences"):
            if key in params:
                body[key] = params[key]
        if params.get("thinking_budget"):
            body["thinking"] = {"type": "enabled", "budget_tokens": int(params["thinking_budget"])}
        return body

    async def stream(self, model: str, request: AiStreamRequest) -> AsyncIterator[UIMessageChunk]:
        headers = {"anthropic-version": API_VERSION, "Accept": "text/event-stream"}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        reply = self.reply(request)
        for chunk in reply.opening():
            yield chunk
        meta = reply.meta
        stop_reason: str | None = None
        stopped = False
        # Closed here, not left to the garbage collector: a `break` at the message's end
        # releases the HTTP response now (an unclosed generator's finalizer runs later as a
        # task of its own, which a closing event loop may never finish).
        async with aclosing(self.open_events(self.url(), headers, self.body(model, request), request)) as events:
            async for ev in events:
                if isinstance(ev, ErrorChunk):
                    yield ev
                    return
                obj = reply.decode(ev)
                if isinstance(obj, ErrorChunk):
                    yield obj
                    return
                kind = obj.get("type") or ev.event
                if kind == "error":
                    err = obj.get("error") or {}
                    err_type = str(err.get("type", "error"))
                    yield reply.error(f"{err_type}: {err.get('message', '')}".rstrip(),
                                      error_code_for(err_type, default=ErrorCode.PROVIDER_ERROR))
                    return
                if kind == "message_start":
                    usage = (obj.get("message") or {}).get("usage") or {}
                    if isinstance(usage.get("input_tokens"), int):
                        meta["prompt_tokens"] = usage["input_tokens"] + int(usage.get("cache_read_input_tokens") or 0) \
                            + int(usage.get("cache_creation_input_tokens") or 0)
                elif kind == "content_block_start":
                    index = int(obj.get("index", 0))
                    block_kind = _BLOCK_KINDS.get(str((obj.get("content_block") or {}).get("type")))
                    if block_kind is not None:
                        yield reply.start(block_kind, f"{block_kind}-{index}", key=index)
                elif kind == "content_block_delta":
                    index = int(obj.get("index", 0))
                    delta = obj.get("delta") or {}
                    kind_and_field = _DELTA_KINDS.get(str(delta.get("type")))
                    if kind_and_field is not None:
                        block_kind, text_field = kind_and_field
                        piece = reply.delta(index, block_kind, str(delta.get(text_field, "")))
                        if piece is not None:
                            yield piece
                elif kind == "content_block_stop":
                    end = reply.end(int(obj.get("index", 0)))
                    if end is not None:
                        yield end
                elif kind == "message_delta":
                    stop_reason = (obj.get("delta") or {}).get("stop_reason") or stop_reason
                    usage = obj.get("usage") or {}
                    if isinstance(usage.get("output_tokens"), int):
                        meta["completion_tokens"] = usage["output_tokens"]
                elif kind == "message_stop":
                    stopped = True
                    break
        if "prompt_tokens" in meta or "completion_tokens" in meta:
            meta["total_tokens"] = int(meta.get("prompt_tokens", 0)) + int(meta.get("completion_tokens", 0))
        # A block the server never stopped is over once the message is: ended, not left streaming.
        for chunk in reply.ending(request.signal, complete=stopped, finish_reason=stop_reason or "end_turn",
                                  close_blocks=True):
            yield chunk
